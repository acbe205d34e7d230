"""Stored processos (with their events, in order) and the distributor's ledger: the processos in
:mod:`multas.servicos.persistencia.processos`, the ledger in
:mod:`multas.servicos.persistencia.carteira`, the rule of one processo per reference in
:mod:`multas.servicos.persistencia.referencias`; their names are re-exported here.

The repository knows nothing of spec § 6: a change to a processo's events takes a ``validar``
callback that sees the processo as it would become and raises
:class:`~multas.nucleo.erros.EntradaInvalida` to refuse it. Every write goes through
:meth:`multas.servicos.persistencia.Repositorio.escrita` (:mod:`multas.servicos.persistencia.registros`): writers
are serialised, so the list a callback validates is the list the change is made to, a refused
change stores nothing, and a stored list was always validated whole.

Every read goes through the checked path: a processo or ledger year that does not match its
history in the audit chain is refused when asked for alone (``RegistroAlterado``) and listed
with its ``erro`` in a listing, never hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from multas.servicos.persistencia.armazenados import EventoArmazenado as EventoArmazenado
from multas.servicos.persistencia.armazenados import NovoProcesso as NovoProcesso
from multas.servicos.persistencia.armazenados import ProcessoArmazenado as ProcessoArmazenado
from multas.servicos.persistencia.armazenados import chave_da_origem as chave_da_origem
from multas.servicos.persistencia.armazenados import texto_dos_dias as texto_dos_dias
from multas.servicos.persistencia.carteira import AnoArmazenado as AnoArmazenado
from multas.servicos.persistencia.carteira import RepositorioCarteira, Validacao
from multas.servicos.persistencia.carteira import chave_do_cnpj as chave_do_cnpj
from multas.servicos.persistencia.carteira import grafias_da_busca as grafias_da_busca
from multas.servicos.persistencia.carteira import mensagem_de_colisao as mensagem_de_colisao
from multas.servicos.persistencia.processos import ACAO_IMPORTAR as ACAO_IMPORTAR
from multas.servicos.persistencia.processos import Importacao as Importacao
from multas.servicos.persistencia.processos import RepositorioProcessos
from multas.servicos.persistencia.processos_em_lote import criar_em_lote, referencias_livres
from multas.servicos.persistencia.referencias import LIMITE_ID as LIMITE_ID
from multas.servicos.persistencia.referencias import chave_da_referencia as chave_da_referencia
from multas.servicos.persistencia.referencias import (
    processo_com_a_referencia as processo_com_a_referencia,
)
from multas.servicos.persistencia.referencias import (
    recusar_referencia_em_uso as recusar_referencia_em_uso,
)
from multas.servicos.persistencia.referencias import referencia_em_uso as referencia_em_uso
from multas.servicos.persistencia.repositorio import USUARIO_PADRAO, Repositorio


class RepositorioCiclo(RepositorioProcessos, RepositorioCarteira):
    """Processos and the ledger, in the same database as the saved cases (and the same audit
    chain: every record is in it): the processos' methods in
    :class:`~multas.servicos.persistencia.processos.RepositorioProcessos`, the ledger's in
    :class:`~multas.servicos.persistencia.carteira.RepositorioCarteira`."""

    def __init__(self, repositorio: Repositorio) -> None:
        self.repositorio = repositorio

    def salvar_anos_e_processos(
        self,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        processos: Sequence[NovoProcesso],
        usuario: str = USUARIO_PADRAO,
        validar: Validacao | None = None,
    ) -> tuple[int, list[ProcessoArmazenado], list[tuple[NovoProcesso, ProcessoArmazenado]]]:
        """Years of the ledger (as :meth:`salvar_anos`: how many were written) and new
        processos (validated by the caller), in one transaction. A new processo with an
        ``origem`` (spec § 6.3 v4) that a stored one of its tipo already has, or an earlier
        one of ``processos``, is not created: returned last, as already there, with the stored
        one it is (the earlier one of ``processos``: the one created)."""
        preparo = self.preparar_anos(anos, validar)
        with self.repositorio.escrita(usuario) as escrita:
            salvos = self._salvar_anos_em(escrita, anos, validar, preparo)
            em_uso = self._origens_em_uso(
                escrita.sessao, (chave_da_origem(p.tipo, p.origem) for p in processos)
            )
            a_criar: list[NovoProcesso] = []
            existentes: list[tuple[NovoProcesso, ProcessoArmazenado | NovoProcesso]] = []
            primeiro: dict[tuple[str, str, int, str], NovoProcesso] = {}
            for novo in processos:
                chave = chave_da_origem(novo.tipo, novo.origem)
                if chave is not None and chave in em_uso:
                    existentes.append((novo, em_uso[chave]))
                elif chave is not None and chave in primeiro:
                    existentes.append((novo, primeiro[chave]))  # the one created, below
                else:
                    a_criar.append(novo)
                    if chave is not None:
                        primeiro[chave] = novo
            # issue 36, item 3: in slices when every reference is free
            if referencias_livres(escrita, a_criar):
                criados = criar_em_lote(escrita, a_criar, "processo_criar")
            else:
                criados = [self._criar_processo_em(escrita, novo) for novo in a_criar]
            feitos = {id(novo): criado for novo, criado in zip(a_criar, criados, strict=True)}
            return (
                salvos,
                criados,
                [
                    (novo, feitos[id(outro)] if isinstance(outro, NovoProcesso) else outro)
                    for novo, outro in existentes
                ],
            )
