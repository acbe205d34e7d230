"""Documents on events through the server (spec § 6.2 v4, issue 35 item 5): the API's event
in multipart with its files, the download (type, name, nosniff), the refusals (a text file
named .pdf, too many, too large, a malformed hash), the scope (another client's document is
a 404), a content changed outside the system (never served), and the page's form and links."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from multas.nucleo.ciclo.documentos import MAXIMO_BYTES, MAXIMO_POR_EVENTO
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor import criar_app
from multas.servidor.pedido import ler_documento_enviado
from tests.utils import SENHA, Ambiente, com, erro_pt

PDF = b"%PDF-1.4 aviso de recebimento da cita\xc3\xa7\xc3\xa3o"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
NOME_PDF = "AR citação nº 1.pdf"
CNPJ_A = "11.222.333/0001-81"
CNPJ_B = "12.ABC.345/01DE-35"


@pytest.fixture(scope="module")
def cliente(database_url_do_modulo: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url_do_modulo), raise_server_exceptions=False) as c:
        c.app.state.url_de_teste = database_url_do_modulo  # type: ignore[attr-defined]
        yield c


def _processo(cliente: TestClient, cnpj: str | None = None, cab: Any = None) -> int:
    dados: dict[str, Any] = {
        "tipo": "anp",
        "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
    }
    if cnpj:
        dados["cnpj"] = cnpj
    r = cliente.post("/api/v1/processos", json=dados, headers=cab or {})
    assert r.status_code == 201, r.text
    return int(r.json()["processo_id"])


def _com_documentos(
    cliente: TestClient,
    pid: int,
    arquivos: list[tuple[str, bytes]],
    evento: str = "auto_infracao",
    cab: Any = None,
) -> Any:
    return cliente.post(
        f"/api/v1/processos/{pid}/eventos",
        data={"evento": json.dumps({"evento": evento, "data": "2024-02-01"})},
        files=[
            ("documento", (nome, conteudo, "application/octet-stream"))
            for nome, conteudo in arquivos
        ],
        headers=cab or {},
    )


def test_multipart_ida_e_volta(cliente: TestClient) -> None:
    pid = _processo(cliente)
    r = _com_documentos(cliente, pid, [(NOME_PDF, PDF), ("mapa.png", PNG)])
    assert r.status_code == 201, r.text
    esperado = [
        {
            "sha256": hashlib.sha256(PDF).hexdigest(),
            "nome": NOME_PDF,
            "tipo": "application/pdf",
            "bytes": len(PDF),
        },
        {
            "sha256": hashlib.sha256(PNG).hexdigest(),
            "nome": "mapa.png",
            "tipo": "image/png",
            "bytes": len(PNG),
        },
    ]
    assert r.json()["eventos"][-1]["documentos"] == esperado
    detalhe = cliente.get(f"/api/v1/processos/{pid}").json()
    assert detalhe["eventos"][-1]["documentos"] == esperado
    assert "documentos" not in detalhe["eventos"][0]
    for documento, conteudo in zip(esperado, (PDF, PNG), strict=True):
        baixado = cliente.get(f"/api/v1/processos/{pid}/documentos/{documento['sha256']}")
        assert baixado.status_code == 200 and baixado.content == conteudo
        assert baixado.headers["content-type"] == documento["tipo"]
        assert baixado.headers["x-content-type-options"] == "nosniff"  # once, not twice
        disposicao = baixado.headers["content-disposition"]
        assert disposicao.startswith("attachment;")
        assert f"filename*=UTF-8''{quote(str(documento['nome']), safe='')}" in disposicao
    # the JSON body still works, exactly as before
    r = cliente.post(
        f"/api/v1/processos/{pid}/eventos", json={"evento": "defesa", "data": "2024-02-05"}
    )
    assert r.status_code == 201 and "documentos" not in r.json()["eventos"][-1]


def test_texto_com_nome_pdf_e_recusado_nomeando_o_campo(cliente: TestClient) -> None:
    pid = _processo(cliente)
    r = _com_documentos(cliente, pid, [("bom.pdf", PDF), ("falso.pdf", b"isto e texto")])
    mensagem = erro_pt(r, 422, "documentos[1]")
    assert "'falso.pdf' não é PDF, PNG nem JPEG" in mensagem
    # nothing stored: the event did not go in either
    assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 1


def test_documentos_demais_e_metadados_como_dados_sao_recusados(cliente: TestClient) -> None:
    pid = _processo(cliente)
    arquivos = [(f"d{i}.pdf", PDF + bytes([i])) for i in range(MAXIMO_POR_EVENTO + 1)]
    r = _com_documentos(cliente, pid, arquivos)
    assert f"no máximo {MAXIMO_POR_EVENTO}" in erro_pt(r, 422, f"documentos[{MAXIMO_POR_EVENTO}]")
    falso = {"evento": "auto_infracao", "data": "2024-02-01", "documentos": [{"sha256": "0" * 64}]}
    r = cliente.post(f"/api/v1/processos/{pid}/eventos", json=falso)
    erro_pt(r, 422, "documentos")
    r = cliente.post(
        f"/api/v1/processos/{pid}/eventos",
        files={"documento": ("a.pdf", PDF, "application/pdf")},
    )
    erro_pt(r, 422, "evento")
    assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 1


class _Enviado:
    """A file as Starlette hands it over, counting what is read from it."""

    def __init__(self, tamanho: int | None, conteudo: bytes = b"") -> None:
        self.filename, self.size, self.conteudo, self.lidos = "grande.pdf", tamanho, conteudo, 0

    async def read(self, n: int) -> bytes:
        self.lidos = min(n, len(self.conteudo))
        return self.conteudo[:n]


def test_arquivo_acima_de_20_mib_e_recusado_sem_ser_lido() -> None:
    import asyncio

    declarado = _Enviado(MAXIMO_BYTES + 1)
    with pytest.raises(EntradaInvalida) as erro:
        asyncio.run(ler_documento_enviado(declarado, 3))
    assert erro.value.campo == "documentos[3]" and declarado.lidos == 0
    assert "20 MiB" in erro.value.mensagem
    sem_tamanho = _Enviado(None, b"%PDF-" + b"x" * MAXIMO_BYTES)
    with pytest.raises(EntradaInvalida):
        asyncio.run(ler_documento_enviado(sem_tamanho, 0))
    assert sem_tamanho.lidos == MAXIMO_BYTES + 1  # never more than one byte past the limit


def test_hash_invalido_e_documento_de_outro_processo(cliente: TestClient) -> None:
    pid, outro = _processo(cliente), _processo(cliente)
    assert _com_documentos(cliente, pid, [("x.pdf", PDF + b"outro")]).status_code == 201
    sha = hashlib.sha256(PDF + b"outro").hexdigest()
    for ruim in (sha.upper(), sha[:-1], sha + "0", "../" + sha[3:]):
        r = cliente.get(f"/api/v1/processos/{pid}/documentos/{ruim}")
        assert r.status_code in (404, 422), (ruim, r.status_code)
    erro_pt(cliente.get(f"/api/v1/processos/{pid}/documentos/{sha.upper()}"), 422, "sha256")
    # the same hash through a processo none of whose events has it: not found
    erro_pt(cliente.get(f"/api/v1/processos/{outro}/documentos/{sha}"), 404, None)
    erro_pt(cliente.get(f"/api/v1/processos/{2**63}/documentos/{sha}"), 404, None)
    assert cliente.get(f"/processos/{outro}/documentos/{sha}").status_code == 404


def test_conteudo_alterado_fora_do_sistema_nao_e_servido(cliente: TestClient) -> None:
    pid = _processo(cliente)
    conteudo = PDF + b" a ser adulterado"
    assert _com_documentos(cliente, pid, [("alvo.pdf", conteudo)]).status_code == 201
    sha = hashlib.sha256(conteudo).hexdigest()
    motor = create_engine(cliente.app.state.url_de_teste)  # type: ignore[attr-defined]
    try:
        with motor.begin() as conexao:
            conexao.execute(
                text("UPDATE documentos SET conteudo = :c WHERE sha256 = :s"),
                {"c": PDF + b" trocado", "s": sha},
            )
    finally:
        motor.dispose()
    for caminho in (
        f"/api/v1/processos/{pid}/documentos/{sha}",
        f"/processos/{pid}/documentos/{sha}",
    ):
        r = cliente.get(caminho)
        assert r.status_code == 409, (caminho, r.status_code)
        assert b"trocado" not in r.content and "alterado fora do sistema" in r.text


def test_pagina_envia_o_documento_e_mostra_o_link(cliente: TestClient) -> None:
    pid = _processo(cliente)
    pagina = cliente.get(f"/processos/{pid}", headers={"Accept": "text/html"})
    assert 'enctype="multipart/form-data"' in pagina.text
    assert 'type="file" multiple accept="application/pdf,image/png,image/jpeg"' in pagina.text
    assert "Documentos (PDF, PNG ou JPEG; até 20 MiB cada, 20 por evento)" in pagina.text
    campos = {"evento": "auto_infracao", "data": "01/02/2024"}
    r = cliente.post(
        f"/processos/{pid}/eventos",
        data=campos,
        files=[
            ("documento", ("falso.pdf", b"texto", "application/pdf")),
        ],
        headers={"Accept": "text/html"},
    )
    assert r.status_code == 422 and "falso.pdf" in r.text and 'id="erro-evento-documento"' in r.text
    r = cliente.post(
        f"/processos/{pid}/eventos",
        data=campos,
        files=[
            ("documento", ("C:\\AR\\citação.pdf", PDF + b" pagina", "application/pdf")),
            ("documento", ("", b"", "application/octet-stream")),  # a second field left empty
        ],
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    sha = hashlib.sha256(PDF + b" pagina").hexdigest()
    pagina = cliente.get(f"/processos/{pid}", headers={"Accept": "text/html"})
    assert f'href="/processos/{pid}/documentos/{sha}"' in pagina.text
    assert "citação.pdf</a>" in pagina.text and f"({len(PDF) + 7} bytes)" in pagina.text
    baixado = cliente.get(f"/processos/{pid}/documentos/{sha}")
    assert baixado.status_code == 200 and baixado.content == PDF + b" pagina"
    assert baixado.headers["content-type"] == "application/pdf"


def test_documento_fora_do_escopo_e_404(ambiente: Ambiente) -> None:
    repo = Repositorio(ambiente.url)
    token = Acesso(repo).criar("léo de A", "leitura", SENHA, "teste", Escopo.de([CNPJ_A]))
    repo.fechar()
    limitado = {"Authorization": f"Bearer {token}"}
    c, admin = ambiente.cliente, com(ambiente, "admin")
    de_a, de_b = _processo(c, CNPJ_A, admin), _processo(c, CNPJ_B, admin)
    for pid, conteudo in ((de_a, PDF + b" A"), (de_b, PDF + b" B")):
        assert _com_documentos(c, pid, [("d.pdf", conteudo)], cab=admin).status_code == 201
    sha_a, sha_b = (hashlib.sha256(PDF + s).hexdigest() for s in (b" A", b" B"))
    assert (
        c.get(f"/api/v1/processos/{de_a}/documentos/{sha_a}", headers=limitado).status_code == 200
    )
    for caminho in (
        f"/api/v1/processos/{de_b}/documentos/{sha_b}",
        f"/processos/{de_b}/documentos/{sha_b}",
        f"/api/v1/processos/{de_a}/documentos/{sha_b}",
    ):
        r = c.get(caminho, headers=limitado)
        assert r.status_code == 404 and b"B" not in r.content.replace(b"Bearer", b""), caminho
    assert c.get(f"/api/v1/processos/{de_b}/documentos/{sha_b}", headers=admin).status_code == 200
    # writing needs the analista, as the JSON event does
    r = _com_documentos(c, de_a, [("e.pdf", PDF + b" e")], evento="auto_infracao", cab=limitado)
    assert r.status_code == 403


def _mostra_o_formulario(r: Any, campo: str) -> None:
    """The processo's page, its event form with the error beside it and what was typed."""
    assert r.status_code == 422 and 'id="form-evento"' in r.text, r.text[:300]
    assert f"{campo}</a>:" in r.text and 'value="01/02/2024"' in r.text


