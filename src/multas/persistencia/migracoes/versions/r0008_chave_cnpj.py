"""The ledger's key is the normalised CNPJ (issue 19, item 3): ``carteira_anos.cnpj`` holds
:func:`multas.cnpj.normalizar` of the CNPJ (punctuation and surrounding spaces removed, ASCII
letters in upper case), so that ``11.222.333/0001-81`` and ``11222333000181`` are one
distributor. The year's own ``entrada`` keeps the CNPJ as the user gave it.

Every stored row is normalised, except:

- **collisions**: two or more rows of one year whose CNPJs normalise to the same key
  (``11.222.333/0001-81`` and ``11222333000181``, both for 2024). They are left exactly as
  they are, never merged: the migration logs a warning (pt-BR) naming the rows, and ``multas
  auditoria verificar`` keeps naming them (:meth:`RepositorioCiclo.colisoes`) until the user
  deletes or corrects one. Meanwhile a lookup still finds them (the key, or the exact spelling
  stored: :func:`multas.persistencia.ciclo.grafias_da_busca`);
- a row whose CNPJ normalises to nothing (only punctuation and spaces): it cannot be a key,
  and is reported the same way.

**The audit chain**, as in r0006: a record's state includes its ``cnpj``, so a normalised row's
state hash changes. Each such row gets one more audit row, in the chain: ``alterar``, action
``carteira_migrar``, user ``migração r0008``, with its new state — but only if its state
*before* matched its history. One that did not (edited outside the system before the upgrade)
is normalised too but not vouched for: ``multas auditoria verificar`` keeps reporting it.

Revision ID: r0008
Revises: r0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.cnpj import normalizar
from multas.persistencia.papeis import como_dono_da_auditoria, identificador
from multas.persistencia.registros import (
    RECURSOS,
    Escrita,
    conferir_proprios,
    hashes_atuais,
    travar_cadeia,
)
from multas.relogio import agora

revision = "r0008"
down_revision: str | None = "r0007"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0008"
ACAO = "carteira_migrar"
registro = logging.getLogger("multas.persistencia")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    tabela = sa.Table("carteira_anos", sa.MetaData(), autoload_with=sessao.connection())
    linhas = _linhas(sessao, tabela)
    mudar = _a_normalizar(linhas)
    if not mudar:
        return
    antes = _estados_conferidos(sessao, [linha for linha in linhas if int(linha["id"]) in mudar])
    for linha_id, chave in sorted(mudar.items()):
        sessao.execute(sa.update(tabela).where(tabela.c.id == linha_id).values(cnpj=chave))
    _regravar(sessao, tabela, antes, mudar)


def _linhas(sessao: Session, tabela: sa.Table) -> list[sa.RowMapping]:
    """Every ledger year as it is in the database now (the table reflected, not the model)."""
    return list(sessao.execute(sa.select(tabela).order_by(tabela.c.id)).mappings().all())


def _a_normalizar(linhas: list[sa.RowMapping]) -> dict[int, str]:
    """The rows to normalise (id → key); the colliding ones are reported and left out."""
    grupos: dict[tuple[str, int], list[sa.RowMapping]] = {}
    for linha in linhas:
        grupos.setdefault((normalizar(str(linha["cnpj"])), int(linha["ano"])), []).append(linha)
    mudar: dict[int, str] = {}
    for (chave, ano), grupo in grupos.items():
        fora = [linha for linha in grupo if str(linha["cnpj"]) != chave]
        if not fora:
            continue
        if chave and len(grupo) == 1:
            mudar[int(grupo[0]["id"])] = chave
            continue
        nomes = ", ".join(f"nº {int(linha['id'])} (CNPJ {linha['cnpj']!r})" for linha in grupo)
        if not chave:
            registro.warning(
                "carteira: a linha %s do ano %s tem um CNPJ sem nenhum caractere além de "
                "pontuação e espaços; a migração r0008 a deixou como estava: exclua-a ou "
                "corrija-a (multas auditoria verificar continua a apontá-la)",
                nomes,
                ano,
            )
            continue
        registro.warning(
            "carteira: as linhas %s do ano %s têm o mesmo CNPJ normalizado (%s); a migração "
            "r0008 não as juntou nem alterou: exclua ou corrija uma delas (multas carteira "
            "excluir CNPJ-COMO-GRAVADO --ano %s apaga a linha gravada com essa grafia; multas "
            "auditoria verificar continua a apontá-las até lá)",
            nomes,
            ano,
            chave,
            ano,
        )
    return mudar


def _estados_conferidos(sessao: Session, linhas: list[sa.RowMapping]) -> dict[int, str]:
    """Each row's state hash before the change, for those whose state is the one their history
    ends with."""
    recurso = RECURSOS["carteira_anos"]
    atuais = hashes_atuais(sessao, recurso, linhas)
    problemas = conferir_proprios(sessao, recurso, atuais)
    for registro_id in sorted(problemas):
        registro.warning(
            "ano da carteira nº %s não confere com a auditoria antes da migração r0008: a "
            "migração normaliza o seu CNPJ mas não o abona (multas auditoria verificar "
            "continua a apontá-lo)",
            registro_id,
        )
    return {i: atual for i, atual in atuais.items() if i not in problemas}


def _poder_auditar(conexao: sa.Connection) -> None:
    """PostgreSQL: the migrating role appends the rows below; it may read the chain and insert
    into it (as r0004 granted to the role that ran it), never alter it."""
    if conexao.dialect.name != "postgresql":
        return
    eu = identificador(str(conexao.execute(sa.text("SELECT current_user")).scalar_one()))
    with como_dono_da_auditoria(conexao):
        sequencia = conexao.execute(
            sa.text("SELECT pg_get_serial_sequence('auditoria', 'id')")
        ).scalar_one()
        op.execute(f"GRANT SELECT, INSERT ON auditoria TO {eu}")
        op.execute(f"GRANT USAGE, SELECT ON SEQUENCE {sequencia} TO {eu}")


def _regravar(
    sessao: Session, tabela: sa.Table, antes: dict[int, str], mudar: dict[int, str]
) -> None:
    """One ``alterar`` row for each vouched-for row whose key was normalised."""
    recurso = RECURSOS["carteira_anos"]
    linhas = [linha for linha in _linhas(sessao, tabela) if int(linha["id"]) in antes]
    depois = hashes_atuais(sessao, recurso, linhas)
    mudados = [linha for linha in linhas if depois[int(linha["id"])] != antes[int(linha["id"])]]
    if not mudados:
        return
    _poder_auditar(sessao.connection())
    escrita = Escrita(sessao, agora(), QUEM)
    for linha in mudados:
        escrita.regravar(
            recurso,
            linha,
            ACAO,
            {"cnpj": mudar[int(linha["id"])], "ano": int(linha["ano"])},
        )
    sessao.flush()


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
