"""The case-file contract (spec § 3), shared by the CLI, the API, the web page and batch.

Each regime's input is a frozen dataclass whose fields carry their contract in metadata
(:func:`campo`): type, meaning, whether required. That one definition drives parsing and
validation here, ``multas regimes``, the API schema, the web form and batch columns.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, Literal

from multas.nucleo.datas import data_de_arquivo_ptbr, para_data
from multas.nucleo.dinheiro import (
    DICA_PONTO,
    DICA_VIRGULA,
    MAXIMO_ALGARISMOS,
    casas_decimais,
    normalizar_ptbr,
    para_decimal,
)
from multas.nucleo.erros import EntradaInvalida, levantar, mostrar_valor
from multas.nucleo.preco import Cotacao, Diarias

#: the longest free text of a ``texto`` field (``fonte_cotacoes``, spec § 3.1 v4)
MAXIMO_TEXTO = 500

TipoCampo = Literal[
    "ano",
    "contagem",
    "quantia",
    "quantia_positiva",
    "preco",
    "quantidade",
    "data",
    "booleano",
    "inciso",
    "cotacoes_mensais",
    "cotacoes_diarias",
    "taxas_mensais",
    "datas",
    "texto",
    "opcao",
    "infracoes",
    "agente",
]

TIPOS_DESCRICAO: dict[str, str] = {
    "ano": "inteiro (ano)",
    "contagem": "inteiro",
    "quantia": "valor em reais (≥ 0, até 2 casas decimais)",
    "quantia_positiva": "valor em reais (> 0, até 2 casas decimais)",
    "preco": 'preço (> 0, qualquer número de casas decimais, ou a fração exata "p/q")',
    "quantidade": "número decimal (≥ 0, qualquer número de casas)",
    "data": "data AAAA-MM-DD",
    "booleano": "true/false",
    "inciso": "algarismo romano (I a XIX na numeração da lei, I a XIV na do decreto)",
    "cotacoes_mensais": 'objeto {"AAAA-MM": preço}',
    "cotacoes_diarias": 'lista [{"data": "AAAA-MM-DD", "preco": preço}], ou com '
    '"quantidade" (CBIOs negociados no dia) e "valor_financeiro" (valor negociado no dia) no '
    "lugar do preço ou junto dele",
    "taxas_mensais": 'objeto {"AAAA-MM": taxa em %} (ex.: "1.05" é 1,05%)',
    "datas": "lista de datas AAAA-MM-DD (ou, numa célula, datas separadas por espaços)",
    "texto": f"texto (até {MAXIMO_TEXTO} caracteres)",
    "opcao": "uma das opções listadas",
    "infracoes": 'lista [{"inciso": "XI", "valor": valor em reais (opcional)}], um item por '
    "inciso do auto",
    "agente": "distribuidor ou outro",
}

#: who broke the sales ban (spec § 3.7 point 2): the 5% cap is only a distributor's
AGENTES = ("distribuidor", "outro")

#: at most this many dates in one list field (``dias_sem_expediente``)
MAXIMO_DATAS = 366

#: Types that fit in one cell of a batch file.
TIPOS_PLANOS = frozenset(TIPOS_DESCRICAO) - {
    "cotacoes_mensais",
    "cotacoes_diarias",
    "taxas_mensais",
    "infracoes",
}

#: the most items of an ``infracoes`` list (one auto, spec § 3.4.1)
MAXIMO_INFRACOES = 100

#: the incisos of Decreto 2.953/1999 art. 28, in order
ROMANOS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV")
#: a roman numeral of an inciso, I to XXXIX (which incisos exist is the legislation's data)
_ROMANO = re.compile(r"^(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3})$")
_MES = re.compile(r"^(\d{4})-(\d{2})$", re.ASCII)
#: an exact price as multas writes one (spec § 3.1 v4): integers ≥ 1, no sign, no spaces
_FRACAO = re.compile(r"^(\d+)/(\d+)$", re.ASCII)
_INTEIRO = re.compile(r"^[+-]?\d+$", re.ASCII)
_VERDADEIROS = {"true", "1", "sim", "verdadeiro"}
_FALSOS = {"false", "0", "nao", "não", "falso"}


def campo(
    tipo: TipoCampo,
    descricao: str,
    *,
    obrigatorio: bool = False,
    minimo: int = 0,
    opcoes: tuple[str, ...] = (),
) -> Any:
    """A contract field. Optional fields default to ``None`` (absent); an ``opcao`` field
    takes one of ``opcoes``, the first being what its absence means."""
    metadata = {
        "tipo": tipo,
        "descricao": descricao,
        "obrigatorio": obrigatorio,
        "minimo": minimo,
        "opcoes": opcoes,
    }
    if obrigatorio:
        return dataclasses.field(metadata=metadata)
    return dataclasses.field(default=None, metadata=metadata)


@dataclass(frozen=True, slots=True)
class Campo:
    nome: str
    tipo: TipoCampo
    descricao: str
    obrigatorio: bool
    minimo: int
    #: an ``opcao`` field's options (the first is the default)
    opcoes: tuple[str, ...] = ()

    @property
    def plano(self) -> bool:
        return self.tipo in TIPOS_PLANOS


@dataclass(frozen=True, kw_only=True, eq=False)
class Caso:
    """Fields every regime accepts."""

    data_referencia: date | None = campo(
        "data",
        'Data cuja legislação se aplica ("e se"); por padrão, a data da infração',
    )

    regime: ClassVar[str] = ""

    @classmethod
    def campos(cls) -> tuple[Campo, ...]:
        """The contract's fields: required ones first, ``data_referencia`` last."""
        campos = _CAMPOS.get(cls)
        if campos is None:
            campos = _CAMPOS[cls] = _campos(cls)
        return campos

    def validar(self) -> None:
        """Cross-field checks; each regime adds its own."""


