"""The HTTP API: the body and the result are exactly the contract (spec § 3); every error is
pt-BR ``{"erro": {"campo", "mensagem"}}``, never a 500 or an English framework message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas import calcular
from multas.nucleo.catalogo import descrever_legislacao, descrever_regimes
from multas.nucleo.json_exato import ler_json
from multas.servidor import criar_app
from multas.servidor.exemplos import EXEMPLOS
from tests.utils import erro_pt, problema

RAIZ = Path(__file__).resolve().parents[2]

#: the README's worked examples and the amount each one is due
VALORES = {
    "renovabio-distribuidor.json": "10625000.00",
    "renovabio-produtor.json": "42258000.00",
    "renovabio-vedacao.json": "87500000.00",
    "anp-infracao.json": "750000.00",
    "anp-mora.json": "272500.00",
    "mover-eficiencia.json": "1440000.00",
}


@pytest.mark.parametrize("arquivo", sorted(VALORES))
def test_calcular_cada_regime_devolve_o_resultado_do_contrato(
    cliente: TestClient, arquivo: str
) -> None:
    corpo = (RAIZ / "exemplos" / arquivo).read_bytes()
    resposta = cliente.post(
        "/api/v1/calcular", content=corpo, headers={"Content-Type": "application/json"}
    )
    assert resposta.status_code == 200, resposta.text
    assert resposta.headers["content-type"] == "application/json"
    resultado = resposta.json()
    assert resultado == calcular(ler_json(corpo.decode()))  # exactly the engine's object
    assert resultado["valor"] == VALORES[arquivo]
    assert resultado["moeda"] == "BRL" and resultado["passos"]
    for passo in resultado["passos"]:
        assert {"descricao", "valor", "fundamento"} <= set(passo)


def test_numeros_json_sao_lidos_exatamente_nunca_como_float(cliente: TestClient) -> None:
    # 1.83 − 1.82 as floats is 0.010000000000000009: one hundredth plus a bit, the 2nd band
    corpo = '{"regime":"mover.eficiencia","meta_mj_km":1.82,"consumo_mj_km":1.83,"veiculos":1}'
    resposta = cliente.post("/api/v1/calcular", content=corpo)
    assert resposta.status_code == 200, resposta.text
    assert resposta.json()["valor"] == "50.00"


def test_id_do_caso_ecoado_no_resultado_e_no_erro(cliente: TestClient) -> None:
    """Spec § 3 v4: the case's ``id`` is the answer's first field, in a result and in a 422."""
    corpo = {"id": "AI-7", "regime": "anp.auto", "infracoes": [{"inciso": "XI"}]}
    resposta = cliente.post("/api/v1/calcular", json=corpo)
    assert resposta.status_code == 200, resposta.text
    assert list(resposta.json())[:2] == ["id", "regime"]
    recusado = cliente.post("/api/v1/calcular", json=corpo | {"infracoes": []})
    assert recusado.status_code == 422
    corpo = problema(recusado, 422)
    assert next(iter(corpo)) == "id" and corpo["id"] == "AI-7"
    assert corpo["erro"] == {"campo": "infracoes", "mensagem": corpo["erro"]["mensagem"]}


def test_casos_da_especificacao_pela_api(cliente: TestClient) -> None:
    for arquivo in sorted((RAIZ / "tests" / "casos_spec").glob("*.json")):
        caso = json.loads(arquivo.read_text(encoding="utf-8"))
        entrada = json.dumps(caso["entrada"])
        resultado = cliente.post("/api/v1/calcular", content=entrada).json()
        for campo, esperado in caso["esperado"].items():
            assert resultado[campo] == esperado, (arquivo.name, campo)


@pytest.mark.parametrize(
    ("corpo", "campo", "trecho"),
    [
        ('{"regime": "anp.infracao", "inciso": "XI", "cor": "azul"}', "cor", "campo desconhecido"),
        ('{"regime": "anp.infracao", "inciso": 11}', "inciso", "algarismos romanos"),
        (
            '{"regime": "anp.mora", "principal": "abc", "data_ciencia": "2024-03-29",'
            ' "data_pagamento": "2024-07-01"}',
            "principal",
            "número inválido",
        ),
        (
            '{"regime": "anp.mora", "principal": "10.005", "data_ciencia": "2024-03-29",'
            ' "data_pagamento": "2024-07-01"}',
            "principal",
            "duas casas",
        ),
        (
            '{"regime": "anp.mora", "principal": "100", "data_ciencia": "2026-02-30",'
            ' "data_pagamento": "2026-07-01"}',
            "data_ciencia",
            "data inexistente",
        ),
        (
            '{"regime": "mover.eficiencia", "meta_mj_km": 1.82, "consumo_mj_km": 1.83,'
            ' "veiculos": 1.5}',
            "veiculos",
            "inteiro",
        ),
        (
            '{"regime": "renovabio.distribuidor", "ano_meta": 2025, "cbios_aposentados": 0,'
            ' "maior_media_mensal": 70}',
            "meta_cbios",
            "obrigatório",
        ),
        (
            '{"regime": "renovabio.produtor", "ano": 2025, "cbios_nao_pagos": 1,'
            ' "maior_media_mensal": 70, "interpretacao": {"faturamento": "soma"}}',
            "interpretacao.faturamento",
            "opção inválida",
        ),
        ('{"regime": "multa.qualquer"}', "regime", "regime desconhecido"),
        ('{"inciso": "XI"}', "regime", "obrigatório"),
        ('{"regime": "anp.infracao", "inciso": "XI", "inciso": "X"}', "inciso", "repetido"),
    ],
)
def test_entrada_invalida_recebe_422_em_portugues_com_o_campo(
    cliente: TestClient, corpo: str, campo: str, trecho: str
) -> None:
    assert trecho in erro_pt(cliente.post("/api/v1/calcular", content=corpo), 422, campo)


def test_chave_repetida_aninhada_nomeia_o_caminho_e_devolve_o_id(cliente: TestClient) -> None:
    corpo = '{"id": "AI-7", "regime": "anp.infracao", "interpretacao": {"faixa": "lei", "faixa": "lei"}}'
    r = cliente.post("/api/v1/calcular", content=corpo)
    assert r.status_code == 422
    corpo = problema(r, 422)
    assert next(iter(corpo)) == "id" and corpo["id"] == "AI-7"
    assert corpo["erro"] == {"campo": "interpretacao.faixa", "mensagem": "campo repetido no JSON"}


@pytest.mark.parametrize(
    ("corpo", "trecho"),
    [
        (b'{"regime": "anp.infracao",', "JSON inválido"),
        (b"", "corpo vazio"),
        (b"[1, 2]", "objeto JSON"),
        (b'{"regime": "anp.mora", "principal": NaN}', "NaN"),
        ('{"regime": "anp.infracao", "inciso": "XI"}'.encode("utf-16"), "UTF-8"),
        (b"[" * 200_000, "JSON inválido"),
    ],
)
def test_corpo_invalido_recebe_422_em_portugues(
    cliente: TestClient, corpo: bytes, trecho: str
) -> None:
    assert trecho in erro_pt(cliente.post("/api/v1/calcular", content=corpo), 422, None)


def test_corpo_acima_do_limite_recebe_413_em_portugues(cliente: TestClient) -> None:
    corpo = b" " * (1024 * 1024 + 1)
    assert "grande demais" in erro_pt(cliente.post("/api/v1/calcular", content=corpo), 413, None)


def test_rota_desconhecida_404_e_metodo_errado_405_em_portugues(cliente: TestClient) -> None:
    assert "não encontrado" in erro_pt(cliente.get("/api/v1/nada"), 404, None)
    resposta = cliente.get("/api/v1/calcular")
    assert "não permitido" in erro_pt(resposta, 405, None)
    assert resposta.headers["allow"] == "POST"
    # every method of the path, not only the first route's (FastAPI: one route per method)
    assert cliente.options("/api/v1/casos").headers["allow"] == "GET, POST"
    assert cliente.put("/api/v1/casos/1").headers["allow"] == "DELETE, GET"
    assert "não encontrado" in erro_pt(cliente.get("/api/v1/casos/999"), 404, None)
    assert "inteiro" in erro_pt(cliente.get("/api/v1/casos/abc"), 422, "caso_id")
    assert "inteiro" in erro_pt(cliente.get("/api/v1/casos?limite=muitos"), 422, "limite")
    assert "intervalo" in erro_pt(cliente.get("/api/v1/casos?limite=0"), 422, "limite")
    assert "opção" in erro_pt(cliente.get("/api/v1/casos/1/relatorio?formato=doc"), 422, "formato")


def test_erro_inesperado_vira_500_em_portugues_sem_rastro(
    cliente: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def quebra(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr("multas.servidor.api.calcular_resultado", quebra)
    resposta = cliente.post("/api/v1/calcular", content=json.dumps(EXEMPLOS["anp.mora"]))
    mensagem = erro_pt(resposta, 500, None)
    assert "erro interno" in mensagem and "secret" not in resposta.text


def test_regimes_e_legislacao(cliente: TestClient) -> None:
    assert cliente.get("/api/v1/regimes").json() == descrever_regimes()
    legislacao = cliente.get("/api/v1/legislacao").json()
    assert legislacao == json.loads(json.dumps(descrever_legislacao()))
    so_anp = cliente.get("/api/v1/legislacao", params={"parametro": "anp."}).json()
    assert so_anp["parametros"] and all(p["nome"].startswith("anp.") for p in so_anp["parametros"])


def test_openapi_descreve_o_corpo_de_cada_regime(cliente: TestClient) -> None:
    documento = cliente.get("/openapi.json").json()
    corpo = documento["paths"]["/api/v1/calcular"]["post"]["requestBody"]
    conteudo = corpo["content"]["application/json"]
    assert len(conteudo["schema"]["oneOf"]) == len(descrever_regimes()) == 7
    esquemas = documento["components"]["schemas"]
    distribuidor = esquemas["Caso_renovabio_distribuidor"]
    assert {"meta_cbios", "cbios_aposentados"} <= set(distribuidor["required"])
    # ano_meta is required under either of its names (ano: issue 37, item 4)
    assert {"anyOf": [{"required": ["ano_meta"]}, {"required": ["ano"]}]} in distribuidor["allOf"]
    assert distribuidor["additionalProperties"] is False
    assert "HTTPValidationError" not in esquemas  # FastAPI's English error schema is gone
    # every example in the docs computes
    for nome, exemplo in conteudo["examples"].items():
        resposta = cliente.post("/api/v1/calcular", content=json.dumps(exemplo["value"]))
        assert resposta.status_code == 200, (nome, resposta.text)


def test_documentacao_interativa_sem_cdn(cliente: TestClient) -> None:
    html = cliente.get("/docs").text
    assert "/docs-static/swagger-ui-bundle.js" in html and "cdn" not in html
    assert cliente.get("/docs-static/swagger-ui-bundle.js").status_code == 200
    assert cliente.get("/redoc").status_code == 200


def test_exemplos_do_servidor_sao_os_do_readme() -> None:
    for arquivo in (RAIZ / "exemplos").glob("*.json"):
        caso = json.loads(arquivo.read_text(encoding="utf-8"))
        assert EXEMPLOS[caso["regime"]] == caso, arquivo.name
    assert len(EXEMPLOS) == len(descrever_regimes())


def test_relatorio_pdf_e_html_pela_api(cliente: TestClient) -> None:
    from tests.utils.saidas import FRASE_LEGAL, texto_do_pdf

    corpo = json.dumps(EXEMPLOS["renovabio.distribuidor"])
    pdf = cliente.post("/api/v1/relatorio", params={"formato": "pdf"}, content=corpo)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert "attachment" in pdf.headers["content-disposition"]
    texto = texto_do_pdf(pdf.content)
    assert "R$ 10.625.000,00" in texto and FRASE_LEGAL in texto
    html = cliente.post("/api/v1/relatorio", params={"formato": "html"}, content=corpo)
    assert html.headers["content-type"].startswith("text/html")
    assert "R$ 10.625.000,00" in html.text
    erro_pt(cliente.post("/api/v1/relatorio", content='{"regime": "anp.infracao"}'), 422, "inciso")


def test_versao(cliente: TestClient) -> None:
    from multas import __version__
    from multas.nucleo.legislacao import carregar

    assert cliente.get("/api/v1/versao").json() == {
        "motor": __version__,
        "legislacao": carregar().versao,
    }


def test_pedido_de_outro_site_nao_salva_nem_exclui(cliente: TestClient) -> None:
    corpo = json.dumps(EXEMPLOS["anp.mora"])
    for cabecalhos in ({"Origin": "http://malicioso.example"}, {"Sec-Fetch-Site": "cross-site"}):
        resposta = cliente.post("/api/v1/casos", content=corpo, headers=cabecalhos)
        assert "outro site" in erro_pt(resposta, 403, None)
        pagina = cliente.post("/casos", data={"caso": corpo}, headers=cabecalhos)
        assert pagina.status_code == 403
    assert cliente.get("/api/v1/casos").json()["total"] == 0
    mesma_origem = cliente.post(
        "/api/v1/casos", content=corpo, headers={"Origin": "http://testserver"}
    )
    assert mesma_origem.status_code == 201
    assert cliente.get("/").headers["x-frame-options"] == "DENY"
    assert mesma_origem.headers["x-content-type-options"] == "nosniff"


def test_no_loopback_so_nomes_de_loopback(tmp_path: Path) -> None:
    app = criar_app(f"sqlite:///{tmp_path / 'm.db'}", hosts_permitidos=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/v1/versao").status_code == 200
    with TestClient(app, base_url="http://atacante.example") as religado:
        assert "não aceito" in erro_pt(religado.get("/api/v1/casos"), 400, None)


@pytest.mark.parametrize(
    ("corpo", "campo", "trecho"),
    [
        (
            '{"regime":"mover.eficiencia","meta_mj_km":1,"consumo_mj_km":1e400,"veiculos":1}',
            "consumo_mj_km",
            "grande demais",
        ),
        (
            '{"regime":"mover.eficiencia","meta_mj_km":1,"consumo_mj_km":2,"veiculos":1e5000}',
            "veiculos",
            "grande demais",
        ),
        (
            '{"regime":"mover.eficiencia","meta_mj_km":1,"consumo_mj_km":2,"veiculos":%s}'
            % ("9" * 5000),
            None,
            "grande demais no JSON",
        ),
        (
            '{"regime":"renovabio.distribuidor","ano_meta":2025,"meta_cbios":"%s",'
            '"cbios_aposentados":0,"maior_media_mensal":70}' % ("9" * 5000),
            "meta_cbios",
            "grande demais",
        ),
        (
            '{"regime":"renovabio.distribuidor","ano_meta":2025,"meta_cbios":10,'
            '"cbios_aposentados":0,"maior_media_mensal":1e-999999}',
            "maior_media_mensal",
            "casas decimais",
        ),
    ],
)
def test_numeros_absurdos_sao_erro_de_entrada_e_nao_travam(
    cliente: TestClient, corpo: str, campo: str | None, trecho: str
) -> None:
    assert trecho in erro_pt(cliente.post("/api/v1/calcular", content=corpo), 422, campo)


@pytest.mark.parametrize(
    "caso",
    [
        {
            "regime": "mover.eficiencia",
            "meta_mj_km": "0",
            "consumo_mj_km": "999999999999999",
            "veiculos": 999999999999999,
        },
        {
            "regime": "anp.mora",
            "principal": "999999999999999.99",
            "data_ciencia": "1999-02-01",
            "data_pagamento": "9999-12-31",
        },
    ],
)
def test_casos_extremos_mas_validos_sao_calculados(
    cliente: TestClient, caso: dict[str, object]
) -> None:
    resposta = cliente.post("/api/v1/calcular", content=json.dumps(caso))
    assert resposta.status_code == 200, resposta.text
    assert resposta.json()["valor"] == calcular(caso)["valor"]
