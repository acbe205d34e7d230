"""Spec § 6: a processo of dated events, its deadlines and the situation derived from them,
as data (:mod:`multas.nucleo.ciclo.leitura` reads a processo, :mod:`multas.nucleo.ciclo.prazos`
derives its situation)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from multas.nucleo.calendario import Expediente
from multas.nucleo.ciclo.documentos import Documento
from multas.nucleo.datas import Calendario
from multas.nucleo.dinheiro import para_json
from multas.nucleo.eventos import ESTADOS_DERIVADOS, PENDENTES, Tipo, responsavel_do_prazo
from multas.nucleo.legislacao import Legislacao

if TYPE_CHECKING:
    from multas.nucleo.ciclo.devido import Devido

CAMPOS_PROCESSO = (
    "tipo",
    "eventos",
    "interpretacao",
    "dias_sem_expediente",
    "data_referencia",
    "valor_multa",
    "id",
    "referencia",
    "cnpj",
    "nome",
    "origem",
    "prescricao_penal_anos",
    "encargo_legal_percentual",
    "valor_minimo_parcela",
)
#: spec § 6.3 v4: ``origem``, the fine a processo was opened for: exactly these keys
CAMPOS_ORIGEM = ("regime", "ano_meta", "cnpj")
#: spec § 6.2 v4: any event may carry its documents
CAMPOS_EVENTO = ("evento", "data", "documentos")
#: spec § 6.2 v4: a ``pagamento`` may also carry its amount
CAMPOS_PAGAMENTO = ("evento", "data", "valor", "documentos")
#: spec § 6.2 v4: a ``parcelamento`` carries its plan
CAMPOS_PARCELAMENTO = (
    "evento",
    "data",
    "parcelas",
    "valor_consolidado",
    "parcelas_para_rescisao",
    "documentos",
)
CALENDARIOS: dict[str, str] = {
    "expediente": "sem expediente nos feriados e pontos facultativos do calendário federal; "
    "nenhum prazo termina em dia de expediente encerrado antes da hora normal",
    "feriados": "só os feriados nacionais",
}
NAO_TRANSCRITO = "texto não transcrito"
#: spec § 6.1 v4: the readings of a processo besides ``calendario``, each with its options,
#: the default first
LEITURAS_PROCESSO: dict[str, tuple[str, ...]] = {
    "prazo_alegacoes": ("decreto", "lei-9784"),
    "atos_instrucao": ("intercorrente", "apuracao"),
    # spec § 3.7 point 3 v4 (prescricao-penal): with prescricao_penal_anos
    "interrupcao_penal": ("lei-9873", "nenhuma"),
    # spec § 6.2 v4: the late charges of § 3.5 (``decreto`` is read as ``lei-9847``), how a
    # payment is allocated (its default hangs on ``encargos``: IMPUTACAO_PADRAO) and how a
    # payment in the discount's deadline counts
    "encargos": ("lei-9847", "lei-10522"),
    "imputacao": ("encargos", "proporcional"),
    "desconto": ("integral", "proporcional"),
}
#: the readings of § 6.2 v4, of an ``anp`` processo only
LEITURAS_DO_DEVIDO = ("encargos", "imputacao", "desconto")
#: spec § 6.2 v4: ``imputacao`` defaults to ``proporcional`` under ``encargos = lei-10522``
IMPUTACAO_PADRAO = {"lei-9847": "encargos", "lei-10522": "proporcional"}
#: aliases of a reading's options, read as the option they name
ALIASES_LEITURA = {("encargos", "decreto"): "lei-9847"}


@dataclass(frozen=True, slots=True)
class Plano:
    """Spec § 6.2 v4: what a ``parcelamento`` event carries."""

    parcelas: int
    valor_consolidado: Decimal
    #: ``None``: the default count (``ciclo.parcelamento_rescisao``)
    parcelas_para_rescisao: int | None = None


@dataclass(frozen=True, slots=True)
class EventoDatado:
    nome: str
    data: date
    #: spec § 6.2 v4: the amount of a ``pagamento`` (``None``: it settles the debt)
    valor: Decimal | None = None
    #: spec § 6.2 v4: a ``parcelamento``'s plan
    plano: Plano | None = None
    #: spec § 6.2 v4: the documents it carries, in the order given
    documentos: tuple[Documento, ...] = ()

    def como_dict(self) -> dict[str, Any]:
        dados: dict[str, Any] = {"evento": self.nome, "data": self.data.isoformat()}
        if self.valor is not None:
            dados["valor"] = para_json(self.valor)
        if self.plano is not None:
            dados["parcelas"] = self.plano.parcelas
            dados["valor_consolidado"] = para_json(self.plano.valor_consolidado)
            if self.plano.parcelas_para_rescisao is not None:
                dados["parcelas_para_rescisao"] = self.plano.parcelas_para_rescisao
        if self.documentos:
            dados["documentos"] = [d.como_dict() for d in self.documentos]
        return dados


@dataclass(frozen=True, slots=True)
class Processo:
    """A validated processo."""

    tipo: Tipo
    eventos: tuple[EventoDatado, ...]
    calendario: Calendario
    #: ``id``, ``cnpj``, ``nome`` as given, and ``origem`` (spec § 6.3 v4) as read (only
    #: those given)
    identificacao: dict[str, Any] = field(default_factory=dict)
    #: extra days without expediente (spec § 1)
    dias_sem_expediente: frozenset[date] = frozenset()
    #: the date the situation is judged on (spec § 6 v3); ``None``: today in Brasília
    data_referencia: date | None = None
    #: the fine fixed by the decision (``anp`` only)
    valor_multa: Decimal | None = None
    #: spec § 6.1 v4: ``decreto`` (5 days, the default) or ``lei-9784`` (10 days)
    prazo_alegacoes: str = "decreto"
    #: spec § 6.1 v4: ``intercorrente`` (the default) or ``apuracao`` (the acts of instruction
    #: also interrupt the prescrição)
    atos_instrucao: str = "intercorrente"
    #: spec § 3.7 point 3 v4: ``lei-9873`` (the default: Lei nº 9.873/1999 art. 2º's
    #: interruptions apply to the penal period) or ``nenhuma`` (it runs from the infração)
    interrupcao_penal: str = "lei-9873"
    #: spec § 3.7 point 3 v4: the penal limitation period, in years (Código Penal art. 109),
    #: when the fact is also a crime (Lei nº 9.873/1999 art. 1º § 2º); ``None``: the 5 years
    prescricao_penal_anos: int | None = None
    #: spec § 6.2 v4: the readings of what is owed (``LEITURAS_PROCESSO``)
    encargos: str = "lei-9847"
    imputacao: str = "encargos"
    desconto: str = "integral"
    #: spec § 6.2 v4: the rate of the encargo legal after the Dívida Ativa inscription, in
    #: percent (Decreto-Lei nº 1.025/1969, texto não transcrito: an input); ``None``: not given
    encargo_legal_percentual: Decimal | None = None
    #: spec § 6.2 v4: the minimum instalment (an act of the Procurador-Geral Federal, art.
    #: 37-B § 9º: an input); ``None``: not given
    valor_minimo_parcela: Decimal | None = None
    #: spec § 6.2 v4: the index in ``eventos`` of the ``pagamento`` that leaves a zero
    #: balance (found when the processo is read), ``None`` while a balance remains
    quitado_em: int | None = None
    #: the account of § 6.2 as reading the processo ran it, up to its last payment
    #: (:class:`multas.nucleo.ciclo.devido.Previa`): the amount owed on a later date goes on
    #: from it instead of running the payments again
    previa: Any = field(default=None, compare=False, repr=False)

    @property
    def quitacao(self) -> EventoDatado | None:
        """The ``pagamento`` that settled the debt, if one did."""
        return None if self.quitado_em is None else self.eventos[self.quitado_em]

    @property
    def pagamentos(self) -> tuple[EventoDatado, ...]:
        return tuple(e for e in self.eventos if e.nome == "pagamento")

    def expediente(self, legislacao: Legislacao) -> Expediente:
        """The calendar this processo's deadlines use (spec § 1)."""
        return Expediente(legislacao.calendario, self.calendario, self.dias_sem_expediente)

    def evento(self, nome: str) -> EventoDatado | None:
        return next((e for e in self.eventos if e.nome == nome), None)

    def indice(self, nome: str) -> int:
        return next(i for i, e in enumerate(self.eventos) if e.nome == nome)

    @property
    def principais(self) -> tuple[EventoDatado, ...]:
        """The events that are not court suspensions (they alone set the estado)."""
        return tuple(e for e in self.eventos if not self.tipo.eventos[e.nome].suspensao)

    def como_dict(self) -> dict[str, Any]:
        """The processo as JSON (the input contract), defaults written out."""
        dados: dict[str, Any] = {
            **self.identificacao,
            "tipo": self.tipo.nome,
            "eventos": [e.como_dict() for e in self.eventos],
            "interpretacao": {
                "calendario": self.calendario,
                **{
                    chave: getattr(self, chave)
                    for chave in LEITURAS_PROCESSO
                    if self.tipo.nome == "anp" or chave not in LEITURAS_DO_DEVIDO
                },
            },
        }
        if self.prescricao_penal_anos is not None:
            dados["prescricao_penal_anos"] = self.prescricao_penal_anos
        if self.encargo_legal_percentual is not None:
            dados["encargo_legal_percentual"] = f"{self.encargo_legal_percentual:f}"
        if self.valor_minimo_parcela is not None:
            dados["valor_minimo_parcela"] = para_json(self.valor_minimo_parcela)
        if self.dias_sem_expediente:
            dados["dias_sem_expediente"] = [d.isoformat() for d in sorted(self.dias_sem_expediente)]
        if self.data_referencia is not None:
            dados["data_referencia"] = self.data_referencia.isoformat()
        if self.valor_multa is not None:
            dados["valor_multa"] = str(self.valor_multa)
        return dados