#: each regime's fields, computed once (the contract is fixed at import)
_CAMPOS: dict[type[Caso], tuple[Campo, ...]] = {}


def _campos(classe: type[Caso]) -> tuple[Campo, ...]:
    todos = sorted(
        dataclasses.fields(classe),
        key=lambda f: (f.name == "data_referencia", not f.metadata["obrigatorio"]),
    )
    return tuple(
        Campo(
            f.name,
            f.metadata["tipo"],
            f.metadata["descricao"],
            f.metadata["obrigatorio"],
            f.metadata["minimo"],
            f.metadata["opcoes"],
        )
        for f in todos
    )


@dataclass(frozen=True, slots=True)
class Leitura:
    """How to read raw values: JSON (the default) or cells of a table/form."""

    tabela: bool = False  # strings allowed for booleans (true/false, 1/0, sim/não)
    decimal_virgula: bool = False  # pt-BR numbers: 1.234,56

    @property
    def dica_numero(self) -> str:
        """What a message about an unreadable number tells the user to write."""
        return DICA_VIRGULA if self.decimal_virgula else DICA_PONTO


JSON = Leitura()


#: the one bound of every year the engine reads (``ano_meta``, ``ano``, ``--ano``, the API's
#: ``ano``, a file's ``ano`` column): its deadlines and the next year's still fit the calendar
ANO_MINIMO, ANO_MAXIMO = 1900, 9000


def ler_um_ano(bruto: object, campo: str, leitura: Leitura = JSON) -> int:
    """A year, as every entry point reads it (the command line's ``--ano`` too), or a pt-BR
    error naming ``campo``.

    >>> ler_um_ano("2024", "--ano")
    2024
    >>> ler_um_ano("99999", "--ano")
    Traceback (most recent call last):
    multas.nucleo.erros.EntradaInvalida: --ano: ano fora do intervalo aceito (1900 a 9000): 99999
    """
    ano: int = ler_valor(bruto, Campo(campo, "ano", "Ano", True, 0), leitura)
    return ano


#: types whose text is no number: never read with the decimal comma
_SEM_NUMERO = frozenset({"data", "inciso", "opcao", "infracoes"})


