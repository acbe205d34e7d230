"""The web form: built from the contract (``descrever_regimes()``, one definition of the
fields), read with the pt-BR table reading (``71,70`` and ``71.70`` both work; an empty input
is an absent field), and turned into a canonical JSON case that the API, the CLI and a saved
case all accept. No rule lives here: validation is the engine's (:func:`multas.nucleo.motor.ler_caso`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.calendario import CalendarioFederal
from multas.nucleo.catalogo import descrever_regimes
from multas.nucleo.contrato import Caso, Leitura
from multas.nucleo.cotacoes import VOLUMES
from multas.nucleo.datas import data_com_dia_da_semana, data_digitada, formatar_data
from multas.nucleo.dinheiro import normalizar_ptbr
from multas.nucleo.erros import EntradaInvalida, ErrosDeEntrada, levantar, mostrar_valor
from multas.nucleo.preco import exato
from multas.nucleo.regimes import REGIMES
from multas.nucleo.rotulos import leitura as rotulo_leitura
from multas.nucleo.rotulos import rotulo_campo
from multas.nucleo.sinonimos import com_nomes_do_contrato

#: how the form's strings are read: booleans "sim/não", numbers "1.234,56" or "1234.56"
FORMULARIO = Leitura(tabela=True, decimal_virgula=True)

WIDGETS = {
    "ano": "inteiro",
    "contagem": "inteiro",
    "quantia": "decimal",
    "quantia_positiva": "decimal",
    "preco": "decimal",
    "quantidade": "decimal",
    "data": "data",
    "booleano": "caixa",
    "inciso": "selecao",
    "cotacoes_mensais": "area",
    "cotacoes_diarias": "area",
    "taxas_mensais": "area",
    "datas": "area",
    "texto": "texto",
    "opcao": "selecao",
    "infracoes": "area",
    "agente": "selecao",
}

DICAS = {
    "ano": "Ex.: 2025",
    "contagem": "Número inteiro. Ex.: 600000 ou 600.000",
    "quantia": "Em reais, até 2 casas. Ex.: 1.234.567,89 ou 1234567.89",
    "quantia_positiva": "Em reais, maior que zero, até 2 casas. Ex.: 250.000,00",
    "preco": "Em reais. Ex.: 71,70 ou 71.70",
    "quantidade": "Use vírgula para os decimais. Ex.: 1,855",
    "data": "Dia, mês e ano: dd/mm/aaaa. Ex.: 15/03/2025 ou 15032025",
    "booleano": "",
    "inciso": "",
    "cotacoes_mensais": "Uma linha por mês: o mês e a média. Ex.: 2025-03 71,70",
    "cotacoes_diarias": "Uma linha por dia: a data e o preço (ex.: 2025-03-14 71,70), ou a data, "
    "a quantidade negociada e o valor financeiro (ex.: 2025-03-14 1200 86.040,00), ou os quatro",
    "taxas_mensais": "Uma linha por mês: o mês e a Selic do mês, em %. Ex.: 2025-04 1,06",
    "datas": "Uma data por linha, dd/mm/aaaa. Ex.: 23/06/2025",
    "texto": "",
    "opcao": "",
    "infracoes": "Uma linha por inciso do auto: o inciso e, se fixado, o valor. Ex.: XI 20.000,00",
    "agente": "",
}

#: the booleans whose absence the core reads apart from false (not known: spec § 3.1's 85% rule
#: shows its aviso): a choice of "não informado", "sim" and "não". Every other boolean is a box,
#: sent with a hidden "não" before it, so an unticked box means false, not the default
BOOLEANOS_TRES_ESTADOS = frozenset({"meta_anterior_cumprida"})
#: the boxes ticked on a fresh form: the booleans whose absence the core reads as true
#: (``diferir``: the distributor defers when it may), so the untouched form means the default
CAIXAS_MARCADAS = frozenset({"diferir"})
#: those choices (the empty one first, as every selection has)
_SIM_NAO = [("sim", "sim"), ("não", "não")]
#: JSON's booleans in a field's description, as the page's booleans are written (sim/não)
_BOOLEANO_JSON = re.compile(r"\b(?:(Com|com) )?(true|false)\b")

_LINHA = re.compile(r"^\s*([^\s;:=]+)\s*[\s;:=]\s*([^\s;:=]+)\s*$")
_MES_BR = re.compile(r"^(\d{1,2})/(\d{4})$")


@dataclass(frozen=True)
class CampoFormulario:
    nome: str
    rotulo: str
    tipo: str
    widget: str
    obrigatorio: bool
    dica: str
    opcoes: list[tuple[str, str]] = field(default_factory=list)
    #: a selection's empty choice, as the page names it
    vazio: str = "— escolha —"
    #: a box ticked when the form has no value for it (a fresh form)
    marcada: bool = False


@dataclass(frozen=True)
class Formulario:
    regime: str
    titulo: str
    fundamento: str
    campos: list[CampoFormulario]
    leituras: list[CampoFormulario]


def opcoes_inciso() -> list[tuple[str, str]]:
    """The incisos of Lei 9.847/1999 art. 3º (the default numbering, spec § 3.4 v4), each with
    the infraction it names where its text is transcribed, else the decree's inciso of that
    number (``norma = decreto-2953``), from the legislation in force today."""
    from multas.nucleo.legislacao import carregar
    from multas.nucleo.regimes.anp_infracao import incisos_da_lei
    from multas.servicos.relogio import hoje

    lei = carregar().em(hoje())
    opcoes = []
    for romano in incisos_da_lei(lei.legislacao):
        partes = []
        for prefixo, nome in (("lei", "anp.faixa_lei"), ("decreto", "anp.faixa_decreto")):
            vigencia = (
                lei.get(f"{nome}.{romano}")
                if f"{nome}.{romano}" in lei.legislacao.parametros
                else None
            )
            descricao = ""
            if vigencia is not None and isinstance(vigencia.valor, dict):
                descricao = str(vigencia.valor.get("descricao", ""))
            if len(descricao) > 90:
                descricao = descricao[:87].rsplit(" ", 1)[0] + "…"
            partes.append(f"{prefixo}: {descricao or 'texto não transcrito'}")
        opcoes.append((romano, f"{romano} — {'; '.join(partes)}"))
    return opcoes


def _opcoes_do_campo(c: Mapping[str, Any]) -> list[tuple[str, str]]:
    if c["tipo"] in _OPCOES:
        return _OPCOES[c["tipo"]]()
    return [(o, f"{o} (padrão)" if i == 0 else o) for i, o in enumerate(c.get("opcoes", ()))]


def _opcao(chave: str, opcao: str) -> str:
    """A reading's option for people, with its key (what the CLI and the API take)."""
    return f"{rotulo_leitura(chave, opcao).split(': ', 1)[1]} ({opcao})"


