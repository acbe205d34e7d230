"""The report's model (:class:`Relatorio`, :class:`Metadados`) and its renderers' entry points:
:func:`como_html` (Jinja2) and :func:`como_pdf` (ReportLab, in :mod:`~multas.saidas.relatorio.pdf`;
a notice of the year is :mod:`~multas.saidas.relatorio.notificacao`). Both libraries are imported only when a report is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from multas.nucleo.datas import fuso_brasilia
from multas.nucleo.versao import VERSAO
from multas.saidas.apresentacao import ResultadoVisivel, apresentar, apresentar_entrada


def horario_brasilia(momento: datetime) -> str:
    """``dd/mm/aaaa hh:mm``, in Brasília time.

    >>> from datetime import UTC
    >>> horario_brasilia(datetime(2026, 3, 15, 13, 5, tzinfo=UTC))
    '15/03/2026 10:05 (horário de Brasília)'
    """
    local = momento.astimezone(fuso_brasilia())
    return local.strftime("%d/%m/%Y %H:%M") + " (horário de Brasília)"


@dataclass(frozen=True)
class Metadados:
    """Where a result comes from: the versions used and when it was computed (or saved)."""

    versao_motor: str
    versao_legislacao: str
    calculado_em: datetime
    gerado_em: datetime  # when the report is made (the caller's clock)
    caso_id: int | None = None
    usuario: str | None = None

    @classmethod
    def calculado(cls, momento: datetime, versao_legislacao: str | None = None) -> Metadados:
        """For a result computed at ``momento`` (the caller's clock), with the shipped
        legislation unless told otherwise."""
        from multas.nucleo.legislacao import carregar

        return cls(
            versao_motor=VERSAO,
            versao_legislacao=versao_legislacao or carregar().versao,
            calculado_em=momento,
            gerado_em=momento,
        )


@dataclass(frozen=True)
class Relatorio:
    """Everything a report shows, formatted once for both renderers."""

    resultado: ResultadoVisivel
    entrada: list[Any]
    metadados: Metadados
    #: a notice's addressee, as (label, value) rows: name, CNPJ
    destinatario: tuple[tuple[str, str], ...] = ()
    #: a notice's deadlines that follow, as (deadline, when and why) rows
    prazos: tuple[tuple[str, str], ...] = ()
    #: a notice's own title
    titulo_proprio: str | None = None

    @property
    def titulo(self) -> str:
        if self.titulo_proprio:
            return self.titulo_proprio
        numero = f"Caso nº {self.metadados.caso_id} · " if self.metadados.caso_id else ""
        return f"{numero}{self.resultado.titulo}"

    @property
    def subtitulo(self) -> str:
        """Under the regime's name, what the document is; a notice names the regime there."""
        return self.resultado.titulo if self.titulo_proprio else "Memória de cálculo"

    @property
    def calculado_em(self) -> str:
        return horario_brasilia(self.metadados.calculado_em)

    @property
    def gerado_em(self) -> str:
        return horario_brasilia(self.metadados.gerado_em)


def montar(
    resultado: dict[str, Any], entrada: dict[str, Any] | None, metadados: Metadados
) -> Relatorio:
    from multas.nucleo.identidade import CAMPOS, rotulos

    proprios = {k: v for k, v in (entrada or {}).items() if k not in CAMPOS}
    return Relatorio(
        resultado=apresentar(resultado),
        entrada=apresentar_entrada(proprios, resultado) if proprios else [],
        metadados=metadados,
        destinatario=rotulos({k: resultado[k] for k in CAMPOS if k in resultado}),
    )


def como_html(
    resultado: dict[str, Any], entrada: dict[str, Any] | None, metadados: Metadados
) -> str:
    """A self-contained HTML document (styles inline), printable."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    ambiente = Environment(
        loader=PackageLoader("multas.saidas.relatorio", "templates"),
        autoescape=select_autoescape(["html"]),
    )
    modelo = ambiente.get_template("relatorio.html")
    return modelo.render(r=montar(resultado, entrada, metadados))


def como_pdf(
    resultado: dict[str, Any], entrada: dict[str, Any] | None, metadados: Metadados
) -> bytes:
    from multas.saidas.relatorio.pdf import gerar_pdf

    return gerar_pdf(montar(resultado, entrada, metadados))
