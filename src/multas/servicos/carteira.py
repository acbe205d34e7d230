"""The distributor's ledger, stored year by year: saving and importing years (each
distributor's ledger must still compute), the RenovaBio year's run, the retirements, and the
ANP's notice checked against it (:mod:`multas.nucleo.ciclo.carteira` computes it)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any, overload

from multas.nucleo.ciclo.prazos import ler_processo, situacao
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.contrato import JSON, Leitura
from multas.nucleo.datas import formatar_data
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.eventos import TIPOS
from multas.servicos.autos_do_ano import REGIME as REGIME_DA_META
from multas.servicos.persistencia import USUARIO_PADRAO
from multas.servicos.persistencia.ciclo import AnoArmazenado, NovoProcesso, ProcessoArmazenado
from multas.servicos.processos import CicloProcessos, NaoEncontrado
from multas.servicos.relogio import hoje as hoje_em_brasilia

if TYPE_CHECKING:
    # the ledger, the reconciliation and the file readers load only in the commands that use
    # them: a processo command starts without them (issue 19: the lifecycle commands' start-up)
    from multas.nucleo.arquivos import Local
    from multas.nucleo.ciclo.carteira import AnoCarteira
    from multas.nucleo.ciclo.conferir import Notificacao
    from multas.nucleo.ciclo.planilha import Planilha
    from multas.nucleo.cotacoes import Serie
    from multas.servicos.autos_do_ano import AutoDoAno


def _resumo(anos: Sequence[AnoCarteira]) -> dict[str, Any]:
    """What an import says it stored: how many years, and each distributor once however its
    CNPJ is spelled in the file (its first spelling)."""
    grafias = {normalizar_cnpj(a.cnpj): a.cnpj for a in reversed(anos)}
    return {"anos": len(anos), "distribuidores": sorted(grafias.values())}


class _Linhas(Sequence[tuple[str, int, str | None, dict[str, Any]]]):
    """Years as the repository stores them, each made when it is read: an import of 100,000
    rows writes a part at a time, and never holds them all twice."""

    def __init__(self, anos: Sequence[AnoCarteira]) -> None:
        self._anos = anos

    def __len__(self) -> int:
        return len(self._anos)

    @overload
    def __getitem__(self, i: int) -> tuple[str, int, str | None, dict[str, Any]]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[str, int, str | None, dict[str, Any]]]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        ano = self._anos[i]
        return (ano.cnpj, ano.ano, ano.nome, ano.como_dict())


class CicloCarteira(CicloProcessos):
    """The distributors' ledger."""

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
        computed, then all are stored, all or nothing (a long import in parts:
        :meth:`~multas.servicos.persistencia.carteira.RepositorioCarteira.salvar_anos_em_partes`):
        one bad row stores nothing."""
        from multas.nucleo.ciclo.carteira import ler_anos, locais_de_lista

        if locais is None:
            locais = locais_de_lista(len(linhas))
        anos = ler_anos(linhas, leitura, locais)
        self._gravar_anos(anos, usuario, locais)
        return _resumo(anos)

    def importar_planilha(
        self, lida: Planilha, usuario: str = USUARIO_PADRAO, cotacoes: Serie | None = None
    ) -> dict[str, Any]:
        """:meth:`importar` of a file read (:func:`multas.nucleo.ciclo.planilha.ler_planilha`),
        taken over: its rows are dropped (the list emptied) once they are read into years, so
        that a 100,000-row import does not hold them while it writes (issue 32, item 1).
        ``cotacoes`` (``--cotacoes``): the CBIO quotes each year without a price of its own
        (``maior_media_mensal`` or quotes) keeps, that year's, as ``multas ano`` prices it."""
        from multas.nucleo.ciclo.carteira import ler_anos

        if lida.desconhecidas:  # columns the ledger does not know: read past, never an error
            fora = set(lida.desconhecidas)
            for linha in lida.linhas:
                for coluna in fora.intersection(linha):
                    del linha[coluna]
        anos = ler_anos(lida.linhas, lida.leitura, lida.locais)
        lida.linhas.clear()
        if cotacoes is not None:
            anos = [
                ano
                if ano.maior_media_mensal is not None
                or ano.cotacoes_diarias is not None
                or ano.cotacoes_mensais is not None
                else replace(ano, **cotacoes.do_ano(ano.ano))
                for ano in anos
            ]
        self._gravar_anos(anos, usuario, lida.locais)
        return _resumo(anos)

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

        def validar(
            armazenados: Callable[[str], list[AnoArmazenado]], chaves: Collection[str]
        ) -> None:
            for cnpj in chaves:
                novos = grupos[cnpj]
                antigos = [self._ano(a.entrada) for a in armazenados(cnpj) if a.ano not in novos]
                onde = {n: local for n, (_, local) in novos.items() if local is not None}
                calcular_carteira(
                    [*antigos, *(a for a, _ in novos.values())], self.legislacao, onde or None
                )

        self.repo.salvar_anos_em_partes(_Linhas(anos), usuario, validar)

    def salvar_ano_renovabio(
        self,
        resultado: Mapping[str, Any],
        usuario: str = USUARIO_PADRAO,
        substituir: bool = False,
        autos: Sequence[AutoDoAno] | None = None,
    ) -> dict[str, Any]:
        """Store a RenovaBio year's run (:func:`multas.servicos.ano.calcular_ano`; ``multas ano
        calcular --salvar``) in one transaction, all or nothing: each distributor's year in
        its ledger, a ``renovabio.lista`` processo for each fined distributor whose target
        was due on or after the list's first day (``fim_prazo_meta`` = the year's deadline),
        and the sanctioning ``anp`` processo of each fined distributor (spec § 6.3 v4;
        ``autos``: those of :func:`~multas.servicos.autos_do_ano.autos_do_ano`, by default
        with its defaults), unless one with the same ``origem`` is stored (``já existente``).
        A row with an error, or a (CNPJ, year) already stored without ``substituir``, stores
        nothing; the error names the row. Returns how many years, and, for each kind of
        processo, those opened (``abertos``), and why none was (``motivo``)."""
        from multas.servicos.autos_do_ano import autos_do_ano, motivo_sem_lista

        linhas, lidas = resultado["linhas"], resultado["lidas"]
        com_erro = [linha["erro"] for linha in linhas if linha["erro"]]
        if com_erro:
            raise EntradaInvalida(
                None,
                f"{len(com_erro)} linha(s) com erro; nada foi salvo. A primeira: {com_erro[0]}",
            )
        if autos is None:
            autos = autos_do_ano(resultado, self.legislacao)
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

        def validar(
            armazenados: Callable[[str], list[AnoArmazenado]], chaves: Collection[str]
        ) -> None:
            for cnpj in chaves:
                ano, local = por_cnpj[cnpj]
                guardados = armazenados(cnpj)
                if not substituir and any(a.ano == ano.ano for a in guardados):
                    raise local.erro(
                        f"o ano {ano.ano} do CNPJ {cnpj} já está na carteira (use --substituir "
                        "para trocá-lo)",
                        "cnpj",
                    )
                antigos = [self._ano(a.entrada) for a in guardados if a.ano != ano.ano]
                calcular_carteira([*antigos, ano], self.legislacao, {ano.ano: local})

        listas = [
            p
            for p in (
                self._processo_da_lista(ano, do_ano)
                for ano, do_ano in zip(anos, resultado["resultados"], strict=True)
                if do_ano["cbios_multados"] > 0
            )
            if p is not None
        ]
        _, criados, existentes = self.repo.salvar_anos_e_processos(
            [(a.cnpj, a.ano, a.nome, a.como_dict()) for a in anos],
            [*listas, *(a.processo for a in autos)],
            usuario,
            validar,
        )
        ja_havia = {id(novo) for novo, _ in existentes}
        abertos = [
            {"id": p.id, "referencia": p.identificador, "cnpj": p.cnpj, "origem": p.origem}
            | {"notificacao": a.notificacao}
            for p, a in zip(
                [c for c in criados if c.tipo != "renovabio.lista"],
                (a for a in autos if id(a.processo) not in ja_havia),
                strict=True,
            )
        ]
        listas_abertas = [c.id for c in criados if c.tipo == "renovabio.lista"]
        listas_existentes = [(n, a) for n, a in existentes if n.tipo == "renovabio.lista"]
        desde = TIPOS["renovabio.lista"].primeiro.desde
        assert desde is not None
        inicio = self.legislacao.parametro(desde).vigencias[0].inicio
        ano_meta = anos[0].ano if anos else None
        sem_autos = "nenhum distribuidor multado" if not autos else None
        if autos and not abertos:
            sem_autos = f"todos os {len(autos)} distribuidores multados já tinham o processo"
        return {
            "anos": len(anos),
            "lista": {
                "abertos": listas_abertas,
                "ja_existentes": len(listas_existentes),
                "avisos": [a for n, p in listas_existentes if (a := _quitacao_nao_levada(n, p))],
                "motivo": None
                if listas or ano_meta is None
                else motivo_sem_lista(resultado["resultados"], ano_meta, inicio),
            },
            "anp": {
                "abertos": abertos,
                "ja_existentes": len(existentes) - len(listas_existentes),
                "motivo": sem_autos,
            },
        }

    def _processo_da_lista(
        self, ano: AnoCarteira, do_ano: Mapping[str, Any]
    ) -> NovoProcesso | None:
        """The new ``renovabio.lista`` processo of a fined distributor, or ``None``
        when its target was due before the list existed (spec § 6 v3)."""
        prazo = do_ano.get("prazo_comprovacao")
        desde = TIPOS["renovabio.lista"].primeiro.desde
        assert desde is not None
        if prazo is None or date.fromisoformat(prazo) < (
            self.legislacao.parametro(desde).vigencias[0].inicio
        ):
            return None
        eventos = [{"evento": "fim_prazo_meta", "data": prazo}]
        origem = {"regime": REGIME_DA_META, "ano_meta": ano.ano, "cnpj": ano.cnpj}
        if ano.data_quitacao is not None and ano.data_quitacao.isoformat() > prazo:
            # spec § 3.7, W11: the quitação the ledger knows reaches the list processo
            eventos.append({"evento": "quitacao_meta", "data": ano.data_quitacao.isoformat()})
        dados = {
            "tipo": "renovabio.lista",
            "cnpj": ano.cnpj,
            "eventos": eventos,
        } | ({"nome": ano.nome} if ano.nome else {})
        processo = ler_processo(dados, self.legislacao)
        situacao(processo, self.legislacao, hoje_em_brasilia())  # its deadlines computable
        return NovoProcesso(
            tipo=processo.tipo.nome,
            calendario=processo.calendario,
            eventos=tuple((e.nome, e.data) for e in processo.eventos),
            cnpj=ano.cnpj,
            nome=ano.nome,
            origem=origem,
        )

    def _ano(self, entrada: dict[str, Any]) -> AnoCarteira:
        from multas.nucleo.ciclo.carteira import ler_ano

        return ler_ano(entrada, guardado=True)

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
            raise nao_encontrado(cnpj, f"distribuidor {cnpj} não encontrado na carteira")
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
            raise nao_encontrado(cnpj, f"distribuidor {cnpj} não encontrado na carteira")
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

    def distribuidores(
        self, limite: int | None = None, deslocamento: int = 0
    ) -> list[dict[str, Any]]:
        """Each distributor of the ledger (``limite`` of them after ``deslocamento``: the
        database bounds the list); one with a year that does not match its history is listed
        with its ``erro``."""
        return [
            {"cnpj": cnpj, "nome": nome, "anos": n} | ({"erro": erro} if erro else {})
            for cnpj, nome, n, erro in self.repo.distribuidores(limite, deslocamento)
        ]

    def excluir_ano(self, cnpj: str, ano: int, usuario: str = USUARIO_PADRAO) -> None:
        if not self.repo.excluir_ano(cnpj, ano, usuario):
            raise nao_encontrado(cnpj, f"ano {ano} do distribuidor {cnpj} não encontrado")


