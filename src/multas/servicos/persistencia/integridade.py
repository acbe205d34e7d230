"""The tamper-evident record: the hash chain of the audit log, and what it says of every record.

- Each audit row carries its position in the chain (``seq``: 1, 2, 3, ... with no gap), the
  hash of the previous row (``hash_anterior``) and the hash of its own content and of that link
  (``hash``).
- Each audit row written by :mod:`multas.servicos.persistencia.registros` also names one stored record
  (``tabela``, ``registro_id``), what happened to it (``operacao``: ``inserir``, ``alterar``,
  ``excluir``, or ``adotar`` when a migration took over a record stored before the chain covered
  its table) and the hash of the record's new canonical state (``hash_estado``; none once it is
  deleted).

So a changed field changes a hash; a deleted row leaves a gap in ``seq`` and a broken link;
rows moved around break the links; a record edited, inserted or deleted outside the system no
longer matches the state its history in the chain ends with; a record created twice, or
altered where the system never alters, has a history the system cannot have written.
:func:`verificar_cadeia` walks the chain, :func:`avaliar` reads one record's history, and
:meth:`multas.servicos.persistencia.Repositorio.verificar` puts both together for every table.

What a hash chain cannot show alone: someone able to rewrite *every* row from some point on,
recomputing every hash. On PostgreSQL the application's role cannot (it may only insert into
the audit table: see migration r0002); anywhere, the head of the chain that ``multas auditoria
verificar`` prints can be written down elsewhere and checked later with ``--ancora``.

Rows written before migration r0004 have no record columns: their hash is the first format
(``auditoria/1``), and the cases they created carry a ``hash_caso`` of the first case format.
Both stay checkable; r0004 adopted every record then stored. r0006 renamed a column of
``processos`` (``principal`` → ``valor_multa``): each processo that matched its history before
the rename, and whose state the rename changed, got an ``alterar`` row with its new state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

#: the "previous hash" of the first row of the chain
GENESE = "0" * 64
#: what may happen to a record (``auditoria.operacao``)
INSERIR, ALTERAR, EXCLUIR, ADOTAR = "inserir", "alterar", "excluir", "adotar"
#: a record moved to the bin (``excluido_em`` set) and brought back from it (issue 20, item 4):
#: allowed on every record that has a bin, also on one that is otherwise never altered
OCULTAR, RESTAURAR = "ocultar", "restaurar"
OPERACOES = (INSERIR, ALTERAR, EXCLUIR, ADOTAR, OCULTAR, RESTAURAR)
#: a step whose audit row does not match its own hash, or that the next row does not link to
ADULTERADO = "adulterado"


def momento_canonico(valor: datetime) -> str:
    """A timestamp as hashed: UTC, microseconds (a naive one is UTC: SQLite keeps no zone).
    A value the system could not read (:class:`~multas.servicos.persistencia.modelos.Ilegivel`, a
    text) is hashed as that text: no timestamp the system wrote hashes like it."""
    if isinstance(valor, str):
        return valor
    if valor.tzinfo is None:
        valor = valor.replace(tzinfo=UTC)
    return valor.astimezone(UTC).isoformat(timespec="microseconds")


def sha256_json(partes: Any) -> str:
    texto = json.dumps(partes, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


def hash_registro(
    *,
    seq: int,
    momento: datetime,
    usuario: str,
    acao: str,
    caso_id: int | None,
    regime: str | None,
    detalhe: str | None,
    hash_anterior: str,
    tabela: str | None = None,
    registro_id: int | None = None,
    operacao: str | None = None,
    hash_estado: str | None = None,
) -> str:
    """The hash of an audit row: its content and the link to the previous row. A row that
    names no record (written before migration r0004) keeps the first format."""
    partes: list[Any] = [
        "auditoria/1",
        seq,
        momento_canonico(momento),
        usuario,
        acao,
        caso_id,
        regime,
        detalhe,
        hash_anterior,
    ]
    if (tabela, registro_id, operacao, hash_estado) != (None, None, None, None):
        partes[0] = "auditoria/2"
        partes += [tabela, registro_id, operacao, hash_estado]
    texto = json.dumps(partes, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


# --- the first format of a saved case's hash (migrations r0002 and r0004 only) --------------


def hash_caso(
    *,
    regime: str,
    entrada: str,
    resultado: str,
    valor: str | None,
    versao_motor: str,
    versao_legislacao: str,
    usuario: str,
    origem: str,
    criado_em: datetime,
) -> str:
    """The hash of a saved case's content, first format (``casos.hash_conteudo``).

    >>> from datetime import datetime, UTC
    >>> len(hash_caso(regime="anp.infracao", entrada="{}", resultado="{}", valor="1.00",
    ...     versao_motor="1", versao_legislacao="1", usuario="ana", origem="api",
    ...     criado_em=datetime(2026, 1, 1, tzinfo=UTC)))
    64
    """
    partes = [
        "caso/1",
        regime,
        entrada,
        resultado,
        valor,
        versao_motor,
        versao_legislacao,
        usuario,
        origem,
        momento_canonico(criado_em),
    ]
    texto = json.dumps(partes, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


def colunas_caso(linha: Any) -> dict[str, Any]:
    """The arguments of :func:`hash_caso` read from a row (ORM object or mapping)."""
    nomes = (
        "regime",
        "entrada",
        "resultado",
        "valor",
        "versao_motor",
        "versao_legislacao",
        "usuario",
        "origem",
        "criado_em",
    )
    if isinstance(linha, Mapping):
        return {n: linha[n] for n in nomes}
    return {n: getattr(linha, n) for n in nomes}


def hash_caso_criado(detalhe: str | None) -> str | None:
    """The ``hash_caso`` a first-format creation record holds, if any."""
    try:
        dados = json.loads(detalhe or "{}")
    except ValueError:
        return None
    valor = dados.get("hash_caso") if isinstance(dados, dict) else None
    return valor if isinstance(valor, str) else None


# --- what verification finds ------------------------------------------------------------------


@dataclass(frozen=True)
class Problema:
    """A record that does not match, in pt-BR: which table and row."""

    tipo: str  # "alterado", "ausente", "fora de ordem", "forjado", "inválido", "colisão"
    mensagem: str
    registro_id: int | None = None  # the audit row, when the problem is in the chain
    caso_id: int | None = None
    tabela: str | None = None
    id: int | None = None  # the record's id in ``tabela``

    def __post_init__(self) -> None:
        if self.tabela == "casos" and self.caso_id is None:
            object.__setattr__(self, "caso_id", self.id)


@dataclass(frozen=True)
class Relatorio:
    registros: int
    #: how many records of each table were checked
    tabelas: dict[str, int]
    cabeca: tuple[int, str] | None  # (seq, hash) of the last row: the anchor to write down
    problemas: list[Problema]
    #: what is odd but not tampering (a clock that went back), in pt-BR
    avisos: list[str] = field(default_factory=list)
    #: with an anchor: what the audit records since it, table by table, in pt-BR
    desde_ancora: list[str] = field(default_factory=list)

    @property
    def integro(self) -> bool:
        return not self.problemas

    @property
    def casos(self) -> int:
        return self.tabelas.get("casos", 0)


@dataclass(frozen=True, slots=True)
class Passo:
    """One audit row of one record's history."""

    seq: int
    operacao: str
    hash_estado: str | None
    registro_id: int  # the audit row's id


