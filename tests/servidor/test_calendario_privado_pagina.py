"""The private calendar's page and the limited user's work queue (issue 37, item 12): the
feed's address comes with a ``webcal://`` link and a copy button (shown by the script; the
read-only field works without it), the page says which reminders each deadline brings, and a
user limited to clients is told that the queue covers only their clients' processos."""

from __future__ import annotations

import re

from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from tests.utils import SENHA, Ambiente, com

CNPJ = "11.222.333/0001-81"


def _limitado(ambiente: Ambiente) -> dict[str, str]:
    repo = Repositorio(ambiente.url)
    token = Acesso(repo).criar("ana de A", "analista", SENHA, "teste", Escopo.de([CNPJ]))
    repo.fechar()
    return {"Authorization": f"Bearer {token}"}


def _endereco(pagina: str) -> str:
    """The feed's address in the read-only field (selectable and copied without JavaScript)."""
    url = re.search(r'id="campo-feed" type="text" readonly value="(https?://[^"]+\.ics)"', pagina)
    assert url is not None, pagina
    return url.group(1)


def test_endereco_do_calendario_em_http_local_com_webcal(ambiente: Ambiente) -> None:
    """On the loopback http server (``make run``) the feed's address is http already: the
    ``webcal://`` link fetches it the same way, and the calendar application opens it."""
    criado = ambiente.cliente.post(
        "http://127.0.0.1:8000/calendario-privado", headers=com(ambiente, "analista")
    )
    assert criado.status_code == 200
    url = _endereco(criado.text)
    assert url.startswith("http://127.0.0.1:8000/")
    webcal = re.search(r'id="assinar-feed" href="([^"]+)"', criado.text)
    assert webcal is not None
    assert webcal.group(1) == "webcal://" + url.partition("://")[2]


def test_endereco_do_calendario_em_https_sem_webcal_e_com_botao_de_copiar(
    ambiente: Ambiente,
) -> None:
    """On https, no ``webcal://`` link: some calendar applications fetch ``webcal://`` over
    plain http, which would send the feed's secret in the clear (found by a hostile review).
    The page says to paste the https address into the application."""
    criado = ambiente.cliente.post("/calendario-privado", headers=com(ambiente, "analista"))
    assert criado.status_code == 200
    assert _endereco(criado.text).startswith("https://")
    assert 'href="webcal:' not in criado.text and 'id="assinar-feed"' not in criado.text
    assert 'id="colar-feed"' in criado.text
    # the copy button: hidden until the script finds the clipboard
    assert '<button type="button" class="copiar" data-copiar="campo-feed" hidden>' in criado.text
    assert "lembretes 7 dias e 1 dia antes, às 9h" in criado.text


def test_pendencias_de_um_usuario_limitado_dizem_que_sao_so_dos_seus_clientes(
    ambiente: Ambiente,
) -> None:
    limitado = ambiente.cliente.get("/pendencias", headers=_limitado(ambiente))
    assert limitado.status_code == 200
    assert "todos os processos salvos" not in limitado.text
    assert "dos processos dos seus clientes (11.222.333/0001-81), só deles" in limitado.text
    todos = ambiente.cliente.get("/pendencias", headers=com(ambiente, "analista"))
    assert "de todos os processos salvos" in todos.text