def ler_valor(bruto: object, c: Campo, leitura: Leitura = JSON) -> Any:
    """Parse one field's raw value, exactly, or raise a pt-BR error naming it."""
    nome, tipo, digitado = c.nome, c.tipo, bruto
    if leitura.decimal_virgula and isinstance(bruto, str) and tipo not in _SEM_NUMERO:
        bruto = normalizar_ptbr(bruto)
    dica = leitura.dica_numero
    if tipo in ("ano", "contagem"):
        return _inteiro(bruto, nome, c.minimo if tipo == "contagem" else None, dica, digitado)
    if tipo in ("quantia", "quantia_positiva"):
        return _quantia(bruto, nome, tipo == "quantia_positiva", dica)
    if tipo == "preco":
        return _preco(bruto, nome, dica)
    if tipo == "quantidade":
        return _nao_negativo(para_decimal(bruto, nome, dica), nome)
    if tipo == "data":
        # a table's cell may also be dd/mm/aaaa, as the ANP's and B3's files write it
        return data_de_arquivo_ptbr(bruto, nome) if leitura.tabela else para_data(bruto, nome)
    if tipo == "booleano":
        return _booleano(bruto, nome, leitura.tabela)
    if tipo == "opcao":
        return _opcao(bruto, nome, c.opcoes)
    if tipo == "infracoes":
        return _infracoes(bruto, nome, leitura)
    return _LEITORES[tipo](bruto, nome)


def _agente(bruto: object, nome: str) -> str:
    """``distribuidor`` or ``outro`` (any case, surrounding spaces ignored)."""
    texto = bruto.strip().lower() if isinstance(bruto, str) else None
    if texto not in AGENTES:
        raise EntradaInvalida(
            nome, f"agente inválido: {mostrar_valor(bruto)} (use {' ou '.join(AGENTES)})"
        )
    return texto


def _quantia(bruto: object, nome: str, positiva: bool, dica: str) -> Decimal:
    """An amount in reais: at most two decimal places, not negative (``positiva``: above 0)."""
    valor = para_decimal(bruto, nome, dica)
    if casas_decimais(valor) > 2:
        raise EntradaInvalida(nome, "valor em reais com mais de duas casas decimais")
    _nao_negativo(valor, nome)
    if positiva and valor == 0:
        raise EntradaInvalida(nome, "deve ser maior que zero")
    return valor


def _nao_negativo(valor: Decimal, nome: str) -> Decimal:
    if valor < 0:
        raise EntradaInvalida(nome, "não pode ser negativo")
    return valor


def _inteiro(
    bruto: object, nome: str, minimo: int | None, dica: str = DICA_PONTO, digitado: object = None
) -> int:
    """An integer; an error echoes what was typed (``digitado``: "350.000,5", not the
    normalised "350000.5")."""
    if isinstance(bruto, bool):
        raise EntradaInvalida(nome, "deve ser um número inteiro, não um booleano")
    if isinstance(bruto, int):
        valor = bruto
    elif isinstance(bruto, str) and _INTEIRO.match(bruto.strip()):
        if len(bruto.strip().lstrip("+-")) > MAXIMO_ALGARISMOS:  # before int(): no 10^4300
            raise EntradaInvalida(
                nome, f"número grande demais (no máximo {MAXIMO_ALGARISMOS} algarismos inteiros)"
            )
        valor = int(bruto.strip())
    elif isinstance(bruto, Decimal | float | str):
        numero = para_decimal(bruto, nome, dica)
        if numero != numero.to_integral_value():
            eco = bruto if digitado is None else digitado
            raise EntradaInvalida(nome, f"deve ser um número inteiro, não fracionário ({eco})")
        valor = int(numero)
    else:
        raise EntradaInvalida(nome, "deve ser um número inteiro")
    if abs(valor) >= 10**MAXIMO_ALGARISMOS:
        raise EntradaInvalida(
            nome, f"número grande demais (no máximo {MAXIMO_ALGARISMOS} algarismos inteiros)"
        )
    if minimo is None:  # a year
        if not ANO_MINIMO <= valor <= ANO_MAXIMO:
            raise EntradaInvalida(
                nome, f"ano fora do intervalo aceito ({ANO_MINIMO} a {ANO_MAXIMO}): {valor}"
            )
    elif valor < minimo:
        raise EntradaInvalida(nome, f"deve ser maior ou igual a {minimo}")
    return valor


def _preco(bruto: object, nome: str, dica: str = DICA_PONTO) -> Decimal | Fraction:
    """A price: a number > 0, or the exact fraction ``"p/q"`` that multas writes for a mean
    that does not terminate (p and q integers ≥ 1; spec § 3.1 v4)."""
    if isinstance(bruto, str) and "/" in bruto:
        return ler_fracao(bruto, nome)
    valor = para_decimal(bruto, nome, dica)
    if valor <= 0:
        raise EntradaInvalida(nome, "o preço deve ser maior que zero")
    return valor