def opcoes_agente() -> list[tuple[str, str]]:
    """Who broke the sales ban (spec § 3.7 point 2)."""
    return [("distribuidor", "Distribuidor (padrão)"), ("outro", "Outro agente")]


#: the options of each field shown as a selection
_OPCOES: dict[str, Callable[[], list[tuple[str, str]]]] = {
    "inciso": opcoes_inciso,
    "agente": opcoes_agente,
}


def rotulo_para_pessoas(descricao: str) -> str:
    """A field's description as the page's label: JSON's ``true`` and ``false`` are the
    page's "sim" and "não" ("Com true," reads "Se sim,").

    >>> rotulo_para_pessoas("Usar o diferimento (padrão: true). Com false, não difere")
    'Usar o diferimento (padrão: sim). Se não, não difere'
    """

    def trocar(achado: re.Match[str]) -> str:
        palavra = "sim" if achado[2] == "true" else "não"
        if achado[1] is None:
            return palavra
        return f"{'Se' if achado[1] == 'Com' else 'se'} {palavra}"

    return _BOOLEANO_JSON.sub(trocar, descricao)


def formulario(regime: str) -> Formulario:
    """The form of one regime, from the contract's description of its fields."""
    descricao = next((r for r in descrever_regimes() if r["regime"] == regime), None)
    if descricao is None:
        raise EntradaInvalida("regime", f"regime desconhecido: {mostrar_valor(regime)}")
    campos = [
        CampoFormulario(
            nome=c["nome"],
            rotulo=rotulo_para_pessoas(c["descricao"]),
            tipo=c["tipo"],
            widget=WIDGETS[c["tipo"]],
            obrigatorio=c["obrigatorio"],
            dica=DICAS[c["tipo"]],
            opcoes=_opcoes_do_campo(c),
            marcada=c["nome"] in CAIXAS_MARCADAS,
        )
        if c["nome"] not in BOOLEANOS_TRES_ESTADOS
        else CampoFormulario(
            nome=c["nome"],
            rotulo=rotulo_para_pessoas(c["descricao"]),
            tipo=c["tipo"],
            widget="selecao",
            obrigatorio=False,
            dica="",
            opcoes=_SIM_NAO,
            vazio="não informado",
        )
        for c in descricao["campos"]
    ]
    leituras = [
        CampoFormulario(
            nome=f"interpretacao.{chave}",
            rotulo=f"Leitura do texto legal: {rotulo_campo(f'interpretacao.{chave}')}",
            tipo="interpretacao",
            widget="selecao",
            obrigatorio=False,
            dica=f"Padrão: {_opcao(chave, info['padrao'])}. As outras leituras aparecem ao lado "
            "do resultado.",
            opcoes=[
                (
                    opcao,
                    f"{_opcao(chave, opcao)} (padrão)"
                    if opcao == info["padrao"]
                    else _opcao(chave, opcao),
                )
                for opcao in info["opcoes"]
            ],
        )
        for chave, info in descricao["interpretacao"].items()
    ]
    return Formulario(
        regime=regime,
        titulo=descricao["titulo"],
        fundamento=descricao["fundamento"],
        campos=campos,
        leituras=leituras,
    )


