"""docs/ano.md's walk "Do Despacho aos autos" is what the commands print: the Despacho's sheet
as published (docs/exemplos/despacho-2024.csv) and B3's daily file as shipped, through
``multas ano calcular --salvar`` and ``multas pendencias --responsavel anp``."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli

RAIZ = Path(__file__).resolve().parents[2]
DOC = (RAIZ / "docs" / "ano.md").read_text(encoding="utf-8")


def _comandos() -> list[tuple[list[str], list[str]]]:
    """Each ``$ multas …`` command of the walk, with the lines the doc shows it printing."""
    secao = DOC.split("{ #do-despacho-aos-autos }")[1].split("\n## ")[0]
    blocos = re.findall(r"```console\n(.*?)```", secao, re.S)
    comandos = []
    for bloco in blocos:
        texto, *saida = bloco.replace("\\\n", " ").splitlines()
        comandos.append((shlex.split(texto.removeprefix("$ multas ")), saida))
    return comandos


def test_o_passeio_do_despacho_aos_autos_imprime_o_que_o_documento_mostra(tmp_path: Path) -> None:
    (ano, ano_saida), (pendencias, pendencias_saida) = _comandos()
    banco = ["--banco", f"sqlite:///{tmp_path / 'ano.db'}"]
    trocas = {"docs/exemplos/": f"{RAIZ}/docs/exemplos/", "tests/dados/": f"{RAIZ}/tests/dados/"}
    argumentos = [next((a.replace(k, v) for k, v in trocas.items() if k in a), a) for a in ano]
    saida = str(tmp_path / "ano-2024")
    argumentos[argumentos.index("ano-2024")] = saida
    r = CliRunner().invoke(cli, [*argumentos, *banco, "--sem-progresso"])
    assert r.exit_code == 0, r.output
    impresso = r.stdout.replace(f"{saida}/", "ano-2024/").splitlines()
    assert impresso == [linha for linha in ano_saida if not linha.startswith("despacho-2024")]
    assert sorted(p.name for p in (tmp_path / "ano-2024" / "notificacoes").iterdir()) == [
        "33444555000181.pdf",
        "44555666000181.pdf",
    ]
    r = CliRunner().invoke(cli, [*pendencias, *banco])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[: len(pendencias_saida)] == pendencias_saida
