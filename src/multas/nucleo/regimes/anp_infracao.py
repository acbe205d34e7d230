"""ANP infractions: the range of the fine per inciso (spec § 3.4) and one auto with several
incisos (spec § 3.4.1).

An inciso follows one of two numberings (``norma``, spec § 3.4 v4): Lei 9.847/1999 art. 3º's
own, as real autos cite it (the default), or Decreto 2.953/1999 art. 28's, as the v3 contract
did (``decreto-2953``, every v3 rule unchanged). Which incisos the law has, which ranges are
transcribed, which come from a secondary source (``conferida = false``) and which decree inciso
shares each one's subject (``par_decreto``) are the legislation's data (``anp.toml``): a newly
transcribed inciso is a new parameter, not new code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from multas.nucleo.contrato import ROMANOS
from multas.nucleo.contrato_anp import NORMAS, CasoAuto, CasoInfracao
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import arredondar, formatar_brl, para_json
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Lei, Vigencia
from multas.nucleo.memoria import Memoria, Resultado
from multas.nucleo.regimes.comum import (
    decreto_2953_alterado,
    lei_aplicavel,
    lei_sem_data_propria,
)
from multas.nucleo.rotulos import campo_com_chave
from multas.nucleo.rotulos import leitura as rotulo_leitura

LEI, DECRETO = NORMAS
_ART3_DA_LEI, _ART28_DO_DECRETO = "anp.lei_9847.art3", "anp.decreto_2953.art28"
_LEITURAS_FAIXA = {
    "lei": "a faixa da Lei nº 9.847/1999, art. 3º, que prevalece sobre o decreto",
    "decreto": "a faixa do Decreto nº 2.953/1999, art. 28",
}
_NAO_TRANSCRITO = "texto não transcrito"
#: the numerals of an inciso, I to XXXIX, by value
_VALORES = {"X": 10, "V": 5, "I": 1}


def numero(romano: str) -> int:
    """The value of a roman numeral as the contract accepts it (I to XXXIX).

    >>> numero("XIX"), numero("XIV"), numero("IV")
    (19, 14, 4)
    """
    total = 0
    for atual, seguinte in zip(romano, [*romano[1:], ""], strict=True):
        valor = _VALORES[atual]
        total += -valor if seguinte and _VALORES[seguinte] > valor else valor
    return total


@dataclass(frozen=True)
class Faixa:
    """The range a reading gives one inciso: ``minimo``/``maximo`` are ``None`` where the
    law's text is not transcribed; ``conferida`` is false for a range from a secondary source
    (spec § 3.4 v4: an aviso, never an error)."""

    inciso: str
    dispositivo: str
    redacao: str
    minimo: Fraction | None
    maximo: Fraction | None
    descricao: str | None
    vigencia: Vigencia | None
    conferida: bool = True
    #: the text is the decree's (its art. 28), rests on Decreto 2.953/1999
    do_decreto: bool = False

    @property
    def limites(self) -> tuple[Fraction | None, Fraction | None]:
        return self.minimo, self.maximo

    @property
    def citacao(self) -> Vigencia | str:
        return (
            self.vigencia if self.vigencia is not None else f"{self.dispositivo} ({self.redacao})"
        )

    def contem(self, valor: Fraction) -> bool:
        return (
            self.minimo is not None
            and self.maximo is not None
            and self.minimo <= valor <= self.maximo
        )


def _ultima(legislacao: Legislacao, nome: str) -> Vigencia | None:
    """The data of ``nome`` whatever the date (which incisos exist, their pairs)."""
    parametro = legislacao.parametros.get(nome)
    return parametro.vigencias[-1] if parametro is not None else None


def _vigente(lei: Lei, nome: str) -> Vigencia | None:
    """``nome`` in force in ``lei``, or ``None`` (also where the data has no such parameter:
    an inciso whose text is not transcribed)."""
    return lei.get(nome) if nome in lei.legislacao.parametros else None


def _sem_inciso(dispositivo: str) -> str:
    """ "Decreto nº 2.953/1999, art. 28, XI" → "Decreto nº 2.953/1999, art. 28"."""
    return dispositivo.rsplit(", ", 1)[0]


def _da_vigencia(inciso: str, vigencia: Vigencia, redacao: str, do_decreto: bool) -> Faixa:
    valor = vigencia.valor
    return Faixa(
        inciso=inciso,
        dispositivo=vigencia.dispositivo,
        redacao=redacao,
        minimo=valor["minimo"],
        maximo=valor["maximo"],
        descricao=valor.get("descricao"),
        vigencia=vigencia,
        conferida=valor.get("conferida") is not False,
        do_decreto=do_decreto,
    )


def _do_decreto(inciso: str, lei: Lei) -> Faixa:
    vigencia = lei[f"anp.faixa_decreto.{inciso}"]
    return _da_vigencia(inciso, vigencia, str(lei["anp.redacao"].redacao), True)


def _da_lei(inciso: str, vigencia: Vigencia) -> Faixa:
    return _da_vigencia(inciso, vigencia, str(vigencia.redacao), False)


def incisos_da_lei(legislacao: Legislacao) -> list[str]:
    """The incisos of Lei 9.847/1999 art. 3º the data knows, I to the last one cited.

    >>> from multas.nucleo.legislacao import carregar
    >>> incisos_da_lei(carregar())[-1]
    'XIX'
    """
    dados = _ultima(legislacao, "anp.lei_9847.incisos")
    assert dados is not None
    ultimo = numero(str(dados.valor["ultimo"]))
    return _romanos(ultimo)


def _romanos(ate: int) -> list[str]:
    unidades = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
    return [f"{'X' * (n // 10)}{unidades[n % 10]}" for n in range(1, ate + 1)]


def _de(norma: str) -> str:
    """ "da Lei …" or "do Decreto …", as pt-BR says it.

    >>> _de("Lei nº 9.847/1999, art. 3º"), _de("Decreto nº 2.953/1999, art. 28")
    ('da Lei nº 9.847/1999, art. 3º', 'do Decreto nº 2.953/1999, art. 28')
    """
    return f"{'da' if norma.startswith('Lei') else 'do'} {norma}"


def _conferir_inciso(inciso: str, norma: str, legislacao: Legislacao, campo: str) -> None:
    """An inciso beyond its numbering's last known one is an error naming that one."""
    if norma == DECRETO:
        incisos = [r for r in ROMANOS if f"anp.faixa_decreto.{r}" in legislacao.parametros]
        onde = _ultima(legislacao, f"anp.faixa_decreto.{incisos[-1]}")
        assert onde is not None
        ultimo, lugar = incisos[-1], _sem_inciso(onde.dispositivo)
    else:
        dados = _ultima(legislacao, "anp.lei_9847.incisos")
        assert dados is not None
        ultimo, lugar = str(dados.valor["ultimo"]), dados.dispositivo
    if numero(inciso) > numero(ultimo):
        raise EntradaInvalida(
            campo,
            f"inciso {inciso} não conhecido na numeração {_de(lugar)}: o "
            f"último inciso conhecido é o {ultimo}",
        )


