"""Dates typed by people (issue 20, item 5): dd/mm/aaaa, ddmmaaaa and ISO, one parser for the
page and the command line; the contract (JSON, case files, batch) stays strict ISO."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.datas import data_digitada, formatar_data, para_data
from multas.nucleo.erros import EntradaInvalida


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(9999, 12, 31)))
def test_toda_data_volta_de_cada_formato(dia: date) -> None:
    br = formatar_data(dia)
    assert data_digitada(br, "data") == dia
    assert data_digitada(br.replace("/", ""), "data") == dia
    assert data_digitada(dia.isoformat(), "data") == dia
    assert data_digitada(f"  {br}\t", "data") == dia
    assert data_digitada(f"{dia.day}/{dia.month}/{dia.year:04d}", "data") == dia


def test_oito_digitos_sao_sempre_dia_mes_ano() -> None:
    assert data_digitada("15032025", "data") == date(2025, 3, 15)
    assert data_digitada("03122025", "data") == date(2025, 12, 3)  # never mm/dd
    assert data_digitada("01011900", "data") == date(1900, 1, 1)
    assert data_digitada("31129999", "data") == date(9999, 12, 31)


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(9999, 12, 31)))
def test_aaaammdd_nunca_vira_data_errada(dia: date) -> None:
    """Eight digits are day, month, year; a date typed as aaaammdd (20250315) is refused, with
    a hint naming the date meant, never read as another date (its "year" is below 1900)."""
    oito = f"{dia.year:04d}{dia.month:02d}{dia.day:02d}"
    with pytest.raises(EntradaInvalida) as erro:
        data_digitada(oito, "data_notificacao")
    assert erro.value.campo == "data_notificacao"
    assert f"para {formatar_data(dia)} digite {formatar_data(dia).replace('/', '')}" in (
        erro.value.mensagem
    )


@pytest.mark.parametrize(
    "texto", ["20250315", "19991231", "01011899", "31/12/1899", "1899-12-31", "01/01/0001",
              "0001-01-01", "01010001", "20251203", "31121231"],
)  # fmt: skip
def test_ano_fora_do_intervalo_e_erro_do_campo(texto: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        data_digitada(texto, "data_ciencia")
    assert erro.value.campo == "data_ciencia"
    assert "ano fora do intervalo aceito" in erro.value.mensagem
    assert "de 1900 a 9999" in erro.value.mensagem


@given(st.dates(max_value=date(1899, 12, 31)))
def test_nenhum_ano_fora_do_intervalo_passa(dia: date) -> None:
    for texto in (formatar_data(dia), formatar_data(dia).replace("/", ""), dia.isoformat()):
        with pytest.raises(EntradaInvalida, match="ano fora do intervalo"):
            data_digitada(texto, "data")


def test_o_script_da_pagina_le_como_o_servidor() -> None:
    """static/datas.js mirrors :func:`data_digitada`: the same texts valid, the same dates, the
    same refusal of years before 1900 and the same aaaammdd hint (run under Node)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("sem Node")
    textos = ["15/03/2025", "5/3/2025", "15032025", "2025-03-15", "20250315", "19991231",
              "01011899", "31122199", "31129999", "31/02/2025", "2025/03/15", "00000000",
              "29022024", "29022100", "1899-12-31", "2199-12-31", "01/01/0001"]  # fmt: skip
    script = Path(__file__).parents[2] / "src/multas/servidor/static/datas.js"
    codigo = (
        "globalThis.document = {addEventListener() {}};"
        f"eval(require('fs').readFileSync({json.dumps(str(script))}, 'utf8')"
        " + ';globalThis.ler = lerDataDigitada;');"
        f"console.log(JSON.stringify({json.dumps(textos)}.map((t) => ler(t))));"
    )
    saida = subprocess.run([node, "-e", codigo], capture_output=True, text=True, check=True)
    for texto, lida in zip(textos, json.loads(saida.stdout), strict=True):
        try:
            dia = data_digitada(texto, "data")
        except EntradaInvalida as erro:
            assert "erro" in lida, texto
            assert ("intervalo" in erro.mensagem) == ("intervalo" in lida["erro"]), texto
            assert ("digite" in erro.mensagem) == ("digite" in lida["erro"]), texto
            continue
        assert lida == {"dia": dia.day, "mes": dia.month, "ano": dia.year}, texto