def test_pagina_mostra_no_formulario_o_erro_de_leitura_dos_arquivos(cliente: TestClient) -> None:
    """A file refused while the form is read (too large, too many, in another field, sent as
    text, a field sent twice) is the form's error, as a content refused later: the processo's
    page, the message beside the file field, the fields as typed; nothing stored."""
    pid = _processo(cliente)
    campos = {"evento": "auto_infracao", "data": "01/02/2024"}
    html = {"Accept": "text/html"}
    demais = [("documento", (f"d{i}.pdf", PDF + bytes([i]), "application/pdf")) for i in range(21)]
    grande = [("documento", ("grande.pdf", PDF + b"x" * MAXIMO_BYTES, "application/pdf"))]
    for arquivos, campo in (
        (demais, f"documentos[{MAXIMO_POR_EVENTO}]"),
        (grande, "documentos[0]"),
        ([("anexo", ("a.pdf", PDF, "application/pdf"))], "anexo"),
    ):
        r = cliente.post(f"/processos/{pid}/eventos", data=campos, files=arquivos, headers=html)
        _mostra_o_formulario(r, campo)
        assert ('id="erro-evento-documento"' in r.text) is campo.startswith("documentos")
    # a field sent twice: the first value is kept, the error names it
    r = cliente.post(
        f"/processos/{pid}/eventos",
        data={**campos, "data": ["01/02/2024", "02/02/2024"]},
        files=[("documento", ("a.pdf", PDF, "application/pdf"))],
        headers=html,
    )
    _mostra_o_formulario(r, "data")
    assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 1


