"""Issue 20, item 7: a memória a lawyer can hand over.

- each step states the amounts it compares (floor, ceiling, cap, revenue);
- a quotation of a provision with incisos includes the inciso applied, in the shipped words;
- human text shows pt-BR labels, never the contract's keys on their own (page, PDF, audit,
  messages), while an error's ``campo`` keeps the key;
- the PDF's title is the regime's name, headed by the client's name and CNPJ.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas import calcular
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.eventos import ROTULOS_PRAZOS, TIPOS
from multas.nucleo.memoria import NAO_TRANSCRITO
from multas.nucleo.regimes import REGIMES
from multas.nucleo.rotulos import chaves_de_leitura, rotulo_acao, rotulo_campo
from multas.saidas.memoria import como_markdown
from multas.saidas.relatorio import como_html, como_pdf
from multas.servidor.formulario import valores_do_caso
from tests.utils.legislacao import fontes_normalizadas, normalizar_espacos
from tests.utils.saidas import metadados, texto_do_pdf

RAIZ = Path(__file__).resolve().parents[2]
CASOS = sorted((RAIZ / "tests" / "casos_spec").glob("*.json")) + sorted(
    (RAIZ / "exemplos").glob("*.json")
)
DIA = "2025-12-31"
#: the regimes whose case carries no date of its own (they would apply today's law)
SEM_DATA_PROPRIA = ("mover.eficiencia", "anp.infracao", "renovabio.vedacao")


def _entrada(arquivo: Path) -> dict[str, Any]:
    dados: dict[str, Any] = json.loads(arquivo.read_text(encoding="utf-8"))
    return dict(dados.get("entrada", dados))


def _resultados() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    saida = []
    for arquivo in CASOS:
        entrada = _entrada(arquivo)
        if entrada.get("regime") in SEM_DATA_PROPRIA:
            entrada.setdefault("data_referencia", DIA)  # not today's law: no test uses the clock
        try:
            saida.append((arquivo.stem, entrada, calcular(entrada)))
        except EntradaInvalida:
            continue  # the spec's error cases
    return saida


RESULTADOS = _resultados()


def _distribuidor(**campos: Any) -> dict[str, Any]:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 1000,
        "cbios_aposentados": 0,
        "maior_media_mensal": "100",
    }
    return calcular(caso | campos)


def _passo(resultado: dict[str, Any], inicio: str) -> dict[str, Any]:
    passo: dict[str, Any] = next(
        p for p in resultado["passos"] if p["descricao"].startswith(inicio)
    )
    return passo


# --- each step states the amounts it compares ---------------------------------------------


@pytest.mark.parametrize(
    ("meta", "obtido", "comparado"),
    [
        (999, "R$ 99.900,00", ("inferior ao piso de R$ 100.000,00",)),
        (1001, "R$ 100.100,00", ("piso de R$ 100.000,00", "teto de R$ 500.000.000,00")),
        (5_000_001, "R$ 500.000.100,00", ("superior ao teto de R$ 500.000.000,00",)),
    ],
)
def test_o_passo_do_piso_e_do_teto_diz_o_valor_e_os_limites(
    meta: int, obtido: str, comparado: tuple[str, ...]
) -> None:
    passo = _passo(_distribuidor(meta_cbios=meta), "Valor obtido de")
    assert f"Valor obtido de {obtido}" in passo["descricao"]
    for trecho in comparado:
        assert trecho in passo["descricao"]


def test_os_passos_do_limite_dizem_os_faturamentos_o_limite_e_a_multa() -> None:
    r = _distribuidor(
        meta_cbios=1_000_000,
        faturamento_ano_meta="900000000",
        faturamento_ano_anterior="800000000",
    )
    referencia = _passo(r, "Faturamento de referência")["descricao"]
    assert "R$ 900.000.000,00 e R$ 800.000.000,00" in referencia
    assert "Faturamento: média dos dois anos" in referencia
    assert "(R$ 850.000.000,00)" in _passo(r, "Limite:")["descricao"]
    limitada = _passo(r, "Multa de R$ 100.000.000,00 acima do limite")["descricao"]
    assert "(R$ 42.500.000,00)" in limitada and "piso legal (R$ 100.000,00)" in limitada


def test_a_faixa_da_anp_diz_os_limites_do_valor_informado() -> None:
    r = calcular(
        {"regime": "anp.infracao", "inciso": "II", "valor": "750000", "data_referencia": DIA}
    )
    assert (
        "dentro da faixa de R$ 20.000,00 a R$ 5.000.000,00"
        in _passo(r, "Valor fixado")["descricao"]
    )


# --- quotations include the inciso applied ------------------------------------------------

CAPUT = "Nos termos do § 1º, na hipótese do valor obtido ser:"
INCISO_III = (
    "III - entre R$ 100.000,00 (cem mil reais) e 500.000.000,00 (quinhentos milhões de reais), "
    "aplica-se o valor efetivamente calculado."
)


def test_a_citacao_do_par2_traz_o_inciso_aplicado_como_no_texto_guardado() -> None:
    passo = _passo(_distribuidor(meta_cbios=1001), "Valor obtido de")
    assert passo["texto"] == f"{CAPUT} {INCISO_III}"
    assert passo["fundamento"].startswith("Decreto nº 9.888/2019, art. 6º, § 2º, III")
    guardado = (
        RAIZ / "src/multas/nucleo/legislacao/textos/decreto-9888-2019-art6-redacao-2025.txt"
    ).read_text(encoding="utf-8")
    assert f"§ 2º - {CAPUT}" in guardado and INCISO_III in guardado


def test_o_inciso_nao_transcrito_e_citado_e_dito_nao_transcrito() -> None:
    r = calcular(
        {
            "regime": "renovabio.produtor",
            "ano": 2025,
            "cbios_nao_pagos": 1,
            "maior_media_mensal": "70",
        }
    )
    passo = _passo(r, "Valor obtido de")
    assert passo["fundamento"].startswith("Decreto nº 9.888/2019, art. 6º-B, § 2º, I")
    assert passo["texto"].endswith(f"ser: I - {NAO_TRANSCRITO}")


def test_nenhuma_citacao_para_num_dois_pontos_e_cada_trecho_e_literal() -> None:
    """In every worked case, no quotation stops at "…:", and each of its pieces (caput,
    inciso, alínea) is a verbatim passage of the shipped legal texts."""
    fontes = fontes_normalizadas()
    vistos = 0
    for nome, _, resultado in RESULTADOS:
        for passo in resultado["passos"]:
            texto = passo["texto"]
            if not texto:
                continue
            vistos += 1
            assert not texto.rstrip().endswith(":"), (nome, passo["descricao"])
            for trecho in re.split(r" (?:[IVXLC]+ - |[a-z]\) )", texto):
                trecho = trecho.replace(NAO_TRANSCRITO, "").strip()
                if trecho:
                    assert normalizar_espacos(trecho) in fontes, (nome, trecho)
    assert vistos > 100


# --- labels -------------------------------------------------------------------------------


def test_toda_leitura_de_todo_regime_tem_rotulo() -> None:
    rotuladas = chaves_de_leitura()
    for regime in REGIMES.values():
        for chave, opcoes in regime.interpretacoes.items():
            assert set(opcoes) <= set(rotuladas.get(chave, ())), (regime.nome, chave)


def test_todo_campo_e_toda_saida_tem_rotulo() -> None:
    for regime in REGIMES.values():
        for nome in [c.nome for c in regime.caso.campos()] + list(regime.saidas):
            assert rotulo_campo(nome) != nome, (regime.nome, nome)


def test_leitura_adotada_e_outras_leituras_por_extenso() -> None:
    r = _distribuidor(
        meta_cbios=1_000_000, faturamento_ano_meta="900000000", faturamento_ano_anterior="1"
    )
    markdown = como_markdown(r)
    assert "Faturamento: média dos dois anos" in markdown
    assert "Faturamento: o maior dos dois anos" in markdown  # an alternativa
    assert "faturamento = " not in markdown and "interpretacao." not in markdown


def test_o_erro_guarda_a_chave_no_campo_e_a_mensagem_nomeia_o_evento() -> None:
    from multas.nucleo.ciclo.prazos import ler_processo

    with pytest.raises(EntradaInvalida) as erro:
        ler_processo(
            {
                "tipo": "anp",
                "data_referencia": "2025-01-01",
                "eventos": [
                    {"evento": "infracao", "data": "2024-01-01"},
                    {"evento": "inscricao_divida_ativa", "data": "2024-02-01"},
                ],
            }
        )
    assert erro.value.campo == "eventos[1].evento"
    assert "“Ciência da decisão definitiva” (ciencia_decisao_definitiva)" in erro.value.mensagem
    assert "'ciencia_decisao_definitiva'" not in erro.value.mensagem


def test_rotulos_das_acoes_da_auditoria() -> None:
    assert rotulo_acao("carteira_criar") == "Criação de ano da carteira"
    assert rotulo_acao("criar") == "Caso salvo"


# --- the scan: no internal key reaches a reader on its own --------------------------------

#: keys that must never be read on their own: the event and deadline keys, the audit
#: actions, the outputs; each may appear only in parentheses after its label
CHAVES = (
    {e for t in TIPOS.values() for e in t.eventos if "_" in e}
    | {p for p in ROTULOS_PRAZOS if "_" in p}
    | {
        "carteira_criar",
        "carteira_alterar",
        "carteira_excluir",
        "processo_criar",
        "processo_evento",
        "processo_excluir",
    }
    | {s for r in REGIMES.values() for s in r.saidas if "_" in s}
)


class TextoVisivel(HTMLParser):
    """The text a reader sees: no tags, attributes, scripts or <code> (a key shown as code,
    next to its label, is the key given alongside)."""

    def __init__(self) -> None:
        super().__init__()
        self.partes: list[str] = []
        self._oculto = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "option", "title"):
            self._oculto += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "option", "title"):
            self._oculto -= 1

    def handle_data(self, data: str) -> None:
        if not self._oculto:
            self.partes.append(data)


def visivel(html: str) -> str:
    leitor = TextoVisivel()
    leitor.feed(html)
    return re.sub(r"\s+", " ", " ".join(leitor.partes))


def chaves_soltas(texto: str) -> list[str]:
    """Internal names a reader would see on their own (not "(chave)" after a label)."""
    soltas = [m.group(0) for m in re.finditer(r"interpretacao\.\w+", texto)]
    for chave in CHAVES:
        for m in re.finditer(rf"(?<![\w.]){re.escape(chave)}(?![\w.])", texto):
            antes, depois = texto[m.start() - 1 : m.start()], texto[m.end() : m.end() + 1]
            if not (antes == "(" and depois == ")"):
                soltas.append(chave)
    return soltas


def test_a_varredura_acha_uma_chave_solta() -> None:
    assert chaves_soltas("leitura interpretacao.piso = lei") == ["interpretacao.piso"]
    assert chaves_soltas("o evento 'ciencia_decisao_definitiva'") == ["ciencia_decisao_definitiva"]
    assert chaves_soltas("“Ciência da decisão definitiva” (ciencia_decisao_definitiva)") == []
    assert chaves_soltas("Ação: carteira_criar") == ["carteira_criar"]


@pytest.mark.parametrize(
    ("nome", "entrada", "resultado"), RESULTADOS, ids=[r[0] for r in RESULTADOS]
)
def test_memoria_pdf_html_e_markdown_sem_chaves_soltas(
    nome: str, entrada: dict[str, Any], resultado: dict[str, Any]
) -> None:
    assert chaves_soltas(texto_do_pdf(como_pdf(resultado, entrada, metadados()))) == []
    assert chaves_soltas(visivel(como_html(resultado, entrada, metadados()))) == []
    assert chaves_soltas(como_markdown(resultado)) == []


def test_paginas_de_resultado_sem_chaves_soltas(cliente: TestClient) -> None:
    for arquivo in sorted((RAIZ / "exemplos").glob("*.json")):
        entrada = _entrada(arquivo)
        if entrada.get("regime") in SEM_DATA_PROPRIA:
            entrada.setdefault("data_referencia", DIA)
        pagina = cliente.post("/calcular", data=valores_do_caso(entrada))
        assert pagina.status_code == 200, arquivo
        assert "Valor devido" in pagina.text
        assert chaves_soltas(visivel(pagina.text)) == [], arquivo.name


def _post(cliente: TestClient, url: str, corpo: Any) -> Any:
    return cliente.post(
        url,
        content=json.dumps(corpo),
        headers={"Content-Type": "application/json", "X-Usuario": "Ana"},
    )


def test_auditoria_e_processo_mostram_rotulos(cliente: TestClient) -> None:
    cnpj = "12.345.678/0001-95"
    ano = {"cnpj": cnpj, "ano": 2025, "meta_cbios": 1000, "cbios_aposentados": 400}
    assert _post(cliente, "/api/v1/carteira", ano).status_code == 200
    criado = _post(
        cliente,
        "/api/v1/processos",
        {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-10"}]},
    )
    assert criado.status_code in (200, 201), criado.text
    pid = criado.json()["processo_id"]
    recusado = _post(
        cliente,
        f"/api/v1/processos/{pid}/eventos",
        {"evento": "inscricao_divida_ativa", "data": "2024-02-01"},
    )
    assert recusado.status_code == 422
    assert recusado.json()["erro"]["campo"] == "evento"  # the contract keeps its key
    assert (
        "“Ciência da decisão definitiva” (ciencia_decisao_definitiva)"
        in (recusado.json()["erro"]["mensagem"])
    )
    auditoria = visivel(cliente.get("/auditoria").text)
    assert "Criação de ano da carteira" in auditoria and "Criação de processo" in auditoria
    assert chaves_soltas(auditoria) == []
    assert chaves_soltas(visivel(cliente.get(f"/processos/{pid}").text)) == []


# --- the PDF's title and header -----------------------------------------------------------


def test_o_titulo_do_pdf_e_o_nome_do_regime_encabecado_pelo_cliente() -> None:
    from io import BytesIO

    from pypdf import PdfReader

    entrada = _entrada(RAIZ / "exemplos" / "renovabio-distribuidor.json") | {
        "cnpj": "11222333000181",
        "nome": "Alfa Combustíveis",
    }
    resultado = calcular(entrada)
    conteudo = como_pdf(resultado, entrada, metadados())
    titulo = REGIMES["renovabio.distribuidor"].titulo
    assert PdfReader(BytesIO(conteudo)).metadata.title == f"Caso nº 7 · {titulo}"
    texto = texto_do_pdf(conteudo)
    cliente, cnpj = texto.index("Alfa Combustíveis"), texto.index("11.222.333/0001-81")
    assert max(cliente, cnpj) < texto.index(titulo) < texto.index("Valor devido")
    assert "Memória de cálculo: renovabio" not in texto
    html = como_html(resultado, entrada, metadados())
    assert f"<h1>Caso nº 7 · {titulo}</h1>" in html
    assert html.index("Alfa Combustíveis") < html.index("<h1>")
