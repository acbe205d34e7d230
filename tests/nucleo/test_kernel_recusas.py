"""Refusals visible (issue 17, item 2): the kernel says which parameter of which period of the
law it does not take, `multas lote` counts the rows that went to the scalar engine per reason,
and `--exigir-kernel` turns them into a pt-BR error naming the parameter and the period.

- Every segment of the shipped legislation that a kernel reads is accepted wherever the
  regime is in force (a segment before it exists is refused as "não está em vigor").
- A copy of the legislation in which the law's floor (``renovabio.piso_legal``) moves away from
  the decree's from 01/07/2026: the rows of that period go to the engine, and the summary says
  why, through one thread, several, and slices of a block."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from multas.lote import processar as processar_mod
from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.nucleo import legislacao as legislacao_mod
from multas.nucleo.kernel import KERNELS, calcular_colunas
from multas.nucleo.kernel.leis import NAO_VIGENTE, ForaDoKernel, Recusa, centavos
from multas.nucleo.kernel.regras import FORA_DOS_LIMITES
from multas.nucleo.legislacao import Legislacao, Lei, carregar, ler_textos
from multas.nucleo.motor import ler_interpretacao, regime_de
from multas.servicos import relogio
from tests.utils.legislacao import PARAMETROS, nova_vigencia
from tests.utils.lote import escrever_csv, ler_csv, rodar_lote

#: the provision whose absence means "the regime is not in force", per segment reader
VIGENCIA_DO_REGIME = {
    "renovabio.distribuidor.redacao",
    "renovabio.produtor.redacao",
    "anp.mora.redacao",
    "anp.encargos_lei_10522",
    "mover.redacao",
}


def _segmentos_do_kernel(regime: str, legislacao: Legislacao | None = None) -> Any:
    """The segments every reader of ``regime``'s kernel reads (one empty row: every reader
    runs; anp.mora's art. 37-A only with encargos = lei-10522 and some Selic rate)."""
    leitura, constantes = None, None
    if regime == "anp.mora":
        leitura = {"encargos": "lei-10522"}
        constantes = {"taxas_selic": {"2025-01": Decimal("1")}}
    r = calcular_colunas(
        regime, {}, 1, leitura, legislacao=legislacao, constantes=constantes, hoje=relogio.hoje()
    )
    return r.segmentos


@pytest.mark.parametrize("regime", sorted(KERNELS))
def test_o_kernel_aceita_toda_a_lei_vigente_embarcada(regime: str) -> None:
    """Each segment (between two boundaries of any parameter the kernel reads) of the shipped
    legislation: accepted, or refused only where the regime is not in force."""
    legislacao = carregar()
    segmentos = _segmentos_do_kernel(regime)
    esperados = 2 if regime == "anp.mora" else 1
    assert len(segmentos) == esperados
    for seg in segmentos:
        assert len(seg.recusas) >= 2
        assert any(recusa is None for recusa in seg.recusas)
        for recusa in seg.recusas:
            if recusa is None:
                continue
            assert (recusa.motivo, recusa.parametro in VIGENCIA_DO_REGIME) == (
                NAO_VIGENTE,
                True,
            ), recusa.texto
            for dia in (recusa.inicio, recusa.fim):
                if dia is not None:
                    assert Lei(legislacao, dia).get(recusa.parametro) is None, recusa.texto


def test_a_recusa_diz_o_periodo_em_pt_br() -> None:
    um, dois = date(2026, 7, 1), date(2026, 12, 31)
    textos = [
        Recusa("renovabio.piso_legal", "difere de x", um, None).texto,
        Recusa("anp.redacao", NAO_VIGENTE, None, dois).texto,
        Recusa("renovabio.piso_legal", "difere de x", um, dois).texto,
        Recusa("renovabio.piso_legal", "difere de x", um, um).texto,
    ]
    assert textos == [
        "o kernel não aceita a lei de 01/07/2026 em diante: renovabio.piso_legal difere de x",
        "o kernel não aceita a lei até 31/12/2026: anp.redacao não está em vigor",
        "o kernel não aceita a lei de 01/07/2026 a 31/12/2026: renovabio.piso_legal difere de x",
        "o kernel não aceita a lei de 01/07/2026: renovabio.piso_legal difere de x",
    ]