@dataclass(frozen=True, slots=True)
class Prazo:
    nome: str
    data: date
    fundamento: str
    contagem: str
    #: the event it counts from
    origem: str
    #: the provision's text, where transcribed (for the page, the calendar, the docs)
    texto: str | None = None
    #: spec § 6 v3: ``cumprido``, ``cumprido_com_atraso``, ``encerrado``, ``suspenso``,
    #: ``vencido`` or ``em_aberto`` on the processo's ``data_referencia``
    situacao: str = "em_aberto"

    @property
    def responsavel(self) -> str:
        return responsavel_do_prazo(self.nome)

    @property
    def pendente(self) -> bool:
        """Still asks something of someone (not met, not closed)."""
        return self.situacao in PENDENTES

    def como_dict(self) -> dict[str, str]:
        return {
            "prazo": self.nome,
            "data": self.data.isoformat(),
            "fundamento": self.fundamento,
            "contagem": self.contagem,
            "responsavel": self.responsavel,
            "situacao": self.situacao,
        }


@dataclass(frozen=True, slots=True)
class ProximaAcao:
    """What § 6.1 v4 derives: who acts next, what, since when, by when."""

    quem: str
    o_que: str
    desde: date
    ate: date | None
    fundamento: str
    #: the deadline ``ate`` is (``None`` when it is none)
    prazo: str | None = None

    def dias_de_atraso(self, referencia: date) -> int:
        """Days past ``ate`` on ``referencia`` (0 when not past it, or with no ``ate``)."""
        if self.ate is None or referencia <= self.ate:
            return 0
        return (referencia - self.ate).days

    def como_dict(self) -> dict[str, Any]:
        return {
            "quem": self.quem,
            "o_que": self.o_que,
            "desde": self.desde.isoformat(),
            "ate": self.ate.isoformat() if self.ate else None,
            "fundamento": self.fundamento,
        }