#: how the page names the ``ambito`` of a date outside the national calendar
AMBITOS_PTBR = {"local": "ato local", "condicional": "ato condicional"}


@dataclass(frozen=True)
class DiaSugerido:
    """A local or conditional date of the calendar, offered (never applied) for a list of
    dates field such as ``dias_sem_expediente``."""

    data: str  # ISO, to compare with what the field holds
    texto: str  # dd/mm/aaaa, what a click writes in the field
    rotulo: str  # dd/mm/aaaa (dia da semana)
    nome: str
    ambito: str
    ato: str
    escolhido: bool


@dataclass(frozen=True)
class Sugestoes:
    """The local and conditional dates of the years the form's dates fall in (or of the
    current year, when it has none yet)."""

    campo: str  # the field they are offered for
    anos: list[int]
    do_relogio: bool
    dias: list[DiaSugerido]
    de_que: str = "caso"  # whose dates the years come from: "caso" or "processo"

    @property
    def anos_texto(self) -> str:
        """``2025``, ``2021 e 2022`` or ``2019 a 2025``."""
        if len(self.anos) == 1:
            return f"{self.anos[0]:04d}"
        separador = " e " if len(self.anos) == 2 else " a "
        return f"{self.anos[0]:04d}{separador}{self.anos[-1]:04d}"


def _datas_digitadas(textos: list[str]) -> set[date]:
    """The valid dates among ``textos`` (dd/mm/aaaa, ddmmaaaa or ISO); the others are ignored
    here (they are named when the form is sent)."""
    dias = set()
    for texto in textos:
        try:
            dias.add(data_digitada(texto, ""))
        except EntradaInvalida:
            continue
    return dias


def sugestoes_de_dias(
    form: Formulario, valores: Mapping[str, str], calendario: CalendarioFederal, hoje: date
) -> Sugestoes | None:
    """The calendar's local and conditional dates to offer under the form's list-of-dates
    field (spec § 1: listed apart, never applied unless the user adds them), or ``None`` when
    the form has no such field: :func:`sugerir_dias` on the form's date fields."""
    lista = next((c for c in form.campos if c.tipo == "datas"), None)
    if lista is None:
        return None
    datas = [valores.get(c.nome) or "" for c in form.campos if c.widget == "data"]
    return sugerir_dias(lista.nome, datas, valores.get(lista.nome) or "", calendario, hoje)


#: the page's new-processo form (``POST /processos``), as ``GET /formulario/dias-locais``
#: names it (``formulario=processo``): its one date is the first event's, ``data``
FORMULARIO_PROCESSO = "processo"


def sugestoes_do_processo(
    valores: Mapping[str, str], calendario: CalendarioFederal, hoje: date
) -> Sugestoes:
    """:func:`sugerir_dias` for the new-processo form: the year of its first event's date."""
    return sugerir_dias(
        "dias_sem_expediente",
        [valores.get("data") or ""],
        valores.get("dias_sem_expediente") or "",
        calendario,
        hoje,
        de_que="processo",
    )


