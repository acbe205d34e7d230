"""The months of the Selic a user adds (issue 35, item 1; spec § 3.5 v4): the Banco Central's
CSV of series 4390 into ``selic_meses``, validated against the series, in one transaction,
audited; the calculations that have a database see them. The hostile suite
(tests/persistencia/test_recusas.py) tampers with every column of the table."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import time_machine
from sqlalchemy import select, update

from multas.nucleo.erros import EntradaInvalida
from multas.servicos import calculo, selic
from multas.servicos.persistencia import RegistroAlterado
from multas.servicos.persistencia.modelos import MesSelic

#: 05/2025 to 07/2025 as the Banco Central publishes them
ARQUIVO = b'"data";"valor"\r\n"01/05/2025";"1,14"\r\n"01/06/2025";"1,10"\r\n"01/07/2025";"1,28"\r\n'
#: July 2025 is needed: vencimento 02/06/2025, payment in 08/2025
MORA = {
    "regime": "anp.mora",
    "principal": "1000.00",
    "data_ciencia": "2025-05-02",
    "data_pagamento": "2025-08-01",
    "interpretacao": {"encargos": "lei-10522"},
}
MOMENTO = datetime(2025, 8, 10, 15, tzinfo=UTC)


def _atualizar(repo: Any, conteudo: bytes = ARQUIVO, nome: str = "bcdata.csv") -> selic.Resumo:
    with time_machine.travel(MOMENTO, tick=False):
        return selic.atualizar(repo, conteudo, nome, "ana (linha de comando)")


def _meses(repo: Any) -> list[tuple[str, str]]:
    with repo.leitura() as sessao:
        return [(m.mes, m.taxa) for m in sessao.scalars(select(MesSelic).order_by(MesSelic.mes))]


def test_acrescenta_os_meses_novos_uma_vez_com_a_fonte(repo: Any) -> None:
    resumo = _atualizar(repo, b'"data";"valor"\n"01/04/2025";"1,06"\n' + ARQUIVO[16:])
    assert (resumo.adicionados, resumo.presentes) == (
        ("2025-05", "2025-06", "2025-07"),
        ("2025-04",),
    )
    assert resumo.como_dict()["ultimo_mes"] == "2025-07"
    assert _meses(repo) == [("2025-05", "1.14"), ("2025-06", "1.10"), ("2025-07", "1.28")]
    serie = selic.serie_atual(repo)
    assert (serie.primeiro, serie.ultimo) == ("2009-01", "2025-07")
    junho = serie.get("2025-06")
    assert junho is not None and junho.taxa == Decimal("1.10")
    assert junho.fonte == (
        f"Banco Central do Brasil, SGS série 4390, arquivo bcdata.csv (SHA-256 "
        f"{resumo.sha256}), importado em 10/08/2025 por ana (linha de comando)"
    )
    # one audit row per month, and the chain holds
    acoes = [r.acao for r in repo.auditoria(limite=100, tabela="selic_meses")]
    assert acoes == [selic.ACAO] * 3
    assert repo.verificar().integro
    # the same file again: nothing added, and it says so
    de_novo = _atualizar(repo)
    assert (de_novo.adicionados, len(de_novo.presentes)) == ((), 3)
    assert de_novo.texto().startswith("Nenhum mês novo em bcdata.csv")
    assert len(repo.auditoria(limite=100, tabela="selic_meses")) == 3


@pytest.mark.parametrize(
    ("conteudo", "mensagem"),
    [
        (  # a shipped month with another rate
            b'"data";"valor"\n"01/04/2025";"1,07"\n"01/05/2025";"1,14"\n',
            "bcdata.csv, linha 2: a taxa de 04/2025 já é 1,06% (Receita Federal",
        ),
        (  # a gap after 04/2025
            b'"data";"valor"\n"01/05/2025";"1,14"\n"01/07/2025";"1,28"\n',
            "bcdata.csv, linha 3: meses não contíguos: depois de 05/2025 vem 06/2025, não 07/2025",
        ),
        (
            b'"data";"valor"\n"01/12/2008";"1,12"\n',
            "bcdata.csv, linha 2: 12/2008 é anterior ao primeiro mês da série (01/2009)",
        ),
        (b'"data";"valor"\n"01/05/2025";"-1,14"\n', "bcdata.csv, linha 2: taxa inválida"),
        (
            b'"data";"valor"\n"15/05/2025";"1,14"\n',
            "bcdata.csv, linha 2: a data de um mês é o dia 01",
        ),
        (b"mes,taxa\n2025-05,1.14\n", 'bcdata.csv: o arquivo do Banco Central começa por "data"'),
        (
            b'"data";"valor"\n"01/05/2025";"1,\x0014"\n',
            "bcdata.csv, linha 2: o arquivo não é texto",
        ),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "bcdata.csv, linha 2: o arquivo não é texto"),
        (b"x" * (selic.LIMITE_BYTES + 1), "bcdata.csv: arquivo grande demais (máximo 256 KiB"),
    ],
)
def test_arquivo_ou_mes_invalido_e_recusado_nomeando_a_linha_e_nada_e_gravado(
    repo: Any, conteudo: bytes, mensagem: str
) -> None:
    _atualizar(repo, b'"data";"valor"\n"01/05/2025";"1,14"\n')
    with pytest.raises(EntradaInvalida) as erro:
        _atualizar(repo, conteudo)
    assert erro.value.campo == "arquivo"
    assert erro.value.mensagem.startswith(mensagem), erro.value.mensagem
    assert _meses(repo) == [("2025-05", "1.14")]


def test_mes_guardado_com_outra_taxa_e_recusado(repo: Any) -> None:
    _atualizar(repo)
    with pytest.raises(
        EntradaInvalida,
        match=r"linha 2: a taxa de 06/2025 já é 1,10% \(Banco Central.*traz 1,11%: um mês",
    ):
        _atualizar(repo, b'"data";"valor"\n"01/06/2025";"1,11"\n')


def test_latin1_e_aceito() -> None:
    assert selic.ler_arquivo('"data";"valor"\n"01/05/2025";"1,14"\n'.encode("cp1252"), "a") == {
        "2025-05": Decimal("1.14")
    }


def test_mes_adulterado_nunca_entra_num_calculo(repo: Any) -> None:
    _atualizar(repo)
    with repo.engine.begin() as conexao:  # outside the system
        conexao.execute(update(MesSelic).where(MesSelic.mes == "2025-07").values(taxa="0.01"))
    with pytest.raises(RegistroAlterado, match="mês da Selic"):
        selic.serie_atual(repo)
    with pytest.raises(RegistroAlterado):
        calculo.calcular(MORA, legislacao=selic.legislacao_com_selic(repo))
    problemas = repo.verificar().problemas
    assert [(p.tabela, p.mensagem[:12]) for p in problemas] == [("selic_meses", "mês da Selic")]


def test_mes_apagado_por_fora_deixa_lacuna_recusada(repo: Any) -> None:
    _atualizar(repo)
    with repo.engine.begin() as conexao:
        conexao.execute(MesSelic.__table__.delete().where(MesSelic.mes == "2025-06"))
    with pytest.raises(RegistroAlterado, match="falta o mês 06/2025 antes de 07/2025"):
        selic.serie_atual(repo)
    assert not repo.verificar().integro


def test_calculo_com_banco_ve_os_meses_acrescentados(repo: Any) -> None:
    from multas.servidor.servico import Servico

    with pytest.raises(EntradaInvalida, match="taxa Selic de 07/2025 não disponível"):
        Servico(repo).calcular(MORA)
    _atualizar(repo)
    resultado = Servico(repo).calcular(MORA).resultado
    julho = next(p for p in resultado["passos"] if p["descricao"].startswith("Selic de 07/2025"))
    assert julho["valor"] == "1.28" and "SGS série 4390" in julho["fundamento"]
    assert resultado["juros_mora"] == "22.80"  # (1,28% + 1%) × 1000
    # a case that needs no Selic reads no month (the reader is called on first use only)
    lidos: list[str] = []

    def ler() -> Any:
        lidos.append("lido")
        return selic.serie_atual(repo)

    legislacao = selic.legislacao_com_selic(repo).com_selic(ler)
    calculo.calcular({"regime": "anp.infracao", "inciso": "IX"}, legislacao=legislacao)
    assert lidos == []
    calculo.calcular(MORA, legislacao=legislacao)
    calculo.calcular(MORA, legislacao=legislacao)
    assert lidos == ["lido"]


def test_serie_do_banco_so_le_um_banco_que_existe(repo: Any, tmp_path: Path) -> None:
    ausente = tmp_path / "nao" / "existe.db"
    assert selic.serie_do_banco(f"sqlite:///{ausente}") is None
    assert not ausente.parent.exists()  # nothing created
    assert selic.serie_do_banco(repo.url) is None  # no month stored
    _atualizar(repo)
    antes = len(repo.auditoria(limite=1000))
    serie = selic.serie_do_banco(repo.url)
    assert serie is not None and serie.ultimo == "2025-07"
    assert len(repo.auditoria(limite=1000)) == antes  # read, never written