def faixa_do_inciso(
    inciso: str,
    norma: str,
    leitura: str,
    lei: Lei,
    legislacao: Legislacao,
    campo_data: str = "data_referencia",
) -> Faixa:
    """The range of ``inciso`` (in ``norma``'s numbering) under ``interpretacao.faixa =
    leitura`` in the law ``lei`` (spec § 3.4 and its v4 part). An inciso the reading cannot
    price is an input error: a law inciso with no decree pair under ``decreto``, or one that
    did not exist yet."""
    existe_lei = lei.get(_ART3_DA_LEI) is not None
    if norma == DECRETO:
        # v3, unchanged: the law's range only where the law's text of the same subject is
        # transcribed and checked (incisos I–V)
        da_lei = _vigente(lei, f"anp.faixa_lei.{inciso}") if leitura == "lei" else None
        if (
            da_lei is not None
            and da_lei.valor.get("par_decreto") == inciso
            and da_lei.valor.get("conferida") is not False
        ):
            return _da_lei(inciso, da_lei)
        return _do_decreto(inciso, lei)
    par_dados = _ultima(legislacao, f"anp.faixa_lei.{inciso}")
    par = None if par_dados is None else par_dados.valor.get("par_decreto")
    if not existe_lei:
        if par is None:  # the law's own inciso, before the law: not in force
            lei.exigir(_ART3_DA_LEI, campo_data, CasoInfracao.regime)
        return _do_decreto(str(par), lei)
    if leitura == "decreto":
        if par is None:
            art3 = lei[_ART3_DA_LEI]
            raise EntradaInvalida(
                "interpretacao.faixa",
                f"o inciso {inciso} {_de(_sem_inciso(art3.dispositivo))} não tem inciso do mesmo "
                "assunto no Decreto nº 2.953/1999, art. 28, nos dados do projeto: só a leitura "
                "lei se aplica",
            )
        return _do_decreto(str(par), lei)
    da_lei = _vigente(lei, f"anp.faixa_lei.{inciso}")
    if da_lei is not None:
        return _da_lei(inciso, da_lei)
    art3 = lei[_ART3_DA_LEI]
    return Faixa(
        inciso=inciso,
        dispositivo=f"{_sem_inciso(art3.dispositivo)}, {inciso}",
        redacao=_NAO_TRANSCRITO,
        minimo=None,
        maximo=None,
        descricao=None,
        vigencia=None,
    )


