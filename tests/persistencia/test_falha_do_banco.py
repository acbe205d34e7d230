"""What a command says when the database cannot be used (:func:`falha_do_banco`): the reason in
pt-BR, never the driver's English text nor a traceback."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from multas.servicos.persistencia.registros import BancoInacessivel, falha_do_banco


class _Driver(Exception):
    def __init__(self, texto: str, sqlstate: str | None = None) -> None:
        super().__init__(texto)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("texto", "motivo"),
    [
        ("connection to server failed: Connection refused", "o servidor recusou a conexão"),
        ('could not translate host name "db" to address', "o nome do servidor não foi encontrado"),
        ("timeout expired", "o servidor não respondeu a tempo"),
        ('password authentication failed for user "m"', "o usuário ou a senha foram recusados"),
        ('database "x" does not exist', "o banco ou o usuário não existe no servidor"),
        ("sorry, too many clients already", "o servidor está com conexões demais"),
        (
            "FATAL: remaining connection slots are reserved for non-replication superuser "
            "connections",
            "o servidor está com conexões demais",
        ),
        ("unable to open database file", "não foi possível abrir o arquivo do banco"),
        # SQLite's lock held past the wait (a 'banco mover' copying the file): it was "o banco
        # recusou a operação", as if the URL or the server were wrong
        ("database is locked", "o arquivo do banco ficou trancado por outro programa"),
    ],
)
def test_o_motivo_conhecido_em_portugues(texto: str, motivo: str) -> None:
    mensagem = falha_do_banco(OperationalError("SELECT 1", {}, _Driver(texto)))
    assert mensagem is not None
    assert mensagem.startswith(f"não foi possível usar o banco: {motivo}")
    assert texto not in mensagem


def test_um_motivo_desconhecido_diz_so_o_sqlstate() -> None:
    erro = OperationalError("SELECT 1", {}, _Driver("something odd happened", "57P01"))
    mensagem = falha_do_banco(erro)
    assert mensagem is not None
    assert "o banco recusou a operação (SQLSTATE 57P01)" in mensagem
    assert "odd" not in mensagem


def test_outros_erros_nao_sao_do_banco() -> None:
    assert falha_do_banco(ValueError("x")) is None
    assert falha_do_banco(IntegrityError("INSERT", {}, _Driver("duplicate key"))) is None
    assert falha_do_banco(BancoInacessivel("o banco sumiu")) == "o banco sumiu"
