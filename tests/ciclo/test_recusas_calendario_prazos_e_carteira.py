"""Hostile review of the v3 features: the federal calendar (``GET /api/v1/calendario/{ano}``,
``multas calendario``), ``dias_sem_expediente`` (contract, processo, batch file and column,
kernel grouping), § 6 v3 (``data_referencia``, ``valor_multa``, court suspensions and the
limitation periods), the ledger's readings and ``multas reavaliar``.

Every test asserts the CORRECT behaviour: a test that fails documents a defect (see the
docstring of each). The passing ones document what held.
"""

from __future__ import annotations

import csv
import json
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.ciclo import calcular_prazos
from multas.ciclo.carteira import calcular_carteira, ler_anos
from multas.erros import EntradaInvalida
from multas.kernel import calcular_colunas
from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.motor import calcular, ler_interpretacao, regime_de
from multas.principal import cli
from multas.servidor.aplicacao import criar_app

# --- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def cliente(tmp_path: Path) -> TestClient:
    return TestClient(criar_app(f"sqlite:///{tmp_path / 'm.db'}"), raise_server_exceptions=False)


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def erro_de(processo: dict[str, Any]) -> EntradaInvalida:
    with pytest.raises(EntradaInvalida) as info:
        calcular_prazos(processo)
    return info.value


def erro_422(resposta: Any, campo: str) -> str:
    assert resposta.status_code == 422, resposta.text
    corpo = resposta.json()
    assert corpo["erro"]["campo"] == campo, corpo
    mensagem: str = corpo["erro"]["mensagem"]
    return mensagem


def _escrever_csv(caminho: Path, linhas: list[dict[str, Any]], campos: list[str]) -> None:
    with open(caminho, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, campos)
        escritor.writeheader()
        escritor.writerows(linhas)


def _ler_csv(caminho: Path) -> list[dict[str, str]]:
    with open(caminho, encoding="utf-8", newline="") as arquivo:
        return list(csv.DictReader(arquivo))


def _lote(*args: object) -> Any:
    return CliRunner().invoke(cli, ["lote", *map(str, args)])


CAMPOS_MORA = ["id", "principal", "data_ciencia", "data_pagamento", "dias_sem_expediente"]


def _mora(id_: str, dias: str) -> dict[str, str]:
    # 21/05/2025 + 30 = 20/06/2025 (ponto facultativo), 21-22 fim de semana → 23/06/2025
    return {
        "id": id_,
        "principal": "1000.00",
        "data_ciencia": "2025-05-21",
        "data_pagamento": "2025-06-25",
        "dias_sem_expediente": dias,
    }


# --- GET /api/v1/calendario/{ano} and `multas calendario` -------------------------------------


@pytest.mark.parametrize(
    "ano",
    [
        "0000",
        "-1",
        "１２３４",
        "٢٠٢٥",
        "2025.0",
        str(10**30),
        "10000",
        "+2025",
        "2_025",
        "0x10",
        "00002025",
        "%00",
    ],
)
def test_calendario_api_recusa_ano_invalido(cliente: TestClient, ano: str) -> None:
    """HELD: every malformed year is a pt-BR 422 naming ``ano`` (never a 500)."""
    mensagem = erro_422(cliente.get(f"/api/v1/calendario/{ano}"), "ano")
    assert "AAAA" in mensagem


def test_calendario_api_limites_do_intervalo(cliente: TestClient) -> None:
    """HELD: 0001 and 9999 are computed from the pattern (Easter by the computus)."""
    for ano, primeiro in (("0001", "0001-01-01"), ("9999", "9999-01-01")):
        r = cliente.get(f"/api/v1/calendario/{ano}")
        assert r.status_code == 200
        corpo = r.json()
        assert corpo["transcrito"] is False and corpo["dias"][0]["data"] == primeiro
        assert all(d["data"].startswith(ano) for d in corpo["dias"])


