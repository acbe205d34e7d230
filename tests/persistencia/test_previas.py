"""Work done before the chain's lock (issue 36, item 2; :mod:`multas.servicos.persistencia.previas`):
appending an event or undoing the last one reads, checks and validates the processo on a
snapshot, outside the lock; under the lock the write takes that work only if nothing it relied
on changed. Each test puts a write, or an edit outside the system, between the two, and fails if
the write then trusted what it read before."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select, text

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio, previas
from multas.servicos.persistencia.armazenados import ProcessoArmazenado
from multas.servicos.persistencia.modelos_ciclo import ProcessoSalvo
from multas.servicos.persistencia.registros import RECURSOS, RegistroAlterado
from multas.servicos.processos import CicloProcessos
from tests.utils.ataque import sem_protecao
from tests.utils.casos import ENTRADA, salvar

_REFERENCIAS = itertools.count(1)
CIENCIA = {"evento": "ciencia_primeira_instancia", "data": "2024-04-01"}


def _processo(ciclo: Ciclo, *eventos: dict[str, str]) -> int:
    dados: dict[str, Any] = {
        "tipo": "anp",
        "id": f"48610.{next(_REFERENCIAS):06d}/2024-21",
        "cnpj": "12.345.678/0001-95",
        "nome": "Posto Um",
        "principal": "1000.00",
        "eventos": [
            {"evento": "infracao", "data": "2024-01-02"},
            {"evento": "auto_infracao", "data": "2024-02-01"},
            *eventos,
        ],
    }
    return ciclo.criar(dados).armazenado.id


def _eventos(ciclo: Ciclo, pid: int) -> list[str]:
    return [e.evento for e in ciclo.repo.obter_processo(pid).eventos]  # type: ignore[union-attr]


def _no_meio(
    monkeypatch: pytest.MonkeyPatch, repo: Repositorio, entre: Callable[[], object]
) -> list[bool]:
    """Run ``entre`` once, between the validation before the lock and the write; returns, for
    each validation of an append, whether it ran inside a write (under the lock)."""
    original = CicloProcessos._situacao_do_acrescimo
    chamadas: list[bool] = []

    def situacao(self: CicloProcessos, *args: Any, **kwargs: Any) -> Any:
        chamadas.append(getattr(repo._local, "sessao", None) is not None)
        resultado = original(self, *args, **kwargs)
        if len(chamadas) == 1:
            entre()
        return resultado

    monkeypatch.setattr(CicloProcessos, "_situacao_do_acrescimo", situacao)
    return chamadas


def test_o_acrescimo_valida_antes_da_trava(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    chamadas = _no_meio(monkeypatch, repo, lambda: None)
    ciclo.acrescentar(pid, CIENCIA)
    assert chamadas == [False]  # once, and outside the write
    assert _eventos(ciclo, pid)[-1] == "ciencia_primeira_instancia"
    assert repo.verificar().integro


def test_o_mesmo_evento_gravado_no_meio_e_recusado_na_trava(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another request appends the same event meanwhile: validated on what is stored now, the
    second is refused (§ 6: the event is already there), never appended twice."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    outro = Ciclo(repo)
    feito: list[bool] = []

    def outro_pedido() -> None:
        if not feito:
            feito.append(True)
            outro.acrescentar(pid, CIENCIA)

    chamadas = _no_meio(monkeypatch, repo, outro_pedido)
    with pytest.raises(EntradaInvalida):
        ciclo.acrescentar(pid, CIENCIA)
    assert _eventos(ciclo, pid).count("ciencia_primeira_instancia") == 1
    assert chamadas[0] is False and chamadas[-1] is True  # validated again under the lock
    assert repo.verificar().integro


def test_uma_alteracao_no_meio_faz_validar_de_novo(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    chamadas = _no_meio(
        monkeypatch,
        repo,
        lambda: Ciclo(repo).alterar(pid, {"dias_sem_expediente": ["2024-03-04"]}),
    )
    derivado = ciclo.acrescentar(pid, CIENCIA)
    assert chamadas == [False, True]
    assert derivado.armazenado.dias_sem_expediente  # what the write saw: the change meanwhile
    assert repo.verificar().integro


def test_uma_edicao_fora_do_sistema_no_meio_e_recusada(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The processo edited in the database after it was checked: the write checks it again,
    refuses it, and stores nothing (the edit is never laundered into the chain)."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)

    def editar() -> None:
        with repo.engine.begin() as conexao:
            conexao.execute(text("UPDATE processos SET nome = 'Outro' WHERE id = :i"), {"i": pid})

    _no_meio(monkeypatch, repo, editar)
    with pytest.raises(RegistroAlterado):
        ciclo.acrescentar(pid, CIENCIA)
    with repo.engine.connect() as conexao:
        n = conexao.execute(
            text("SELECT count(*) FROM processo_eventos WHERE processo_id = :i"), {"i": pid}
        ).scalar()
    assert n == 2
    assert ("processos", pid) in {(p.tabela, p.id) for p in repo.verificar().problemas}


def test_uma_alteracao_desfeita_fora_do_sistema_nao_passa(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change made by the system meanwhile, then undone in the database: the processo is
    again in the state checked before the lock, but not in the one its history ends with. The
    chain's rows since the snapshot say so, and the write refuses it."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    with repo.engine.connect() as conexao:
        antes = conexao.execute(
            text("SELECT dias_sem_expediente, atualizado_em FROM processos WHERE id = :i"),
            {"i": pid},
        ).one()

    def alterar_e_desfazer() -> None:
        Ciclo(repo).alterar(pid, {"dias_sem_expediente": ["2024-03-04"]})
        with repo.engine.begin() as conexao:
            conexao.execute(
                text(
                    "UPDATE processos SET dias_sem_expediente = :d, atualizado_em = :a WHERE id = :i"
                ),
                {"d": antes[0], "a": antes[1], "i": pid},
            )

    _no_meio(monkeypatch, repo, alterar_e_desfazer)
    with pytest.raises(RegistroAlterado):
        ciclo.acrescentar(pid, CIENCIA)
    assert "ciencia_primeira_instancia" not in _eventos_crus(repo, pid)


def _eventos_crus(repo: Repositorio, pid: int) -> list[str]:
    with repo.engine.connect() as conexao:
        return list(
            conexao.execute(
                text("SELECT evento FROM processo_eventos WHERE processo_id = :i ORDER BY posicao"),
                {"i": pid},
            ).scalars()
        )


def test_desfazer_no_meio_nao_desfaz_dois(repo: Repositorio) -> None:
    """Two undos of the same event: the second, validated before the lock on the list with the
    event, is refused under the lock on the list without it, and only one event goes."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo, CIENCIA)
    feito: list[bool] = []

    def validar(restante: ProcessoArmazenado) -> None:
        if not feito:
            feito.append(True)
            ciclo.remover_ultimo_evento(pid, esperado="ciencia_primeira_instancia")

    with pytest.raises(EntradaInvalida, match="auto_infracao"):
        ciclo.repo.remover_ultimo_evento(
            pid, validar=validar, esperado="ciencia_primeira_instancia"
        )
    assert _eventos_crus(repo, pid) == ["infracao", "auto_infracao"]
    assert repo.verificar().integro


