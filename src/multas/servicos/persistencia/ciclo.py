"""Stored processos (with their events, in order) and the distributor's ledger.

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

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.ids import id_valido
from multas.servicos.persistencia import USUARIO_PADRAO, Repositorio, cnpj_sql, escopo_sql
from multas.servicos.persistencia.integridade import Problema
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo, EventoSalvo, ProcessoSalvo
from multas.servicos.persistencia.registros import (
    RECURSOS,
    Escrita,
    RegistroAlterado,
    conferir,
    exigir_conferido,
    validar_texto,
    vivos,
)

#: the longest processo ``id`` (the ANP's process number is a few dozen characters)
LIMITE_ID = 200
#: the audit action of what a file import writes (:meth:`RepositorioCiclo.importar_processos`)
ACAO_IMPORTAR = "processo_importar"
#: what a file import writes: the processos to create (each the keyword arguments of
#: :meth:`RepositorioCiclo.criar_processo`), by stored processo id the events to append, and
#: the links to make: an anp processo's key → (its list processo's key, what the caller
#: passes back to its check of the link, such as the row that asks for it)
Importacao = tuple[
    Sequence[Mapping[str, Any]],
    Mapping[int, Sequence[tuple[str, date]]],
    Mapping[str, tuple[str, Any]],
]
_INTEIRO = re.compile(r"-?[1-9][0-9]*|0")


def chave_da_referencia(identificador: object) -> str | None:
    """The key a file import finds a stored processo by: its § 6 ``id`` (the ANP's process
    number, ``referencia`` in the file), a text as it is, an integer in decimal, so that ``123``
    and ``"123"`` are one key; ``None`` for a processo without one. Choice: a blank text (empty,
    or only spaces) is no reference, as the page's form and the import read an empty cell: it
    is stored and echoed as given, but never found, and never taken (one processo per
    reference, :func:`processo_com_a_referencia`).

    >>> chave_da_referencia(123), chave_da_referencia("48610.000123/2024-11")
    ('123', '48610.000123/2024-11')
    >>> chave_da_referencia(None) is None, chave_da_referencia(" ") is None
    (True, True)
    """
    if isinstance(identificador, bool) or identificador is None:
        return None
    if isinstance(identificador, str) and not identificador.strip():
        return None
    if isinstance(identificador, int | str):
        return str(identificador)
    return None


def chave_do_cnpj(cnpj: str) -> str:
    """The ledger's key of a CNPJ as given (issue 19, item 3): :func:`multas.nucleo.cnpj.normalizar`,
    so that any spelling of one CNPJ is one distributor. A text that normalises to nothing
    (only punctuation and spaces) is refused: it cannot be a key.

    >>> chave_do_cnpj(" 12.abc.345/01de-35 ")
    '12ABC34501DE35'
    """
    validar_texto(cnpj, "cnpj", 32)
    chave = normalizar_cnpj(cnpj)
    if not chave:
        raise EntradaInvalida("cnpj", "o CNPJ não tem nenhum caractere além de pontuação e espaços")
    return chave


def grafias_da_busca(cnpj: str) -> list[str]:
    """The stored ``cnpj`` values a lookup by this text matches: the normalised key and, when
    it differs, the text exactly as given. The second finds a row migration r0008 left as it
    was stored (one that would have collided with another once normalised: see
    :meth:`RepositorioCiclo.colisoes`); every row written since holds the key.

    >>> grafias_da_busca("11.222.333/0001-81"), grafias_da_busca("11222333000181")
    (['11222333000181', '11.222.333/0001-81'], ['11222333000181'])
    """
    validar_texto(cnpj, "cnpj", 64)
    chave = normalizar_cnpj(cnpj)
    return [g for g in dict.fromkeys((chave, cnpj)) if g]


def processo_com_a_referencia(
    sessao: Session, identificador: object, exceto: int | None = None
) -> tuple[int, bool] | None:
    """The processo outside the bin that holds this § 6 ``id`` (its key,
    :func:`chave_da_referencia`: ``123`` and ``"123"`` are one), whoever's client it is, other
    than ``exceto``: (its number, whether the scope in force sees it); ``None`` if none does.
    One the reader sees comes first (a database written before the rule may hold two).

    The one check of the rule "one processo per ANP reference" (issue 19, item 4: the
    ``referencia`` is unique), used where a processo takes a reference: when it is created
    (:meth:`RepositorioCiclo._criar_processo_em`, by every entry point), by a file import
    (:meth:`RepositorioCiclo.importar_processos`, so that its error names the line) and when it
    comes back from the bin (:mod:`multas.servicos.persistencia.lixeira`). It is race-free because it
    runs inside a write, after the chain's lock that serialises every writer. Choice: the
    check is not limited by the client's scope (a reference is the ANP's, of one process), but
    it tells whether the reader may see the holder, so that an error names another client's
    processo by neither number nor CNPJ."""
    chave = chave_da_referencia(identificador)
    if chave is None:
        return None
    consulta = select(ProcessoSalvo.id).where(
        ProcessoSalvo.identificador.in_(_gravados(chave)), vivos(ProcessoSalvo)
    )
    if exceto is not None:
        consulta = consulta.where(ProcessoSalvo.id != exceto)
    consulta = consulta.order_by(ProcessoSalvo.id).limit(1)
    visto = sessao.scalar(consulta)
    if visto is not None:
        return int(visto), True
    with escopo_sql.limitado(None):
        oculto = sessao.scalar(consulta)
    return None if oculto is None else (int(oculto), False)


def referencia_em_uso(
    sessao: Session, identificador: object, exceto: int | None = None
) -> str | None:
    """What the user reads (pt-BR) when this ``id`` is taken (:func:`processo_com_a_referencia`):
    the holder's number only if the reader sees it; ``None`` if it is free."""
    achado = processo_com_a_referencia(sessao, identificador, exceto)
    if achado is None:
        return None
    numero, visivel = achado
    quem = f"o processo nº {numero}" if visivel else "outro processo"
    return (
        f"{quem} já tem a referência {mostrar_valor(chave_da_referencia(identificador))}: "
        "cada processo da ANP fica em um só processo salvo (acrescente os eventos a ele)"
    )