def test_fora_do_kernel_nomeia_o_parametro() -> None:
    lei = Lei(carregar(), date(2025, 1, 1))
    assert centavos(lei, "renovabio.distribuidor.teto") > 0
    erro = ForaDoKernel("renovabio.distribuidor.teto", "passa dos limites do kernel")
    assert (erro.parametro, erro.motivo) == (
        "renovabio.distribuidor.teto",
        "passa dos limites do kernel",
    )


# --- a law the kernel does not take: renovabio.piso_legal moves away from the decree's floor ---

DATA = "2026-07-01"
MOTIVO = (
    "o kernel não aceita a lei de 01/07/2026 em diante: renovabio.piso_legal difere de "
    "renovabio.distribuidor.piso"
)


def _piso_legal_diferente(ate: str | None = None) -> Legislacao:
    """The law's floor changes on DATA (a fictitious act); with ``ate``, it comes back the day
    after."""
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    piso = carregar().parametro("renovabio.piso_legal").vigencias[-1].valor
    renovabio = nova_vigencia(textos["renovabio.toml"], "renovabio.piso_legal", f'"{piso * 2}"')
    if ate is not None:
        volta = f'\n[["renovabio.piso_legal".vigencias]]\ninicio = {ate}\nvalor = "{piso}"\n'
        volta += 'dispositivo = "Lei fictícia de teste, art. 2º"\nfonte = "teste"\n'
        inicio = renovabio.index('["renovabio.piso_legal"]')
        fim = renovabio.index('\n["', inicio + 1)
        bloco = renovabio[inicio:fim].rstrip("\n")
        anterior = date.fromisoformat(ate).toordinal() - 1
        bloco = bloco.replace(
            f"inicio = {DATA}\n", f"inicio = {DATA}\nfim = {date.fromordinal(anterior)}\n"
        )
        renovabio = renovabio[:inicio] + bloco + "\n" + volta + renovabio[fim:]
    textos["renovabio.toml"] = renovabio
    return ler_textos(textos)


PISO_LEGAL = _piso_legal_diferente()


def _linha(depois: bool, meta: str = "1000") -> dict[str, str]:
    """A distribuidor whose deadline (the law's date) is after DATA, or before it."""
    linha = {"ano_meta": "2025", "meta_cbios": meta, "cbios_aposentados": "0"}
    linha["maior_media_mensal"] = "120"
    if depois:
        linha |= {"ano_meta": "2026", "prazo_comprovacao": "2026-12-31"}
    return linha


CAMPOS = ["ano_meta", "meta_cbios", "cbios_aposentados", "maior_media_mensal", "prazo_comprovacao"]


@pytest.fixture
def com_o_piso_legal(monkeypatch: pytest.MonkeyPatch) -> Legislacao:
    """`multas lote` (in this process: one core or threads) on the changed legislation."""
    monkeypatch.setattr(legislacao_mod, "carregar", lambda: PISO_LEGAL)
    return PISO_LEGAL


def test_a_lei_recusada_vai_ao_motor_com_o_motivo() -> None:
    [seg] = _segmentos_do_kernel("renovabio.distribuidor", PISO_LEGAL)
    recusas = {r.texto for r in seg.recusas if r is not None and r.motivo != NAO_VIGENTE}
    assert recusas == {MOTIVO}
    # a bounded span: "de … a …", the segments of the same reason joined
    [seg] = _segmentos_do_kernel("renovabio.distribuidor", _piso_legal_diferente("2027-04-01"))
    recusas = {r.texto for r in seg.recusas if r is not None and r.motivo != NAO_VIGENTE}
    assert recusas == {MOTIVO.replace("de 01/07/2026 em diante", "de 01/07/2026 a 31/03/2027")}