def test_a_previa_cai_com_a_auditoria_de_uma_dependencia(repo: Repositorio) -> None:
    """A record the work read besides the processo (a linked case): an audit row about it
    after the snapshot voids the work; one about another record does not."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    recurso = RECURSOS["processos"]
    with repo.leitura() as sessao:
        seq = previas.ultima_posicao(sessao)
        linha = sessao.scalars(select(ProcessoSalvo).where(ProcessoSalvo.id == pid)).one()
        linha.eventos  # noqa: B018 (loaded on the snapshot)
        estados = previas.estados(recurso, linha)
    caso = salvar(repo, ENTRADA, "ana")  # an audit row after the snapshot
    with repo.escrita() as escrita:
        atual = escrita.sessao.scalars(select(ProcessoSalvo).where(ProcessoSalvo.id == pid)).one()
        assert previas.vale(escrita.sessao, previas.Previa(seq, estados), recurso, atual)
        outra = previas.Previa(seq, estados, frozenset({("casos", caso + 1)}))
        assert previas.vale(escrita.sessao, outra, recurso, atual)
        dependente = previas.Previa(seq, estados, frozenset({("casos", caso)}))
        assert not previas.vale(escrita.sessao, dependente, recurso, atual)
        # the same state, but the chain's position after the case's row: it holds
        assert previas.vale(
            escrita.sessao,
            previas.Previa(seq + 1, estados, dependente.dependencias),
            recurso,
            atual,
        )


def _ultima_linha(repo: Repositorio, tabela: str, registro_id: int) -> int:
    with repo.engine.connect() as conexao:
        return int(
            conexao.execute(
                text("SELECT max(seq) FROM auditoria WHERE tabela = :t AND registro_id = :i"),
                {"t": tabela, "i": registro_id},
            ).scalar_one()
        )


def _adulterar_auditoria(repo: Repositorio, seq: int) -> None:
    with sem_protecao(repo) as conexao:
        conexao.execute(
            text("UPDATE auditoria SET usuario = 'outra pessoa' WHERE seq = :s"), {"s": seq}
        )


def test_a_historia_adulterada_no_meio_e_recusada(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The processo's last audit row edited after the snapshot, before the lock: the state
    is the one checked and no row came after, but the history is read again under the lock,
    and the write refuses (409), as one holding the lock from the start does."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    seq = _ultima_linha(repo, "processos", pid)
    _no_meio(monkeypatch, repo, lambda: _adulterar_auditoria(repo, seq))
    with pytest.raises(RegistroAlterado):
        ciclo.acrescentar(pid, CIENCIA)
    assert _eventos_crus(repo, pid) == ["infracao", "auto_infracao"]


def test_desfazer_com_a_historia_adulterada_no_meio_e_recusado(repo: Repositorio) -> None:
    ciclo = Ciclo(repo)
    pid = _processo(ciclo, CIENCIA)
    seq = _ultima_linha(repo, "processos", pid)

    def validar(_: ProcessoArmazenado) -> None:
        _adulterar_auditoria(repo, seq)

    with pytest.raises(RegistroAlterado):
        ciclo.repo.remover_ultimo_evento(pid, validar=validar)
    assert _eventos_crus(repo, pid) == ["infracao", "auto_infracao", "ciencia_primeira_instancia"]


def test_uma_linha_da_auditoria_sem_registro_no_meio_nao_e_500(
    repo: Repositorio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An audit row about the processos' table that names no record (only written outside
    the system), after the snapshot: never a TypeError (a 500)."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)

    def inserir() -> None:
        with repo.engine.begin() as conexao:
            seq = int(conexao.execute(text("SELECT max(seq) FROM auditoria")).scalar_one())
            conexao.execute(
                text(
                    "INSERT INTO auditoria (momento, usuario, acao, seq, tabela, registro_id)"
                    " VALUES (CURRENT_TIMESTAMP, 'x', 'x', :s, 'processos', NULL)"
                ),
                {"s": seq + 1},
            )

    _no_meio(monkeypatch, repo, inserir)
    with contextlib.suppress(RegistroAlterado):
        ciclo.acrescentar(pid, CIENCIA)


def test_um_processo_editado_que_o_paragrafo_6_recusaria_e_409_nao_422(repo: Repositorio) -> None:
    """An event edited in the database so that § 6 refuses the list: the validation before
    the lock refuses it, but a refusal is only given once the processo is checked, under the
    lock, and there it does not match its history (409, as with the lock from the start)."""
    ciclo = Ciclo(repo)
    pid = _processo(ciclo)
    with repo.engine.begin() as conexao:
        conexao.execute(
            text(
                "UPDATE processo_eventos SET evento = 'recurso' "
                "WHERE processo_id = :i AND evento = 'auto_infracao'"
            ),
            {"i": pid},
        )
    with pytest.raises(RegistroAlterado):
        ciclo.acrescentar(pid, CIENCIA)
    with pytest.raises(RegistroAlterado):
        ciclo.remover_ultimo_evento(pid, esperado="auto_infracao")