def avaliar(
    rotulo: str, tabela: str, id_: int, historia: Sequence[Passo], mutavel: bool
) -> tuple[str | None, Problema | None]:
    """A record's history, in chain order: the hash its current state must have (``None``: it
    must not exist), or the problem that the system could not have written it so.

    >>> avaliar("caso", "casos", 7, [Passo(1, "inserir", "a", 1)], mutavel=False)
    ('a', None)
    >>> avaliar("caso", "casos", 7, [Passo(1, "inserir", "a", 1), Passo(2, "alterar", "b", 2)],
    ...         mutavel=False)[1].mensagem
    'caso nº 7 (tabela casos): a auditoria registra uma alteração (registro de auditoria id 2), mas um caso nunca é alterado'
    """
    esperado: str | None = None
    vivo = criado = False
    for passo in historia:
        onde = f"registro de auditoria id {passo.registro_id}"
        problema: str | None = None
        if passo.operacao in (INSERIR, ADOTAR):
            # created once: ids are never reused, and a migration adopts a record only if the
            # chain never saw it
            if criado:
                problema = f"a auditoria registra a criação do mesmo id mais de uma vez ({onde})"
            criado = vivo = True
        elif passo.operacao == ALTERAR:
            if not vivo:
                problema = f"a auditoria registra uma alteração sem registro vivo ({onde})"
            elif not mutavel:
                problema = (
                    f"a auditoria registra uma alteração ({onde}), mas um {rotulo} nunca é alterado"
                )
        elif passo.operacao in (OCULTAR, RESTAURAR):
            # whether the record is in the bin is its ``excluido_em``, part of the state the
            # step's hash covers
            if not vivo:
                nome = "exclusão" if passo.operacao == OCULTAR else "restauração"
                problema = f"a auditoria registra uma {nome} sem registro vivo ({onde})"
        elif passo.operacao == EXCLUIR:
            if not vivo:
                problema = f"a auditoria registra uma exclusão sem registro vivo ({onde})"
            vivo = False
        elif passo.operacao == ADULTERADO:
            problema = (
                f"o {onde} sobre ele foi alterado: não confere com o seu hash ou com a cadeia"
            )
        else:
            problema = f"operação desconhecida na auditoria: {passo.operacao!r} ({onde})"
        if problema is not None:
            return None, Problema(
                "forjado", f"{rotulo} nº {id_} (tabela {tabela}): {problema}", tabela=tabela, id=id_
            )
        esperado = passo.hash_estado if vivo else None
        if vivo and esperado is None:
            return None, Problema(
                "forjado",
                f"{rotulo} nº {id_} (tabela {tabela}): a auditoria não guarda o seu estado ({onde})",
                tabela=tabela,
                id=id_,
            )
    return esperado, None


