"""The work queue's first page on a database already built (issue 36, item 4), in one run:
what the API's page costs when every processo is indexed, part by part.

Run it on a database whose queue of today is indexed: one that ``bench/regulador.py`` builds
is left behind by running its steps by hand, or build one with ``multas processo importar``
(the file ``bench/regulador.py`` writes) and ``multas reavaliar``. It reads the index's day and
law from the index itself, so it measures the queries, whatever program version wrote them.

Printed, each the fastest of a few runs:

- the search for processos not indexed, without the index's mark (every processo looked at)
  and with it (only those written since), and their ratio;
- the first page (50 items) under four filters: none, ``responsavel=anp``, ``estado=defesa``
  and one CNPJ.

The mark is set to the chain's last position for the second half, as a queue that indexed
every processo leaves it. Nothing else is written, unless ``--vezes K``: then the index's rows
are copied K - 1 times under other processo numbers (the rows K times as many processos would
leave, read as the mark lets the page read them: the items alone), the tables analysed, and
the four pages timed again, with their ratio to the first timing, in the same run. Use a
scratch database for that.

Usage: python bench/fila_pagina.py URL [--vezes K]   (a SQLAlchemy URL: sqlite:///... or
postgresql+psycopg://...)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any


def _melhor(fazer: Callable[[], Any], vezes: int = 5) -> float:
    tempos = []
    for _ in range(vezes):
        inicio = time.perf_counter()
        fazer()
        tempos.append(time.perf_counter() - inicio)
    return min(tempos)


def main() -> None:
    from sqlalchemy import delete, func, insert, select

    from multas.nucleo.ciclo.pendencias import ler_filtros
    from multas.servicos.persistencia import Repositorio, fila
    from multas.servicos.persistencia.modelos_fila import FilaItem, FilaMarca, FilaProcesso

    repositorio = Repositorio(sys.argv[1])
    with repositorio.leitura() as sessao:
        primeiro = sessao.execute(select(FilaProcesso.referencia, FilaProcesso.lei).limit(1))
        referencia, lei = primeiro.one()
        indexados = int(sessao.scalar(select(func.count()).select_from(FilaProcesso)) or 0)
        seq = fila.ultima_seq(sessao)
    print(f"{indexados} processos no índice de {referencia.isoformat()}")

    def velhos() -> list[int]:
        with repositorio.leitura() as sessao:
            return fila.desatualizados(sessao, referencia, lei, 1)

    with repositorio.engine.begin() as conexao:
        conexao.execute(delete(FilaMarca))
    sem = _melhor(velhos)
    with repositorio.engine.begin() as conexao:
        conexao.execute(insert(FilaMarca).values(id=1, referencia=referencia, lei=lei, seq=seq))
    com = _melhor(velhos)
    print(f"  processos fora do índice, sem a marca: {sem * 1000:.0f} ms")
    print(f"  processos fora do índice, com a marca: {com * 1000:.0f} ms ({com / sem:.2f}×)")
    with repositorio.leitura() as sessao:
        cnpj = sessao.scalar(select(FilaItem.cnpj).where(FilaItem.cnpj.is_not(None)).limit(1))
    todos = ({}, {"responsavel": "anp"}, {"estado": "defesa"}, {"cnpj": cnpj})

    def paginas() -> list[float]:
        tempos = []
        for filtros in todos:

            def pagina(filtros: dict[str, Any] = filtros) -> None:
                with repositorio.leitura() as sessao:
                    f = ler_filtros(referencia, **filtros)
                    fila.pagina(sessao, referencia, lei, f, 50, 0)

            tempos.append(_melhor(pagina, 3))
        return tempos

    antes = paginas()
    for filtros, segundos in zip(todos, antes, strict=True):
        print(f"  a primeira página, {filtros or 'sem filtro'}: {segundos * 1000:.0f} ms")
    vezes = int(sys.argv[sys.argv.index("--vezes") + 1]) if "--vezes" in sys.argv else 1
    if vezes > 1:
        _multiplicar(repositorio, vezes)
        print(f"  com as linhas do índice de {indexados * vezes} processos (× {vezes}):")
        for filtros, um, segundos in zip(todos, antes, paginas(), strict=True):
            razao = f"{segundos / um:.2f}×"
            print(
                f"    a primeira página, {filtros or 'sem filtro'}: {segundos * 1000:.0f} ms ({razao})"
            )
    repositorio.fechar()


def _multiplicar(repositorio: Any, vezes: int) -> None:
    """The index's rows copied ``vezes - 1`` times, each copy under processo numbers past every
    real one; then the tables analysed (the planner's statistics, and on PostgreSQL the
    visibility map that lets it read an index alone)."""
    from sqlalchemy import text

    colunas = (
        "tipo, ordem, estado, cnpj, confiavel, responsavel, data, nome, desde, situacao, "
        "pendente, n"
    )
    with repositorio.engine.begin() as conexao:
        passo = int(conexao.scalar(text("SELECT max(processo_id) FROM fila_itens")) or 0) + 1
        for k in range(1, vezes):
            deslocar = {"d": k * passo, "limite": passo}
            conexao.execute(
                text(
                    f"INSERT INTO fila_itens (processo_id, {colunas}) "
                    f"SELECT processo_id + :d, {colunas} FROM fila_itens "
                    "WHERE processo_id < :limite"
                ),
                deslocar,
            )
            conexao.execute(
                text(
                    "INSERT INTO fila_textos (processo_id, n, item) "
                    "SELECT processo_id + :d, n, item FROM fila_textos WHERE processo_id < :limite"
                ),
                deslocar,
            )
    postgresql = repositorio.engine.dialect.name == "postgresql"
    with repositorio.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        for tabela in ("fila_itens", "fila_textos") if postgresql else ("",):
            c.execute(text(f"VACUUM ANALYZE {tabela}" if postgresql else "ANALYZE"))


if __name__ == "__main__":
    main()
