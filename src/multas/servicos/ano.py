"""The RenovaBio year as one job: every obligated distributor's fine of one target year, one
row each, priced from a series of CBIO quotes (``multas ano calcular``).

Each row is one year of the distributor's ledger (:mod:`multas.nucleo.ciclo.carteira`), so the
deferral, the readings and the fine are the ledger's, computed by the same code:

- the target: ``meta_publicada`` is the target as the ANP's despacho publishes it, with the
  previous year's shortfall already added (Resolução ANP nº 791/2019 art. 10 § 1º, as the ANP
  reports it); ``meta_cbios`` is the year's own target, to which ``falta_anterior`` is added.
  All three together, as the Despacho publishes them, are accepted when they add up; the total
  is never counted twice;
- ``falta_anterior`` > 0 means the previous year's target was not met in full: no deferral
  (``meta_anterior_cumprida = sim`` beside it is an error on the row). Without
  ``meta_anterior_cumprida`` and with no carried shortfall, whether the previous year was met
  is not known: no deferral, with the ledger's aviso (choice of the project, as the ledger);
- the price is the year's highest monthly mean of the quotes, computed once for the summary
  (:func:`multas.nucleo.cotacoes.preco_do_ano`) and, for each fine, by the engine from the same quotes,
  so each memória shows it.

A bad row gets its own ``erro``; no row is dropped, and the rows keep their order. A column the
year does not know is carried through to the output as it is.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import PurePosixPath
from typing import IO, Any

from multas.nucleo.arquivos import Local
from multas.nucleo.calendario import Expediente
from multas.nucleo.ciclo.carteira import (
    AnoCarteira,
    calcular_carteira,
    ler_ano,
    ler_leituras,
    locais_de_lista,
)
from multas.nucleo.ciclo.prazos import fundamento, vigencia_em
from multas.nucleo.cnpj import ler_cnpj, normalizar
from multas.nucleo.contrato import JSON, Campo, Leitura, ler_um_ano, ler_valor
from multas.nucleo.cotacoes import PrecoDoAno, Serie, ler_serie, preco_do_ano
from multas.nucleo.datas import formatar_data, formatar_mes, prazo_em_dias
from multas.nucleo.dinheiro import (
    formatar_brl,
    formatar_numero,
    formatar_percentual,
    formatar_preco,
    preco_de_arquivo,
)
from multas.nucleo.erros import SEPARADOR_NA_CELULA, Coleta, EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Vigencia
from multas.nucleo.preco import FONTE_ENTRADA
from multas.nucleo.preco import exercicio_do_preco as _exercicio

_METAS = ("meta_publicada", "meta_cbios")
#: the ledger's columns a row may carry as they are
_DA_CARTEIRA = (
    "cnpj",
    "nome",
    "cbios_aposentados",
    "faturamento_ano_meta",
    "faturamento_ano_anterior",
    "data_quitacao",
    "prazo_comprovacao",
    "diferir",
    "meta_anterior_cumprida",
)
COLUNAS_ENTRADA = (*_DA_CARTEIRA[:2], *_METAS, "falta_anterior", *_DA_CARTEIRA[2:])
#: the columns the job adds after the input's, in this order
COLUNAS_SAIDA = (
    "preco",  # for people and spreadsheets: 4 places (dinheiro.preco_de_arquivo)
    "preco_exato",  # the exact price (p/q when the mean never ends): it reads back the same
    "falta",
    "diferido",
    "multado",
    "valor",
    "falta_para_o_ano_seguinte",
    "erro",
)


@dataclass(frozen=True, slots=True)
class LinhaDoAno:
    """One distributor's year, validated: the ledger's entry and the carried shortfall."""

    entrada: AnoCarteira
    falta_anterior: int


def ler_linha(linha: object, ano: int, leitura: Leitura) -> LinhaDoAno:
    """Validate one row (a dict of its columns); an error names the column."""
    if not isinstance(linha, Mapping):
        raise EntradaInvalida(None, "cada linha deve ser um objeto")
    # any other column (the Despacho's UF, a note) is carried through to the output as it is
    dados = {c: linha[c] for c in COLUNAS_ENTRADA if _presente(linha.get(c))}
    # the ledger reads the targets itself (conferir_meta): the three of the Despacho together
    # are accepted when meta_cbios + falta_anterior is meta_publicada
    entrada = ler_ano({**dados, "ano": ano}, leitura)
    return LinhaDoAno(entrada, entrada.falta_publicada or 0)


def _presente(valor: object) -> bool:
    return valor is not None and not (isinstance(valor, str) and not valor.strip())


def calcular_ano(
    linhas: Sequence[object],
    locais: Sequence[Local],
    leitura: Leitura,
    ano: int,
    cotacoes: Serie,
    legislacao: Legislacao,
    interpretacao: Mapping[str, str] | None = None,
    com_calculo: bool = False,
    ao_avancar: Callable[[int, int | None], None] | None = None,
) -> dict[str, Any]:
    """Every row's year: ``{"linhas": [...], "resumo": {...}, "resultados": [...]}``, where
    each output row is the input's columns then :data:`COLUNAS_SAIDA`, and ``resultados``
    holds each row's ledger line (``None`` for a row in error; with ``com_calculo``, each
    fine's engine result too, for :func:`notificacoes`), and ``lidas`` each row as read.
    ``ao_avancar`` hears (rows done, all rows) after each row (the progress bar)."""
    leituras = ler_leituras(interpretacao)
    preco = preco_do_ano(
        cotacoes, exercicio_do_ano(ano, leituras, legislacao), leituras.get("media_mensal")
    )
    saida: list[dict[str, Any]] = []
    resultados: list[dict[str, Any] | None] = []
    lidas: list[LinhaDoAno | None] = []
    vistos: dict[str, Local] = {}
    for feitas, (linha, local) in enumerate(zip(linhas, locais, strict=True)):
        if ao_avancar is not None:
            ao_avancar(feitas, len(linhas))
        original = dict(linha) if isinstance(linha, Mapping) else {}
        try:
            lida = ler_linha(linha, ano, leitura)
            chave = normalizar(lida.entrada.cnpj)  # 11.222.333/0001-81 is 11222333000181
            if chave in vistos:
                raise EntradaInvalida("cnpj", f"CNPJ repetido no arquivo (já em {vistos[chave]})")
            vistos[chave] = local
            carteira = calcular_carteira(
                [lida.entrada],
                legislacao,
                interpretacao=leituras,
                cotacoes=cotacoes,
                com_calculo=com_calculo,
            )
        except EntradaInvalida as erro:
            saida.append(
                {
                    **original,
                    **dict.fromkeys(COLUNAS_SAIDA, ""),
                    # every error of the row, each with its line and column (issue 37)
                    "erro": SEPARADOR_NA_CELULA.join(
                        local.localizar(um).mensagem for um in erro.todos()
                    ),
                }
            )
            resultados.append(None)
            lidas.append(None)
            continue
        do_ano = carteira["anos"][0]
        saida.append(
            {
                **original,
                "preco": preco_de_arquivo(preco.valor),
                "preco_exato": preco.exato,
                "falta": do_ano["deficit"],
                "diferido": do_ano["cbios_diferidos"],
                "multado": do_ano["cbios_multados"],
                "valor": do_ano["multa"],
                "falta_para_o_ano_seguinte": do_ano["acrescimo_proximo_ano"],
                "erro": "",
            }
        )
        resultados.append(do_ano)
        lidas.append(lida)
    if ao_avancar is not None:
        ao_avancar(len(linhas), len(linhas))
    return {
        "linhas": saida,
        "resumo": _resumo(ano, preco, resultados, cotacoes.fonte or FONTE_ENTRADA),
        "resultados": resultados,
        "lidas": lidas,
        "locais": list(locais),
        "cotacoes": cotacoes,
    }


def exercicio_do_ano(ano: int, leituras: Mapping[str, str], legislacao: Legislacao) -> int:
    """The exercise whose quotes price the year's fines (``interpretacao.ano_do_preco``, spec
    § 3.1 v4): the target year, or the year of the table's deadline (a row's own
    ``prazo_comprovacao`` prices its own fine, in the engine)."""
    tabela = legislacao.prazo_comprovacao(ano)
    return _exercicio(ano, None if tabela is None else tabela[0], leituras.get("ano_do_preco"))


#: what the summary says of the price's provenance (spec § 3.1 v4)
NOTA_DO_PRECO = "A ANP não publica o preço que usou em cada multa."


def _alternativas(certos: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The year's total under each other reading of the fine that changes some row's fine:
    that row's fine under it, every other row's as computed."""
    leituras: dict[tuple[str, str], None] = {}
    for r in certos:
        for alternativa in r.get("alternativas", ()):
            leituras.update(dict.fromkeys(alternativa["interpretacao"].items()))
    saida = []
    for chave, opcao in leituras:
        total = Decimal(0)
        for r in certos:
            outra = next(
                (
                    a["valor"]
                    for a in r.get("alternativas", ())
                    if a["interpretacao"] == {chave: opcao}
                ),
                r["multa"],
            )
            total += Decimal(outra or 0)
        saida.append({"interpretacao": {chave: opcao}, "total_multas": f"{total:.2f}"})
    return saida