def ler_fracao(texto: str, nome: str) -> Fraction:
    """``"p/q"``, exactly as written: p and q integers ≥ 1, at most
    :data:`~multas.nucleo.dinheiro.MAXIMO_ALGARISMOS` × 2 digits each (a mean of many quotes
    has a long denominator); anything else is an error naming ``nome``.

    >>> ler_fracao("334/3", "preco")
    Fraction(334, 3)
    >>> ler_fracao("-1/3", "preco")
    Traceback (most recent call last):
    multas.nucleo.erros.EntradaInvalida: preco: fração inválida: '-1/3' (use p/q, com p e q inteiros maiores que zero, ex.: 334/3)
    """
    casamento = _FRACAO.match(texto)
    limite = 2 * MAXIMO_ALGARISMOS
    if (
        casamento is None
        or len(casamento.group(1)) > limite
        or len(casamento.group(2)) > limite
        or int(casamento.group(1)) == 0
        or int(casamento.group(2)) == 0
    ):
        raise EntradaInvalida(
            nome,
            f"fração inválida: {mostrar_valor(texto[:60])} (use p/q, com p e q inteiros "
            "maiores que zero, ex.: 334/3)",
        )
    valor = Fraction(int(casamento.group(1)), int(casamento.group(2)))
    if valor >= 10**MAXIMO_ALGARISMOS:  # the bound of every number read, however written
        raise EntradaInvalida(
            nome, f"número grande demais (no máximo {MAXIMO_ALGARISMOS} algarismos inteiros)"
        )
    return valor


def ler_texto(bruto: object, nome: str) -> str:
    """A free text of at most :data:`MAXIMO_TEXTO` characters, not empty, without control
    characters."""
    if not isinstance(bruto, str) or not bruto.strip():
        raise EntradaInvalida(nome, "deve ser um texto não vazio")
    if len(bruto) > MAXIMO_TEXTO:
        raise EntradaInvalida(nome, f"texto longo demais (máximo {MAXIMO_TEXTO} caracteres)")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in bruto):
        raise EntradaInvalida(nome, "o texto tem um caractere de controle")
    return bruto.strip()


def _booleano(bruto: object, nome: str, tabela: bool) -> bool:
    if isinstance(bruto, bool):
        return bruto
    if tabela:
        texto = str(bruto).strip().lower()
        if texto in _VERDADEIROS:
            return True
        if texto in _FALSOS:
            return False
        raise EntradaInvalida(
            nome, f"valor lógico inválido: {mostrar_valor(bruto)} (use true/false, 1/0, sim/não)"
        )
    raise EntradaInvalida(nome, "deve ser true ou false (booleano JSON)")


def _inciso(bruto: object, nome: str) -> str:
    """An inciso's roman numeral, upper case (``"xi"`` → ``"XI"``); which incisos exist is the
    regime's to check, against its norma's data (spec § 3.4 v4)."""
    if not isinstance(bruto, str):
        raise EntradaInvalida(nome, "informe o inciso em algarismos romanos (ex.: XI)")
    texto = bruto.strip().upper()
    if not bruto.isascii() or not _ROMANO.match(texto):  # "xı".upper() is "XI"
        raise EntradaInvalida(
            nome, f"inciso inválido: {mostrar_valor(bruto)} (use algarismos romanos, ex.: XI)"
        )
    return texto


def _opcao(bruto: object, nome: str, opcoes: tuple[str, ...]) -> str:
    """One of a field's ``opcoes``, exactly as written (surrounding spaces aside)."""
    texto = bruto.strip() if isinstance(bruto, str) else bruto
    if texto not in opcoes:
        raise EntradaInvalida(
            nome, f"opção inválida: {mostrar_valor(bruto)} (opções: {', '.join(opcoes)})"
        )
    return str(texto)


@dataclass(frozen=True, slots=True)
class InfracaoDoAuto:
    """One inciso of an auto (spec § 3.4.1) and, optionally, the amount fixed for it."""

    inciso: str
    valor: Decimal | None = None

    def como_dict(self) -> dict[str, str]:
        """As the contract writes it: ``{"inciso": "XI", "valor": "20000.00"}``."""
        return {"inciso": self.inciso} | ({} if self.valor is None else {"valor": str(self.valor)})