def sugerir_dias(
    campo: str,
    datas: Iterable[str],
    texto_do_campo: str,
    calendario: CalendarioFederal,
    hoje: date,
    de_que: str = "caso",
) -> Sugestoes:
    """The calendar's local and conditional dates to offer under the list-of-dates field
    ``campo``, whose text is ``texto_do_campo``.

    The years are those from the earliest to the latest of ``datas`` (ISO or dd/mm/aaaa; the
    unreadable ones are ignored); with none, the year of ``hoje`` (the injected clock). A date
    already in the field comes back as chosen.
    """
    digitadas = _datas_digitadas(list(datas))
    do_relogio = not digitadas
    anos = sorted({d.year for d in digitadas}) or [hoje.year]
    anos = list(range(anos[0], anos[-1] + 1))
    escolhidos = _datas_digitadas(datas_do_campo(texto_do_campo))
    dias = [
        DiaSugerido(
            data=d.data.isoformat(),
            texto=formatar_data(d.data),
            rotulo=data_com_dia_da_semana(d.data),
            nome=d.nome,
            ambito=AMBITOS_PTBR.get(d.ambito, d.ambito),
            ato=d.ato,
            escolhido=d.data in escolhidos,
        )
        for d in calendario.fora_do_nacional
        if anos[0] <= d.data.year <= anos[-1]
    ]
    return Sugestoes(campo, anos, do_relogio, dias, de_que)


def _data(texto: str) -> str:
    """A typed date (dd/mm/aaaa, ddmmaaaa or ISO) as ISO; an unreadable one is left as typed,
    for the engine to name it with its place (``cotacoes_diarias[2].data``)."""
    try:
        return data_digitada(texto, "").isoformat()
    except EntradaInvalida:
        return texto


def data_do_formulario(texto: str, campo: str) -> str:
    """A page's date field as the contract's ISO text: dd/mm/aaaa, ddmmaaaa or ISO
    (:func:`multas.nucleo.datas.data_digitada`); an empty or invalid one is an error naming ``campo``,
    which the page shows next to the field.

    >>> data_do_formulario("15032025", "data"), data_do_formulario("15/3/2025", "data")
    ('2025-03-15', '2025-03-15')
    """
    if not texto.strip():
        raise EntradaInvalida(campo, "informe a data (dd/mm/aaaa)")
    return data_digitada(texto, campo).isoformat()


def datas_do_campo(texto: str, campo: str | None = None) -> list[str]:
    r"""A list-of-dates field as the contract's list: one date per line (or separated by
    spaces, ``;`` or ``,``), each dd/mm/aaaa, ddmmaaaa or ISO, turned into ISO. With ``campo``
    an invalid date is an error naming it (``dias_sem_expediente[1]``); without it, it is left
    as typed.

    >>> datas_do_campo("23/06/2025\n2025-06-24; 1/7/2025 02072025"), datas_do_campo("  ")
    (['2025-06-23', '2025-06-24', '2025-07-01', '2025-07-02'], [])
    """
    itens = [item for item in re.split(r"[\s;,]+", texto) if item]
    if campo is None:
        return [_data(item) for item in itens]
    return [data_digitada(item, f"{campo}[{i}]").isoformat() for i, item in enumerate(itens)]


def _linhas(texto: str, nome: str, o_que: str = "a data e o preço") -> list[tuple[str, str]]:
    pares = []
    for numero, linha in enumerate(texto.splitlines(), 1):
        if not linha.strip():
            continue
        casamento = _LINHA.match(linha)
        if not casamento:
            raise EntradaInvalida(
                nome, f"linha {numero} ilegível: {mostrar_valor(linha.strip())} (escreva {o_que})"
            )
        pares.append((casamento.group(1), normalizar_ptbr(casamento.group(2))))
    return pares


def _cotacoes_mensais(texto: str, nome: str) -> dict[str, str]:
    cotacoes: dict[str, str] = {}
    o_que = "o mês e a taxa" if nome == "taxas_selic" else "o mês e a média"
    for mes, preco in _linhas(texto, nome, o_que):
        casamento = _MES_BR.match(mes)
        chave = f"{casamento.group(2)}-{int(casamento.group(1)):02d}" if casamento else mes
        if chave in cotacoes:
            raise EntradaInvalida(f"{nome}.{chave}", "mês repetido")
        cotacoes[chave] = preco
    return cotacoes