@pytest.mark.parametrize(
    "texto",
    [
        "31/02/2025",
        "29/02/2025",
        "29022025",
        "00/01/2025",
        "15/13/2025",
        "12252025",
        "2025-02-30",
        "00002000",
        "01/00/2000",
        "32/01/2025",
    ],
)
def test_data_inexistente(texto: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        data_digitada(texto, "data_notificacao")
    assert erro.value.campo == "data_notificacao"
    assert erro.value.mensagem.startswith("data inexistente")


@pytest.mark.parametrize(
    "texto",
    [
        "",
        " ",
        "15/03/25",
        "2025/03/15",
        "15-03-2025",
        "15.03.2025",
        "1503202",
        "150320251",
        "2025-3-15",
        "15/03/2025x",
        "hoje",
        "15/03/2025\n16/03/2025",
        "١٥٠٣٢٠٢٥",
        "１５０３２０２５",
        "+15032025",
        "2025-03-15T00:00",
        "20250315 ",
        "1e7",
    ],
)
def test_formato_invalido_nomeia_o_campo_e_os_formatos(texto: str) -> None:
    if texto == "20250315 ":  # eight digits are day, month, year: the year 0315 is refused
        with pytest.raises(EntradaInvalida, match=r"intervalo.*digite 15032025"):
            data_digitada(texto, "data")
        return
    with pytest.raises(EntradaInvalida) as erro:
        data_digitada(texto, "data_referencia")
    assert erro.value.campo == "data_referencia"
    assert "dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd" in erro.value.mensagem


@given(st.one_of(st.text(max_size=60), st.none(), st.integers(), st.binary(max_size=10)))
def test_texto_hostil_ou_e_data_ou_e_erro_do_campo(texto: object) -> None:
    try:
        dia = data_digitada(texto, "data")
    except EntradaInvalida as erro:
        assert erro.campo == "data"
        assert len(erro.mensagem) < 160  # a long text is cut in the message
        return
    assert isinstance(texto, str)
    limpo = texto.strip()
    assert limpo in {formatar_data(dia), formatar_data(dia).replace("/", ""), dia.isoformat()} or (
        re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", limpo, re.ASCII) is not None
    )


def test_o_contrato_continua_so_iso() -> None:
    """JSON bodies, case files and batch cells keep :func:`para_data`: dd/mm/aaaa is refused."""
    for texto in ("15/03/2025", "15032025"):
        with pytest.raises(EntradaInvalida, match="AAAA-MM-DD"):
            para_data(texto, "data")


# --- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize("texto", ["15/03/2025", "15032025", "2025-03-15", "15/3/2025"])
def test_opcoes_de_data_da_linha_de_comando(tmp_path: Path, texto: str) -> None:
    from click.testing import CliRunner

    from multas.principal import cli

    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(cli, ["listas", "sancoes", "--data", texto, "-f", "json", *banco])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["data"] == "2025-03-15"
    r = CliRunner().invoke(cli, ["pendencias", "--data-referencia", texto, "-f", "json", *banco])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["data_referencia"] == "2025-03-15"


@pytest.mark.parametrize(
    ("argumentos", "campo"),
    [
        (["pendencias", "--hoje", "31022025"], "data_referencia"),
        (["listas", "balanco", "--data", "15/13/2025"], "data"),
        (["processo", "decisao", "1", "--ciencia", "03-03-2025"], "data_ciencia"),
        (["processo", "evento", "1", "citacao", "2025/03/03"], "data"),
    ],
)
def test_data_invalida_na_linha_de_comando_e_erro_do_contrato(
    tmp_path: Path, argumentos: list[str], campo: str
) -> None:
    """The contract's error, in the command's format, also with -f after the date."""
    from click.testing import CliRunner

    from multas.principal import cli

    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(cli, [*argumentos, "-f", "json", *banco])
    assert r.exit_code == 2, r.output
    erro = json.loads(r.output)["erro"]
    assert erro["campo"] == campo
    assert "dd/mm/aaaa" in erro["mensagem"] or "inexistente" in erro["mensagem"]
    r = CliRunner().invoke(cli, [*argumentos, *banco])
    assert r.exit_code == 2 and f"Erro no campo '{campo}'" in r.output, r.output


def test_ajuda_mostra_o_formato_brasileiro() -> None:
    from click.testing import CliRunner

    from multas.principal import cli

    r = CliRunner().invoke(cli, ["pendencias", "--help"])
    assert "DD/MM/AAAA" in r.output and "ddmmaaaa" in r.output
