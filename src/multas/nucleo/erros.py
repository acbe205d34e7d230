"""Input errors: every one names the field and says why, in pt-BR."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

#: how many characters of a value a message echoes (:func:`mostrar_valor`)
LIMITE_ECO = 40


def mostrar_valor(valor: object, limite: int = LIMITE_ECO) -> str:
    """A value the user gave, as a message echoes it: its ``repr`` (so control characters,
    line breaks and bidi overrides show escaped), cut after ``limite`` characters with ``…`` and
    the value's length, so that a 10 KB CNPJ or a 50,000-digit number is never echoed whole.
    The one helper of every message that quotes an input.

    >>> mostrar_valor("15/13/2025"), mostrar_valor(7), mostrar_valor(None)
    ("'15/13/2025'", '7', 'None')
    >>> mostrar_valor("9" * 50_000)
    "'9999999999999999999999999999999999999999…' (50000 caracteres)"
    >>> print(mostrar_valor("\x1f" * 30))
    '\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f…' (30 caracteres)
    >>> mostrar_valor(10**50_000)
    'um número de cerca de 50001 dígitos'
    >>> mostrar_valor(Decimal("12.5")), mostrar_valor(Decimal("1e400"))
    ('12.5', '1E+400')
    """
    if isinstance(valor, int) and not isinstance(valor, bool) and valor.bit_length() > 1000:
        # str() of a huge int raises ValueError (sys.get_int_max_str_digits) and is quadratic
        return f"um número de cerca de {int(valor.bit_length() * 0.30103) + 1} dígitos"
    if isinstance(valor, str):
        if len(valor) <= limite and len(texto := repr(valor)) <= limite + 2:
            return texto
        # the longest prefix whose repr fits: an escaped character (``\U0001dab0``) counts
        # for what it shows, so a text of controls is cut as short as a plain one
        baixo, alto = 0, min(len(valor), limite)
        while baixo < alto:
            meio = (baixo + alto + 1) // 2
            if len(repr(valor[:meio])) <= limite + 2:
                baixo = meio
            else:
                alto = meio - 1
        cortado = repr(valor[:baixo])
        return f"{cortado[:-1]}…{cortado[-1]} ({len(valor)} caracteres)"
    # a number of the exact JSON reader: as the user wrote it, not as Python's repr
    texto = str(valor) if isinstance(valor, Decimal) else repr(valor)
    if len(texto) <= limite:
        return texto
    return f"{texto[:limite]}… ({len(texto)} caracteres)"


#: the command line's exit codes besides 0 (docs/cli.md): 1, a runtime failure (a record not
#: found, the disk); 2, bad arguments or usage, or an input refused whole (one case, a
#: setting); 3, some rows of a table or lines of JSON Lines had errors, written as errors
#: beside the others (``multas lote``, ``multas ano``, ``calcular``/``prazos`` on JSON Lines)
SAIDA_USO = 2
SAIDA_LINHAS_COM_ERRO = 3
#: the exit codes, as ``--help`` says them (the epilog of ``multas`` and of the commands that
#: read many rows)
AJUDA_CODIGOS_DE_SAIDA = (
    "Códigos de saída: 0, tudo certo; 1, falha ao executar (registro não encontrado, banco, "
    "disco); 2, argumentos ou uso inválidos, ou a entrada recusada inteira; 3, algumas linhas "
    "com erro (cada uma registrada como erro; as outras, calculadas)."
)


class EntradaInvalida(ValueError):
    """A case the engine refuses to compute.

    >>> EntradaInvalida("ano_meta", "campo obrigatório").como_dict()
    {'erro': {'campo': 'ano_meta', 'mensagem': 'campo obrigatório'}}
    """

    def __init__(self, campo: str | None, mensagem: str) -> None:
        super().__init__(f"{campo}: {mensagem}" if campo else mensagem)
        self.campo = campo
        self.mensagem = mensagem
        #: the refused case's own ``id`` (spec § 3 v4), echoed first when it was valid
        self.id: str | None = None
        #: where in a file the error is, for a program to read: ``{"linha": 3}`` (a table's
        #: or JSON Lines' line, the header being line 1) or ``{"item": 2}`` (a JSON list's
        #: position); empty for an error of no row (:meth:`multas.nucleo.arquivos.Local.erro`)
        self.onde: dict[str, int] = {}

    def como_objeto(self) -> dict[str, Any]:
        """The error as the contract writes one: ``campo``, ``mensagem`` and, for a row of a
        file, where it is (``linha`` or ``item``)."""
        return {"campo": self.campo, "mensagem": self.mensagem, **self.onde}

    def como_dict(self) -> dict[str, Any]:
        corpo: dict[str, Any] = {"erro": self.como_objeto()}
        return corpo if self.id is None else {"id": self.id, **corpo}

    def todos(self) -> tuple[EntradaInvalida, ...]:
        """Every error this refusal carries (:class:`ErrosDeEntrada` carries several): itself."""
        return (self,)


class ErrosDeEntrada(EntradaInvalida):
    """Several input errors of one request, found together (each field read on its own:
    :class:`Coleta`). It *is* its first error (``campo``, ``mensagem``): whoever reads one
    error reads the one it always did; :meth:`todos` gives them all, in the order found.

    >>> e = ErrosDeEntrada([EntradaInvalida("a", "x"), EntradaInvalida("b", "y")])
    >>> e.campo, [f.campo for f in e.todos()]
    ('a', ['a', 'b'])
    """

    def __init__(self, erros: Sequence[EntradaInvalida]) -> None:
        super().__init__(erros[0].campo, erros[0].mensagem)
        self.id = erros[0].id
        self.onde = erros[0].onde
        self.erros = tuple(erros)

    def todos(self) -> tuple[EntradaInvalida, ...]:
        return self.erros

    def como_dict(self) -> dict[str, Any]:
        """The first error as ``erro`` (the shape of one) and all of them in ``erros``."""
        corpo = super().como_dict()
        corpo["erros"] = [e.como_objeto() for e in self.erros]
        return corpo


class Coleta:
    """Reads a request's fields each on its own, keeping every input error instead of
    stopping at the first; :meth:`levantar` raises them together (nothing when none).

    >>> coleta = Coleta()
    >>> with coleta.campo():
    ...     raise EntradaInvalida("a", "x")
    >>> with coleta.campo():
    ...     raise EntradaInvalida("b", "y")
    >>> coleta.levantar()
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.ErrosDeEntrada: a: x
    """

    def __init__(self) -> None:
        self.erros: list[EntradaInvalida] = []

    def campo(self) -> Coleta:
        """``with coleta.campo():`` reads one field, keeping its errors (a plain context
        manager, cheap on the batch's hot path)."""
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, tipo: object, erro: BaseException | None, rastro: object) -> bool:
        if isinstance(erro, EntradaInvalida):
            self.erros.extend(erro.todos())
            return True
        return False

    def levantar(self) -> None:
        levantar(self.erros)