@pytest.mark.parametrize("ano", ["%202025", "2025%20", "2025%0A", "%092025"])
def test_calendario_api_ano_com_espacos_e_recusado(cliente: TestClient, ano: str) -> None:
    """DEFECT: ``GET /api/v1/calendario/%202025`` (and ``2025%20``, ``2025%0A``) answers 200 for
    2025. The project reads path and query parameters strictly (``servidor/parametros.py``:
    "an integer is ASCII digits"; ``/processos/1%20`` is a 422), and the message itself asks
    for AAAA; ``ler_ano_calendario`` strips whitespace first. Should be 422 naming ``ano``."""
    erro_422(cliente.get(f"/api/v1/calendario/{ano}"), "ano")


def test_calendario_cli_ano_com_espacos_e_recusado() -> None:
    """DEFECT (same cause, the CLI): ``multas calendario " 2025"`` prints 2025 (exit 0)."""
    r = CliRunner().invoke(cli, ["calendario", " 2025"])
    assert r.exit_code == 2, r.output
    assert json.loads(r.output)["erro"]["campo"] == "ano"


@pytest.mark.parametrize("ano", ["0000", "１２３４", "2025.0", str(10**30), "10000"])
def test_calendario_cli_recusa_ano_invalido(ano: str) -> None:
    """HELD: exit 2 with {"erro": {"campo": "ano", ...}}."""
    r = CliRunner().invoke(cli, ["calendario", ano])
    assert r.exit_code == 2
    assert json.loads(r.output)["erro"]["campo"] == "ano"


# --- dias_sem_expediente in a processo --------------------------------------------------------


@pytest.mark.parametrize(
    ("valor", "campo"),
    [
        ([20250210], "dias_sem_expediente[0]"),
        ([["2025-02-10"]], "dias_sem_expediente[0]"),
        (["2025-02-10", None], "dias_sem_expediente[1]"),
        ({"2025-02-10": True}, "dias_sem_expediente"),
        (2025, "dias_sem_expediente"),
        (["2025-02-30"], "dias_sem_expediente[0]"),
        (["２０２５-02-10"], "dias_sem_expediente[0]"),
        (
            ["2025-01-01"]
            + [(date(2026, 1, 1) + timedelta(days=i)).isoformat() for i in range(366)],
            "dias_sem_expediente",
        ),
    ],
)
def test_dias_sem_expediente_invalidos_no_processo(valor: Any, campo: str) -> None:
    """HELD: numbers, nested lists, null items, objects, impossible dates, fullwidth digits and
    more than 366 dates are errors naming the field (and the item)."""
    assert erro_de(anp(("infracao", "2025-01-10"), dias_sem_expediente=valor)).campo == campo


def test_dias_sem_expediente_nas_pontas_do_calendario() -> None:
    """HELD: 0001-01-01 and 9999-12-31 as extra days are accepted and harmless."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("auto_infracao", "2025-02-01"),
            dias_sem_expediente=["9999-12-31", "0001-01-01"],
            data_referencia="2025-02-02",
        )
    )
    assert prazos(r)["defesa"] == ("2025-02-17", "em_aberto")


def test_dias_sem_expediente_move_o_prazo_de_defesa() -> None:
    """HELD: 01/02/2025 + 15 = 16/02 (domingo) → 17/02; 17/02 and 18/02 informed → 19/02."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("auto_infracao", "2025-02-01"),
            dias_sem_expediente=["2025-02-17", "2025-02-18", "2025-02-18"],
            data_referencia="2025-02-02",
        )
    )
    assert prazos(r)["defesa"] == ("2025-02-19", "em_aberto")


# --- § 6 v3: limitation periods at the ends of the calendar ----------------------------------


def test_prescricao_que_passaria_de_9999_e_erro_na_data() -> None:
    """HELD: a prescrição past 31/12/9999 is an input error on the date it counts from."""
    for inicio in ("9999-12-31", "9995-01-01"):
        erro = erro_de(anp(("infracao", inicio)))
        assert erro.campo == "eventos[0].data" and "31/12/9999" in erro.mensagem
    r = calcular_prazos(anp(("infracao", "9994-12-01"), data_referencia="9994-12-02"))
    assert prazos(r)["prescricao"] == ("9999-12-01", "em_aberto")


