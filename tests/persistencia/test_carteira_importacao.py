"""A ledger import reads and validates the stored years before it takes the write lock
(issue 32, item 1): under the lock it reads them again, and a year changed meanwhile is
checked against its history and the ledger validated again there. Nothing changed outside
the system is laundered, nothing saved meanwhile is skipped, on SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import func, select, text

import multas.nucleo.ciclo.carteira as carteira_do_nucleo
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import registros
from multas.servicos.persistencia.carteira import RepositorioCarteira
from multas.servicos.persistencia.modelos import RegistroAuditoria
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo
from multas.servicos.persistencia.registros import RegistroAlterado

CNPJ = "11222333000181"


def _ano(ano: int, aposentados: int = 600) -> dict[str, Any]:
    return {"cnpj": CNPJ, "ano": ano, "meta_cbios": 1000, "cbios_aposentados": aposentados}


def _depois_de_preparar(monkeypatch: pytest.MonkeyPatch, acao: Any) -> None:
    """Run ``acao`` once, between the import's read (outside the lock) and its write."""
    original = RepositorioCarteira.preparar_anos

    def preparar(self: RepositorioCarteira, *args: Any, **kw: Any) -> Any:
        preparo = original(self, *args, **kw)
        monkeypatch.setattr(RepositorioCarteira, "preparar_anos", original)
        acao()
        return preparo

    monkeypatch.setattr(RepositorioCarteira, "preparar_anos", preparar)


def test_um_ano_alterado_fora_do_sistema_no_intervalo_nao_e_lavado(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    ciclo.salvar_ano(_ano(2024))
    repo = ciclo.repositorio

    def auditoria() -> int:
        with repo.leitura() as sessao:
            return int(sessao.scalar(select(func.count()).select_from(RegistroAuditoria)) or 0)

    antes = auditoria()

    def forjar() -> None:
        with repo.engine.begin() as conexao:
            conexao.execute(text("UPDATE carteira_anos SET nome = 'forjado'"))

    _depois_de_preparar(monkeypatch, forjar)
    with pytest.raises(RegistroAlterado):
        ciclo.importar([_ano(2024, 900)])
    with repo.leitura() as sessao:
        linha = sessao.scalars(select(AnoCarteiraSalvo)).one()
    assert linha.nome == "forjado" and '"cbios_aposentados": 600' in linha.entrada
    assert auditoria() == antes  # nothing written on top of the edit


def test_um_ano_salvo_por_outro_no_intervalo_entra_na_validacao(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    ciclo.salvar_ano(_ano(2024))
    validados: list[list[int]] = []
    original = carteira_do_nucleo.calcular_carteira

    def calcular(anos: Any, *args: Any, **kw: Any) -> Any:
        validados.append(sorted(a.ano for a in anos))
        return original(anos, *args, **kw)

    _depois_de_preparar(monkeypatch, lambda: ciclo.salvar_ano(_ano(2023)))
    monkeypatch.setattr(carteira_do_nucleo, "calcular_carteira", calcular)
    ciclo.importar([_ano(2025)])
    # before the lock: 2024 and 2025; then 2023 is saved (its own check), and under the lock
    # the ledger is validated again with it
    assert validados[0] == [2024, 2025] and validados[-1] == [2023, 2024, 2025]
    assert [a["ano"] for a in ciclo.carteira(CNPJ)["anos"]] == [2023, 2024, 2025]
    assert ciclo.verificar().integro


def test_uma_gravacao_longa_fica_no_log_com_o_que_gravou(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ciclo.salvar_ano(_ano(2024))
    with caplog.at_level(logging.WARNING, logger="multas.servicos.persistencia"):
        ciclo.importar([_ano(2025)])  # a short write: not logged
        assert not caplog.records
        monkeypatch.setattr(registros, "AVISO_TRAVA", 0.0)
        ciclo.importar([_ano(2024, 700), _ano(2026)])
    (aviso,) = caplog.records
    assert "segurou a trava da cadeia por" in aviso.getMessage()
    assert "carteira_alterar 1, carteira_criar 1" in aviso.getMessage()
