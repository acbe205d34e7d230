"""The renovabio.distribuidor rule (spec § 3.1, price given, one target year) written the
OpenFisca way: an entity, dated YAML parameters, one variable per step, vectorised formulas.
This is the reference the kernel is measured against (bench/kernel_vs_openfisca.py); it runs
in its own virtualenv (.venv-bench), where openfisca-core is installed.

As in any OpenFisca country package, ``float`` variables are float32 and parameters are
floats: that is what the comparison shows.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from openfisca_core.entities import build_entity
from openfisca_core.parameters import ParameterNode
from openfisca_core.periods import DateUnit
from openfisca_core.taxbenefitsystems import TaxBenefitSystem
from openfisca_core.variables import Variable

Distribuidora = build_entity(
    key="distribuidora",
    plural="distribuidoras",
    label="Distribuidora de combustíveis",
    is_person=True,
)


class meta_cbios(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = int
    label = "Meta individual, em CBIOs"


class cbios_aposentados(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = int
    label = "CBIOs aposentados"


class maior_media_mensal(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "Maior média mensal das cotações do CBIO"


class faturamento_ano_meta(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "Faturamento do ano da meta"


class faturamento_ano_anterior(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "Faturamento do ano anterior"


class tem_faturamento(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = bool
    label = "Os faturamentos foram informados"


class prazo_comprovacao(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = date
    label = "Prazo de comprovação da meta"


class data_quitacao(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = date
    label = "Data da quitação da meta"


class tem_quitacao(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = bool
    label = "A meta foi quitada depois do prazo"


class cbios_nao_adquiridos(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = int
    label = "CBIOs não adquiridos (art. 6º, § 1º)"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        return np.maximum(
            distribuidora("meta_cbios", period) - distribuidora("cbios_aposentados", period), 0
        )


class valor_apurado(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "CBIOs não adquiridos × maior média mensal"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        return distribuidora("cbios_nao_adquiridos", period) * distribuidora(
            "maior_media_mensal", period
        )


class caso_piso(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = bool
    label = "Valor apurado abaixo do piso (art. 6º, § 2º, I)"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        piso = parameters(period).renovabio.piso
        return distribuidora("valor_apurado", period) < piso


class multa_piso_teto(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "Multa entre o piso e o teto (art. 6º, § 2º)"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        p = parameters(period).renovabio
        apurado = distribuidora("valor_apurado", period)
        return np.where(distribuidora("caso_piso", period), p.piso, np.minimum(apurado, p.teto))


class multa_limitada(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "Multa limitada a 5% do faturamento médio (art. 6º, § 3º)"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        p = parameters(period).renovabio
        multa = distribuidora("multa_piso_teto", period)
        media = (
            distribuidora("faturamento_ano_meta", period)
            + distribuidora("faturamento_ano_anterior", period)
        ) / 2
        aplica = distribuidora("tem_faturamento", period) * ~distribuidora("caso_piso", period)
        return np.where(aplica, np.minimum(multa, media * p.limite_faturamento), multa)


class meses_ate_quitacao(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = int
    label = "Meses (ou fração) do prazo até a quitação"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        inicio = distribuidora("prazo_comprovacao", period)
        fim = distribuidora("data_quitacao", period)
        mes_inicio = inicio.astype("datetime64[M]")
        dia = (inicio - mes_inicio.astype("datetime64[D]")).astype(int) + 1
        meses = np.maximum((fim.astype("datetime64[M]") - mes_inicio).astype(int), 0)
        alvo = mes_inicio + meses
        ultimo = ((alvo + 1).astype("datetime64[D]") - alvo.astype("datetime64[D]")).astype(int)
        somado = alvo.astype("datetime64[D]") + (np.minimum(dia, ultimo) - 1)
        k = np.where(somado >= fim, meses, meses + 1)
        return np.where(fim <= inicio, 0, np.maximum(k, 1))


class multa_distribuidor(Variable):
    entity = Distribuidora
    definition_period = DateUnit.YEAR
    value_type = float
    label = "Multa devida (com a redução de 1/12 ao mês do art. 6º-A, § 8º)"

    def formula(distribuidora: Any, period: Any, parameters: Any) -> Any:
        p = parameters(period).renovabio
        multa = distribuidora("multa_limitada", period)
        meses = distribuidora("meses_ate_quitacao", period)
        reduz = (
            distribuidora("tem_quitacao", period)
            * (meses <= p.reducao_meses)
            * (p.reducao_meses > 0)
            * (multa >= p.piso)
        )
        reduzida = np.maximum(multa * meses * p.reducao, p.piso)
        devida = np.where(reduz, reduzida, multa)
        return np.where(distribuidora("cbios_nao_adquiridos", period) == 0, 0, devida)


def sistema() -> TaxBenefitSystem:
    tbs = TaxBenefitSystem([Distribuidora])
    raiz = ParameterNode("", data={})
    raiz.add_child(
        "renovabio",
        ParameterNode("renovabio", directory_path=str(Path(__file__).parent / "parametros")),
    )
    tbs.parameters = raiz
    for variavel in (
        meta_cbios,
        cbios_aposentados,
        maior_media_mensal,
        faturamento_ano_meta,
        faturamento_ano_anterior,
        tem_faturamento,
        prazo_comprovacao,
        data_quitacao,
        tem_quitacao,
        cbios_nao_adquiridos,
        valor_apurado,
        caso_piso,
        multa_piso_teto,
        multa_limitada,
        meses_ate_quitacao,
        multa_distribuidor,
    ):
        tbs.add_variable(variavel)
    return tbs