def test_defesa_que_passaria_de_9999_e_erro_na_data() -> None:
    """HELD: auto_infracao on 20/12/9999 → the defesa (15 days) would pass 31/12/9999."""
    erro = erro_de(
        anp(
            ("infracao", "9994-12-31"),
            ("auto_infracao", "9999-12-20"),
            data_referencia="9999-12-20",
        )
    )
    assert erro.campo in ("eventos[0].data", "eventos[1].data")
    assert "31/12/9999" in erro.mensagem


@pytest.mark.parametrize("referencia", ["9999-12-31", "9999-12-30"])
def test_suspensao_aberta_ate_o_fim_do_calendario(referencia: str) -> None:
    """HELD: an open suspension judged near 31/12/9999 pauses the prescrição past the calendar:
    shown on its last day, suspenso, never an OverflowError."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("suspensao_judicial", "2025-02-01"),
            data_referencia=referencia,
        )
    )
    assert r["estado"] == "suspenso"
    assert prazos(r)["prescricao"] == ("9999-12-31", "suspenso")


def test_data_referencia_0001_com_suspensao() -> None:
    """HELD: data_referencia 0001-01-01 (before every event) is accepted; nothing lapsed."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("suspensao_judicial", "2025-02-01"),
            data_referencia="0001-01-01",
        )
    )
    assert r["estado"] == "apuracao"
    assert prazos(r)["prescricao"] == ("2030-01-10", "em_aberto")


def test_muitas_suspensoes_alternadas_rapidas_e_exatas() -> None:
    """HELD: 1000 one-day suspensions (2002 events) are summed exactly, and fast."""
    eventos = [("infracao", "2000-01-01"), ("auto_infracao", "2000-01-02")]
    dia = date(2000, 1, 3)
    for i in range(2000):
        eventos.append(
            ("suspensao_judicial" if i % 2 == 0 else "fim_suspensao_judicial", dia.isoformat())
        )
        dia += timedelta(days=1)
    inicio = time.perf_counter()
    r = calcular_prazos(anp(*eventos, data_referencia="2030-01-01"))
    assert time.perf_counter() - inicio < 5
    p = prazos(r)
    # 1000 paused days: auto 02/01/2000 + 3 anos = 02/01/2003, + 1000 dias
    assert p["prescricao_intercorrente"][0] == (date(2003, 1, 2) + timedelta(days=1000)).isoformat()
    assert p["prescricao"][0] == (date(2005, 1, 2) + timedelta(days=1000)).isoformat()


def test_suspensao_aberta_no_ultimo_dia_nao_custa_segundos() -> None:
    """DEFECT (performance, DoS): a suspension opened on the last day of the prescrição and
    still open, judged on 30/12/9999, makes ``_Anp.anos`` iterate its fixpoint one day per
    loop: ~2.9 million iterations, about 6 s of CPU for ONE processo (measured 5.7 s). Every
    ``GET /prazos/proximos?data_referencia=9999-12-30`` pays it again for every stored
    processo with an open suspension. The extension should be computed over the pauses
    (O(pauses)), not day by day.

    Input: infracao 01/01/2000, suspensao_judicial 01/01/2005 (the nominal end), open;
    data_referencia 9999-12-30."""
    inicio = time.perf_counter()
    r = calcular_prazos(
        anp(
            ("infracao", "2000-01-01"),
            ("suspensao_judicial", "2005-01-01"),
            data_referencia="9999-12-30",
        )
    )
    gasto = time.perf_counter() - inicio
    assert prazos(r)["prescricao"] == ("9999-12-31", "suspenso")
    assert gasto < 1.5, f"{gasto:.1f} s para um processo"