def nao_encontrado(cnpj: str, mensagem: str) -> EntradaInvalida | NaoEncontrado:
    """What a lookup of the ledger by ``cnpj`` that found nothing answers: a text without a
    CNPJ's shape (a control character in it, ``abc``) is the input error naming ``cnpj`` that
    a malformed CNPJ gets on every route that filters by one (:func:`ler_filtro`: 422), not
    "not found"; a well-shaped one, :class:`NaoEncontrado` (404) with ``mensagem``. Looked up
    first: a year stored before the CNPJ rule, under a text of another shape, is still found
    by it (a NUL is refused before, by the database's text check)."""
    from multas.nucleo.cnpj import ler_filtro

    if not cnpj.strip():  # no CNPJ at all (a filter's "none"): the lookup needs one
        return EntradaInvalida("cnpj", "campo obrigatório: o CNPJ do distribuidor")
    try:
        ler_filtro(cnpj, "cnpj")
    except EntradaInvalida as erro:
        return erro
    return NaoEncontrado(mensagem)


def _quitacao_nao_levada(novo: NovoProcesso, armazenado: ProcessoArmazenado) -> str | None:
    """W11 of issue 34: a year saved again (``--substituir``) whose list processo was already
    stored does not change that processo; when the ledger knows a quitação the processo lacks,
    the summary says so, with the command that records it."""
    quitacao = next((d for nome, d in novo.eventos if nome == "quitacao_meta"), None)
    if quitacao is None or any(e.evento == "quitacao_meta" for e in armazenado.eventos):
        return None
    return (
        f"o processo da lista nº {armazenado.id} (CNPJ {armazenado.cnpj}) já existia e não "
        f"recebeu a quitação da meta em {formatar_data(quitacao)}, que a carteira registra: "
        f"registre-a com multas processo evento {armazenado.id} quitacao_meta "
        f"{formatar_data(quitacao)}"
    )
