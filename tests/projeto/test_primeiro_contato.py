"""First contact and stale text (issue 37, items 15 and 16): the README says how to reach the
``multas`` command and that ``make run`` keeps its terminal; the documentation site is in
pt-BR down to its footer, searches when opened from disk and never breaks a field's name in a
table; the texts that said something no longer true say what is."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from multas.principal import cli

RAIZ = Path(__file__).resolve().parents[2]


def _mkdocs() -> dict[str, object]:
    configuracao = yaml.safe_load((RAIZ / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(configuracao, dict)
    return configuracao


def test_readme_diz_como_chamar_multas_e_que_make_run_ocupa_o_terminal() -> None:
    inicio = (RAIZ / "README.md").read_text(encoding="utf-8").split("## Documentação")[0]
    assert ".venv/bin/multas" in inicio
    assert "source .venv/bin/activate" in inicio
    assert "ocupa o terminal" in inicio and "outro terminal" in inicio


def test_site_da_documentacao_em_portugues_ate_o_rodape() -> None:
    configuracao = _mkdocs()
    tema = configuracao["theme"]
    assert isinstance(tema, dict) and tema["language"] == "pt-BR"
    extra = configuracao["extra"]
    # the theme's "Made with Material for MkDocs" is English (not translated): left out
    assert isinstance(extra, dict) and extra["generator"] is False
    assert "Documentação" in str(configuracao["copyright"])


def test_busca_funciona_com_o_site_aberto_do_disco() -> None:
    configuracao = _mkdocs()
    assert configuracao["use_directory_urls"] is False
    plugins = configuracao["plugins"]
    assert isinstance(plugins, list) and "offline" in plugins
    extra = configuracao["extra"]
    assert isinstance(extra, dict)
    # the worker's shim kept with the docs: no CDN (the plugin would add unpkg.com's otherwise)
    for script in extra["polyfills"]:
        assert "iframe-worker" in script and "://" not in script
        assert (RAIZ / "docs" / script).is_file()


def test_nome_de_campo_numa_tabela_nao_se_parte() -> None:
    estilo = (RAIZ / "docs" / "estilo.css").read_text(encoding="utf-8")
    regra = estilo.split(".md-typeset table:not([class]) code {")[1].split("}")[0]
    assert "white-space: nowrap" in regra


def test_textos_que_envelheceram() -> None:
    ciclo = (RAIZ / "docs" / "ciclo.md").read_text(encoding="utf-8")
    assert "a página do ano." not in ciclo and "(`/ano`)" in ciclo
    processos = (RAIZ / "src/multas/servidor/templates/processos.html").read_text("utf-8")
    assert "docs/ciclo.md" not in processos  # a path means nothing on a web page
    ajuda = CliRunner().invoke(cli, ["usuarios", "criar", "--help"], terminal_width=200).output
    assert "verificadores conferidos" not in ajuda
    assert "dígitos verificadores não conferem é recusado" in ajuda