def _infracoes(bruto: object, nome: str, leitura: Leitura) -> tuple[InfracaoDoAuto, ...]:
    """``[{"inciso": "XI", "valor": "20000"}, …]``: one item per inciso of the auto, at most
    :data:`MAXIMO_INFRACOES`; an error names the item (``infracoes[2].valor``)."""
    if not isinstance(bruto, list) or not bruto:
        raise EntradaInvalida(nome, 'informe ao menos uma infração: [{"inciso": "XI"}]')
    if len(bruto) > MAXIMO_INFRACOES:
        raise EntradaInvalida(nome, f"infrações demais (máximo {MAXIMO_INFRACOES} por auto)")
    itens = []
    for i, item in enumerate(bruto, 1):
        onde = f"{nome}[{i}]"
        if not isinstance(item, Mapping):
            raise EntradaInvalida(onde, 'cada infração é um objeto {"inciso": ..., "valor": ...}')
        for chave in item:
            if chave not in ("inciso", "valor"):
                raise EntradaInvalida(f"{onde}.{chave}", "campo desconhecido numa infração")
        if item.get("inciso") is None:
            raise EntradaInvalida(f"{onde}.inciso", "campo obrigatório")
        inciso = _inciso(item["inciso"], f"{onde}.inciso")
        valor = None
        if item.get("valor") is not None:
            bruto_valor = item["valor"]
            if leitura.decimal_virgula and isinstance(bruto_valor, str):
                bruto_valor = normalizar_ptbr(bruto_valor)
            valor = _quantia(bruto_valor, f"{onde}.valor", False, leitura.dica_numero)
        itens.append(InfracaoDoAuto(inciso, valor))
    return tuple(itens)


def _cotacoes_mensais(bruto: object, nome: str) -> dict[str, Decimal | Fraction]:
    if not isinstance(bruto, Mapping) or not bruto:
        raise EntradaInvalida(nome, 'informe ao menos um mês: {"AAAA-MM": preço}')
    cotacoes: dict[str, Decimal | Fraction] = {}
    for mes, preco in bruto.items():
        _mes(mes, f"{nome}.{mes}")
        cotacoes[str(mes)] = _preco(preco, f"{nome}.{mes}")
    return cotacoes


def _mes(mes: object, onde: str) -> str:
    casamento = _MES.match(str(mes))
    if not isinstance(mes, str) or not casamento or not 1 <= int(casamento.group(2)) <= 12:
        raise EntradaInvalida(onde, "mês inválido (use AAAA-MM)")
    return mes


def ler_datas(bruto: object, nome: str) -> frozenset[date]:
    """A list of dates: a JSON list of ``AAAA-MM-DD``, or (one cell of a batch file) the
    dates separated by spaces. Every date is validated; repeats count once.

    >>> sorted(ler_datas("2025-02-10 2025-02-11", "dias_sem_expediente"))
    [datetime.date(2025, 2, 10), datetime.date(2025, 2, 11)]
    """
    if isinstance(bruto, str):
        itens: list[object] = list(bruto.split())
    elif isinstance(bruto, list | tuple):
        itens = list(bruto)
    else:
        raise EntradaInvalida(nome, 'informe uma lista de datas, ex.: ["2025-02-10"]')
    if len(itens) > MAXIMO_DATAS:
        raise EntradaInvalida(nome, f"no máximo {MAXIMO_DATAS} datas")
    return frozenset(para_data(item, f"{nome}[{i}]") for i, item in enumerate(itens))


def _taxas_mensais(bruto: object, nome: str) -> dict[str, Decimal]:
    """``{"AAAA-MM": percent}``: every entry is validated, needed or not (spec § 3.5)."""
    if not isinstance(bruto, Mapping) or not bruto:
        raise EntradaInvalida(nome, 'informe ao menos um mês: {"AAAA-MM": taxa em %}')
    taxas: dict[str, Decimal] = {}
    for mes, taxa in bruto.items():
        onde = f"{nome}.{mes}"
        _mes(mes, onde)
        if taxa is None:
            raise EntradaInvalida(onde, "informe a taxa do mês, em %")
        valor = para_decimal(taxa, onde)
        if valor < 0:
            raise EntradaInvalida(onde, "a taxa não pode ser negativa")
        taxas[mes] = valor
    return taxas


