"""The exact JSON reader (spec § 1): a repeated key is named by its path, and the case's own
``id`` stays on the error (spec § 3 v4), wherever the key is repeated."""

from __future__ import annotations

import pytest

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.json_exato import ler_json


@pytest.mark.parametrize(
    ("texto", "campo", "id_"),
    [
        ('{"regime": "x", "regime": "y"}', "regime", None),
        (
            '{"id": "AI-1", "interpretacao": {"faixa": "lei", "faixa": "decreto"}}',
            "interpretacao.faixa",
            "AI-1",
        ),
        (
            '{"infracoes": [{"inciso": "XI"}, {"inciso": "XI", "inciso": "XII"}], "id": "AI-2"}',
            "infracoes[1].inciso",
            "AI-2",
        ),
        ('[{"a": 1}, {"b": {"c": 1, "c": 2}}]', "[1].b.c", None),
        ('{"id": "", "a": {"b": 1, "b": 1}}', "a.b", None),  # an invalid id is not echoed
    ],
)
def test_chave_repetida_nomeada_pelo_caminho_com_o_id(
    texto: str, campo: str, id_: str | None
) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_json(texto)
    assert (erro.value.campo, erro.value.mensagem, erro.value.id) == (
        campo,
        "campo repetido no JSON",
        id_,
    )


def test_a_repeticao_mais_interna_primeiro() -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_json('{"a": {"x": 1, "x": 2}, "b": 1, "b": 2}')
    assert erro.value.campo == "a.x"


def test_repeticao_no_fundo_de_um_aninhamento_profundo_e_erro_nao_falha() -> None:
    fundo = 900
    with pytest.raises(EntradaInvalida) as erro:
        ler_json("[" * fundo + '{"k": 1, "k": 2}' + "]" * fundo)
    assert erro.value.mensagem == "campo repetido no JSON"
    assert erro.value.campo is not None and erro.value.campo.endswith("k")


def test_substituto_isolado_e_recusado_pelo_caminho_e_um_par_passa() -> None:
    assert ler_json('{"nome": "\\ud83d\\ude00"}') == {"nome": "\U0001f600"}
    assert ler_json('{"nome": "\\\\ud800"}') == {"nome": "\\ud800"}  # a backslash, escaped
    for texto, campo in (
        ('{"eventos": [{"data": "x\\ud800"}]}', "eventos[0].data"),
        ('{"a": {"\\udfff": 1}}', "a"),
        ('"\\ud800"', None),
    ):
        with pytest.raises(EntradaInvalida, match="substituto isolado") as erro:
            ler_json(texto)
        assert erro.value.campo == campo