def _brl(valor: Fraction | None) -> str:
    return "—" if valor is None else formatar_brl(arredondar(valor))


def _json(valor: Fraction | None) -> str | None:
    return None if valor is None else para_json(arredondar(valor))


def _o_que_no_decreto(faixas: list[Faixa], lei: Lei) -> str:
    """What the result takes from Decreto 2.953/1999 (W9: the 2025 aviso names only that)."""
    artigo = lei["anp.criterios"].dispositivo.removeprefix("Decreto nº 2.953/1999, ")
    if any(f.do_decreto for f in faixas):
        return f"a faixa do art. 28 e os critérios do {artigo}"
    return f"os critérios de dosimetria do {artigo}"


def _aviso_decreto_alterado(lei: Lei, m: Memoria, o_que: str) -> None:
    """Spec § 3.5 v3 with W9: from the amendment on, the result says that Decreto 2.953/1999
    was amended, that the amended text was not checked, and what of it the result uses."""
    alterado = decreto_2953_alterado(lei)
    if alterado is not None:
        m.aviso(
            f"{alterado}: {o_que}, aqui, são os da redação original. Confira-os na redação em "
            "vigor."
        )


@dataclass
class _Contexto:
    """What every inciso of one case shares: the law, the numbering, the reading."""

    lei: Lei
    legislacao: Legislacao
    norma: str
    leitura: str
    norma_dada: bool
    #: the date field that chose the law (named by a "regime não vigente" error)
    campo_data: str = "data_referencia"


def _redacao_das_faixas(
    caso: CasoInfracao | CasoAuto,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    hoje: date | None,
) -> str:
    """The provision whose ranges the case applies, cited by the "Lei aplicada" step (W8):
    Lei 9.847/1999 art. 3º under ``faixa = lei`` once the law is in force, else Decreto
    2.953/1999 art. 28 (art. 24, which only defines the fine, is never the one cited)."""
    dia = caso.data_referencia or caso.data_infracao or hoje
    if (
        interpretacao["faixa"] == "lei"
        and dia is not None
        and legislacao.em(dia).get(_ART3_DA_LEI) is not None
    ):
        return _ART3_DA_LEI
    return _ART28_DO_DECRETO