def _resumo(
    ano: int, preco: PrecoDoAno, resultados: Sequence[dict[str, Any] | None], fonte: str
) -> dict[str, Any]:
    """The year in figures: distributors, met, deferred, fined, the total of the fines, the
    CBIOs missing, and the price with its month, method, source and coverage; the total under
    each other reading of the fine."""
    certos = [r for r in resultados if r is not None]
    multas = [Decimal(r["multa"]) for r in certos if r["cbios_multados"] > 0]
    cobertura = preco.preco.cobertura
    return {
        "ano": ano,
        "distribuidores": len(resultados),
        "com_erro": len(resultados) - len(certos),
        "cumpriram": sum(1 for r in certos if r["deficit"] == 0),
        "diferiram": sum(1 for r in certos if r["cbios_diferidos"] > 0),
        "multados": len(multas),
        "total_multas": f"{sum(multas, Decimal(0)):.2f}",
        "cbios_faltantes": sum(int(r["deficit"]) for r in certos),
        "cbios_diferidos": sum(int(r["cbios_diferidos"]) for r in certos),
        "preco": preco.exato,
        "preco_aproximado": preco.aproximado,
        "mes_do_preco": preco.mes,
        "cotacoes_no_mes": preco.cotacoes,
        "preco_metodo": preco.preco.metodo,
        "preco_fonte": fonte,
        "cotacoes_cobertura": None if cobertura is None else cobertura.como_dict(),
        "preco_nota": NOTA_DO_PRECO,
        "sem_meta_propria": sum(
            1 for r in certos if r["meta_cbios"] == 0 < r["acrescimo_ano_anterior"]
        ),
        "alternativas": _alternativas(certos),
    }


