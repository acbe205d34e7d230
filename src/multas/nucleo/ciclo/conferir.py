"""The ANP's notice against the distributor's ledger (``multas carteira conferir``, issue 19):
figure by figure, the ANP's value, the distributor's own, and what the difference is worth.

The notice's figures (the distributor copies them from the notice; each optional, at least
one): ``meta_publicada`` (the year's target with the carry-over), ``falta_anterior`` (the
carry-over in it), ``cbios_aposentados`` (the CBIOs the ANP counted), ``preco`` (the CBIO
price the fine used) and ``valor_multa`` (the fine). ``cnpj`` and ``ano`` may also be given;
they must then be the ones asked.

The distributor's own figures are the ledger's line of the year (:mod:`multas.nucleo.ciclo.carteira`):
``meta_total``, ``acrescimo_ano_anterior``, ``cbios_aposentados``, the year's price (its
``maior_media_mensal``, or the highest monthly mean of its quotes, exact) and ``multa``.

What a difference is worth, in reais: the ledger recomputed with only that figure of the year
replaced by the ANP's (:class:`~multas.nucleo.ciclo.carteira.Substituicao`; the same ledger and
engine code, so the deferral, the floor, the ceiling, the revenue cap and the quitação apply
as always), the year's fine minus the distributor's own fine. For ``valor_multa``, the plain
difference. Replacing ``falta_anterior`` keeps the year's own target (the total becomes that
plus the ANP's carry-over), and a carry-over above zero means the year before was not met (no
deferral); replacing ``cbios_aposentados`` recomputes the quitação of the retirements after
the deadline from it. The worths do not add up to the total difference in general (the floor,
the ceiling and the cap are not linear); the summary also gives the fine recomputed with all
the ANP's figures at once, and what of the ANP's fine they do not explain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.arquivos import SERVIDOR, Limites, decodificar
from multas.nucleo.ciclo.carteira import (
    AnoCarteira,
    Substituicao,
    calcular_carteira,
    ler_leituras,
)
from multas.nucleo.cnpj import normalizar
from multas.nucleo.contrato import JSON, Campo, Leitura, ler_valor
from multas.nucleo.cotacoes import Serie, preco_do_ano
from multas.nucleo.dinheiro import (
    exibir,
    formatar_brl,
    formatar_com_sinal,
    formatar_numero,
    formatar_preco,
)
from multas.nucleo.erros import EntradaInvalida, ErrosDeEntrada, levantar
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.preco import exercicio_do_preco

#: the notice's figures, in the order they are compared
FIGURAS: tuple[Campo, ...] = (
    Campo(
        "meta_publicada",
        "contagem",
        "Meta do ano publicada pela ANP, já com a falta do ano anterior",
        False,
        0,
    ),
    Campo("falta_anterior", "contagem", "Falta do ano anterior somada à meta", False, 0),
    Campo("cbios_aposentados", "contagem", "CBIOs aposentados que a ANP contou", False, 0),
    Campo("preco", "preco", "Preço do CBIO usado na multa (maior média mensal)", False, 0),
    Campo("valor_multa", "quantia", "Valor da multa na notificação", False, 0),
)
ROTULOS = {
    "meta_publicada": "Meta publicada",
    "falta_anterior": "Falta do ano anterior",
    "cbios_aposentados": "CBIOs aposentados",
    "preco": "Preço do CBIO",
    "valor_multa": "Multa",
}
#: besides the figures, whose notice and which year (checked against the ones asked)
_ANO = Campo("ano", "ano", "Ano da meta", False, 0)
NOMES = (*(c.nome for c in FIGURAS), "cnpj", "ano")
#: the longest CNPJ text accepted (as the ledger's)
_MAXIMO_CNPJ = 32
#: the year's line of the ledger, computed with some of its figures replaced (or none)
Recalcular = Callable[[Substituicao | None], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Notificacao:
    """The figures of the ANP's notice, as the distributor copied them (validated)."""

    meta_publicada: int | None = None
    falta_anterior: int | None = None
    cbios_aposentados: int | None = None
    preco: Decimal | None = None
    valor_multa: Decimal | None = None
    cnpj: str | None = None
    ano: int | None = None


