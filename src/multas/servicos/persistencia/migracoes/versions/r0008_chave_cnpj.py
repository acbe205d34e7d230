"""The ledger's key is the normalised CNPJ (issue 19, item 3): ``carteira_anos.cnpj`` holds
:func:`multas.nucleo.cnpj.normalizar` of the CNPJ (punctuation and surrounding spaces removed, ASCII
letters in upper case), so that ``11.222.333/0001-81`` and ``11222333000181`` are one
distributor. The year's own ``entrada`` keeps the CNPJ as the user gave it.

Every stored row is normalised, except:

- **collisions**: two or more rows of one year whose CNPJs normalise to the same key
  (``11.222.333/0001-81`` and ``11222333000181``, both for 2024). They are left exactly as
  they are, never merged: the migration logs a warning (pt-BR) naming the rows, and ``multas
  auditoria verificar`` keeps naming them (:meth:`RepositorioCiclo.colisoes`) until the user
  deletes or corrects one. Meanwhile a lookup still finds them (the key, or the exact spelling
  stored: :func:`multas.servicos.persistencia.ciclo.grafias_da_busca`);
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

from multas.nucleo.cnpj import normalizar
from multas.servicos.persistencia import aval
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0008"
down_revision: str | None = "r0007"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0008"
ACAO = "carteira_migrar"
registro = logging.getLogger("multas.servicos.persistencia")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    tabela = sa.Table("carteira_anos", sa.MetaData(), autoload_with=sessao.connection())
    linhas = aval.linhas(sessao, "carteira_anos")
    mudar = _a_normalizar(linhas)
    if not mudar:
        return
    antes = aval.estados_conferidos(
        sessao,
        "carteira_anos",
        [linha for linha in linhas if int(linha["id"]) in mudar],
        "ano da carteira nº %s não confere com a auditoria antes da migração r0008: a "
        "migração normaliza o seu CNPJ mas não o abona (multas auditoria verificar continua "
        "a apontá-lo)",
    )
    for linha_id, chave in sorted(mudar.items()):
        sessao.execute(sa.update(tabela).where(tabela.c.id == linha_id).values(cnpj=chave))
    aval.abonar(
        sessao,
        "carteira_anos",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"cnpj": mudar[int(linha["id"])], "ano": int(linha["ano"])},
    )


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


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
