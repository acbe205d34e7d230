"""Stored processos, the ledger, the ANP's lists and the calendar, all derived through spec § 6
(:func:`multas.nucleo.ciclo.prazos.analisar`): the CLI, the API and the page call this class.

Readings beyond § 6 (also in ``docs/ciclo.md``):

- **Adding an event** validates the whole new list with § 6; a refused event is not stored and
  the error names the form's field (``evento`` or ``data``).
- **Stored means readable**: creating a processo or adding an event also computes its linked
  fine before storing (reading it back computes it), so one that cannot be computed is a 422
  and nothing is stored; the rest of what a reading derives (the information, the next events)
  is computable for every date up to 31/12/9999.
- **As of a date**: a processo "as of D" is its events dated on or before D (a prefix of the
  list, so § 6 accepts it too).
- **The sanctions list** (art. 6º-A) as of D: the ``renovabio.lista`` processos with
  ``inclusao_lista`` and without ``retirada_lista`` on or before D. **The balance list**
  (art. 9º-A): the same for ``renovabio.balanco``. **The referral list** (art. 6º § 4º): the
  ``renovabio.lista`` processos whose ``fim_prazo_meta`` is before D — the text refers to the
  distributors that did not prove their target *on that date*, so a later quitação does not
  take a name off (it is shown beside it) —, and only when D is on or after 17/04/2025, when
  § 4º was included.
- **The work queue** (``multas pendencias``; ``multas prazos proximos`` is its alias): the
  overdue deadlines and the pending ones due within N days, filtered (see
  :mod:`multas.nucleo.ciclo.pendencias`); § 6 itself keeps every deadline listed.
- **The linked fine**: for ``anp``, ``anp.mora`` on ``valor_multa`` (or the linked case's
  ``valor``) from the ``ciencia_decisao_definitiva`` to the payment (or to the date asked), with
  the processo's ``dias_sem_expediente`` (so its vencimento is the ``pagamento`` deadline); for
  ``renovabio.lista``, the linked ``renovabio.distribuidor`` case recomputed with
  ``data_quitacao`` = the ``quitacao_meta`` date (the 1/12 reduction).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from multas.nucleo.ciclo.pendencias import Filtros, com_todos_os_campos, na_fila, ordem
from multas.nucleo.ciclo.prazos import (
    CAMPOS_EVENTO,
    Prazo,
    Processo,
    Situacao,
    analisar,
    fundamento,
    ler_processo,
    vigencia_em,
)
from multas.nucleo.cnpj import ler_filtro
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.contrato import JSON, Leitura, ler_datas
from multas.nucleo.datas import formatar_data, para_data
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.eventos import ROTULOS_PRAZOS, TIPOS
from multas.nucleo.ids import id_valido
from multas.nucleo.legislacao import Legislacao, carregar
from multas.nucleo.rotulos import evento_citado
from multas.servicos.persistencia import USUARIO_PADRAO, Repositorio
from multas.servicos.persistencia.ancora import Ancora
from multas.servicos.persistencia.ciclo import (
    AnoArmazenado,
    ProcessoArmazenado,
    RepositorioCiclo,
    texto_dos_dias,
)
from multas.servicos.persistencia.integridade import Problema, Relatorio
from multas.servicos.persistencia.registros import RegistroAlterado
from multas.servicos.relogio import hoje as hoje_em_brasilia
from multas.servicos.vinculos import (
    ACAO_DECISAO,
    ler_decisao,
    ler_vinculo,
    planejar_decisao,
    resultado_da_decisao,
    validar_vinculo,
)

if TYPE_CHECKING:
    # the ledger, the reconciliation and the file readers load only in the commands that use
    # them: a processo command starts without them (issue 19: the lifecycle commands' start-up)
    from multas.nucleo.arquivos import Local
    from multas.nucleo.ciclo.carteira import AnoCarteira
    from multas.nucleo.ciclo.conferir import Notificacao

#: the fields a stored processo reads itself (``principal``: the deprecated name of
#: ``valor_multa``), besides § 6's
CAMPOS_ARMAZENADOS = ("principal", "valor_multa", "caso_id")
#: § 6 fields a stored processo does not keep: refused, never silently dropped
CAMPOS_NAO_GRAVADOS = ("data_referencia",)
#: what :meth:`Ciclo.alterar` changes in a stored processo (its events change one at a time)
CAMPOS_ALTERAVEIS = ("dias_sem_expediente",)
LISTAS = {
    "sancoes": "Lista de sanções (Decreto nº 9.888/2019, art. 6º-A)",
    "balanco": "Lista de balanço de biodiesel inconsistente (Decreto nº 9.888/2019, art. 9º-A)",
    "encaminhamento": "Relação encaminhada ao Ibama, à AGU e ao MPF (Decreto nº 9.888/2019, "
    "art. 6º, § 4º)",
}


#: the linked fine's date fields → the event each one comes from
_EVENTO_DO_CAMPO = {
    "data_ciencia": "ciencia_decisao_definitiva",
    "data_pagamento": "pagamento",
    "data_quitacao": "quitacao_meta",
}


def _calcular(entrada: dict[str, Any], legislacao: Legislacao, hoje: date) -> dict[str, Any]:
    """The engine, loaded only when a linked fine is computed: a processo command without
    one starts without it (issue 19)."""
    from multas.nucleo.motor import calcular

    return calcular(entrada, legislacao=legislacao, hoje=hoje)


def rotulo_do_evento(tipo: str, evento: str) -> str:
    """An event's pt-BR label; a stored event the rules no longer know keeps its name."""
    conhecido = TIPOS.get(tipo)
    definicao = conhecido.eventos.get(evento) if conhecido else None
    return definicao.rotulo if definicao else evento


def ler_valor_multa(
    bruto: object, campo: str = "valor_multa", leitura: Leitura = JSON
) -> str | None:
    """A stored processo's ``valor_multa`` (anp: the fine fixed), as the text it is stored as:
    an amount in reais above zero (``principal``, its deprecated name, in ``campo``; a table's
    cell read as ``leitura`` says).

    >>> ler_valor_multa("1500.50"), ler_valor_multa(None)
    ('1500.50', None)
    >>> ler_valor_multa("1.500,50", leitura=Leitura(tabela=True, decimal_virgula=True))
    '1500.50'
    """
    if bruto is None:
        return None
    from multas.nucleo.contrato import Campo, ler_valor

    valor = ler_valor(bruto, Campo(campo, "quantia_positiva", "", False, 0), leitura)
    return f"{valor:f}"


class NaoEncontrado(LookupError):
    """A processo, case or distributor that does not exist (the pt-BR message says which)."""