def _vazio(bruto: object, leitura: Leitura) -> bool:
    return bruto is None or (leitura.tabela and isinstance(bruto, str) and not bruto.strip())


def ler_notificacao(dados: object, leitura: Leitura = JSON) -> Notificacao:
    """Validate a notice (a JSON object, or a table's one row): an error names the field; every
    field is read on its own, and all their errors are raised together."""
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(
            None,
            "a notificação deve ser um objeto JSON com os números dela, ex.: "
            '{"meta_publicada": 120000, "valor_multa": "2500000.00"}',
        )
    erros = [
        EntradaInvalida(
            str(chave)[:60], f"campo desconhecido na notificação (campos: {', '.join(NOMES)})"
        )
        for chave in dados
        if chave not in NOMES
    ]
    valores: dict[str, Any] = {}
    for c in FIGURAS:
        if not _vazio(dados.get(c.nome), leitura):
            try:
                valores[c.nome] = ler_valor(dados[c.nome], c, leitura)
            except EntradaInvalida as erro:
                erros.append(erro)
    if not erros and not valores:
        raise EntradaInvalida(
            "notificacao",
            "a notificação não tem nenhum número: informe ao menos um de "
            f"{', '.join(c.nome for c in FIGURAS)}",
        )
    cnpj = dados.get("cnpj")
    if not _vazio(cnpj, leitura) and (
        not isinstance(cnpj, str) or not cnpj.strip() or len(cnpj) > _MAXIMO_CNPJ
    ):
        erros.append(EntradaInvalida("cnpj", "informe o CNPJ como texto"))
    if not _vazio(dados.get("ano"), leitura):
        try:
            valores["ano"] = ler_valor(dados["ano"], _ANO, leitura)
        except EntradaInvalida as erro:
            erros.append(erro)
    levantar(erros)
    if isinstance(cnpj, str) and cnpj.strip():
        valores["cnpj"] = cnpj.strip()
    notificacao = Notificacao(**valores)
    meta, falta = notificacao.meta_publicada, notificacao.falta_anterior
    if meta is not None and falta is not None and falta > meta:
        raise EntradaInvalida("falta_anterior", "maior que a meta publicada, que já a inclui")
    return notificacao


def ler_notificacao_arquivo(
    conteudo: bytes, nome_arquivo: str, ptbr: bool = False, limites: Limites = SERVIDOR
) -> Notificacao:
    """A notice from a file: JSON (one object), or CSV, XLSX or JSON Lines with one row of
    figures under the header (``--ptbr``: ``;`` and ``1.234,56``). An error about the file
    names ``arquivo``; one about a figure names it, and in a table says the row and column."""
    from multas.nucleo.ciclo.planilha import ler_planilha
    from multas.nucleo.json_exato import ler_json

    if nome_arquivo.lower().endswith(".json"):
        try:
            dados = ler_json(decodificar(conteudo))
        except EntradaInvalida as erro:
            raise EntradaInvalida(erro.campo or "arquivo", erro.mensagem) from None
        if isinstance(dados, list) and len(dados) == 1:
            dados = dados[0]
        return ler_notificacao(dados)
    planilha = ler_planilha(conteudo, nome_arquivo, ptbr, limites)
    if len(planilha.linhas) != 1:
        raise EntradaInvalida(
            "arquivo",
            "a notificação é uma linha de números sob o cabeçalho (meta_publicada, "
            f"falta_anterior, cbios_aposentados, preco, valor_multa); o arquivo tem "
            f"{len(planilha.linhas)} linhas de dados",
        )
    try:
        return ler_notificacao(planilha.linhas[0], planilha.leitura)
    except EntradaInvalida as erro:  # every error of the row, each with where it is
        erros = [planilha.locais[0].localizar(um) for um in erro.todos()]
        raise (erros[0] if len(erros) == 1 else ErrosDeEntrada(erros)) from None


