"""A link to a processo the user does not see (another client's, or one without a CNPJ, for a
user limited to some clients), on SQLite and PostgreSQL: hidden for writes as for reads. Every
write that makes or undoes a link (the API's ``PUT .../vinculo``, the page's form, the file
import by the API and by the page; the command line has no limit) neither undoes it, replaces
it nor names the processo at its other end; naming that processo is refused as naming one that
does not exist; and the decision of a linked pair does not reach it. Each refusal writes
nothing.

The records (made by the admin): ``x``, A's anp processo, linked to ``y``, a list processo
without a CNPJ; ``h``, an anp processo without a CNPJ, linked to ``l``, A's list processo;
``z``, A's free list processo, and ``x2``, A's free anp processo."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor import criar_app
from tests.utils import SENHA, gravacoes
from tests.utils.processos import CNPJ, anp, lista

#: a processo number no record has
INEXISTENTE = 987_654


@dataclass
class Cena:
    url: str
    cliente: TestClient
    admin: dict[str, str]
    #: the analista limited to client A
    limitado: dict[str, str]
    ids: dict[str, int]

    def lista_id(self, nome: str) -> Any:
        """A processo's link as the admin sees it (the truth)."""
        r = self.cliente.get(f"/api/v1/processos/{self.ids[nome]}", headers=self.admin)
        return r.json()["lista_id"]


@pytest.fixture(scope="module")
def cena(database_url_do_modulo: str) -> Iterator[Cena]:
    url = database_url_do_modulo
    repo = Repositorio(url)
    repo.migrar()
    acesso = Acesso(repo)
    admin = acesso.criar("adm", "admin", SENHA, "teste")
    limitado = acesso.criar("ana de A", "analista", SENHA, "teste", Escopo.de([CNPJ]))
    repo.fechar()
    with TestClient(criar_app(url, limite_por_segundo=0), raise_server_exceptions=False) as c:
        de_admin = {"Authorization": f"Bearer {admin}"}
        ids: dict[str, int] = {}
        for nome, processo in (
            ("x", anp()),
            ("y", lista(cnpj=None)),
            ("h", anp(cnpj=None)),
            ("l", lista()),
            ("z", lista()),
            ("x2", anp()),
        ):
            r = c.post("/api/v1/processos", json=processo | {"id": f"REF-{nome}"}, headers=de_admin)
            assert r.status_code == 201, r.text
            ids[nome] = r.json()["processo_id"]
        for de, para in (("x", "y"), ("h", "l")):
            r = c.put(
                f"/api/v1/processos/{ids[de]}/vinculo",
                json={"lista_id": ids[para]},
                headers=de_admin,
            )
            assert r.status_code == 200, r.text
        yield Cena(url, c, de_admin, {"Authorization": f"Bearer {limitado}"}, ids)


@pytest.fixture
def sem_gravar(cena: Cena) -> Iterator[None]:
    """The test's requests change no link and write nothing."""
    antes = gravacoes(cena.url)
    yield
    assert (cena.lista_id("x"), cena.lista_id("h")) == (cena.ids["y"], cena.ids["l"])
    assert cena.lista_id("x2") is None
    assert gravacoes(cena.url) == antes


# --- the writes that make or undo a link --------------------------------------------------
# Each takes the anp processo (its name in the scene) and the list processo (its name, a
# number no processo has, or ``None``: undo the link), sent as the limited user, and answers
# (the status, what the user reads: the JSON error's message, the page's, or where it goes).


def _mensagem_da_pagina(html: str) -> str:
    achado = re.search(r'class="resumo-erro" role="alert".*?<p>(.*?)</p>', html, re.S)
    assert achado, html[:500]
    return " ".join(unescape(re.sub(r"<[^>]+>", "", achado[1])).split())


def _resposta(r: Any) -> tuple[int, str]:
    if r.headers.get("content-type", "").startswith(
        ("application/json", "application/problem+json")
    ):
        corpo = r.json()
        return r.status_code, corpo["erro"]["mensagem"] if "erro" in corpo else ""
    if r.status_code == 303:
        return r.status_code, r.headers["location"]
    return r.status_code, _mensagem_da_pagina(r.text) if r.status_code >= 400 else ""


def _api(cena: Cena, de: str, para: str | int | None) -> tuple[int, str]:
    alvo = cena.ids.get(para, para) if isinstance(para, str) else para
    r = cena.cliente.put(
        f"/api/v1/processos/{cena.ids[de]}/vinculo",
        json={"lista_id": alvo},
        headers=cena.limitado,
    )
    return _resposta(r)


def _pagina(cena: Cena, de: str, para: str | int | None) -> tuple[int, str]:
    alvo = cena.ids.get(para, para) if isinstance(para, str) else para
    dados = {"desfazer": "1"} if alvo is None else {"lista_id": str(alvo)}
    r = cena.cliente.post(
        f"/processos/{cena.ids[de]}/vinculo",
        data=dados,
        headers=cena.limitado,
        follow_redirects=False,
    )
    return _resposta(r)


def _arquivo(de: str, para: str | int | None) -> str:
    """The anp processo's first event again (a row identical to it is skipped), with the link."""
    referencia = f"REF-{para}" if isinstance(para, str) else f"REF-{para}-NENHUMA"
    return (
        "referencia,tipo,cnpj,evento,data,vinculo_lista\n"
        f"REF-{de},anp,{CNPJ},infracao,2026-01-02,{referencia}\n"
    )


