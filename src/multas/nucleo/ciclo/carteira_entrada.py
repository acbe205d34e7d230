"""The ledger's input (:mod:`multas.nucleo.ciclo.carteira`): one year of a distributor's
ledger as entered (:class:`AnoCarteira`), its retirements one by one (:class:`Aposentadoria`)
and the readings of ``interpretacao``, each read and validated; an error names the field (and,
for a file's rows, the row and the column). The years are computed by
:func:`multas.nucleo.ciclo.carteira.calcular_carteira`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.arquivos import Local
from multas.nucleo.cnpj import ler_cnpj
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.contrato import JSON, Campo, Leitura, ler_valor
from multas.nucleo.dinheiro import MAXIMO_ALGARISMOS
from multas.nucleo.erros import EntradaInvalida, ErrosDasLinhas, levantar, mostrar_valor
from multas.nucleo.preco import Cotacao, exato

#: the text fields of one year: name → (required, maximum length, description)
CAMPOS_TEXTO: dict[str, tuple[bool, int, str]] = {
    "cnpj": (True, 32, "CNPJ do distribuidor (texto, com os dígitos verificadores certos)"),
    "nome": (False, 200, "Nome do distribuidor"),
}
#: the typed fields of one year, read with the contract's own parser
CAMPOS_ANO: tuple[Campo, ...] = (
    Campo("ano", "ano", "Ano da meta individual", True, 0),
    # meta_cbios or meta_publicada (below): at least one
    Campo(
        "meta_cbios",
        "contagem",
        "Meta própria do ano, em CBIOs, sem a falta do ano anterior (a meta total publicada, "
        "com a falta, é meta_publicada)",
        False,
        0,
    ),
    # cbios_aposentados or aposentadorias (below): at least one
    Campo("cbios_aposentados", "contagem", "CBIOs aposentados para comprovar a meta", False, 0),
    Campo(
        "maior_media_mensal", "preco", "Maior média mensal do CBIO no ano (para a multa)", False, 0
    ),
    Campo(
        "cotacoes_diarias",
        "cotacoes_diarias",
        "Cotações diárias do CBIO no ano (o preço exato é a maior média mensal)",
        False,
        0,
    ),
    Campo(
        "cotacoes_mensais",
        "cotacoes_mensais",
        "Médias mensais das cotações do CBIO no ano",
        False,
        0,
    ),
    Campo("faturamento_ano_meta", "quantia", "Faturamento do ano da meta", False, 0),
    Campo("faturamento_ano_anterior", "quantia", "Faturamento do ano anterior", False, 0),
    Campo("data_quitacao", "data", "Data em que a falta do ano foi quitada", False, 0),
    Campo(
        "prazo_comprovacao",
        "data",
        "Prazo de comprovação (art. 4º-A), se não o da tabela",
        False,
        0,
    ),
    Campo(
        "diferir",
        "booleano",
        "Usar o diferimento quando cabível (padrão: sim)",
        False,
        0,
    ),
    Campo(
        "segundo_ano_atuacao",
        "booleano",
        "É o segundo ano de atuação do distribuidor? (comprovações parciais em 30/06 e 31/12)",
        False,
        0,
    ),
    Campo(
        "meta_anterior_cumprida",
        "booleano",
        "A meta do ano anterior foi cumprida integralmente? (só quando esse ano não está na carteira)",
        False,
        0,
    ),
    Campo(
        "meta_publicada",
        "contagem",
        "Meta do ano como a ANP a publica, já com a falta do ano anterior somada",
        False,
        0,
    ),
    Campo(
        "falta_anterior",
        "contagem",
        "Falta do ano anterior somada à meta, como a ANP a publica",
        False,
        0,
    ),
)
#: the year's retirements, one by one (a list: not a column of a table)
APOSENTADORIAS = "aposentadorias"
NOMES_CAMPOS = (*CAMPOS_TEXTO, *(c.nome for c in CAMPOS_ANO), APOSENTADORIAS)
#: at most this many retirements in one year (a stored year is at most 1 MiB of JSON)
MAXIMO_APOSENTADORIAS = 5_000
#: the longest B3 reference of a retirement
MAXIMO_REFERENCIA = 64
#: the fields of one retirement, as a ledger year holds it
CAMPOS_APOSENTADORIA: tuple[Campo, ...] = (
    Campo("data", "data", "Dia da aposentadoria dos CBIOs", True, 0),
    Campo("quantidade", "contagem", "CBIOs aposentados nessa operação", True, 1),
)
REFERENCIA_B3 = "referencia_b3"

#: the ledger's readings (spec v3, issue 18), the default first:
#: - ``preco_diferido``: deferred CBIOs not proven the next year are fined in the next year, at
#:   its price and wording (``ano_seguinte``), or as part of the year of the deferral
#:   (``ano_diferimento``);
#: - ``diferimento_excedente``: a shortfall above the 15% gets no deferral (``nenhum``), or
#:   15% of the target is deferred and the rest fined (``parcial``).
LEITURAS: dict[str, tuple[str, ...]] = {
    "preco_diferido": ("ano_seguinte", "ano_diferimento"),
    "diferimento_excedente": ("nenhum", "parcial"),
}
#: the readings of the fine itself (``renovabio.distribuidor``, spec § 3.1 v4) that a ledger,
#: a year and ``carteira conferir`` pass to the engine; ``media_mensal`` only when chosen (its
#: default depends on the quotes, and the engine picks it)
LEITURAS_DA_MULTA: dict[str, tuple[str, ...]] = {
    "media_mensal": ("ponderada", "simples"),
    "meta_herdada": ("nao_multa", "multa"),
    "ano_do_preco": ("ano_meta", "prazo"),
}
_PADRAO_NA_REGRA = frozenset({"media_mensal"})


def ler_leituras(bruto: object) -> dict[str, str]:
    """``interpretacao`` of a ledger: unknown keys and options are errors naming the field."""
    aceitas = LEITURAS | LEITURAS_DA_MULTA
    leituras = {
        chave: opcoes[0] for chave, opcoes in aceitas.items() if chave not in _PADRAO_NA_REGRA
    }
    if bruto is None:
        return leituras
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(
            "interpretacao", 'deve ser um objeto, ex.: {"preco_diferido": "ano_diferimento"}'
        )
    for chave, opcao in bruto.items():
        if chave == "data_infracao_meta":  # spec § 6.3 v4: the year's save alone reads it
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                "só vale em multas ano calcular --salvar: decide a data da infração dos "
                "processos que o ano abre, não o valor da multa",
            )
        if chave not in aceitas:
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                f"leitura desconhecida para a carteira (aceitas: {', '.join(aceitas)})",
            )
        if opcao not in aceitas[chave]:
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                f"opção inválida: {mostrar_valor(str(opcao)[:40])} (opções: {', '.join(aceitas[chave])})",
            )
        leituras[chave] = opcao
    return leituras


@dataclass(frozen=True, slots=True)
class Aposentadoria:
    """One retirement of CBIOs: its date, how many, and the B3 reference of the operation."""

    data: date
    quantidade: int
    referencia_b3: str

    def como_dict(self) -> dict[str, Any]:
        return {
            "data": self.data.isoformat(),
            "quantidade": self.quantidade,
            REFERENCIA_B3: self.referencia_b3,
        }


@dataclass(frozen=True, slots=True)
class AnoCarteira:
    """One year of the ledger, as entered (validated): ``meta_cbios`` or ``meta_publicada``,
    and ``cbios_aposentados`` or ``aposentadorias``, at least one of each pair."""

    cnpj: str
    ano: int
    meta_cbios: int | None = None
    cbios_aposentados: int | None = None
    nome: str | None = None
    maior_media_mensal: Decimal | Fraction | None = None
    cotacoes_diarias: tuple[Cotacao, ...] | None = None
    cotacoes_mensais: Mapping[str, Decimal | Fraction] | None = None
    faturamento_ano_meta: Decimal | None = None
    faturamento_ano_anterior: Decimal | None = None
    data_quitacao: date | None = None
    prazo_comprovacao: date | None = None
    diferir: bool | None = None
    segundo_ano_atuacao: bool | None = None
    meta_anterior_cumprida: bool | None = None
    meta_publicada: int | None = None
    falta_anterior: int | None = None
    aposentadorias: tuple[Aposentadoria, ...] | None = None

    @property
    def falta_publicada(self) -> int | None:
        """The carry-over as the ANP publishes it: ``falta_anterior``, else ``meta_publicada −
        meta_cbios`` when both are given; ``None`` when the year does not say it."""
        if self.falta_anterior is not None:
            return self.falta_anterior
        if self.meta_publicada is not None and self.meta_cbios is not None:
            return self.meta_publicada - self.meta_cbios
        return None

    def como_dict(self) -> dict[str, Any]:
        """The entry as JSON (numbers as strings, dates ISO), absent fields left out."""
        saida: dict[str, Any] = {}
        for nome in NOMES_CAMPOS:
            valor = getattr(self, nome)
            if valor is None:
                continue
            if isinstance(valor, Decimal):
                valor = f"{valor:f}"
            elif isinstance(valor, date):
                valor = valor.isoformat()
            elif isinstance(valor, Fraction):
                valor = exato(valor)
            elif nome == "cotacoes_diarias":
                valor = [c.como_dict() for c in valor]
            elif nome == "cotacoes_mensais":
                valor = {mes: exato(media) for mes, media in valor.items()}
            elif nome == APOSENTADORIAS:
                valor = [a.como_dict() for a in valor]
            saida[nome] = valor
        return saida


#: the ways a year gives its CBIO price (the contract's), at most one
_PRECOS = ("maior_media_mensal", "cotacoes_diarias", "cotacoes_mensais")


def _texto(bruto: object, campo: str, limite: int) -> str:
    if isinstance(bruto, int) and not isinstance(bruto, bool) and campo.endswith("cnpj"):
        raise EntradaInvalida(campo, "informe o CNPJ como texto (um número perderia os zeros)")
    if not isinstance(bruto, str) or not bruto.strip():
        raise EntradaInvalida(campo, "deve ser um texto não vazio")
    texto = " ".join(bruto.split())
    if len(texto) > limite:
        raise EntradaInvalida(campo, f"texto longo demais (máximo {limite} caracteres)")
    return texto


def _textos(
    dados: Mapping[str, object], leitura: Leitura, prefixo: str, guardado: bool
) -> dict[str, Any]:
    """The text fields of a year (:data:`CAMPOS_TEXTO`), the CNPJ checked unless
    ``guardado``."""
    valores: dict[str, Any] = {}
    for nome, (obrigatorio, limite, _) in CAMPOS_TEXTO.items():
        bruto = dados.get(nome)
        if bruto is None or (leitura.tabela and isinstance(bruto, str) and not bruto.strip()):
            if obrigatorio:
                raise EntradaInvalida(f"{prefixo}{nome}", "campo obrigatório")
            continue
        valores[nome] = _texto(bruto, f"{prefixo}{nome}", limite)
    if not guardado:
        ler_cnpj(valores["cnpj"], f"{prefixo}cnpj")
    return valores


def ler_ano(
    dados: object, leitura: Leitura = JSON, prefixo: str = "", *, guardado: bool = False
) -> AnoCarteira:
    """Validate one year of the ledger (a JSON object or a table row). Its ``cnpj`` names the
    distributor: a CNPJ with the right check digits (:func:`multas.nucleo.cnpj.ler_cnpj`),
    kept as written. ``guardado``: a year read back from the database, whose CNPJ is not
    checked (one stored before that rule stays readable, flagged in the views). Every field's
    error at once (:class:`~multas.nucleo.erros.ErrosDeEntrada`, the first the one it always
    was); the rules across fields once every field is readable."""
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(prefixo or None, "cada ano da carteira deve ser um objeto JSON")
    # every field read on its own, each error kept (issue 37: all of them at once, the first
    # the one it always was); the rules across fields only once every field is readable
    erros = [
        EntradaInvalida(
            f"{prefixo}{chave}",
            f"campo desconhecido na carteira (campos: {', '.join(NOMES_CAMPOS)})",
        )
        for chave in dados
        if chave not in NOMES_CAMPOS
    ]
    valores: dict[str, Any] = {}
    try:
        valores = _textos(dados, leitura, prefixo, guardado)
    except EntradaInvalida as erro:
        erros.extend(erro.todos())
    for c in CAMPOS_ANO:
        bruto = dados.get(c.nome)
        if bruto is None or (leitura.tabela and isinstance(bruto, str) and not bruto.strip()):
            if c.obrigatorio:
                erros.append(EntradaInvalida(f"{prefixo}{c.nome}", "campo obrigatório"))
            continue
        try:
            valores[c.nome] = ler_valor(bruto, c, leitura)
        except EntradaInvalida as erro:
            erros.append(EntradaInvalida(f"{prefixo}{erro.campo}", erro.mensagem))
    try:
        lista = _aposentadorias_do_ano(dados.get(APOSENTADORIAS), leitura, prefixo)
    except EntradaInvalida as erro:
        erros.extend(erro.todos())
    else:
        if lista is not None:
            valores[APOSENTADORIAS] = lista
    levantar(erros)
    ano = AnoCarteira(**valores)
    _um_de_cada_par(ano, prefixo)
    conferir_meta(ano, prefixo)
    precos = [n for n in _PRECOS if getattr(ano, n) is not None]
    if len(precos) > 1:
        raise EntradaInvalida(
            f"{prefixo}{precos[1]}", f"informe só um preço do ano: {' ou '.join(_PRECOS)}"
        )
    if (ano.faturamento_ano_meta is None) != (ano.faturamento_ano_anterior is None):
        falta = (
            "faturamento_ano_anterior"
            if ano.faturamento_ano_anterior is None
            else "faturamento_ano_meta"
        )
        raise EntradaInvalida(f"{prefixo}{falta}", "informe os dois faturamentos, ou nenhum")
    if not 1900 <= ano.ano <= 9998:
        raise EntradaInvalida(f"{prefixo}ano", f"ano fora do intervalo aceito: {ano.ano}")
    return ano


def erros_do_ano(dados: object, leitura: Leitura = JSON) -> tuple[EntradaInvalida, ...]:
    """Every error of a ledger year (:func:`ler_ano`), in the order found; none: ``()``."""
    try:
        ler_ano(dados, leitura)
    except EntradaInvalida as erro:
        return erro.todos()
    return ()


def _aposentadorias_do_ano(
    bruto: object, leitura: Leitura, prefixo: str
) -> tuple[Aposentadoria, ...] | None:
    """A year's ``aposentadorias`` (a JSON list; a table's cell cannot hold one)."""
    if bruto is None or (leitura.tabela and isinstance(bruto, str) and not bruto.strip()):
        return None
    if leitura.tabela and isinstance(bruto, str):
        raise EntradaInvalida(
            f"{prefixo}{APOSENTADORIAS}",
            "as aposentadorias não cabem numa célula: importe-as com multas carteira "
            "aposentadorias importar, ou dê o ano em JSON",
        )
    return ler_aposentadorias(bruto, leitura, f"{prefixo}{APOSENTADORIAS}")


def _um_de_cada_par(ano: AnoCarteira, prefixo: str) -> None:
    """``meta_cbios`` or ``meta_publicada``; ``cbios_aposentados`` or ``aposentadorias``."""
    if ano.meta_cbios is None and ano.meta_publicada is None:
        raise EntradaInvalida(
            f"{prefixo}meta_cbios",
            "campo obrigatório (ou meta_publicada, a meta com a falta do ano anterior)",
        )
    if ano.cbios_aposentados is None and ano.aposentadorias is None:
        raise EntradaInvalida(
            f"{prefixo}cbios_aposentados", "campo obrigatório (ou aposentadorias, uma a uma)"
        )


def conferir_meta(ano: AnoCarteira, prefixo: str = "") -> None:
    """The target as published (``meta_publicada``, ``falta_anterior``) against the year's own
    (``meta_cbios``): the carry-over within the total, the own target not above it, and a
    carry-over means the year before was not met. The one reading of the published target,
    for the ledger and for ``multas ano``; the three not adding up is the ledger's aviso."""
    publicada, propria, falta = ano.meta_publicada, ano.meta_cbios, ano.falta_anterior
    if publicada is not None and falta is not None and falta > publicada:
        raise EntradaInvalida(
            f"{prefixo}falta_anterior", "maior que a meta publicada, que já a inclui"
        )
    if publicada is not None and propria is not None and propria > publicada:
        raise EntradaInvalida(
            f"{prefixo}meta_publicada",
            f"menor que meta_cbios ({propria}): a meta publicada é a meta do ano mais a falta "
            "do ano anterior",
        )
    # the three given and not adding up: an aviso of the ledger, not an error (spec § 3.1 v4)
    carregada = ano.falta_publicada
    if carregada is not None and carregada > 0 and ano.meta_anterior_cumprida is True:
        raise EntradaInvalida(
            f"{prefixo}{'falta_anterior' if falta is not None else 'meta_publicada'}",
            "há falta do ano anterior, mas meta_anterior_cumprida diz que a meta foi cumprida",
        )


