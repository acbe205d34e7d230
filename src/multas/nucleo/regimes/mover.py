"""Programa MOVER: MP 1.205/2023 art. 6º, compensatory fines for missing the vehicle
energy-efficiency targets, per vehicle sold. Spec § 3.6.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from fractions import Fraction
from math import ceil

from multas.nucleo.contrato import CasoEficiencia
from multas.nucleo.dinheiro import formatar_numero
from multas.nucleo.legislacao import Legislacao, Lei, Vigencia
from multas.nucleo.memoria import Citacao, Citavel, Memoria, Resultado, com_incisos
from multas.nucleo.regimes.comum import lei_sem_data_propria, multa_devida
from multas.nucleo.rotulos import leitura as rotulo_leitura

LEITURAS_FAIXA = ("literal", "marginal", "excedente")

_CICLOS = (
    # (parameter prefix, target field, achieved field, name, unit name)
    ("mover.tanque_roda", "meta_mj_km", "consumo_mj_km", "tanque à roda", "centésimos de MJ/km"),
    ("mover.poco_roda", "meta_gco2_km", "emissao_gco2_km", "poço à roda", "gramas de CO2e/km"),
)


def valor_por_veiculo(
    n: int, leitura: str, lei: Lei, prefixo: str, m: Memoria
) -> tuple[Fraction, Vigencia]:
    """The per-vehicle fine for ``n`` units above the target, under one reading of alínea d.

    Alíneas a–c are bands of R$ 50/90/270 (or 70/125/375). Alínea d, "para cada centésimo
    maior que ... a meta", is read (spec § 3.6):
    ``literal`` (default): d × n; ``marginal``: a + b + c + d × (n − 3), and the bands are
    summed for n ≤ 3 too; ``excedente``: d × (n − 3). Also returns the alínea applied.
    """
    faixas = [lei[f"{prefixo}.faixa_{i}"] for i in (1, 2, 3)]
    adicional = lei[f"{prefixo}.adicional"]
    caput, inciso = lei["mover.redacao"], lei[f"{prefixo}.inciso"]

    def citar(alinea: Vigencia) -> Citavel:
        """The caput ("nos seguintes valores:"), the cycle's inciso and the alínea applied."""
        return com_incisos(caput, inciso, alinea)

    rotulo = f"(leitura {rotulo_leitura('faixa_superior', leitura)})"
    if leitura == "marginal":
        bandas = faixas[: min(n, 3)]
        valor: Fraction = sum((f.fracao for f in bandas), Fraction(0))
        descricao = "Soma das faixas " + " + ".join("abc"[i] for i in range(len(bandas)))
        fonte = bandas[-1]
        if n > 3:
            valor += adicional.fracao * (n - 3)
            descricao += f" + alínea d × ({n} − 3)"
            fonte = adicional
        return m.passo(f"{descricao}, por veículo {rotulo}", valor, citar(fonte), "quantia"), fonte
    if n <= 3:
        faixa = faixas[n - 1]
        passo = m.passo(f"Faixa {'abc'[n - 1]}, por veículo", faixa.fracao, citar(faixa), "quantia")
        return passo, faixa
    if leitura == "literal":
        return m.passo(
            f"Alínea d: valor por unidade × {n} unidades, por veículo {rotulo}",
            adicional.fracao * n,
            citar(adicional),
            "quantia",
        ), adicional
    return m.passo(
        f"Alínea d: valor por unidade × ({n} − 3) unidades além da terceira, por veículo {rotulo}",
        adicional.fracao * (n - 3),
        citar(adicional),
        "quantia",
    ), adicional