def _importar_api(cena: Cena, de: str, para: str | int | None) -> tuple[int, str]:
    r = cena.cliente.post(
        "/api/v1/processos/importar",
        params={"formato": "csv"},
        content=_arquivo(de, para),
        headers=cena.limitado,
    )
    return _resposta(r)


def _importar_pagina(cena: Cena, de: str, para: str | int | None) -> tuple[int, str]:
    r = cena.cliente.post(
        "/processos/importar",
        data={"conteudo": _arquivo(de, para)},
        headers=cena.limitado,
        follow_redirects=False,
    )
    return _resposta(r)


Escrita = Callable[[Cena, str, str | int | None], tuple[int, str]]
VINCULAR: dict[str, Escrita] = {"api": _api, "pagina": _pagina}
TODAS: dict[str, Escrita] = VINCULAR | {
    "importar_api": _importar_api,
    "importar_pagina": _importar_pagina,
}


def _sem_nomear(cena: Cena, texto: str, *ocultos: str) -> None:
    for nome in ocultos:
        assert not re.search(rf"nº {cena.ids[nome]}\b", texto), texto
        assert f"REF-{nome}" not in texto, texto


@pytest.mark.parametrize("rota", VINCULAR)
def test_desfazer_um_vinculo_oculto_e_como_desfazer_nenhum(
    cena: Cena, rota: str, sem_gravar: None
) -> None:
    """What the user sees: x without a link (``lista_id`` null). Undoing it answers what
    undoing the link of x2, which has none, answers, and the admin's link stays."""
    visto = cena.cliente.get(f"/api/v1/processos/{cena.ids['x']}", headers=cena.limitado)
    assert visto.json()["lista_id"] is None and visto.json()["vinculo"] is None
    status, texto = VINCULAR[rota](cena, "x", None)
    status_nenhum, texto_nenhum = VINCULAR[rota](cena, "x2", None)
    assert status == status_nenhum and status in (200, 303)
    assert texto == texto_nenhum.replace(str(cena.ids["x2"]), str(cena.ids["x"]))
    assert cena.lista_id("x") == cena.ids["y"]  # the admin's link stays
    if rota == "api":
        depois = cena.cliente.put(
            f"/api/v1/processos/{cena.ids['x']}/vinculo",
            json={"lista_id": None},
            headers=cena.limitado,
        )
        assert depois.json() == visto.json()  # the same detail: nothing changed


@pytest.mark.parametrize("rota", TODAS)
def test_um_vinculo_oculto_nao_e_trocado_nem_nomeado(
    cena: Cena, rota: str, sem_gravar: None
) -> None:
    status, texto = TODAS[rota](cena, "x", "z")
    assert status == 422
    quem = "processo de referência REF-x" if "importar" in rota else f"processo nº {cena.ids['x']}"
    assert (
        f"o {quem} já está vinculado a outro processo, que não está entre os que você vê: "
        "só quem o vê pode desfazer esse vínculo"
    ) in texto
    _sem_nomear(cena, texto, "y")


@pytest.mark.parametrize("rota", TODAS)
def test_a_lista_vinculada_a_um_processo_oculto_nao_o_nomeia(
    cena: Cena, rota: str, sem_gravar: None
) -> None:
    status, texto = TODAS[rota](cena, "x2", "l")
    assert status == 422, texto
    quem = "processo de referência REF-l" if "importar" in rota else f"processo nº {cena.ids['l']}"
    assert (
        f"o {quem} já está vinculado a outro processo (anp), que não está entre os que você vê"
    ) in texto
    _sem_nomear(cena, texto, "h")


@pytest.mark.parametrize("rota", TODAS)
def test_nomear_um_processo_oculto_e_como_nomear_um_que_nao_existe(
    cena: Cena, rota: str, sem_gravar: None
) -> None:
    """To x2, free; and to x, which is linked to that very one: the same refusal."""
    for de in ("x2", "x"):
        oculto = TODAS[rota](cena, de, "y")
        inexistente = TODAS[rota](cena, de, INEXISTENTE)
        assert oculto[0] == inexistente[0] == 422
        if "importar" in rota:
            esperado = inexistente[1].replace(f"REF-{INEXISTENTE}-NENHUMA", "REF-y")
        else:
            esperado = inexistente[1].replace(str(INEXISTENTE), str(cena.ids["y"]))
        assert oculto[1] == esperado


# --- the decision of a linked pair ---------------------------------------------------------


def _decisao_api(cena: Cena, processo: str) -> tuple[int, str]:
    r = cena.cliente.post(
        f"/api/v1/processos/{cena.ids[processo]}/decisao",
        json={"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"},
        headers=cena.limitado,
    )
    return _resposta(r)


def _decisao_pagina(cena: Cena, processo: str) -> tuple[int, str]:
    r = cena.cliente.post(
        f"/processos/{cena.ids[processo]}/decisao",
        data={"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"},
        headers=cena.limitado,
    )
    return _resposta(r)


DECISAO = {"api": _decisao_api, "pagina": _decisao_pagina}


@pytest.mark.parametrize("decisao", DECISAO.values(), ids=DECISAO.keys())
@pytest.mark.parametrize("processo", ["x", "l"])
def test_a_decisao_nao_alcanca_o_processo_oculto(
    cena: Cena, decisao: Callable[[Cena, str], tuple[int, str]], processo: str, sem_gravar: None
) -> None:
    """x (its list processo hidden) and l (its anp processo hidden) are, to the decision, a
    processo without a link."""
    status, texto = decisao(cena, processo)
    assert status == 422
    assert f"o processo nº {cena.ids[processo]} não está vinculado a outro processo" in texto
    _sem_nomear(cena, texto, "y", "h")