# --- § 6 v3: valor_multa -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "valor",
    ["-1", "-0.01", "1.001", "1" + "0" * 40, "NaN", "Infinity", True, "1e3", "", [], {"v": 1}],
)
def test_valor_multa_invalido(valor: Any) -> None:
    """HELD: negative, 3 decimals, huge, NaN, booleans... are errors naming valor_multa."""
    assert erro_de(anp(("infracao", "2025-01-10"), valor_multa=valor)).campo == "valor_multa"


def test_valor_multa_so_anp_no_calculo() -> None:
    """HELD: POST /prazos refuses valor_multa on a non-anp processo."""
    erro = erro_de(
        {
            "tipo": "renovabio.lista",
            "eventos": [{"evento": "fim_prazo_meta", "data": "2025-04-01"}],
            "valor_multa": "10",
        }
    )
    assert erro.campo == "valor_multa"


def test_valor_com_desconto_arredondado_uma_vez() -> None:
    """HELD: 0,05 × 70% = 0,035 → 0,04 (half up, once)."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("auto_infracao", "2025-01-20"),
            ("ciencia_primeira_instancia", "2025-03-01"),
            ("renuncia_recurso", "2025-03-02"),
            valor_multa="0.05",
            data_referencia="2025-03-03",
        )
    )
    assert r["valor_com_desconto"] == "0.04"


def test_valor_multa_zero_e_recusado_como_no_processo_salvo(cliente: TestClient) -> None:
    """DEFECT (inconsistency): ``valor_multa: "0"`` is accepted by ``POST /api/v1/prazos``
    (read as a ``quantia``, ≥ 0) but refused by ``POST /api/v1/processos`` ("deve ser maior
    que zero", a ``quantia_positiva``). The same field of § 6 must have one rule: a fine
    fixed at R$ 0,00 is not a fine. Should be 422 naming valor_multa in both."""
    corpo = anp(("infracao", "2025-01-10"), valor_multa="0")
    erro_422(cliente.post("/api/v1/processos", json=corpo), "valor_multa")  # holds
    erro_422(cliente.post("/api/v1/prazos", json=corpo), "valor_multa")


def test_valor_multa_em_processo_salvo_nao_anp_e_recusado(cliente: TestClient) -> None:
    """DEFECT: ``POST /api/v1/processos`` with ``{"tipo": "renovabio.lista", ...,
    "valor_multa": "10"}`` answers 201 and stores ``principal: "10"``, which nothing ever uses
    (§ 6: valor_multa is "só anp"; ``POST /api/v1/prazos`` refuses the same body with 422).
    Silently kept and ignored. Should be 422 naming valor_multa."""
    corpo = {
        "tipo": "renovabio.lista",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-04-01"}],
        "valor_multa": "10",
    }
    erro_422(cliente.post("/api/v1/prazos", json=corpo), "valor_multa")  # holds
    erro_422(cliente.post("/api/v1/processos", json=corpo), "valor_multa")


def test_principal_e_valor_multa_juntos(cliente: TestClient) -> None:
    """HELD: the old and the new name together are refused, naming principal."""
    corpo = anp(("infracao", "2025-01-10"), valor_multa="10", principal="10")
    erro_422(cliente.post("/api/v1/processos", json=corpo), "principal")


def test_processo_salvo_recusa_campos_nao_gravados(cliente: TestClient) -> None:
    """HELD: a stored processo refuses what it would not keep (never silently dropped);
    dias_sem_expediente, kept since migration r0006, is tests/ciclo/test_dias_sem_expediente_salvos.py's."""
    corpo = anp(("infracao", "2025-01-10"), data_referencia="2025-02-01")
    erro_422(cliente.post("/api/v1/processos", json=corpo), "data_referencia")


# --- /prazos/proximos ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("consulta", "campo"),
    [
        ("data_referencia=2025-02-30", "data_referencia"),
        ("data_referencia=", "data_referencia"),
        ("data_referencia=0", "data_referencia"),
        ("data_referencia=2025-1-1", "data_referencia"),
        ("vencidos=talvez", "vencidos"),
        ("dias=3661", "dias"),
        ("dias=1.0", "dias"),
    ],
)
def test_proximos_parametros_invalidos(cliente: TestClient, consulta: str, campo: str) -> None:
    """HELD: pt-BR 422 naming the parameter."""
    erro_422(cliente.get(f"/api/v1/prazos/proximos?{consulta}"), campo)