def multa_eficiencia(
    caso: CasoEficiencia,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    hoje: date | None,
) -> Resultado:
    """MP 1.205/2023 art. 6º.

    >>> from multas import calcular
    >>> calcular({"regime": "mover.eficiencia", "meta_mj_km": "1.82", "consumo_mj_km": "1.83",
    ...           "veiculos": 838200})["valor"]
    '41910000.00'
    """
    m = Memoria()
    regime = CasoEficiencia.regime
    # The contract has no infraction date: by default, the law in force today.
    # the caput ("nos seguintes valores:") is quoted by the last step, with the alínea applied
    lei, redacao = lei_sem_data_propria(
        legislacao, "mover.redacao", regime, caso.data_referencia, hoje, m, citar_depois=True
    )
    leitura = interpretacao["faixa_superior"]
    por_ciclo: dict[str, Fraction] = {}
    alineas: dict[str, Vigencia] = {}
    for prefixo, campo_meta, campo_alcancado, nome, unidade_nome in _CICLOS:
        meta, alcancado = getattr(caso, campo_meta), getattr(caso, campo_alcancado)
        if meta is None:
            por_ciclo[prefixo] = Fraction(0)
            continue
        unidade = lei[f"{prefixo}.unidade"]
        excesso = m.passo(
            f"Ciclo {nome}: alcançado − meta ({formatar_numero(str(alcancado))} − {formatar_numero(str(meta))})",
            Fraction(alcancado) - Fraction(meta),
            unidade,
            "numero",
        )
        if excesso <= 0:
            por_ciclo[prefixo] = m.passo(
                f"Ciclo {nome}: meta atendida, sem multa", Fraction(0), unidade, "quantia"
            )
            continue
        n = m.passo(
            f"Ciclo {nome}: {unidade_nome} acima da meta, arredondado para cima "
            '(as faixas são fechadas em cima: "inclusive")',
            ceil(excesso / unidade.fracao),
            unidade,
        )
        por_ciclo[prefixo], alineas[prefixo] = valor_por_veiculo(n, leitura, lei, prefixo, m)
    tanque, poco = por_ciclo["mover.tanque_roda"], por_ciclo["mover.poco_roda"]
    maior_valor = lei["mover.maior_valor"]
    por_veiculo = max(tanque, poco)
    if tanque > 0 and poco > 0:
        m.passo(
            "Metas descumpridas nos dois ciclos: aplica-se somente a multa de maior valor, por veículo",
            por_veiculo,
            maior_valor,
            "quantia",
        )
    citacao: Citavel = Citacao(redacao.fundamento, None)  # no fine: no alínea applies
    if por_veiculo > 0:
        aplicado = "mover.tanque_roda" if tanque >= poco else "mover.poco_roda"
        citacao = com_incisos(
            redacao, lei[f"{aplicado}.inciso"], alineas[aplicado], fundamento=redacao.fundamento
        )
    total = m.passo(
        f"Multa: valor por veículo × {caso.veiculos} veículos vendidos (por veículo, como no "
        "Inovar-Auto e no Rota 2030)",
        por_veiculo * caso.veiculos,
        citacao,
        "quantia",
    )
    multa_devida(m, total)
    conversao = lei.get("mover.lei_conversao")
    convertida = (
        f" A MP nº 1.205/2023 foi convertida na {conversao.dispositivo.split(' (')[0]} (DOU "
        "28/06/2024), cujo artigo da multa não está transcrito nas fontes do projeto nem foi "
        "conferido: o texto aplicado é o da MP (texto não conferido; leitura "
        "mover-texto-da-mp, veja docs/leituras.md#mover-texto-da-mp)."
        if conversao is not None
        else ""
    )
    m.aviso(
        "Leitura do projeto (docs/leituras.md#faixa_superior): a multa é por veículo vendido no período, "
        'como no Inovar-Auto e no Rota 2030; o art. 6º da MP não diz "por veículo".' + convertida
    )
    return Resultado(
        regime=regime,
        valor=total,
        fundamento="Medida Provisória nº 1.205/2023, art. 6º",
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=m,
        saidas={
            "valor_por_veiculo": por_veiculo,
            "valor_tanque_roda": tanque * caso.veiculos,
            "valor_poco_roda": poco * caso.veiculos,
            # spec § 3.7 point 4 (mover-texto-da-mp): false once the MP was converted, as the
            # conversion law's article was not checked; true before, when the MP's own text,
            # transcribed, is the text in force (docs/leituras.md#mover-texto-da-mp)
            "texto_conferido": conversao is None,
        },
    )