def _cotacoes_diarias(texto: str, nome: str) -> list[dict[str, str]]:
    """One quote a line: the date and the price; the date, the quantity and the value traded;
    or the date and all three (spec § 3.1 v4).

    >>> _cotacoes_diarias("14/03/2025 71,70\\n2025-03-17 1200 86.040,00", "cotacoes_diarias")
    [{'data': '2025-03-14', 'preco': '71.70'}, {'data': '2025-03-17', 'quantidade': '1200', \
'valor_financeiro': '86040.00'}]
    """
    cotacoes: list[dict[str, str]] = []
    for numero, linha in enumerate(texto.splitlines(), 1):
        partes = [p for p in re.split(r"\s*[\s;:=]\s*", linha.strip()) if p]
        if not partes:
            continue
        if len(partes) not in (2, 3, 4):
            raise EntradaInvalida(
                nome,
                f"linha {numero} ilegível: {mostrar_valor(linha.strip())} (escreva a data e o "
                "preço; ou a data, a quantidade e o valor financeiro; ou os quatro)",
            )
        chaves = {2: ("preco",), 3: VOLUMES, 4: ("preco", *VOLUMES)}[len(partes)]
        cotacao = {"data": _data(partes[0])}
        cotacao.update(zip(chaves, map(normalizar_ptbr, partes[1:]), strict=True))
        cotacoes.append(cotacao)
    return cotacoes


def _infracoes(texto: str) -> list[dict[str, str]]:
    """An auto's incisos, one a line: the inciso and, if fixed, its amount (spec § 3.4.1).

    >>> _infracoes("XI 20.000,00\\nxii")
    [{'inciso': 'XI', 'valor': '20000.00'}, {'inciso': 'xii'}]
    """
    itens: list[dict[str, str]] = []
    for linha in texto.splitlines():
        partes = linha.split(None, 1)
        if partes:
            item = {"inciso": partes[0]}
            if len(partes) > 1:
                item["valor"] = normalizar_ptbr(partes[1].strip())
            itens.append(item)
    return itens


def erros_no_formulario(
    erros: Iterable[EntradaInvalida], formulario: Mapping[str, str]
) -> EntradaInvalida:
    """Every error of a form's submission (:func:`erro_no_formulario` each), as one refusal
    whose first error stands for all (:class:`~multas.nucleo.erros.ErrosDeEntrada`)."""
    lista = [erro_no_formulario(e, formulario) for e in erros]
    return lista[0] if len(lista) == 1 else ErrosDeEntrada(lista)


def erro_no_formulario(erro: EntradaInvalida, formulario: Mapping[str, str]) -> EntradaInvalida:
    """The engine names an auto's item by its place in the list (``infracoes[2].valor``); the
    page names the textarea's line instead, blank lines counted, as the user sees it.

    >>> e = erro_no_formulario(EntradaInvalida("infracoes[2].valor", "número inválido"),
    ...                        {"infracoes": "XI\\n\\nXII 1,2,3"})
    >>> e.campo, e.mensagem
    ('infracoes', 'linha 3, valor: número inválido')
    """
    achado = re.fullmatch(r"(\w+)\[(\d+)\](?:\.(\w+))?", erro.campo or "")
    if achado is None or achado[1] != "infracoes":
        return erro
    linhas = [
        n
        for n, linha in enumerate(formulario.get("infracoes", "").splitlines(), 1)
        if linha.split()
    ]
    item = int(achado[2])
    if not 1 <= item <= len(linhas):
        return erro
    onde = f"linha {linhas[item - 1]}" + (f", {achado[3]}" if achado[3] else "")
    novo = EntradaInvalida("infracoes", f"{onde}: {erro.mensagem}")
    novo.id = erro.id
    return novo


def cnpj_do_formulario(texto: str, campo: str = "cnpj") -> str:
    """The form's CNPJ (who the case is about, optional): read as every other form that names a
    client reads it (:func:`multas.nucleo.cnpj.ler_cnpj`: its shape and check digits), and
    kept formatted, as people write it; an error names ``campo``.

    >>> cnpj_do_formulario("11222333000181")
    '11.222.333/0001-81'
    """
    from multas.nucleo.cnpj import formatar, ler_cnpj

    return formatar(ler_cnpj(texto, campo))