def _lei_do_caso(
    caso: CasoInfracao | CasoAuto,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    hoje: date | None,
    m: Memoria,
) -> Lei:
    """Spec § 3.4 v4: the wording in force on ``data_infracao``; ``data_referencia`` overrides
    it ("what if"); without both, today's."""
    redacao = _redacao_das_faixas(caso, interpretacao, legislacao, hoje)
    if caso.data_infracao is not None:
        lei, _ = lei_aplicavel(
            legislacao,
            redacao,
            caso.regime,
            caso.data_infracao,
            "da infração",
            caso.data_referencia,
            "data_infracao",
            m,
            citar_depois=True,
        )
        return lei
    lei, _ = lei_sem_data_propria(
        legislacao, redacao, caso.regime, caso.data_referencia, hoje, m, citar_depois=True
    )
    return lei


def _avaliar(inciso: str, ctx: _Contexto, m: Memoria, prefixo: str, campo: str) -> Faixa:
    """One inciso's range, with its steps and avisos (``prefixo`` names the auto's item)."""
    lei, leitura = ctx.lei, ctx.leitura
    _conferir_inciso(inciso, ctx.norma, ctx.legislacao, campo)
    faixa = faixa_do_inciso(inciso, ctx.norma, leitura, lei, ctx.legislacao, ctx.campo_data)
    outra = _outra(inciso, ctx)
    descricao = faixa.descricao or f"{_NAO_TRANSCRITO} nas fontes do projeto"
    m.passo(
        f"{prefixo}Infração do inciso {inciso} ({faixa.dispositivo}): {descricao} (leitura "
        f"{rotulo_leitura('faixa', leitura)}: {_LEITURAS_FAIXA[leitura]})",
        inciso,
        faixa.citacao,
    )
    if not ctx.norma_dada and 6 <= numero(inciso) <= 14:
        m.aviso(
            f"O inciso {inciso} foi lido na numeração da Lei nº 9.847/1999, art. 3º, o padrão "
            f"quando o caso não traz {campo_com_chave('norma')}; para a do Decreto nº "
            f'2.953/1999, art. 28, informe "norma": "{DECRETO}".'
        )
    if lei.get(_ART3_DA_LEI) is None:
        m.passo(
            f"{prefixo}A Lei nº 9.847/1999 ainda não existia em {formatar_data(lei.data)}: as "
            "duas leituras aplicam a faixa do decreto",
            None,
            faixa.citacao,
        )
    elif faixa.minimo is None:
        m.aviso(
            f"O texto do inciso {inciso} da Lei nº 9.847/1999, art. 3º, não está transcrito nas "
            "fontes do projeto: sem faixa, o valor mínimo e o máximo ficam em branco. Confira a "
            "faixa na lei (veja docs/leituras.md#faixa)."
        )
    elif not faixa.conferida:
        fonte = "" if faixa.vigencia is None else f" ({faixa.vigencia.fonte.titulo})"
        m.aviso(
            f"A faixa do inciso {inciso} da Lei nº 9.847/1999, art. 3º ({_brl(faixa.minimo)} a "
            f"{_brl(faixa.maximo)}), vem de fonte secundária{fonte} e não foi conferida no "
            "texto da lei (veja docs/leituras.md#faixa)."
        )
    elif leitura == "lei" and faixa.do_decreto:
        m.aviso(
            f"O texto do inciso {inciso} da Lei nº 9.847/1999, art. 3º, não está transcrito nas "
            f"fontes do projeto: usada a faixa do {faixa.dispositivo}. Confira a faixa na lei, "
            "que prevalece sobre o decreto (veja docs/leituras.md#faixa)."
        )
    elif not faixa.do_decreto and ctx.norma == DECRETO:
        m.aviso(
            f"Valores da redação atual ({faixa.dispositivo}); a redação original, de 1999, não "
            "está transcrita nas fontes do projeto (veja docs/leituras.md#faixa)."
        )
    elif not faixa.do_decreto:
        m.aviso(
            f"Valores da redação atual ({faixa.dispositivo}): a redação em vigor em "
            f"{formatar_data(lei.data)} não foi conferida, porque o histórico de redações do "
            "art. 3º não está transcrito nas fontes do projeto (veja docs/leituras.md#faixa)."
        )
    if outra is not None and outra.vigencia is not None and _textos_diferem(faixa, outra):
        m.passo(
            f"{prefixo}Texto da outra norma, não aplicada nesta leitura: {outra.dispositivo}, "
            f"de {_brl(outra.minimo)} a {_brl(outra.maximo)}",
            None,
            outra.citacao,
        )
    m.passo(f"{prefixo}Valor mínimo da multa", faixa.minimo, faixa.citacao, "quantia")
    m.passo(f"{prefixo}Valor máximo da multa", faixa.maximo, faixa.citacao, "quantia")
    return faixa


