"""Stored processos, each derived through spec § 6: the base of
:class:`multas.servicos.gestao.Ciclo` (creating, reading, changing and listing processos, and
the fine linked to one); the readings beyond § 6 are in :mod:`multas.servicos.gestao`."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Self

from multas.nucleo.ciclo.contagem import comprovacoes_parciais, vigencia_em
from multas.nucleo.ciclo.prazos import (
    Processo,
    Situacao,
    analisar,
    fundamento,
    ler_processo,
    situacao,
)
from multas.nucleo.contrato import ler_datas
from multas.nucleo.datas import formatar_data
from multas.nucleo.erros import Coleta, EntradaInvalida, ErrosDeEntrada, levantar
from multas.nucleo.eventos import TIPOS
from multas.nucleo.ids import id_valido
from multas.nucleo.legislacao import Legislacao
from multas.servicos.documentos import (
    Anexo,
    guardar,
    recusar_metadados,
    texto_dos_documentos,
)
from multas.servicos.evento_novo import ler_evento_novo, ler_valor_multa
from multas.servicos.persistencia import USUARIO_PADRAO, Repositorio
from multas.servicos.persistencia.armazenados import (
    leituras_do_processo,
    planos_dos_eventos,
    valores_dos_eventos,
)
from multas.servicos.persistencia.ciclo import (
    NovoProcesso,
    ProcessoArmazenado,
    RepositorioCiclo,
    texto_dos_dias,
)
from multas.servicos.persistencia.registros import RegistroAlterado
from multas.servicos.relogio import hoje as hoje_em_brasilia

#: the fields a stored processo reads itself (``principal``: the deprecated name of
#: ``valor_multa``), besides § 6's
CAMPOS_ARMAZENADOS = ("principal", "valor_multa", "caso_id")
#: § 6 fields a stored processo does not keep: refused, never silently dropped
CAMPOS_NAO_GRAVADOS = ("data_referencia",)
#: what :meth:`Ciclo.alterar` changes in a stored processo (its events change one at a time)
CAMPOS_ALTERAVEIS = ("dias_sem_expediente",)


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


def _no_evento(erro: EntradaInvalida, posicao: str) -> EntradaInvalida:
    """An error of the new event as its form and request name it: ``parcelas``, not
    ``eventos[3].parcelas``."""
    campo = erro.campo
    if campo is not None and campo.startswith(posicao):
        campo = campo[len(posicao) :]
    return EntradaInvalida(campo, erro.mensagem)


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


class CicloProcessos:
    """The stored processos: what every part of :class:`~multas.servicos.gestao.Ciclo`
    builds on (the repositories, the rules, deriving a stored processo)."""

    def __init__(self, repositorio: Repositorio, legislacao: Legislacao | None = None) -> None:
        self.repositorio = repositorio
        self.repo = RepositorioCiclo(repositorio)
        self._legislacao = legislacao
        #: the database's legislation, read once for a run of derivations (:meth:`de_uma_vez`)
        self._fixa: Legislacao | None = None

    @property
    def legislacao(self) -> Legislacao:
        """The legislation given, else the shipped one with this database's Selic (the
        months added by ``multas legislacao selic atualizar``, read when a rule needs them:
        anew on each use, unless :meth:`de_uma_vez` fixed it)."""
        if self._legislacao is not None:
            return self._legislacao
        if self._fixa is not None:
            return self._fixa
        from multas.servicos.selic import legislacao_com_selic

        return legislacao_com_selic(self.repositorio)

    def de_uma_vez(self) -> Self:
        """This cycle, for a run of derivations (a slice of the queue, a listing, a file's
        import): the database's Selic read once, when the first rule needs it, not once per
        processo; still the database's own legislation (the queue's index serves it)."""
        if self._legislacao is not None or self._fixa is not None:
            return self
        copia = copy.copy(self)
        copia._fixa = self.legislacao
        return copia

    # --- processos -------------------------------------------------------------------------

    def criar(self, dados: object, usuario: str = USUARIO_PADRAO) -> ProcessoDerivado:
        """Store a processo of § 6 (its events validated whole, its ``dias_sem_expediente``
        kept), with the optional ``valor_multa`` (anp: the fine fixed; ``principal``, its
        deprecated name, is still read) and ``caso_id`` (the saved fine case)."""
        armazenado = self.repo.criar_processo(self.preparar(dados), usuario=usuario)
        return self.derivar(armazenado)

    def preparar(self, dados: object) -> NovoProcesso:
        """What :meth:`criar` validates, without storing: the processo read once, in its
        stored form. Also the check of every processo a file import creates
        (:mod:`multas.servicos.importar`)."""
        if not isinstance(dados, Mapping):
            raise EntradaInvalida(None, "o processo deve ser um objeto JSON")
        coleta = Coleta()  # each field on its own: every error of the request at once
        for campo in CAMPOS_NAO_GRAVADOS:
            with coleta.campo():
                if dados.get(campo) is not None:
                    raise EntradaInvalida(
                        campo,
                        "um processo salvo não guarda a data de referência: ele é julgado na "
                        "data da consulta (hoje, ou ?data_referencia= / --data-referencia); para "
                        "julgar sem salvar, use POST /api/v1/prazos (ou multas prazos calcular)",
                    )
        campo_multa = "valor_multa"
        valor_multa = caso_id = None
        with coleta.campo():
            if dados.get("principal") is not None:
                campo_multa = "principal"
                if dados.get("valor_multa") is not None:
                    raise EntradaInvalida(
                        "principal",
                        "informe só valor_multa (principal é o nome antigo do mesmo campo)",
                    )
            if dados.get(campo_multa) is not None and dados.get("tipo") != "anp":
                raise EntradaInvalida(campo_multa, "só um processo 'anp' tem valor_multa")
            valor_multa = self._valor_multa(dados.get(campo_multa), campo_multa)
        with coleta.campo():
            caso_id = self._caso_id(dados.get("caso_id"))
        lido = {k: v for k, v in dados.items() if k not in CAMPOS_ARMAZENADOS}
        # a payment's valor needs it (spec § 6.2 v4); one in error is read again, its error
        # given once
        ja_errados = {e.campo for e in coleta.erros}
        if campo_multa in ja_errados:
            ja_errados.add("valor_multa")
            lido["valor_multa"] = dados.get(campo_multa)
        elif valor_multa is not None:
            lido["valor_multa"] = valor_multa
        legislacao = self.legislacao  # one object: § 6.2's account is run once, not twice
        try:
            processo = ler_processo(lido, legislacao)
        except EntradaInvalida as erro:
            levantar([*coleta.erros, *(e for e in erro.todos() if e.campo not in ja_errados)])
            raise  # (not reached: what ler_processo refused is at least one error)
        coleta.levantar()
        for i, evento in enumerate(processo.eventos):
            recusar_metadados(evento.documentos, f"eventos[{i}].documentos")
        situacao(processo, legislacao, hoje_em_brasilia())  # the deadlines must be computable
        # and the linked fine, read back
        self._conferir_multa(processo, valor_multa, caso_id, campo_multa)
        ids = processo.identificacao
        return NovoProcesso(
            tipo=processo.tipo.nome,
            calendario=processo.calendario,
            eventos=tuple((e.nome, e.data) for e in processo.eventos),
            valores=valores_dos_eventos(processo.eventos),
            planos=planos_dos_eventos(processo.eventos),
            identificador=ids.get("id"),
            cnpj=ids.get("cnpj"),
            nome=ids.get("nome"),
            valor_multa=valor_multa,
            dias_sem_expediente=texto_dos_dias(processo.dias_sem_expediente),
            caso_id=caso_id,
            origem=ids.get("origem"),
            leituras=leituras_do_processo(processo),
        )

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
        ciclo = self.de_uma_vez()
        return [
            ciclo.derivar_ou_erro(p, referencia=referencia)
            for p in self.repo.listar_processos(limite, deslocamento, tipo or None, cnpj or None)
        ]

    def acrescentar(
        self,
        processo_id: int,
        dados: object,
        usuario: str = USUARIO_PADRAO,
        anexos: Sequence[Anexo] = (),
    ) -> ProcessoDerivado:
        """Append one event ``{"evento", "data"}`` (a ``pagamento`` may carry ``valor``, spec
        § 6.2 v4), with the files ``anexos`` as its documents; refused (and nothing stored)
        when § 6 refuses the new list."""
        if not isinstance(dados, Mapping):
            raise EntradaInvalida(None, 'o evento deve ser um objeto {"evento": ..., "data": ...}')
        lido = ler_evento_novo(dados, [a.documento.como_dict() for a in anexos])
        nome, dia, valor, extra = lido.nome, lido.dia, lido.valor, lido.extra

        def validar(
            atual: ProcessoArmazenado, evento: str, data_evento: date
        ) -> tuple[str | None, str | None]:
            """§ 6 on the new list; what the event stores: its valor and plan, as read."""
            try:
                situacao = self._situacao_do_acrescimo(
                    atual, [(evento, data_evento)], [extra or None]
                )
                derivada.append(situacao)  # the stored processo's, derived once (issue 36)
                novo = situacao.processo
                return valor, (planos_dos_eventos(novo.eventos[-1:]) or (None,))[0]
            except EntradaInvalida as erro:
                posicao = f"eventos[{len(atual.eventos)}]."
                erros = [_no_evento(um, posicao) for um in erro.todos()]  # every one of them
                raise (erros[0] if len(erros) == 1 else ErrosDeEntrada(erros)) from None

        derivada: list[Situacao] = []
        armazenado = self.repo.acrescentar_evento(
            processo_id,
            nome,
            dia,
            validar,
            usuario,
            texto_dos_documentos([a.documento for a in anexos]),
            (lambda escrita: guardar(escrita, anexos)) if anexos else None,
        )
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        # what was validated is what was stored, judged on the same day: not derived again
        return ProcessoDerivado(armazenado, derivada[-1])

    def conferir_acrescimo(
        self,
        atual: ProcessoArmazenado,
        novos: Sequence[tuple[str, date]],
        extras: Sequence[Mapping[str, object] | None] | None = None,
    ) -> Processo:
        """§ 6 and the linked fine on the stored processo with ``novos`` appended (each with its
        raw fields besides the name and date in ``extras``, when given: a payment's ``valor``, a
        parcelamento's plan): what :meth:`acrescentar` checks before storing (and a file
        import, for each processo it appends to). An error names ``eventos[i]``, ``i`` counted
        in the whole new list. The processo as read."""
        return self._situacao_do_acrescimo(atual, novos, extras).processo

    def _situacao_do_acrescimo(
        self,
        atual: ProcessoArmazenado,
        novos: Sequence[tuple[str, date]],
        extras: Sequence[Mapping[str, object] | None] | None = None,
    ) -> Situacao:
        """:meth:`conferir_acrescimo`, with the whole derivation (judged today)."""
        processo = atual.como_processo()
        brutos = list(extras) if extras is not None else [None] * len(novos)
        for (e, d), extra in zip(novos, brutos, strict=True):
            processo["eventos"].append({"evento": e, "data": d.isoformat(), **(extra or {})})
        situacao = analisar(processo, self.legislacao, hoje_em_brasilia())
        self._conferir_multa(situacao.processo, atual.valor_multa, atual.caso_id)
        return situacao

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
                if nome == "parcelamento":  # a plan of one instalment stands for any plan
                    processo["eventos"][-1] |= {"parcelas": 1, "valor_consolidado": "1.00"}
                try:
                    ler_processo(processo, self.legislacao)
                except EntradaInvalida:
                    continue
                possiveis.append((nome, evento.rotulo))
                break
        return possiveis

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
                    # only the checks on or after the provision's start (spec § 3.7 W5)
                    vigencia, datas = comprovacoes_parciais(self.legislacao, ano.ano)
                    for dia in datas:
                        itens.append(
                            {
                                "informacao": "comprovacao_parcial",
                                "descricao": "Comprovação parcial da meta no segundo ano de "
                                f"atuação do distribuidor ({ano.ano}).",
                                "data": dia.isoformat(),
                                "fundamento": fundamento(vigencia),
                                "texto": vigencia.texto,
                            }
                        )
        return itens

    def multa_vinculada(self, derivado: ProcessoDerivado, ate: date) -> dict[str, Any] | None:
        """The fine case this processo produced, computed now (see the readings of
        :mod:`multas.servicos.gestao`)."""
        a = derivado.armazenado
        if any(e.valor is not None for e in a.eventos):
            return None  # spec § 6.2 v4: payments with amounts: ``devido`` says what is owed
        eventos = {e.evento: e.data for e in a.eventos}
        encargos = derivado.situacao.processo.encargos if derivado.situacao else "lei-9847"
        try:
            return self._multa(
                a.tipo,
                a.calendario,
                a.valor_multa,
                a.caso_id,
                eventos,
                ate,
                a.dias_sem_expediente,
                encargos,
            )
        except EntradaInvalida as erro:  # a Selic month the series lacks, on the day asked
            return {
                "regime": "anp.mora",
                "descricao": "Multa com os encargos de mora",
                "resultado": None,
                "erro": f"a multa não é mostrada: {erro.mensagem}",
            }

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
        if any(e.valor is not None for e in processo.eventos):
            return  # spec § 6.2 v4: ``devido`` says what is owed, not the linked fine
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
                processo.encargos,
            )
        except EntradaInvalida as erro:
            evento = _EVENTO_DO_CAMPO.get(erro.campo or "")
            if evento == "ciencia_decisao_definitiva" and evento not in eventos:
                evento = "renuncia_recurso"  # the decision became definitive on the waiver
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
        encargos: str = "lei-9847",
    ) -> dict[str, Any] | None:
        """The linked fine: ``anp.mora`` on ``valor_multa`` (or the saved case's) under the
        processo's ``encargos`` (spec § 6.2 v4), the list processo's saved distributor case.
        A processo whose payments carry amounts has none: its ``devido`` says what is owed."""
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
            # spec § 6 and § 3.7 W2: the vencimento counts from the ciência of the definitive
            # decision or, without it, from the waiver of the appeal (the decision became
            # definitive then), as the processo's ``pagamento`` deadline does
            ciencia = eventos.get("ciencia_decisao_definitiva") or eventos.get("renuncia_recurso")
            if principal is None or ciencia is None:
                return None
            pagamento = eventos.get("pagamento", max(ate, ciencia))
            descontado = self._pago_com_desconto(calendario, eventos, dias_sem_expediente)
            if descontado:
                principal = self._valor_com_desconto(principal, eventos["renuncia_recurso"])
            entrada: dict[str, Any] = {
                "regime": "anp.mora",
                "principal": principal,
                "data_ciencia": ciencia.isoformat(),
                "data_pagamento": pagamento.isoformat(),
                "interpretacao": {"calendario": calendario, "encargos": encargos},
            }
            if dias_sem_expediente:
                entrada["dias_sem_expediente"] = dias_sem_expediente
            resultado = _calcular(entrada, self.legislacao, ate)
            if descontado:
                descricao = "Multa paga com a redução da renúncia ao recurso, no prazo dela"
            elif "pagamento" in eventos:
                descricao = "Multa com os encargos de mora até o pagamento"
            else:
                descricao = f"Multa com os encargos de mora até {formatar_data(pagamento)}"
            return {"regime": "anp.mora", "descricao": descricao, "resultado": resultado}
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

    def _pago_com_desconto(
        self, calendario: str, eventos: Mapping[str, date], dias_sem_expediente: Any
    ) -> bool:
        """With the appeal waived, the payment came by the ``pagamento_com_desconto`` deadline
        (§ 6's own, counted with this processo's calendar): the discounted amount settled the
        fine (spec § 6.2 "Discount"), and no charge accrues on it."""
        if "renuncia_recurso" not in eventos or "pagamento" not in eventos:
            return False
        processo: dict[str, Any] = {
            "tipo": "anp",
            "eventos": [
                {"evento": n, "data": d.isoformat()}
                for n, d in sorted(eventos.items(), key=lambda item: item[1])
                if n
                in ("infracao", "auto_infracao", "ciencia_primeira_instancia", "renuncia_recurso")
            ],
            "interpretacao": {"calendario": calendario},
            "data_referencia": eventos["pagamento"].isoformat(),
        }
        if dias_sem_expediente:
            processo["dias_sem_expediente"] = dias_sem_expediente
        prazo = next(
            p
            for p in analisar(processo, self.legislacao).prazos
            if p.nome == "pagamento_com_desconto"
        )
        return eventos["pagamento"] <= prazo.data

    def _valor_com_desconto(self, principal: Any, renuncia: date) -> str:
        """The fine less the reduction in force on the waiver, rounded once (spec § 6)."""
        from fractions import Fraction

        from multas.nucleo.dinheiro import arredondar

        taxa = vigencia_em(self.legislacao, "ciclo.pagamento_com_desconto", renuncia).fracao
        return f"{arredondar(Fraction(str(principal)) * (1 - taxa)):f}"

    # --- every processo, and one that cannot be read -------------------------------------------

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
