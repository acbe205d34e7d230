"""The stored form of a processo and its events, as the repository reads them back
(:class:`ProcessoArmazenado`, :class:`EventoArmazenado`) and as the service hands it a new one
to write (:class:`NovoProcesso`), with the JSON forms of the columns that hold JSON."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from multas.nucleo.ciclo.processo import (
    CAMPOS_PARCELAMENTO,
    LEITURAS_PROCESSO,
    EventoDatado,
    Processo,
)
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.dinheiro import para_json
from multas.servicos.persistencia.modelos_ciclo import ProcessoSalvo


@dataclass(frozen=True, slots=True)
class NovoProcesso:
    """A processo the service has read once and validated (spec § 6), in its stored form:
    what :meth:`RepositorioProcessos.criar_processo` writes (``dias_sem_expediente`` as
    :func:`texto_dos_dias` keeps it)."""

    tipo: str
    calendario: str
    eventos: tuple[tuple[str, date], ...]
    identificador: Any = None
    #: spec § 6.2 v4: the ``valor`` of each event, in the order of ``eventos`` (``None``:
    #: none has one)
    valores: tuple[str | None, ...] | None = None
    #: spec § 6.2 v4: the plan of each ``parcelamento`` event (JSON text), in the order of
    #: ``eventos`` (``None``: none has one)
    planos: tuple[str | None, ...] | None = None
    cnpj: str | None = None
    nome: str | None = None
    valor_multa: str | None = None
    dias_sem_expediente: str | None = None
    caso_id: int | None = None
    #: spec § 6.3 v4: ``{"regime", "ano_meta", "cnpj"}``, the fine it was opened for
    origem: Mapping[str, Any] | None = None
    #: the fields that differ from the defaults (:func:`leituras_do_processo`)
    leituras: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class EventoArmazenado:
    evento: str
    data: date
    usuario: str
    criado_em: datetime
    #: spec § 6.2 v4: a ``pagamento``'s amount, as stored
    valor: str | None = None
    #: spec § 6.2 v4: a ``parcelamento``'s plan, as stored (its fields, read back from JSON)
    plano: Any = None
    #: spec § 6.2 v4: its documents, as stored (``[{"sha256", "nome", "tipo", "bytes"}]``,
    #: read back from JSON)
    documentos: Any = None

    def como_dict(self) -> dict[str, Any]:
        """The event of spec § 6."""
        dados: dict[str, Any] = {"evento": self.evento, "data": self.data.isoformat()}
        if self.valor is not None:
            dados["valor"] = self.valor
        if isinstance(self.plano, Mapping):
            dados.update(self.plano)
        elif self.plano is not None:
            dados["plano"] = self.plano  # read back as stored, for § 6 to refuse
        if self.documentos is not None:
            dados["documentos"] = self.documentos
        return dados


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
    #: spec § 6.3 v4: the fine it was opened for, as stored
    origem: Any = None
    #: the fields that differ from the defaults, as stored (:func:`leituras_do_processo`)
    leituras: Any = None

    def como_processo(self, ate: date | None = None) -> dict[str, Any]:
        """The processo of spec § 6 (events up to ``ate``, when given)."""
        dados: dict[str, Any] = {}
        if self.identificador is not None:
            dados["id"] = self.identificador
        if self.cnpj is not None:
            dados["cnpj"] = self.cnpj
        if self.nome is not None:
            dados["nome"] = self.nome
        if self.origem is not None:
            dados["origem"] = self.origem
        dados["tipo"] = self.tipo
        if self.tipo == "anp" and self.valor_multa is not None:
            dados["valor_multa"] = self.valor_multa
        dados["eventos"] = [e.como_dict() for e in self.eventos if ate is None or e.data <= ate]
        dados["interpretacao"] = {"calendario": self.calendario}
        if isinstance(self.leituras, Mapping):  # anything else: read back as stored, refused
            extra = self.leituras.get("interpretacao") or {}
            dados["interpretacao"] = (
                {**dados["interpretacao"], **extra} if isinstance(extra, Mapping) else extra
            )
            for campo in (
                "prescricao_penal_anos",
                "encargo_legal_percentual",
                "valor_minimo_parcela",
            ):
                if campo in self.leituras:
                    dados[campo] = self.leituras[campo]
        elif self.leituras is not None:
            dados["leituras"] = self.leituras
        if self.dias_sem_expediente is not None:
            dados["dias_sem_expediente"] = self.dias_sem_expediente
        return dados


def _json(texto: str | None) -> Any:
    """A stored JSON column (the identifier, the list of days) as § 6 reads it; text that is
    not JSON, or nested past the parser's depth (only an edit outside the system writes it),
    comes back as it is, for § 6 to refuse with its own error."""
    if texto is None:
        return None
    try:
        return json.loads(texto)
    except (ValueError, RecursionError):
        return texto


def texto_dos_dias(dias: Iterable[date]) -> str | None:
    """The stored form of ``dias_sem_expediente``: a JSON list of ISO dates, sorted, each once;
    ``None`` (NULL) for none."""
    ordenados = sorted(set(dias))
    if not ordenados:
        return None
    return json.dumps([d.isoformat() for d in ordenados], separators=(",", ":"))


def texto_da_origem(origem: Mapping[str, Any]) -> str:
    """The stored form of ``origem`` (spec § 6.3 v4): JSON text, its keys in the contract's
    order."""
    return json.dumps(dict(origem), ensure_ascii=False, separators=(",", ":"))


def texto_das_leituras(leituras: Mapping[str, Any]) -> str:
    """The stored form of a processo's non-default readings: JSON text, keys sorted."""
    return json.dumps(dict(leituras), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def chave_da_origem(tipo: str, origem: object) -> tuple[str, str, int, str] | None:
    """What makes two processos of ``tipo`` opened for an ``origem`` the same: the tipo (a
    fine has its ``anp`` processo and its ``renovabio.lista`` one), the regime, the target's
    year and the CNPJ however spelled; ``None`` for one that is not an ``origem``."""
    if not isinstance(origem, Mapping):
        return None
    regime, ano, cnpj = origem.get("regime"), origem.get("ano_meta"), origem.get("cnpj")
    if not isinstance(regime, str) or not isinstance(ano, int) or not isinstance(cnpj, str):
        return None
    return tipo, regime, ano, normalizar_cnpj(cnpj)


def _processo(linha: ProcessoSalvo | Any, erro: str | None = None) -> ProcessoArmazenado:
    """A stored row (or one just written, its columns as attributes), as read back."""
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
            EventoArmazenado(
                e.evento,
                e.data,
                e.usuario,
                e.criado_em,
                e.valor,
                _json(e.plano),
                _json(e.documentos),
            )
            for e in linha.eventos
        ),
        lista_id=linha.lista_id,
        erro=erro,
        origem=_json(linha.origem),
        leituras=_json(linha.leituras),
    )


