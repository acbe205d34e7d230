"""The shipped parameter files' parse kept in the package's ``__pycache__``
(:func:`multas.nucleo.legislacao.carga._ler_toml`): always what ``tomllib`` gives for the text
as it is now; a missing, stale, foreign or broken cache is parsed afresh and rewritten."""

from __future__ import annotations

import os
import pickle
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from multas.nucleo.legislacao import carga as legislacao

PASTA = Path(legislacao.__file__).with_name("parametros")
TEXTO = 'a = 1\nb = 2024-01-31\n[c]\nd = "x"\n'


@pytest.fixture
def arquivo() -> Iterator[str]:
    nome = f"teste-{os.getpid()}.toml"
    yield nome
    guardado = Path(legislacao.__file__).with_name("__pycache__") / f"parametros-{nome}.pickle"
    guardado.unlink(missing_ok=True)


def _guardado(nome: str) -> Path:
    return Path(legislacao.__file__).with_name("__pycache__") / f"parametros-{nome}.pickle"


@pytest.mark.parametrize("toml", sorted(p.name for p in PASTA.glob("*.toml")))
def test_a_leitura_guardada_e_a_do_tomllib(toml: str) -> None:
    texto = (PASTA / toml).read_text(encoding="utf-8")
    primeira = legislacao._ler_toml(toml, texto)
    assert primeira == tomllib.loads(texto)
    assert legislacao._ler_toml(toml, texto) == tomllib.loads(texto)  # from the cache


def test_texto_mudado_le_de_novo(arquivo: str) -> None:
    assert legislacao._ler_toml(arquivo, TEXTO)["a"] == 1
    assert _guardado(arquivo).exists()
    mudado = TEXTO.replace("a = 1", "a = 2")
    assert legislacao._ler_toml(arquivo, mudado)["a"] == 2
    assert legislacao._ler_toml(arquivo, TEXTO)["a"] == 1


@pytest.mark.parametrize(
    "conteudo",
    [
        b"",
        b"lixo",
        pickle.dumps("outra coisa"),
        pickle.dumps(("chave-errada", {"a": 99})),
        pickle.dumps((1, 2, 3)),
    ],
)
def test_cache_quebrado_ou_alheio_e_ignorado(arquivo: str, conteudo: bytes) -> None:
    _guardado(arquivo).parent.mkdir(exist_ok=True)
    _guardado(arquivo).write_bytes(conteudo)
    assert legislacao._ler_toml(arquivo, TEXTO) == tomllib.loads(TEXTO)
    assert pickle.loads(_guardado(arquivo).read_bytes())[1] == tomllib.loads(TEXTO)


def test_cache_que_nao_se_grava_nao_deixa_temporario(arquivo: str) -> None:
    """Where the cache cannot be replaced (a folder in its place), the text is parsed and no
    temporary file is left in ``__pycache__`` (one per process would pile up)."""
    _guardado(arquivo).mkdir(parents=True)
    try:
        assert legislacao._ler_toml(arquivo, TEXTO) == tomllib.loads(TEXTO)
        assert not list(_guardado(arquivo).parent.glob(f"parametros-{arquivo}.*.tmp"))
    finally:
        _guardado(arquivo).rmdir()


def test_a_legislacao_carregada_e_a_mesma_com_e_sem_cache() -> None:
    textos = {p.name: p.read_text(encoding="utf-8") for p in PASTA.glob("*.toml")}
    com, sem = legislacao.ler_textos(textos, guardar=True), legislacao.ler_textos(textos)
    assert com.versao == sem.versao
    assert com.parametros == sem.parametros
    assert com.prazos_comprovacao == sem.prazos_comprovacao