@pytest.mark.parametrize("dia", ["0001-01-01", "9999-12-31"])
def test_proximos_nas_pontas(cliente: TestClient, dia: str) -> None:
    """HELD: a stored processo judged on 0001-01-01 / 9999-12-31 with the widest window."""
    criado = cliente.post(
        "/api/v1/processos",
        json=anp(("infracao", "2025-01-10"), ("suspensao_judicial", "2025-02-01")),
    )
    assert criado.status_code == 201, criado.text
    r = cliente.get(f"/api/v1/prazos/proximos?data_referencia={dia}&dias=3660&vencidos=true")
    assert r.status_code == 200, r.text
    assert r.json()["hoje"] == dia


def test_cli_proximos_data_referencia_invalida_nomeia_o_campo(tmp_path: Path) -> None:
    """DEFECT: ``multas prazos proximos --data-referencia 2025-02-30 -f json`` exits 2 with
    click's usage text ("Erro: Valor inválido: data inexistente: '2025-02-30'"): not the
    project's {"erro": {"campo", "mensagem"}}, and the message does not even name the option.
    Should print {"erro": {"campo": "data_referencia" (or "--data-referencia"), ...}}."""
    r = CliRunner().invoke(
        cli,
        [
            "prazos",
            "proximos",
            "--data-referencia",
            "2025-02-30",
            "--banco",
            f"sqlite:///{tmp_path / 'm.db'}",
            "-f",
            "json",
        ],
    )
    assert r.exit_code == 2
    assert "data-referencia" in r.output or "data_referencia" in r.output, r.output
    erro = json.loads(r.output)["erro"]
    assert erro["campo"] in ("data_referencia", "--data-referencia")


# --- the ledger's readings ------------------------------------------------------------------------


def _carteira(cliente: TestClient) -> None:
    r = cliente.post(
        "/api/v1/carteira",
        json={
            "cnpj": "1",
            "ano": 2024,
            "meta_cbios": 100,
            "cbios_aposentados": 80,
            "maior_media_mensal": "100",
        },
    )
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("consulta", "campo"),
    [
        ("preco_diferido=x", "interpretacao.preco_diferido"),
        ("preco_diferido=", "interpretacao.preco_diferido"),
        ("preco_diferido=%00", "interpretacao.preco_diferido"),
        ("diferimento_excedente=PARCIAL", "interpretacao.diferimento_excedente"),
        ("diferimento_excedente=%20parcial", "interpretacao.diferimento_excedente"),
    ],
)
def test_carteira_api_opcao_invalida(cliente: TestClient, consulta: str, campo: str) -> None:
    """HELD: a bad reading is a 422 naming interpretacao.X and listing the options."""
    _carteira(cliente)
    mensagem = erro_422(cliente.get(f"/api/v1/carteira/distribuidor?cnpj=1&{consulta}"), campo)
    assert "opções" in mensagem


@pytest.mark.parametrize("chave", ["preco_diferido", "diferimento_excedente"])
def test_carteira_api_opcao_longa_nomeia_interpretacao(cliente: TestClient, chave: str) -> None:
    """DEFECT: an option longer than 32 characters (``?preco_diferido=aaaa…`` ×33) is caught by
    the framework's ``max_length`` first: 422 naming ``preco_diferido`` with "valor inválido",
    instead of ``interpretacao.preco_diferido`` and the list of options that every other bad
    option gets."""
    _carteira(cliente)
    mensagem = erro_422(
        cliente.get(f"/api/v1/carteira/distribuidor?cnpj=1&{chave}={'a' * 33}"),
        f"interpretacao.{chave}",
    )
    assert "opções" in mensagem