@dataclass(frozen=True, slots=True)
class ProcessoDerivado:
    """A stored processo with what § 6 derives from it; or, in a listing, why it cannot be
    derived (``erro``, pt-BR: it does not match its history in the audit chain, or § 6 no
    longer accepts it). Such a processo is listed with its ``erro``, never hidden."""

    armazenado: ProcessoArmazenado
    situacao: Situacao | None
    erro: str | None = None

    @property
    def resultado(self) -> dict[str, Any]:
        assert self.situacao is not None
        return self.situacao.como_dict()

    @property
    def valido(self) -> Situacao:
        """The derivation (only for one without ``erro``)."""
        assert self.situacao is not None, self.erro
        return self.situacao


def cada_evento_uma_vez(nomes: Sequence[str]) -> None:
    """A stored processo keeps each event once (the constraint ``uq_processo_eventos_evento``),
    so a second court suspension, which § 6 accepts, cannot be stored yet: refused with a
    pt-BR error naming the event, never a database failure (a 500)."""
    vistos: set[str] = set()
    for i, nome in enumerate(nomes):
        if nome in vistos:
            raise EntradaInvalida(
                f"eventos[{i}].evento",
                f"o evento {evento_citado(nome)} já está neste processo: um processo salvo ainda não guarda "
                "o mesmo evento duas vezes (uma segunda suspensão judicial)",
            )
        vistos.add(nome)


