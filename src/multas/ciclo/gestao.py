"""Stored processos, the ledger, the ANP's lists and the calendar, all derived through spec § 6
(:func:`multas.ciclo.prazos.analisar`): the CLI, the API and the page call this class.

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
- **Próximos prazos**: the deadlines due from today to today + N days that are still open
  (:data:`multas.ciclo.eventos.ENCERRADO_POR`); § 6 itself keeps every deadline listed.
- **The linked fine**: for ``anp``, ``anp.mora`` on ``principal`` (or the linked case's
  ``valor``) from the ``ciencia_decisao_definitiva`` to the payment (or to the date asked); for
  ``renovabio.lista``, the linked ``renovabio.distribuidor`` case recomputed with
  ``data_quitacao`` = the ``quitacao_meta`` date (the 1/12 reduction).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from multas.ciclo.carteira import AnoCarteira, calcular_carteira, ler_ano, ler_anos
from multas.ciclo.eventos import ENCERRADO_POR, RESPONSAVEIS, ROTULOS_PRAZOS, TIPOS
from multas.ciclo.prazos import (
    CAMPOS_EVENTO,
    Processo,
    Situacao,
    analisar,
    fundamento,
    ler_processo,
    vigencia_em,
)
from multas.contrato import JSON, Leitura
from multas.datas import formatar_data, para_data
from multas.erros import EntradaInvalida
from multas.legislacao import Legislacao, carregar
from multas.persistencia import USUARIO_PADRAO, Repositorio
from multas.persistencia.ciclo import ProcessoArmazenado, RepositorioCiclo

#: the fields a stored processo adds to § 6's
CAMPOS_ARMAZENADOS = ("principal", "caso_id")
LISTAS = {
    "sancoes": "Lista de sanções (Decreto nº 9.888/2019, art. 6º-A)",
    "balanco": "Lista de balanço de biodiesel inconsistente (Decreto nº 9.888/2019, art. 9º-A)",
    "encaminhamento": "Relação encaminhada ao Ibama, à AGU e ao MPF (Decreto nº 9.888/2019, "
    "art. 6º, § 4º)",
}


#: the longest ``id``, ``cnpj`` and ``nome`` stored (the columns of ``cnpj`` and ``nome`` hold
#: 32 and 200 characters; a processo number is a few dozen)
LIMITES_TEXTO = {"id": 200, "cnpj": 32, "nome": 200}


def _conferir_textos(identificacao: Mapping[str, Any]) -> None:
    """What a stored processo's texts cannot be: longer than their column, or holding a
    character no database stores (NUL, refused by PostgreSQL; half of a UTF-16 pair, which
    UTF-8 cannot write)."""
    for chave, limite in LIMITES_TEXTO.items():
        texto = identificacao.get(chave)
        if not isinstance(texto, str):
            continue
        if len(texto) > limite:
            raise EntradaInvalida(chave, f"texto longo demais (máximo {limite} caracteres)")
        if "\x00" in texto or any("\ud800" <= c <= "\udfff" for c in texto):
            raise EntradaInvalida(
                chave, "caractere inválido no texto (o caractere nulo ou um Unicode incompleto)"
            )


#: the linked fine's date fields → the event each one comes from
_EVENTO_DO_CAMPO = {
    "data_ciencia": "ciencia_decisao_definitiva",
    "data_pagamento": "pagamento",
    "data_quitacao": "quitacao_meta",
}


class NaoEncontrado(LookupError):
    """A processo, case or distributor that does not exist (the pt-BR message says which)."""


@dataclass(frozen=True, slots=True)
class ProcessoDerivado:
    """A stored processo with what § 6 derives from it."""

    armazenado: ProcessoArmazenado
    situacao: Situacao

    @property
    def resultado(self) -> dict[str, Any]:
        return self.situacao.como_dict()


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
        """Store a processo of § 6 (its events validated whole), with the optional
        ``principal`` (anp: the fine fixed) and ``caso_id`` (the saved fine case)."""
        if not isinstance(dados, Mapping):
            raise EntradaInvalida(None, "o processo deve ser um objeto JSON")
        principal = self._principal(dados.get("principal"))
        caso_id = self._caso_id(dados.get("caso_id"))
        processo = ler_processo(
            {k: v for k, v in dados.items() if k not in CAMPOS_ARMAZENADOS}, self.legislacao
        )
        _conferir_textos(processo.identificacao)
        analisar(processo.como_dict(), self.legislacao)  # the deadlines must be computable
        self._conferir_multa(processo, principal, caso_id)  # and the linked fine, read back
        ids = processo.identificacao
        armazenado = self.repo.criar_processo(
            tipo=processo.tipo.nome,
            calendario=processo.calendario,
            eventos=[(e.nome, e.data) for e in processo.eventos],
            identificador=ids.get("id"),
            cnpj=ids.get("cnpj"),
            nome=ids.get("nome"),
            principal=principal,
            caso_id=caso_id,
            usuario=usuario,
        )
        return self.derivar(armazenado)

    def _principal(self, bruto: object) -> str | None:
        if bruto is None:
            return None
        from multas.contrato import Campo, ler_valor

        valor = ler_valor(bruto, Campo("principal", "quantia_positiva", "", False, 0))
        return f"{valor:f}"

    def _caso_id(self, bruto: object) -> int | None:
        if bruto is None:
            return None
        if isinstance(bruto, bool) or not isinstance(bruto, int) or not 0 < bruto < 2**31:
            raise EntradaInvalida("caso_id", "deve ser o número de um caso salvo")
        if self.repositorio.obter(bruto) is None:
            raise EntradaInvalida("caso_id", f"caso {bruto} não encontrado")
        return bruto

    def obter(self, processo_id: int) -> ProcessoDerivado:
        armazenado = self.repo.obter_processo(processo_id)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar(armazenado)

    def derivar(self, armazenado: ProcessoArmazenado, ate: date | None = None) -> ProcessoDerivado:
        situacao = analisar(armazenado.como_processo(ate), self.legislacao)
        return ProcessoDerivado(armazenado, situacao)

    def listar(
        self,
        limite: int | None = 50,
        deslocamento: int = 0,
        tipo: str | None = None,
        cnpj: str | None = None,
    ) -> list[ProcessoDerivado]:
        return [
            self.derivar(p)
            for p in self.repo.listar_processos(limite, deslocamento, tipo or None, cnpj or None)
        ]

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
            raise EntradaInvalida("evento", f"evento desconhecido: {nome!r}")
        if bruto_data is None or bruto_data == "":
            raise EntradaInvalida("data", f"campo obrigatório: a data do evento '{nome}'")
        dia = para_data(bruto_data, "data")

        def validar(atual: ProcessoArmazenado, evento: str, data_evento: date) -> None:
            processo = atual.como_processo()
            processo["eventos"].append({"evento": evento, "data": data_evento.isoformat()})
            try:
                novo = analisar(processo, self.legislacao).processo
                self._conferir_multa(novo, atual.principal, atual.caso_id)
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

    def remover_ultimo_evento(
        self, processo_id: int, usuario: str = USUARIO_PADRAO
    ) -> ProcessoDerivado:
        armazenado = self.repo.remover_ultimo_evento(processo_id, usuario)
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
        return {
            "processo_id": a.id,
            "tipo": a.tipo,
            "id": a.identificador,
            "cnpj": a.cnpj,
            "nome": a.nome,
            "calendario": a.calendario,
            "principal": a.principal,
            "caso_id": a.caso_id,
            "usuario": a.usuario,
            "criado_em": a.criado_em.isoformat(),
            "atualizado_em": a.atualizado_em.isoformat(),
            "eventos": [
                {
                    "evento": e.evento,
                    "rotulo": TIPOS[a.tipo].eventos[e.evento].rotulo,
                    "data": e.data.isoformat(),
                    "usuario": e.usuario,
                    "registrado_em": e.criado_em.isoformat(),
                }
                for e in a.eventos
            ],
            "resultado": derivado.resultado,
            "estado_rotulo": derivado.situacao.estado_rotulo,
            "informacoes": self.informacoes(derivado, hoje),
            "multa": self.multa_vinculada(derivado, hoje),
            "eventos_possiveis": [
                {"evento": nome, "rotulo": rotulo} for nome, rotulo in self.eventos_possiveis(a)
            ],
        }

    def resumo(self, derivado: ProcessoDerivado) -> dict[str, Any]:
        """One line of a listing."""
        a = derivado.armazenado
        prazos = derivado.situacao.prazos
        return {
            "processo_id": a.id,
            "tipo": a.tipo,
            "id": a.identificador,
            "cnpj": a.cnpj,
            "nome": a.nome,
            "estado": derivado.situacao.estado,
            "estado_rotulo": derivado.situacao.estado_rotulo,
            "ultimo_evento": a.eventos[-1].evento,
            "data_ultimo_evento": a.eventos[-1].data.isoformat(),
            "prazos": len(prazos),
            "atualizado_em": a.atualizado_em.isoformat(),
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
            for ano in self.repo.anos_carteira(armazenado.cnpj):
                if ano.entrada.get("segundo_ano_atuacao") is True:
                    vigencia = vigencia_em(
                        self.legislacao, "ciclo.comprovacoes_parciais", date(ano.ano, 12, 31)
                    )
                    for mes_dia in vigencia.valor:
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
        return self._multa(a.tipo, a.calendario, a.principal, a.caso_id, eventos, ate)

    def _conferir_multa(
        self, processo: Processo, principal: str | None, caso_id: int | None
    ) -> None:
        """Before storing: reading the processo back computes its linked fine, so a fine that
        cannot be computed (a ``data_ciencia`` before ``anp.mora`` existed, a ``quitacao_meta``
        the saved case refuses) refuses the processo, naming the event's date."""
        eventos = {e.nome: e.data for e in processo.eventos}
        ultimo = processo.eventos[-1].data
        try:
            self._multa(
                processo.tipo.nome, processo.calendario, principal, caso_id, eventos, ultimo
            )
        except EntradaInvalida as erro:
            evento = _EVENTO_DO_CAMPO.get(erro.campo or "")
            if evento in eventos:
                campo = f"eventos[{processo.indice(evento)}].data"
            else:
                campo = "principal" if processo.tipo.nome == "anp" else "caso_id"
            raise EntradaInvalida(
                campo, f"a multa vinculada ao processo não pode ser calculada: {erro.mensagem}"
            ) from None

    def _multa(
        self,
        tipo: str,
        calendario: str,
        principal_salvo: str | None,
        caso_id: int | None,
        eventos: Mapping[str, date],
        ate: date,
    ) -> dict[str, Any] | None:
        from multas.motor import calcular

        caso = None
        if caso_id is not None:
            caso = self.repositorio.obter(caso_id)
        if tipo == "anp":
            principal = principal_salvo or (caso.valor if caso else None)
            if principal is None or "ciencia_decisao_definitiva" not in eventos:
                return None
            ciencia = eventos["ciencia_decisao_definitiva"]
            pagamento = eventos.get("pagamento", max(ate, ciencia))
            resultado = calcular(
                {
                    "regime": "anp.mora",
                    "principal": principal,
                    "data_ciencia": ciencia.isoformat(),
                    "data_pagamento": pagamento.isoformat(),
                    "interpretacao": {"calendario": calendario},
                },
                legislacao=self.legislacao,
            )
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
            from multas.json_exato import ler_json

            entrada = ler_json(caso.entrada)
            if not isinstance(entrada, dict) or entrada.get("regime") != "renovabio.distribuidor":
                return None
            descricao = "Multa do distribuidor (caso salvo)"
            if "quitacao_meta" in eventos:
                entrada["data_quitacao"] = eventos["quitacao_meta"].isoformat()
                descricao = (
                    "Multa do distribuidor com a redução de 1/12 ao mês, pela quitação em "
                    f"{formatar_data(eventos['quitacao_meta'])}"
                )
            resultado = calcular(entrada, legislacao=self.legislacao)
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

    def todos(self) -> list[ProcessoDerivado]:
        return self.listar(limite=None)

    def proximos(
        self, hoje: date, dias: int, incluir_encerrados: bool = False
    ) -> list[dict[str, Any]]:
        """The deadlines due from ``hoje`` to ``hoje + dias`` across all stored processos (a
        window past 31/12/9999 ends there)."""
        fim = hoje + timedelta(days=min(dias, (date.max - hoje).days))
        itens = []
        for derivado in self.todos():
            eventos = {e.evento for e in derivado.armazenado.eventos}
            for prazo in derivado.situacao.prazos:
                if not hoje <= prazo.data <= fim:
                    continue
                encerrado = bool(ENCERRADO_POR.get(prazo.nome, frozenset()) & eventos)
                if encerrado and not incluir_encerrados:
                    continue
                itens.append(self._item_prazo(derivado, prazo.nome, encerrado))
        itens.sort(key=lambda i: (i["data"], i["processo_id"], i["prazo"]))
        return itens

    def _item_prazo(self, derivado: ProcessoDerivado, nome: str, encerrado: bool) -> dict[str, Any]:
        prazo = next(p for p in derivado.situacao.prazos if p.nome == nome)
        armazenado = derivado.armazenado
        return {
            "processo_id": armazenado.id,
            "tipo": armazenado.tipo,
            "id": armazenado.identificador,
            "cnpj": armazenado.cnpj,
            "nome": armazenado.nome,
            "prazo": prazo.nome,
            "rotulo": ROTULOS_PRAZOS[prazo.nome],
            "responsavel": RESPONSAVEIS[prazo.nome],
            "data": prazo.data.isoformat(),
            "fundamento": prazo.fundamento,
            "contagem": prazo.contagem,
            "encerrado": encerrado,
        }

    def todos_os_prazos(self) -> list[dict[str, Any]]:
        """Every deadline of every stored processo (for the iCalendar export)."""
        itens = []
        for derivado in self.todos():
            eventos = {e.evento for e in derivado.armazenado.eventos}
            for prazo in derivado.situacao.prazos:
                encerrado = bool(ENCERRADO_POR.get(prazo.nome, frozenset()) & eventos)
                itens.append(self._item_prazo(derivado, prazo.nome, encerrado))
        itens.sort(key=lambda i: (i["data"], i["processo_id"], i["prazo"]))
        return itens

    # --- the ANP's lists ------------------------------------------------------------------------

    def lista(self, qual: str, data: date) -> dict[str, Any]:
        """One of the ANP's lists as of ``data`` (see the module's readings)."""
        if qual not in LISTAS:
            raise EntradaInvalida(
                "lista", f"lista desconhecida: {qual!r} (listas: {', '.join(LISTAS)})"
            )
        nome_parametro = {
            "sancoes": "ciclo.lista_sancoes",
            "balanco": "ciclo.lista_balanco",
            "encaminhamento": "ciclo.encaminhamento",
        }[qual]
        vigencia = self.legislacao.parametro(nome_parametro).em(data)
        vigencia_citada = vigencia or self.legislacao.parametro(nome_parametro).vigencias[0]
        itens: list[dict[str, Any]] = []
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
                if not processo["eventos"]:
                    continue
                derivado = self.derivar(armazenado, data)
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
            "avisos": [aviso] if aviso else [],
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
            "estado": derivado.situacao.estado,
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
        prazos = {p.nome: p for p in derivado.situacao.prazos}
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
        ano = ler_ano(dados, leitura)
        outros = [
            self._ano(a.entrada) for a in self.repo.anos_carteira(ano.cnpj) if a.ano != ano.ano
        ]
        calcular_carteira([*outros, ano], self.legislacao)
        self.repo.salvar_ano(ano.cnpj, ano.ano, ano.nome, ano.como_dict(), usuario)
        return self.carteira(ano.cnpj)

    def importar(
        self, linhas: Sequence[object], usuario: str = USUARIO_PADRAO, leitura: Leitura = JSON
    ) -> dict[str, Any]:
        """Several years at once (a CSV/XLSX file): all are validated, and each distributor's
        ledger computed, before any is stored; one bad row stores nothing."""
        anos = ler_anos(linhas, leitura)
        grupos: dict[str, list[AnoCarteira]] = {}
        for ano in anos:
            grupos.setdefault(ano.cnpj, []).append(ano)
        for cnpj, novos in grupos.items():
            chaves = {a.ano for a in novos}
            if len(chaves) != len(novos):
                raise EntradaInvalida("ano", f"ano repetido no arquivo para o CNPJ {cnpj}")
            antigos = [
                self._ano(a.entrada) for a in self.repo.anos_carteira(cnpj) if a.ano not in chaves
            ]
            calcular_carteira([*antigos, *novos], self.legislacao)
        for ano in anos:
            self.repo.salvar_ano(ano.cnpj, ano.ano, ano.nome, ano.como_dict(), usuario)
        return {"anos": len(anos), "distribuidores": sorted(grupos)}

    def _ano(self, entrada: dict[str, Any]) -> AnoCarteira:
        return ler_ano(entrada)

    def carteira(self, cnpj: str) -> dict[str, Any]:
        anos = self.repo.anos_carteira(cnpj)
        if not anos:
            raise NaoEncontrado(f"distribuidor {cnpj} não encontrado na carteira")
        return calcular_carteira([self._ano(a.entrada) for a in anos], self.legislacao)

    def distribuidores(self) -> list[dict[str, Any]]:
        return [
            {"cnpj": cnpj, "nome": nome, "anos": n} for cnpj, nome, n in self.repo.distribuidores()
        ]

    def excluir_ano(self, cnpj: str, ano: int, usuario: str = USUARIO_PADRAO) -> None:
        if not self.repo.excluir_ano(cnpj, ano, usuario):
            raise NaoEncontrado(f"ano {ano} do distribuidor {cnpj} não encontrado")