# --- the notices ------------------------------------------------------------------------------


def avisos_das_notificacoes(
    legislacao: Legislacao, ano: int, data_notificacao: date | None
) -> list[str]:
    """What the notices' deadlines rest on and the notice does not say in the ANP's voice (the
    amended Decreto 2.953/1999 not checked, spec § 3.5 v3): for the regulator's summary."""
    prazos = prazos_da_notificacao(legislacao, ano, data_notificacao)
    return [texto for rotulo, texto in prazos if rotulo == "Aviso"]


def prazos_da_notificacao(
    legislacao: Legislacao, ano: int, data_notificacao: date | None
) -> tuple[tuple[str, str], ...]:
    """The deadlines that follow a notice of the fine, each with its provision (the versions
    in force on the notice's date, or at the end of the target year): the defence counted from
    ``data_notificacao`` on the federal calendar (Lei nº 9.784/1999 art. 66), or, without it,
    each rule without dates; the later ones as rules, since their start is a later event."""
    dia = data_notificacao or date(ano, 12, 31)

    def regra(nome: str) -> Vigencia:
        return vigencia_em(legislacao, nome, dia)

    defesa = regra("ciclo.defesa")
    if data_notificacao is None:
        quando_defesa = f"{defesa.valor} dias da citação ({fundamento(defesa)})"
    else:
        try:
            _, vencimento, _ = prazo_em_dias(
                data_notificacao, int(defesa.valor), Expediente(legislacao.calendario)
            )
        except (OverflowError, ValueError):
            raise EntradaInvalida(
                "data_notificacao",
                f"data fora do intervalo calculável: a defesa, {defesa.valor} dias da citação "
                f"em {formatar_data(data_notificacao)}, passaria de 31/12/9999",
            ) from None
        quando_defesa = (
            f"até {formatar_data(vencimento)}: {defesa.valor} dias da citação em "
            f"{formatar_data(data_notificacao)}, contados no calendário federal "
            f"({fundamento(defesa)}; {fundamento(regra('ciclo.contagem_dias'))})"
        )
    recurso, pagamento = regra("ciclo.recurso"), regra("ciclo.pagamento")
    desconto = regra("ciclo.pagamento_com_desconto")
    alterado = legislacao.parametro("anp.decreto_2953_alterado")
    nota: tuple[tuple[str, str], ...] = ()
    if alterado.em(dia) is not None:  # § 3.5 v3, as the lifecycle says it
        vigencia = alterado.vigencias[0]
        nota = (
            (
                "Aviso",
                "Os prazos que se apoiam no Decreto nº 2.953/1999: ele foi alterado pelo "
                f'{vigencia.dispositivo.removesuffix(", ementa")} ("{vigencia.texto}"); o '
                "texto alterado não foi conferido: confira-os na redação em vigor.",
            ),
        )
    seguintes = (
        ("Defesa", quando_defesa),
        (
            "Recurso",
            f"{recurso.valor} dias da ciência da decisão de primeira instância "
            f"({fundamento(recurso)})",
        ),
        (
            "Pagamento",
            f"{pagamento.valor} dias da ciência da decisão definitiva ({fundamento(pagamento)})",
        ),
        (
            "Pagamento com desconto",
            f"{formatar_percentual(desconto.fracao)} de desconto, só com a renúncia ao recurso, "
            f"até o fim do prazo do recurso ({fundamento(desconto)})",
        ),
    )
    return (*nota, *seguintes)


