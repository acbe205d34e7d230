"""The engine: one case in, one result out (spec § 3). The CLI, API, web page and batch all
call :func:`calcular`; none of them re-implements a rule, a parse or a rounding.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any

from multas.nucleo.contrato import JSON, Caso, Leitura, construir
from multas.nucleo.erros import Coleta, EntradaInvalida, levantar, mostrar_valor
from multas.nucleo.identidade import CAMPOS, id_do_caso, ler_identidade
from multas.nucleo.legislacao import Legislacao, carregar
from multas.nucleo.memoria import Resultado, silenciosa
from multas.nucleo.regimes import REGIMES, Regime
from multas.nucleo.sinonimos import ler_sinonimos, sinonimos_do_regime


def regime_de(nome: object) -> Regime:
    if nome is None:
        raise EntradaInvalida("regime", "campo obrigatório")
    if not isinstance(nome, str) or nome not in REGIMES:
        raise EntradaInvalida(
            "regime", f"regime desconhecido: {mostrar_valor(nome)} (regimes: {', '.join(REGIMES)})"
        )
    return REGIMES[nome]


def ler_interpretacao(regime: Regime, bruto: object) -> dict[str, str]:
    """The chosen readings, defaults filled in; an unknown key or option is an error. An
    option given by its alias (``encargos = decreto``) is read by its own name (spec § 3 v4)."""
    escolhida = regime.interpretacao_padrao()
    if bruto is None:
        return escolhida
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida("interpretacao", 'deve ser um objeto, ex.: {"faturamento": "media"}')
    coleta = Coleta()  # every reading on its own: all their errors together
    for chave, opcao in bruto.items():
        with coleta.campo():
            escolhida[chave] = _opcao_lida(regime, chave, opcao)
    coleta.levantar()
    return escolhida


def _opcao_lida(regime: Regime, chave: object, opcao: object) -> str:
    if chave not in regime.interpretacoes:
        aceitas = ", ".join(regime.interpretacoes) or "nenhuma"
        raise EntradaInvalida(
            f"interpretacao.{chave}",
            f"leitura desconhecida para o regime {regime.nome} (aceitas: {aceitas})",
        )
    opcoes = regime.interpretacoes[str(chave)]
    opcao = regime.opcao(str(chave), opcao)
    if opcao not in opcoes:
        raise EntradaInvalida(
            f"interpretacao.{chave}",
            f"opção inválida: {mostrar_valor(opcao)} (opções: {', '.join(opcoes)})",
        )
    return str(opcao)


def ler_interpretacao_pares(
    regime_nome: str, pares: tuple[str, ...], *, so_dadas: bool = False
) -> dict[str, str]:
    """Readings given as ``chave=opção`` texts (the command line's ``--interpretacao``).
    ``so_dadas``: a reading whose default depends on each case (``padroes_ref``) is left out
    unless given, for each case to get its own (a batch's rows).

    >>> ler_interpretacao_pares("mover.eficiencia", ("faixa_superior = marginal",))
    {'faixa_superior': 'marginal'}
    """
    regime = regime_de(regime_nome)
    escolhas: dict[str, str] = {}
    for par in pares:
        chave, igual, opcao = par.partition("=")
        if not igual or not chave.strip() or not opcao.strip():
            raise EntradaInvalida(
                "interpretacao", f"use chave=opção, ex.: faturamento=menor ({mostrar_valor(par)})"
            )
        escolhas[chave.strip()] = opcao.strip()
    leituras = ler_interpretacao(regime, escolhas)
    if so_dadas:
        for chave in regime.padroes_ref:
            if chave not in escolhas:
                del leituras[chave]
    return leituras


def ler_caso(dados: object, leitura: Leitura = JSON) -> tuple[Regime, Caso, dict[str, str]]:
    """Validate a raw case (a JSON object) against the contract of its regime.

    Past the regime (without which no field can be read), every error is found, not only the
    first: the unknown fields, the identity fields, each reading and each field of the regime
    (:class:`~multas.nucleo.erros.Coleta`), raised together in that order; the rules across
    fields run once every field is readable. The first error is the one a single-error
    reader always got.
    """
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(None, "o caso deve ser um objeto JSON")
    regime = regime_de(dados.get("regime"))
    campos = regime.caso.campos()
    sinonimos = sinonimos_do_regime(regime.caso)
    trocados: dict[str, str] = {}
    erros: list[EntradaInvalida] = []
    if sinonimos and any(nome in dados for nome in sinonimos.values()):  # ano as ano_meta
        por_nome = {c.nome: c for c in campos}
        dados, trocados, erros = ler_sinonimos(dados, sinonimos, por_nome, leitura)
    conhecidos = {c.nome for c in campos} | {"regime", "interpretacao", *CAMPOS}
    # plain try blocks, no context manager: the batch's hot path
    erros.extend(
        EntradaInvalida(str(chave), f"campo desconhecido para o regime {regime.nome}")
        for chave in dados
        if chave not in conhecidos
    )
    try:
        ler_identidade(dados)  # who the case is about: checked here, echoed by calcular_resultado
    except EntradaInvalida as erro:
        erros.extend(erro.todos())
    bruta = dados.get("interpretacao")
    interpretacao: dict[str, str] = {}
    try:
        interpretacao = ler_interpretacao(regime, bruta)
    except EntradaInvalida as erro:
        erros.extend(erro.todos())
    try:
        caso = construir(regime.caso, dados, leitura)
    except EntradaInvalida as erro:
        levantar([*erros, *_com_nomes_dados(erro.todos(), trocados)])
        raise
    levantar(erros)
    return regime, caso, com_padroes_do_caso(regime, caso, interpretacao, bruta)


def _com_nomes_dados(
    erros: tuple[EntradaInvalida, ...], trocados: dict[str, str]
) -> tuple[EntradaInvalida, ...]:
    """The errors naming each field read from a synonym by the name the case gave."""
    if not trocados:
        return erros
    return tuple(
        EntradaInvalida(trocados[e.campo], e.mensagem) if e.campo in trocados else e for e in erros
    )


def com_padroes_do_caso(
    regime: Regime, caso: Caso, interpretacao: dict[str, str], escolhidas: object
) -> dict[str, str]:
    """``interpretacao`` with the readings whose default depends on the case (spec § 3.1 v4,
    ``media_mensal``) set for this case, unless ``escolhidas`` (the readings as given: a
    mapping, or ``None``) chose them."""
    dadas = escolhidas if isinstance(escolhidas, Mapping) else {}
    for chave in regime.padroes_ref:
        if chave not in dadas:
            interpretacao[chave] = regime.padrao_do_caso(chave, caso, interpretacao)
    return interpretacao


class _Leituras(Mapping[str, str]):
    """The chosen readings, remembering which ones the rule consulted. A rule is a function
    of its inputs: a reading it never asked for cannot change its result, so its other
    options need not be tried (spec § 3: they would not be listed anyway)."""

    def __init__(self, leituras: Mapping[str, str]) -> None:
        self._leituras = leituras
        self.consultadas: set[str] = set()

    def __getitem__(self, chave: str) -> str:
        self.consultadas.add(chave)
        return self._leituras[chave]

    def __iter__(self) -> Iterator[str]:
        self.consultadas.update(self._leituras)
        return iter(self._leituras)

    def __len__(self) -> int:
        return len(self._leituras)


def calcular_caso(
    regime: Regime,
    caso: Caso,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao | None = None,
    *,
    hoje: date | None,
) -> Resultado:
    """Apply the rule, then every other reading alone, to list those that change the value.
    ``hoje`` is today's date in Brasília, from the caller's clock (the core reads none): the
    law of a case that carries no date of its own (spec §§ 3.3, 3.4, 3.6). ``None`` only where
    the regime always carries its date (a ledger's or a simulation's distributor years).

    A reading that cannot be computed from the input (``encargos = lei-10522`` without
    ``taxas_selic``, say) is left out when it is not the chosen one; chosen, the same input is
    an error naming the field (spec § 3).
    """
    legislacao = legislacao or carregar()
    lidas = _Leituras(interpretacao)
    resultado = regime.regra(caso, lidas, legislacao, hoje)
    resultado.interpretacao = dict(interpretacao)
    proprias = regime.alternativas
    if proprias is not None:
        resultado.alternativas.extend(proprias(caso, interpretacao, legislacao, resultado))
        return resultado
    valor = resultado.valor_json()
    for chave, opcoes in regime.interpretacoes.items():
        if chave not in lidas.consultadas:
            continue  # the rule never asked for this reading: no other option can change it
        for opcao in opcoes:
            if opcao == interpretacao[chave]:
                continue
            so_com = regime.alternativa_so_com.get((chave, opcao))
            if so_com is not None and getattr(caso, so_com) is None:
                continue  # offered only when the case gives that field (spec § 3.5)
            try:
                with silenciosa():
                    outra = regime.regra(caso, {**interpretacao, chave: opcao}, legislacao, hoje)
            except EntradaInvalida:
                continue  # this reading cannot be computed from the input: left out
            if outra.valor_json() != valor:
                resultado.alternativas.append(
                    {"interpretacao": {chave: opcao}, "valor": outra.valor_json()}
                )
    return resultado


def calcular_resultado(
    dados: object,
    leitura: Leitura = JSON,
    legislacao: Legislacao | None = None,
    *,
    hoje: date | None,
) -> Resultado:
    try:
        regime, caso, interpretacao = ler_caso(dados, leitura)
        resultado = calcular_caso(regime, caso, interpretacao, legislacao, hoje=hoje)
    except EntradaInvalida as erro:
        erro.id = id_do_caso(dados)  # the error names the case it refuses (spec § 3 v4)
        raise
    return identificar(resultado, dados)


def identificar(resultado: Resultado, dados: object) -> Resultado:
    """The result with the case's identity fields (:mod:`multas.nucleo.identidade`), echoed."""
    if isinstance(dados, Mapping):
        resultado.identificacao = ler_identidade(dados)
    return resultado


def calcular(
    dados: object,
    leitura: Leitura = JSON,
    legislacao: Legislacao | None = None,
    *,
    hoje: date | None,
) -> dict[str, Any]:
    """One case (a JSON object, numbers as ``Decimal``/``int`` or strings) → the result object.

    >>> calcular({"regime": "renovabio.distribuidor", "ano_meta": 2024, "meta_cbios": 2000000,
    ...           "cbios_aposentados": 0, "maior_media_mensal": "99.99"},
    ...          hoje=date(2026, 12, 4))["valor"]
    '50000000.00'
    """
    return calcular_resultado(dados, leitura, legislacao, hoje=hoje).como_dict()
