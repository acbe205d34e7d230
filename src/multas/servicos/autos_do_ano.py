"""Spec § 6.3 v4, the year opens the autos: the sanctioning ``anp`` processo of each distributor
that a RenovaBio year's run (:func:`multas.servicos.ano.calcular_ano`) fined, which ``multas
ano calcular --salvar`` stores with the year
(:meth:`multas.servicos.carteira.CicloCarteira.salvar_ano_renovabio`).

Each has the ``infracao`` on the day after the deadline (``data_infracao_meta = dia_seguinte``,
the default) or on the deadline itself (``prazo``), the ``auto_infracao`` on the notice's date
when one is given, no ``valor_multa`` (the decision fixes it) and ``origem``, the fine it was
opened for (the ledger year and the notice), and its ``id`` from the row's ``id`` column or a
file of references (``cnpj,id``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from multas.nucleo.ciclo.prazos import ler_processo, situacao
from multas.nucleo.cnpj import ler_cnpj
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.datas import formatar_data
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.legislacao import Legislacao
from multas.servicos.persistencia.ciclo import NovoProcesso
from multas.servicos.relogio import hoje as hoje_em_brasilia

if TYPE_CHECKING:
    from multas.nucleo.ciclo.planilha import Planilha

#: the regime of the fine a year's auto is opened for (its ``origem.regime``)
REGIME = "renovabio.distribuidor"
#: spec § 6.3 v4: the reading of the ``infracao`` date, its options (the default first)
DATA_INFRACAO_META = ("dia_seguinte", "prazo")
#: the folder of the year's notices (:data:`multas.servicos.ano.NOTIFICACOES`)
_NOTIFICACOES = "notificacoes"


@dataclass(frozen=True, slots=True)
class AutoDoAno:
    """One auto to open: the processo, and the notice it goes with (its file in the run's
    output folder)."""

    processo: NovoProcesso
    notificacao: str


def ler_data_infracao_meta(bruta: object) -> str:
    """``interpretacao.data_infracao_meta``: one of :data:`DATA_INFRACAO_META`."""
    if bruta is None:
        return DATA_INFRACAO_META[0]
    if bruta not in DATA_INFRACAO_META:
        raise EntradaInvalida(
            "interpretacao.data_infracao_meta",
            f"opção inválida: {mostrar_valor(bruta)} (opções: {', '.join(DATA_INFRACAO_META)})",
        )
    return str(bruta)


def data_da_infracao(prazo: date, leitura: str) -> date:
    """The ``infracao`` of a target due on ``prazo``: the day after (the day non-compliance
    is established, Parecer nº 00041/2025/PF-ANP), or the deadline itself."""
    return prazo if leitura == "prazo" else prazo + timedelta(days=1)


def ler_referencias(lida: Planilha) -> dict[str, str]:
    """A file of references (``--referencias``): columns ``cnpj`` and ``id``, one row per
    distributor; the key is the CNPJ's normal form. An error names the row."""
    referencias: dict[str, str] = {}
    for linha, local in zip(lida.linhas, lida.locais, strict=True):
        chaves = {str(k).strip().lower(): k for k in linha}
        for coluna in ("cnpj", "id"):
            if coluna not in chaves:
                raise local.erro(f"falta a coluna {coluna} (colunas: cnpj,id)", coluna)
        cnpj = ler_cnpj(linha[chaves["cnpj"]])
        bruto = linha[chaves["id"]]
        if cnpj in referencias:
            raise local.erro(f"CNPJ repetido no arquivo de referências: {cnpj}", "cnpj")
        if bruto is None or not str(bruto).strip():
            continue
        referencias[cnpj] = str(bruto).strip()
    return referencias


def _id_da_linha(linha: Mapping[str, Any]) -> str | None:
    """The row's own ``id`` column (any case), carried through by the year's reader."""
    for coluna, valor in linha.items():
        if str(coluna).strip().lower() == "id" and valor is not None and str(valor).strip():
            return str(valor).strip()
    return None


def multado(do_ano: Mapping[str, Any] | None) -> bool:
    """Fined under the chosen readings: a fine above zero (a deferred year, and one that
    ``meta_herdada = nao_multa`` does not fine, have 0,00)."""
    return do_ano is not None and do_ano.get("multa") is not None and Decimal(do_ano["multa"]) > 0