def leituras_do_processo(processo: Processo) -> dict[str, Any] | None:
    """What a stored processo keeps beyond its columns (migration r0013): the readings of
    § 6.1 and § 6.2 v4 that differ from the defaults, ``prescricao_penal_anos`` (§ 3.7 point 3
    v4), ``encargo_legal_percentual`` and ``valor_minimo_parcela`` (§ 6.2 v4); ``None`` when all
    are the defaults (NULL:
    a processo as stored before r0013)."""
    leituras: dict[str, Any] = {}
    outras = {
        chave: getattr(processo, chave)
        for chave, opcoes in LEITURAS_PROCESSO.items()
        if getattr(processo, chave) != opcoes[0]
    }
    if outras:
        leituras["interpretacao"] = outras
    if processo.prescricao_penal_anos is not None:
        leituras["prescricao_penal_anos"] = processo.prescricao_penal_anos
    if processo.encargo_legal_percentual is not None:  # spec § 6.2 v4
        leituras["encargo_legal_percentual"] = f"{processo.encargo_legal_percentual:f}"
    if processo.valor_minimo_parcela is not None:  # spec § 6.2 v4 (art. 37-B § 9º)
        leituras["valor_minimo_parcela"] = para_json(processo.valor_minimo_parcela)
    return leituras or None


def valores_dos_eventos(eventos: Sequence[EventoDatado]) -> tuple[str | None, ...] | None:
    """The stored form of the events' ``valor`` (spec § 6.2 v4: a payment's amount, as the
    contract writes it), in order; ``None`` when none has one."""
    valores = tuple(None if e.valor is None else para_json(e.valor) for e in eventos)
    return valores if any(v is not None for v in valores) else None


def planos_dos_eventos(eventos: Sequence[EventoDatado]) -> tuple[str | None, ...] | None:
    """The stored form of each ``parcelamento``'s plan (spec § 6.2 v4): JSON text of its
    fields as the contract writes them, in order; ``None`` when no event has one."""
    planos = tuple(
        None
        if e.plano is None
        else json.dumps(
            {c: v for c, v in e.como_dict().items() if c in CAMPOS_PARCELAMENTO[2:-1]},
            separators=(",", ":"),
        )
        for e in eventos
    )
    return planos if any(p is not None for p in planos) else None