def ler_aposentadoria(item: object, leitura: Leitura = JSON) -> Aposentadoria:
    """One retirement: ``{"data", "quantidade", "referencia_b3"}`` (``referencia`` is the same
    column, for a table). An error names the key, without where the item is."""
    if not isinstance(item, Mapping):
        raise EntradaInvalida(
            None, 'cada aposentadoria deve ser um objeto {"data", "quantidade", "referencia_b3"}'
        )
    nomes = (*(c.nome for c in CAMPOS_APOSENTADORIA), REFERENCIA_B3, "referencia")
    for chave in item:
        if chave not in nomes:
            raise EntradaInvalida(
                str(chave)[:60],
                f"campo desconhecido na aposentadoria (campos: data, quantidade, {REFERENCIA_B3})",
            )
    valores: dict[str, Any] = {}
    for c in CAMPOS_APOSENTADORIA:
        bruto = item.get(c.nome)
        if bruto is None or (isinstance(bruto, str) and not bruto.strip()):
            raise EntradaInvalida(c.nome, "campo obrigatório")
        valores[c.nome] = ler_valor(bruto, c, leitura)
    dadas = [n for n in (REFERENCIA_B3, "referencia") if item.get(n) is not None]
    if len(dadas) > 1:
        raise EntradaInvalida("referencia", f"informe a referência uma vez só ({REFERENCIA_B3})")
    nome = dadas[0] if dadas else REFERENCIA_B3
    bruto = item.get(nome)
    if isinstance(bruto, int) and not isinstance(bruto, bool):
        bruto = str(bruto)  # a numeric reference read from a table or JSON
    referencia = _texto(bruto, nome, MAXIMO_REFERENCIA) if bruto is not None else None
    if referencia is None:
        raise EntradaInvalida(nome, "campo obrigatório (a referência B3 da aposentadoria)")
    return Aposentadoria(valores["data"], valores["quantidade"], referencia)


