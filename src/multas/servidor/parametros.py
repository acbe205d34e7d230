"""Query and path parameters read strictly: the web framework's lax conversions would take
"800000000.00" as an integer and "0" as the date 01/01/1970 (a Unix timestamp). Here an integer
is ASCII digits, with an optional minus sign, and a date is AAAA-MM-DD, read by the engine's
own date parser; anything else is a pt-BR 422 naming the parameter.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

_INTEIRO = re.compile(r"-?[0-9]{1,19}", re.ASCII)
_ALGARISMOS = re.compile(r"-?[0-9]+", re.ASCII)


def _inteiro(valor: Any) -> Any:
    if isinstance(valor, str):
        if not _INTEIRO.fullmatch(valor):  # never "5\n", which match with $ takes
            if _ALGARISMOS.fullmatch(valor):  # an integer, past any id or count (19 digits)
                raise PydanticCustomError("fora_do_intervalo", "valor fora do intervalo aceito")
            raise PydanticCustomError("int_parsing", "deve ser um número inteiro")
        return int(valor)
    return valor


def _data(valor: Any) -> Any:
    if isinstance(valor, str):
        from multas.nucleo.datas import para_data
        from multas.nucleo.erros import EntradaInvalida

        try:
            return para_data(valor, "data")
        except EntradaInvalida:
            raise PydanticCustomError("date_parsing", "data inválida") from None
    if isinstance(valor, date):
        return valor
    raise PydanticCustomError("date_parsing", "data inválida")


#: ``Annotated[int, INTEIRO, Query(...)]``: only ASCII digits
INTEIRO = BeforeValidator(_inteiro)
#: a stored record's id in a route's path (``/processos/{processo_id}``): only ASCII digits
#: (`` 1``, ``+1`` and ``1\n`` are a 422, as in a query)
IdNoCaminho = Annotated[int, INTEIRO]
#: ``Annotated[date | None, DATA, Query(...)]``: only AAAA-MM-DD
DATA = BeforeValidator(_data)
