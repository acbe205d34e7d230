"""The catalogue itself: :class:`Regime` (a regime's input contract, readings, outputs and the
name of its rule) and :data:`REGIMES`, every regime by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

from multas.nucleo.contrato import (
    Caso,
    CasoDistribuidor,
    CasoEficiencia,
    CasoProdutor,
    CasoVedacao,
)
from multas.nucleo.contrato_anp import CasoAuto, CasoInfracao, CasoMora

if TYPE_CHECKING:
    from datetime import date

    from multas.nucleo.legislacao import Legislacao
    from multas.nucleo.memoria import Resultado

    #: a rule: the case, its readings, the legislation and today's date in Brasília (the
    #: caller's clock: the law of a case with no date of its own)
    Regra = Callable[[Any, Mapping[str, str], Legislacao, date | None], Resultado]
    Alternativas = Callable[[Any, Mapping[str, str], Legislacao, Resultado], list[dict[str, Any]]]


@dataclass(frozen=True)
class Regime:
    nome: str
    titulo: str
    fundamento: str
    caso: type[Caso]
    #: "module:function" of the rule
    regra_ref: str
    #: each `interpretacao` key and its options; the first option is the default (spec § 3)
    interpretacoes: Mapping[str, tuple[str, ...]]
    #: result fields beyond the common ones (spec § 3), in output order
    saidas: tuple[str, ...]
    #: "module:function" listing the alternativas, where a regime compares something other
    #: than the final value (spec § 3.4: anp.infracao compares ranges)
    alternativas_ref: str | None = None
    #: readings whose default depends on the case (spec § 3.1 v4, ``media_mensal``): key →
    #: "module:function" of ``(caso, interpretacao) -> option``, used when the key is not given
    padroes_ref: Mapping[str, str] = field(default_factory=dict)
    #: other names an option is accepted by, per key: alias → the option's name, which the
    #: output always writes (spec § 3 v4: ``encargos = decreto`` is ``lei-9847``)
    sinonimos: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: options tried as an alternative only when the case gives a field: (key, option) →
    #: field (spec § 3.5: ``encargos = lei-10522`` is offered beside the default only with
    #: ``taxas_selic``; chosen, it takes the shipped Selic)
    alternativa_so_com: Mapping[tuple[str, str], str] = field(default_factory=dict)

    @property
    def regra(self) -> Regra:
        modulo, funcao = self.regra_ref.split(":")
        regra: Regra = getattr(import_module(modulo), funcao)
        return regra

    @property
    def alternativas(self) -> Alternativas | None:
        if self.alternativas_ref is None:
            return None
        modulo, funcao = self.alternativas_ref.split(":")
        alternativas: Alternativas = getattr(import_module(modulo), funcao)
        return alternativas

    def opcao(self, chave: str, opcao: object) -> object:
        """``opcao`` by its own name: an alias (:attr:`sinonimos`) becomes the option it names;
        anything else is returned as given, for the caller to validate."""
        if isinstance(opcao, str):
            return self.sinonimos.get(chave, {}).get(opcao, opcao)
        return opcao

    def interpretacao_padrao(self) -> dict[str, str]:
        return {chave: opcoes[0] for chave, opcoes in self.interpretacoes.items()}

    def padrao_do_caso(self, chave: str, caso: Any, interpretacao: Mapping[str, str]) -> str:
        """The default of ``chave`` for this case: the catalogue's first option, or the one
        :attr:`padroes_ref` computes from the case."""
        ref = self.padroes_ref.get(chave)
        if ref is None:
            return self.interpretacoes[chave][0]
        modulo, funcao = ref.split(":")
        padrao: Callable[[Any, Mapping[str, str]], str] = getattr(import_module(modulo), funcao)
        return padrao(caso, interpretacao)


#: spec § 3.1 step 5: which revenue (faturamento) and whether the law's floor prevails over
#: the decree's 5% cap (piso); the same two readings for the three RenovaBio regimes
RENOVABIO = {"faturamento": ("media", "maior", "menor"), "piso": ("lei", "decreto")}
#: spec § 3.7 point 1 (``piso-so-distribuidor``): the law's floor is tied to the distributor's
#: target, so for the producer and the sales ban the cap stands by default; ``lei`` stays as
#: the other reading, an extension of the distributor's floor
RENOVABIO_SEM_PISO_LEGAL = RENOVABIO | {"piso": ("decreto", "lei")}
#: spec § 3.7 point 8 (``encargos-lei-especial``): the charges of Lei 9.847/1999 art. 4º § 2º
#: (the default, ``lei-9847``) or of Lei 10.522/2002 art. 37-A; ``decreto``, v3's name of the
#: default, stays accepted as its alias
ENCARGOS = {"encargos": ("lei-9847", "lei-10522")}
SINONIMOS_ENCARGOS = {"encargos": {"decreto": "lei-9847"}}
#: spec § 3.1 v4: the monthly mean, weighted by volume or simple (its default depends on the
#: quotes: ``padroes_ref``)
MEDIA_MENSAL = {"media_mensal": ("ponderada", "simples")}
#: spec § 3.1 step 6: k of the 1/12 reduction as months "ou fração" or whole months; v4: a
#: year whose target is only the carried shortfall (meta_herdada), the exercise of the price
#: (ano_do_preco)
DISTRIBUIDOR = (
    RENOVABIO
    | {"meses_reducao": ("fracao", "completos")}
    | MEDIA_MENSAL
    | {"meta_herdada": ("nao_multa", "multa"), "ano_do_preco": ("ano_meta", "prazo")}
)
#: the rule that picks ``media_mensal``'s default for a case
PADRAO_MEDIA = {"media_mensal": "multas.nucleo.regimes.cbio:media_mensal_padrao"}

#: the fields of a result priced from quotes (spec § 3.1 v4): in the result object, not among
#: the batch's columns (:attr:`Regime.saidas`), where the price is the input's
#: ``maior_media_mensal`` or, with ``--cotacoes``, the run's own price columns
SAIDAS_PRECO = ("preco", "preco_mes", "preco_metodo", "preco_fonte", "cotacoes_cobertura")

REGIMES: dict[str, Regime] = {
    r.nome: r
    for r in (
        Regime(
            nome="renovabio.distribuidor",
            titulo="RenovaBio: multa do distribuidor que não cumpre a meta individual de CBIOs",
            fundamento="Decreto nº 9.888/2019, art. 6º; art. 6º-A, § 8º",
            caso=CasoDistribuidor,
            regra_ref="multas.nucleo.regimes.renovabio:multa_distribuidor",
            interpretacoes=DISTRIBUIDOR,
            saidas=("prazo_comprovacao", "falta", "diferido", "multado"),
            padroes_ref=PADRAO_MEDIA,
        ),
        Regime(
            nome="renovabio.produtor",
            titulo="RenovaBio: multa do produtor de biocombustível que não paga a participação "
            "do produtor de cana",
            fundamento="Decreto nº 9.888/2019, art. 6º-B",
            caso=CasoProdutor,
            regra_ref="multas.nucleo.regimes.renovabio:multa_produtor",
            interpretacoes=RENOVABIO_SEM_PISO_LEGAL | MEDIA_MENSAL,
            saidas=(),
            padroes_ref=PADRAO_MEDIA,
        ),
        Regime(
            nome="renovabio.vedacao",
            titulo="RenovaBio: multa por infringir a vedação de comercialização e importação",
            fundamento="Decreto nº 9.888/2019, art. 6º-A, § 1º",
            caso=CasoVedacao,
            regra_ref="multas.nucleo.regimes.renovabio:multa_vedacao",
            interpretacoes=RENOVABIO_SEM_PISO_LEGAL,
            saidas=("valor_minimo", "valor_maximo"),
        ),
        Regime(
            nome="anp.infracao",
            titulo="ANP: faixa da multa por infração (Lei nº 9.847/1999, art. 3º; "
            "Decreto nº 2.953/1999, art. 28)",
            fundamento="Lei nº 9.847/1999, art. 3º; Decreto nº 2.953/1999, arts. 25 e 28",
            caso=CasoInfracao,
            regra_ref="multas.nucleo.regimes.anp_infracao:multa_infracao",
            interpretacoes={"faixa": ("lei", "decreto")},
            alternativas_ref="multas.nucleo.regimes.anp_infracao:alternativas_infracao",
            saidas=("valor_minimo", "valor_maximo", "descricao", "norma"),
        ),
        Regime(
            nome="anp.auto",
            titulo="ANP: um auto de infração com vários incisos (uma multa por inciso, somadas)",
            fundamento="Lei nº 9.847/1999, art. 3º; Decreto nº 2.953/1999, arts. 25 e 28",
            caso=CasoAuto,
            regra_ref="multas.nucleo.regimes.anp_infracao:multa_auto",
            interpretacoes={"faixa": ("lei", "decreto")},
            alternativas_ref="multas.nucleo.regimes.anp_infracao:alternativas_auto",
            saidas=("valor_minimo", "valor_maximo", "infracoes", "norma"),
        ),
        Regime(
            nome="anp.mora",
            titulo="ANP: vencimento, juros e multa de mora da multa não paga no prazo",
            fundamento="Decreto nº 2.953/1999, arts. 26 e 27; Lei nº 10.522/2002, art. 37-A",
            caso=CasoMora,
            regra_ref="multas.nucleo.regimes.anp:mora",
            interpretacoes={"calendario": ("expediente", "feriados")} | ENCARGOS,
            sinonimos=SINONIMOS_ENCARGOS,
            saidas=("vencimento", "dias_atraso", "meses_atraso", "juros_mora", "multa_mora"),
            alternativa_so_com={("encargos", "lei-10522"): "taxas_selic"},
        ),
        Regime(
            nome="mover.eficiencia",
            titulo="MOVER: multa compensatória por descumprir metas de eficiência energética",
            fundamento="Medida Provisória nº 1.205/2023, art. 6º",
            caso=CasoEficiencia,
            regra_ref="multas.nucleo.regimes.mover:multa_eficiencia",
            interpretacoes={"faixa_superior": ("literal", "marginal", "excedente")},
            saidas=("valor_por_veiculo", "valor_tanque_roda", "valor_poco_roda", "texto_conferido"),
        ),
    )
}
