"""The documentation site on the server (issue 37, item 16): a page that sends the user to the
documentation links to it, at ``/documentacao/`` when ``make docs`` has built it (public, like
the static files); without it, the page names the chapter and how to build it, never a bare
path such as ``docs/ciclo.md``."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.servidor import aplicacao, criar_app


def _cliente(tmp_path: Path) -> TestClient:
    return TestClient(criar_app(f"sqlite:///{tmp_path / 'multas.db'}"))


def test_com_o_site_construido_a_pagina_liga_ao_capitulo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>multas</h1>", encoding="utf-8")
    (site / "ciclo.html").write_text("<h1>Ciclo de vida e prazos</h1>", encoding="utf-8")
    monkeypatch.setattr(aplicacao, "SITE_DA_DOCUMENTACAO", site)
    with _cliente(tmp_path) as c:
        pagina = c.get("/processos")
        assert pagina.status_code == 200
        assert '<a href="/documentacao/ciclo.html">Ciclo de vida e prazos</a>' in pagina.text
        assert "docs/ciclo.md" not in pagina.text
        capitulo = c.get("/documentacao/ciclo.html")
        assert capitulo.status_code == 200 and "Ciclo de vida e prazos" in capitulo.text
        assert c.get("/documentacao/").status_code == 200


def test_sem_o_site_a_pagina_diz_como_construi_lo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(aplicacao, "SITE_DA_DOCUMENTACAO", tmp_path / "nenhum")
    with _cliente(tmp_path) as c:
        pagina = c.get("/processos")
        assert "/documentacao/" not in pagina.text and "docs/ciclo.md" not in pagina.text
        assert "<code>make docs</code>" in pagina.text
        assert c.get("/documentacao/ciclo.html").status_code == 404


def test_sem_a_barra_final_o_visitante_vai_ao_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/documentacao`` (no trailing slash) is the site's address too: a visitor not signed in
    is sent to ``/documentacao/``, as the site is public, never asked to sign in (401)."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from tests.utils import SENHA

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>multas</h1>", encoding="utf-8")
    monkeypatch.setattr(aplicacao, "SITE_DA_DOCUMENTACAO", site)
    url = f"sqlite:///{tmp_path / 'multas.db'}"
    repo = Repositorio(url)
    Acesso(repo).criar("bia", "admin", SENHA, "teste")  # a server with users: not open
    repo.fechar()
    with TestClient(criar_app(url), follow_redirects=False) as c:
        assert c.get("/processos").status_code in (303, 401)  # the rest still asks to sign in
        r = c.get("/documentacao")
        assert r.status_code in (307, 308), r.text[:500]
        assert r.headers["location"].endswith("/documentacao/")
        assert c.get(r.headers["location"]).status_code == 200