def _notificados(
    resultado: dict[str, Any],
) -> list[tuple[str, LinhaDoAno, dict[str, Any]]]:
    """The rows of :func:`calcular_ano` that get a notice (read, and with the fine's engine
    result), each with its file's name: the normalised CNPJ (``11222333000181.pdf``). A row's
    CNPJ is a valid one (:func:`multas.nucleo.cnpj.ler_cnpj`) and the year refuses one
    repeated, so the names are unique by construction; should two rows still give one name,
    or a row no valid CNPJ, that is an error naming the rows, before any notice is made."""
    notificados: list[tuple[str, LinhaDoAno, dict[str, Any]]] = []
    vistos: dict[str, Local] = {}
    for linha, do_ano, local in zip(
        resultado["lidas"], resultado["resultados"], resultado["locais"], strict=True
    ):
        if linha is None or do_ano is None or do_ano.get("calculo") is None:
            continue
        if do_ano["multa"] is None or Decimal(do_ano["multa"]) == 0:
            continue  # no fine (a year with no target of its own, say): no notice of one
        try:
            nome = f"{ler_cnpj(linha.entrada.cnpj)}.pdf"
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
        if nome in vistos:
            raise local.erro(
                f"a notificação teria o mesmo arquivo ({nome}) que a de {vistos[nome]}", "cnpj"
            )
        vistos[nome] = local
        notificados.append((nome, linha, do_ano))
    return notificados


