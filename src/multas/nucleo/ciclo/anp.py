"""Spec § 6 v3: the deadlines of an ``anp`` processo, with the limitation periods of Lei nº
9.873/1999 and the avisos they raise."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from multas.nucleo.ciclo.contagem import (
    Pausa,
    _anos,
    _contagem_anos,
    _contagem_dias,
    _dias_corridos,
    _fim_com_pausas,
    _ForaDoCalendario,
    _prazo_em_dias,
    _prazo_pagamento,
    _somar_anos,
    _suspensoes,
    fundamento,
    suspensao_em_vigor,
    vigencia_em,
)
from multas.nucleo.ciclo.processo import EventoDatado, Prazo, Processo
from multas.nucleo.datas import data_com_dia_da_semana, formatar_data, prazo_em_dias
from multas.nucleo.dinheiro import formatar_percentual
from multas.nucleo.legislacao import Legislacao, Vigencia
from multas.nucleo.rotulos import evento_citado, leitura, prazo_citado

#: spec § 6.1 v4: the acts of instruction recorded as events (Decreto nº 2.953/1999 arts.
#: 15-17); each moves the process (``prescricao_intercorrente``), and under
#: ``atos_instrucao = apuracao`` each also interrupts ``prescricao``
ATOS_INSTRUCAO = ("intimacao_alegacoes_finais", "alegacoes_finais", "remessa_julgamento")
#: the parameter of the alegações deadline under each reading of ``prazo_alegacoes``
_ALEGACOES = {"decreto": "ciclo.alegacoes_finais", "lei-9784": "ciclo.alegacoes_finais_lei_9784"}


class _Anp:
    """The deadlines of an ``anp`` processo (spec § 6 v3), with the limitation periods of
    Lei nº 9.873/1999 and the avisos they raise."""

    def __init__(self, processo: Processo, legislacao: Legislacao, referencia: date) -> None:
        self.processo = processo
        self.legislacao = legislacao
        self.referencia = referencia
        self.judiciais = _suspensoes(processo, referencia)
        self.avisos: list[str] = []
        #: limitation deadlines that lapsed, with how
        self.prescritos: dict[str, str] = {}
        #: spec § 3.7 point 6 (``cobranca-prescrita``): the date on which the collection
        #: limitation lapsed with the debt unpaid, if it did
        self.cobranca_prescrita: date | None = None
        definitivas = [
            e
            for e in processo.eventos
            if e.nome in ("ciencia_decisao_definitiva", "renuncia_recurso")
        ]
        self.definitiva = definitivas[0] if definitivas else None
        #: deadlines counted from a date that is not their origin event's (the 2025 note)
        self.bases: dict[str, date] = {}

    def anos(
        self,
        inicio: EventoDatado,
        parametro: str,
        nome: str,
        pausas: list[Pausa],
        n: int | None = None,
    ) -> tuple[Vigencia, date, date, int]:
        """``inicio`` + N years (Lei nº 810/1949; N the parameter's, or ``n`` when given, the
        penal period), then + the paused days after ``inicio`` up to that extended date
        (spec § 6 v3: "court suspensions")."""
        vigencia = vigencia_em(self.legislacao, parametro, inicio.data)
        n = vigencia.inteiro if n is None else n
        nominal = _somar_anos(inicio.data, n, nome, inicio.nome)
        fim = _fim_com_pausas(inicio.data, nominal, pausas) if pausas else nominal
        pausados = (fim - nominal).days
        if (inicio.data.month, inicio.data.day) == (2, 29) and nominal.month == 3:
            self.avisos.append(
                f"O prazo {prazo_citado(nome)} conta {n} anos de 29/02/{inicio.data.year:04d}: "
                f"sem 29/02 em {nominal.year}, termina no dia seguinte, 01/03 (Lei nº 810/1949, "
                "art. 3º; Código Civil, art. 132, § 3º); pela Lei nº 9.784/1999, art. 66, § 3º, "
                "que rege os prazos do processo, terminaria em 28/02."
            )
        return vigencia, nominal, fim, pausados

    def _com_pausas(self, contagem: str, fim: date, pausados: int) -> str:
        if not pausados:
            return contagem
        return (
            f"{contagem}; acrescido de {_dias_corridos(pausados)} em que a prescrição não "
            f"correu (suspensão judicial ou inscrição em Dívida Ativa): "
            f"{data_com_dia_da_semana(fim)}"
        )

    def prazos(self) -> list[Prazo]:
        p = self.processo
        prazos: list[Prazo] = []
        auto = p.evento("auto_infracao")
        if auto is not None:
            prazos.append(_prazo_em_dias(p, self.legislacao, "defesa", "ciclo.defesa", auto))
        prazos += self._prescricao()
        prazos += self._intercorrente()
        alegacoes = self._alegacoes()
        if alegacoes is not None:
            prazos.append(alegacoes)
        julgamento = self._julgamento(alegacoes)
        if julgamento is not None:
            prazos.append(julgamento)
        primeira = p.evento("ciencia_primeira_instancia")
        if primeira is not None:
            recurso = _prazo_em_dias(p, self.legislacao, "recurso", "ciclo.recurso", primeira)
            prazos.append(recurso)
            renuncia = p.evento("renuncia_recurso")
            if renuncia is not None:
                prazos.append(self._desconto(recurso, renuncia))
        pagamento = _prazo_pagamento(p, self.legislacao)
        if pagamento is not None:
            prazos.append(pagamento)
            prazos.append(self._cobranca(pagamento))
        for prazo in prazos:
            self._nota_de_2025(prazo)
        if self.judiciais:
            self.avisos.append(
                "Suspensão judicial: os prazos de prescrição não correm enquanto ela vigora; "
                f"dias suspensos: {self._dias_suspensos()}, somados a cada prazo de prescrição "
                "que corria neles; os demais prazos não se movem: o que a ordem judicial faz "
                "com cada prazo depende dos seus termos, que decidem."
            )
        return prazos

    def _dias_suspensos(self) -> str:
        """Spec § 6 v3: the paused days of each court suspension, named (W10): from the
        ``suspensao_judicial`` date, included, to the ``fim_suspensao_judicial`` date,
        excluded; one still open, up to ``data_referencia``, included."""
        partes = []
        aberta = suspensao_em_vigor(self.processo, self.referencia)
        for i, (inicio, fim) in enumerate(self.judiciais):
            if aberta and i == len(self.judiciais) - 1:
                dias = (self.referencia - inicio).days + 1
                partes.append(
                    f"de {formatar_data(inicio)} até a data de referência, "
                    f"{formatar_data(self.referencia)}, com a suspensão ainda em vigor "
                    f"({_dias_corridos(dias)} até essa data)"
                )
                continue
            ultimo = fim - timedelta(days=1)
            partes.append(
                f"de {formatar_data(inicio)} a {formatar_data(ultimo)} "
                f"({_dias_corridos((fim - inicio).days)}; o dia do fim da suspensão, "
                f"{formatar_data(fim)}, já corre)"
            )
        return "; ".join(partes)

    def _nota_de_2025(self, prazo: Prazo) -> None:
        """§ 3.5 v3: a deadline resting on Decreto 2.953/1999 counted from an event on or
        after the amendment says that the amended text was not checked."""
        if "Decreto nº 2.953/1999" not in prazo.fundamento:
            return
        origem = self.processo.evento(prazo.origem)
        base = self.bases.get(prazo.nome, origem.data if origem else None)
        alterado = self.legislacao.parametro("anp.decreto_2953_alterado")
        if base is None or alterado.em(base) is None:
            return
        vigencia = alterado.vigencias[0]
        self.avisos.append(
            f"O prazo {prazo_citado(prazo.nome)} apoia-se no Decreto nº 2.953/1999, alterado pelo "
            f'{vigencia.dispositivo.removesuffix(", ementa")} ("{vigencia.texto}"); o texto '
            "alterado não foi conferido: confira o prazo na redação em vigor."
        )

    def _prescricao(self) -> list[Prazo]:
        """Lei nº 9.873/1999 arts. 1º and 2º: 5 years from the infração, restarted by the
        citação and the decisão condenatória only when they come in time (no revival)."""
        p = self.processo
        infracao = p.eventos[0]
        marco = infracao
        # spec § 3.7 point 3 (prescricao-penal): the penal period, when given, in place of
        # art. 1º's years (art. 1º § 2º)
        penal = p.prescricao_penal_anos
        parametro = "ciclo.prescricao" if penal is None else "ciclo.prescricao_penal"
        vigencia, nominal, fim, pausados = self.anos(
            infracao, parametro, "prescricao", self.judiciais, penal
        )
        parou: EventoDatado | None = None
        interrompem = self._interrompem()
        for evento in p.principais:
            if evento.nome not in interrompem:
                continue
            if evento.data > fim:
                parou = evento
                break
            marco = evento
            vigencia, nominal, fim, pausados = self.anos(
                evento, parametro, "prescricao", self.judiciais, penal
            )
        definitiva = self.definitiva
        if definitiva is not None and definitiva.data <= fim and parou is None:
            return []
        tipo = p.tipo
        if marco is infracao:
            de_onde, regra = "a infração", vigencia
        else:
            interrupcao = (
                "ciclo.prescricao_apuracao"
                if marco.nome in ATOS_INSTRUCAO
                else "ciclo.prescricao_interrupcao"
            )
            regra = vigencia_em(self.legislacao, interrupcao, marco.data)
            de_onde = (
                f"{tipo.eventos[marco.nome].rotulo}, o último ato que a interrompeu antes de ela "
                f"se consumar; contada da infração em {formatar_data(infracao.data)}"
            )
        n = vigencia.inteiro if penal is None else penal
        contagem = self._com_pausas(_contagem_anos(n, marco.data, de_onde, nominal), fim, pausados)
        if penal is not None:
            contagem += (
                f"; prazo da lei penal (prescricao_penal_anos = {penal}, {vigencia.dispositivo}), "
                f"leitura adotada: {leitura('interrupcao_penal', p.interrupcao_penal)}"
            )
        if any(p.evento(n) for n in ATOS_INSTRUCAO) and interrompem:
            contagem += f"; leitura adotada: {leitura('atos_instrucao', p.atos_instrucao)}"
        pagamento = p.evento("pagamento")
        # the first of the two: no event may follow the pagamento (ler_processo), so a
        # definitive decision, when there is one, came first
        primeiro = definitiva or pagamento
        if parou is not None:
            self.prescritos["prescricao"] = (
                f"a prescrição da ação punitiva consumou-se em {formatar_data(fim)}; o evento "
                f"{evento_citado(parou.nome)} ({formatar_data(parou.data)}) veio depois e não a interrompeu"
            )
        elif primeiro is not None and primeiro.data > fim:
            self.prescritos["prescricao"] = (
                f"a prescrição da ação punitiva consumou-se em {formatar_data(fim)}, antes do "
                f"evento {evento_citado(primeiro.nome)} ({formatar_data(primeiro.data)})"
            )
        elif primeiro is None and self.referencia > fim:
            self.prescritos["prescricao"] = (
                f"a prescrição da ação punitiva consumou-se em {formatar_data(fim)} sem decisão "
                "definitiva nem pagamento registrados"
            )
        self._aviso_das_interrupcoes(bool(interrompem))
        fundamentos = fundamento(vigencia)
        if penal is not None:
            periodos = vigencia_em(self.legislacao, "ciclo.prescricao_penal_anos", marco.data)
            fundamentos += f"; {fundamento(periodos)}"
        if regra is not vigencia:
            fundamentos += f"; {fundamento(regra)}"
        return [Prazo("prescricao", fim, fundamentos, contagem, marco.nome, regra.texto)]

    def _interrompem(self) -> set[str]:
        """The events that interrupt ``prescricao`` (Lei nº 9.873/1999 art. 2º): the citação
        and the decision; under ``atos_instrucao = apuracao`` also the acts of instruction;
        none with the penal period under ``interrupcao_penal = nenhuma`` (§ 3.7 point 3)."""
        p = self.processo
        if p.prescricao_penal_anos is not None and p.interrupcao_penal == "nenhuma":
            return set()
        interrompem = {"auto_infracao", "ciencia_primeira_instancia"}
        if p.atos_instrucao == "apuracao":
            interrompem.update(ATOS_INSTRUCAO)
        return interrompem

    def _aviso_das_interrupcoes(self, interrompida: bool) -> None:
        if interrompida:
            self.avisos.append(
                "Prescrição: qualquer ato inequívoco que importe apuração do fato também a "
                "interrompe (Lei nº 9.873/1999, art. 2º, II), e a decisão condenatória recorrível "
                "(art. 2º, III) a interrompe na data da decisão, que pode ser anterior à ciência: "
                "só os eventos registrados contam."
            )
        else:
            self.avisos.append(
                "Prescrição pelo prazo penal, sem interrupção (leitura interrupcao_penal = "
                "nenhuma): as causas de interrupção da própria lei penal não são eventos "
                "deste processo; confira-as."
            )

    def _intercorrente(self) -> list[Prazo]:
        """Lei nº 9.873/1999 art. 1º § 1º: 3 years waiting for a decision (the first stall,
        else the current wait)."""
        principais = self.processo.principais
        for i, evento in enumerate(principais):
            if evento.nome not in ("auto_infracao", "defesa", "recurso", *ATOS_INSTRUCAO):
                continue
            vigencia, nominal, fim, pausados = self.anos(
                evento, "ciclo.prescricao_intercorrente", "prescricao_intercorrente", self.judiciais
            )
            seguinte = principais[i + 1] if i + 1 < len(principais) else None
            if seguinte is not None and seguinte.data <= fim:
                continue
            rotulo = self.processo.tipo.eventos[evento.nome].rotulo
            contagem = self._com_pausas(
                _contagem_anos(
                    vigencia.inteiro,
                    evento.data,
                    f"{rotulo}: o processo aguarda julgamento ou despacho",
                    nominal,
                ),
                fim,
                pausados,
            )
            if evento.nome in ATOS_INSTRUCAO:
                contagem += (
                    f"; leitura adotada: {leitura('atos_instrucao', self.processo.atos_instrucao)}"
                )
            if seguinte is not None:
                self.prescritos["prescricao_intercorrente"] = (
                    f"o processo ficou paralisado de {formatar_data(evento.data)} a "
                    f"{formatar_data(seguinte.data)} ({evento_citado(seguinte.nome)}): a prescrição "
                    f"intercorrente consumou-se em {formatar_data(fim)}"
                )
            elif self.referencia > fim:
                self.prescritos["prescricao_intercorrente"] = (
                    f"o processo está paralisado desde {formatar_data(evento.data)}: a prescrição "
                    f"intercorrente consumou-se em {formatar_data(fim)}"
                )
            self.avisos.append(
                "Prescrição intercorrente: só os eventos registrados contam; um despacho não "
                "registrado também movimenta o processo."
            )
            return [
                Prazo(
                    "prescricao_intercorrente",
                    fim,
                    fundamento(vigencia),
                    contagem,
                    evento.nome,
                    vigencia.texto,
                )
            ]
        return []

    def _alegacoes(self) -> Prazo | None:
        """Spec § 6.1 v4: the alegações finais, counted from their intimação under the reading
        ``prazo_alegacoes``; an aviso gives the other reading's date when it differs."""
        p = self.processo
        intimacao = p.evento("intimacao_alegacoes_finais")
        if intimacao is None:
            return None
        adotada = p.prazo_alegacoes
        prazo = _prazo_em_dias(
            p, self.legislacao, "alegacoes_finais", _ALEGACOES[adotada], intimacao
        )
        prazo = replace(
            prazo,
            contagem=f"{prazo.contagem}; leitura adotada: {leitura('prazo_alegacoes', adotada)}",
        )
        for outra, parametro in _ALEGACOES.items():
            if outra == adotada:
                continue
            try:
                alternativo = _prazo_em_dias(
                    p, self.legislacao, "alegacoes_finais", parametro, intimacao
                )
            except _ForaDoCalendario:
                continue
            if alternativo.data != prazo.data:
                self.avisos.append(
                    f"Pela outra leitura do prazo das alegações finais ({leitura('prazo_alegacoes', outra)}; "
                    f"{alternativo.fundamento}), o prazo {prazo_citado('alegacoes_finais')} terminaria em "
                    f"{formatar_data(alternativo.data)}, não em {formatar_data(prazo.data)}."
                )
        return prazo

    def _julgamento(self, alegacoes: Prazo | None) -> Prazo | None:
        """Spec § 6.1 v4: the ANP's decision, 30 days from the receipt of the process: from
        ``remessa_julgamento``, else from the end of the alegações deadline, when the process
        is read as submitted (an aviso says that the receipt's date decides)."""
        p = self.processo
        remessa = p.evento("remessa_julgamento")
        if remessa is not None:
            prazo = _prazo_em_dias(p, self.legislacao, "julgamento", "ciclo.julgamento", remessa)
        elif alegacoes is not None:
            prazo = self._julgamento_sem_remessa(alegacoes)
        else:
            return None
        geral = vigencia_em(self.legislacao, "ciclo.prazo_decisao_geral", prazo.data)
        self.avisos.append(
            f"O prazo {prazo_citado('julgamento')} ({formatar_data(prazo.data)}) obriga a ANP, "
            f"mas a decisão proferida depois dele não é nula ({fundamento(geral)}, que também "
            "admite prorrogação): aqui o seu único efeito é sobre a prescrição intercorrente."
        )
        if p.evento("ciencia_primeira_instancia") is not None:
            self.avisos.append(
                f"O prazo {prazo_citado('julgamento')} é cumprido aqui pelo evento "
                f"{evento_citado('ciencia_primeira_instancia')}: a data da própria decisão não é "
                "um evento, e a ciência pode ser posterior a ela."
            )
        return prazo

    def _julgamento_sem_remessa(self, alegacoes: Prazo) -> Prazo:
        p = self.processo
        vigencia = vigencia_em(self.legislacao, "ciclo.julgamento", alegacoes.data)
        remessa = vigencia_em(self.legislacao, "ciclo.remessa_julgamento", alegacoes.data)
        expediente = p.expediente(self.legislacao)
        try:
            nominal, vencimento, pulados = prazo_em_dias(
                alegacoes.data, vigencia.inteiro, expediente
            )
        except (OverflowError, ValueError):
            raise _ForaDoCalendario("julgamento", alegacoes.origem) from None
        self.bases["julgamento"] = alegacoes.data
        self.avisos.append(
            f"Sem o evento {evento_citado('remessa_julgamento')}, o prazo "
            f"{prazo_citado('julgamento')} conta do fim do prazo das alegações finais "
            f"({formatar_data(alegacoes.data)}), quando o processo se tem por submetido à "
            f"autoridade julgadora ({remessa.dispositivo}): a data em que ela recebeu o "
            f"processo decide; registre-a como {evento_citado('remessa_julgamento')}."
        )
        contagem = _contagem_dias(
            vigencia.inteiro,
            alegacoes.data,
            "fim do prazo das alegações finais, quando o processo se tem por submetido ao "
            "julgamento",
            nominal,
            vencimento,
            pulados,
            expediente,
        )
        return Prazo(
            "julgamento",
            vencimento,
            f"{fundamento(vigencia)}; {fundamento(remessa)}",
            contagem,
            alegacoes.origem,
            vigencia.texto,
        )

    def _desconto(self, recurso: Prazo, renuncia: EventoDatado) -> Prazo:
        desconto = vigencia_em(self.legislacao, "ciclo.pagamento_com_desconto", renuncia.data)
        percentual = formatar_percentual(desconto.fracao)
        return Prazo(
            "pagamento_com_desconto",
            recurso.data,
            fundamento(desconto),
            f"a data do prazo 'recurso', {data_com_dia_da_semana(recurso.data)}: com a renúncia expressa "
            f"ao recurso em {formatar_data(renuncia.data)}, a multa paga no prazo do "
            f"recurso tem redução de {percentual}. Prazo do recurso: {recurso.contagem}",
            renuncia.nome,
            desconto.texto,
        )

    def _cobranca(self, pagamento: Prazo) -> Prazo:
        """Lei nº 9.873/1999 art. 1º-A: 5 years from the vencimento, paused by court
        suspensions and by the Dívida Ativa inscription (Lei nº 6.830/1980 art. 2º § 3º)."""
        p = self.processo
        pausas = list(self.judiciais)
        inscricao = p.evento("inscricao_divida_ativa")
        extra = ""
        if inscricao is not None:
            dias = vigencia_em(self.legislacao, "ciclo.suspensao_inscricao", inscricao.data)
            try:
                pausas.append((inscricao.data, inscricao.data + timedelta(days=dias.inteiro)))
            except OverflowError:
                pausas.append((inscricao.data, date.max))
            extra = (
                f"; a inscrição em Dívida Ativa ({formatar_data(inscricao.data)}) suspende a "
                f"prescrição por {dias.inteiro} dias, contado o dia da inscrição ({dias.dispositivo})"
            )
            self.avisos.append(
                f"Prescrição da cobrança: a suspensão de {dias.inteiro} dias pela inscrição "
                "termina antes se a execução fiscal for distribuída (evento não registrado "
                "aqui); as interrupções do art. 2º-A da Lei nº 9.873/1999 (texto não "
                "transcrito) podem mover a data."
            )
        origem = EventoDatado(pagamento.origem, pagamento.data)
        cobranca, nominal, fim, pausados = self.anos(
            origem, "ciclo.prescricao_cobranca", "prescricao_cobranca", pausas
        )
        contagem = _contagem_anos(
            cobranca.inteiro,
            pagamento.data,
            "o vencimento da multa, o prazo 'pagamento': a multa definitivamente "
            f"constituída é cobrada em {_anos(cobranca.inteiro)}",
            nominal,
        )
        if p.quitacao is None and self.referencia > fim:
            self.cobranca_prescrita = fim
            self.avisos.append(
                f"Prescrição da cobrança consumada em {formatar_data(fim)}, sem pagamento "
                f"registrado: a ação de execução da multa prescreveu ({cobranca.dispositivo}); "
                "as interrupções do art. 2º-A da mesma lei (texto não transcrito) podem ter "
                "movido a data: confira-as antes de dar a cobrança por encerrada."
            )
        return Prazo(
            "prescricao_cobranca",
            fim,
            fundamento(cobranca),
            self._com_pausas(contagem + extra, fim, pausados),
            pagamento.origem,
            cobranca.texto,
        )