class Ciclo:
    def __init__(self, repositorio: Repositorio, legislacao: Legislacao | None = None) -> None:
        self.repositorio = repositorio
        self.repo = RepositorioCiclo(repositorio)
        self._legislacao = legislacao

    @property
    def legislacao(self) -> Legislacao:
        return self._legislacao or carregar()

    # --- processos -------------------------------------------------------------------------

    def criar(self, dados: object, usuario: str = USUARIO_PADRAO) -> ProcessoDerivado:
        """Store a processo of § 6 (its events validated whole, its ``dias_sem_expediente``
        kept), with the optional ``valor_multa`` (anp: the fine fixed; ``principal``, its
        deprecated name, is still read) and ``caso_id`` (the saved fine case)."""
        armazenado = self.repo.criar_processo(**self.preparar(dados), usuario=usuario)
        return self.derivar(armazenado)

    def preparar(self, dados: object) -> dict[str, Any]:
        """What :meth:`criar` validates, without storing: the keyword arguments of
        :meth:`RepositorioCiclo.criar_processo` (``usuario`` aside). Also the check of every
        processo a file import creates (:mod:`multas.servicos.importar`)."""
        if not isinstance(dados, Mapping):
            raise EntradaInvalida(None, "o processo deve ser um objeto JSON")
        for campo in CAMPOS_NAO_GRAVADOS:
            if dados.get(campo) is not None:
                raise EntradaInvalida(
                    campo,
                    "um processo salvo não guarda a data de referência: ele é julgado na data "
                    "da consulta (hoje, ou ?data_referencia= / --data-referencia); para julgar "
                    "sem salvar, use POST /api/v1/prazos (ou multas prazos calcular)",
                )
        campo_multa = "valor_multa"
        if dados.get("principal") is not None:
            if dados.get("valor_multa") is not None:
                raise EntradaInvalida(
                    "principal",
                    "informe só valor_multa (principal é o nome antigo do mesmo campo)",
                )
            campo_multa = "principal"
        if dados.get(campo_multa) is not None and dados.get("tipo") != "anp":
            raise EntradaInvalida(campo_multa, "só um processo 'anp' tem valor_multa")
        valor_multa = self._valor_multa(dados.get(campo_multa), campo_multa)
        caso_id = self._caso_id(dados.get("caso_id"))
        processo = ler_processo(
            {k: v for k, v in dados.items() if k not in CAMPOS_ARMAZENADOS}, self.legislacao
        )
        analisar(
            processo.como_dict(), self.legislacao, hoje_em_brasilia()
        )  # the deadlines must be computable
        cada_evento_uma_vez([e.nome for e in processo.eventos])
        # and the linked fine, read back
        self._conferir_multa(processo, valor_multa, caso_id, campo_multa)
        ids = processo.identificacao
        return {
            "tipo": processo.tipo.nome,
            "calendario": processo.calendario,
            "eventos": [(e.nome, e.data) for e in processo.eventos],
            "identificador": ids.get("id"),
            "cnpj": ids.get("cnpj"),
            "nome": ids.get("nome"),
            "valor_multa": valor_multa,
            "dias_sem_expediente": texto_dos_dias(processo.dias_sem_expediente),
            "caso_id": caso_id,
        }

    def _valor_multa(self, bruto: object, campo: str = "valor_multa") -> str | None:
        return ler_valor_multa(bruto, campo)

    def _caso_id(self, bruto: object) -> int | None:
        if bruto is None:
            return None
        if not id_valido(bruto):
            raise EntradaInvalida("caso_id", "deve ser o número de um caso salvo")
        assert isinstance(bruto, int)
        if self.repositorio.obter(bruto) is None:
            raise EntradaInvalida("caso_id", f"caso {bruto} não encontrado")
        return bruto

    def obter(self, processo_id: int, referencia: date | None = None) -> ProcessoDerivado:
        """A stored processo and its derivation; one that § 6 no longer accepts comes with its
        ``erro`` (shown, so that it can be corrected); one that does not match its history is
        refused (``RegistroAlterado``)."""
        armazenado = self.repo.obter_processo(processo_id)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar_ou_erro(armazenado, referencia=referencia)

    def derivar(
        self,
        armazenado: ProcessoArmazenado,
        ate: date | None = None,
        referencia: date | None = None,
    ) -> ProcessoDerivado:
        """§ 6 on a stored processo (its events up to ``ate``, a list's date), judged on
        ``referencia``, else ``ate``, else today (the injected clock), with its
        ``valor_multa`` and ``dias_sem_expediente``."""
        processo = armazenado.como_processo(ate)
        if armazenado.tipo == "anp" and armazenado.valor_multa is not None:
            processo["valor_multa"] = armazenado.valor_multa
        situacao = analisar(processo, self.legislacao, referencia or ate or hoje_em_brasilia())
        return ProcessoDerivado(armazenado, situacao)

    def derivar_ou_erro(
        self,
        armazenado: ProcessoArmazenado,
        ate: date | None = None,
        referencia: date | None = None,
    ) -> ProcessoDerivado:
        """:meth:`derivar`, for a listing: a stored processo that does not match its history,
        or that § 6 refuses (a later change of the rules), comes back with its ``erro``."""
        if armazenado.erro is not None:
            return ProcessoDerivado(armazenado, None, armazenado.erro)
        try:
            return self.derivar(armazenado, ate, referencia)
        except EntradaInvalida as erro:
            motivo = f"{erro.campo}: {erro.mensagem}" if erro.campo else erro.mensagem
            return ProcessoDerivado(
                armazenado, None, f"processo nº {armazenado.id} não é válido: {motivo}"
            )

    def listar(
        self,
        limite: int | None = 50,
        deslocamento: int = 0,
        tipo: str | None = None,
        cnpj: str | None = None,
        referencia: date | None = None,
    ) -> list[ProcessoDerivado]:
        return [
            self.derivar_ou_erro(p, referencia=referencia)
            for p in self.repo.listar_processos(limite, deslocamento, tipo or None, cnpj or None)
        ]

    def verificar(self, ancora: tuple[int, str] | Ancora | None = None) -> Relatorio:
        """``multas auditoria verificar``: the chain and every stored record
        (:meth:`Repositorio.verificar`), every stored processo against § 6 as the rules
        stand today (:meth:`invalidos`), and every ledger year whose CNPJ is not its key, left
        as it was by migration r0008 because it collides with another (never merged: named
        here until the user resolves it, :meth:`RepositorioCiclo.colisoes`)."""
        relatorio = self.repositorio.verificar(ancora)
        return replace(
            relatorio,
            problemas=[*relatorio.problemas, *self.invalidos(), *self.repo.colisoes()],
        )

    def invalidos(self) -> list[Problema]:
        """The stored processos that § 6 refuses (``multas auditoria verificar`` names them):
        a listing shows them with their ``erro``."""
        problemas = []
        for derivado in self.todos():
            if derivado.erro is not None and derivado.armazenado.erro is None:
                problemas.append(
                    Problema(
                        "inválido",
                        derivado.erro,
                        tabela="processos",
                        id=derivado.armazenado.id,
                    )
                )
        return problemas

    def acrescentar(
        self, processo_id: int, dados: object, usuario: str = USUARIO_PADRAO
    ) -> ProcessoDerivado:
        """Append one event ``{"evento", "data"}``; refused (and nothing stored) when § 6
        refuses the new list."""
        if not isinstance(dados, Mapping):
            raise EntradaInvalida(None, 'o evento deve ser um objeto {"evento": ..., "data": ...}')
        for chave in dados:
            if chave not in CAMPOS_EVENTO:
                raise EntradaInvalida(
                    str(chave), 'campo desconhecido: um evento é exatamente {"evento", "data"}'
                )
        nome, bruto_data = dados.get("evento"), dados.get("data")
        if nome is None or nome == "":
            raise EntradaInvalida("evento", "campo obrigatório: o nome do evento")
        if not isinstance(nome, str):
            raise EntradaInvalida("evento", f"evento desconhecido: {mostrar_valor(nome)}")
        if bruto_data is None or bruto_data == "":
            raise EntradaInvalida(
                "data", f"campo obrigatório: a data do evento {evento_citado(nome)}"
            )
        dia = para_data(bruto_data, "data")

        def validar(atual: ProcessoArmazenado, evento: str, data_evento: date) -> None:
            try:
                self.conferir_acrescimo(atual, [(evento, data_evento)])
            except EntradaInvalida as erro:
                posicao = f"eventos[{len(atual.eventos)}]."
                campo = erro.campo
                if campo is not None and campo.startswith(posicao):
                    campo = campo[len(posicao) :]
                raise EntradaInvalida(campo, erro.mensagem) from None

        armazenado = self.repo.acrescentar_evento(processo_id, nome, dia, validar, usuario)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar(armazenado)

    def conferir_acrescimo(
        self, atual: ProcessoArmazenado, novos: Sequence[tuple[str, date]]
    ) -> None:
        """§ 6 and the linked fine on the stored processo with ``novos`` appended: what
        :meth:`acrescentar` checks before storing (and a file import, for each processo it
        appends to). An error names ``eventos[i]``, ``i`` counted in the whole new list."""
        processo = atual.como_processo()
        processo["eventos"] += [{"evento": e, "data": d.isoformat()} for e, d in novos]
        novo = analisar(processo, self.legislacao, hoje_em_brasilia()).processo
        cada_evento_uma_vez([e.nome for e in novo.eventos])
        self._conferir_multa(novo, atual.valor_multa, atual.caso_id)

    def alterar(
        self, processo_id: int, dados: object, usuario: str = USUARIO_PADRAO
    ) -> ProcessoDerivado:
        """Change what a stored processo keeps besides its events (:data:`CAMPOS_ALTERAVEIS`):
        ``{"dias_sem_expediente": [...]}``, read as § 6 reads it (``null`` or ``[]``: none).
        Refused, and nothing stored, when § 6 or the linked fine refuses the processo as it
        would become."""
        if not isinstance(dados, Mapping):
            raise EntradaInvalida(
                None, 'o corpo deve ser um objeto JSON: {"dias_sem_expediente": ["AAAA-MM-DD"]}'
            )
        for chave in dados:
            if chave not in CAMPOS_ALTERAVEIS:
                raise EntradaInvalida(
                    str(chave),
                    "campo que não se altera num processo salvo (altera-se "
                    f"{', '.join(CAMPOS_ALTERAVEIS)}; os eventos, um por vez)",
                )
        if "dias_sem_expediente" not in dados:
            raise EntradaInvalida(
                "dias_sem_expediente",
                "campo obrigatório: a lista de datas sem expediente (null ou [] para nenhuma)",
            )
        bruto = dados["dias_sem_expediente"]
        dias = frozenset() if bruto is None else ler_datas(bruto, "dias_sem_expediente")

        def validar(novo: ProcessoArmazenado) -> None:
            processo = analisar(novo.como_processo(), self.legislacao, hoje_em_brasilia()).processo
            self._conferir_multa(processo, novo.valor_multa, novo.caso_id)

        armazenado = self.repo.alterar_processo(processo_id, texto_dos_dias(dias), validar, usuario)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar(armazenado)

    def remover_ultimo_evento(
        self, processo_id: int, usuario: str = USUARIO_PADRAO, esperado: str | None = None
    ) -> ProcessoDerivado:
        """Undo the last event (only if it is ``esperado``, when given); refused (and nothing
        stored) when § 6 would refuse what is left: a stored processo is always valid."""

        def validar(restante: ProcessoArmazenado) -> None:
            analisar(restante.como_processo(), self.legislacao, hoje_em_brasilia())

        armazenado = self.repo.remover_ultimo_evento(processo_id, usuario, validar, esperado)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar(armazenado)

    # --- linked processos (issue 19, item 5) ------------------------------------------------

    def vincular(
        self, processo_id: int, dados: object, usuario: str = USUARIO_PADRAO
    ) -> ProcessoDerivado:
        """Link the ``anp`` processo to the ``renovabio.lista`` processo of the same
        distributor: ``{"lista_id": N}`` (``{"lista_id": null}`` undoes the link). Refused,
        naming the field, when the processo is not ``anp``, the other is not a list processo
        or does not exist, their CNPJs differ (compared normalised, when both have one), or
        either is already linked to another; linking again to the same one stores nothing."""
        lista_id = ler_vinculo(dados)

        def validar(
            anp: ProcessoArmazenado, lista: ProcessoArmazenado | None, ocupante: int | None
        ) -> None:
            validar_vinculo(anp, lista_id, lista, ocupante)

        armazenado = self.repo.vincular(processo_id, lista_id, validar, usuario)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar(armazenado)

    def registrar_decisao(
        self, processo_id: int, dados: object, usuario: str = USUARIO_PADRAO
    ) -> dict[str, Any]:
        """The first-instance decision, entered once for a linked pair (either processo's id):
        ``{"data_decisao", "data_ciencia"}``, one of them or both. The ciência feeds the
        ``anp`` processo (``ciencia_primeira_instancia``), the decision's own date the
        ``renovabio.lista`` processo (``decisao_primeira_instancia``); a date not given leaves
        its processo as it is, and an aviso says so. Both processos are locked in id order and
        changed in one transaction: all or nothing. An event already stored on the same date
        is not appended again (a repeated request changes nothing)."""
        decisao = ler_decisao(dados)
        plano: dict[str, Any] = {}

        def planejar(
            atual: ProcessoArmazenado, vinculado: ProcessoArmazenado | None
        ) -> dict[int, list[tuple[str, date]]]:
            if vinculado is None:
                raise EntradaInvalida(
                    "processo_id",
                    f"o processo nº {atual.id} não está vinculado a outro processo: vincule o "
                    "processo anp ao processo renovabio.lista (multas processo vincular ID "
                    "--lista N; POST /api/v1/processos/{id}/vinculo) ou acrescente o evento "
                    "só a ele (multas processo evento)",
                )
            anp, lista = (atual, vinculado) if atual.tipo == "anp" else (vinculado, atual)
            plano.update(anp=anp, lista=lista)
            return planejar_decisao(decisao, anp, lista, self.conferir_acrescimo)

        par = self.repo.acrescentar_em_par(processo_id, planejar, ACAO_DECISAO, usuario)
        if par is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        depois = {p.id: p for p in par if p is not None}
        anp, lista = depois[plano["anp"].id], depois[plano["lista"].id]
        hoje = hoje_em_brasilia()
        return resultado_da_decisao(
            decisao,
            plano["anp"],
            plano["lista"],
            [self.detalhe(self.derivar_ou_erro(p), hoje) for p in (anp, lista)],
        )

    def excluir(self, processo_id: int, usuario: str = USUARIO_PADRAO) -> None:
        if not self.repo.excluir_processo(processo_id, usuario):
            raise NaoEncontrado(f"processo {processo_id} não encontrado")

    def eventos_possiveis(self, armazenado: ProcessoArmazenado) -> list[tuple[str, str]]:
        """The events the processo accepts next, on some date from its last one on: the page
        offers only these. Each as (name, pt-BR label)."""
        tipo = TIPOS[armazenado.tipo]
        ultimo = armazenado.eventos[-1].data if armazenado.eventos else date(2000, 1, 1)
        datas = [ultimo, ultimo + timedelta(days=min(400, (date.max - ultimo).days))]  # ≤ 9999
        possiveis = []
        for nome, evento in tipo.eventos.items():
            for dia in datas:
                processo = armazenado.como_processo()
                processo["eventos"].append({"evento": nome, "data": dia.isoformat()})
                try:
                    ler_processo(processo, self.legislacao)
                except EntradaInvalida:
                    continue
                possiveis.append((nome, evento.rotulo))
                break
        return possiveis

    def detalhe(self, derivado: ProcessoDerivado, hoje: date) -> dict[str, Any]:
        """A stored processo as JSON: what was stored, § 6's result, the information beyond
        it, the linked fine (to ``hoje``) and the events it accepts next."""
        a = derivado.armazenado
        vinculo = self._vinculo(a)
        detalhe: dict[str, Any] = {
            "processo_id": a.id,
            "tipo": a.tipo,
            "id": a.identificador,
            "cnpj": a.cnpj,
            "nome": a.nome,
            "calendario": a.calendario,
            "valor_multa": a.valor_multa,
            "dias_sem_expediente": a.dias_sem_expediente or [],
            "caso_id": a.caso_id,
            # a link to a processo the reader may not see (another client's) is not shown
            "lista_id": a.lista_id if vinculo is not None else None,
            "vinculo": vinculo,
            "usuario": a.usuario,
            "criado_em": a.criado_em.isoformat(),
            "atualizado_em": a.atualizado_em.isoformat(),
            "eventos": [
                {
                    "evento": e.evento,
                    "rotulo": rotulo_do_evento(a.tipo, e.evento),
                    "data": e.data.isoformat(),
                    "usuario": e.usuario,
                    "registrado_em": e.criado_em.isoformat(),
                }
                for e in a.eventos
            ],
        }
        if derivado.erro is not None:
            # stored, but § 6 refuses it as the rules stand: its events are shown, nothing
            # derived from them; undoing the last event is how it is corrected
            return detalhe | {
                "resultado": None,
                "estado_rotulo": "não pôde ser avaliado",
                "erro": derivado.erro,
                "informacoes": [],
                "multa": None,
                "eventos_possiveis": [],
            }
        return detalhe | {
            "resultado": derivado.resultado,
            "estado_rotulo": derivado.valido.estado_rotulo,
            "informacoes": self.informacoes(derivado, hoje),
            "multa": self.multa_vinculada(derivado, hoje),
            "eventos_possiveis": [
                {"evento": nome, "rotulo": rotulo} for nome, rotulo in self.eventos_possiveis(a)
            ],
        }

    def _vinculo(self, armazenado: ProcessoArmazenado) -> dict[str, Any] | None:
        """The processo linked to this one, as the detail shows it (its number and tipo)."""
        if armazenado.tipo not in ("anp", "renovabio.lista"):
            return None
        outro = self.repo.vinculado(armazenado)
        if outro is None:
            return None
        return {
            "processo_id": outro,
            "tipo": "renovabio.lista" if armazenado.tipo == "anp" else "anp",
        }

    def resumo(self, derivado: ProcessoDerivado) -> dict[str, Any]:
        """One line of a listing (with ``erro``, and nothing derived, for one that cannot be
        trusted or derived)."""
        a = derivado.armazenado
        if a.erro is not None:
            # a record that does not match its history: nothing it says is shown but its
            # number and why (its own name or CNPJ may be what was forged)
            return {
                "processo_id": a.id,
                "tipo": None,
                "id": None,
                "cnpj": None,
                "nome": None,
                "estado": None,
                "estado_rotulo": "não pôde ser lido",
                "ultimo_evento": None,
                "data_ultimo_evento": None,
                "prazos": None,
                "atualizado_em": None,
                "erro": a.erro,
            }
        ultimo = a.eventos[-1] if a.eventos else None
        linha: dict[str, Any] = {
            "processo_id": a.id,
            "tipo": a.tipo,
            "id": a.identificador,
            "cnpj": a.cnpj,
            "nome": a.nome,
            "estado": None,
            "estado_rotulo": "não pôde ser lido",
            "ultimo_evento": ultimo.evento if ultimo else None,
            "data_ultimo_evento": ultimo.data.isoformat() if ultimo else None,
            "prazos": None,
            "atualizado_em": a.atualizado_em.isoformat(),
        }
        if derivado.erro is not None:
            return linha | {"erro": derivado.erro}
        situacao = derivado.valido
        return linha | {
            "estado": situacao.estado,
            "estado_rotulo": situacao.estado_rotulo,
            "prazos": len(situacao.prazos),
        }

    # --- what a stored processo links to -------------------------------------------------------

    def informacoes(self, derivado: ProcessoDerivado, hoje: date) -> list[dict[str, Any]]:
        """Information beyond § 6 (not deadlines): the referral of art. 6º § 4º once the missed
        deadline has passed, and the partial checks of the distributor's second year."""
        armazenado = derivado.armazenado
        itens: list[dict[str, Any]] = []
        if armazenado.tipo == "renovabio.lista":
            fim = armazenado.eventos[0].data
            vigencia = self.legislacao.parametro("ciclo.encaminhamento").em(hoje)
            if vigencia is not None and hoje > fim:
                itens.append(
                    {
                        "informacao": "encaminhamento",
                        "descricao": "A ANP encaminha o nome do distribuidor, que não comprovou "
                        f"a meta na data do art. 4º-A ({formatar_data(fim)}), ao Ibama, à AGU, "
                        "ao MPF e aos demais órgãos competentes.",
                        "data": None,
                        "fundamento": fundamento(vigencia),
                        "texto": vigencia.texto,
                    }
                )
        if armazenado.cnpj:
            # a ledger year that does not match its history gives no information (it is
            # flagged where the ledger is shown), and does not hide the processo
            for ano in self.repo.anos_carteira(armazenado.cnpj, exigir=False):
                if ano.erro is not None:
                    continue
                if ano.entrada.get("segundo_ano_atuacao") is True:
                    vigencia = vigencia_em(
                        self.legislacao, "ciclo.comprovacoes_parciais", date(ano.ano, 12, 31)
                    )
                    parcial = self.legislacao.parametro("ciclo.comprovacoes_parciais")
                    for mes_dia in vigencia.valor:
                        # only a check on or after the provision's start (17/04/2025)
                        if parcial.em(date.fromisoformat(f"{ano.ano:04d}-{mes_dia}")) is None:
                            continue
                        itens.append(
                            {
                                "informacao": "comprovacao_parcial",
                                "descricao": "Comprovação parcial da meta no segundo ano de "
                                f"atuação do distribuidor ({ano.ano}).",
                                "data": f"{ano.ano}-{mes_dia}",
                                "fundamento": fundamento(vigencia),
                                "texto": vigencia.texto,
                            }
                        )
        return itens

    def multa_vinculada(self, derivado: ProcessoDerivado, ate: date) -> dict[str, Any] | None:
        """The fine case this processo produced, computed now (see the module's readings)."""
        a = derivado.armazenado
        eventos = {e.evento: e.data for e in a.eventos}
        return self._multa(
            a.tipo, a.calendario, a.valor_multa, a.caso_id, eventos, ate, a.dias_sem_expediente
        )

    def _conferir_multa(
        self,
        processo: Processo,
        valor_multa: str | None,
        caso_id: int | None,
        campo_multa: str = "valor_multa",
    ) -> None:
        """Before storing: reading the processo back computes its linked fine, so a fine that
        cannot be computed (a ``data_ciencia`` before ``anp.mora`` existed, a ``quitacao_meta``
        the saved case refuses) refuses the processo, naming the event's date (or the field
        the fine was given in, ``campo_multa``)."""
        eventos = {e.nome: e.data for e in processo.eventos}
        ultimo = processo.eventos[-1].data
        dias = [d.isoformat() for d in sorted(processo.dias_sem_expediente)]
        try:
            self._multa(
                processo.tipo.nome,
                processo.calendario,
                valor_multa,
                caso_id,
                eventos,
                ultimo,
                dias or None,
            )
        except EntradaInvalida as erro:
            evento = _EVENTO_DO_CAMPO.get(erro.campo or "")
            if evento in eventos:
                campo = f"eventos[{processo.indice(evento)}].data"
            else:
                campo = campo_multa if processo.tipo.nome == "anp" else "caso_id"
            raise EntradaInvalida(
                campo, f"a multa vinculada ao processo não pode ser calculada: {erro.mensagem}"
            ) from None

    def _multa(
        self,
        tipo: str,
        calendario: str,
        valor_salvo: str | None,
        caso_id: int | None,
        eventos: Mapping[str, date],
        ate: date,
        dias_sem_expediente: Any = None,
    ) -> dict[str, Any] | None:
        caso = None
        if caso_id is not None:
            try:
                caso = self.repositorio.obter(caso_id)
            except RegistroAlterado as alterado:
                # the linked fine is not trusted: said, never computed from it
                return {
                    "regime": None,
                    "descricao": "Multa do caso salvo vinculado",
                    "resultado": None,
                    "erro": f"{alterado.problema.mensagem}; a multa não é mostrada",
                }
        if tipo == "anp":
            principal = valor_salvo or (caso.valor if caso else None)
            if principal is None or "ciencia_decisao_definitiva" not in eventos:
                return None
            ciencia = eventos["ciencia_decisao_definitiva"]
            pagamento = eventos.get("pagamento", max(ate, ciencia))
            entrada: dict[str, Any] = {
                "regime": "anp.mora",
                "principal": principal,
                "data_ciencia": ciencia.isoformat(),
                "data_pagamento": pagamento.isoformat(),
                "interpretacao": {"calendario": calendario},
            }
            if dias_sem_expediente:
                entrada["dias_sem_expediente"] = dias_sem_expediente
            resultado = _calcular(entrada, self.legislacao, ate)
            return {
                "regime": "anp.mora",
                "descricao": (
                    "Multa com os encargos de mora até o pagamento"
                    if "pagamento" in eventos
                    else f"Multa com os encargos de mora até {formatar_data(pagamento)}"
                ),
                "resultado": resultado,
            }
        if tipo == "renovabio.lista" and caso is not None:
            from multas.nucleo.json_exato import ler_json

            entrada = ler_json(caso.entrada)
            if not isinstance(entrada, dict) or entrada.get("regime") != "renovabio.distribuidor":
                return None
            descricao = "Multa do distribuidor (caso salvo)"
            if "quitacao_meta" in eventos:
                entrada["data_quitacao"] = eventos["quitacao_meta"].isoformat()
                descricao = (
                    "Multa do distribuidor com a redução pela quitação da meta em "
                    f"{formatar_data(eventos['quitacao_meta'])}"
                )
            resultado = _calcular(entrada, self.legislacao, ate)
            avisos = []
            fim = eventos["fim_prazo_meta"].isoformat()
            if resultado.get("prazo_comprovacao") not in (None, fim):
                avisos.append(
                    "O prazo de comprovação do caso salvo "
                    f"({resultado['prazo_comprovacao']}) difere do evento fim_prazo_meta ({fim})."
                )
            return {
                "regime": "renovabio.distribuidor",
                "descricao": descricao,
                "resultado": resultado,
                "avisos": avisos,
            }
        return None

    # --- the calendar ------------------------------------------------------------------------

    def todos(self, referencia: date | None = None) -> list[ProcessoDerivado]:
        return self.listar(limite=None, referencia=referencia)

    @staticmethod
    def _item_erro(derivado: ProcessoDerivado) -> dict[str, Any]:
        """A processo that cannot be read, where its deadlines would be: listed, not hidden
        (of one that does not match its history, only its number: what it says may be what
        was forged)."""
        a = derivado.armazenado
        confiavel = a.erro is None
        return {
            "processo_id": a.id,
            "tipo": a.tipo if confiavel else None,
            "id": a.identificador if confiavel else None,
            "cnpj": a.cnpj if confiavel else None,
            "nome": a.nome if confiavel else None,
            "prazo": None,
            "data": None,
            "erro": derivado.erro,
        }

    def pendencias(self, filtros: Filtros) -> dict[str, Any]:
        """The work queue, judged on ``filtros.referencia``: every overdue deadline
        (``vencido``, whatever its date) and every pending one due from the reference date to
        ``filtros.ate``, across all stored processos, filtered (:mod:`multas.nucleo.ciclo.pendencias`
        says how). A processo that cannot be read comes first, with its ``erro``; then the
        overdue deadlines, the most days late first; then the others by date. The one function
        behind ``multas pendencias``, ``multas prazos proximos``, ``GET /api/v1/pendencias``,
        ``GET /api/v1/prazos/proximos`` and the pages ``/pendencias`` and ``/prazos``."""
        referencia, ate = filtros.referencia, filtros.ate
        cnpj = filtros.cnpj_normalizado
        itens: list[dict[str, Any]] = []
        erros: list[dict[str, Any]] = []
        prescritos_ocultos = 0
        for derivado in self.todos(referencia):
            armazenado = derivado.armazenado
            # a record that does not match its history: its CNPJ is not trusted, so no filter
            # hides it
            confiavel = armazenado.erro is None
            if cnpj is not None and confiavel and normalizar_cnpj(armazenado.cnpj or "") != cnpj:
                continue
            if derivado.erro is not None:
                erros.append(com_todos_os_campos(self._item_erro(derivado)))
                continue
            situacao = derivado.valido
            if filtros.estado is not None and situacao.estado != filtros.estado:
                continue
            for prazo in situacao.prazos:
                if not na_fila(prazo, filtros):
                    continue
                if situacao.estado == "prescrito" and not filtros.prescritos:
                    prescritos_ocultos += 1
                    continue
                itens.append(self._item_prazo(derivado, prazo, referencia))
        itens.sort(key=ordem)
        erros.sort(key=lambda item: item["processo_id"])
        return {
            "data_referencia": referencia.isoformat(),
            "hoje": referencia.isoformat(),
            "dias": filtros.dias,
            "ate": ate.isoformat(),
            "filtros": filtros.como_dict(),
            "prazos": erros + itens,
            "prescritos_ocultos": prescritos_ocultos,
        }

    def proximos(
        self,
        hoje: date,
        dias: int,
        incluir_encerrados: bool = False,
        incluir_vencidos: bool = True,
    ) -> list[dict[str, Any]]:
        """The items of :meth:`pendencias` with no filter but these (its former name)."""
        filtros = Filtros(hoje, dias, vencidos=incluir_vencidos, todos=incluir_encerrados)
        itens: list[dict[str, Any]] = self.pendencias(filtros)["prazos"]
        return itens

    def _item_prazo(self, derivado: ProcessoDerivado, prazo: Prazo, hoje: date) -> dict[str, Any]:
        armazenado = derivado.armazenado
        vencido = prazo.situacao == "vencido"
        return com_todos_os_campos(
            {
                "processo_id": armazenado.id,
                "tipo": armazenado.tipo,
                "id": armazenado.identificador,
                "cnpj": armazenado.cnpj,
                "nome": armazenado.nome,
                "estado": derivado.valido.estado,
                "prazo": prazo.nome,
                "rotulo": ROTULOS_PRAZOS[prazo.nome],
                "responsavel": prazo.responsavel,
                "data": prazo.data.isoformat(),
                "fundamento": prazo.fundamento,
                "contagem": prazo.contagem,
                "situacao": prazo.situacao,
                "encerrado": not prazo.pendente,
                "dias_de_atraso": (hoje - prazo.data).days if vencido else 0,
                "dias_restantes": 0 if vencido else max(0, (prazo.data - hoje).days),
            }
        )

    def todos_os_prazos(
        self, hoje: date | None = None, cnpj: str | None = None, processo_id: int | None = None
    ) -> list[dict[str, Any]]:
        """Every deadline of the stored processos (for the iCalendar export), judged on
        ``hoje``: all of them, one client's (``cnpj``, compared in its normal form, as the work
        queue does: a processo that does not match its history is never hidden by it), or one
        processo's (``processo_id``). A processo that cannot be read comes first, with its
        ``erro``."""
        itens, erros = [], []
        referencia = hoje or hoje_em_brasilia()
        if processo_id is not None:
            derivados = [self.obter(processo_id, referencia)]
        else:
            derivados = self.todos(referencia)
        normal = ler_filtro(cnpj, "cnpj")
        for derivado in derivados:
            armazenado = derivado.armazenado
            if (
                normal is not None
                and armazenado.erro is None
                and normalizar_cnpj(armazenado.cnpj or "") != normal
            ):
                continue
            if derivado.erro is not None:
                erros.append(self._item_erro(derivado))
                continue
            for prazo in derivado.valido.prazos:
                itens.append(self._item_prazo(derivado, prazo, referencia))
        itens.sort(key=lambda i: (i["data"], i["processo_id"], i["prazo"]))
        return erros + itens

    # --- the ANP's lists ------------------------------------------------------------------------

    def lista(self, qual: str, data: date) -> dict[str, Any]:
        """One of the ANP's lists as of ``data`` (see the module's readings)."""
        if qual not in LISTAS:
            raise EntradaInvalida(
                "lista", f"lista desconhecida: {mostrar_valor(qual)} (listas: {', '.join(LISTAS)})"
            )
        nome_parametro = {
            "sancoes": "ciclo.lista_sancoes",
            "balanco": "ciclo.lista_balanco",
            "encaminhamento": "ciclo.encaminhamento",
        }[qual]
        vigencia = self.legislacao.parametro(nome_parametro).em(data)
        vigencia_citada = vigencia or self.legislacao.parametro(nome_parametro).vigencias[0]
        itens: list[dict[str, Any]] = []
        erros: list[dict[str, Any]] = []
        aviso = None
        if vigencia is None:
            aviso = (
                f"Em {formatar_data(data)} o dispositivo ainda não existia (vigente desde "
                f"{formatar_data(vigencia_citada.inicio)}): a lista é vazia."
            )
        else:
            tipo = "renovabio.balanco" if qual == "balanco" else "renovabio.lista"
            for armazenado in self.repo.listar_processos(limite=None, tipo=tipo):
                processo = armazenado.como_processo(data)
                if not processo["eventos"] and armazenado.erro is None:
                    continue
                derivado = self.derivar_ou_erro(armazenado, data)
                if derivado.erro is not None:
                    # never on the list on the strength of a record that cannot be trusted,
                    # and never silently left off it
                    erros.append(self._item_erro(derivado))
                    continue
                item = self._item_lista(qual, derivado, data)
                if item is not None:
                    itens.append(item)
        itens.sort(
            key=lambda i: (
                i.get("data_inclusao") or i.get("fim_prazo_meta") or "",
                i["processo_id"],
            )
        )
        return {
            "lista": qual,
            "titulo": LISTAS[qual],
            "data": data.isoformat(),
            "fundamento": fundamento(vigencia_citada),
            "texto": vigencia_citada.texto,
            "itens": itens,
            "erros": erros,
            "avisos": ([aviso] if aviso else [])
            + [
                f"O processo nº {e['processo_id']} não pôde ser lido e não foi avaliado para "
                f"esta lista: {e['erro']}"
                for e in erros
            ],
        }

    def _item_lista(
        self, qual: str, derivado: ProcessoDerivado, data: date
    ) -> dict[str, Any] | None:
        armazenado = derivado.armazenado
        eventos = {e.evento: e.data for e in armazenado.eventos if e.data <= data}
        base = {
            "processo_id": armazenado.id,
            "id": armazenado.identificador,
            "cnpj": armazenado.cnpj,
            "nome": armazenado.nome,
            "estado": derivado.valido.estado,
        }
        if qual == "encaminhamento":
            fim = eventos["fim_prazo_meta"]
            if not fim < data:
                return None
            quitacao = eventos.get("quitacao_meta")
            return {
                **base,
                "fim_prazo_meta": fim.isoformat(),
                "quitacao_meta": quitacao.isoformat() if quitacao else None,
            }
        if "inclusao_lista" not in eventos or "retirada_lista" in eventos:
            return None
        prazos = {p.nome: p for p in derivado.valido.prazos}
        retirada = prazos.get("retirada_lista")
        item = {
            **base,
            "data_inclusao": eventos["inclusao_lista"].isoformat(),
            "prazo_retirada": retirada.data.isoformat() if retirada else None,
        }
        if qual == "sancoes":
            quitacao, pedido = eventos.get("quitacao_meta"), eventos.get("pedido_retirada")
            item["fim_prazo_meta"] = eventos["fim_prazo_meta"].isoformat()
            item["quitacao_meta"] = quitacao.isoformat() if quitacao else None
            item["pedido_retirada"] = pedido.isoformat() if pedido else None
        else:
            adequacao = eventos.get("comprovacao_adequacao")
            item["comprovacao_adequacao"] = adequacao.isoformat() if adequacao else None
        return item

    # --- the ledger ----------------------------------------------------------------------------

    def salvar_ano(
        self, dados: object, usuario: str = USUARIO_PADRAO, leitura: Leitura = JSON
    ) -> dict[str, Any]:
        """Create or replace one year; the distributor's ledger must still compute."""
        from multas.nucleo.ciclo.carteira import ler_ano

        ano = ler_ano(dados, leitura)
        self._gravar_anos([ano], usuario)
        return self.carteira(ano.cnpj)

    def importar(
        self,
        linhas: Sequence[object],
        usuario: str = USUARIO_PADRAO,
        leitura: Leitura = JSON,
        locais: Sequence[Local] | None = None,
    ) -> dict[str, Any]:
        """Several years at once (a file's rows; ``locais``: where each was read, for the
        errors, else the position in a list): all are validated, and each distributor's ledger
        computed, then all are stored in one transaction: one bad row stores nothing."""
        from multas.nucleo.ciclo.carteira import ler_anos, locais_de_lista

        if locais is None:
            locais = locais_de_lista(len(linhas))
        anos = ler_anos(linhas, leitura, locais)
        self._gravar_anos(anos, usuario, locais)
        return {"anos": len(anos), "distribuidores": sorted({a.cnpj for a in anos})}

    def _gravar_anos(
        self, anos: Sequence[AnoCarteira], usuario: str, locais: Sequence[Local] | None = None
    ) -> None:
        """Store years in one transaction, each distributor's ledger (its stored years, read
        inside that transaction, with these) computed first: all or nothing."""
        grupos: dict[str, dict[int, tuple[AnoCarteira, Local | None]]] = {}
        for i, ano in enumerate(anos):
            local = locais[i] if locais is not None else None
            # one key per CNPJ, however spelled (issue 19, item 3): two spellings of one
            # (CNPJ, year) are the same year repeated
            grupo = grupos.setdefault(normalizar_cnpj(ano.cnpj), {})
            if ano.ano in grupo:
                mensagem = f"ano {ano.ano} repetido no arquivo para o CNPJ {ano.cnpj}"
                anterior = grupo[ano.ano][1]
                if local is None:
                    raise EntradaInvalida("ano", mensagem)
                raise local.erro(f"{mensagem} (primeira vez: {anterior})", "ano")
            grupo[ano.ano] = (ano, local)
        from multas.nucleo.ciclo.carteira import calcular_carteira

        def validar(armazenados: Callable[[str], list[AnoArmazenado]]) -> None:
            for cnpj, novos in grupos.items():
                antigos = [self._ano(a.entrada) for a in armazenados(cnpj) if a.ano not in novos]
                onde = {n: local for n, (_, local) in novos.items() if local is not None}
                calcular_carteira(
                    [*antigos, *(a for a, _ in novos.values())], self.legislacao, onde or None
                )

        self.repo.salvar_anos(
            [(a.cnpj, a.ano, a.nome, a.como_dict()) for a in anos], usuario, validar
        )

    def salvar_ano_renovabio(
        self, resultado: Mapping[str, Any], usuario: str = USUARIO_PADRAO, substituir: bool = False
    ) -> dict[str, Any]:
        """Store a RenovaBio year's run (:func:`multas.servicos.ano.calcular_ano`; ``multas ano
        calcular --salvar``) in one transaction, all or nothing: each distributor's year in
        its ledger, and a ``renovabio.lista`` processo for each fined distributor whose target
        was due on or after the list's first day (``fim_prazo_meta`` = the year's deadline).
        A row with an error, or a (CNPJ, year) already stored without ``substituir``, stores
        nothing; the error names the row."""
        linhas, lidas = resultado["linhas"], resultado["lidas"]
        com_erro = [linha["erro"] for linha in linhas if linha["erro"]]
        if com_erro:
            raise EntradaInvalida(
                None,
                f"{len(com_erro)} linha(s) com erro; nada foi salvo. A primeira: {com_erro[0]}",
            )
        # each year keeps its quotes: its ledger prices it exactly, as the run did
        anos = [
            replace(lida.entrada, **resultado["cotacoes"].do_ano(lida.entrada.ano))
            for lida in lidas
        ]
        locais = list(resultado["locais"])
        por_cnpj = {
            normalizar_cnpj(ano.cnpj): (ano, local) for ano, local in zip(anos, locais, strict=True)
        }
        from multas.nucleo.ciclo.carteira import calcular_carteira

        def validar(armazenados: Callable[[str], list[AnoArmazenado]]) -> None:
            for cnpj, (ano, local) in por_cnpj.items():
                guardados = armazenados(cnpj)
                if not substituir and any(a.ano == ano.ano for a in guardados):
                    raise local.erro(
                        f"o ano {ano.ano} do CNPJ {cnpj} já está na carteira (use --substituir "
                        "para trocá-lo)",
                        "cnpj",
                    )
                antigos = [self._ano(a.entrada) for a in guardados if a.ano != ano.ano]
                calcular_carteira([*antigos, ano], self.legislacao, {ano.ano: local})

        processos = [
            self._processo_da_lista(ano, do_ano)
            for ano, do_ano in zip(anos, resultado["resultados"], strict=True)
            if do_ano["cbios_multados"] > 0
        ]
        _, criados = self.repo.salvar_anos_e_processos(
            [(a.cnpj, a.ano, a.nome, a.como_dict()) for a in anos],
            [p for p in processos if p is not None],
            usuario,
            validar,
        )
        return {"anos": len(anos), "processos": [p.id for p in criados]}

    def _processo_da_lista(
        self, ano: AnoCarteira, do_ano: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The stored fields of a fined distributor's ``renovabio.lista`` processo, or ``None``
        when its target was due before the list existed (spec § 6 v3)."""
        prazo = do_ano.get("prazo_comprovacao")
        desde = TIPOS["renovabio.lista"].primeiro.desde
        assert desde is not None
        if prazo is None or date.fromisoformat(prazo) < (
            self.legislacao.parametro(desde).vigencias[0].inicio
        ):
            return None
        dados = {
            "tipo": "renovabio.lista",
            "cnpj": ano.cnpj,
            "eventos": [{"evento": "fim_prazo_meta", "data": prazo}],
        } | ({"nome": ano.nome} if ano.nome else {})
        processo = ler_processo(dados, self.legislacao)
        analisar(processo.como_dict(), self.legislacao, hoje_em_brasilia())
        return {
            "tipo": processo.tipo.nome,
            "calendario": processo.calendario,
            "eventos": [(e.nome, e.data) for e in processo.eventos],
            "cnpj": ano.cnpj,
            "nome": ano.nome,
        }

    def _ano(self, entrada: dict[str, Any]) -> AnoCarteira:
        from multas.nucleo.ciclo.carteira import ler_ano

        return ler_ano(entrada)

    def carteira(
        self,
        cnpj: str,
        leituras: Mapping[str, str] | None = None,
        hoje: date | None = None,
        com_calculo: bool = False,
    ) -> dict[str, Any]:
        """A distributor's stored ledger, each year marked ``projecao`` while its deadline has
        not passed on ``hoje`` (default: today in Brasília; :func:`marcar_projecoes`);
        ``com_calculo``: each year keeps its fine's case and the engine's result (its
        memória), as :func:`calcular_carteira` says."""
        anos = self.repo.anos_carteira(cnpj)
        if not anos:
            raise NaoEncontrado(f"distribuidor {cnpj} não encontrado na carteira")
        from multas.nucleo.ciclo.carteira import calcular_carteira, marcar_projecoes

        calculada = calcular_carteira(
            [self._ano(a.entrada) for a in anos],
            self.legislacao,
            interpretacao=leituras,
            com_calculo=com_calculo,
        )
        return marcar_projecoes(calculada, hoje or hoje_em_brasilia())

    def ano_da_carteira(
        self, cnpj: str, ano: int, leituras: Mapping[str, str] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The ledger and its year ``ano`` with its calculation (``calculo``: the fine's case
        and the engine's result, ``None`` without a fine); :class:`NaoEncontrado` if the
        distributor or the year is not in the ledger."""
        dados = self.carteira(cnpj, leituras, com_calculo=True)
        for linha in dados["anos"]:
            if linha["ano"] == ano:
                return dados, linha
        raise NaoEncontrado(f"o ano {ano} do distribuidor {cnpj} não está na carteira")

    def _anos_guardados(self, cnpj: str, ano: int) -> list[AnoCarteira]:
        """A distributor's stored years, ``ano`` among them (else :class:`NaoEncontrado`)."""
        anos = [self._ano(a.entrada) for a in self.repo.anos_carteira(cnpj)]
        if not anos:
            raise NaoEncontrado(f"distribuidor {cnpj} não encontrado na carteira")
        if all(a.ano != ano for a in anos):
            raise NaoEncontrado(
                f"o ano {ano} do distribuidor {cnpj} não está na carteira (salve-o antes: "
                "multas carteira salvar ou importar)"
            )
        return anos

    def importar_aposentadorias(
        self,
        cnpj: str,
        ano: int,
        linhas: Sequence[object],
        locais: Sequence[Local],
        leitura: Leitura,
        usuario: str = USUARIO_PADRAO,
    ) -> dict[str, Any]:
        """A stored year's retirements from a file's rows (``data``, ``quantidade``,
        ``referencia``), replacing the ones it had; the year must be stored and the
        distributor's ledger still compute. Returns the year's line of the ledger."""
        from multas.nucleo.ciclo.carteira import ler_aposentadorias_da_planilha

        aposentadorias = ler_aposentadorias_da_planilha(linhas, locais, leitura)
        guardado = next(a for a in self._anos_guardados(cnpj, ano) if a.ano == ano)
        self._gravar_anos([replace(guardado, aposentadorias=aposentadorias)], usuario)
        return next(linha for linha in self.carteira(cnpj)["anos"] if linha["ano"] == ano)

    def conferir(
        self,
        cnpj: str,
        ano: int,
        notificacao: Notificacao,
        leituras: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """The ANP's notice of a stored year against the distributor's ledger
        (:func:`multas.nucleo.ciclo.conferir.conferir_notificacao`)."""
        anos = self._anos_guardados(cnpj, ano)
        from multas.nucleo.ciclo.conferir import conferir_notificacao

        return conferir_notificacao(anos, ano, notificacao, self.legislacao, leituras)

    def distribuidores(self) -> list[dict[str, Any]]:
        """Each distributor of the ledger; one with a year that does not match its history is
        listed with its ``erro``."""
        return [
            {"cnpj": cnpj, "nome": nome, "anos": n} | ({"erro": erro} if erro else {})
            for cnpj, nome, n, erro in self.repo.distribuidores()
        ]

    def excluir_ano(self, cnpj: str, ano: int, usuario: str = USUARIO_PADRAO) -> None:
        if not self.repo.excluir_ano(cnpj, ano, usuario):
            raise NaoEncontrado(f"ano {ano} do distribuidor {cnpj} não encontrado")