def _exato(valor: Fraction | Decimal | int) -> str:
    """A figure whole: a decimal as written, a fraction as the decimal when it terminates,
    else as ``p/q``."""
    if isinstance(valor, Decimal):
        return f"{valor:f}"
    fracao = Fraction(valor)
    texto = exibir(fracao)
    return f"{fracao.numerator}/{fracao.denominator}" if "…" in texto else texto


def preco_do_ano_da_carteira(
    ano: AnoCarteira,
    leituras: Mapping[str, str] | None = None,
    legislacao: Legislacao | None = None,
) -> Decimal | Fraction | None:
    """The price a ledger year's fine uses: its ``maior_media_mensal``, or the highest monthly
    mean of its own quotes (exact), under the readings of the fine (``media_mensal``,
    ``ano_do_preco``: the engine's); ``None`` when the year has none."""
    if ano.maior_media_mensal is not None:
        return ano.maior_media_mensal
    if ano.cotacoes_diarias is not None or ano.cotacoes_mensais is not None:
        leituras = leituras or {}
        tabela = None if legislacao is None else legislacao.prazo_comprovacao(ano.ano)
        prazo = ano.prazo_comprovacao or (None if tabela is None else tabela[0])
        exercicio = exercicio_do_preco(ano.ano, prazo, leituras.get("ano_do_preco"))
        serie = Serie(ano.cotacoes_diarias or (), ano.cotacoes_mensais or {})
        try:
            return preco_do_ano(serie, exercicio, leituras.get("media_mensal")).valor
        except EntradaInvalida:
            return None
    return None


