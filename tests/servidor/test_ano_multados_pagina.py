"""Issue 37, items 11 and 13: the year's table (``/ano``) names each fined distributor's notice
(one PDF, the very file of the ZIP), shows only the fined on request, and flags a CNPJ whose
check digits are wrong as the ledger does. Without JavaScript: the page's forms, re-sent with
the files carried back."""

from __future__ import annotations

import io
import re
import zipfile

from fastapi.testclient import TestClient

from multas.nucleo.cnpj import DIGITOS_ERRADOS, normalizar
from tests.utils.ano import DISTRIBUIDORES_ARQUIVO, enviar, esperado, ocultos

MULTIPART = {"x": ("", b"")}  # the download form goes as multipart, as the browser sends it


def _multados() -> list[str]:
    """The fined rows' CNPJs (normalised), in the file's order, from the core's year."""
    return [
        normalizar(linha["cnpj"])
        for linha in esperado()["linhas"]
        if not linha["erro"] and linha["multado"] > 0
    ]


def test_cada_multado_tem_a_sua_notificacao(cliente: TestClient) -> None:
    pagina = enviar(cliente, {"ano": "2024", "data_notificacao": "2025-03-03"}).text
    botoes = re.findall(r'form="form-baixar" name="notificacao" value="([0-9A-Z]+)"', pagina)
    assert botoes == _multados() and len(botoes) == 2
    devolvidos = ocultos(pagina)
    z = cliente.post("/ano", data={**devolvidos, "formato": "zip"}, files=MULTIPART)
    with zipfile.ZipFile(io.BytesIO(z.content)) as arquivo:
        for cnpj in botoes:
            r = cliente.post("/ano", data={**devolvidos, "notificacao": cnpj}, files=MULTIPART)
            assert r.status_code == 200, r.text[:500]
            assert r.headers["content-type"] == "application/pdf"
            assert f'filename="notificacao-2024-{cnpj}.pdf"' in r.headers["content-disposition"]
            # the ZIP's own notice: the same number, the same bytes
            assert r.content == arquivo.read(f"notificacoes/{cnpj}.pdf")


def test_notificacao_de_quem_nao_foi_multado_e_recusada(cliente: TestClient) -> None:
    devolvidos = ocultos(enviar(cliente).text)
    cumpriu = normalizar(esperado()["linhas"][0]["cnpj"])
    r = cliente.post("/ano", data={**devolvidos, "notificacao": cumpriu}, files=MULTIPART)
    assert r.status_code == 422
    assert "Notificação: nenhuma notificação para o CNPJ" in r.text
    assert "só um distribuidor multado" in r.text


def test_so_os_multados(cliente: TestClient) -> None:
    pagina = enviar(cliente).text
    assert 'id="mostrar-multados"' in pagina
    assert pagina.count('<tr id="ano-linha-') == 5
    devolvidos = ocultos(pagina)
    filtrada = cliente.post("/ano", data={**devolvidos, "mostrar": "multados"}, files=MULTIPART)
    assert filtrada.status_code == 200
    linhas = re.findall(r'<tr id="ano-linha-(\d+)"', filtrada.text)
    certo = esperado()
    assert linhas == [
        str(n)
        for n, linha in enumerate(certo["linhas"], start=1)
        if not linha["erro"] and linha["multado"] > 0
    ]
    assert len(linhas) == certo["resumo"]["multados"]
    assert "Só os distribuidores multados (2)" in filtrada.text
    assert 'id="mostrar-todos"' in filtrada.text
    # the downloads still carry every row: the filter is the page's only
    assert "mostrar" not in ocultos(filtrada.text)


def test_so_os_multados_sem_nenhum(cliente: TestClient) -> None:
    so_alfa = "\n".join(DISTRIBUIDORES_ARQUIVO.decode().splitlines()[:2]).encode()
    devolvidos = ocultos(enviar(cliente, distribuidores=("d.csv", so_alfa)).text)
    r = cliente.post("/ano", data={**devolvidos, "mostrar": "multados"}, files=MULTIPART)
    assert r.status_code == 200
    assert 'id="nenhum-multado"' in r.text and 'id="tabela-ano"' not in r.text


def test_cnpj_com_digitos_errados_tem_o_selo(cliente: TestClient) -> None:
    """The flag the ledger's list shows (``selo-cnpj``), on the year's row too."""
    arquivo = DISTRIBUIDORES_ARQUIVO.replace(b"11.222.333/0001-81", b"11.222.333/0001-99")
    r = enviar(cliente, distribuidores=("d.csv", arquivo))
    assert r.status_code == 200
    linha = r.text.split('id="ano-linha-1"')[1].split("</tr>")[0]
    assert "11.222.333/0001-99" in linha
    assert f'<span class="selo-cnpj" title="{DIGITOS_ERRADOS}">' in linha
    outra = r.text.split('id="ano-linha-2"')[1].split("</tr>")[0]
    assert "selo-cnpj" not in outra