def _chave_da_referencia(referencia: str) -> str:
    """Two references are the same one whatever their case (``ab12`` is ``AB12``)."""
    return referencia.casefold()


def _conferir_soma(aposentadorias: Sequence[Aposentadoria], campo: str) -> None:
    if sum(a.quantidade for a in aposentadorias) >= 10**MAXIMO_ALGARISMOS:
        raise EntradaInvalida(
            campo,
            f"a soma das quantidades passa de {MAXIMO_ALGARISMOS} algarismos: confira as "
            "quantidades",
        )


def ler_aposentadorias(
    bruto: object, leitura: Leitura = JSON, campo: str = APOSENTADORIAS
) -> tuple[Aposentadoria, ...]:
    """A year's retirements (a JSON list), each validated; each B3 reference once. An error
    names the item: ``aposentadorias[2].quantidade``."""
    if not isinstance(bruto, list | tuple):
        raise EntradaInvalida(
            campo,
            'informe uma lista de {"data": "AAAA-MM-DD", "quantidade": ..., "referencia_b3": ...}',
        )
    if len(bruto) > MAXIMO_APOSENTADORIAS:
        raise EntradaInvalida(
            campo, f"no máximo {MAXIMO_APOSENTADORIAS} aposentadorias num ano (vieram {len(bruto)})"
        )
    lidas: list[Aposentadoria] = []
    vistas: dict[str, int] = {}
    for i, item in enumerate(bruto):
        onde = f"{campo}[{i}]"
        try:
            lida = ler_aposentadoria(item, leitura)
        except EntradaInvalida as erro:
            raise EntradaInvalida(
                f"{onde}.{erro.campo}" if erro.campo else onde, erro.mensagem
            ) from None
        chave = _chave_da_referencia(lida.referencia_b3)
        if chave in vistas:
            raise EntradaInvalida(
                f"{onde}.{REFERENCIA_B3}",
                f"referência B3 repetida: {mostrar_valor(lida.referencia_b3)} (também em "
                f"{campo}[{vistas[chave]}])",
            )
        vistas[chave] = i
        lidas.append(lida)
    _conferir_soma(lidas, campo)
    return tuple(lidas)


