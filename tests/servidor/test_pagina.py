"""The web page, server side: the form is the contract's, reads pt-BR numbers, shows inline
pt-BR errors, and the result in R$ with its steps; saving, the history and reopening.
The same flow in a real browser is in test_navegador.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas import calcular
from multas.nucleo.catalogo import descrever_regimes
from multas.saidas.apresentacao import apresentar
from multas.servidor import criar_app
from multas.servidor.exemplos import EXEMPLOS
from multas.servidor.formulario import dados_do_formulario, valores_do_caso

DISTRIBUIDOR = {
    "regime": "renovabio.distribuidor",
    "ano_meta": "2025",
    "meta_cbios": "1.000.000",
    "cbios_aposentados": "400000",
    "maior_media_mensal": "71,70",
    "faturamento_ano_meta": "900.000.000,00",
    "faturamento_ano_anterior": "800000000.00",
    "data_quitacao": "2026-03-15",
    "prazo_comprovacao": "",
    "data_referencia": "",
    "cotacoes_mensais": "",
    "cotacoes_diarias": "",
    "interpretacao.faturamento": "media",
}


# not the shared cliente: a server error raises in the test (raise_server_exceptions stays on)
@pytest.fixture
def cliente(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(criar_app(f"sqlite:///{tmp_path / 'multas.db'}")) as c:
        yield c


class Controles(HTMLParser):
    """The form controls of a page, and the ids that a <label for> points at."""

    def __init__(self) -> None:
        super().__init__()
        self.controles: dict[str, dict[str, str | None]] = {}
        self.rotulos: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        atributos = dict(attrs)
        if "data-dia-sugerido" in atributos:  # a suggestion, not a field (test_pagina_dias_locais)
            return
        if tag in ("input", "select", "textarea") and atributos.get("type") != "hidden":
            self.controles[str(atributos.get("name"))] = atributos
        if tag == "label" and atributos.get("for"):
            self.rotulos.add(str(atributos["for"]))


def controles(html: str) -> Controles:
    leitor = Controles()
    leitor.feed(html)
    return leitor


def test_pagina_tem_o_seletor_de_regime_e_os_campos_do_contrato(cliente: TestClient) -> None:
    html = cliente.get("/").text
    assert '<html lang="pt-BR">' in html
    assert '<select id="campo-regime" name="regime"' in html
    for regime in descrever_regimes():
        assert f'<option value="{regime["regime"]}"' in html
        fragmento = cliente.get("/formulario", params={"regime": regime["regime"]}).text
        lidos = controles(fragmento)
        nomes = {c["nome"] for c in regime["campos"]}
        nomes |= {f"interpretacao.{chave}" for chave in regime["interpretacao"]}
        assert set(lidos.controles) == nomes, regime["regime"]
        for nome, atributos in lidos.controles.items():  # every input has its label
            assert atributos["id"] in lidos.rotulos, (regime["regime"], nome)


def test_nada_vem_de_cdn(cliente: TestClient) -> None:
    html = cliente.get("/").text
    fontes = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert fontes and all(f.startswith(("/", "#")) for f in fontes), fontes
    assert cliente.get("/static/htmx.min.js").status_code == 200


def test_calcular_aceita_virgula_e_ponto_e_mostra_reais_e_passos(cliente: TestClient) -> None:
    com_virgula = cliente.post("/calcular", data=DISTRIBUIDOR)
    com_ponto = cliente.post("/calcular", data={**DISTRIBUIDOR, "maior_media_mensal": "71.70"})
    for resposta in (com_virgula, com_ponto):
        assert resposta.status_code == 200
        assert '<strong id="valor-devido">R$ 10.625.000,00</strong>' in resposta.text
        assert resposta.text.count('<li class="passo">') == 12
        assert "Decreto nº 9.888/2019, art. 6º-A, § 8º" in resposta.text
        assert "R$ 10.755.000,00" in resposta.text  # faturamento = maior, side by side
        assert "à razão de 1/12 (um doze avos) ao mês" in resposta.text  # the legal text


def test_cada_regime_pelo_formulario_da_o_mesmo_valor_que_o_motor(cliente: TestClient) -> None:
    for regime, caso in EXEMPLOS.items():
        valores = valores_do_caso(caso)  # the example as the form shows it (pt-BR decimals)
        resposta = cliente.post("/calcular", data=valores)
        assert resposta.status_code == 200, (regime, resposta.text[:500])
        esperado = apresentar(calcular(caso)).valor
        assert f'<strong id="valor-devido">{esperado}</strong>' in resposta.text, regime


def test_erro_aparece_junto_ao_campo_em_portugues_e_os_valores_ficam(cliente: TestClient) -> None:
    resposta = cliente.post("/calcular", data={**DISTRIBUIDOR, "meta_cbios": "muitos"})
    assert resposta.status_code == 422
    html = resposta.text
    assert re.search(r'<div class="resumo-erro" role="alert"[^>]* id="resumo-erro"', html)
    assert '<a href="#campo-meta_cbios">Meta individual, em CBIOs</a>' in html
    campo = controles(html).controles["meta_cbios"]
    assert campo["aria-invalid"] == "true" and campo["value"] == "muitos"
    assert "erro-meta_cbios" in str(campo["aria-describedby"])
    assert "número inválido: &#39;muitos&#39;" in html and "1.234,56 ou 1234.56" in html
    assert controles(html).controles["maior_media_mensal"]["value"] == "71,70"  # kept
    assert 'id="valor-devido"' not in html


def test_erro_de_par_de_campos_e_de_leitura(cliente: TestClient) -> None:
    sem_par = cliente.post("/calcular", data={**DISTRIBUIDOR, "faturamento_ano_anterior": ""})
    assert sem_par.status_code == 422
    assert controles(sem_par.text).controles["faturamento_ano_anterior"]["aria-invalid"] == "true"
    leitura = cliente.post("/calcular", data={**DISTRIBUIDOR, "interpretacao.faturamento": "x"})
    assert controles(leitura.text).controles["interpretacao.faturamento"]["aria-invalid"] == "true"


def test_htmx_recebe_so_o_fragmento(cliente: TestClient) -> None:
    resposta = cliente.post("/calcular", data=DISTRIBUIDOR, headers={"HX-Request": "true"})
    assert resposta.text.lstrip().startswith('<div id="area"')
    assert "<html" not in resposta.text


def test_cotacoes_em_linhas_com_decimais_brasileiros() -> None:
    dados = dados_do_formulario(
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": "2025",
            "cotacoes_mensais": "2025-01 70,10\n\n03/2025; 71.70\n",
            "cotacoes_diarias": "14/03/2025 71,5\n2025-03-17\t72",
        }
    )
    assert dados["cotacoes_mensais"] == {"2025-01": "70.10", "2025-03": "71.70"}
    assert dados["cotacoes_diarias"] == [
        {"data": "2025-03-14", "preco": "71.5"},
        {"data": "2025-03-17", "preco": "72"},
    ]


def test_cotacoes_mensais_pelo_formulario(cliente: TestClient) -> None:
    dados = {
        **DISTRIBUIDOR,
        "maior_media_mensal": "",
        "cotacoes_mensais": "2025-02 60\n2025-05 71,70",
    }
    resposta = cliente.post("/calcular", data=dados)
    assert '<strong id="valor-devido">R$ 10.625.000,00</strong>' in resposta.text
    ruim = cliente.post("/calcular", data={**dados, "cotacoes_mensais": "fevereiro"})
    assert ruim.status_code == 422 and "linha 1 ilegível" in ruim.text


def test_salvar_historico_e_reabrir(cliente: TestClient) -> None:
    calculado = cliente.post("/calcular", data=DISTRIBUIDOR).text
    caso_json = re.search(r'name="caso" value="([^"]+)"', calculado)
    assert caso_json
    import html as html_mod

    caso = html_mod.unescape(caso_json.group(1))
    salvo = cliente.post("/casos", data={"caso": caso, "usuario": "Ana"}, follow_redirects=False)
    assert salvo.status_code == 303
    endereco = salvo.headers["location"]
    assert re.fullmatch(r"/casos/\d+\?salvo=1", endereco)
    pagina = cliente.get(endereco).text
    assert "R$ 10.625.000,00" in pagina and "Caso salvo." in pagina and "Ana" in pagina
    caso_id = endereco.split("/")[2].split("?")[0]

    historico = cliente.get("/casos").text
    assert f'href="/casos/{caso_id}"' in historico and "R$ 10.625.000,00" in historico

    reaberto = controles(cliente.get("/", params={"caso": caso_id}).text).controles
    assert reaberto["maior_media_mensal"]["value"] == "71,70"
    assert reaberto["meta_cbios"]["value"] == "1000000"
    assert reaberto["data_quitacao"]["value"] == "15/03/2026"  # dd/mm/aaaa (issue 20)

    pdf = cliente.get(f"/casos/{caso_id}/relatorio.pdf")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert "R$ 10.625.000,00" in cliente.get(f"/casos/{caso_id}/relatorio.html").text

    # the delete asks first (issue 20, item 4): without confirmado, nothing is deleted
    pergunta = cliente.post(
        f"/casos/{caso_id}/excluir", data={"usuario": "Bia"}, follow_redirects=False
    )
    assert pergunta.status_code == 200 and f"Excluir o caso nº {caso_id}?" in pergunta.text
    assert 'name="confirmado" value="sim"' in pergunta.text
    assert 'name="usuario" value="Bia"' in pergunta.text  # carried to the confirmation
    assert f'href="/casos/{caso_id}"' in pergunta.text  # Cancelar
    assert cliente.get(f"/casos/{caso_id}").status_code == 200
    excluido = cliente.post(
        f"/casos/{caso_id}/excluir",
        data={"usuario": "Bia", "confirmado": "sim"},
        follow_redirects=False,
    )
    assert excluido.status_code == 303
    assert cliente.get(f"/casos/{caso_id}", headers={"Accept": "text/html"}).status_code == 404
    auditoria = cliente.get("/auditoria").text
    assert "Ana" in auditoria and "Bia" in auditoria and "Caso excluído" in auditoria


def test_pdf_direto_do_formulario(cliente: TestClient) -> None:
    calculado = cliente.post("/calcular", data=DISTRIBUIDOR).text
    caso_json = re.search(r'name="caso" value="([^"]+)"', calculado)
    assert caso_json
    import html as html_mod

    pdf = cliente.post(
        "/relatorio", data={"caso": html_mod.unescape(caso_json.group(1)), "formato": "pdf"}
    )
    assert pdf.headers["content-type"] == "application/pdf"


def test_pagina_inexistente_em_portugues(cliente: TestClient) -> None:
    resposta = cliente.get("/nao-existe", headers={"Accept": "text/html"})
    assert resposta.status_code == 404
    assert "Página não encontrada" in resposta.text and "Not Found" not in resposta.text


def test_mora_com_selic_por_mes_e_leitura_dos_encargos_pelo_formulario(
    cliente: TestClient,
) -> None:
    """The fields of spec v2 on the page: Selic rates by month and the readings' selects."""
    fragmento = controles(cliente.get("/formulario", params={"regime": "anp.mora"}).text)
    assert {"taxas_selic", "interpretacao.encargos"} <= set(fragmento.controles)
    dados = {
        "regime": "anp.mora",
        "principal": "50.000,00",
        "data_ciencia": "2025-02-28",
        "data_pagamento": "2025-06-15",
        "taxas_selic": "2025-04 1,06\n04/2025;1.06\n2025-05 1,14",
        "interpretacao.encargos": "lei-10522",
    }
    repetido = cliente.post("/calcular", data=dados)
    assert repetido.status_code == 422 and "mês repetido" in repetido.text
    resposta = cliente.post(
        "/calcular", data={**dados, "taxas_selic": "2025-04 1,06\n2025-05 1,14"}
    )
    assert '<strong id="valor-devido">R$ 61.600,00</strong>' in resposta.text  # spec case an13
    assert "Lei nº 9.430/1996, art. 61, § 3º" in resposta.text
    assert "R$ 54.500,00" in resposta.text  # encargos = decreto, side by side
    sem = cliente.post("/calcular", data={**dados, "taxas_selic": ""})
    assert sem.status_code == 422
    assert controles(sem.text).controles["taxas_selic"]["aria-invalid"] == "true"