@dataclass(frozen=True, slots=True)
class Situacao:
    """What § 6 derives from a processo."""

    processo: Processo
    estado: str
    prazos: tuple[Prazo, ...]
    avisos: tuple[str, ...]
    data_referencia: date = date.min
    valor_com_desconto: Decimal | None = None
    #: spec § 6.1 v4: who acts next, what, since when, by when (``None``: nothing remains)
    proxima_acao: ProximaAcao | None = None
    #: spec § 6.2 v4: what is owed on ``data_referencia`` (``None``: without ``valor_multa``
    #: or a definitive decision)
    devido: Devido | None = None

    @property
    def estado_rotulo(self) -> str:
        if self.estado in ESTADOS_DERIVADOS:
            return ESTADOS_DERIVADOS[self.estado]
        if self.estado == "suspenso":
            return "suspenso por ordem judicial"
        return self.processo.tipo.eventos[self.processo.principais[-1].nome].estado_rotulo

    def como_dict(self) -> dict[str, Any]:
        """The output of § 6: ``{id?, cnpj?, nome?, tipo, estado, data_referencia,
        proxima_acao, prazos, avisos}``, ``valor_com_desconto`` where § 6 says so, and the
        events' documents echoed (spec § 6.2 v4), each with its event's name and date."""
        dados: dict[str, Any] = {
            **self.processo.identificacao,
            "tipo": self.processo.tipo.nome,
            "estado": self.estado,
            "data_referencia": self.data_referencia.isoformat(),
            "proxima_acao": self.proxima_acao.como_dict() if self.proxima_acao else None,
            "prazos": [p.como_dict() for p in self.prazos],
            "avisos": list(self.avisos),
        }
        if self.valor_com_desconto is not None:
            dados["valor_com_desconto"] = para_json(self.valor_com_desconto)
        if self.devido is not None:
            dados["devido"] = self.devido.como_dict()
        documentos = [
            {"evento": e.nome, "data": e.data.isoformat(), **d.como_dict()}
            for e in self.processo.eventos
            for d in e.documentos
        ]
        if documentos:
            dados["documentos"] = documentos
        return dados