def _textos_diferem(faixa: Faixa, outra: Faixa) -> bool:
    """Whether the other reading's provision says something else (its text without the
    inciso's numeral), so the memória shows it beside the one applied."""

    def corpo(f: Faixa) -> str:
        texto = "" if f.vigencia is None else f.vigencia.texto or ""
        return " ".join(texto.split(" - ", 1)[-1].split())

    return outra.dispositivo != faixa.dispositivo and corpo(outra) != corpo(faixa)


def _outra(inciso: str, ctx: _Contexto) -> Faixa | None:
    """The other reading's range, or ``None`` where it cannot be computed (spec § 3.4 v4:
    left out of the alternativas)."""
    outra = "decreto" if ctx.leitura == "lei" else "lei"
    try:
        return faixa_do_inciso(inciso, ctx.norma, outra, ctx.lei, ctx.legislacao)
    except EntradaInvalida:
        return None


def _conferir_valor(
    faixa: Faixa, valor: Fraction, campo: str, leitura: str, m: Memoria, prefixo: str = ""
) -> None:
    """A given value must lie in a checked range (else an input error); against a range from
    a secondary source it is kept with an aviso; with no range, echoed unchecked (spec § 3.4
    v4)."""
    if faixa.minimo is None:
        m.aviso(
            f"Valor informado para o inciso {faixa.inciso} ({_brl(valor)}) não conferido: a "
            f"faixa {_de(faixa.dispositivo)} não está transcrita nas fontes do projeto."
        )
        m.passo(
            f"{prefixo}Valor fixado pela autoridade (informado), não conferido: sem faixa "
            "transcrita",
            valor,
            faixa.citacao,
            "quantia",
        )
        return
    if not faixa.contem(valor):
        if faixa.conferida:
            raise EntradaInvalida(
                campo,
                f"fora da faixa de {_brl(faixa.minimo)} a {_brl(faixa.maximo)} "
                f"({faixa.dispositivo}; leitura {rotulo_leitura('faixa', leitura)})",
            )
        m.aviso(
            f"Valor informado de {_brl(valor)}: valor fora da faixa do inciso {faixa.inciso}, que "
            f"não foi conferida no texto da lei ({_brl(faixa.minimo)} a {_brl(faixa.maximo)}); "
            "mantido sem conferência."
        )
        m.passo(
            f"{prefixo}Valor fixado pela autoridade (informado), fora da faixa não conferida",
            valor,
            faixa.citacao,
            "quantia",
        )
        return
    m.passo(
        f"{prefixo}Valor fixado pela autoridade (informado), dentro da faixa de "
        f"{_brl(faixa.minimo)} a {_brl(faixa.maximo)}",
        valor,
        faixa.citacao,
        "quantia",
    )


def _criterios(lei: Lei, m: Memoria) -> None:
    """Decreto 2.953/1999 art. 25's criteria and Lei 9.847/1999 art. 4º's graduation: what the
    authority weighs, listed, never computed."""
    criterios = lei["anp.criterios"]
    for criterio in criterios.valor.values():
        m.passo(
            f"Critério de dosimetria a ponderar, fundamentadamente, pela autoridade: {criterio}",
            None,
            criterios,
        )
    graduacao = lei.get("anp.lei_9847.graduacao")
    if graduacao is not None:
        m.passo(
            "Graduação da multa pela gravidade, vantagem auferida, condição econômica e "
            "antecedentes",
            None,
            graduacao,
        )


