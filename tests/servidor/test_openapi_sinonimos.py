"""Spec v4 § 3: the API's schema takes an option's alias (``encargos = decreto``) and says
which option it names; the result writes the option's own name."""

from __future__ import annotations

from multas.servidor.openapi import esquemas_dos_casos


def test_esquema_aceita_decreto_como_sinonimo_de_lei_9847() -> None:
    esquema = esquemas_dos_casos()["Caso_anp_mora"]["properties"]["interpretacao"]
    encargos = esquema["properties"]["encargos"]
    assert encargos["enum"] == ["lei-9847", "lei-10522", "decreto"]
    assert encargos["default"] == "lei-9847"
    assert encargos["description"] == (
        "aceito também: decreto = lei-9847; o resultado escreve o nome da opção"
    )
