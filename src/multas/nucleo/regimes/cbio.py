"""The price step of the RenovaBio rules (spec § 3.1 step 2 and its v4 notes), written into the
memória: each month's mean, the method and why, the highest mean, the coverage; the price
itself comes from :func:`multas.nucleo.preco.preco_do_exercicio`, the one function that prices
every fine.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from multas.nucleo.contrato import CasoComPreco, CasoDistribuidor, CasoProdutor
from multas.nucleo.datas import formatar_mes
from multas.nucleo.dinheiro import formatar_numero, formatar_preco
from multas.nucleo.legislacao import Vigencia
from multas.nucleo.memoria import Memoria
from multas.nucleo.preco import (
    FONTE_ENTRADA,
    Preco,
    aviso_cobertura,
    exercicio_do_preco,
    metodo_padrao,
    notas,
    preco_do_exercicio,
)
from multas.nucleo.rotulos import leitura as rotulo_leitura

_METODO = {
    "ponderada": "média ponderada pelo volume (Σ valor financeiro ÷ Σ quantidade do mês)",
    "simples": "média simples dos preços diários do mês",
}


def media_mensal_padrao(caso: CasoComPreco, interpretacao: Mapping[str, str]) -> str:
    """``interpretacao.media_mensal``'s default for a case (spec § 3.1 v4): ``ponderada`` when
    every daily quote of the priced exercise carries its volume, else ``simples``."""
    if caso.cotacoes_diarias is None:
        return "ponderada"
    return metodo_padrao(caso.cotacoes_diarias, exercicio_do_caso(caso, interpretacao))


def exercicio_do_caso(caso: CasoComPreco, interpretacao: Mapping[str, str]) -> int:
    """The exercise whose quotes price the case: the producer's year; the distributor's, by
    :func:`~multas.nucleo.preco.exercicio_do_preco` (its deadline: the one given, else the
    shipped table's; the rule itself reads the legislation it is given)."""
    if isinstance(caso, CasoProdutor):
        return caso.ano
    assert isinstance(caso, CasoDistribuidor)
    prazo = caso.prazo_comprovacao
    if prazo is None and interpretacao.get("ano_do_preco") == "prazo":
        from multas.nucleo.legislacao import carregar

        tabela = carregar().prazo_comprovacao(caso.ano_meta)
        prazo = None if tabela is None else tabela[0]
    return exercicio_do_preco(caso.ano_meta, prazo, interpretacao.get("ano_do_preco"))


def fonte(caso: CasoComPreco) -> str:
    """``preco_fonte``: the case's ``fonte_cotacoes``, else the quotes given in the input."""
    return caso.fonte_cotacoes or FONTE_ENTRADA


def preco_formatado(valor: Fraction) -> str:
    """A price as people read it: 4 decimals, half up (spec § 3.1 v4): ``R$ 50,4408``."""
    return formatar_preco(valor)


def preco_referencia(
    caso: CasoComPreco,
    exercicio: int,
    m: Memoria,
    calculo: Vigencia,
    interpretacao: Mapping[str, str],
) -> Preco:
    """The highest monthly mean of the CBIO's quotes in ``exercicio``, with its steps."""
    if caso.maior_media_mensal is not None:
        preco = preco_do_exercicio(exercicio, informado=caso.maior_media_mensal)
        m.passo(
            f"Maior média mensal das cotações do CBIO em {exercicio} (informada): "
            f"{preco_formatado(preco.valor)}",
            preco.valor,
            calculo,
            "quantia",
        )
        return preco
    if caso.cotacoes_mensais is not None:
        preco = preco_do_exercicio(
            exercicio, mensais=caso.cotacoes_mensais, campo="cotacoes_mensais"
        )
    else:
        assert caso.cotacoes_diarias is not None
        preco = preco_do_exercicio(
            exercicio,
            diarias=caso.cotacoes_diarias,
            metodo=interpretacao.get("media_mensal"),
        )
        _metodo(preco, m, calculo)
    if preco.ignoradas:
        m.aviso(
            f"Cotações fora do exercício de {exercicio} foram ignoradas: "
            f"{', '.join(preco.ignoradas)}."
        )
    m.passo(
        f"Maior média mensal das cotações do CBIO em {exercicio} ({formatar_mes(preco.mes)}): "
        f"{preco_formatado(preco.valor)} (fonte: {fonte(caso)})",
        preco.valor,
        calculo,
        "quantia",
    )
    if preco.cobertura is not None:
        aviso = aviso_cobertura(preco.cobertura)
        if aviso is not None:
            m.aviso(aviso)
    return preco


def _metodo(preco: Preco, m: Memoria, calculo: Vigencia) -> None:
    """Each month's mean, then the method, its reasons and the other method's price."""
    for media in preco.medias:
        m.passo(
            f"Média mensal das cotações de {formatar_mes(media.mes)} ({media.cotacoes} cotações diárias; "
            f"{_METODO[preco.metodo]}): {preco_formatado(media.valor)}",
            media.valor,
            calculo,
            "quantia",
        )
    texto = notas()["media_mensal"]
    outra = preco.outra
    comparacao = (
        ""
        if outra is None
        else f" Na outra leitura ({rotulo_leitura('media_mensal', outra.metodo)}), a maior "
        f"média mensal seria {preco_formatado(outra.valor)} ({formatar_mes(outra.mes)})."
    )
    m.passo(
        f"{rotulo_leitura('media_mensal', preco.metodo)} (leitura "
        f"media_mensal = {preco.metodo}). {texto['sem_texto']} {texto['b3']} {texto['anp']}"
        f"{comparacao}",
        preco.metodo,
        f"Leitura do projeto (veja docs/leituras.md#media_mensal); fontes: {texto['fonte']}",
    )
    if preco.sem_volume and preco.metodo == "simples":
        total = sum(media.cotacoes or 0 for media in preco.medias)
        m.aviso(
            texto["sem_volume"].format(
                n=formatar_numero(preco.sem_volume),
                total=formatar_numero(total),
                ano=preco.exercicio,
            )
        )