def _contexto(
    caso: CasoInfracao | CasoAuto,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    lei: Lei,
) -> _Contexto:
    return _Contexto(
        lei=lei,
        legislacao=legislacao,
        norma=caso.norma or LEI,
        leitura=interpretacao["faixa"],
        norma_dada=caso.norma is not None,
        campo_data="data_infracao"
        if caso.data_infracao is not None and caso.data_referencia is None
        else "data_referencia",
    )


def multa_infracao(
    caso: CasoInfracao, interpretacao: Mapping[str, str], legislacao: Legislacao, hoje: date | None
) -> Resultado:
    """The range of the fine for one infraction: Lei 9.847/1999 art. 3º (default) or
    Decreto 2.953/1999 art. 28 (``interpretacao.faixa``), the inciso in ``norma``'s numbering.

    >>> from multas import calcular
    >>> r = calcular({"regime": "anp.infracao", "inciso": "ii", "valor": "300000",
    ...               "data_referencia": "2026-01-15"})
    >>> r["valor_minimo"], r["valor_maximo"], r["fundamento"]
    ('20000.00', '5000000.00', 'Lei nº 9.847/1999, art. 3º, II')
    """
    m = Memoria()
    lei = _lei_do_caso(caso, interpretacao, legislacao, hoje, m)
    ctx = _contexto(caso, interpretacao, legislacao, lei)
    faixa = _avaliar(caso.inciso, ctx, m, "", "inciso")
    _aviso_decreto_alterado(lei, m, _o_que_no_decreto([faixa], lei))
    _criterios(lei, m)
    valor: Fraction | None = None
    if caso.valor is not None:
        valor = Fraction(caso.valor)
        _conferir_valor(faixa, valor, "valor", ctx.leitura, m)
    else:
        m.aviso(
            "Sem valor informado: só a faixa é apresentada; a autoridade fixa o valor "
            f"({lei['anp.criterios'].dispositivo})."
        )
    return Resultado(
        regime=caso.regime,
        valor=valor,
        fundamento=faixa.dispositivo,
        data_referencia=lei.data,
        redacao=f"{faixa.dispositivo} ({faixa.redacao})",
        memoria=m,
        saidas={
            "valor_minimo": faixa.minimo,
            "valor_maximo": faixa.maximo,
            "descricao": faixa.descricao,
            "norma": ctx.norma,
        },
    )


def _alternativa(
    leitura: str, valor: Fraction | None, minimo: Fraction | None, maximo: Fraction | None
) -> dict[str, Any]:
    dentro = (
        valor is not None
        and minimo is not None
        and maximo is not None
        and minimo <= valor <= maximo
    )
    return {
        "interpretacao": {"faixa": leitura},
        "valor": _json(valor) if dentro else None,
        "valor_minimo": _json(minimo),
        "valor_maximo": _json(maximo),
    }


def alternativas_infracao(
    caso: CasoInfracao,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    resultado: Resultado,
) -> list[dict[str, object]]:
    """Spec § 3.4: the other reading, when its range differs, with the given value if it lies
    in that range (else ``null``); left out where it cannot be computed (v4)."""
    lei = legislacao.em(resultado.data_referencia)
    ctx = _contexto(caso, interpretacao, legislacao, lei)
    escolhida = (resultado.saidas["valor_minimo"], resultado.saidas["valor_maximo"])
    outra = _outra(caso.inciso, ctx)
    if outra is None or outra.limites == escolhida:
        return []
    valor = None if caso.valor is None else Fraction(caso.valor)
    leitura = "decreto" if ctx.leitura == "lei" else "lei"
    return [_alternativa(leitura, valor, outra.minimo, outra.maximo)]


def _itens(
    faixas: list[Faixa], valores: list[Fraction | None]
) -> Iterator[tuple[Faixa, Fraction | None]]:
    """Each item of an auto: its range and its given value (the two lists are built together,
    one entry per item)."""
    return zip(faixas, valores, strict=True)


