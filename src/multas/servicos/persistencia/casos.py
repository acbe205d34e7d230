"""A saved case and a line of the audit log as the callers see them (detached from the
database), and the filters of a listing of saved cases."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import DBAPIError

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia.modelos import CasoSalvo, RegistroAuditoria
from multas.servicos.persistencia.registros import validar_texto, vivos


@dataclass(frozen=True, slots=True)
class Caso:
    """A saved case, detached from the database."""

    id: int
    regime: str
    entrada: str
    resultado: str
    valor: str | None
    versao_motor: str
    versao_legislacao: str
    usuario: str
    origem: str
    criado_em: datetime
    hash_conteudo: str | None = None
    #: in a listing: why this case cannot be trusted (pt-BR), if it cannot; its amount is
    #: then not shown
    erro: str | None = None

    def resultado_dict(self) -> dict[str, Any]:
        dados: dict[str, Any] = json.loads(self.resultado)
        return dados

    def identidade(self) -> dict[str, str]:
        """Whom the case is about, as its result echoes it (``cnpj``, ``nome``,
        ``referencia``: :mod:`multas.nucleo.identidade`); empty when it names no one or cannot be
        read."""
        from multas.nucleo.identidade import CAMPOS

        try:
            resultado = self.resultado_dict()
        except ValueError:
            return {}
        if not isinstance(resultado, dict):
            return {}
        # the case's own ``id`` (spec § 3 v4) is a label, not whom: and a saved case's ``id`` is
        # its number in the database, which a label must never shadow
        return {c: v for c in CAMPOS if c != "id" and isinstance(v := resultado.get(c), str) and v}


@dataclass(frozen=True, slots=True)
class Registro:
    """One line of the audit log."""

    id: int
    momento: datetime
    usuario: str
    acao: str
    caso_id: int | None
    regime: str | None
    detalhe: str | None
    tabela: str | None = None
    registro_id: int | None = None
    operacao: str | None = None


def _caso(linha: CasoSalvo, erro: str | None = None) -> Caso:
    return Caso(
        erro=erro,
        id=linha.id,
        regime=linha.regime,
        entrada=linha.entrada,
        resultado=linha.resultado,
        valor=linha.valor,
        versao_motor=linha.versao_motor,
        versao_legislacao=linha.versao_legislacao,
        usuario=linha.usuario,
        origem=linha.origem,
        criado_em=linha.criado_em,
        hash_conteudo=linha.hash_conteudo,
    )


def _registro(linha: RegistroAuditoria) -> Registro:
    return Registro(
        id=linha.id,
        momento=linha.momento,
        usuario=linha.usuario,
        acao=linha.acao,
        caso_id=linha.caso_id,
        regime=linha.regime,
        detalhe=linha.detalhe,
        tabela=linha.tabela,
        registro_id=linha.registro_id,
        operacao=linha.operacao,
    )


@contextmanager
def _busca_por_cnpj(cnpj: str | None) -> Iterator[None]:
    """A search by CNPJ reads each case's result as JSON: one edited outside the system into
    something that is not JSON makes PostgreSQL refuse the query. Say so, in pt-BR."""
    try:
        yield
    except DBAPIError:
        if not cnpj:
            raise
        raise EntradaInvalida(
            "cnpj",
            "a busca por CNPJ não pôde ler um caso salvo que não é JSON (alterado fora do "
            "sistema?): veja multas auditoria verificar",
        ) from None


def _filtros_casos(consulta: Any, regime: str | None, cnpj: str | None, dialeto: str) -> Any:
    consulta = consulta.where(vivos(CasoSalvo))
    if regime:
        consulta = consulta.where(CasoSalvo.regime == validar_texto(regime, "regime", 64))
    if cnpj:
        from multas.servicos.persistencia import cnpj_sql

        dado = validar_texto(cnpj, "cnpj", 64)
        resultado = cnpj_sql.do_json(CasoSalvo.resultado, dialeto)
        consulta = consulta.where(cnpj_sql.igual(resultado, dado))
    return consulta
