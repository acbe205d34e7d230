"""What the browser modules that visit every page (test_acessibilidade.py, test_largura.py)
share that is not a fixture: the numbers of the records their server holds (:class:`Servidor`,
from the ``servidor_com_dados`` fixture of tests/fixtures/navegacao.py) and what a test does
on a page before it reads it: calculate the case, calculate a year from its files, simulate
the exposure. Each action takes the page and a folder for the files it uploads, and waits for
the result."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.utils import ano


@dataclass(frozen=True)
class Servidor:
    """The served app and its records' numbers."""

    base: str
    #: a saved case (another one is in the bin)
    caso: int
    #: an ``anp`` processo just opened (infração and auto)
    processo: int
    #: the work queue's processos (:data:`tests.utils.processos.PROCESSOS`, in order): one on
    #: the balance list, one suspended...
    processos: tuple[int, ...]


def calcular(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#valor-devido")).to_be_visible()


def ano_calculado(pagina: Any, pasta: Path) -> None:
    from playwright.sync_api import expect

    (pasta / "distribuidores.csv").write_bytes(ano.DISTRIBUIDORES_ARQUIVO)
    (pasta / "cotacoes.csv").write_bytes(ano.COTACOES_ARQUIVO)
    pagina.get_by_label("Arquivo dos distribuidores").set_input_files(
        str(pasta / "distribuidores.csv")
    )
    pagina.get_by_label("Arquivo das cotações do CBIO").set_input_files(str(pasta / "cotacoes.csv"))
    pagina.get_by_label("Ano da meta").fill("2024")
    pagina.get_by_label("Data da notificação").fill("2025-03-03")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#tabela-ano")).to_be_visible()


def exposicao(pagina: Any, _: Path, certo: bool = True) -> None:
    """The exposure simulated (``certo``), or refused for its price series."""
    from playwright.sync_api import expect

    campos = {"ano_meta": "2025", "meta_cbios": "200.000", "cbios_aposentados": "150.000"}
    campos |= {"historico": "2024-01 85,10\n2024-02 90,05" if certo else "abc", "cenarios": "200"}
    for campo, valor in campos.items():
        pagina.locator(f"[name={campo}]").fill(valor)
    pagina.get_by_role("button", name="Simular").click()
    expect(pagina.locator("#resultado-exposicao" if certo else "#resumo-erro")).to_be_visible()