def test_faixa_da_lei_ou_do_decreto_pelo_formulario(cliente: TestClient) -> None:
    fragmento = controles(cliente.get("/formulario", params={"regime": "anp.infracao"}).text)
    assert "interpretacao.faixa" in fragmento.controles
    dados = {
        "regime": "anp.infracao",
        "inciso": "II",
        "valor": "300.000,00",
        "data_referencia": "2026-01-15",
    }
    lei = cliente.post("/calcular", data=dados)
    assert lei.status_code == 200 and "R$ 20.000,00" in lei.text
    decreto = cliente.post("/calcular", data={**dados, "interpretacao.faixa": "decreto"})
    assert decreto.status_code == 422 and "fora da faixa de R$ 500.000,00" in decreto.text


def test_erro_de_um_item_do_auto_aponta_a_linha_da_caixa(cliente: TestClient) -> None:
    """The engine names the item (infracoes[2].valor); the page names the textarea's line,
    blank lines counted, and marks the textarea."""
    dados = {"regime": "anp.auto", "infracoes": "XI\n\nXII 1,2,3", "data_referencia": "2026-01-15"}
    r = cliente.post("/calcular", data=dados)
    assert r.status_code == 422
    assert "linha 3, valor: número inválido" in r.text
    assert controles(r.text).controles["infracoes"]["aria-invalid"] == "true"
