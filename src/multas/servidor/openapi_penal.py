"""The OpenAPI fragments of spec v4 § 3.7 point 3 (prescricao-penal): the processo's
``prescricao_penal_anos`` (its periods from the parameter files) and the reading
``interrupcao_penal``; apart from :mod:`multas.servidor.openapi` to keep each module small."""

from __future__ import annotations

from typing import Any

#: § 6 fields a stored processo does not keep (POST /api/v1/processos leaves them out)
NAO_SALVOS = ("data_referencia", "prescricao_penal_anos")
#: the output's ``estado``: the last event's, unless a derived one overrides it
DESCRICAO_ESTADO = (
    "definido pelo último evento (prescrito, cobranca_prescrita e suspenso prevalecem)"
)


def esquemas_penais() -> tuple[dict[str, Any], dict[str, Any]]:
    """(``interpretacao.interrupcao_penal``, ``prescricao_penal_anos``)."""
    from multas.nucleo.ciclo.processo import LEITURAS_PROCESSO
    from multas.nucleo.legislacao import carregar

    opcoes = LEITURAS_PROCESSO["interrupcao_penal"]
    periodos = carregar().parametro("ciclo.prescricao_penal_anos").vigencias[-1]
    interrupcao = {
        "type": "string",
        "enum": list(opcoes),
        "default": opcoes[0],
        "description": "só anp, com prescricao_penal_anos: o prazo penal é interrompido como "
        "na Lei nº 9.873/1999, art. 2º (lei-9873) ou corre da infração sem interrupção (nenhuma)",
    }
    anos = {
        "type": "integer",
        "enum": list(periodos.valor),
        "description": "só anp: o prazo de prescrição da lei penal, em anos, quando o fato "
        "também é crime (Lei nº 9.873/1999, art. 1º, § 2º; "
        f"{periodos.dispositivo}, texto não transcrito); conta em lugar do prazo do art. 1º",
    }
    return interrupcao, anos