def _soma(valores: list[Fraction | None]) -> Fraction | None:
    """The sum, or ``None`` when any term is (a range not transcribed)."""
    total = Fraction(0)
    for valor in valores:
        if valor is None:
            return None
        total += valor
    return total


def _faixa_do_total(
    faixas: list[Faixa], valores: list[Fraction | None]
) -> tuple[Fraction | None, Fraction | None]:
    """Spec § 3.4.1: the range a given total must lie in, the given values plus the other
    items' ``valor_minimo`` (and ``valor_maximo``); ``None`` where a range needed is null."""
    minimos = [v if v is not None else f.minimo for f, v in _itens(faixas, valores)]
    maximos = [v if v is not None else f.maximo for f, v in _itens(faixas, valores)]
    return _soma(minimos), _soma(maximos)


def _conferir_total(
    total: Fraction, faixas: list[Faixa], valores: list[Fraction | None], ctx: _Contexto, m: Memoria
) -> None:
    """A given total against the items (spec § 3.4.1)."""
    soma = _soma(valores)
    if soma is not None:
        if total != soma:
            raise EntradaInvalida(
                "valor",
                f"o total do auto ({_brl(total)}) difere da soma dos valores das infrações "
                f"({_brl(soma)})",
            )
        return
    minimo, maximo = _faixa_do_total(faixas, valores)
    if minimo is None or maximo is None:
        m.aviso(
            f"Valor total informado ({_brl(total)}) não conferido: a faixa de ao menos um inciso "
            "do auto não está transcrita nas fontes do projeto."
        )
        return
    if minimo <= total <= maximo:
        m.passo(
            f"Valor total do auto (informado), dentro da faixa de {_brl(minimo)} a {_brl(maximo)}",
            total,
            "multas: soma das faixas das infrações do auto (docs/leituras.md#auto)",
            "quantia",
        )
        return
    usadas = [f for f, v in _itens(faixas, valores) if v is None]
    if all(f.conferida for f in usadas):
        raise EntradaInvalida(
            "valor",
            f"o total do auto ({_brl(total)}) está fora da faixa de {_brl(minimo)} a "
            f"{_brl(maximo)} (a soma das faixas das infrações, com os valores informados; leitura "
            f"{rotulo_leitura('faixa', ctx.leitura)})",
        )
    m.aviso(
        f"Valor total informado de {_brl(total)}: fora da faixa de {_brl(minimo)} a "
        f"{_brl(maximo)}, que usa faixa não conferida no texto da lei; mantido sem conferência."
    )