def _parte(nome: str, conteudo: bytes, arquivo: str | None = None) -> bytes:
    disposicao = f'form-data; name="{nome}"' + (f'; filename="{arquivo}"' if arquivo else "")
    return f"--xx\r\nContent-Disposition: {disposicao}\r\n\r\n".encode() + conteudo + b"\r\n"


def test_documento_enviado_como_texto_nao_some(cliente: TestClient) -> None:
    """A ``documento`` part with content but no filename (a client's mistake, never a
    browser's) is refused naming ``documentos[i]``: the page never drops it silently."""
    pid = _processo(cliente)
    evento = json.dumps({"evento": "auto_infracao", "data": "2024-02-01"}).encode()
    tipo = {"Content-Type": "multipart/form-data; boundary=xx"}
    corpo = _parte("evento", evento) + _parte("documento", PDF) + b"--xx--\r\n"
    r = cliente.post(f"/api/v1/processos/{pid}/eventos", content=corpo, headers=tipo)
    assert "arquivo" in erro_pt(r, 422, "documentos[0]")
    corpo = (
        _parte("evento", b"auto_infracao")
        + _parte("data", b"01/02/2024")
        + _parte("documento", PDF)
        + b"--xx--\r\n"
    )
    r = cliente.post(
        f"/processos/{pid}/eventos", content=corpo, headers=tipo | {"Accept": "text/html"}
    )
    _mostra_o_formulario(r, "documentos[0]")
    assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 1


def test_parte_de_texto_grande_demais_diz_o_limite(cliente: TestClient) -> None:
    """A text part past 1 MiB in the multipart event is refused saying so, not as a
    "corrupted" form."""
    pid = _processo(cliente)
    r = cliente.post(
        f"/api/v1/processos/{pid}/eventos",
        data={"evento": " " * (2**20 + 1)},
        files=[("documento", ("a.pdf", PDF, "application/pdf"))],
    )
    mensagem = erro_pt(r, 422, None)
    assert "1 MiB" in mensagem and "corrompido" not in mensagem