def conferir_notificacao(
    anos: Sequence[AnoCarteira],
    ano: int,
    notificacao: Notificacao,
    legislacao: Legislacao,
    interpretacao: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The notice of ``ano`` against the ledger of ``anos`` (one distributor's years), figure by
    figure (see the module's docstring), with the summary of the two fines."""
    leituras = ler_leituras(interpretacao)
    do_ano = next((a for a in anos if a.ano == ano), None)
    if do_ano is None:
        raise EntradaInvalida("ano", f"o ano {ano} não está na carteira")
    if notificacao.ano is not None and notificacao.ano != ano:
        raise EntradaInvalida("ano", f"a notificação é da meta de {notificacao.ano}, não de {ano}")
    if notificacao.cnpj is not None and normalizar(notificacao.cnpj) != normalizar(do_ano.cnpj):
        raise EntradaInvalida(
            "cnpj", f"a notificação é do CNPJ {notificacao.cnpj}, não de {do_ano.cnpj}"
        )

    def linha_com(substituicao: Substituicao | None) -> dict[str, Any]:
        carteira = calcular_carteira(
            anos,
            legislacao,
            interpretacao=leituras,
            substituicoes=None if substituicao is None else {ano: substituicao},
        )
        return next(linha for linha in carteira["anos"] if linha["ano"] == ano)

    propria = linha_com(None)
    multa_propria = None if propria["multa"] is None else Decimal(propria["multa"])
    proprios: dict[str, Any] = {
        "meta_publicada": propria["meta_total"],
        "falta_anterior": propria["acrescimo_ano_anterior"],
        "cbios_aposentados": propria["cbios_aposentados"],
        "preco": preco_do_ano_da_carteira(do_ano, leituras, legislacao),
        "valor_multa": multa_propria,
    }
    itens = [
        _item(c.nome, getattr(notificacao, c.nome), proprios[c.nome], multa_propria, linha_com)
        for c in FIGURAS
    ]
    trocas = {
        c.nome: getattr(notificacao, c.nome)
        for c in FIGURAS[:4]
        if getattr(notificacao, c.nome) is not None
    }
    com_todos = _multa_recalculada(linha_com, Substituicao(**trocas)) if trocas else None
    multa_anp = notificacao.valor_multa
    return {
        "cnpj": do_ano.cnpj,
        "nome": next(
            (a.nome for a in sorted(anos, key=lambda a: a.ano, reverse=True) if a.nome), None
        ),
        "ano": ano,
        "itens": itens,
        "diferencas": [item["campo"] for item in itens if item["difere"]],
        "multa_anp": None if multa_anp is None else f"{multa_anp:.2f}",
        "multa_distribuidor": propria["multa"],
        "diferenca_total": _diferenca(multa_anp, multa_propria),
        "multa_com_os_numeros_da_anp": None if com_todos is None else com_todos[0],
        "diferenca_nao_explicada": _diferenca(
            multa_anp,
            None if com_todos is None or com_todos[0] is None else Decimal(com_todos[0]),
        ),
        "avisos": [*propria["avisos"], *([] if com_todos is None else com_todos[1])],
        "interpretacao": leituras,
    }


def _diferenca(a: Decimal | None, b: Decimal | None) -> str | None:
    return None if a is None or b is None else f"{a - b:.2f}"


def _multa_recalculada(
    linha_com: Recalcular, substituicao: Substituicao
) -> tuple[str | None, list[str]]:
    """(the year's fine with ``substituicao``, or ``None`` when it does not compute; a note
    saying why it did not)."""
    try:
        linha = linha_com(substituicao)
    except EntradaInvalida as erro:
        return None, [f"Com os números da ANP, a multa não se calcula: {erro.mensagem}"]
    if linha["multa"] is None:
        return None, ["Sem o preço do CBIO do ano, a multa recalculada não se calcula."]
    return str(linha["multa"]), []


def _mostrar(campo: str, valor: Any) -> Any:
    """A figure as the output shows it: counts as integers, the price whole, reais to the
    centavo."""
    if valor is None:
        return None
    if campo == "preco":
        return _exato(valor)
    if campo == "valor_multa":
        return f"{valor:.2f}"
    return int(valor)


def _item(
    campo: str,
    anp: Any,
    proprio: Any,
    multa_propria: Decimal | None,
    linha_com: Recalcular,
) -> dict[str, Any]:
    """One figure: the two values, whether they differ, and the worth of the difference."""
    item: dict[str, Any] = {
        "campo": campo,
        "rotulo": ROTULOS[campo],
        "anp": _mostrar(campo, anp),
        "distribuidor": _mostrar(campo, proprio),
        "difere": None,
        "diferenca": None,
        "valor_em_reais": None,
        "multa_recalculada": None,
        "nota": None,
    }
    if anp is None:
        item["nota"] = "não informado na notificação"
        return item
    if proprio is not None:
        item["difere"] = Fraction(anp) != Fraction(proprio)
        diferenca = Fraction(anp) - Fraction(proprio)
        if campo == "valor_multa":
            item["diferenca"] = f"{anp - proprio:.2f}"
        elif campo == "preco":  # two decimals subtract as decimals; a mean of quotes exactly
            decimais = isinstance(anp, Decimal) and isinstance(proprio, Decimal)
            item["diferenca"] = _exato(anp - proprio if decimais else diferenca)
        else:
            item["diferenca"] = int(diferenca)
    if campo == "valor_multa":
        if proprio is None:
            item["nota"] = "sem o preço do CBIO do ano, a carteira não calcula a multa"
        else:
            item["valor_em_reais"] = item["diferenca"]
        return item
    if item["difere"] is False:
        item["multa_recalculada"] = None if multa_propria is None else f"{multa_propria:.2f}"
        item["valor_em_reais"] = None if multa_propria is None else "0.00"
    else:
        recalculada, notas = _multa_recalculada(linha_com, Substituicao(**{campo: anp}))
        item["multa_recalculada"] = recalculada
        if recalculada is not None and multa_propria is not None:
            item["valor_em_reais"] = f"{Decimal(recalculada) - multa_propria:.2f}"
        if notas:
            item["nota"] = notas[0]
    if item["valor_em_reais"] is None and item["nota"] is None:
        item["nota"] = (
            "sem o preço do CBIO do ano, a carteira não calcula a multa"
            if multa_propria is None
            else "a carteira não tem esse número"
        )
    return item


def _como(campo: str) -> Callable[[Any], str]:
    """How a figure of the notice is written for people: the fine in reais, the price to 4
    places, a count with thousands."""
    if campo == "valor_multa":
        return formatar_brl
    return formatar_preco if campo == "preco" else formatar_numero


def celula_da_conferencia(item: Mapping[str, Any], chave: str) -> str:
    """One cell of the reconciliation's table for people (the terminal's and the page's):
    ``anp`` or ``distribuidor`` as :func:`_como` writes its figure, ``diferenca`` with its sign
    (``igual`` when none), ``valor_em_reais`` with its sign; ``—`` when absent."""
    if chave == "diferenca":
        if item["difere"] is None:
            return "—"
        if not item["difere"]:
            return "igual"
        return formatar_com_sinal(item["diferenca"], _como(item["campo"]))
    bruto = item[chave]
    if bruto is None:
        return "—"
    if chave == "valor_em_reais":
        return formatar_com_sinal(bruto)
    return _como(item["campo"])(bruto)


def conferencia_texto(conferencia: Mapping[str, Any]) -> str:
    """The reconciliation as a pt-BR table: each column as wide as its widest cell, two spaces
    between columns (a price or a long amount never runs into its neighbour); prices for people
    (4 places), differences with their sign (:func:`celula_da_conferencia`)."""

    def reais(bruto: str | None) -> str:
        return "—" if bruto is None else formatar_brl(Decimal(bruto))

    titulo = conferencia["nome"] or conferencia["cnpj"]
    tabela = [("Número", "ANP", "Distribuidor", "Diferença", "Vale (R$)")]
    notas: dict[int, str] = {}
    for item in conferencia["itens"]:
        tabela.append(
            (
                item["rotulo"],
                *(
                    celula_da_conferencia(item, chave)
                    for chave in ("anp", "distribuidor", "diferenca", "valor_em_reais")
                ),
            )
        )
        if item["nota"] and item["anp"] is not None:
            notas[len(tabela) - 1] = item["nota"]
    larguras = [max(len(linha[i]) for linha in tabela) for i in range(len(tabela[0]))]
    linhas = [
        f"Conferência da notificação da ANP: {titulo} (CNPJ {conferencia['cnpj']}), meta de "
        f"{conferencia['ano']}",
        "",
    ]
    for i, celulas in enumerate(tabela):
        primeira, *outras = celulas
        linhas.append(
            "  ".join(
                [
                    primeira.ljust(larguras[0]),
                    *(c.rjust(n) for c, n in zip(outras, larguras[1:], strict=True)),
                ]
            ).rstrip()
        )
        if i in notas:
            linhas.append(f"      {notas[i]}")
    diferentes = [ROTULOS[c] for c in conferencia["diferencas"]]
    linhas += [
        "",
        "Diferem: " + (", ".join(diferentes) if diferentes else "nenhum número"),
        f"Multa da ANP: {reais(conferencia['multa_anp'])}; multa do distribuidor: "
        f"{reais(conferencia['multa_distribuidor'])}; diferença total: "
        f"{reais(conferencia['diferenca_total'])}",
    ]
    if conferencia["multa_com_os_numeros_da_anp"] is not None:
        linhas.append(
            "Multa recalculada com todos os números da ANP: "
            f"{reais(conferencia['multa_com_os_numeros_da_anp'])}; o que eles não explicam da "
            f"multa da ANP: {reais(conferencia['diferenca_nao_explicada'])}"
        )
    linhas += [
        "",
        "Vale: a multa recalculada só com aquele número trocado pelo da ANP, menos a multa do "
        "distribuidor (na Multa, a diferença simples).",
    ]
    linhas += [f"aviso: {aviso}" for aviso in conferencia["avisos"]]
    return "\n".join(linhas) + "\n"