def ler_aposentadorias_da_planilha(
    linhas: Sequence[object], locais: Sequence[Local], leitura: Leitura
) -> tuple[Aposentadoria, ...]:
    """A year's retirements from a file's rows (columns ``data``, ``quantidade`` and
    ``referencia`` or ``referencia_b3``): an error says the row and the column (``linha 3,
    coluna quantidade``); a B3 reference repeated names both rows."""
    if not linhas:
        raise EntradaInvalida("arquivo", "nenhuma aposentadoria no arquivo")
    if len(linhas) > MAXIMO_APOSENTADORIAS:
        raise EntradaInvalida(
            "arquivo",
            f"no máximo {MAXIMO_APOSENTADORIAS} aposentadorias num ano (vieram {len(linhas)})",
        )
    lidas: list[Aposentadoria] = []
    vistas: dict[str, Local] = {}
    for linha, local in zip(linhas, locais, strict=True):
        try:
            lida = ler_aposentadoria(linha, leitura)
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
        chave = _chave_da_referencia(lida.referencia_b3)
        if chave in vistas:
            coluna = (
                "referencia"
                if isinstance(linha, Mapping) and "referencia" in linha
                else REFERENCIA_B3
            )
            raise local.erro(
                f"referência B3 repetida: {mostrar_valor(lida.referencia_b3)} (primeira vez: {vistas[chave]})",
                coluna,
            )
        vistas[chave] = local
        lidas.append(lida)
    _conferir_soma(lidas, "arquivo")
    return tuple(lidas)


