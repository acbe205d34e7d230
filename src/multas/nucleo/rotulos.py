"""The pt-BR labels people read instead of the contract's keys (``rotulos.toml``): fields,
readings of the law (``interpretacao``), audit actions, and the lifecycle's events.

The contract keeps its keys: an error's ``campo``, the JSON and the case files are unchanged.
Human text (page, PDF, memória, audit, messages) goes through these functions, so a key
never reaches a reader on its own; where the key helps (to fix an input), it follows the
label in parentheses (:func:`campo_com_chave`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any


@cache
def _tabela() -> dict[str, Any]:
    arquivo = resources.files("multas.nucleo") / "rotulos.toml"
    return tomllib.loads(arquivo.read_text(encoding="utf-8"))


def rotulo_campo(nome: str) -> str:
    """A field's label; for ``a.b`` or ``lista[0].b`` paths, the label of the last field.

    >>> rotulo_campo("faturamento_ano_meta")
    'Faturamento do ano da meta'
    >>> rotulo_campo("interpretacao.piso")
    'Limite do faturamento abaixo do piso'
    """
    campos: dict[str, str] = _tabela()["campos"]
    if nome in campos:
        return campos[nome]
    ultimo = nome.rsplit(".", 1)[-1].split("[", 1)[0]
    if nome.startswith("interpretacao.") and ultimo in _tabela()["leituras"]:
        return str(_tabela()["leituras"][ultimo]["rotulo"])
    return campos.get(ultimo, nome)


def campo_com_chave(nome: str) -> str:
    """The label with the contract's key in parentheses, for messages that name a field.

    >>> campo_com_chave("data_quitacao")
    'Data da quitação da meta (data_quitacao)'
    """
    rotulo = rotulo_campo(nome)
    return rotulo if rotulo == nome else f"{rotulo} ({nome})"


def leitura(chave: str, opcao: str) -> str:
    """One reading, as people say it.

    >>> leitura("faturamento", "media")
    'Faturamento: média dos dois anos'
    """
    dados = _tabela()["leituras"].get(chave)
    if dados is None:
        return f"{chave}: {opcao}"
    return f"{dados['rotulo']}: {dados['opcoes'].get(opcao, opcao)}"


def leituras(interpretacao: Mapping[str, str]) -> str:
    """Every reading of an ``interpretacao`` object, joined by "; "."""
    return "; ".join(leitura(chave, opcao) for chave, opcao in interpretacao.items())


def chaves_de_leitura() -> dict[str, tuple[str, ...]]:
    """Each labelled reading and its labelled options (for tests and the catalogue)."""
    return {k: tuple(v["opcoes"]) for k, v in _tabela()["leituras"].items()}


def rotulo_acao(acao: str) -> str:
    """An audit action's label.

    >>> rotulo_acao("carteira_criar")
    'Criação de ano da carteira'
    """
    acoes: dict[str, str] = _tabela()["acoes"]
    return acoes.get(acao, acao)


def rotulo_evento(nome: str) -> str:
    """A lifecycle event's label (the events' own table, :mod:`multas.nucleo.eventos`), with
    its first letter capitalised.

    >>> rotulo_evento("ciencia_decisao_definitiva")
    'Ciência da decisão definitiva'
    """
    from multas.nucleo.eventos import TIPOS

    for tipo in TIPOS.values():
        if nome in tipo.eventos:
            texto = tipo.eventos[nome].rotulo
            return texto[:1].upper() + texto[1:]
    return nome


def evento_com_chave(nome: str) -> str:
    """An event's label with its key in parentheses, for messages about an input.

    >>> evento_com_chave("ciencia_decisao_definitiva")
    'Ciência da decisão definitiva (ciencia_decisao_definitiva)'
    """
    rotulo = rotulo_evento(nome)
    return rotulo if rotulo == nome else f"{rotulo} ({nome})"


def evento_citado(nome: str) -> str:
    """An event named in a message: its label in quotes, then its key (which the input uses).

    >>> evento_citado("ciencia_decisao_definitiva")
    '“Ciência da decisão definitiva” (ciencia_decisao_definitiva)'
    """
    rotulo = rotulo_evento(nome)
    return f"'{nome}'" if rotulo == nome else f"“{rotulo}” ({nome})"


def prazo_citado(nome: str) -> str:
    """A deadline named in a message: its label in quotes, then its key.

    >>> prazo_citado("pagamento_com_desconto")
    '“Pagamento com redução (renúncia ao recurso)” (pagamento_com_desconto)'
    """
    from multas.nucleo.eventos import PREFIXO_PARCELA, ROTULOS_PRAZOS, rotulo_do_prazo

    rotulo = rotulo_do_prazo(nome) if nome.startswith(PREFIXO_PARCELA) else ROTULOS_PRAZOS.get(nome)
    return f"'{nome}'" if rotulo is None else f"“{rotulo}” ({nome})"


def o_que(acao: str, prazo_encerrado: str | None = None) -> str:
    """What the next action asks (spec § 6.1 v4), prefixed, when a party's deadline lapsed
    and the action passed to the ANP, by that deadline.

    >>> o_que("instruir_e_julgar", "defesa")
    'prazo de defesa encerrado: instruir e julgar'
    """
    texto: str = _tabela()["proximas_acoes"][acao]
    if prazo_encerrado is None:
        return texto
    return f"{_tabela()['prazos_encerrados'][prazo_encerrado]}: {texto}"


def rotulo_quem(quem: str) -> str:
    """Who acts next, as people say it.

    >>> rotulo_quem("procuradoria")
    'Procuradoria'
    """
    rotulos: dict[str, str] = _tabela()["quem"]
    return rotulos.get(quem, quem)


def fundamento_de_acao(chave: str) -> str:
    """The basis of a next action that rests on no provision of the parameters."""
    textos: dict[str, str] = _tabela()["fundamentos_acao"]
    return textos[chave]