def test_carteira_api_leitura_com_o_nome_do_erro_nao_e_ignorada(cliente: TestClient) -> None:
    """Was a defect: the 422 of a bad reading names ``interpretacao.preco_diferido``, and a
    user who sent exactly that got the default reading, silently. That name is now accepted
    as well (the reading applies); an unknown reading under it is a 422 naming it."""
    _carteira(cliente)
    r = cliente.get(
        "/api/v1/carteira/distribuidor?cnpj=1&interpretacao.preco_diferido=ano_diferimento"
    )
    assert r.status_code == 200, r.text
    assert r.json()["interpretacao"]["preco_diferido"] == "ano_diferimento"
    r = cliente.get("/api/v1/carteira/distribuidor?cnpj=1&interpretacao.preco=x")
    assert r.status_code == 422 and r.json()["erro"]["campo"] == "interpretacao.preco"
    r = cliente.get(
        "/api/v1/carteira/distribuidor?cnpj=1&preco_diferido=ano_seguinte"
        "&interpretacao.preco_diferido=ano_diferimento"
    )
    assert r.status_code == 422


def test_carteira_cli_opcao_invalida(tmp_path: Path) -> None:
    """HELD: ``multas carteira mostrar -i preco_diferido=x`` exits 2 naming the reading."""
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    ano = {"cnpj": "1", "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 80}
    salvo = CliRunner().invoke(
        cli, ["carteira", "salvar", "-", "--banco", banco], input=json.dumps(ano)
    )
    assert salvo.exit_code == 0, salvo.output
    r = CliRunner().invoke(
        cli, ["carteira", "mostrar", "1", "-i", "preco_diferido=x", "--banco", banco, "-f", "json"]
    )
    assert r.exit_code == 2
    assert json.loads(r.output)["erro"]["campo"] == "interpretacao.preco_diferido"


@pytest.mark.parametrize("cumprida", [None, False])
def test_diferimento_parcial_aviso_nao_diz_que_cabe(cumprida: bool | None) -> None:
    """DEFECT (wrong text): ``diferimento_excedente = parcial``, meta 100, 80 aposentados (falta
    20 > 15% da meta) and the previous year NOT known to be met: the aviso says "A falta de 20
    CBIOs cabe nos 15%…" — false (20 does not fit in 15 of 100). ``_diferido`` sets
    ``cabe_percentual = True`` to reach the previous-year check and reuses the within-15%
    text. The aviso should say the shortfall passes 15% (and why nothing is deferred)."""
    entrada: dict[str, Any] = {
        "cnpj": "1",
        "ano": 2024,
        "meta_cbios": 100,
        "cbios_aposentados": 80,
        "maior_media_mensal": "100",
    }
    if cumprida is not None:
        entrada["meta_anterior_cumprida"] = cumprida
    r = calcular_carteira(ler_anos([entrada]), interpretacao={"diferimento_excedente": "parcial"})
    linha = r["anos"][0]
    assert (linha["cbios_diferidos"], linha["cbios_multados"]) == (0, 20)  # holds
    texto = " ".join(linha["avisos"])
    assert "cabe nos" not in texto, texto


def test_diferimento_parcial_difere_15_por_cento() -> None:
    """HELD: parcial with the previous year met: 15 deferred, 5 fined."""
    entrada = {
        "cnpj": "1",
        "ano": 2024,
        "meta_cbios": 100,
        "cbios_aposentados": 80,
        "maior_media_mensal": "100",
        "meta_anterior_cumprida": True,
    }
    r = calcular_carteira(ler_anos([entrada]), interpretacao={"diferimento_excedente": "parcial"})
    assert (r["anos"][0]["cbios_diferidos"], r["anos"][0]["cbios_multados"]) == (15, 5)


# --- multas reavaliar -------------------------------------------------------------------------------


def test_reavaliar_nada_mudou(cliente: TestClient, tmp_path: Path) -> None:
    """HELD: saved cases (with dias_sem_expediente as a list and as a cell string) give the
    same result under the same rules: nothing listed, in the three formats."""
    for caso in (
        _mora("", "") | {"dias_sem_expediente": ["2025-06-23"]},
        _mora("", "2025-06-23 2025-06-24"),
    ):
        caso = {k: v for k, v in caso.items() if k != "id"} | {"regime": "anp.mora"}
        assert cliente.post("/api/v1/casos", json=caso).status_code == 201
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", banco, "-f", "json"])
    assert r.exit_code == 0 and json.loads(r.output) == {"itens": []}
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", banco, "-f", "csv"])
    assert r.output == "registro,id,regime,campo,antes,depois,erro\n"


# --- batch: the dias_sem_expediente column and --dias-sem-expediente FILE ---------------------------


def test_lote_celula_com_formula(tmp_path: Path) -> None:
    """HELD: "=1+1" / "@SUM(A1)" cells are row errors naming dias_sem_expediente[0], and the
    echoed cell is neutralised."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    _escrever_csv(entrada, [_mora("1", "=1+1"), _mora("2", "@SUM(A1)")], CAMPOS_MORA)
    r = _lote(entrada, "-r", "anp.mora", "-o", saida)
    assert r.exit_code == 2
    linhas = _ler_csv(saida)
    assert [linha["dias_sem_expediente"] for linha in linhas] == ["'=1+1", "'@SUM(A1)"]
    assert all(
        linha["erro"].startswith("dias_sem_expediente[0]: data inválida") for linha in linhas
    )


@pytest.mark.parametrize(
    ("conteudo", "trecho"),
    [
        (b"\x00\xff\xfe\x89PNG\r\n", "UTF-8"),
        ("2025-06-23 # São João\n".encode("latin-1"), "UTF-8"),
        (b"2025-06-23\n" * 7000, "65536 bytes"),
        ("２０２５-06-23\n".encode(), "data inválida"),
        (b"2025-06-23 2025-06-24\n", "data inválida"),
    ],
)
def test_lote_arquivo_de_dias_invalido(tmp_path: Path, conteudo: bytes, trecho: str) -> None:
    """HELD: a binary, latin-1, oversized or malformed file is a usage error (exit 2) naming
    --dias-sem-expediente; nothing is computed."""
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "d.txt"
    _escrever_csv(entrada, [_mora("1", "")], CAMPOS_MORA)
    dias.write_bytes(conteudo)
    r = _lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    assert r.exit_code == 2
    assert "--dias-sem-expediente" in r.output and trecho in r.output


def test_lote_arquivo_de_dias_erro_aponta_a_linha_do_arquivo(tmp_path: Path) -> None:
    """DEFECT: a --dias-sem-expediente file "2025-06-23\\n\\n\\nlixo\\n" fails with "linha[1]:
    data inválida: 'lixo'": the 0-based position among the NON-blank lines, while 'lixo' is
    on line 4 of the file (blank lines are documented as skipped). The error should name the
    file's line (linha 4)."""
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "d.txt"
    _escrever_csv(entrada, [_mora("1", "")], CAMPOS_MORA)
    dias.write_text("2025-06-23\n\n\nlixo\n", encoding="utf-8")
    r = _lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    assert r.exit_code == 2 and "lixo" in r.output
    assert "linha 4" in r.output or "linha[3]" in r.output, r.output


def test_lote_erro_da_celula_aponta_a_data_da_celula(tmp_path: Path) -> None:
    """DEFECT: with --dias-sem-expediente (one date), a cell "2025-06-31" (its FIRST date) is
    reported as "dias_sem_expediente[1]: data inexistente": the scalar path prepends the
    file's dates to the cell's before validating, so the index counts the file's dates. The
    cell has no item [1]. Should name dias_sem_expediente[0] (the cell's own position)."""
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "d.txt"
    _escrever_csv(entrada, [_mora("1", "2025-06-31")], CAMPOS_MORA)
    dias.write_text("2025-06-23\n", encoding="utf-8")
    _lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    erro = _ler_csv(saida)[0]["erro"]
    assert erro.startswith("dias_sem_expediente[0]: data inexistente"), erro


def _executar(entrada: Path, saida: Path, arquivo: list[str], kernel: bool) -> list[dict[str, str]]:
    cfg = Config(
        "anp.mora",
        ler_interpretacao(regime_de("anp.mora"), None),
        constantes={"dias_sem_expediente": arquivo},
        kernel=kernel,
    )
    executar(entrada, saida, cfg)
    return _ler_csv(saida)


def test_lote_kernel_e_motor_escalar_concordam_com_arquivo_e_coluna(tmp_path: Path) -> None:
    """DEFECT (kernel ≠ scalar engine): --dias-sem-expediente with 300 dates and a row whose
    cell has 100 other dates. The kernel validates each list on its own (≤ 366 each) and
    computes the row (valor 1030.00); the scalar engine (``Config(kernel=False)``, and any
    row the kernel hands over, e.g. ``-i encargos=lei-10522`` without ``--selic``)
    concatenates them and refuses "dias_sem_expediente: no máximo 366 datas". The same row must get the
    same answer whichever path computes it."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    base = date(2030, 1, 1)
    arquivo = [(base + timedelta(days=i)).isoformat() for i in range(300)]
    celula = " ".join((base + timedelta(days=400 + i)).isoformat() for i in range(100))
    _escrever_csv(entrada, [_mora("1", celula)], CAMPOS_MORA)
    com_kernel = _executar(entrada, saida, arquivo, kernel=True)[0]
    sem_kernel = _executar(entrada, saida, arquivo, kernel=False)[0]
    assert (com_kernel["valor"], com_kernel["erro"]) == (sem_kernel["valor"], sem_kernel["erro"])


def test_lote_datas_repetidas_do_arquivo_na_celula_contam_uma_vez(tmp_path: Path) -> None:
    """DEFECT: the file gives 200 dates and a row's cell repeats the same 200 (one set of 200
    distinct dates). ``ler_datas`` says "repeats count once", but the scalar path counts the
    concatenated items (400 > 366) and refuses the row; the kernel computes it. Should be
    computed (1030.00, vencimento 23/06/2025) on both paths."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    base = date(2030, 1, 1)
    arquivo = [(base + timedelta(days=i)).isoformat() for i in range(200)]
    _escrever_csv(entrada, [_mora("1", " ".join(arquivo))], CAMPOS_MORA)
    for kernel in (True, False):
        linha = _executar(entrada, saida, arquivo, kernel=kernel)[0]
        assert (linha["valor"], linha["vencimento"], linha["erro"]) == (
            "1030.00",
            "2025-06-23",
            "",
        ), kernel