def conferir_estado(
    rotulo: str,
    tabela: str,
    id_: int,
    atual: str | None,
    historia: Sequence[Passo],
    mutavel: bool,
) -> Problema | None:
    """Whether a record's current state (its hash; ``None``: the row is absent) is the one its
    history ends with."""
    esperado, problema = avaliar(rotulo, tabela, id_, historia, mutavel)
    if problema is not None:
        return problema
    nome = f"{rotulo} nº {id_} (tabela {tabela})"
    if atual is not None and not historia:
        return Problema(
            "forjado",
            f"{nome}: não há registro da sua criação na auditoria (inserido fora do sistema)",
            tabela=tabela,
            id=id_,
        )
    if atual is None and esperado is not None:
        return Problema(
            "ausente",
            f"{nome} ausente: apagado fora do sistema (a auditoria registra a criação e "
            "nenhuma exclusão)",
            tabela=tabela,
            id=id_,
        )
    if atual is not None and atual != esperado:
        motivo = (
            "a auditoria registra a sua exclusão"
            if esperado is None
            else "o conteúdo não confere com o último estado registrado na auditoria"
        )
        return Problema(
            "alterado", f"{nome} alterado fora do sistema: {motivo}", tabela=tabela, id=id_
        )
    return None


@dataclass
class Cadeia:
    """What a walk of the chain found."""

    total: int = 0
    cabeca: tuple[int, str] | None = None
    problemas: list[Problema] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    #: each record's history: (tabela, id) → its steps, in chain order
    historias: dict[tuple[str, int], list[Passo]] = field(default_factory=dict)
    #: cases created (and not deleted) by first-format rows: id → their ``hash_caso``
    legado: dict[int, str] = field(default_factory=dict)
    #: the step the last row walked gave its record, if any: (record, index in its history)
    ultimo: tuple[tuple[str, int], int] | None = None


def _descontinuidade(
    linha: Mapping[Any, Any], anterior_seq: int, presentes: set[int] | None
) -> Problema:
    rid, seq = linha["id"], linha["seq"]
    if seq > anterior_seq + 1 and (presentes is None or anterior_seq + 1 not in presentes):
        faltam = (
            f"nº {anterior_seq + 1}"
            if seq == anterior_seq + 2
            else f"nº {anterior_seq + 1} a {seq - 1}"
        )
        return Problema(
            "ausente",
            f"registro(s) de auditoria ausente(s): {faltam} da cadeia (antes do registro id {rid})",
            rid,
        )
    return Problema(
        "fora de ordem",
        f"registro de auditoria id {rid} fora de ordem: posição {seq} na cadeia, depois da "
        f"posição {anterior_seq}",
        rid,
    )


def hash_da_linha(linha: Mapping[Any, Any]) -> str:
    """The hash an audit row (a mapping of its columns) should have."""
    return hash_registro(
        seq=linha["seq"],
        momento=linha["momento"],
        usuario=linha["usuario"],
        acao=linha["acao"],
        caso_id=linha["caso_id"],
        regime=linha["regime"],
        detalhe=linha["detalhe"],
        hash_anterior=linha["hash_anterior"],
        tabela=linha.get("tabela"),
        registro_id=linha.get("registro_id"),
        operacao=linha.get("operacao"),
        hash_estado=linha.get("hash_estado"),
    )


def _recuo_do_relogio(
    linha: Mapping[Any, Any], anterior: tuple[datetime, int] | None
) -> tuple[str | None, tuple[datetime, int] | None]:
    """An aviso when this row's time is before the previous row's: each step back of the
    clock is reported once, with its size (the rows after it are compared with each other)."""
    momento = linha["momento"]
    if not isinstance(momento, datetime):  # unreadable: the row's hash already says so
        return None, anterior
    if momento.tzinfo is None:
        momento = momento.replace(tzinfo=UTC)
    atual = (momento, linha["id"])
    if anterior is None or momento >= anterior[0]:
        return None, atual
    recuo = (anterior[0] - momento).total_seconds()
    return (
        f"o relógio voltou {recuo:.6f} s entre os registros de auditoria id {anterior[1]} e "
        f"{linha['id']} (um ajuste do relógio do servidor, não uma alteração)"
    ), atual