def levantar(erros: Sequence[EntradaInvalida]) -> None:
    """Raise the errors found (one as itself, several as :class:`ErrosDeEntrada`); none:
    nothing."""
    if len(erros) == 1:
        raise erros[0]
    if erros:
        raise ErrosDeEntrada(erros)


#: between a row's errors in one cell (:func:`em_uma_celula`): the messages themselves use
#: ``;`` and ``,`` (a date's hint, a list of options), never `` | ``
SEPARADOR_NA_CELULA = " | "


def em_uma_celula(erro: EntradaInvalida) -> str:
    """Every error of a row as one cell of a batch's ``erro`` column: each ``campo: mensagem``
    (or the message alone when it is about no field), in the order found, joined by
    :data:`SEPARADOR_NA_CELULA`; one error is the text it always was.

    >>> em_uma_celula(EntradaInvalida("a", "x"))
    'a: x'
    >>> em_uma_celula(ErrosDeEntrada([EntradaInvalida("a", "x; y"), EntradaInvalida(None, "z")]))
    'a: x; y | z'
    """
    return SEPARADOR_NA_CELULA.join(str(e) for e in erro.todos())


#: the most errors a file's rows raise together (:class:`ErrosDasLinhas`): the first ones and
#: a last one counting the rest, so that a file of 100,000 bad rows is refused with a bounded
#: list (the API shows up to 100 errors in ``erros``: this list fits in it whole)
MAXIMO_ERROS_DAS_LINHAS = 100


def _milhar(n: int) -> str:
    return f"{n:,}".replace(",", ".")


class ErrosDasLinhas:
    """Collects the errors of a file's rows (each already said with its row: ``linha 3,
    coluna ano: …``), every error of every row, in the file's order. Up to
    :data:`MAXIMO_ERROS_DAS_LINHAS` are raised; past it, the first ones and a last error, naming
    no field, that counts the others.

    >>> erros = ErrosDasLinhas(maximo=3)
    >>> for i in range(5):
    ...     erros.juntar(EntradaInvalida("ano", f"linha {i + 2}, coluna ano: campo obrigatório"))
    >>> [e.mensagem for e in erros.todos()]  # doctest: +NORMALIZE_WHITESPACE
    ['linha 2, coluna ano: campo obrigatório', 'linha 3, coluna ano: campo obrigatório',
     'e mais 3 erros em outras linhas (só os 2 primeiros estão listados)']
    """

    def __init__(self, maximo: int = MAXIMO_ERROS_DAS_LINHAS) -> None:
        self.maximo = maximo
        self.lista: list[EntradaInvalida] = []
        self.total = 0

    def juntar(self, erro: EntradaInvalida) -> None:
        self.total += 1
        if len(self.lista) < self.maximo:
            self.lista.append(erro)

    def todos(self) -> list[EntradaInvalida]:
        """The errors to raise: all of them, or the first ones and the count of the rest."""
        if self.total <= self.maximo:
            return list(self.lista)
        listados = self.lista[: self.maximo - 1]
        resto = self.total - len(listados)
        return [
            *listados,
            EntradaInvalida(
                None,
                f"e mais {_milhar(resto)} erros em outras linhas (só os "
                f"{_milhar(len(listados))} primeiros estão listados)",
            ),
        ]

    def levantar(self) -> None:
        """Raise the errors collected (nothing when none)."""
        levantar(self.todos())


class ConfiguracaoInvalida(ValueError):
    """A ``MULTAS_*`` setting (or a command-line option that overrides one) with an invalid
    value; the message names it, in pt-BR (:mod:`multas.servicos.configuracao`).

    >>> str(ConfiguracaoInvalida("MULTAS_SERVIR_PORTA", "deve ser um número inteiro: 'x'"))
    "MULTAS_SERVIR_PORTA: deve ser um número inteiro: 'x'"
    """

    def __init__(self, variavel: str, mensagem: str) -> None:
        super().__init__(f"{variavel}: {mensagem}")
        self.variavel = variavel
        self.mensagem = mensagem