def test_kernel_dez_mil_conjuntos_de_datas(tmp_path: Path) -> None:
    """HELD: 10 000 distinct date sets are grouped in about a second, each row as the engine."""
    n = 10_000
    celulas = [
        f"{(date(2025, 6, 1) + timedelta(days=i % 40)).isoformat()} "
        f"{(date(2026, 1, 1) + timedelta(days=i)).isoformat()}"
        for i in range(n)
    ]
    colunas = {
        "principal": pa.array(["1000"] * n),
        "data_ciencia": pa.array(["2025-05-21"] * n),
        "data_pagamento": pa.array(["2025-06-25"] * n),
        "dias_sem_expediente": pa.array(celulas),
    }
    inicio = time.perf_counter()
    r = calcular_colunas(
        "anp.mora", colunas, n, {"calendario": "expediente", "encargos": "decreto"}
    )
    assert time.perf_counter() - inicio < 20
    assert bool(r.ok.all())
    for i in (0, 22, 23, 24, 39, n - 1):
        motor = calcular(
            {
                "regime": "anp.mora",
                "principal": "1000",
                "data_ciencia": "2025-05-21",
                "data_pagamento": "2025-06-25",
                "dias_sem_expediente": celulas[i].split(),
            }
        )
        assert str(r.saidas["vencimento"][i]) == motor["vencimento"], i
        assert int(r.valor[i]) == int(motor["valor"].replace(".", "")), i