def dados_do_formulario(formulario: Mapping[str, str]) -> dict[str, Any]:
    """The raw case from the form's strings (empty means absent); values are not validated.
    Every field the form itself reads (dates, quotes, the CNPJ) is an error of its own, all
    raised together (:func:`ler_formulario`)."""
    dados, erros = ler_formulario(formulario)
    levantar(erros)
    return dados


def ler_formulario(formulario: Mapping[str, str]) -> tuple[dict[str, Any], list[EntradaInvalida]]:
    """The raw case from the form's strings, and the errors of the fields the form reads
    itself (a date, a line of quotes, the CNPJ), each field on its own: a field in error is
    left out of the case, for the engine to read the others (the page shows every error at
    once). Without a known regime nothing can be read: that error is raised."""
    nome = (formulario.get("regime") or "").strip()
    if not nome:
        raise EntradaInvalida("regime", "escolha o regime")
    regime = REGIMES.get(nome)
    if regime is None:
        raise EntradaInvalida("regime", f"regime desconhecido: {mostrar_valor(nome)}")
    dados: dict[str, Any] = {"regime": nome}
    erros: list[EntradaInvalida] = []
    for c in regime.caso.campos():
        bruto = (formulario.get(c.nome) or "").strip()
        if bruto:
            try:
                dados[c.nome] = _valor_do_campo(c.tipo, c.nome, bruto)
            except EntradaInvalida as erro:
                erros.extend(erro.todos())
    cnpj = (formulario.get("cnpj") or "").strip()
    if cnpj:
        try:
            dados["cnpj"] = cnpj_do_formulario(cnpj)
        except EntradaInvalida as erro:
            erros.append(erro)
    interpretacao = {
        chave: valor.strip()
        for chave in regime.interpretacoes
        if (valor := formulario.get(f"interpretacao.{chave}") or "").strip()
    }
    if interpretacao:
        dados["interpretacao"] = interpretacao
    return dados, erros


def _valor_do_campo(tipo: str, nome: str, bruto: str) -> Any:
    """One field's text as the contract's JSON value (the widgets that need reading)."""
    if tipo == "data":
        return data_do_formulario(bruto, nome)
    if tipo in ("cotacoes_mensais", "taxas_mensais"):
        return _cotacoes_mensais(bruto, nome)
    if tipo == "cotacoes_diarias":
        return _cotacoes_diarias(bruto, nome)
    if tipo == "datas":
        return datas_do_campo(bruto, nome)
    if tipo == "infracoes":
        return _infracoes(bruto)
    return bruto


def _json(valor: Any) -> Any:
    if isinstance(valor, bool | int | str):
        return valor
    if isinstance(valor, Decimal):
        return str(valor)  # exact, as written: a JSON string is parsed as a Decimal again
    if isinstance(valor, date):
        return valor.isoformat()
    if isinstance(valor, dict):
        return {chave: _json(item) for chave, item in valor.items()}
    if isinstance(valor, frozenset):  # a list of dates (dias_sem_expediente), sorted
        return [dia.isoformat() for dia in sorted(valor)]
    if isinstance(valor, Fraction):  # an exact price "p/q"
        return exato(valor)
    if isinstance(valor, tuple):  # daily quotes, an auto's incisos
        return [item.como_dict() for item in valor]
    raise TypeError(type(valor))  # pragma: no cover


def caso_canonico(caso: Caso, interpretacao: Mapping[str, str]) -> dict[str, Any]:
    """A validated case as a JSON case of the contract (numbers as exact strings).

    >>> from multas.nucleo.motor import ler_caso
    >>> _, caso, leitura = ler_caso({"regime": "anp.infracao", "inciso": "xi",
    ...                              "valor": "750.000,00"}, FORMULARIO)
    >>> caso_canonico(caso, leitura)
    {'regime': 'anp.infracao', 'inciso': 'XI', 'valor': '750000.00', 'interpretacao': {'faixa': 'lei'}}
    """
    dados: dict[str, Any] = {"regime": caso.regime}
    for c in type(caso).campos():
        valor = getattr(caso, c.nome)
        if valor is not None:
            dados[c.nome] = _json(valor)
    if interpretacao:
        dados["interpretacao"] = dict(interpretacao)
    return dados


