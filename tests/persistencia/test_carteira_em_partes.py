"""A long ledger import is written in parts (issue 32, item 1): each part its own short
transaction, so that others write between them; nothing of the import is seen until its last
step, a failed or interrupted import leaves nothing, and a distributor being imported is not
written by anyone else meanwhile. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select, update

import multas.nucleo.ciclo.carteira as carteira_do_nucleo
from multas.nucleo.cnpj import normalizar
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import Escopo
from multas.principal import cli as principal
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import (
    DistribuidorEmImportacao,
    Repositorio,
    cargas,
    escopo_sql,
)
from multas.servicos.persistencia import carteira as repositorio_da_carteira
from multas.servicos.persistencia.cargas import VALIDADE
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo, Carga
from multas.servicos.persistencia.registros import (
    BancoOcupado,
    CargaInterrompida,
    RegistroAlterado,
)
from multas.servicos.relogio import agora
from tests.utils import cnpj_valido
from tests.utils.casos import ENTRADA, salvar

A, B, C, D = (cnpj_valido(raiz) for raiz in (11222333, 22333444, 33444555, 44555666))


def _ano(cnpj: str, ano: int, aposentados: int = 900) -> dict[str, Any]:
    return {"cnpj": cnpj, "ano": ano, "meta_cbios": 1000, "cbios_aposentados": aposentados}


#: the import: A and B (one row each) are the first part, C (two rows) the second
IMPORTACAO = [_ano(A, 2024), _ano(B, 2024), _ano(C, 2024), _ano(C, 2025)]


@pytest.fixture
def ciclo(repo: Repositorio, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ciclo]:
    monkeypatch.setattr(repositorio_da_carteira, "LINHAS_POR_PARTE", 2)
    ciclo = Ciclo(repo)
    ciclo.importar([_ano(A, 2024, 600), _ano(B, 2024, 600)])  # one part: one transaction
    yield ciclo


def _entre_as_partes(monkeypatch: pytest.MonkeyPatch, acao: Callable[[], None]) -> list[int]:
    """Run ``acao`` once, before the second part (the first one committed, outside any
    transaction); returns the sizes of the parts begun until then."""
    classe = repositorio_da_carteira.RepositorioCarteira
    original = classe.preparar_anos
    partes: list[int] = []

    def preparar(self: Any, anos: Any, validar: Any) -> Any:
        partes.append(len(anos))
        if len(partes) == 2:
            monkeypatch.setattr(classe, "preparar_anos", original)  # the action's own writes
            acao()
        return original(self, anos, validar)

    monkeypatch.setattr(classe, "preparar_anos", preparar)
    return partes


class Morte(BaseException):
    """The process dies (nothing after it runs, no cleanup)."""


def _aposentados(ciclo: Ciclo, cnpj: str) -> dict[int, int]:
    return {a.ano: a.entrada["cbios_aposentados"] for a in ciclo.repo.anos_carteira(cnpj)}


def _linhas(repo: Repositorio) -> int:
    """Every stored ledger row, the hidden ones included."""
    with repo.leitura() as sessao:
        return int(sessao.scalar(select(func.count()).select_from(AnoCarteiraSalvo)) or 0)


def _estados(repo: Repositorio) -> list[str]:
    with repo.leitura() as sessao:
        return list(sessao.scalars(select(Carga.estado).order_by(Carga.id)))


def test_as_partes_deixam_os_outros_gravar_e_so_aparecem_no_fim(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    vistos: list[Any] = []

    def no_meio() -> None:
        # the first part (A and B) is committed: not seen yet
        vistos.append([_aposentados(ciclo, cnpj) for cnpj in (A, B, C)])
        # another user writes meanwhile: another distributor, a case
        ciclo.salvar_ano(_ano(D, 2024, 500), "bia")
        vistos.append(salvar(ciclo.repositorio, ENTRADA, "bia"))
        # a distributor being imported is not written by anyone else
        for escrever in (
            lambda: ciclo.salvar_ano(_ano(A, 2025), "bia"),
            lambda: ciclo.repo.excluir_ano(B, 2024, "bia"),
        ):
            with pytest.raises(DistribuidorEmImportacao, match=r"sendo importados agora"):
                escrever()

    partes = _entre_as_partes(monkeypatch, no_meio)
    assert ciclo.importar(IMPORTACAO, "ana") == {"anos": 4, "distribuidores": [A, B, C]}
    assert partes == [2, 2]
    assert vistos[0] == [{2024: 600}, {2024: 600}, {}]
    assert _aposentados(ciclo, A) == {2024: 900} and _aposentados(ciclo, B) == {2024: 900}
    assert _aposentados(ciclo, C) == {2024: 900, 2025: 900}
    assert _aposentados(ciclo, D) == {2024: 500}
    # the replaced years are erased once the import is applied: A, B, C's two, and D
    assert _linhas(ciclo.repositorio) == 5
    assert _estados(ciclo.repositorio) == ["aplicada"]
    # a replaced year keeps when it was first created
    (a_2024,) = ciclo.repo.anos_carteira(A)
    assert a_2024.criado_em < a_2024.atualizado_em
    assert ciclo.verificar().integro


def test_uma_parte_recusada_desfaz_a_importacao_inteira(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = carteira_do_nucleo.calcular_carteira

    def calcular(anos: Any, *args: Any, **kw: Any) -> Any:
        if any(normalizar(a.cnpj) == normalizar(C) for a in anos):
            raise EntradaInvalida("cbios_aposentados", "recusado na segunda parte")
        return original(anos, *args, **kw)

    monkeypatch.setattr(carteira_do_nucleo, "calcular_carteira", calcular)
    with pytest.raises(EntradaInvalida, match="recusado na segunda parte"):
        ciclo.importar(IMPORTACAO, "ana")
    # the first part had been written: it is undone, and erased, and A and B are as they were
    assert _aposentados(ciclo, A) == {2024: 600} and _aposentados(ciclo, B) == {2024: 600}
    assert _linhas(ciclo.repositorio) == 2
    assert _estados(ciclo.repositorio) == ["desfeita"]
    ciclo.salvar_ano(_ano(A, 2025), "bia")  # free again
    assert ciclo.verificar().integro


def _interrompida(ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import of IMPORTACAO dies after its first part (A and B written, pending)."""

    def morrer() -> None:
        raise Morte

    _entre_as_partes(monkeypatch, morrer)
    # a dead process cleans nothing up
    monkeypatch.setattr(
        repositorio_da_carteira.RepositorioCarteira, "_desfazer_carga", lambda *a: None
    )
    with pytest.raises(Morte):
        ciclo.importar(IMPORTACAO, "ana")