def autos_do_ano(
    resultado: Mapping[str, Any],
    legislacao: Legislacao,
    leitura: str = DATA_INFRACAO_META[0],
    data_notificacao: date | None = None,
    referencias: Mapping[str, str] | None = None,
) -> list[AutoDoAno]:
    """The anp processo of each fined distributor of the run, validated (spec § 6), in the
    rows' order. A notice dated before a processo's ``infracao`` is an error naming
    ``data_notificacao``; so is a reference for a CNPJ not in the year, or one given twice
    (the ``id`` column and the file) with two values."""
    leitura = ler_data_infracao_meta(leitura)
    referencias = dict(referencias or {})
    nos_anos = {
        normalizar_cnpj(lida.entrada.cnpj) for lida in resultado["lidas"] if lida is not None
    }
    for cnpj in referencias:
        if cnpj not in nos_anos:
            raise EntradaInvalida(
                "referencias", f"o CNPJ {cnpj} do arquivo de referências não está no ano"
            )
    hoje = hoje_em_brasilia()
    autos = []
    for linha, lida, do_ano, local in zip(
        resultado["linhas"],
        resultado["lidas"],
        resultado["resultados"],
        resultado["locais"],
        strict=True,
    ):
        if lida is None or not multado(do_ano):
            continue
        ano = lida.entrada
        cnpj = normalizar_cnpj(ano.cnpj)
        prazo = date.fromisoformat(do_ano["prazo_comprovacao"])
        infracao = data_da_infracao(prazo, leitura)
        eventos = [{"evento": "infracao", "data": infracao.isoformat()}]
        if data_notificacao is not None:
            if data_notificacao < infracao:
                raise EntradaInvalida(
                    "data_notificacao",
                    f"a data da notificação (--data-notificacao, {formatar_data(data_notificacao)})"
                    f" é anterior à infração da meta de {ano.ano} ({formatar_data(infracao)}, "
                    f"{'o prazo de comprovação' if leitura == 'prazo' else 'o dia seguinte ao prazo de comprovação'}"
                    f" {formatar_data(prazo)}): o auto de infração não pode precedê-la",
                )
            eventos.append({"evento": "auto_infracao", "data": data_notificacao.isoformat()})
        da_linha, do_arquivo = _id_da_linha(linha), referencias.get(cnpj)
        if da_linha is not None and do_arquivo is not None and da_linha != do_arquivo:
            raise local.erro(
                f"o id da linha ({da_linha}) difere do id do arquivo de referências "
                f"({do_arquivo}) para o CNPJ {ano.cnpj}",
                "id",
            )
        identificador = da_linha or do_arquivo
        origem = {"regime": REGIME, "ano_meta": ano.ano, "cnpj": ano.cnpj}
        dados: dict[str, Any] = {
            "tipo": "anp",
            "cnpj": ano.cnpj,
            "origem": origem,
            "eventos": eventos,
        }
        dados |= {"nome": ano.nome} if ano.nome else {}
        dados |= {"id": identificador} if identificador is not None else {}
        try:
            processo = ler_processo(dados, legislacao)
            situacao(processo, legislacao, hoje)  # its deadlines computable
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
        autos.append(
            AutoDoAno(
                NovoProcesso(
                    tipo="anp",
                    calendario=processo.calendario,
                    eventos=tuple((e.nome, e.data) for e in processo.eventos),
                    identificador=identificador,
                    cnpj=ano.cnpj,
                    nome=ano.nome,
                    origem=origem,
                ),
                f"{_NOTIFICACOES}/{ler_cnpj(ano.cnpj)}.pdf",
            )
        )
    return autos


def motivo_sem_lista(
    resultados: Sequence[Mapping[str, Any] | None], ano: int, inicio: date
) -> str | None:
    """Why a year opened no ``renovabio.lista`` processo (spec § 6.3 v4): no fined
    distributor, or a target due before the list's first day; ``None`` otherwise."""
    multados = [r for r in resultados if r is not None and r["cbios_multados"] > 0]
    if not multados:
        return "nenhum distribuidor multado"
    prazos = [date.fromisoformat(r["prazo_comprovacao"]) for r in multados]
    if all(p < inicio for p in prazos):
        return (
            f"a meta de {ano} venceu em {formatar_data(max(prazos))}, antes de "
            f"{formatar_data(inicio)}: sem lista de sanções (Parecer nº 00041/2025/PF-ANP)"
        )
    return None