def notificacoes(
    resultado: dict[str, Any],
    ano: int,
    legislacao: Legislacao,
    data_notificacao: date | None,
    ao_avancar: Callable[[int, int | None], None] | None = None,
    *,
    modelos: Any = None,
    pasta_modelos: str = "",
    assinatura: tuple[str | None, str | None] = (None, None),
    fonte_cotacoes: str | None = None,
    anexo_cotacoes: bool = False,
    processos: int = 1,
    so: str | None = None,
) -> Iterator[tuple[str, bytes]]:
    """One PDF per fined distributor of :func:`calcular_ano` (with ``com_calculo``): its file
    name (the normalised CNPJ, unique: :func:`_notificados`) and its bytes, the notice of
    :func:`multas.servicos.notificacao.montar` numbered ``NNN/AAAA`` in the input's order
    (unless its row gives ``numero_notificacao``), with ``modelos``' letterhead and signature
    (:func:`multas.servicos.notificacao.carregar_modelos`; the default ones without it).
    ``ao_avancar`` hears (notices done, all of them) before each notice and after the last.
    ``processos``: the PDFs are rendered in that many worker processes (the command line's
    cores; :func:`multas.servicos.em_paralelo.em_paralelo`), each notice written there too,
    the same bytes in the same order. ``so``: only the notice of that file name (one
    distributor's, numbered as in the whole set), none when no fined row has it."""
    from multas.saidas.relatorio.notificacao import notificacao_pdf
    from multas.servicos.em_paralelo import em_paralelo
    from multas.servicos.notificacao import carregar_modelos, extras, montar

    notificados = _notificados(resultado)
    prazos = prazos_da_notificacao(legislacao, ano, data_notificacao)
    modelos = modelos if modelos is not None else carregar_modelos(None)
    # each notified row's input columns (the notice's number, process and address)
    originais = {
        id(lida): linha
        for lida, linha in zip(resultado["lidas"], resultado["linhas"], strict=True)
        if lida is not None
    }
    colunas = [extras(originais.get(id(linha), {})) for _, linha, _ in notificados]

    def pdf(feitas: int) -> bytes:
        """The ``feitas``-th notice, written and rendered (in a worker, when there are)."""
        _, linha, do_ano = notificados[feitas]
        notificacao = montar(
            f"{feitas + 1:03d}/{ano}",
            do_ano,
            linha.entrada,
            colunas[feitas],
            legislacao,
            prazos,
            data_notificacao,
            assinatura,
            fonte_cotacoes,
            anexo_cotacoes,
        )
        return notificacao_pdf(notificacao, modelos, pasta_modelos)

    escolhidos = [i for i, (nome, _, _) in enumerate(notificados) if so in (None, nome)]
    pdfs = em_paralelo(pdf, escolhidos, processos)
    for feitas, i in enumerate(escolhidos):
        if ao_avancar is not None:
            ao_avancar(feitas, len(escolhidos))
        yield notificados[i][0], next(pdfs)
    pdfs.close()
    if ao_avancar is not None:
        ao_avancar(len(escolhidos), len(escolhidos))


def zip_do_ano(
    resultado: dict[str, Any],
    ano: int,
    legislacao: Legislacao,
    data_notificacao: date | None,
) -> bytes:
    """The summary (``resumo.pdf``) and every notice (``notificacoes/<cnpj>.pdf``) of
    :func:`calcular_ano` (with ``com_calculo``) in one ZIP: the API's and the page's."""
    saida = io.BytesIO()
    with zipfile.ZipFile(saida, "w", zipfile.ZIP_DEFLATED) as arquivo:
        arquivo.writestr("resumo.pdf", resumo_pdf(resultado["resumo"], data_notificacao))
        for nome, pdf in notificacoes(resultado, ano, legislacao, data_notificacao):
            arquivo.writestr(f"{NOTIFICACOES}/{nome}", pdf)
    return saida.getvalue()


#: the folder of the notices, in ``ano calcular``'s output folder and in the ZIP
NOTIFICACOES = "notificacoes"
#: the files ``ano calcular`` writes at the top of its output folder
_ARQUIVOS_DA_SAIDA = frozenset(
    {"resultado.csv", "resultado.xlsx", "resultado-ptbr.csv", "resumo.json", "resumo.pdf"}
)
#: a notice's file name: the normalised CNPJ
_NOME_DA_NOTIFICACAO = re.compile(r"[0-9A-Z]{12}[0-9]{2}\.pdf")


def arquivo_da_saida(caminho: PurePosixPath, pasta: bool) -> bool:
    """Whether a path inside an output folder is one ``ano calcular`` writes (so replacing
    the folder loses nothing else: :func:`multas.servicos.pastas.conferir_pasta`).

    >>> arquivo_da_saida(PurePosixPath("notificacoes/11222333000181.pdf"), False)
    True
    >>> arquivo_da_saida(PurePosixPath("distribuidores.csv"), False)
    False
    >>> arquivo_da_saida(PurePosixPath("notificacoes/11222333000181-assinada.pdf"), False)
    False
    """
    if pasta:
        return caminho == PurePosixPath(NOTIFICACOES)
    if caminho.parent == PurePosixPath(NOTIFICACOES):
        # only a notice's own name (the normalised CNPJ): a user's file beside them is theirs
        return _NOME_DA_NOTIFICACAO.fullmatch(caminho.name) is not None
    return caminho.parent == PurePosixPath(".") and caminho.name in _ARQUIVOS_DA_SAIDA