#: the keys of a daily quote (spec § 3.1 v4)
_CHAVES_COTACAO = frozenset({"data", "preco", "quantidade", "valor_financeiro"})
_COTACAO = 'cada cotação deve ser {"data", "preco"}, {"data", "quantidade", "valor_financeiro"} ou os quatro'


#: daily quotes already read, by their exact text (:func:`_cotacoes_diarias`); at most this many
_LIDAS_MAXIMO = 16
_lidas: dict[tuple[Any, ...], Diarias] = {}


def _chave_das_cotacoes(bruto: list[Any] | tuple[Any, ...], nome: str) -> tuple[Any, ...] | None:
    """What the reading of these quotes depends on, when it is only text and whole numbers
    (each value's exact type kept: ``1`` and ``True`` are not the same input); ``None``
    otherwise, and then they are read anew."""
    chave: list[Any] = [nome]
    for item in bruto:
        if type(item) is not dict:
            return None
        pares = tuple((k, type(v), v) for k, v in item.items())
        if any(type(k) is not str or t not in (str, int) for k, t, _ in pares):
            return None
        chave.append(pares)
    return tuple(chave)


def _cotacoes_diarias(bruto: object, nome: str) -> tuple[Cotacao, ...]:
    """A list of daily quotes. The same quotes read again (a year's ledger gives them to
    every distributor's case) are read once: the same :class:`Diarias` comes back."""
    if not isinstance(bruto, list | tuple) or not bruto:
        raise EntradaInvalida(nome, 'informe uma lista não vazia de {"data": ..., "preco": ...}')
    chave = _chave_das_cotacoes(bruto, nome)
    if chave is None:
        return Diarias(_ler_cotacoes_diarias(bruto, nome))
    lidas = _lidas.get(chave)
    if lidas is None:
        # the key's own copy is read, never the caller's objects a second time: a list that
        # iterates otherwise, or another thread's write, would put one text's reading under
        # another's key, for every later caller (found by a hostile review)
        copia = [{k: v for k, _, v in pares} for pares in chave[1:]]
        lidas = Diarias(_ler_cotacoes_diarias(copia, nome))
        if len(_lidas) >= _LIDAS_MAXIMO:
            _lidas.clear()
        _lidas[chave] = lidas
    return lidas


def _ler_cotacoes_diarias(bruto: list[Any] | tuple[Any, ...], nome: str) -> list[Cotacao]:
    vistas: set[date] = set()
    cotacoes = []
    for i, item in enumerate(bruto):
        onde = f"{nome}[{i}]"
        if not isinstance(item, Mapping):
            raise EntradaInvalida(onde, _COTACAO)
        extras = set(item) - _CHAVES_COTACAO
        if extras:
            raise EntradaInvalida(f"{onde}.{sorted(map(str, extras))[0]}", "campo desconhecido")
        if item.get("data") is None:
            raise EntradaInvalida(f"{onde}.data", "campo obrigatório")
        dia = para_data(item["data"], f"{onde}.data")
        if dia in vistas:
            raise EntradaInvalida(f"{onde}.data", f"data repetida: {dia.isoformat()}")
        vistas.add(dia)
        cotacoes.append(ler_cotacao(dia, item, onde))
    return cotacoes


def ler_cotacao(dia: date, item: Mapping[str, Any], onde: str, dica: str = DICA_PONTO) -> Cotacao:
    """One day's quote: ``preco``, or ``quantidade`` (int ≥ 1) with ``valor_financeiro`` (an
    amount), or all three; one volume field without the other is an error naming it."""
    preco, quantidade, financeiro = (
        item.get(chave) for chave in ("preco", "quantidade", "valor_financeiro")
    )
    if quantidade is None and financeiro is None:
        if preco is None:
            raise EntradaInvalida(f"{onde}.preco", f"campo obrigatório ({_COTACAO})")
    elif quantidade is None or financeiro is None:
        falta = "quantidade" if quantidade is None else "valor_financeiro"
        raise EntradaInvalida(
            f"{onde}.{falta}", "quantidade e valor_financeiro vão juntos: informe os dois"
        )
    return Cotacao(
        dia,
        None if preco is None else Fraction(_preco(preco, f"{onde}.preco", dica)),
        None if quantidade is None else _inteiro(quantidade, f"{onde}.quantidade", 1, dica),
        None
        if financeiro is None
        else _quantia(financeiro, f"{onde}.valor_financeiro", True, dica),
    )


