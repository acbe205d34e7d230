"""An anchor kept outside the database (issue 16, item 6): ``multas auditoria ancorar`` prints a
checkpoint (the chain's head and each table's rows and last audit row, with the UTC time),
signed with HMAC-SHA256 under a key file that never enters the database; ``verificar --ancora``
compares against it and names what changed since, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import text

from multas.principal import cli
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.ancora import escrever, ler
from tests.utils.ataque import sem_protecao
from tests.utils.casos import salvar


@pytest.fixture
def chave(tmp_path: Path) -> str:
    arquivo = tmp_path / "chave"
    arquivo.write_bytes(b"0123456789abcdef0123456789abcdef")
    return str(arquivo)


def _cli(*argumentos: str) -> Result:
    return CliRunner().invoke(cli, ["auditoria", *argumentos])


def _ancorar(url: str, chave: str | None) -> str:
    r = _cli("ancorar", "--banco", url, *(["--chave-ancora", chave] if chave else []))
    assert r.exit_code == 0, r.output
    return r.stdout.strip()


def _verificar(url: str, ancora: str, chave: str | None) -> tuple[int, dict[str, object]]:
    extra = ["--chave-ancora", chave] if chave else []
    r = _cli("verificar", "--banco", url, "--ancora", ancora, *extra, "-f", "json")
    return r.exit_code, json.loads(r.stdout) if r.stdout else {}


def test_ancora_assinada_confere_e_diz_o_que_mudou_desde_entao(
    database_url: str, chave: str
) -> None:
    repo = Repositorio(database_url)
    ids = [salvar(repo) for _ in range(3)]
    ancora = _ancorar(database_url, chave)
    assert ancora.startswith("multas-ancora-1.") and not ancora.endswith(".-")
    assert _verificar(database_url, ancora, chave) == (
        0,
        _verificar(database_url, ancora, chave)[1],
    )
    codigo, saida = _verificar(database_url, ancora, chave)
    assert codigo == 0 and saida["desde_ancora"] == [] and saida["avisos"] == []
    novo = salvar(repo)
    assert repo.excluir(ids[0], "ana")
    codigo, saida = _verificar(database_url, ancora, chave)
    assert codigo == 0, saida
    assert saida["desde_ancora"] == [
        f"casos: 1 criado(s) (nº {novo}); 1 movido(s) para a lixeira (nº {ids[0]})"
    ]
    texto = _cli("verificar", "--banco", database_url, "--ancora", ancora, "--chave-ancora", chave)
    assert "Desde a âncora:" in texto.stdout and f"nº {novo}" in texto.stdout
    repo.fechar()


def test_ancora_forjada_ou_de_outra_chave_e_recusada(
    database_url: str, chave: str, tmp_path: Path
) -> None:
    repo = Repositorio(database_url)
    salvar(repo)
    ancora = _ancorar(database_url, chave)
    outra = tmp_path / "outra"
    outra.write_bytes(b"fedcba9876543210fedcba9876543210")
    r = _cli("verificar", "--banco", database_url, "--ancora", ancora, "--chave-ancora", str(outra))
    assert r.exit_code == 2 and "assinatura da âncora não confere" in r.stderr
    # a forger with the database but not the key re-signs a payload of his own: refused
    marco, _ = ler(ancora, None)
    forjada = escrever(marco, b"uma-chave-que-ele-inventou-1234")
    r = _cli("verificar", "--banco", database_url, "--ancora", forjada, "--chave-ancora", chave)
    assert r.exit_code == 2
    r = _cli("verificar", "--banco", database_url, "--ancora", "multas-ancora-1.lixo.-")
    assert r.exit_code == 2 and "âncora ilegível" in r.stderr
    repo.fechar()


def test_ancora_sem_assinatura_avisa(database_url: str) -> None:
    repo = Repositorio(database_url)
    salvar(repo)
    ancora = _ancorar(database_url, None)
    assert ancora.endswith(".-")
    codigo, saida = _verificar(database_url, ancora, None)
    assert codigo == 0 and any("não é assinada" in a for a in saida["avisos"])  # type: ignore[union-attr]
    repo.fechar()


def test_historia_reescrita_antes_da_ancora_e_apontada(database_url: str, chave: str) -> None:
    """Whoever can rewrite the audit table (SQLite's file, or PostgreSQL's owner role) rewrites
    a row before the anchor and every hash after it: the chain alone is whole again, the anchor
    is not."""
    from multas.servicos.persistencia.integridade import hash_registro

    repo = Repositorio(database_url)
    ids = [salvar(repo) for _ in range(3)]
    ancora = _ancorar(database_url, chave)
    with sem_protecao(repo) as c:
        linhas = c.execute(text("SELECT * FROM auditoria ORDER BY seq")).mappings().all()
        anterior = "0" * 64
        for linha in linhas:
            dados = dict(linha)
            if dados["seq"] == 1:
                dados["usuario"] = "mallory"
            if isinstance(dados["momento"], str):  # SQLite keeps text
                from datetime import UTC, datetime

                dados["momento"] = datetime.fromisoformat(dados["momento"]).replace(tzinfo=UTC)
            campos = {
                k: dados[k]
                for k in (
                    "seq",
                    "momento",
                    "usuario",
                    "acao",
                    "caso_id",
                    "regime",
                    "detalhe",
                    "tabela",
                    "registro_id",
                    "operacao",
                    "hash_estado",
                )
            }
            novo = hash_registro(hash_anterior=anterior, **campos)
            c.execute(
                text(
                    "UPDATE auditoria SET usuario = :u, hash_anterior = :a, hash = :h WHERE id = :i"
                ),
                {"u": dados["usuario"], "a": anterior, "h": novo, "i": dados["id"]},
            )
            anterior = novo
    assert repo.verificar().integro  # the rewrite is whole: only the anchor tells
    codigo, saida = _verificar(database_url, ancora, chave)
    assert codigo == 1
    assert any("âncora" in p["mensagem"] for p in saida["problemas"])  # type: ignore[union-attr]
    assert ids
    repo.fechar()


def test_registro_inserido_fora_do_sistema_desde_a_ancora_e_apontado(
    database_url: str, chave: str
) -> None:
    repo = Repositorio(database_url)
    salvar(repo)
    ancora = _ancorar(database_url, chave)
    with repo.engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO casos (regime, entrada, resultado, valor, versao_motor, "
                "versao_legislacao, usuario, origem, criado_em) SELECT regime, entrada, "
                "resultado, '1.00', versao_motor, versao_legislacao, usuario, origem, criado_em "
                "FROM casos"
            )
        )
    codigo, saida = _verificar(database_url, ancora, chave)
    assert codigo == 1
    mensagens = [p["mensagem"] for p in saida["problemas"]]  # type: ignore[union-attr]
    assert any("tabela casos: 2 registros agora" in m for m in mensagens), mensagens
    repo.fechar()