def colunas_do_resultado(entrada: Sequence[object]) -> list[str]:
    """The columns of ``resultado.csv``: the input's known columns in :data:`COLUNAS_ENTRADA`'s
    order, any others it had (sorted), then :data:`COLUNAS_SAIDA`."""
    vistas = {c for linha in entrada if isinstance(linha, Mapping) for c in linha}
    colunas = [c for c in COLUNAS_ENTRADA if c in vistas]
    return colunas + sorted(vistas - set(colunas) - set(COLUNAS_SAIDA)) + list(COLUNAS_SAIDA)


def colunas_na_ordem_da_entrada(entrada: Sequence[object]) -> list[str]:
    """The columns of the year's spreadsheets (``resultado.xlsx``, ``resultado-ptbr.csv``):
    the input's columns **in the input's own order** (as each first appears), then
    :data:`COLUNAS_SAIDA`; the same columns as :func:`colunas_do_resultado`, whose order
    ``resultado.csv`` keeps as it always had.

    >>> colunas_na_ordem_da_entrada([{"nome": "A", "cnpj": "1"}])[:3]
    ['nome', 'cnpj', 'preco']
    """
    vistas: dict[str, None] = {}
    for linha in entrada:
        if isinstance(linha, Mapping):
            vistas.update(dict.fromkeys(c for c in linha if c not in COLUNAS_SAIDA))
    return [*vistas, *COLUNAS_SAIDA]


def escrever_resultado_csv(
    destino: IO[str], entrada: Sequence[object], resultado: dict[str, Any]
) -> None:
    """``resultado.csv``: every row of :func:`calcular_ano`, in the input's order, with the
    input's columns and the result's; no cell a spreadsheet would run as a formula."""
    from multas.saidas.exportacao import escrever_csv

    colunas = colunas_do_resultado(entrada)
    # the header is neutralised too: the input file named it; csv's own "\r\n" as before
    # every cell as its text, as before (a JSON input's true stays "True")
    linhas = (
        [None if (v := linha.get(c)) is None else str(v) for c in colunas]
        for linha in resultado["linhas"]
    )
    escrever_csv(destino, colunas, linhas, fim_de_linha="\r\n")


#: the columns a distributors file must have (a target: one of :data:`_METAS`)
_COLUNAS_NECESSARIAS = ("cnpj", "cbios_aposentados")


def coluna_faltante(linhas: Sequence[object]) -> str | None:
    """The first column that no row of the file has at all (``meta_publicada`` standing for
    the target), or ``None``: a file without one is the wrong file, told once instead of on
    every row."""
    vistas = {c for linha in linhas if isinstance(linha, Mapping) for c in linha}
    if not vistas:
        return None
    for coluna in _COLUNAS_NECESSARIAS:
        if coluna not in vistas:
            return coluna
    return None if vistas & set(_METAS) else "meta_publicada"


def resumo_pdf(resumo: dict[str, Any], criado_em: date | None = None) -> bytes:
    """The year's one-page summary, in PDF, created ``criado_em`` (the notice's date or the
    caller's today; the core has no clock)."""
    from multas.saidas.relatorio.pdf import ficha_pdf

    linhas = [
        ("Ano da meta", str(resumo["ano"])),
        ("Distribuidores", formatar_numero(resumo["distribuidores"])),
        ("Linhas com erro", formatar_numero(resumo["com_erro"])),
        ("Cumpriram a meta", formatar_numero(resumo["cumpriram"])),
        ("Diferiram parte da meta", formatar_numero(resumo["diferiram"])),
        ("Multados", formatar_numero(resumo["multados"])),
        ("Total das multas", formatar_brl(Decimal(resumo["total_multas"]))),
        ("CBIOs faltantes", formatar_numero(resumo["cbios_faltantes"])),
        ("CBIOs diferidos", formatar_numero(resumo["cbios_diferidos"])),
        # for people: 4 places; the exact price is in resumo.json and resultado.csv
        ("Preço (maior média mensal)", formatar_preco(resumo["preco"])),
        ("Mês do preço", formatar_mes(resumo["mes_do_preco"])),
    ]
    return ficha_pdf(
        f"O ano de {resumo['ano']} do RenovaBio: resumo",
        linhas,
        "Calculado pelo multas com as cotações informadas. Este resumo reproduz as contas do "
        "motor; ele não substitui a decisão fundamentada da autoridade competente.",
        criado_em,
    )