def _ptbr(valor: Any) -> str:
    """A contract number as the form shows it: ``"71.70"`` → ``71,70`` (read back exactly)."""
    texto = str(valor)
    return texto.replace(".", ",") if re.fullmatch(r"-?\d+\.\d+", texto) else texto


def valores_do_caso(caso: Mapping[str, Any]) -> dict[str, str]:
    """A JSON case as the form's values, to reopen it in the form.

    >>> valores_do_caso({"regime": "renovabio.produtor", "ano": 2025, "maior_media_mensal":
    ...                  "70.43", "dados_primarios": True, "interpretacao": {"faturamento": "maior"}})
    {'regime': 'renovabio.produtor', 'ano': '2025', 'maior_media_mensal': '70,43', \
'dados_primarios': 'sim', 'interpretacao.faturamento': 'maior'}
    """
    valores = {"regime": str(caso.get("regime", ""))}
    regime = REGIMES.get(valores["regime"])
    if regime is not None:  # a case saved with ano reopens it as ano_meta
        caso = com_nomes_do_contrato(caso, regime.caso)
    for chave, valor in caso.items():
        if chave == "regime" or valor is None:
            continue
        if chave == "interpretacao" and isinstance(valor, Mapping):
            valores.update({f"interpretacao.{k}": str(v) for k, v in valor.items()})
        elif isinstance(valor, bool):
            valores[chave] = "sim" if valor else "não"
        elif isinstance(valor, Mapping):
            valores[chave] = "\n".join(f"{mes} {_ptbr(preco)}" for mes, preco in valor.items())
        elif isinstance(valor, list):
            valores[chave] = "\n".join(
                " ".join(
                    _ptbr(item[k])
                    for k in ("inciso", "data", "preco", *VOLUMES, "valor")
                    if item.get(k) is not None
                )
                for item in valor
                if isinstance(item, Mapping)
            )
        else:
            valores[chave] = _ptbr(valor)
    return valores


def campo_do_erro(campo: str | None) -> str | None:
    """The form input an error belongs to: ``cotacoes_diarias[2].data`` → ``cotacoes_diarias``.

    >>> campo_do_erro("interpretacao.faturamento"), campo_do_erro("cotacoes_mensais.2025-13")
    ('interpretacao.faturamento', 'cotacoes_mensais')
    """
    if campo is None or campo.startswith("interpretacao."):
        return campo
    return re.split(r"[.\[]", campo, maxsplit=1)[0]


# --- the "Colunas" field of a form that imports a table -----------------------------------

#: a "Colunas" field (``--coluna``'s pairs): at most this many characters
MAXIMO_COLUNAS = 4000


def ler_colunas_do_formulario(texto: str, campo: str) -> dict[str, str]:
    """A "Colunas (CAMPO=CABEÇALHO, uma por linha)" field, read as ``--coluna`` is
    (:func:`multas.nucleo.cabecalhos.ler_colunas`): an error names the form's field."""
    from multas.nucleo.cabecalhos import ler_colunas

    if len(texto) > MAXIMO_COLUNAS:
        raise EntradaInvalida(campo, f"no máximo {MAXIMO_COLUNAS} caracteres")
    return ler_colunas([par for par in texto.splitlines() if par.strip()], campo)


def no_campo_das_colunas(erro: EntradaInvalida, campo: str) -> EntradaInvalida:
    """A reader's ``--coluna`` error (a header the table lacks, a field the importer does not
    know) as the form's "Colunas" field; any other error as it is."""
    return EntradaInvalida(campo, erro.mensagem) if erro.campo == "--coluna" else erro


# --- the form "Conferir a notificação" (the distributor's page) ---------------------------

#: the ANP notice's figures on the page's form (``POST /carteira/conferir``): (field, label,
#: hint), named as the API and ``multas carteira conferir`` take them
FIGURAS_DA_NOTIFICACAO = (
    ("meta_publicada", "Meta publicada", "CBIOs, já com a falta do ano anterior"),
    ("falta_anterior", "Falta do ano anterior", "CBIOs somados à meta"),
    ("cbios_aposentados", "CBIOs aposentados", "os que a ANP contou"),
    ("preco", "Preço do CBIO", "a maior média mensal usada na multa; ex.: 71,70"),
    ("valor_multa", "Valor da multa", "em reais; ex.: 14.340.000,00"),
)
