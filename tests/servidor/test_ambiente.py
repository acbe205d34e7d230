"""The database's settings read without pydantic (:mod:`multas.servicos.ambiente`) agree with
:class:`multas.servicos.configuracao.Configuracao` on any environment, and keep pydantic off the
lifecycle commands' start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from multas.nucleo.erros import ConfiguracaoInvalida
from multas.servicos.ambiente import urls_do_banco
from multas.servicos.configuracao import carregar

NOMES = [
    "MULTAS_DATABASE_URL",
    "MULTAS_DATABASE_URL_DONO",
    "MULTAS_DATABASE_URL_MIGRACAO",
    "multas_database_url",
    "Multas_Database_Url",
]
VALORES = st.one_of(
    st.sampled_from(
        [
            "",
            "  ",
            "sqlite:///dados/m.db",
            " postgresql://u:s@127.0.0.1:5432/m ",
            "postgresql+psycopg://outro@h/m",
            "dados/m.db",
            "://sem-esquema",
            "1http://x",
        ]
    ),
    st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12),
)


def _pelos_dois(ambiente: dict[str, str]) -> tuple[object, object]:
    with mock.patch.dict(os.environ, ambiente, clear=True):
        try:
            completa = carregar()
            pela_configuracao: object = (completa.database_url, completa.database_url_dono)
        except ConfiguracaoInvalida as erro:
            pela_configuracao = ("erro", str(erro))
        try:
            direto: object = urls_do_banco()
        except ConfiguracaoInvalida as erro:
            direto = ("erro", str(erro))
    return pela_configuracao, direto


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(NOMES), VALORES, max_size=4))
def test_os_dois_leitores_concordam(ambiente: dict[str, str]) -> None:
    pela_configuracao, direto = _pelos_dois(ambiente)
    assert direto == pela_configuracao


@pytest.mark.parametrize(
    ("ambiente", "esperado"),
    [
        ({}, (None, None)),
        ({"MULTAS_DATABASE_URL": ""}, (None, None)),
        ({"MULTAS_DATABASE_URL": " sqlite:///m.db "}, ("sqlite:///m.db", None)),
        ({"MULTAS_DATABASE_URL_MIGRACAO": "postgresql://d@h/m"}, (None, "postgresql://d@h/m")),
        ({"multas_database_url_dono": "postgresql://d@h/m"}, (None, "postgresql://d@h/m")),
        (
            {"MULTAS_DATABASE_URL_DONO": "postgresql://a@h/m", "MULTAS_DATABASE_URL_MIGRACAO": "x"},
            (None, "postgresql://a@h/m"),
        ),
    ],
)
def test_leitura(ambiente: dict[str, str], esperado: tuple[str | None, str | None]) -> None:
    assert urls_do_banco(ambiente) == esperado


def test_url_invalida_nomeia_a_variavel_e_nao_ecoa_o_valor() -> None:
    with pytest.raises(ConfiguracaoInvalida, match=r"^MULTAS_DATABASE_URL_DONO: ") as erro:
        urls_do_banco({"MULTAS_DATABASE_URL_DONO": "segredo@servidor/banco"})
    assert "segredo" not in str(erro.value)


def test_um_comando_do_ciclo_nao_importa_o_pydantic(tmp_path: object) -> None:
    """``multas processo mostrar`` reads its database without importing pydantic."""
    codigo = (
        "import sys\n"
        "from multas.principal import main\n"
        "sys.argv = ['multas', 'processo', 'mostrar', '1']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('pydantic', 'pydantic_settings', 'multas.servicos.configuracao')"
        " if m in sys.modules), file=sys.stderr)\n"
    )
    ambiente = {**os.environ, "MULTAS_DATABASE_URL": f"sqlite:///{tmp_path}/m.db"}
    saida = subprocess.run(
        [sys.executable, "-c", codigo], env=ambiente, capture_output=True, text=True, check=False
    )
    assert saida.stderr.strip().splitlines()[-1] == "[]", saida.stderr