# --- the API's request ----------------------------------------------------------------------

#: distributors in one request to the API (the ANP's year has about 160)
MAXIMO_DISTRIBUIDORES = 5_000
_DATA_NOTIFICACAO = Campo("data_notificacao", "data", "Data da notificação", False, 0)


@dataclass(frozen=True, slots=True)
class PedidoDoAno:
    """A year's run asked through the API: the rows, the quotes and the options."""

    ano: int
    linhas: list[object]
    locais: list[Local]
    cotacoes: Serie
    interpretacao: dict[str, str]
    data_notificacao: date | None


def ler_pedido(dados: object) -> PedidoDoAno:
    """``{"ano", "distribuidores": [...], "cotacoes": [...], "coluna_preco"?,
    "interpretacao"?, "data_notificacao"?}``: the rows as the file's (JSON objects), the
    quotes as a file's rows (``data``/``preco`` or ``mes``/``media``). An error names the
    field; a row's error is on that row, with its position (``item 2, campo meta_cbios``)."""
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(None, "o corpo deve ser um objeto JSON")
    conhecidas = {
        "ano",
        "distribuidores",
        "cotacoes",
        "coluna_preco",
        "interpretacao",
        "data_notificacao",
    }
    coleta = Coleta()  # each field on its own: every error of the request at once
    for chave in dados:
        if chave not in conhecidas:
            with coleta.campo():
                raise EntradaInvalida(
                    str(chave)[:60], f"campo desconhecido (campos: {', '.join(sorted(conhecidas))})"
                )
    ano = linhas = cotacoes = coluna = serie = leituras = data = None
    with coleta.campo():
        ano = ler_ano_da_meta(dados.get("ano"))
    with coleta.campo():
        linhas = _lista(dados.get("distribuidores"), "distribuidores", MAXIMO_DISTRIBUIDORES)
    with coleta.campo():
        cotacoes = _lista(dados.get("cotacoes"), "cotacoes", None)
    with coleta.campo():
        coluna = dados.get("coluna_preco", "preco")
        if not isinstance(coluna, str) or not coluna.strip() or len(coluna) > 60:
            coluna = None
            raise EntradaInvalida("coluna_preco", "deve ser o nome de uma coluna (texto)")
    if cotacoes is not None and coluna is not None:  # the quotes are read by their column
        with coleta.campo():
            serie = ler_serie(cotacoes, locais_de_lista(len(cotacoes)), JSON, coluna)
    with coleta.campo():
        leituras = ler_leituras(dados.get("interpretacao"))
    with coleta.campo():
        data = ler_data_notificacao(dados.get("data_notificacao"))
    coleta.levantar()
    assert ano is not None and linhas is not None and serie is not None and leituras is not None
    return PedidoDoAno(ano, linhas, locais_de_lista(len(linhas)), serie, leituras, data)


def ler_ano_da_meta(bruto: object, leitura: Leitura = JSON) -> int:
    """The target year of a request (the API's ``ano``, the page's field)."""
    if bruto is None:
        raise EntradaInvalida("ano", "campo obrigatório")
    return ler_um_ano(bruto, "ano", leitura)


def ler_data_notificacao(bruta: object, leitura: Leitura = JSON) -> date | None:
    """The notices' date, optional (``None``: none given)."""
    if bruta is None:
        return None
    dia: date = ler_valor(bruta, _DATA_NOTIFICACAO, leitura)
    return dia


def _lista(bruto: object, campo: str, maximo: int | None) -> list[object]:
    if not isinstance(bruto, list) or not bruto:
        raise EntradaInvalida(campo, "deve ser uma lista não vazia de objetos")
    if maximo is not None and len(bruto) > maximo:
        raise EntradaInvalida(campo, f"no máximo {maximo} por pedido (veio {len(bruto)})")
    return bruto
