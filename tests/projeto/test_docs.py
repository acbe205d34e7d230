"""The documentation (docs/, built by MkDocs; ``make test`` also builds it with --strict): the
pages generated from the code cover every regime and every shipped legal text, and the README
points into docs/, never outside the repository."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from multas.nucleo.catalogo import descrever_regimes
from multas.nucleo.contrato import TIPOS_DESCRICAO

RAIZ = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gerador() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "paginas_docs", RAIZ / "scripts" / "paginas_docs.py"
    )
    assert spec and spec.loader
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


@pytest.fixture(scope="module")
def paginas(gerador: ModuleType) -> dict[str, str]:
    resultado: dict[str, str] = gerador.paginas()
    return resultado


def test_uma_pagina_por_regime_com_todo_o_contrato(
    gerador: ModuleType, paginas: dict[str, str]
) -> None:
    regimes = descrever_regimes()
    geradas = {uri for uri in paginas if uri.startswith("regimes/")}
    assert geradas == {f"regimes/{r['regime']}.md" for r in regimes}
    indice = gerador.substituir_marcadores((RAIZ / "docs/regimes/index.md").read_text())
    for regime in regimes:
        pagina = paginas[f"regimes/{regime['regime']}.md"]
        for campo in regime["campos"]:
            linha = next(
                linha for linha in pagina.splitlines() if linha.startswith(f"| `{campo['nome']}` |")
            )
            assert TIPOS_DESCRICAO[campo["tipo"]] in linha.replace("\\|", "|")
            assert campo["descricao"] in linha
        for chave, info in regime["interpretacao"].items():
            assert f"(../leituras.md#{chave})" in pagina
            assert all(f"`{opcao}`" in pagina for opcao in info["opcoes"])
        for saida in regime["saidas"]:
            assert f"`{saida}`" in pagina
        assert f"[`{regime['regime']}`]({regime['regime']}.md)" in indice


def test_erros_documentados_sao_as_mensagens_do_motor(paginas: dict[str, str]) -> None:
    pagina = paginas["regimes/renovabio.distribuidor.md"]
    assert "| sem `meta_cbios` | `meta_cbios` | campo obrigatório |" in pagina
    assert "| campo que o regime não tem: `campo_extra: 1` | `campo_extra` | campo desc" in pagina
    mora = paginas["regimes/anp.mora.md"]
    assert '| `principal: "0"` | `principal` | deve ser maior que zero |' in mora


def test_o_gerador_recusa_um_erro_que_o_motor_aceita(gerador: ModuleType) -> None:
    regime = next(r for r in descrever_regimes() if r["regime"] == "anp.infracao")
    base = {"regime": "anp.infracao", "inciso": "XI", "data_referencia": "2024-05-10"}
    original = gerador.ERROS_DO_REGIME["anp.infracao"]
    gerador.ERROS_DO_REGIME["anp.infracao"] = [("válido", {"valor": "10000.00"})]
    try:
        with pytest.raises(RuntimeError, match="o motor aceitou"):
            gerador.erros_do_regime(regime, base)
    finally:
        gerador.ERROS_DO_REGIME["anp.infracao"] = original


def test_uma_pagina_por_texto_legal_na_integra(
    gerador: ModuleType, paginas: dict[str, str]
) -> None:
    arquivos = sorted(p for p in gerador.pasta_textos().iterdir() if p.is_file())
    assert arquivos
    indice = gerador.substituir_marcadores((RAIZ / "docs/legislacao/index.md").read_text())
    for arquivo in arquivos:
        pagina = paginas[f"legislacao/textos/{arquivo.stem}.md"]
        assert arquivo.read_text(encoding="utf-8").rstrip() in pagina
        assert f"[`{arquivo.name}`](textos/{arquivo.stem}.md)" in indice


def test_texto_legal_sem_descricao_para_a_construcao(
    gerador: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    descricoes = dict(gerador.DESCRICOES_TEXTOS)
    descricoes.pop("mp-1205-2023-art6.txt")
    monkeypatch.setattr(gerador, "DESCRICOES_TEXTOS", descricoes)
    with pytest.raises(RuntimeError, match=r"mp-1205-2023-art6\.txt"):
        gerador.arquivos_textos()


def test_bloco_literal_nao_e_quebrado_por_crases(gerador: ModuleType) -> None:
    bloco = gerador.bloco_literal("a\n```\nb")
    assert bloco.startswith("````text\n") and bloco.endswith("\n````")


def test_marcador_desconhecido_para_a_construcao(gerador: ModuleType) -> None:
    with pytest.raises(RuntimeError, match="marcador desconhecido"):
        gerador.substituir_marcadores("<!-- gerado:nada -->")


def test_opcoes_de_cada_comando_em_portugues(gerador: ModuleType) -> None:
    texto = gerador.opcoes_do_comando("lote")
    assert "`--ptbr`, `--csv-ptbr`" in texto and "`--regime`, `-r` REGIME (obrigatória)" in texto
    for ingles in ("TEXT ", "INTEGER", "[OPTIONS]", "required"):
        assert ingles not in gerador.todos_os_comandos()


def test_paginas_escritas_existem_e_estao_na_navegacao() -> None:
    configuracao = (RAIZ / "mkdocs.yml").read_text(encoding="utf-8")
    escritas = {p.relative_to(RAIZ / "docs").as_posix() for p in (RAIZ / "docs").rglob("*.md")}
    assert "ciclo.md" in escritas
    for pagina in escritas:
        assert f" {pagina}" in configuracao, f"{pagina} fora da navegação (mkdocs.yml)"


def test_readme_aponta_para_docs_e_nao_para_fora() -> None:
    readme = (RAIZ / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme and "shared/spec" not in readme
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert "docs/index.md" in links and "docs/leituras.md" in links
    for link in links:
        assert (RAIZ / link).is_file(), link


def test_a_configuracao_e_documentada_uma_vez_da_propria_classe(gerador: ModuleType) -> None:
    """Every MULTAS_* setting and every option of ``multas servir`` in one table, generated
    from :class:`multas.servicos.configuracao.Configuracao`, on one page; the options and the
    settings are the same set."""
    import click

    from multas.servicos.configuracao import OBSOLETAS, PREVISTAS, Configuracao
    from multas.servidor.comando import servir

    texto = gerador.substituir_marcadores("<!-- gerado:configuracao -->")
    variaveis = Configuracao.variaveis()
    for nome in [v.nome for v in variaveis] + list(OBSOLETAS) + [n for n, _ in PREVISTAS]:
        assert f"`{nome}`" in texto
    opcoes = {o for p in servir.params if isinstance(p, click.Option) for o in p.opts}
    assert {v.opcao for v in variaveis if v.opcao} == opcoes - {"-h", "--help"}
    assert all(f"`{o}`" in texto for o in opcoes - {"-h", "--help"})
    paginas = [p for p in (RAIZ / "docs").rglob("*.md") if "gerado:configuracao" in p.read_text()]
    assert [p.name for p in paginas] == ["servidor.md"]