def construir(classe: type[Caso], dados: Mapping[str, Any], leitura: Leitura = JSON) -> Caso:
    """Build a regime's case from raw values (unknown fields are checked by the caller).
    Every field is read on its own and all their errors are raised together
    (:func:`~multas.nucleo.erros.levantar`); the rules across fields (:meth:`Caso.validar`)
    run once every field is readable."""
    valores: dict[str, Any] = {}
    erros: list[EntradaInvalida] = []
    for c in classe.campos():
        bruto = dados.get(c.nome)
        if bruto is None:
            if c.obrigatorio:
                erros.append(EntradaInvalida(c.nome, "campo obrigatório"))
            continue
        try:  # no context manager here: the batch's hot path
            valores[c.nome] = ler_valor(bruto, c, leitura)
        except EntradaInvalida as erro:
            erros.extend(erro.todos())
    levantar(erros)
    caso = classe(**valores)
    caso.validar()
    return caso


def exigir_par(caso: Caso, a: str, b: str, o_que: str) -> None:
    """Both fields or neither (spec § 3.1: the revenue pair; § 3.6: each cycle's pair)."""
    tem_a, tem_b = getattr(caso, a) is not None, getattr(caso, b) is not None
    if tem_a and not tem_b:
        raise EntradaInvalida(b, f"informe também {b}: {o_que} vão juntos ({a} e {b}), ou nenhum")
    if tem_b and not tem_a:
        raise EntradaInvalida(a, f"informe também {a}: {o_que} vão juntos ({a} e {b}), ou nenhum")