def recusar_referencia_em_uso(
    sessao: Session, identificador: object, campo: str = "id", exceto: int | None = None
) -> None:
    """:func:`referencia_em_uso` as the error naming ``campo``."""
    mensagem = referencia_em_uso(sessao, identificador, exceto)
    if mensagem is not None:
        raise EntradaInvalida(campo, mensagem)


def _gravados(chave: str) -> list[str]:
    """The stored forms (JSON text, as :meth:`RepositorioCiclo._criar_processo_em` writes
    them) of the identifiers with this key: the text, and the integer when it is one."""
    formas = [json.dumps(chave)]
    if _INTEIRO.fullmatch(chave):
        formas.append(chave)
    return formas


@dataclass(frozen=True, slots=True)
class EventoArmazenado:
    evento: str
    data: date
    usuario: str
    criado_em: datetime


@dataclass(frozen=True, slots=True)
class ProcessoArmazenado:
    id: int
    tipo: str
    identificador: Any
    cnpj: str | None
    nome: str | None
    calendario: str
    #: anp: spec § 6's ``valor_multa`` (an amount, as text)
    valor_multa: str | None
    #: spec § 6's ``dias_sem_expediente`` as stored (a list of ISO dates; what § 6 reads back)
    dias_sem_expediente: Any
    caso_id: int | None
    usuario: str
    criado_em: datetime
    atualizado_em: datetime
    eventos: tuple[EventoArmazenado, ...]
    #: anp: the linked renovabio.lista processo (its stored id), if any
    lista_id: int | None = None
    #: in a listing: why this stored processo cannot be trusted (pt-BR), if it cannot
    erro: str | None = None

    def como_processo(self, ate: date | None = None) -> dict[str, Any]:
        """The processo of spec § 6 (events up to ``ate``, when given)."""
        dados: dict[str, Any] = {}
        if self.identificador is not None:
            dados["id"] = self.identificador
        if self.cnpj is not None:
            dados["cnpj"] = self.cnpj
        if self.nome is not None:
            dados["nome"] = self.nome
        dados["tipo"] = self.tipo
        dados["eventos"] = [
            {"evento": e.evento, "data": e.data.isoformat()}
            for e in self.eventos
            if ate is None or e.data <= ate
        ]
        dados["interpretacao"] = {"calendario": self.calendario}
        if self.dias_sem_expediente is not None:
            dados["dias_sem_expediente"] = self.dias_sem_expediente
        return dados


@dataclass(frozen=True, slots=True)
class AnoArmazenado:
    cnpj: str
    ano: int
    nome: str | None
    entrada: dict[str, Any]
    usuario: str
    criado_em: datetime
    atualizado_em: datetime
    erro: str | None = None


def _json(texto: str | None) -> Any:
    """A stored JSON column (the identifier, the list of days) as § 6 reads it; text that is
    not JSON comes back as it is, for § 6 to refuse with its own error."""
    if texto is None:
        return None
    try:
        return json.loads(texto)
    except ValueError:
        return texto


def texto_dos_dias(dias: Iterable[date]) -> str | None:
    """The stored form of ``dias_sem_expediente``: a JSON list of ISO dates, sorted, each once;
    ``None`` (NULL) for none."""
    ordenados = sorted(set(dias))
    if not ordenados:
        return None
    return json.dumps([d.isoformat() for d in ordenados], separators=(",", ":"))


def _processo(linha: ProcessoSalvo, erro: str | None = None) -> ProcessoArmazenado:
    return ProcessoArmazenado(
        id=linha.id,
        tipo=linha.tipo,
        identificador=_json(linha.identificador),
        cnpj=linha.cnpj,
        nome=linha.nome,
        calendario=linha.calendario,
        valor_multa=linha.valor_multa,
        dias_sem_expediente=_json(linha.dias_sem_expediente),
        caso_id=linha.caso_id,
        usuario=linha.usuario,
        criado_em=linha.criado_em,
        atualizado_em=linha.atualizado_em,
        eventos=tuple(
            EventoArmazenado(e.evento, e.data, e.usuario, e.criado_em) for e in linha.eventos
        ),
        lista_id=linha.lista_id,
        erro=erro,
    )


def _ano(linha: AnoCarteiraSalvo, erro: str | None = None) -> AnoArmazenado:
    try:
        entrada = json.loads(linha.entrada)
    except ValueError:
        entrada, erro = {}, erro or "entrada gravada ilegível"
    return AnoArmazenado(
        cnpj=linha.cnpj,
        ano=linha.ano,
        nome=linha.nome,
        entrada=entrada if isinstance(entrada, dict) else {},
        usuario=linha.usuario,
        criado_em=linha.criado_em,
        atualizado_em=linha.atualizado_em,
        erro=erro,
    )


def _mensagens(problemas: dict[int, Any]) -> dict[int, str]:
    return {i: p.mensagem for i, p in problemas.items()}


