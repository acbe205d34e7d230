"""The start-up helper (:mod:`multas.inicio`): imports with the collector paused, then frozen
out of it; the collector is always left as it was found."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from multas.inicio import sem_coleta


@pytest.fixture
def coletor() -> Iterator[None]:
    ligado = gc.isenabled()
    yield
    if ligado:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("coletor")
@pytest.mark.parametrize("ligado", [True, False])
def test_o_coletor_fica_como_estava(ligado: bool) -> None:
    (gc.enable if ligado else gc.disable)()
    with sem_coleta():
        assert not gc.isenabled()
    assert gc.isenabled() is ligado


@pytest.mark.usefixtures("coletor")
def test_o_coletor_volta_mesmo_com_erro() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), sem_coleta():
        raise RuntimeError
    assert gc.isenabled()


def test_congela_so_no_processo_do_comando_e_quando_o_bloco_importa() -> None:
    """In a new interpreter: outside the command's own process nothing is frozen; in it, a
    block that imports nothing freezes nothing, one that imports a module freezes what exists,
    and what is made afterwards is collected as usual."""
    codigo = textwrap.dedent(
        """
        import gc, sys
        from multas.inicio import processo_proprio, sem_coleta
        sys.modules.pop("colorsys", None)
        sys.modules.pop("fileinput", None)
        with sem_coleta():
            import colorsys
        assert gc.get_freeze_count() == 0, gc.get_freeze_count()
        processo_proprio()
        with sem_coleta():
            pass
        assert gc.get_freeze_count() == 0, gc.get_freeze_count()
        with sem_coleta():
            import fileinput
        congelados = gc.get_freeze_count()
        assert congelados > 0
        with sem_coleta():
            import fileinput  # already imported: nothing new is frozen
        assert gc.get_freeze_count() == congelados
        class No:
            pass
        a, b = No(), No()
        a.outro, b.outro = b, a
        del a, b
        assert gc.collect() >= 2  # the cycle made afterwards is collected
        print("ok")
        """
    )
    saida = subprocess.run(
        [sys.executable, "-c", codigo], capture_output=True, text=True, check=False
    )
    assert saida.returncode == 0, saida.stderr
    assert saida.stdout.strip() == "ok"


def test_os_comandos_do_ciclo_importam_com_o_coletor_congelado() -> None:
    """The console script makes its process the command's own, and the lifecycle commands'
    heavy imports (the database and the lifecycle) go through :func:`sem_coleta`: after
    ``_ciclo`` the process has frozen objects."""
    codigo = textwrap.dedent(
        """
        import gc, sys
        from multas import inicio, principal
        sys.argv = ["multas", "--version"]
        try:
            principal.main()
        except SystemExit:
            pass
        import multas.cli.comum as cli
        assert "multas.servicos.persistencia" not in sys.modules
        antes = gc.get_freeze_count()
        cli._ciclo("sqlite://").repositorio.fechar()
        assert gc.get_freeze_count() > antes
        assert gc.isenabled()
        print("ok")
        """
    )
    saida = subprocess.run(
        [sys.executable, "-c", codigo], capture_output=True, text=True, check=False
    )
    assert saida.returncode == 0, saida.stderr
    assert saida.stdout.splitlines()[-1] == "ok"