def test_uma_importacao_interrompida_e_desfeita_quando_a_validade_passa(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after the first part: nothing of it is seen, its distributors wait
    for its validity, then the next write undoes it and the leftovers are erased."""
    _interrompida(ciclo, monkeypatch)
    assert _estados(ciclo.repositorio) == ["pendente"]
    assert _aposentados(ciclo, A) == {2024: 600}
    with pytest.raises(DistribuidorEmImportacao):
        ciclo.salvar_ano(_ano(A, 2024, 700), "bia")
    import time_machine

    with time_machine.travel(agora() + VALIDADE + timedelta(seconds=1)):
        ciclo.salvar_ano(_ano(A, 2024, 700), "bia")
        assert _estados(ciclo.repositorio) == ["desfeita"]
        # the daily maintenance erases what it left
        monkeypatch.setenv("MULTAS_DATABASE_URL", ciclo.repositorio.url)
        purgado = CliRunner().invoke(principal, ["manutencao", "purgar"])
    assert purgado.exit_code == 0, purgado.output
    # A's and B's rows of the import erased, A's and B's years unmarked
    assert "Sobras de importações em partes apagadas ou liberadas: 4 linha(s)." in purgado.output
    assert _aposentados(ciclo, A) == {2024: 700} and _aposentados(ciclo, B) == {2024: 600}
    assert _linhas(ciclo.repositorio) == 2
    assert ciclo.verificar().integro


def test_uma_importacao_desfeita_por_outro_enquanto_rodava_nao_se_aplica(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A part that took longer than the validity: another write undid the import meanwhile,
    and the import then stops with nothing of it applied."""
    import time_machine

    viagens: list[Any] = []

    def demorar() -> None:
        # the destination is taken now, after the import stored its validity: a slow machine
        # between the test's start and the import's first part cannot leave it still valid
        viagens.append(time_machine.travel(agora() + VALIDADE + timedelta(seconds=1)))
        viagens[0].start()
        ciclo.salvar_ano(_ano(A, 2024, 700), "bia")

    _entre_as_partes(monkeypatch, demorar)
    try:
        with pytest.raises(CargaInterrompida, match="interrompida"):
            ciclo.importar(IMPORTACAO, "ana")
    finally:
        for viagem in viagens:
            viagem.stop()
    assert _aposentados(ciclo, A) == {2024: 700} and _aposentados(ciclo, B) == {2024: 600}
    assert not ciclo.repo.anos_carteira(C)
    assert _estados(ciclo.repositorio) == ["desfeita"]
    assert _linhas(ciclo.repositorio) == 2
    assert ciclo.verificar().integro


def test_a_limpeza_que_falha_depois_de_aplicar_nao_desmente_a_importacao(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import is applied; its cleanup then waits for the lock past ESPERA_ESCRITA (another
    long write holds it) and gives up. The import was stored: the caller is told so (the
    leftovers are invisible, and the next import erases them), not a BancoOcupado whose
    message says nothing was written and to send it again."""
    original = cargas.limpar_parte

    def limpar(escrita: Any) -> int:
        aplicadas = select(func.count()).where(Carga.estado == "aplicada")
        if escrita.sessao.scalar(aplicadas):
            raise BancoOcupado  # what escrita() raises after waiting ESPERA_ESCRITA seconds
        return original(escrita)

    monkeypatch.setattr(cargas, "limpar_parte", limpar)
    try:
        resumo = ciclo.importar(IMPORTACAO, "ana")
    except BancoOcupado as erro:
        assert "nada foi gravado" not in str(erro)
        raise
    assert resumo == {"anos": 4, "distribuidores": [A, B, C]}
    assert _aposentados(ciclo, A) == {2024: 900}
    assert ciclo.verificar().integro


def test_a_limpeza_sob_um_usuario_limitado_apaga_as_sobras_de_todos(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupted import of A and B, undone once its validity passed; then a user limited
    to C and D imports in parts, and its import's cleanup runs under that scope: it erases
    every leftover (what no view shows), A's and B's too, not only its own clients'."""
    import time_machine

    _interrompida(ciclo, monkeypatch)
    monkeypatch.undo()  # the parts of 2 rows again, and the cleanup of a living process
    monkeypatch.setattr(repositorio_da_carteira, "LINHAS_POR_PARTE", 2)
    depois = agora() + VALIDADE + timedelta(seconds=1)
    with time_machine.travel(depois), escopo_sql.limitado(Escopo.de([C, D])):
        ciclo.importar([_ano(C, 2024), _ano(C, 2025), _ano(D, 2024)], "cliente")
    assert _estados(ciclo.repositorio) == ["desfeita", "aplicada"]
    assert _aposentados(ciclo, A) == {2024: 600} and _aposentados(ciclo, B) == {2024: 600}
    assert ciclo.verificar().integro
    # A and B (one year each, as they were), C's two years and D's: nothing else stored
    assert _linhas(ciclo.repositorio) == 5


# --- tampering ------------------------------------------------------------------------------


def test_importacao_adulterada_e_apontada_na_lista_de_distribuidores(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupted import marked applied outside the system: the ledger of its distributors
    is refused, and the list of distributors flags them (a listing flags, never shows or hides
    silently), instead of listing the import's years as if it had been applied."""
    _interrompida(ciclo, monkeypatch)
    with ciclo.repositorio.engine.begin() as conexao:
        conexao.execute(update(Carga.__table__).values(estado="aplicada"))
    assert any(p.tabela == "cargas" for p in ciclo.verificar().problemas)
    with pytest.raises(RegistroAlterado):
        ciclo.repo.anos_carteira(A)
    listados = {d["cnpj"]: d for d in ciclo.distribuidores()}
    assert all("erro" in listados[normalizar(cnpj)] for cnpj in (A, B)), listados


def test_ano_marcado_como_substituido_por_fora_e_recusado_na_leitura(ciclo: Ciclo) -> None:
    """A year of D's ledger marked outside the system as replaced by an applied import (one
    that never wrote D): verificar names it, and reading D's ledger refuses it, instead of
    computing the ledger without that year as if it had never been stored."""
    ciclo.salvar_ano(_ano(D, 2023, 600), "bia")
    ciclo.salvar_ano(_ano(D, 2024, 600), "bia")
    ciclo.importar(IMPORTACAO, "ana")  # in parts: an applied import
    with ciclo.repositorio.leitura() as sessao:
        (aplicada,) = sessao.scalars(select(Carga.id).where(Carga.estado == "aplicada"))
    tabela = AnoCarteiraSalvo.__table__
    with ciclo.repositorio.engine.begin() as conexao:
        conexao.execute(
            update(tabela)
            .where(tabela.c.cnpj == normalizar(D), tabela.c.ano == 2023)
            .values(substituida_por=aplicada)
        )
    assert any(p.tabela == "carteira_anos" for p in ciclo.verificar().problemas)
    with pytest.raises(RegistroAlterado):
        ciclo.repo.anos_carteira(D)


def test_a_planilha_importada_e_largada_depois_de_lida(ciclo: Ciclo) -> None:
    """A file's rows are dropped once read into years (a 100,000-row import does not hold
    them while it writes its parts)."""
    from multas.nucleo.arquivos import SERVIDOR
    from multas.nucleo.ciclo.planilha import ler_planilha

    texto = "cnpj,ano,meta_cbios,cbios_aposentados\n" + "".join(
        f"{cnpj},2024,1000,900\n" for cnpj in (A, B, C)
    )
    lida = ler_planilha(texto.encode(), "carteira.csv", False, SERVIDOR)
    assert ciclo.importar_planilha(lida, "ana") == {"anos": 3, "distribuidores": [A, B, C]}
    assert lida.linhas == []
    assert _aposentados(ciclo, C) == {2024: 900}