class RepositorioCiclo:
    """Processos and the ledger, in the same database as the saved cases (and the same audit
    chain: every record is in it)."""

    def __init__(self, repositorio: Repositorio) -> None:
        self.repositorio = repositorio

    # --- processos ---------------------------------------------------------------------------

    def criar_processo(
        self,
        *,
        tipo: str,
        calendario: str,
        eventos: list[tuple[str, date]],
        identificador: Any = None,
        cnpj: str | None = None,
        nome: str | None = None,
        valor_multa: str | None = None,
        dias_sem_expediente: str | None = None,
        caso_id: int | None = None,
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado:
        """Store a processo already validated by the caller (``dias_sem_expediente`` in its
        stored form, :func:`texto_dos_dias`)."""
        with self.repositorio.escrita(usuario) as escrita:
            return self._criar_processo_em(
                escrita,
                tipo=tipo,
                calendario=calendario,
                eventos=eventos,
                identificador=identificador,
                cnpj=cnpj,
                nome=nome,
                valor_multa=valor_multa,
                dias_sem_expediente=dias_sem_expediente,
                caso_id=caso_id,
            )

    def _criar_processo_em(
        self,
        escrita: Escrita,
        *,
        tipo: str,
        calendario: str,
        eventos: list[tuple[str, date]],
        identificador: Any = None,
        cnpj: str | None = None,
        nome: str | None = None,
        valor_multa: str | None = None,
        dias_sem_expediente: str | None = None,
        caso_id: int | None = None,
        acao: str = "processo_criar",
    ) -> ProcessoArmazenado:
        """:meth:`criar_processo` inside a transaction already open (``acao``: the audit's)."""
        if isinstance(identificador, str):  # stored as JSON: the text itself is checked here
            validar_texto(identificador, "id", LIMITE_ID)
        campo = "referencia" if acao == ACAO_IMPORTAR else "id"
        recusar_referencia_em_uso(escrita.sessao, identificador, campo)
        linha = escrita.inserir(
            ProcessoSalvo(
                tipo=tipo,
                identificador=None if identificador is None else json.dumps(identificador),
                cnpj=cnpj,
                nome=nome,
                calendario=calendario,
                valor_multa=valor_multa,
                dias_sem_expediente=dias_sem_expediente,
                caso_id=caso_id,
                usuario=escrita.usuario,
                criado_em=escrita.momento,
                atualizado_em=escrita.momento,
            ),
            acao,
            {"tipo": tipo, "eventos": len(eventos)},
            regime=tipo,
        )
        for posicao, (nome_evento, data) in enumerate(eventos):
            self._novo_evento(escrita, linha, posicao, nome_evento, data, acao)
        return self._recarregado(escrita.sessao, linha)

    @staticmethod
    def _novo_evento(
        escrita: Escrita, linha: ProcessoSalvo, posicao: int, evento: str, data: date, acao: str
    ) -> None:
        escrita.inserir(
            EventoSalvo(
                processo_id=linha.id,
                posicao=posicao,
                evento=evento,
                data=data,
                usuario=escrita.usuario,
                criado_em=escrita.momento,
            ),
            acao,
            {"evento": evento, "data": data.isoformat()},
        )

    @staticmethod
    def _recarregado(sessao: Session, linha: ProcessoSalvo) -> ProcessoArmazenado:
        sessao.flush()
        sessao.refresh(linha, ["eventos"])
        return _processo(linha)

    def _consulta(self) -> Any:
        # a processo in the bin is in no view (issue 20, item 4)
        return (
            select(ProcessoSalvo)
            .where(vivos(ProcessoSalvo))
            .options(selectinload(ProcessoSalvo.eventos))
        )

    def obter_processo(self, processo_id: int) -> ProcessoArmazenado | None:
        """The stored processo (``RegistroAlterado`` when it does not match its history)."""
        if not id_valido(processo_id):
            return None
        with self.repositorio.leitura() as sessao:
            linha = sessao.scalars(self._consulta().where(ProcessoSalvo.id == processo_id)).first()
            if linha is None:
                return None
            exigir_conferido(sessao, RECURSOS["processos"], linha)
            return _processo(linha)

    def listar_processos(
        self,
        limite: int | None = 50,
        deslocamento: int = 0,
        tipo: str | None = None,
        cnpj: str | None = None,
    ) -> list[ProcessoArmazenado]:
        """Newest first; a processo that does not match its history is listed with its
        ``erro``."""
        consulta = self._consulta().order_by(ProcessoSalvo.id.desc()).offset(deslocamento)
        if limite is not None:
            consulta = consulta.limit(limite)
        consulta = self._filtros(consulta, tipo, cnpj)
        with self.repositorio.leitura() as sessao:
            linhas = list(sessao.scalars(consulta))
            erros = _mensagens(conferir(sessao, RECURSOS["processos"], linhas))
            return [_processo(linha, erros.get(linha.id)) for linha in linhas]

    @staticmethod
    def _filtros(consulta: Any, tipo: str | None, cnpj: str | None) -> Any:
        consulta = consulta.where(vivos(ProcessoSalvo))
        if tipo:
            consulta = consulta.where(ProcessoSalvo.tipo == validar_texto(tipo, "tipo", 64))
        if cnpj:
            # any spelling finds the processo: both sides in the normal form of
            # multas.nucleo.cnpj.normalizar (the stored CNPJ stays as it was given)
            consulta = consulta.where(
                cnpj_sql.igual(ProcessoSalvo.cnpj, validar_texto(cnpj, "cnpj", 64))
            )
        return consulta

    def contar_processos(self, tipo: str | None = None, cnpj: str | None = None) -> int:
        consulta = self._filtros(select(func.count()).select_from(ProcessoSalvo), tipo, cnpj)
        with self.repositorio.leitura() as sessao:
            return int(sessao.scalar(consulta) or 0)

    def _travado(self, escrita: Escrita, processo_id: int) -> ProcessoSalvo | None:
        """The processo and its events, locked for a change, and checked: a change is never
        made on top of a record that does not match its history."""
        linha = escrita.travar(ProcessoSalvo, processo_id)
        if linha is None:
            return None
        escrita.sessao.refresh(linha, ["eventos"])
        exigir_conferido(escrita.sessao, RECURSOS["processos"], linha)
        return linha

    def acrescentar_evento(
        self,
        processo_id: int,
        evento: str,
        data: date,
        validar: Callable[[ProcessoArmazenado, str, date], None],
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado | None:
        """Append one event after ``validar`` accepts the whole new list; ``None`` when the
        processo does not exist. A refusal (the callback's exception) stores nothing."""
        with self.repositorio.escrita(usuario) as escrita:
            linha = self._travado(escrita, processo_id)
            if linha is None:
                return None
            validar(_processo(linha), evento, data)
            self._novo_evento(escrita, linha, len(linha.eventos), evento, data, "processo_evento")
            linha.atualizado_em = escrita.momento
            escrita.alterar(linha, "processo_evento", None, regime=linha.tipo)
            return self._recarregado(escrita.sessao, linha)

    def importar_processos(
        self,
        chaves: Sequence[str],
        planejar: Callable[
            [Mapping[str, list[ProcessoArmazenado]], Callable[[str], str | None]], Importacao
        ],
        usuario: str = USUARIO_PADRAO,
        conferir_vinculo: Callable[
            [Any, ProcessoArmazenado, ProcessoArmazenado, ProcessoArmazenado | None], None
        ] = lambda *_: None,
    ) -> tuple[list[ProcessoArmazenado], list[ProcessoArmazenado], int]:
        """A file import, in one transaction: all of it or nothing. The stored processos whose
        ``id`` has one of ``chaves`` (:func:`chave_da_referencia`) are read, locked and checked
        against their history, as :meth:`acrescentar_evento` does, and given to ``planejar``
        (key → the stored processos with it; more than one is for the caller to refuse), with
        the rule of one processo per reference (:func:`referencia_em_uso`, for a key that no
        processo given holds: one the reader does not see may), which validates the whole file
        against them and returns what to write (:data:`Importacao`); its exception stores
        nothing. Then the new processos are created and the events
        appended after each one's last, audited as ``processo_importar``; last, each link is
        made (``processo_vincular``, as :meth:`vincular`) once ``conferir_vinculo`` accepts it
        (given what the plan gave with the link, the anp processo, the list processo and the
        anp processo already linked to that one, if any; its exception stores nothing).
        Returns (created, appended to, links made)."""
        with self.repositorio.escrita(usuario) as escrita:
            linhas = self._pelas_chaves(escrita, chaves)
            existentes: dict[str, list[ProcessoArmazenado]] = {}
            for linha in linhas.values():
                armazenado = _processo(linha)
                chave = chave_da_referencia(armazenado.identificador)
                if chave is not None:
                    existentes.setdefault(chave, []).append(armazenado)
            novos, acrescimos, vinculos = planejar(
                existentes, lambda chave: referencia_em_uso(escrita.sessao, chave)
            )
            criados = [
                self._criar_processo_em(escrita, **campos, acao=ACAO_IMPORTAR) for campos in novos
            ]
            alterados = []
            for processo_id, eventos in acrescimos.items():
                linha = linhas[processo_id]
                for posicao, (evento, data) in enumerate(eventos, start=len(linha.eventos)):
                    self._novo_evento(escrita, linha, posicao, evento, data, ACAO_IMPORTAR)
                linha.atualizado_em = escrita.momento
                escrita.alterar(linha, ACAO_IMPORTAR, {"eventos": len(eventos)}, regime=linha.tipo)
                alterados.append(self._recarregado(escrita.sessao, linha))
            feitos = self._vincular_importados(
                escrita, [*linhas.values()], criados, vinculos, conferir_vinculo
            )
            return criados, alterados, feitos

    def _vincular_importados(
        self,
        escrita: Escrita,
        salvas: Sequence[ProcessoSalvo],
        criados: Sequence[ProcessoArmazenado],
        vinculos: Mapping[str, tuple[str, Any]],
        conferir: Callable[
            [Any, ProcessoArmazenado, ProcessoArmazenado, ProcessoArmazenado | None], None
        ],
    ) -> int:
        """The links of an import (see :meth:`importar_processos`); how many were made."""
        if not vinculos:
            return 0
        por_chave: dict[str, ProcessoSalvo] = {}
        novas = [escrita.sessao.get(ProcessoSalvo, p.id) for p in criados]
        for linha in [*salvas, *(n for n in novas if n is not None)]:
            chave = chave_da_referencia(_json(linha.identificador))
            if chave is not None:
                por_chave[chave] = linha
        feitos = 0
        for chave_anp, (chave_lista, origem) in vinculos.items():
            anp, lista = por_chave[chave_anp], por_chave[chave_lista]
            escrita.sessao.flush()
            encontrado = escrita.sessao.scalar(
                select(ProcessoSalvo.id).where(
                    ProcessoSalvo.lista_id == lista.id,
                    ProcessoSalvo.id != anp.id,
                    vivos(ProcessoSalvo),
                )
            )
            ocupante = None
            if encontrado is not None:
                salvo = escrita.sessao.get(ProcessoSalvo, int(encontrado))
                ocupante = None if salvo is None else _processo(salvo)
            conferir(origem, _processo(anp), _processo(lista), ocupante)
            if anp.lista_id == lista.id:
                continue
            anterior, anp.lista_id = anp.lista_id, lista.id
            anp.atualizado_em = escrita.momento
            escrita.alterar(
                anp,
                "processo_vincular",
                {"lista_id": lista.id, "anterior": anterior},
                regime=anp.tipo,
            )
            feitos += 1
        return feitos

    def _pelas_chaves(self, escrita: Escrita, chaves: Sequence[str]) -> dict[int, ProcessoSalvo]:
        """The stored processos with these keys, each locked and checked (:meth:`_travado`)."""
        formas = sorted({forma for chave in chaves for forma in _gravados(chave)})
        ids: set[int] = set()
        for inicio in range(0, len(formas), 500):
            ids.update(
                escrita.sessao.scalars(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.identificador.in_(formas[inicio : inicio + 500])
                    )
                )
            )
        return {i: linha for i, linha in self._travados(escrita, ids).items() if linha}

    def _travados(self, escrita: Escrita, ids: Iterable[int]) -> dict[int, ProcessoSalvo | None]:
        """Several processos locked (:meth:`_travado`) always in id order, so that two
        transactions that touch the same processos never wait for each other crosswise."""
        return {
            processo_id: self._travado(escrita, processo_id) for processo_id in sorted(set(ids))
        }

    def todos_os_processos(self) -> list[ProcessoArmazenado]:
        """Every stored processo, oldest first (the export), each checked against its
        history: ``RegistroAlterado`` for the first that does not match, so an export never
        writes out a record that cannot be trusted, nor leaves one out unsaid."""
        with self.repositorio.leitura() as sessao:
            linhas = list(sessao.scalars(self._consulta().order_by(ProcessoSalvo.id)))
            problemas = conferir(sessao, RECURSOS["processos"], linhas)
            if problemas:
                raise RegistroAlterado(problemas[min(problemas)])
            return [_processo(linha) for linha in linhas]

    def alterar_processo(
        self,
        processo_id: int,
        dias_sem_expediente: str | None,
        validar: Callable[[ProcessoArmazenado], None],
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado | None:
        """Replace the processo's ``dias_sem_expediente`` (the stored form,
        :func:`texto_dos_dias`) after ``validar`` accepts the processo as it would become;
        ``None`` when the processo does not exist. A refusal stores nothing."""
        with self.repositorio.escrita(usuario) as escrita:
            linha = self._travado(escrita, processo_id)
            if linha is None:
                return None
            validar(replace(_processo(linha), dias_sem_expediente=_json(dias_sem_expediente)))
            linha.dias_sem_expediente = dias_sem_expediente
            linha.atualizado_em = escrita.momento
            escrita.alterar(
                linha,
                "processo_alterar",
                {"dias_sem_expediente": _json(dias_sem_expediente)},
                regime=linha.tipo,
            )
            return self._recarregado(escrita.sessao, linha)

    def remover_ultimo_evento(
        self,
        processo_id: int,
        usuario: str = USUARIO_PADRAO,
        validar: Callable[[ProcessoArmazenado], None] | None = None,
        esperado: str | None = None,
    ) -> ProcessoArmazenado | None:
        """Undo the last event (a correction); the first event stays. ``validar`` sees the
        processo as it would be, and may refuse it. ``esperado``: undo only if the last event
        is this one (a retried or concurrent undo then never removes a second event).
        ``None``: no processo."""
        with self.repositorio.escrita(usuario) as escrita:
            linha = self._travado(escrita, processo_id)
            if linha is None:
                return None
            ultimo = linha.eventos[-1]
            if esperado is not None and (ultimo.evento != esperado or len(linha.eventos) <= 1):
                raise EntradaInvalida(
                    "evento",
                    f"o último evento do processo é '{ultimo.evento}', não '{esperado}'"
                    if ultimo.evento != esperado
                    else "o primeiro evento de um processo não se desfaz",
                )
            if len(linha.eventos) <= 1:
                return _processo(linha)
            antes = _processo(linha)
            if validar is not None:
                validar(replace(antes, eventos=antes.eventos[:-1]))
            escrita.excluir(
                EventoSalvo,
                ultimo.id,
                "processo_remover_evento",
                {"evento": ultimo.evento, "data": ultimo.data.isoformat()},
            )
            escrita.sessao.expire(linha, ["eventos"])
            linha.atualizado_em = escrita.momento
            escrita.alterar(linha, "processo_remover_evento", regime=linha.tipo)
            return self._recarregado(escrita.sessao, linha)

    # --- linked processos (issue 19, item 5) ------------------------------------------------

    def vinculado(self, armazenado: ProcessoArmazenado) -> int | None:
        """The id of the processo linked to this one: an anp processo's ``lista_id``, or the
        anp processo that names this list processo. ``None`` too when the reader may not see
        it (another client's, for a user limited to some clients)."""
        with self.repositorio.leitura() as sessao:
            if armazenado.lista_id is not None:
                visivel = sessao.scalar(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.id == armazenado.lista_id, vivos(ProcessoSalvo)
                    )
                )
                return None if visivel is None else int(visivel)
            encontrado = sessao.scalar(
                select(ProcessoSalvo.id).where(
                    ProcessoSalvo.lista_id == armazenado.id, vivos(ProcessoSalvo)
                )
            )
            return None if encontrado is None else int(encontrado)

    def vincular(
        self,
        processo_id: int,
        lista_id: int | None,
        validar: Callable[[ProcessoArmazenado, ProcessoArmazenado | None, int | None], None],
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado | None:
        """Link the processo to the list processo ``lista_id`` (``None``: undo its link), after
        ``validar`` accepts (the processo, the list processo or ``None`` when there is none,
        the id of the anp processo already linked to that list processo, if any). Both are
        locked in id order and checked against their history; the change is audited
        (``processo_vincular`` or ``processo_desvincular``). Linking to the processo it is
        already linked to stores nothing. ``None``: no processo ``processo_id``."""
        with self.repositorio.escrita(usuario) as escrita:
            ids = [processo_id] + ([lista_id] if lista_id is not None else [])
            travados = self._travados(escrita, ids)
            linha = travados[processo_id]
            if linha is None:
                return None
            lista = travados.get(lista_id) if lista_id is not None else None
            ocupante = None
            if lista_id is not None:
                encontrado = escrita.sessao.scalar(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.lista_id == lista_id,
                        ProcessoSalvo.id != processo_id,
                        vivos(ProcessoSalvo),
                    )
                )
                ocupante = None if encontrado is None else int(encontrado)
            validar(_processo(linha), None if lista is None else _processo(lista), ocupante)
            if linha.lista_id == lista_id:
                return _processo(linha)
            anterior = linha.lista_id
            linha.lista_id = lista_id
            linha.atualizado_em = escrita.momento
            escrita.alterar(
                linha,
                "processo_vincular" if lista_id is not None else "processo_desvincular",
                {"lista_id": lista_id, "anterior": anterior},
                regime=linha.tipo,
            )
            return self._recarregado(escrita.sessao, linha)

    def acrescentar_em_par(
        self,
        processo_id: int,
        planejar: Callable[
            [ProcessoArmazenado, ProcessoArmazenado | None],
            Mapping[int, Sequence[tuple[str, date]]],
        ],
        acao: str,
        usuario: str = USUARIO_PADRAO,
    ) -> tuple[ProcessoArmazenado, ProcessoArmazenado | None] | None:
        """Events appended to a processo and to the one linked to it, in one transaction: all
        or nothing. Both are locked in id order and checked against their history, then given
        to ``planejar`` (the processo, the linked one or ``None``), which validates and returns
        the events to append to each (by id; an empty list appends nothing to that one); its
        exception stores nothing. Returns the two as stored after it; ``None``: no processo
        ``processo_id``."""
        with self.repositorio.escrita(usuario) as escrita:
            # writers are serialised by the chain's lock taken when the transaction began, so
            # the link read here is the one the locks below keep
            encontrada = (
                escrita.sessao.scalars(
                    select(ProcessoSalvo).where(
                        ProcessoSalvo.id == processo_id, vivos(ProcessoSalvo)
                    )
                ).first()
                if id_valido(processo_id)
                else None
            )
            if encontrada is None:
                return None
            par = encontrada.lista_id
            if par is None:
                outro = escrita.sessao.scalar(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.lista_id == processo_id, vivos(ProcessoSalvo)
                    )
                )
                par = None if outro is None else int(outro)
            travados = self._travados(escrita, [processo_id] + ([par] if par else []))
            linha, vinculada = travados[processo_id], travados.get(par) if par else None
            assert linha is not None
            acrescimos = planejar(
                _processo(linha), None if vinculada is None else _processo(vinculada)
            )
            linhas = {linha.id: linha} | ({vinculada.id: vinculada} if vinculada else {})
            for alvo_id in sorted(acrescimos):
                eventos = acrescimos[alvo_id]
                if not eventos:
                    continue
                alvo = linhas[alvo_id]
                for posicao, (evento, data) in enumerate(eventos, start=len(alvo.eventos)):
                    self._novo_evento(escrita, alvo, posicao, evento, data, acao)
                alvo.atualizado_em = escrita.momento
                escrita.alterar(alvo, acao, {"eventos": len(eventos)}, regime=alvo.tipo)
            recarregados = {i: self._recarregado(escrita.sessao, x) for i, x in linhas.items()}
            return recarregados[processo_id], (
                recarregados[vinculada.id] if vinculada is not None else None
            )

    def excluir_processo(self, processo_id: int, usuario: str = USUARIO_PADRAO) -> bool:
        """Of concurrent deletes of one processo, exactly one finds it."""
        with self.repositorio.escrita(usuario) as escrita:
            excluido = escrita.excluir(ProcessoSalvo, processo_id, "processo_excluir")
            return excluido is not None

    # --- the ledger ------------------------------------------------------------------------

    def salvar_ano(
        self,
        cnpj: str,
        ano: int,
        nome: str | None,
        entrada: dict[str, Any],
        usuario: str = USUARIO_PADRAO,
    ) -> AnoArmazenado:
        """Create or replace one year of a distributor's ledger."""
        return self.salvar_anos([(cnpj, ano, nome, entrada)], usuario)[0]

    def salvar_anos(
        self,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        usuario: str = USUARIO_PADRAO,
        validar: Callable[[Callable[[str], list[AnoArmazenado]]], None] | None = None,
    ) -> list[AnoArmazenado]:
        """Create or replace several years (cnpj, year, name, input) in one transaction: all
        of them or none. ``validar`` gets the stored years of a CNPJ (as they are inside this
        transaction, before the change, each checked against its history) and may refuse the
        whole import. The stored years are read in a few queries, and the new ones inserted
        together: an import of thousands of rows holds the lock briefly."""
        with self.repositorio.escrita(usuario) as escrita:
            return self._salvar_anos_em(escrita, anos, validar)

    def salvar_anos_e_processos(
        self,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        processos: Sequence[Mapping[str, Any]],
        usuario: str = USUARIO_PADRAO,
        validar: Callable[[Callable[[str], list[AnoArmazenado]]], None] | None = None,
    ) -> tuple[list[AnoArmazenado], list[ProcessoArmazenado]]:
        """Years of the ledger (as :meth:`salvar_anos`) and new processos (each the keyword
        arguments of :meth:`criar_processo`, validated by the caller), in one transaction."""
        with self.repositorio.escrita(usuario) as escrita:
            salvos = self._salvar_anos_em(escrita, anos, validar)
            criados = [self._criar_processo_em(escrita, **campos) for campos in processos]
            return salvos, criados

    def _salvar_anos_em(
        self,
        escrita: Escrita,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        validar: Callable[[Callable[[str], list[AnoArmazenado]]], None] | None,
    ) -> list[AnoArmazenado]:
        """:meth:`salvar_anos` inside a transaction already open."""
        usuario = escrita.usuario
        chaves = [chave_do_cnpj(cnpj) for cnpj, *_ in anos]
        self._recusar_colisao(escrita.sessao, anos, chaves)
        guardados = self._anos_de(escrita.sessao, sorted(set(chaves)))
        if validar is not None:
            validar(
                lambda cnpj: [_ano(linha) for linha in guardados.get(normalizar_cnpj(cnpj), [])]
            )
        existentes = {
            (linha.cnpj, linha.ano): linha for linhas in guardados.values() for linha in linhas
        }
        novos, salvos = [], []
        for chave, (_, ano, nome, entrada) in zip(chaves, anos, strict=True):
            texto = json.dumps(entrada, ensure_ascii=False)
            linha = existentes.get((chave, ano))
            detalhe = {"cnpj": chave, "ano": ano}
            if linha is None:
                linha = AnoCarteiraSalvo(
                    cnpj=chave,
                    ano=ano,
                    nome=nome,
                    entrada=texto,
                    usuario=usuario,
                    criado_em=escrita.momento,
                    atualizado_em=escrita.momento,
                )
                novos.append((linha, detalhe))
                existentes[(chave, ano)] = linha
            else:
                linha.nome, linha.entrada = nome, texto
                linha.usuario, linha.atualizado_em = usuario, escrita.momento
                if linha.id is not None:
                    escrita.alterar(linha, "carteira_alterar", detalhe)
            salvos.append(linha)
        escrita.inserir_varios(novos, "carteira_criar")
        return [_ano(linha) for linha in salvos]

    @staticmethod
    def _recusar_colisao(
        sessao: Session,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        chaves: Sequence[str],
    ) -> None:
        """A year is not written while a row of it stored with exactly the spelling given,
        not its key, is still there (a collision migration r0008 left): the write would go to
        the key's row while a lookup by that spelling shows the other. The user resolves the
        collision first."""
        grafias = {cnpj for (cnpj, *_), chave in zip(anos, chaves, strict=True) if cnpj != chave}
        if not grafias:
            return
        pedidos = {(cnpj, ano) for cnpj, ano, *_ in anos}
        for inicio in range(0, len(grafias), 500):
            lote = sorted(grafias)[inicio : inicio + 500]
            for linha_id, cnpj, ano in sessao.execute(
                select(AnoCarteiraSalvo.id, AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano).where(
                    AnoCarteiraSalvo.cnpj.in_(lote), vivos(AnoCarteiraSalvo)
                )
            ):
                if (cnpj, ano) in pedidos:
                    raise EntradaInvalida(
                        "cnpj",
                        f"o ano {ano} do CNPJ {cnpj} está gravado com essa grafia, não com a "
                        f"chave normalizada {normalizar_cnpj(cnpj)} (linha nº {linha_id}, "
                        "deixada assim pela migração r0008 por colidir com outra): exclua-a "
                        f"ou corrija-a antes (multas carteira excluir '{cnpj}' --ano {ano}; multas "
                        "auditoria verificar a aponta)",
                    )

    def _anos_de(self, sessao: Session, cnpjs: Sequence[str]) -> dict[str, list[AnoCarteiraSalvo]]:
        """The stored years of these keys (:func:`chave_do_cnpj`), each checked against its
        history (a ledger is computed from all of its years: ``RegistroAlterado`` for one that
        does not match)."""
        linhas: list[AnoCarteiraSalvo] = []
        for inicio in range(0, len(cnpjs), 500):
            linhas += sessao.scalars(
                select(AnoCarteiraSalvo)
                .where(AnoCarteiraSalvo.cnpj.in_(cnpjs[inicio : inicio + 500]))
                .where(vivos(AnoCarteiraSalvo))
                .order_by(AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano)
            )
        problemas = conferir(sessao, RECURSOS["carteira_anos"], linhas)
        if problemas:
            raise RegistroAlterado(next(iter(problemas.values())))
        por_cnpj: dict[str, list[AnoCarteiraSalvo]] = {}
        for linha in linhas:
            por_cnpj.setdefault(linha.cnpj, []).append(linha)
        return por_cnpj

    def _anos(self, sessao: Session, cnpj: str) -> list[AnoCarteiraSalvo]:
        """The years a lookup by ``cnpj`` finds (:func:`grafias_da_busca`): the rows of its key
        and the rows stored with exactly this spelling (left as they were by migration r0008);
        of a year with both, the one stored with exactly this spelling, so that each row of
        an unresolved collision is seen by its own spelling."""
        grafias = grafias_da_busca(cnpj)
        consulta = (
            select(AnoCarteiraSalvo)
            .where(AnoCarteiraSalvo.cnpj.in_(grafias), vivos(AnoCarteiraSalvo))
            .order_by(AnoCarteiraSalvo.ano, AnoCarteiraSalvo.id)
        )
        por_ano: dict[int, AnoCarteiraSalvo] = {}
        for linha in sessao.scalars(consulta):
            if linha.ano not in por_ano or linha.cnpj == cnpj:
                por_ano[linha.ano] = linha
        return list(por_ano.values())

    def _anos_conferidos(self, sessao: Session, cnpj: str, exigir: bool) -> list[AnoArmazenado]:
        linhas = self._anos(sessao, cnpj)
        problemas = conferir(sessao, RECURSOS["carteira_anos"], linhas)
        if exigir and problemas:
            raise RegistroAlterado(next(iter(problemas.values())))
        erros = _mensagens(problemas)
        return [_ano(linha, erros.get(linha.id)) for linha in linhas]

    def anos_carteira(self, cnpj: str, exigir: bool = True) -> list[AnoArmazenado]:
        """A distributor's years: ``RegistroAlterado`` when one does not match its history (a
        ledger is computed from all of its years), or, with ``exigir=False``, that year with
        its ``erro``."""
        with self.repositorio.leitura() as sessao:
            return self._anos_conferidos(sessao, cnpj, exigir=exigir)

    def distribuidores(self) -> list[tuple[str, str | None, int, str | None]]:
        """Each CNPJ of the ledger: (cnpj, the latest name, how many years, the problem of a
        year that does not match its history, if any)."""
        with self.repositorio.leitura() as sessao:
            linhas = list(
                sessao.scalars(
                    select(AnoCarteiraSalvo)
                    .where(vivos(AnoCarteiraSalvo))
                    .order_by(AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano)
                )
            )
            erros = _mensagens(conferir(sessao, RECURSOS["carteira_anos"], linhas))
        resumo: dict[str, tuple[str | None, int, str | None]] = {}
        for linha in linhas:
            nome, n, erro = resumo.get(linha.cnpj, (None, 0, None))
            resumo[linha.cnpj] = (linha.nome or nome, n + 1, erro or erros.get(linha.id))
        return [(cnpj, nome, n, erro) for cnpj, (nome, n, erro) in resumo.items()]

    def excluir_ano(self, cnpj: str, ano: int, usuario: str = USUARIO_PADRAO) -> bool:
        """Delete one year: the row stored with exactly this spelling of the CNPJ, if there is
        one (how a collision left by migration r0008 is resolved), else the row of its key.
        Of concurrent deletes of one year, exactly one finds it."""
        grafias = grafias_da_busca(cnpj)
        with self.repositorio.escrita(usuario) as escrita:
            encontradas = {
                str(grafia): int(linha_id)
                for linha_id, grafia in escrita.sessao.execute(
                    select(AnoCarteiraSalvo.id, AnoCarteiraSalvo.cnpj).where(
                        AnoCarteiraSalvo.cnpj.in_(grafias),
                        AnoCarteiraSalvo.ano == ano,
                        vivos(AnoCarteiraSalvo),
                    )
                )
            }
            linha_id = encontradas.get(cnpj, encontradas.get(grafias[0] if grafias else ""))
            if linha_id is None:
                return False
            gravado = cnpj if cnpj in encontradas else grafias[0]
            excluido = escrita.excluir(
                AnoCarteiraSalvo,
                linha_id,
                "carteira_excluir",
                {"cnpj": gravado, "ano": ano},
            )
            return excluido is not None

    def colisoes(self) -> list[Problema]:
        """Every stored year whose ``cnpj`` is not its normalised key (issue 19, item 3): rows
        migration r0008 did not normalise because another row of the same year has the same
        key (it never merges them), or whose CNPJ normalises to nothing. ``multas auditoria
        verificar`` names each until one of the rows is deleted or corrected."""
        with self.repositorio.leitura() as sessao:
            linhas = [
                (int(i), str(cnpj), int(ano))
                for i, cnpj, ano in sessao.execute(
                    select(AnoCarteiraSalvo.id, AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano)
                    .where(vivos(AnoCarteiraSalvo))
                    .order_by(AnoCarteiraSalvo.id)
                )
            ]
        grupos: dict[tuple[str, int], list[tuple[int, str]]] = {}
        for linha_id, cnpj, ano in linhas:
            grupos.setdefault((normalizar_cnpj(cnpj), ano), []).append((linha_id, cnpj))
        problemas = []
        for (chave, ano), grupo in grupos.items():
            for linha_id, cnpj in grupo:
                if cnpj == chave:
                    continue
                outros = [(i, c) for i, c in grupo if i != linha_id]
                problemas.append(
                    Problema(
                        "colisão",
                        mensagem_de_colisao(linha_id, cnpj, ano, chave, outros),
                        tabela="carteira_anos",
                        id=linha_id,
                    )
                )
        return problemas


def mensagem_de_colisao(
    linha_id: int, cnpj: str, ano: int, chave: str, outros: Sequence[tuple[int, str]]
) -> str:
    """What ``multas auditoria verificar`` says of a stored year whose CNPJ is not its key
    (pt-BR): with which rows it collides and how to resolve it."""
    gravado = f"o ano {ano} da carteira gravado com o CNPJ {cnpj!r} (linha nº {linha_id})"
    if not chave:
        return (
            f"{gravado} não tem CNPJ válido como chave (só pontuação e espaços): exclua-o "
            f"(multas carteira excluir {cnpj!r} --ano {ano})"
        )
    if not outros:
        return (
            f"{gravado} não está na forma normalizada {chave}: salve o ano de novo (multas "
            "carteira salvar) e exclua a grafia antiga "
            f"(multas carteira excluir {cnpj!r} --ano {ano})"
        )
    lista = ", ".join(f"{c!r} (linha nº {i})" for i, c in outros)
    return (
        f"{gravado} tem a mesma chave normalizada ({chave}) que {lista}; a migração r0008 não "
        f"os juntou: exclua ou corrija um deles (multas carteira excluir {cnpj!r} --ano {ano} "
        "apaga a linha gravada com essa grafia)"
    )