# --- the regimes' inputs (spec § 3) ------------------------------------------------------


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoComPreco(Caso):
    """The CBIO price (exactly one of three forms) and the revenue pair (both or neither)."""

    maior_media_mensal: Decimal | Fraction | None = campo(
        "preco",
        "Maior média mensal das cotações do CBIO no exercício (uma das três formas de preço)",
    )
    cotacoes_mensais: dict[str, Decimal | Fraction] | None = campo(
        "cotacoes_mensais", "Médias mensais das cotações do CBIO, por mês AAAA-MM"
    )
    cotacoes_diarias: tuple[Cotacao, ...] | None = campo(
        "cotacoes_diarias",
        "Cotações diárias do CBIO, com o preço e/ou o volume do dia (a média de cada mês é "
        "calculada: ponderada pelo volume quando todas o trazem)",
    )
    fonte_cotacoes: str | None = campo(
        "texto", "De onde vêm as cotações (ex.: B3, resumo diário do CBIO)"
    )
    faturamento_ano_meta: Decimal | None = campo(
        "quantia", "Faturamento anual do exercício do descumprimento (junto com o do ano anterior)"
    )
    faturamento_ano_anterior: Decimal | None = campo(
        "quantia", "Faturamento anual do exercício anterior (junto com o do ano da meta)"
    )

    def validar(self) -> None:
        precos = [
            nome
            for nome in ("maior_media_mensal", "cotacoes_mensais", "cotacoes_diarias")
            if getattr(self, nome) is not None
        ]
        if not precos:
            raise EntradaInvalida(
                "maior_media_mensal",
                "informe o preço do CBIO: maior_media_mensal, cotacoes_mensais ou cotacoes_diarias",
            )
        if len(precos) > 1:
            raise EntradaInvalida(
                precos[1], f"informe só uma forma de preço; {precos[0]} já foi informado"
            )
        exigir_par(self, "faturamento_ano_meta", "faturamento_ano_anterior", "os faturamentos")


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoDistribuidor(CasoComPreco):
    regime = "renovabio.distribuidor"

    ano_meta: int = campo(
        "ano", "Ano da meta individual (exercício do descumprimento)", obrigatorio=True
    )
    meta_cbios: int = campo("contagem", "Meta individual, em CBIOs", obrigatorio=True)
    cbios_aposentados: int = campo(
        "contagem", "CBIOs aposentados para comprovar a meta", obrigatorio=True
    )
    data_quitacao: date | None = campo(
        "data",
        "Data em que o distribuidor quitou a meta (reduz a multa: Decreto nº 9.888/2019, "
        "art. 6º-A, § 8º)",
    )
    prazo_comprovacao: date | None = campo(
        "data", "Prazo de comprovação da meta (art. 4º-A); por padrão, o da tabela por ano"
    )
    meta_anterior_cumprida: bool | None = campo(
        "booleano",
        "A meta do ano anterior foi cumprida integralmente? Com true, a falta que cabe na parte "
        "da meta que pode ser comprovada no ano seguinte é diferida, sem multa (Lei nº "
        "13.576/2017, art. 7º, como a ANP a aplica). Sem o campo, não há diferimento",
    )
    diferir: bool | None = campo(
        "booleano", "Usar o diferimento quando cabível (com meta_anterior_cumprida; padrão: true)"
    )
    falta_anterior: int | None = campo(
        "contagem",
        "Parte de meta_cbios que é a falta do ano anterior somada à meta (Resolução ANP nº "
        "791/2019, art. 10, § 1º); sem meta própria, a leitura meta_herdada decide a multa",
    )

    def validar(self) -> None:
        super().validar()
        if self.falta_anterior is not None and self.falta_anterior > self.meta_cbios:
            raise EntradaInvalida(
                "falta_anterior",
                f"maior que meta_cbios ({self.meta_cbios}), que já inclui a falta do ano anterior",
            )


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoProdutor(CasoComPreco):
    regime = "renovabio.produtor"

    ano: int = campo("ano", "Ano (exercício) do não pagamento; a partir de 2025", obrigatorio=True)
    cbios_nao_pagos: int = campo(
        "contagem",
        "CBIOs da participação do produtor de cana que deixaram de ser pagos",
        obrigatorio=True,
    )
    dados_primarios: bool | None = campo(
        "booleano", "O produtor de cana forneceu os dados primários (multa em dobro)? Padrão: false"
    )


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoVedacao(Caso):
    regime = "renovabio.vedacao"

    valor_base: Decimal | None = campo(
        "quantia",
        "Valor proposto para a multa, antes do piso, do teto e do limite do faturamento (o "
        "decreto remete os parâmetros à regulação da ANP, não transcrita)",
    )
    agente: str | None = campo(
        "agente",
        "Quem infringiu a vedação: distribuidor (padrão) ou outro; o limite de faturamento só "
        'se aplica ao distribuidor ("A multa de cada distribuidor")',
    )
    faturamento_ano_meta: Decimal | None = campo(
        "quantia", "Faturamento anual do último exercício (junto com o do ano anterior)"
    )
    faturamento_ano_anterior: Decimal | None = campo(
        "quantia", "Faturamento anual do exercício anterior a esse"
    )

    def validar(self) -> None:
        exigir_par(self, "faturamento_ano_meta", "faturamento_ano_anterior", "os faturamentos")


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoEficiencia(Caso):
    regime = "mover.eficiencia"

    meta_mj_km: Decimal | None = campo(
        "quantidade", "Meta de consumo energético, tanque à roda (MJ/km)"
    )
    consumo_mj_km: Decimal | None = campo(
        "quantidade", "Consumo energético alcançado, tanque à roda (MJ/km)"
    )
    meta_gco2_km: Decimal | None = campo("quantidade", "Meta de emissões, poço à roda (gCO2e/km)")
    emissao_gco2_km: Decimal | None = campo(
        "quantidade", "Emissões alcançadas, poço à roda (gCO2e/km)"
    )
    veiculos: int = campo(
        "contagem",
        "Veículos vendidos no período (a multa é por veículo)",
        obrigatorio=True,
        minimo=1,
    )

    def validar(self) -> None:
        exigir_par(self, "meta_mj_km", "consumo_mj_km", "meta e consumo do tanque à roda")
        exigir_par(self, "meta_gco2_km", "emissao_gco2_km", "meta e emissão do poço à roda")
        if self.meta_mj_km is None and self.meta_gco2_km is None:
            raise EntradaInvalida(
                "meta_mj_km",
                "informe ao menos um ciclo completo: meta_mj_km com consumo_mj_km, "
                "ou meta_gco2_km com emissao_gco2_km",
            )


#: the types read from the raw value and the field's name alone
_LEITORES: dict[str, Callable[[object, str], Any]] = {
    "inciso": _inciso,
    "cotacoes_mensais": _cotacoes_mensais,
    "cotacoes_diarias": _cotacoes_diarias,
    "taxas_mensais": _taxas_mensais,
    "datas": ler_datas,
    "texto": ler_texto,
    "agente": _agente,
}