def test_lote_diz_o_parametro_e_o_periodo(tmp_path: Path, com_o_piso_legal: Legislacao) -> None:
    entrada = tmp_path / "d.csv"
    # two valid rows after DATA (the engine), one before (the kernel), one invalid after
    linhas = [_linha(True), _linha(False), _linha(True, "x"), _linha(True, "2000")]
    escrever_csv(entrada, linhas, CAMPOS)
    r = rodar_lote(
        entrada, "-r", "renovabio.distribuidor", "-o", tmp_path / "r.csv", "--nucleos", 1
    )
    assert r.exit_code == 3, r.stderr  # the invalid row
    assert "4 linhas, 3 calculadas, 1 com erro" in r.stderr
    # the engine's internals only with --exigir-kernel (issue 37, item 8)
    assert "motor escalar" not in r.stderr and MOTIVO not in r.stderr
    r = rodar_lote(
        entrada,
        "-r",
        "renovabio.distribuidor",
        "-o",
        tmp_path / "q.csv",
        "--nucleos",
        1,
        "--exigir-kernel",
    )
    assert "2 linhas válidas calculadas pelo motor escalar" in r.stderr
    assert f"\n  2 linhas: {MOTIVO}\n" in r.stderr
    saida = ler_csv(tmp_path / "r.csv")
    assert [linha["valor"] for linha in saida] == ["120000.00", "120000.00", "", "240000.00"]

    # --exigir-kernel: a pt-BR error naming the parameter and the period
    escrever_csv(entrada, [linhas[0], linhas[1]], CAMPOS)
    livre = rodar_lote(entrada, "-r", "renovabio.distribuidor", "-o", tmp_path / "s.csv")
    assert livre.exit_code == 0, livre.stderr
    exigido = rodar_lote(
        entrada, "-r", "renovabio.distribuidor", "-o", tmp_path / "t.csv", "--exigir-kernel"
    )
    assert f"  1 linha: {MOTIVO}" in exigido.stderr
    assert exigido.exit_code == 2
    erro = exigido.stderr.strip().splitlines()[-1]
    assert erro.startswith("Erro: --exigir-kernel:")
    assert "renovabio.piso_legal" in erro and "01/07/2026" in erro


def test_lote_na_lei_embarcada_nao_recusa(tmp_path: Path) -> None:
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, [_linha(True), _linha(False)], CAMPOS)
    r = rodar_lote(
        entrada, "-r", "renovabio.distribuidor", "-o", tmp_path / "r.csv", "--exigir-kernel"
    )
    assert r.exit_code == 0, r.stderr
    assert "motor escalar" not in r.stderr


def test_limites_do_kernel_sao_um_motivo(tmp_path: Path) -> None:
    """A valid row past the kernel's integer bounds (a huge principal over years): the generic
    reason."""
    entrada = tmp_path / "m.csv"
    linhas = [
        {"principal": p, "data_ciencia": "2000-01-10", "data_pagamento": "2025-02-10"}
        for p in ("900000000000000.00", "1000.00")
    ]
    escrever_csv(entrada, linhas, list(linhas[0]))
    r = rodar_lote(entrada, "-r", "anp.mora", "-o", tmp_path / "r.csv", "--exigir-kernel")
    assert r.exit_code == 2
    assert f"  1 linha: {FORA_DOS_LIMITES}" in r.stderr
    assert r.stderr.strip().splitlines()[-1] == (
        f"Erro: --exigir-kernel: o kernel não calculou todas as linhas válidas: {FORA_DOS_LIMITES}"
    )


@pytest.mark.parametrize("nucleos", [1, 3], ids=["uma-linha", "threads"])
def test_as_contagens_somam_entre_blocos_fatias_e_threads(
    tmp_path: Path, com_o_piso_legal: Legislacao, monkeypatch: pytest.MonkeyPatch, nucleos: int
) -> None:
    monkeypatch.setattr(processar_mod, "LINHAS_POR_PASSO", 16)  # blocks cut into slices
    linhas = [_linha(i % 3 == 0, "x" if i % 7 == 0 else "1000") for i in range(300)]
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, linhas, CAMPOS)
    regime = "renovabio.distribuidor"
    cfg = Config(regime, ler_interpretacao(regime_de(regime), None))
    resumo = executar(entrada, tmp_path / "r.csv", cfg, linhas_por_bloco=50, nucleos=nucleos)
    esperado = len([i for i in range(300) if i % 3 == 0 and i % 7])
    assert (resumo.erros, resumo.motor) == (len(range(0, 300, 7)), esperado)
    assert resumo.motivos == {MOTIVO: esperado}