def verificar_cadeia(
    registros: Iterable[Mapping[Any, Any]],
    ancora: tuple[int, str] | None = None,
    presentes: set[int] | None = None,
) -> Cadeia:
    """Walk the audit rows in id order: the chain's problems (the first one first), its head,
    the clock's steps back (avisos), and each record's history. ``presentes``, the positions
    found in the whole table, tells a reordered chain from one with rows missing."""
    cadeia = Cadeia()
    anterior_seq, anterior_hash = 0, GENESE
    ancora_vista = ancora is None
    ultimo_momento: tuple[datetime, int] | None = None
    for linha in registros:
        cadeia.total += 1
        rid, seq = linha["id"], linha["seq"]
        if seq is None or linha["hash"] is None:
            cadeia.problemas.append(
                Problema("alterado", f"registro de auditoria nº {rid}: sem hash", rid)
            )
            continue
        if seq != anterior_seq + 1:
            cadeia.problemas.append(_descontinuidade(linha, anterior_seq, presentes))
        elif linha["hash_anterior"] != anterior_hash:
            cadeia.problemas.append(
                Problema(
                    "fora de ordem",
                    f"registro de auditoria id {rid} (posição {seq}): não encadeia com o "
                    "registro anterior (alterado, trocado de lugar ou forjado)",
                    rid,
                )
            )
            _adulterar_ultimo(cadeia)  # the previous row, rehashed, does not link any more
        integra = hash_da_linha(linha) == linha["hash"]
        if not integra:
            cadeia.problemas.append(
                Problema(
                    "alterado",
                    f"registro de auditoria id {rid} (posição {seq}) alterado: o conteúdo não "
                    "confere com o seu hash",
                    rid,
                    linha["caso_id"],
                )
            )
        if ancora is not None and seq == ancora[0]:
            ancora_vista = True
            if linha["hash"] != ancora[1]:
                cadeia.problemas.append(
                    Problema(
                        "alterado",
                        f"a posição {seq} da cadeia não é a âncora anotada: a cadeia foi "
                        "reescrita desde então",
                        rid,
                    )
                )
        aviso, ultimo_momento = _recuo_do_relogio(linha, ultimo_momento)
        if aviso is not None:
            cadeia.avisos.append(aviso)
        _historia(cadeia, linha, integra)
        anterior_seq, anterior_hash = seq, linha["hash"]
    if not ancora_vista:
        assert ancora is not None
        cadeia.problemas.append(
            Problema(
                "ausente",
                f"a cadeia termina na posição {anterior_seq}, antes da âncora anotada "
                f"(posição {ancora[0]}): registros finais apagados",
            )
        )
    cadeia.cabeca = (anterior_seq, anterior_hash) if cadeia.total else None
    return cadeia


def _adulterar_ultimo(cadeia: Cadeia) -> None:
    """The step the last row gave its record: not to be trusted (that row changed)."""
    if cadeia.ultimo is not None:
        chave, indice = cadeia.ultimo
        passo = cadeia.historias[chave][indice]
        cadeia.historias[chave][indice] = replace(passo, operacao=ADULTERADO)


def _historia(cadeia: Cadeia, linha: Mapping[Any, Any], integra: bool) -> None:
    """A row's step in its record's history (an :data:`ADULTERADO` one, if the row itself
    does not match its hash: the record it vouches for is not trusted either)."""
    tabela, registro_id = linha.get("tabela"), linha.get("registro_id")
    cadeia.ultimo = None
    if tabela is not None and registro_id is not None:
        chave = (tabela, int(registro_id))
        operacao = str(linha.get("operacao")) if integra else ADULTERADO
        passos = cadeia.historias.setdefault(chave, [])
        passos.append(Passo(linha["seq"], operacao, linha.get("hash_estado"), linha["id"]))
        cadeia.ultimo = (chave, len(passos) - 1)
        return
    caso_id = linha["caso_id"]
    if tabela is None and caso_id is not None:  # a first-format row
        if linha["acao"] == "criar":
            hash_criado = hash_caso_criado(linha["detalhe"])
            if hash_criado is not None:
                cadeia.legado[int(caso_id)] = hash_criado
        elif linha["acao"] == "excluir":
            cadeia.legado.pop(int(caso_id), None)
