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
