"""The scalar engine (what the API, the JSON Lines CLI and every non-kernel batch row run on):
cases per second on one core, with the full memória and the alternativas, before and after;
and, as a ratio that does not depend on the machine, against OpenFisca on the same cases.

"Before" is the engine of an earlier commit (default: f4ce8c2, the last one before the
scalar-engine work of issue 11), extracted with `git archive` and run in a subprocess with
its own sources first on the path; "after" is this checkout. Both run the same cases (the
spec's worked cases, tests/casos_spec) the same way. Each result is turned into the
contract's JSON (como_dict), as a user gets it.

OpenFisca (bench/openfisca_renovabio/, the reference of bench/kernel_vs_openfisca.py) knows
only renovabio.distribuidor with the price given, so it runs the worked cases of that regime
whose inputs it can take: no daily or monthly quotes, no interpretacao, no data_referencia
(16 of the 21). Each case is one simulation (build_default_simulation, count=1, its inputs
set, multa_distribuidor calculated), run with the .venv-bench python (PYTHON_OPENFISCA, as in
bench/kernel_vs_openfisca.py; without it this part is skipped). Its inputs are the case's
fields, as kernel_vs_openfisca.py maps them: meta_cbios, cbios_aposentados,
maior_media_mensal, the two revenues (tem_faturamento when both are given), data_quitacao
(tem_quitacao when given) and the prazo_comprovacao (the case's, else the one multas's
legislation gives for ano_meta, looked up once here); the period is ano_meta. The scalar
engine runs on exactly these cases too. What still differs (the first two favour OpenFisca):

- OpenFisca's inputs are typed before the clock starts (numbers, numpy dates) and its
  tax-benefit system is built once; multas reads and validates each raw JSON object (Decimal
  numbers, date strings) inside the clock, as the API does.
- OpenFisca returns one float32 number; multas computes the memória (every step, with its
  source), tries the alternativas (the other readings that change the value) and writes the
  contract's JSON. "Sem memória" times multas without these: the case read and validated,
  the rule run inside `silenciosa()` (nothing recorded), the value written as JSON.
- OpenFisca's results are checked against the spec's expected values and those off by one
  centavo or more are named (in the run of 01/12/2026, 4 of 16: float32 in rb16, rb17 and
  rb20; in rb15 the model lets the revenue cap go below the floor, the decree's reading, where
  the default reading keeps the floor); multas's are the tests' business.

Everything is interleaved (before, after, then on the RenovaBio cases multas, multas without
memória, OpenFisca), three rounds, each a subprocess timing for --segundos after a warm-up
pass; the script prints the medians and their ratios: one run, so the shared machine's load
falls on all alike.

Usage: [PYTHON_OPENFISCA=.venv-bench/bin/python] python bench/motor_escalar.py [--antes REV]
       [--segundos S]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from decimal import Decimal
from io import BytesIO
from pathlib import Path
from typing import Any

from multas.nucleo.legislacao import carregar
from multas.servicos.relogio import hoje

RAIZ = Path(__file__).resolve().parents[1]
CASOS = RAIZ / "tests" / "casos_spec"
PYTHON_OPENFISCA = os.environ.get("PYTHON_OPENFISCA")
# the case fields the OpenFisca model takes (besides regime and ano_meta)
CAMPOS_OPENFISCA = {
    "meta_cbios",
    "cbios_aposentados",
    "maior_media_mensal",
    "faturamento_ano_meta",
    "faturamento_ano_anterior",
    "data_quitacao",
    "prazo_comprovacao",
}

MEDIR = r"""
import json, sys, time
from decimal import Decimal
casos = [json.loads(open(p, encoding="utf-8").read(), parse_float=Decimal)["entrada"]
         for p in json.loads(sys.argv[1])]
if sys.argv[3] == "completo":
    from multas import calcular_resultado
    def um(caso):
        calcular_resultado(caso).como_dict()
else:  # sem memória: read and validated, the rule alone, nothing recorded
    import datetime, inspect
    try:
        from multas.nucleo.legislacao import carregar
        from multas.nucleo.memoria import silenciosa
        from multas.nucleo.motor import ler_caso
    except ImportError:  # a commit before the rings (issue 31)
        from multas.legislacao import carregar
        from multas.memoria import silenciosa
        from multas.motor import ler_caso
    legislacao = carregar()
    hoje = (datetime.date.today(),)  # the rules take it since issue 31; earlier ones do not
    def um(caso):
        with silenciosa():
            regime, lido, interpretacao = ler_caso(caso)
            mais = hoje if len(inspect.signature(regime.regra).parameters) == 4 else ()
            regime.regra(lido, interpretacao, legislacao, *mais).valor_json()
for caso in casos:  # warm-up: imports, the legislation, the holiday tables
    um(caso)
n, inicio = 0, time.perf_counter()
while time.perf_counter() - inicio < float(sys.argv[2]):
    for caso in casos:
        um(caso)
        n += 1
