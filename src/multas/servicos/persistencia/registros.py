"""One mechanism for every stored record: ids, text limits, locking, auditing and integrity.

Every table the application keeps (saved cases, processos and their events, the ledger's
years, users, tokens, page sessions, idempotency keys, the Selic's added months, the events'
documents) is a :class:`Recurso`, declared once in :data:`RECURSOS`. Nothing else writes them:

- **Writing** happens only inside :meth:`multas.servicos.persistencia.Repositorio.escrita`, one
  transaction that takes the audit chain's lock *first* (SQLite: the process's writer lock and
  ``BEGIN IMMEDIATE``; PostgreSQL: a transaction-level advisory lock) and reads the clock once,
  inside it. So writers are serialised: a read-modify-write (append an event, undo one, delete a
  processo, replace a ledger year) always reads what the previous writer committed, and two
  deletes of one record find it once. The chain's timestamps only go back when the system clock
  does (verification reports that as an aviso, with its size).
- :class:`~multas.servicos.persistencia.escrita.Escrita` inserts, alters and deletes rows.
  Before a row reaches the database its texts are checked (:func:`validar_textos`: no NUL
  character, no more than the column holds), so a bad text is a pt-BR input error naming the
  field on SQLite and PostgreSQL alike. Deleting a record deletes its children (a processo's
  events) and clears the references to it (a processo's link to a deleted case) through the
  same path.
- When the transaction ends, one audit row per record touched is appended to the chain, with
  the hash of the record's final canonical state (:func:`hash_estado`: every column that holds
  a value, the id included, and the ordered ids of its children).
- **Reading** what a user is shown goes through :func:`conferir`: the record's current state must
  be the one its history in the chain ends with (and each of its children's). A record that does
  not match is refused when asked for alone (:class:`RegistroAlterado`) and flagged, never
  hidden, in a listing.

A table added later must be declared here: ``tests/persistencia/test_recusas.py`` walks every table
of the schema and fails for one that is not.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    LargeBinary,
    String,
    Table,
    Text,
    and_,
    func,
    or_,
    select,
    text,
    true,
)
from sqlalchemy.orm import Session

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import MAIOR_ID
from multas.servicos.persistencia import em_massa
from multas.servicos.persistencia.integridade import (
    ADOTAR,
    ADULTERADO,
    INSERIR,
    Passo,
    Problema,
    conferir_estado,
    hash_da_linha,
    momento_canonico,
    sha256_json,
)
from multas.servicos.persistencia.modelos import (
    Base,
    CasoSalvo,
    FeedCalendario,
    Idempotencia,
    MesSelic,
    RegistroAuditoria,
    Sessao,
    TentativaLogin,
    Token,
    Usuario,
)
from multas.servicos.persistencia.modelos_ciclo import (
    AnoCarteiraSalvo,
    Carga,
    DocumentoSalvo,
    EventoSalvo,
    ProcessoSalvo,
)
from multas.servicos.persistencia.modelos_fila import (
    FilaItem,
    FilaMarca,
    FilaProcesso,
    FilaTexto,
)

#: a text column without a declared length holds at most this many characters
LIMITE_TEXTO = 64 * 1024 * 1024
#: the PostgreSQL advisory lock that serialises writers (and so the audit chain), with the
#: schema's hash as its second key
TRAVA_CADEIA = 0x6D756C74  # "mult"
#: how many ids one query asks the audit log about
LOTE_IDS = 500
#: how long a write waits for the one before it (seconds): then it is refused as
#: :class:`BancoOcupado` (HTTP 503 with Retry-After), never left hanging nor a 500
ESPERA_ESCRITA = 30.0
#: a write that holds the lock this long (seconds) is logged, with what it wrote
AVISO_TRAVA = 0.5
#: the state of an import in parts once applied (:class:`Carga`): its rows are seen
APLICADA = "aplicada"
#: the seconds a pending import in parts lives without being renewed (each part renews it)
VALIDADE_CARGA = 120

M = TypeVar("M", bound=Base)
#: half of a UTF-16 pair: a Python string may hold one, no UTF-8 database can store it
_SUBSTITUTO = re.compile("[\ud800-\udfff]")
#: what :func:`validar_texto` refuses in any text: the NUL character or half a UTF-16 pair
_PROIBIDO = re.compile("[\x00\ud800-\udfff]")
_MENOR_INTEIRO = -(2**63)
#: a stored row: a mapping read from its table, or an object with its columns as attributes
#: (an ORM object, or a detached copy such as :class:`multas.servicos.persistencia.Caso`)
Linha = Any


@dataclass(frozen=True)
class Recurso:
    """A stored table, as the one mechanism sees it."""

    modelo: type[Base]
    #: what a user calls one record, in pt-BR ("caso", "processo", ...)
    rotulo: str
    #: ``False``: the system never alters a record once written (an alteration in its history
    #: is forged)
    mutavel: bool = True
    #: child tables (deleted with the record; their ids, in order, are part of its state):
    #: (child table, its column naming the parent, its order column)
    filhos: tuple[tuple[str, str, str], ...] = ()
    #: the column a child uses to name its parent: (parent table, column)
    pai: tuple[str, str] | None = None
    #: columns that other tables may point at this one with (table, column): cleared when a
    #: record is deleted
    referencias: tuple[tuple[str, str], ...] = ()
    #: the field a user knows a column by, where it differs from the column's name
    campos: Mapping[str, str] = field(default_factory=dict)
    #: the most characters a text column without a declared length may hold
    limites: Mapping[str, int] = field(default_factory=dict)
    #: deleting a record moves it to the bin (its ``excluido_em`` set; issue 20, item 4): every
    #: view hides it, an admin may restore it, and it is erased when purged
    lixeira: bool = False
    #: written by imports in parts too (``carga_id``, ``substituida_por``; issue 32, item 1):
    #: a row of an import not applied is not there yet, a row it replaces still is
    em_partes: bool = False

    @property
    def tabela(self) -> str:
        return str(self.modelo.__tablename__)

    @property
    def colunas(self) -> Table:
        tabela = self.modelo.__table__
        assert isinstance(tabela, Table)
        return tabela

    def campo(self, coluna: str) -> str:
        return self.campos.get(coluna, coluna)


RECURSOS: dict[str, Recurso] = {
    r.tabela: r
    for r in (
        Recurso(
            CasoSalvo,
            "caso",
            mutavel=False,
            referencias=(("processos", "caso_id"),),
            lixeira=True,
        ),
        Recurso(Idempotencia, "chave de idempotência", mutavel=False),
        Recurso(
            ProcessoSalvo,
            "processo",
            filhos=(("processo_eventos", "processo_id", "posicao"),),
            # an anp processo's link to a renovabio.lista processo: cleared when the list
            # processo is deleted
            referencias=(("processos", "lista_id"),),
            campos={"identificador": "id"},
            # dias_sem_expediente: at most 366 dates of 14 characters each, as JSON; origem:
            # a regime, a year and a CNPJ (spec § 6.3 v4), as JSON; leituras: three readings
            # and a number of years, as JSON
            limites={
                "identificador": 1000,
                "dias_sem_expediente": 8192,
                "origem": 1000,
                "leituras": 1000,
            },
            lixeira=True,
        ),
        Recurso(EventoSalvo, "evento de processo", mutavel=False, pai=("processos", "processo_id")),
        Recurso(
            AnoCarteiraSalvo,
            "ano da carteira",
            limites={"entrada": 1024 * 1024},
            lixeira=True,
            em_partes=True,
        ),
        Recurso(Carga, "importação"),
        Recurso(Usuario, "usuário"),
        Recurso(Token, "token"),
        Recurso(Sessao, "sessão", mutavel=False),
        Recurso(FeedCalendario, "calendário privado"),
        # public data (spec § 3.5 v4): no CNPJ, so outside the clients' scopes; a month is
        # added once and never changed nor deleted (multas.servicos.selic)
        Recurso(MesSelic, "mês da Selic", mutavel=False),
        # spec § 6.2 v4: a document's content, once per hash; read only through an event of a
        # processo in the reader's scope (multas.servicos.documentos)
        Recurso(DocumentoSalvo, "documento", mutavel=False),
    )
}
#: tables that are not records: the chain itself, the migrations' bookkeeping, the login
#: throttle's counters (losing one only lifts a block; lifting one is audited) and the work
#: queue's index (derived data: each write of a processo deletes its rows, and verificar
#: derives them again; :mod:`multas.servicos.persistencia.modelos_fila`)
FORA_DOS_REGISTROS = frozenset(
    {
        RegistroAuditoria.__tablename__,
        "alembic_version",
        TentativaLogin.__tablename__,
        FilaProcesso.__tablename__,
        FilaItem.__tablename__,
        FilaMarca.__tablename__,
        FilaTexto.__tablename__,
    }
)


#: the tables with a bin
COM_LIXEIRA = tuple(r for r in RECURSOS.values() if r.lixeira)


def vivos(recurso: Recurso | type[Base]) -> Any:
    """The condition that keeps a table's deleted records out of a query (``True`` for a table
    without a bin): every read of a record a user is shown goes through it."""
    if not isinstance(recurso, Recurso):
        recurso = recurso_de(recurso)
    if not recurso.lixeira:
        return true()
    condicao: Any = recurso.colunas.c.excluido_em.is_(None)
    if recurso.em_partes:
        colunas = recurso.colunas.c
        # the imports not applied: few (one per import running, or interrupted and not yet
        # cleaned up), whatever the number of rows
        pendentes = select(Carga.id).where(Carga.estado != APLICADA).scalar_subquery()
        condicao &= or_(colunas.carga_id.is_(None), colunas.carga_id.not_in(pendentes))
        condicao &= or_(colunas.substituida_por.is_(None), colunas.substituida_por.in_(pendentes))
    return condicao


def recurso_de(modelo: type[Base] | Base | str) -> Recurso:
    if isinstance(modelo, str):
        return RECURSOS[modelo]
    classe = modelo if isinstance(modelo, type) else type(modelo)
    return RECURSOS[str(classe.__tablename__)]


# --- texts ------------------------------------------------------------------------------------


def validar_texto(valor: str, campo: str | None, limite: int | None = None) -> str:
    """A text that may reach the database: no NUL character (PostgreSQL refuses it), and at
    most ``limite`` characters. A pt-BR input error naming ``campo`` otherwise.

    >>> validar_texto("ok", "nome", 200)
    'ok'
    >>> validar_texto("a\\x00b", "nome")
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: nome: o texto contém o caractere nulo (U+0000), que não é aceito
    """
    if "\x00" in valor:
        raise EntradaInvalida(campo, "o texto contém o caractere nulo (U+0000), que não é aceito")
    if _SUBSTITUTO.search(valor):
        raise EntradaInvalida(
            campo, "o texto contém metade de um caractere Unicode (um substituto isolado)"
        )
    if limite is not None and len(valor) > limite:
        raise EntradaInvalida(
            campo, f"texto longo demais: {len(valor)} caracteres (máximo {limite})"
        )
    return valor


def limite_da_coluna(recurso: Recurso, coluna: Column[Any]) -> int | None:
    tipo = coluna.type
    if isinstance(tipo, String) and tipo.length:
        return int(tipo.length)
    if isinstance(tipo, Text | String):
        return recurso.limites.get(coluna.key, LIMITE_TEXTO)
    return None


def validar_textos(recurso: Recurso, linha: Base | Mapping[str, Any]) -> None:
    """Every text column of ``linha`` (a record, or its columns' values), before it is
    written (see :func:`validar_texto`)."""
    for coluna in recurso.colunas.columns:
        if isinstance(linha, Mapping):
            valor = linha.get(coluna.key)
        else:
            valor = getattr(linha, coluna.key, None)
        if isinstance(valor, str):
            validar_texto(valor, recurso.campo(coluna.key), limite_da_coluna(recurso, coluna))


def validar_parametros(parametros: object) -> None:
    """The last net, under every statement: a NUL character or an integer past 64 bits never
    reaches the driver (they are pt-BR input errors, not a driver's exception). Cheap on a
    bulk statement's thousands of values: a text is searched once, by one expression."""
    if isinstance(parametros, list | tuple) and all(isinstance(p, Mapping) for p in parametros):
        for linha in parametros:  # executemany: one mapping per row
            _validar_valores(linha.values())
    else:
        _validar_valores(_valores(parametros))


def _validar_valores(valores: Iterable[object]) -> None:
    for valor in valores:
        if isinstance(valor, str):
            if _PROIBIDO.search(valor):
                validar_texto(valor, None)
        elif (
            isinstance(valor, int)
            and not isinstance(valor, bool)
            and not _MENOR_INTEIRO <= valor <= MAIOR_ID
        ):
            raise EntradaInvalida(None, f"número fora do intervalo aceito: {valor}")
        elif isinstance(valor, Mapping | list | tuple):
            validar_parametros(valor)


def _valores(parametros: object) -> Iterator[object]:
    if isinstance(parametros, Mapping):
        yield from parametros.values()
    elif isinstance(parametros, list | tuple):
        yield from parametros
    else:
        yield parametros


# --- the canonical state --------------------------------------------------------------------


class Resumo(str):
    """A binary column's content as :func:`linhas_de` reads it: its SHA-256, which is what the
    canonical state holds of it (:func:`_canonico`), without keeping the bytes."""


def _canonico(valor: Any) -> Any:
    if isinstance(valor, Resumo):
        return {"sha256": str(valor)}
    if isinstance(valor, bytes | memoryview):  # a document's content: its hash stands for it
        return {"sha256": hashlib.sha256(valor).hexdigest()}
    if isinstance(valor, datetime):
        return momento_canonico(valor)
    if isinstance(valor, date):
        return valor.isoformat()
    if isinstance(valor, str | bool | int):
        return valor
    return str(valor)


def estado(recurso: Recurso, linha: Linha, filhos: Mapping[str, Sequence[int]]) -> dict[str, Any]:
    """A record's canonical state: the columns of its row (a mapping read from the table, or an
    object with the model's columns) that hold a value, and the ordered ids of each of its
    child tables. A column without a value is left out, so a migration that adds a column
    leaves every record's hash as it was."""
    if isinstance(linha, Mapping):
        valores = dict(linha)
    else:
        valores = {c.key: getattr(linha, c.key) for c in recurso.colunas.columns}
    atual: dict[str, Any] = {
        nome: _canonico(valor) for nome, valor in valores.items() if valor is not None
    }
    for tabela, _, _ in recurso.filhos:
        atual[f"/{tabela}"] = [int(i) for i in filhos.get(tabela, ())]
    return atual


def hash_estado(tabela: str, atual: Mapping[str, Any]) -> str:
    return sha256_json(["registro/1", tabela, atual])


def _ids_dos_filhos(
    sessao: Session, recurso: Recurso, ids: Sequence[int]
) -> dict[str, dict[int, list[int]]]:
    """For each child table: parent id → its children's ids, in order."""
    resultado: dict[str, dict[int, list[int]]] = {}
    for tabela, coluna_pai, ordem in recurso.filhos:
        filho = RECURSOS[tabela].colunas
        por_pai: dict[int, list[int]] = {i: [] for i in ids}
        for lote in _lotes(ids):
            consulta = (
                select(filho.c[coluna_pai], filho.c.id)
                .where(em_massa.entre(filho.c[coluna_pai], lote))
                .order_by(filho.c[coluna_pai], filho.c[ordem], filho.c.id)
            )
            for pai, filho_id in sessao.execute(consulta):
                por_pai.setdefault(int(pai), []).append(int(filho_id))
        resultado[tabela] = por_pai
    return resultado


def hashes_atuais(sessao: Session, recurso: Recurso, linhas: Sequence[Linha]) -> dict[int, str]:
    """The hash of each row's current state (its children read now)."""
    ids = [_id(linha) for linha in linhas]
    filhos = _ids_dos_filhos(sessao, recurso, ids)
    return {
        _id(linha): hash_estado(
            recurso.tabela,
            estado(
                recurso, linha, {t: por_pai.get(_id(linha), []) for t, por_pai in filhos.items()}
            ),
        )
        for linha in linhas
    }


def _id(linha: Linha) -> int:
    return int(linha["id"] if isinstance(linha, Mapping) else linha.id)


def _lotes(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    for inicio in range(0, len(ids), LOTE_IDS):
        yield ids[inicio : inicio + LOTE_IDS]


# --- histories and checked reads ---------------------------------------------------------------


def historias(sessao: Session, tabela: str, ids: Sequence[int]) -> dict[int, list[Passo]]:
    """Each record's audit rows that decide its check (its creation and its last row), in
    chain order. Each row is checked too: its own hash, and
    the next row's link to it; a row that fails (its ``hash_estado`` edited to vouch for an
    edited record, say) is an :data:`~multas.servicos.persistencia.integridade.ADULTERADO` step, which
    the record's check refuses. A full walk of the chain (``verificar``) checks the rest."""
    return {i: passos for (_, i), passos in historias_de(sessao, {tabela: ids}).items()}


def historias_de(
    sessao: Session, por_tabela: Mapping[str, Sequence[int]]
) -> dict[tuple[str, int], list[Passo]]:
    """:func:`historias` of records of several tables, by (table, id), in the same two
    queries (a slice of ids at a time)."""
    auditoria = RegistroAuditoria.__table__
    a = auditoria.c
    linhas: list[Linha] = []
    condicoes: list[Any] = []
    juntos = 0
    for tabela, ids in por_tabela.items():
        for lote in _lotes(list(ids)):
            # of a record changed many times, only what decides its check: the rows that
            # created it (it must be created once) and the last one (its state now); the
            # whole history is walked by verificar
            ultimas = (
                select(a.registro_id, func.max(a.seq).label("seq"))
                .where(a.tabela == tabela, em_massa.entre(a.registro_id, lote))
                .group_by(a.registro_id)
                .subquery()
            )
            if juntos + len(lote) > LOTE_IDS:  # a statement's ids at most a slice's
                linhas += _passos(sessao, condicoes)
                condicoes, juntos = [], 0
            condicoes.append(
                and_(
                    a.tabela == tabela,
                    em_massa.entre(a.registro_id, lote),
                    a.operacao.in_((INSERIR, ADOTAR)) | a.seq.in_(select(ultimas.c.seq)),
                )
            )
            juntos += len(lote)
    linhas += _passos(sessao, condicoes)
    seguintes: dict[int, str | None] = {}
    for lote in _lotes([int(linha["seq"] or 0) + 1 for linha in linhas]):
        for seq, anterior in sessao.execute(
            select(a.seq, a.hash_anterior).where(em_massa.entre(a.seq, lote))
        ):
            seguintes[int(seq)] = anterior
    resultado: dict[tuple[str, int], list[Passo]] = {}
    for linha in linhas:
        seq = int(linha["seq"] or 0)
        integra = (
            linha["hash"] is not None
            and hash_da_linha(linha) == linha["hash"]
            and seguintes.get(seq + 1, linha["hash"]) == linha["hash"]
        )
        chave = (str(linha["tabela"]), int(linha["registro_id"]))
        resultado.setdefault(chave, []).append(
            Passo(
                seq,
                str(linha["operacao"]) if integra else ADULTERADO,
                linha["hash_estado"],
                int(linha["id"]),
            )
        )
    return resultado


def _passos(sessao: Session, condicoes: list[Any]) -> list[Linha]:
    """The audit rows that meet any of ``condicoes``, in chain order (one statement)."""
    if not condicoes:
        return []
    auditoria = RegistroAuditoria.__table__
    consulta = select(auditoria).where(or_(*condicoes)).order_by(auditoria.c.seq)
    return list(sessao.execute(consulta).mappings().all())


class BancoOcupado(Exception):
    """A write waited :data:`ESPERA_ESCRITA` seconds for another (a long import) and gave up;
    nothing was written. The caller may try again."""

    def __init__(self) -> None:
        super().__init__(
            "o banco está ocupado com outra gravação (uma importação longa, talvez); nada foi "
            "gravado: tente de novo em instantes"
        )


class DistribuidorEmImportacao(Exception):
    """A write to a distributor's ledger while an import in parts of its years runs (issue 32,
    item 1): nothing was written. The caller may try again once the import ends."""

    def __init__(self, cnpj: str, carga_id: int) -> None:
        self.cnpj, self.carga_id = cnpj, carga_id
        super().__init__(
            f"os anos do CNPJ {cnpj} estão sendo importados agora (importação nº {carga_id}); "
            "nada foi gravado: tente de novo quando ela terminar"
        )


class CargaInterrompida(DistribuidorEmImportacao):
    """The import in parts was undone while it ran (not renewed in time): nothing of it is
    seen; the caller may send it again."""

    def __init__(self, carga_id: int) -> None:
        Exception.__init__(
            self,
            f"a importação nº {carga_id} foi interrompida: ficou mais de {VALIDADE_CARGA} "
            "segundos sem gravar uma parte e outra gravação a desfez; nada dela foi gravado: "
            "envie o arquivo de novo",
        )
        self.cnpj, self.carga_id = "", carga_id


class BancoInacessivel(Exception):
    """The database cannot be used at all: its URL cannot be read, its driver is missing, or
    it refused the connection. The message is pt-BR and never repeats the URL (it may carry a
    password)."""


#: a driver's message (libpq's, SQLite's; lower case) → what it means, in pt-BR
_MOTIVOS_DE_CONEXAO = (
    (
        ("connection refused", "conexão recusada"),
        "o servidor recusou a conexão (ele está no ar e escuta nesse endereço e porta?)",
    ),
    (
        (
            "could not translate host name",
            "name or service not known",
            "nodename nor servname",
            "failed to resolve host",
            "temporary failure in name resolution",
        ),
        "o nome do servidor não foi encontrado",
    ),
    (("timeout expired", "timed out", "tempo esgotado"), "o servidor não respondeu a tempo"),
    (
        ("password authentication failed", "authentication failed", "no password supplied"),
        "o usuário ou a senha foram recusados",
    ),
    (("no pg_hba.conf entry",), "o servidor não aceita conexões deste usuário ou endereço"),
    (("does not exist",), "o banco ou o usuário não existe no servidor"),
    (
        ("too many clients", "too many connections", "connection slots are reserved"),
        "o servidor está com conexões demais (todas as vagas dele estão em uso)",
    ),
    (
        ("unable to open database file",),
        "não foi possível abrir o arquivo do banco (a pasta existe e pode ser escrita?)",
    ),
    (("file is not a database",), "o arquivo não é um banco SQLite"),
    (("readonly database", "read-only"), "o banco só pode ser lido, não gravado"),
    (
        ("disk i/o error", "database disk image is malformed"),
        "o arquivo do banco está danificado ou o disco falhou",
    ),
    (("no space left", "database or disk is full"), "o disco está cheio"),
    (
        ("database is locked",),
        "o arquivo do banco ficou trancado por outro programa todo o tempo de espera (um "
        "'multas banco mover' copiando-o, ou outro programa que o tranca); espere ele terminar "
        "e rode de novo",
    ),
    (
        ("server closed the connection", "connection reset", "terminating connection"),
        "o servidor encerrou a conexão",
    ),
)


def falha_do_banco(erro: BaseException) -> str | None:
    """What went wrong with the database, in pt-BR, for an error that reached the command line
    (:class:`BancoInacessivel`, or SQLAlchemy's ``OperationalError``: no connection, a
    refused login, an unreadable file); ``None`` for any other error. The driver's own text
    (English) is not repeated: only a SQLSTATE code, when there is one and no known reason."""
    from sqlalchemy.exc import InterfaceError, OperationalError

    if isinstance(erro, BancoInacessivel):
        return str(erro)
    if not isinstance(erro, OperationalError | InterfaceError):
        return None
    texto = str(erro.orig if erro.orig is not None else erro).lower()
    conhecidos = (m for trechos, m in _MOTIVOS_DE_CONEXAO if any(t in texto for t in trechos))
    codigo = getattr(erro.orig, "sqlstate", None)
    motivo = next(
        conhecidos, "o banco recusou a operação" + (f" (SQLSTATE {codigo})" if codigo else "")
    )
    return (
        f"não foi possível usar o banco: {motivo}; confira MULTAS_DATABASE_URL (ou --banco) e o "
        "servidor do banco"
    )


class RegistroAlterado(Exception):
    """A stored record that no longer matches what the system wrote: it is not shown."""

    def __init__(self, problema: Problema) -> None:
        super().__init__(problema.mensagem)
        self.problema = problema


def conferir_proprios(
    sessao: Session, recurso: Recurso, atuais: Mapping[int, str]
) -> dict[int, Problema]:
    """Of these records (id → current state hash), those whose state is not the one their
    own history ends with (their children not looked at): id → the problem."""
    passados = historias(sessao, recurso.tabela, list(atuais))
    problemas: dict[int, Problema] = {}
    for registro_id, atual in atuais.items():
        problema = conferir_estado(
            recurso.rotulo,
            recurso.tabela,
            registro_id,
            atual,
            passados.get(registro_id, []),
            recurso.mutavel,
        )
        if problema is not None:
            problemas[registro_id] = problema
    return problemas


def conferir(sessao: Session, recurso: Recurso, linhas: Sequence[Linha]) -> dict[int, Problema]:
    """Of these rows, those whose current state is not the one their history ends with, or
    one of whose children's is not: id → the problem (pt-BR, naming the table and row)."""
    if not linhas:
        return {}
    atuais = hashes_atuais(sessao, recurso, linhas)
    problemas = conferir_proprios(sessao, recurso, atuais)
    for tabela, coluna_pai, _ in recurso.filhos:
        filho = RECURSOS[tabela]
        vivos = [i for i in atuais if i not in problemas]
        linhas_filhas = [
            linha
            for lote in _lotes(vivos)
            for linha in sessao.execute(
                select(filho.colunas).where(em_massa.entre(filho.colunas.c[coluna_pai], lote))
            ).mappings()
        ]
        pais = {int(linha["id"]): int(linha[coluna_pai]) for linha in linhas_filhas}
        for filho_id, problema in conferir(sessao, filho, linhas_filhas).items():
            pai = pais[filho_id]
            problemas.setdefault(
                pai,
                Problema(
                    problema.tipo,
                    f"{recurso.rotulo} nº {pai} (tabela {recurso.tabela}): {problema.mensagem}",
                    tabela=problema.tabela,
                    id=problema.id,
                ),
            )
    return problemas


def exigir_conferido(sessao: Session, recurso: Recurso, linha: Linha) -> None:
    """Refuse (:class:`RegistroAlterado`) a record that does not match its history."""
    problema = conferir(sessao, recurso, [linha]).get(_id(linha))
    if problema is not None:
        raise RegistroAlterado(problema)


# --- the chain's lock, and every row for verification ---------------------------------------


def travar_cadeia(sessao: Session, espera: float | None = None) -> None:
    """One writer at a time, for the whole transaction, across processes: PostgreSQL's
    transaction-level advisory lock (one per schema, so databases that share a server do not
    wait for each other), waited for at most ``espera`` seconds; SQLite's write lock, which
    ``BEGIN IMMEDIATE`` takes at the transaction's first statement: one is run here, so the
    clock is read after it. ``espera``: :data:`ESPERA_ESCRITA` by default."""
    if sessao.get_bind().dialect.name == "postgresql":
        paciencia = ESPERA_ESCRITA if espera is None else espera
        # one round trip (no parameters: both are integers written here)
        sessao.execute(
            text(
                f"SET LOCAL lock_timeout = '{int(paciencia * 1000)}ms'; "
                f"SELECT pg_advisory_xact_lock({int(TRAVA_CADEIA)}, hashtext(current_schema()))"
            )
        )
    else:
        sessao.execute(text("SELECT 1"))


def linhas_de(sessao: Session, recurso: Recurso) -> Iterable[Linha]:
    """Every row of a table, in id order (for verification). A table with binary columns (the
    documents' contents, up to 20 MiB each) is read one row at a time, each content kept as
    its :class:`Resumo`: never the whole table in memory (PostgreSQL's driver fetches a
    result whole, and verification checks its rows a thousand at a time)."""
    tabela = recurso.colunas
    binarias = {c.name for c in tabela.c if isinstance(c.type, LargeBinary)}
    if not binarias:
        return sessao.execute(select(tabela).order_by(tabela.c.id)).mappings()
    return _resumidas(sessao, tabela, binarias)


def _resumidas(sessao: Session, tabela: Table, binarias: set[str]) -> Iterator[Linha]:
    for registro_id in sessao.scalars(select(tabela.c.id).order_by(tabela.c.id)).all():
        linha = sessao.execute(select(tabela).where(tabela.c.id == registro_id)).mappings().first()
        if linha is not None:  # deleted meanwhile: not read
            yield {
                nome: Resumo(hashlib.sha256(v).hexdigest())
                if nome in binarias and v is not None
                else v
                for nome, v in linha.items()
            }