def locais_de_lista(n: int) -> list[Local]:
    """Where the years of a JSON list are: ``item 1``, ``item 2``, …"""
    return [Local(i, "item", "campo") for i in range(1, n + 1)]


def ler_anos(
    linhas: Sequence[object], leitura: Leitura = JSON, locais: Sequence[Local] | None = None
) -> list[AnoCarteira]:
    """Several years (any CNPJs), each validated. An error names the field as its ``campo``
    and says where the row is: ``locais`` (``linha 3, coluna ano``, as the file was read), or
    the position in the list (``item 2, campo ano``). Every row is read and every error of
    every row raised together, in the file's order (at most
    :data:`~multas.nucleo.erros.MAXIMO_ERROS_DAS_LINHAS`, the last counting the rest): a
    spreadsheet is fixed in one go, not one error per try."""
    if locais is None:
        locais = locais_de_lista(len(linhas))
    anos = []
    erros = ErrosDasLinhas()  # every error of every row (issue 37, item 9), bounded
    for linha, local in zip(linhas, locais, strict=True):
        try:
            anos.append(ler_ano(linha, leitura))
        except EntradaInvalida as erro:
            for um in erro.todos():
                erros.juntar(local.localizar(um))
    erros.levantar()
    return anos


def por_distribuidor(anos: Sequence[AnoCarteira]) -> dict[str, list[AnoCarteira]]:
    grupos: dict[str, list[AnoCarteira]] = {}
    for ano in anos:
        grupos.setdefault(normalizar_cnpj(ano.cnpj), []).append(ano)
    return grupos
