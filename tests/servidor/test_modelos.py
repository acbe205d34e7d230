"""What every page template promises, read from the templates themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import multas.servidor

MODELOS = sorted((Path(multas.servidor.__file__).parent / "templates").glob("*.html"))
MENSAGEM = re.compile(r'<p class="mensagem-erro"[^>]*>(.{0,40})', re.S)


@pytest.mark.parametrize("modelo", MODELOS, ids=lambda p: p.name)
def test_mensagem_ao_lado_do_campo_comeca_por_erro(modelo: Path) -> None:
    """A screen reader reads the message beside a field as "Erro: …" (a hidden prefix), as
    the shared field templates do: a message read without it is not told from a hint."""
    for inicio in MENSAGEM.findall(modelo.read_text(encoding="utf-8")):
        assert inicio.startswith('<span class="vh">Erro: </span>'), (modelo.name, inicio)


def test_a_mensagem_que_o_script_das_datas_poe_ao_lado_do_campo_comeca_por_erro() -> None:
    """static/datas.js puts its own message beside a date field: it was the one message
    beside a field without the hidden "Erro: " (run under Node, on a stand-in document)."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("sem Node")
    script = Path(multas.servidor.__file__).parent / "static" / "datas.js"
    codigo = (
        "const feito = (tag) => ({tag, className: '', textContent: '', filhos: [],"
        " replaceChildren(...f) { this.filhos = f; this.textContent = ''; },"
        " remove() {}});"
        "globalThis.document = {addEventListener() {}, getElementById: () => null,"
        " createElement: feito};"
        f"eval(require('fs').readFileSync({json.dumps(str(script))}, 'utf8')"
        " + ';globalThis.mostrar = mostrarMensagem;');"
        "const campo = {id: 'campo-data', dataset: {}, ao_lado: null,"
        " getAttribute: () => null, setAttribute() {}, removeAttribute() {},"
        " insertAdjacentElement(_onde, e) { this.ao_lado = e; }};"
        "mostrar(campo, 'data inexistente');"
        "const p = campo.ao_lado;"
        "console.log(JSON.stringify([p.className, p.textContent,"
        " p.filhos.map((f) => typeof f === 'string' ? f : [f.tag, f.className, f.textContent])]));"
    )
    saida = subprocess.run([node, "-e", codigo], capture_output=True, text=True, check=True)
    classe, texto, filhos = json.loads(saida.stdout)
    assert "mensagem-erro" in classe.split()
    assert texto + "".join(f if isinstance(f, str) else f[2] for f in filhos) == (
        "Erro: data inexistente"
    )
    assert filhos[0] == ["span", "vh", "Erro: "]