def multa_auto(
    caso: CasoAuto, interpretacao: Mapping[str, str], legislacao: Legislacao, hoje: date | None
) -> Resultado:
    """One auto with several incisos (spec § 3.4.1): each inciso an ``anp.infracao`` with the
    auto's common fields, one fine per inciso, added up.

    >>> from multas import calcular
    >>> r = calcular({"regime": "anp.auto", "norma": "decreto-2953", "valor": "27000",
    ...               "data_infracao": "2022-03-10",
    ...               "infracoes": [{"inciso": "XI"}, {"inciso": "XII"}]})
    >>> r["valor"], r["valor_minimo"], r["valor_maximo"]
    ('27000.00', '10000.00', '2010000.00')
    """
    m = Memoria()
    lei = _lei_do_caso(caso, interpretacao, legislacao, hoje, m)
    ctx = _contexto(caso, interpretacao, legislacao, lei)
    m.passo(
        "Leitura do auto: uma multa por inciso, somadas, porque cada infração tem a sua faixa "
        "no art. 3º; a absorção pela faixa do inciso mais grave é outra leitura, não oferecida",
        len(caso.infracoes),
        "multas: leitura de docs/leituras.md#auto",
    )
    for inciso, vezes in Counter(i.inciso for i in caso.infracoes).items():
        if vezes > 1:
            m.aviso(
                f"O inciso {inciso} aparece {vezes} vezes no auto: cada item é lido como um fato "
                "distinto, com a sua própria multa."
            )
    faixas: list[Faixa] = []
    valores: list[Fraction | None] = []
    for n, item in enumerate(caso.infracoes, 1):
        prefixo = f"Infração {n}: "
        faixa = _avaliar(item.inciso, ctx, m, prefixo, f"infracoes[{n}].inciso")
        valor = None if item.valor is None else Fraction(item.valor)
        if valor is not None:
            _conferir_valor(faixa, valor, f"infracoes[{n}].valor", ctx.leitura, m, prefixo)
        faixas.append(faixa)
        valores.append(valor)
    _aviso_decreto_alterado(lei, m, _o_que_no_decreto(faixas, lei))
    _criterios(lei, m)
    minimo = m.passo(
        "Valor mínimo do auto: a soma dos mínimos",
        _soma([f.minimo for f in faixas]),
        "multas: soma das faixas das infrações do auto (docs/leituras.md#auto)",
        "quantia",
    )
    maximo = m.passo(
        "Valor máximo do auto: a soma dos máximos",
        _soma([f.maximo for f in faixas]),
        "multas: soma das faixas das infrações do auto (docs/leituras.md#auto)",
        "quantia",
    )
    total = None if caso.valor is None else Fraction(caso.valor)
    if total is not None:
        _conferir_total(total, faixas, valores, ctx, m)
    valor = _soma(valores) if all(v is not None for v in valores) else total
    if valor is None:
        m.aviso(
            "Sem valor informado: só a faixa é apresentada; a autoridade fixa o valor "
            f"({lei['anp.criterios'].dispositivo})."
        )
    elif total is None:
        m.passo("Valor do auto: a soma dos valores das infrações", valor, "multas", "quantia")
    return Resultado(
        regime=caso.regime,
        valor=valor,
        fundamento="; ".join(dict.fromkeys(f.dispositivo for f in faixas)),
        data_referencia=lei.data,
        redacao="; ".join(dict.fromkeys(f"{f.dispositivo} ({f.redacao})" for f in faixas)),
        memoria=m,
        saidas={
            "valor_minimo": minimo,
            "valor_maximo": maximo,
            "infracoes": [
                {
                    "inciso": f.inciso,
                    "descricao": f.descricao,
                    "valor_minimo": _json(f.minimo),
                    "valor_maximo": _json(f.maximo),
                    "valor": _json(v),
                }
                for f, v in _itens(faixas, valores)
            ],
            "norma": ctx.norma,
        },
    )


def alternativas_auto(
    caso: CasoAuto,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    resultado: Resultado,
) -> list[dict[str, object]]:
    """Spec § 3.4.1: one entry for the other ``faixa``, with its sums, when they differ; left
    out where an inciso has no range under it."""
    lei = legislacao.em(resultado.data_referencia)
    ctx = _contexto(caso, interpretacao, legislacao, lei)
    outras = [_outra(item.inciso, ctx) for item in caso.infracoes]
    if any(o is None for o in outras):
        return []
    faixas = [o for o in outras if o is not None]
    minimo = _soma([f.minimo for f in faixas])
    maximo = _soma([f.maximo for f in faixas])
    if (minimo, maximo) == (resultado.saidas["valor_minimo"], resultado.saidas["valor_maximo"]):
        return []
    valores = [None if i.valor is None else Fraction(i.valor) for i in caso.infracoes]
    itens_cabem = all(v is None or f.contem(v) for f, v in _itens(faixas, valores))
    minimo_total, maximo_total = _faixa_do_total(faixas, valores)  # § 3.4.1: the mixed case
    total_cabe = (
        resultado.valor is not None
        and minimo_total is not None
        and maximo_total is not None
        and minimo_total <= Fraction(resultado.valor) <= maximo_total
    )
    valor = resultado.valor if itens_cabem and total_cabe else None
    leitura = "decreto" if ctx.leitura == "lei" else "lei"
    return [_alternativa(leitura, None if valor is None else Fraction(valor), minimo, maximo)]