print(n / (time.perf_counter() - inicio))
"""


def medir(src: Path, arquivos: list[Path], segundos: float, modo: str = "completo") -> float:
    r = subprocess.run(
        [sys.executable, "-c", MEDIR, json.dumps([str(a) for a in arquivos]), str(segundos), modo],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
    )
    return float(r.stdout)


def extrair(rev: str, destino: Path) -> Path:
    arquivo = subprocess.run(
        ["git", "-C", str(RAIZ), "archive", "--format=tar", rev, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(arquivo)) as tar:
        tar.extractall(destino, filter="data")
    return destino / "src"


def para_openfisca(entrada: dict[str, Any]) -> dict[str, Any] | None:
    """The OpenFisca inputs of a worked case, or None when the model cannot take it."""
    if entrada.get("regime") != "renovabio.distribuidor":
        return None
    if set(entrada) - CAMPOS_OPENFISCA - {"regime", "ano_meta"}:
        return None  # quotes, interpretacao, data_referencia: not in the OpenFisca model
    ano = int(entrada["ano_meta"])
    prazo = entrada.get("prazo_comprovacao")
    if prazo is None:
        tabela = carregar().prazo_comprovacao(ano)
        assert tabela is not None, ano
        prazo = tabela[0].isoformat()
    faturamento = "faturamento_ano_meta" in entrada and "faturamento_ano_anterior" in entrada
    return {
        "periodo": str(ano),
        "entradas": {
            "meta_cbios": int(entrada["meta_cbios"]),
            "cbios_aposentados": int(entrada["cbios_aposentados"]),
            "maior_media_mensal": float(entrada["maior_media_mensal"]),
            "faturamento_ano_meta": float(entrada.get("faturamento_ano_meta", 0)),
            "faturamento_ano_anterior": float(entrada.get("faturamento_ano_anterior", 0)),
            "tem_faturamento": faturamento,
            "prazo_comprovacao": prazo,
            "data_quitacao": entrada.get("data_quitacao", prazo),
            "tem_quitacao": "data_quitacao" in entrada,
        },
    }


def medir_openfisca(casos: Path, segundos: float) -> dict[str, Any]:
    assert PYTHON_OPENFISCA is not None
    r = subprocess.run(
        [PYTHON_OPENFISCA, str(RAIZ / "bench" / "openfisca_casos.py"), str(casos), str(segundos)],
        capture_output=True,
        text=True,
        check=True,
    )
    resultado: dict[str, Any] = json.loads(r.stdout)
    return resultado


def _rodadas(valores: list[float]) -> str:
    return ", ".join(f"{x:.0f}" for x in valores)


def main() -> None:
    argumentos = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    argumentos.add_argument("--antes", default="f4ce8c2")
    argumentos.add_argument("--segundos", type=float, default=4.0)
    opcoes = argumentos.parse_args()
    todos = sorted(CASOS.glob("*.json"))
    renovabio, entradas_of, esperados = [], [], []
    for arquivo in todos:
        spec = json.loads(arquivo.read_text(encoding="utf-8"), parse_float=Decimal)
        convertido = para_openfisca(spec["entrada"])
        if convertido is not None:
            renovabio.append(arquivo)
            entradas_of.append(convertido)
            esperados.append(Decimal(spec["esperado"]["valor"]))
    openfisca = PYTHON_OPENFISCA is not None and Path(PYTHON_OPENFISCA).exists()
    with tempfile.TemporaryDirectory() as pasta:
        antigo = extrair(opcoes.antes, Path(pasta))
        casos_of = Path(pasta) / "openfisca.json"
        casos_of.write_text(json.dumps(entradas_of), encoding="utf-8")
        antes, depois, rb, rb_sem, of = [], [], [], [], []
        valores_of: list[float] = []
        for _ in range(3):
            antes.append(medir(antigo, todos, opcoes.segundos))
            depois.append(medir(RAIZ / "src", todos, opcoes.segundos))
            if openfisca:
                rb.append(medir(RAIZ / "src", renovabio, opcoes.segundos))
                rb_sem.append(medir(RAIZ / "src", renovabio, opcoes.segundos, "sem-memoria"))
                medida = medir_openfisca(casos_of, opcoes.segundos)
                of.append(medida["casos_s"])
                valores_of = medida["valores"]
    a, d = statistics.median(antes), statistics.median(depois)
    print(f"motor escalar: casos/s num núcleo, com memória e alternativas ({hoje()})")
    print(f"  os {len(todos)} casos de tests/casos_spec; medianas de 3 rodadas intercaladas")
    print(f"  antes ({opcoes.antes}): {a:8.0f}   rodadas: {_rodadas(antes)}")
    print(f"  depois (esta cópia): {d:8.0f}   rodadas: {_rodadas(depois)}")
    print(f"  depois / antes = {d / a:.2f}×   (meta: ≥ 5.000 casos/s por núcleo)")
    if not openfisca:
        print(
            "  OpenFisca: pulado (defina PYTHON_OPENFISCA com o python de .venv-bench; "
            "`make bench` cria esse ambiente)"
        )
        return
    m, s, o = statistics.median(rb), statistics.median(rb_sem), statistics.median(of)
    erradas = [
        arquivo.name.split("-")[0]
        for arquivo, v, e in zip(renovabio, valores_of, esperados, strict=True)
        if abs(Decimal(repr(v)) - e) >= Decimal("0.01")
    ]
    print(
        f"contra OpenFisca 46, uma simulação por caso: os {len(renovabio)} casos "
        "renovabio.distribuidor que o modelo OpenFisca aceita"
    )
    print(f"  multas, com memória e alternativas: {m:8.0f}   rodadas: {_rodadas(rb)}")
    print(f"  multas, sem memória:                {s:8.0f}   rodadas: {_rodadas(rb_sem)}")
    print(f"  OpenFisca:                          {o:8.0f}   rodadas: {_rodadas(of)}")
    print(f"  multas / OpenFisca = {m / o:.1f}× (sem memória: {s / o:.1f}×)")
    print(
        f"  OpenFisca difere do valor esperado em 1 centavo ou mais em {len(erradas)} "
        f"dos {len(renovabio)} casos: {', '.join(erradas) or 'nenhum'}"
    )


if __name__ == "__main__":
    main()
