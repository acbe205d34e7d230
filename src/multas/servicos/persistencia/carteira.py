"""The distributor's ledger: its years, stored by the CNPJ's normalised key (issue 19, item 3),
and the collisions migration r0008 left: :class:`RepositorioCarteira`, part of
:class:`~multas.servicos.persistencia.ciclo.RepositorioCiclo`."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia import cargas
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.integridade import Problema
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo
from multas.servicos.persistencia.processos import _mensagens
from multas.servicos.persistencia.registros import (
    RECURSOS,
    RegistroAlterado,
    conferir,
    validar_texto,
    vivos,
)
from multas.servicos.persistencia.repositorio import USUARIO_PADRAO, Repositorio

registro = logging.getLogger(__name__)


def chave_do_cnpj(cnpj: str) -> str:
    """The ledger's key of a CNPJ as given (issue 19, item 3): :func:`multas.nucleo.cnpj.normalizar`,
    so that any spelling of one CNPJ is one distributor. A text that normalises to nothing
    (only punctuation and spaces) is refused: it cannot be a key.

    >>> chave_do_cnpj(" 12.abc.345/01de-35 ")
    '12ABC34501DE35'
    """
    validar_texto(cnpj, "cnpj", 32)
    chave = normalizar_cnpj(cnpj)
    if not chave:
        raise EntradaInvalida("cnpj", "o CNPJ não tem nenhum caractere além de pontuação e espaços")
    return chave


def grafias_da_busca(cnpj: str) -> list[str]:
    """The stored ``cnpj`` values a lookup by this text matches: the normalised key and, when
    it differs, the text exactly as given. The second finds a row migration r0008 left as it
    was stored (one that would have collided with another once normalised: see
    :meth:`RepositorioCiclo.colisoes`); every row written since holds the key.

    >>> grafias_da_busca("11.222.333/0001-81"), grafias_da_busca("11222333000181")
    (['11222333000181', '11.222.333/0001-81'], ['11222333000181'])
    """
    validar_texto(cnpj, "cnpj", 64)
    chave = normalizar_cnpj(cnpj)
    return [g for g in dict.fromkeys((chave, cnpj)) if g]


@dataclass(frozen=True, slots=True)
class AnoArmazenado:
    cnpj: str
    ano: int
    nome: str | None
    entrada: dict[str, Any]
    usuario: str
    criado_em: datetime
    atualizado_em: datetime
    erro: str | None = None


def _ano(linha: AnoCarteiraSalvo | Row[Any], erro: str | None = None) -> AnoArmazenado:
    try:
        entrada = json.loads(linha.entrada)
    except ValueError:
        entrada, erro = {}, erro or "entrada gravada ilegível"
    return AnoArmazenado(
        cnpj=linha.cnpj,
        ano=linha.ano,
        nome=linha.nome,
        entrada=entrada if isinstance(entrada, dict) else {},
        usuario=linha.usuario,
        criado_em=linha.criado_em,
        atualizado_em=linha.atualizado_em,
        erro=erro,
    )


#: a caller's check of an import: it gets the stored years of a CNPJ, and the keys of the
#: CNPJs being written, each once, in the order of their rows (an import in parts checks one
#: part's distributors at a time)
Validacao = Callable[[Callable[[str], list[AnoArmazenado]], Collection[str]], None]
#: the rows of one part of an import in parts (:meth:`RepositorioCarteira.salvar_anos_em_partes`)
LINHAS_POR_PARTE = 1000
#: the columns of a stored year, in the table's order (a row's :func:`_retrato`)
_COLUNAS = [coluna.key for coluna in AnoCarteiraSalvo.__table__.columns]
_ID, _CNPJ, _ANO, _CRIADO_EM = (_COLUNAS.index(c) for c in ("id", "cnpj", "ano", "criado_em"))


@dataclass(frozen=True, slots=True)
class PreparoDosAnos:
    """What :meth:`RepositorioCarteira.preparar_anos` read and validated before the lock: each
    year's key, and the stored years it validated against (id → every column)."""

    chaves: list[str]
    retrato: dict[int, tuple[Any, ...]]


def _retrato(guardados: Mapping[str, Sequence[Row[Any]]]) -> dict[int, tuple[Any, ...]]:
    """The stored years as they are: id → every column's value (two reads compare equal only
    if no column of any row changed, no row came or went)."""
    return {
        linha.id: tuple(getattr(linha, coluna) for coluna in _COLUNAS)
        for linhas in guardados.values()
        for linha in linhas
    }


def _validar(
    guardados: Mapping[str, Sequence[Row[Any]]], validar: Validacao | None, chaves: Sequence[str]
) -> None:
    if validar is not None:
        validar(
            lambda cnpj: [_ano(linha) for linha in guardados.get(normalizar_cnpj(cnpj), [])],
            list(dict.fromkeys(chaves)),
        )


def _partes(chaves: Sequence[str]) -> list[list[int]]:
    """The positions of an import's rows in parts of about :data:`LINHAS_POR_PARTE`: a
    distributor's rows all in one part (its ledger is validated whole), in the order the
    distributors first appear.

    >>> _partes(["A", "B", "A", "C"])
    [[0, 2, 1, 3]]
    """
    grupos: dict[str, list[int]] = {}
    for posicao, chave in enumerate(chaves):
        grupos.setdefault(chave, []).append(posicao)
    partes: list[list[int]] = [[]]
    for posicoes in grupos.values():
        if partes[-1] and len(partes[-1]) + len(posicoes) > LINHAS_POR_PARTE:
            partes.append([])
        partes[-1].extend(posicoes)
    return partes if partes[-1] else []


def _detalhe(linha: Mapping[str, Any] | tuple[Any, ...]) -> dict[str, Any]:
    """A year's audit detail: its key and year."""
    if isinstance(linha, tuple):
        return {"cnpj": linha[_CNPJ], "ano": linha[_ANO]}
    return {"cnpj": linha["cnpj"], "ano": linha["ano"]}


class RepositorioCarteira:
    """The ledger of :class:`~multas.servicos.persistencia.ciclo.RepositorioCiclo`."""

    repositorio: Repositorio

    def salvar_ano(
        self,
        cnpj: str,
        ano: int,
        nome: str | None,
        entrada: dict[str, Any],
        usuario: str = USUARIO_PADRAO,
    ) -> AnoArmazenado:
        """Create or replace one year of a distributor's ledger."""
        self.salvar_anos([(cnpj, ano, nome, entrada)], usuario)
        return next(a for a in self.anos_carteira(cnpj) if a.ano == ano)

    def salvar_anos(
        self,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        usuario: str = USUARIO_PADRAO,
        validar: Validacao | None = None,
    ) -> int:
        """Create or replace several years (cnpj, year, name, input) in one transaction: all
        of them or none; returns how many years were written. ``validar`` gets the stored
        years of a CNPJ (each checked against its history, before the change) and may refuse
        the whole import.

        The lock is held only for the writes (issue 32, item 1): the stored years are read
        and ``validar`` runs before it (:meth:`preparar_anos`); under the lock the same years
        are read again, and only if one changed meanwhile are they checked and ``validar``
        run again there. The rows are then written in a few statements, not one each."""
        preparo = self.preparar_anos(anos, validar)
        with self.repositorio.escrita(usuario) as escrita:
            return self._salvar_anos_em(escrita, anos, validar, preparo)

    def preparar_anos(
        self,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        validar: Validacao | None,
    ) -> PreparoDosAnos:
        """What :meth:`salvar_anos` does before the lock: the keys, the collisions refused,
        the stored years read (each checked) and ``validar`` run on them."""
        chaves = [chave_do_cnpj(cnpj) for cnpj, *_ in anos]
        with self.repositorio.leitura() as sessao:
            self._recusar_colisao(sessao, anos, chaves)
            guardados = self._anos_de(sessao, sorted(set(chaves)))
        _validar(guardados, validar, chaves)
        return PreparoDosAnos(chaves, _retrato(guardados))

    def salvar_anos_em_partes(
        self,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        usuario: str = USUARIO_PADRAO,
        validar: Validacao | None = None,
    ) -> int:
        """:meth:`salvar_anos` for a long import (issue 32, item 1): all of the years or none,
        but written a part at a time (:data:`LINHAS_POR_PARTE` rows, whole distributors), each
        part its own short transaction, so that no request waits for the whole import
        (:mod:`multas.servicos.persistencia.cargas`). Each part is read and validated before
        its lock, as :meth:`salvar_anos` does. An import that fits in one part is written as
        :meth:`salvar_anos` writes it."""
        chaves = [chave_do_cnpj(cnpj) for cnpj, *_ in anos]
        partes = _partes(chaves)
        if len(partes) <= 1:
            return self.salvar_anos(anos, usuario, validar)
        self.limpar_cargas(usuario)  # what an earlier import left, before adding to it
        with self.repositorio.escrita(usuario) as escrita:
            carga_id = cargas.abrir(escrita, "carteira")
        try:
            escritos = 0
            for parte in partes:
                da_parte = [anos[i] for i in parte]
                preparo = self.preparar_anos(da_parte, validar)
                with self.repositorio.escrita(usuario) as escrita:
                    cargas.renovar(escrita, carga_id, len(da_parte))
                    escritos += self._salvar_anos_em(escrita, da_parte, validar, preparo, carga_id)
            with self.repositorio.escrita(usuario) as escrita:
                cargas.aplicar(escrita, carga_id)
        except BaseException:
            self._desfazer_carga(carga_id, usuario)
            raise
        try:
            self.limpar_cargas(usuario)
        except Exception:  # applied: the caller is told so; the next import cleans up
            registro.exception("a importação nº %s foi aplicada, mas a limpeza falhou", carga_id)
        return escritos

    def _desfazer_carga(self, carga_id: int, usuario: str) -> None:
        """A failed import undone, its rows erased (a failure here is logged: the import is
        hidden anyway, and the next one cleans up)."""
        try:
            with self.repositorio.escrita(usuario) as escrita:
                cargas.desfazer(escrita, carga_id, "falhou")
            self.limpar_cargas(usuario)
        except Exception:
            registro.exception("a importação nº %s falhou e não foi desfeita agora", carga_id)

    def limpar_cargas(self, usuario: str = USUARIO_PADRAO) -> int:
        """:func:`multas.servicos.persistencia.cargas.limpar`."""
        return cargas.limpar(self.repositorio, usuario)

    def _salvar_anos_em(
        self,
        escrita: Escrita,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        validar: Validacao | None,
        preparo: PreparoDosAnos | None = None,
        carga_id: int | None = None,
    ) -> int:
        """:meth:`salvar_anos` inside a transaction already open (``preparo``: what
        :meth:`preparar_anos` read and validated before it; else all is done here). With
        ``carga_id``, a part of that import in parts: each year is a new row of it, and the
        row it replaces is marked (nothing is seen until the import is applied)."""
        usuario, momento = escrita.usuario, escrita.momento
        chaves = preparo.chaves if preparo else [chave_do_cnpj(cnpj) for cnpj, *_ in anos]
        self._recusar_colisao(escrita.sessao, anos, chaves)
        cnpjs = sorted(set(chaves))
        cargas.conferir_livres(escrita, cnpjs, exceto=carga_id)
        atuais = _retrato(self._anos_de(escrita.sessao, cnpjs, conferir_historia=False))
        if preparo is None or atuais != preparo.retrato:
            # changed since it was validated (or never was): checked and validated here
            atuais = _retrato(guardados := self._anos_de(escrita.sessao, cnpjs))
            _validar(guardados, validar, chaves)
        escrita.marcar_conferidos(RECURSOS["carteira_anos"], atuais)
        existentes = {(linha[_CNPJ], linha[_ANO]): linha for linha in atuais.values()}
        # one write per (key, year), the last one given winning (an insert then its change
        # would be one record's insert of its final state)
        pedidos: dict[tuple[str, int], tuple[str | None, str]] = {}
        for chave, (_, ano, nome, entrada) in zip(chaves, anos, strict=True):
            pedidos[(chave, ano)] = (nome, json.dumps(entrada, ensure_ascii=False))

        da_carga = {} if carga_id is None else {"carga_id": carga_id}

        def valores(novos: bool) -> Iterator[dict[str, Any]]:
            """The rows to write, made as they are written (not 100,000 held at once). In an
            import in parts every year is a new row (``novos``: those without a stored year),
            keeping the stored year's creation."""
            for (chave, ano), (nome, texto) in pedidos.items():
                comum = {
                    "nome": nome,
                    "entrada": texto,
                    "usuario": usuario,
                    "atualizado_em": momento,
                }
                anterior = existentes.get((chave, ano))
                if novos != (anterior is None):
                    continue
                if anterior is None:
                    yield {"cnpj": chave, "ano": ano, "criado_em": momento, **comum, **da_carga}
                elif carga_id is None:
                    yield {"id": anterior[_ID], **comum}
                else:
                    criado = anterior[_CRIADO_EM]
                    yield {"cnpj": chave, "ano": ano, "criado_em": criado, **comum, **da_carga}

        if carga_id is None:
            escrita.alterar_linhas(
                AnoCarteiraSalvo,
                valores(novos=False),
                "carteira_alterar",
                lambda linha: _detalhe(atuais[int(linha["id"])]),
            )
        else:
            substituidas = [
                {"id": existentes[chave][_ID], "substituida_por": carga_id}
                for chave in pedidos
                if chave in existentes
            ]
            escrita.alterar_linhas(
                AnoCarteiraSalvo,
                substituidas,
                "carteira_substituir",
                lambda linha: {**_detalhe(atuais[int(linha["id"])]), **da_carga},
            )
            escrita.inserir_linhas(
                AnoCarteiraSalvo,
                valores(novos=False),
                ("cnpj", "ano"),
                "carteira_alterar",
                lambda linha: {**_detalhe(linha), **da_carga},
            )
        escrita.inserir_linhas(
            AnoCarteiraSalvo,
            valores(novos=True),
            ("cnpj", "ano"),
            "carteira_criar",
            lambda linha: {**_detalhe(linha), **da_carga},
        )
        return len(pedidos)

    @staticmethod
    def _recusar_colisao(
        sessao: Session,
        anos: Sequence[tuple[str, int, str | None, dict[str, Any]]],
        chaves: Sequence[str],
    ) -> None:
        """A year is not written while a row of it stored with exactly the spelling given,
        not its key, is still there (a collision migration r0008 left): the write would go to
        the key's row while a lookup by that spelling shows the other. The user resolves the
        collision first."""
        grafias = {cnpj for (cnpj, *_), chave in zip(anos, chaves, strict=True) if cnpj != chave}
        if not grafias:
            return
        pedidos = {(cnpj, ano) for cnpj, ano, *_ in anos}
        for inicio in range(0, len(grafias), 500):
            lote = sorted(grafias)[inicio : inicio + 500]
            for linha_id, cnpj, ano in sessao.execute(
                select(AnoCarteiraSalvo.id, AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano).where(
                    AnoCarteiraSalvo.cnpj.in_(lote), vivos(AnoCarteiraSalvo)
                )
            ):
                if (cnpj, ano) in pedidos:
                    raise EntradaInvalida(
                        "cnpj",
                        f"o ano {ano} do CNPJ {cnpj} está gravado com essa grafia, não com a "
                        f"chave normalizada {normalizar_cnpj(cnpj)} (linha nº {linha_id}, "
                        "deixada assim pela migração r0008 por colidir com outra): exclua-a "
                        f"ou corrija-a antes (multas carteira excluir '{cnpj}' --ano {ano}; multas "
                        "auditoria verificar a aponta)",
                    )

    def _anos_de(
        self, sessao: Session, cnpjs: Sequence[str], conferir_historia: bool = True
    ) -> dict[str, list[Row[Any]]]:
        """The stored years of these keys (:func:`chave_do_cnpj`), as rows of the table (not
        objects of the session: an import may read 100,000), each checked against its history
        unless told not to (a ledger is computed from all of its years: ``RegistroAlterado``
        for one that does not match)."""
        tabela = RECURSOS["carteira_anos"].colunas
        linhas: list[Row[Any]] = []
        for inicio in range(0, len(cnpjs), 500):
            linhas += sessao.execute(
                select(tabela)
                .where(tabela.c.cnpj.in_(cnpjs[inicio : inicio + 500]))
                .where(vivos(AnoCarteiraSalvo))
                .order_by(tabela.c.cnpj, tabela.c.ano)
            ).all()
        if conferir_historia:
            problemas = conferir(sessao, RECURSOS["carteira_anos"], linhas)
            ocultos = {} if problemas else cargas.conferir_ocultos(sessao, cnpjs)
            problema = next(iter([*problemas.values(), *ocultos.values()]), None)
            if problema is not None:
                raise RegistroAlterado(problema)
        por_cnpj: dict[str, list[Row[Any]]] = {}
        for linha in linhas:
            por_cnpj.setdefault(linha.cnpj, []).append(linha)
        return por_cnpj

    def _anos(self, sessao: Session, cnpj: str) -> list[AnoCarteiraSalvo]:
        """The years a lookup by ``cnpj`` finds (:func:`grafias_da_busca`): the rows of its key
        and the rows stored with exactly this spelling (left as they were by migration r0008);
        of a year with both, the one stored with exactly this spelling, so that each row of
        an unresolved collision is seen by its own spelling."""
        grafias = grafias_da_busca(cnpj)
        consulta = (
            select(AnoCarteiraSalvo)
            .where(AnoCarteiraSalvo.cnpj.in_(grafias), vivos(AnoCarteiraSalvo))
            .order_by(AnoCarteiraSalvo.ano, AnoCarteiraSalvo.id)
        )
        por_ano: dict[int, AnoCarteiraSalvo] = {}
        for linha in sessao.scalars(consulta):
            if linha.ano not in por_ano or linha.cnpj == cnpj:
                por_ano[linha.ano] = linha
        return list(por_ano.values())

    def _anos_conferidos(self, sessao: Session, cnpj: str, exigir: bool) -> list[AnoArmazenado]:
        linhas = self._anos(sessao, cnpj)
        problemas = conferir(sessao, RECURSOS["carteira_anos"], linhas)
        # a hidden year or an import altered outside the system puts the whole ledger in doubt
        ocultos = cargas.conferir_ocultos(sessao, grafias_da_busca(cnpj))
        primeiro = next(iter([*problemas.values(), *ocultos.values()]), None)
        if exigir and primeiro is not None:
            raise RegistroAlterado(primeiro)
        erros = _mensagens(problemas)
        geral = next((p.mensagem for p in ocultos.values()), None)
        return [_ano(linha, erros.get(linha.id) or geral) for linha in linhas]

    def anos_carteira(self, cnpj: str, exigir: bool = True) -> list[AnoArmazenado]:
        """A distributor's years: ``RegistroAlterado`` when one does not match its history (a
        ledger is computed from all of its years), or, with ``exigir=False``, that year with
        its ``erro``."""
        with self.repositorio.leitura() as sessao:
            return self._anos_conferidos(sessao, cnpj, exigir=exigir)

    def distribuidores(
        self, limite: int | None = None, deslocamento: int = 0
    ) -> list[tuple[str, str | None, int, str | None]]:
        """Each CNPJ of the ledger, in the order of its stored key: (cnpj, the latest name,
        how many years, the problem of a year that does not match its history, if any).
        ``limite`` and ``deslocamento`` count distributors: the database picks the page's
        CNPJs, and only their years are read and checked."""
        a = AnoCarteiraSalvo
        cnpjs = select(a.cnpj).where(vivos(a)).group_by(a.cnpj).order_by(a.cnpj)
        cnpjs = cnpjs.limit(limite).offset(deslocamento)
        consulta = select(a).where(vivos(a), a.cnpj.in_(cnpjs.scalar_subquery()))
        with self.repositorio.leitura() as sessao:
            linhas = list(sessao.scalars(consulta.order_by(a.cnpj, a.ano)))
            erros = _mensagens(conferir(sessao, RECURSOS["carteira_anos"], linhas))
            # what the rows shown hang on (issue 32, item 1): the page's hidden years and
            # imports, and any import not applied (one altered into that state hides years
            # of CNPJs this page cannot name: every distributor listed is flagged)
            ocultos = cargas.conferir_ocultos(sessao, sorted({x.cnpj for x in linhas}))
            geral = cargas.conferir_nao_aplicadas(sessao)
        resumo: dict[str, tuple[str | None, int, str | None]] = {}
        for linha in linhas:
            nome, n, erro = resumo.get(linha.cnpj, (None, 0, None))
            problema = ocultos.get(linha.cnpj, geral)
            erro = erro or erros.get(linha.id) or (problema.mensagem if problema else None)
            resumo[linha.cnpj] = (linha.nome or nome, n + 1, erro)
        return [(cnpj, nome, n, erro) for cnpj, (nome, n, erro) in resumo.items()]

    def contar_distribuidores(self) -> int:
        """How many CNPJs the ledger has (each stored spelling one, as listed)."""
        a = AnoCarteiraSalvo
        consulta = select(func.count(func.distinct(a.cnpj))).where(vivos(a))
        with self.repositorio.leitura() as sessao:
            return int(sessao.scalar(consulta) or 0)

    def excluir_ano(self, cnpj: str, ano: int, usuario: str = USUARIO_PADRAO) -> bool:
        """Delete one year: the row stored with exactly this spelling of the CNPJ, if there is
        one (how a collision left by migration r0008 is resolved), else the row of its key.
        Of concurrent deletes of one year, exactly one finds it."""
        grafias = grafias_da_busca(cnpj)
        with self.repositorio.escrita(usuario) as escrita:
            encontradas = {
                str(grafia): int(linha_id)
                for linha_id, grafia in escrita.sessao.execute(
                    select(AnoCarteiraSalvo.id, AnoCarteiraSalvo.cnpj).where(
                        AnoCarteiraSalvo.cnpj.in_(grafias),
                        AnoCarteiraSalvo.ano == ano,
                        vivos(AnoCarteiraSalvo),
                    )
                )
            }
            linha_id = encontradas.get(cnpj, encontradas.get(grafias[0] if grafias else ""))
            if linha_id is None:
                return False
            cargas.conferir_livres(escrita, list(encontradas))
            gravado = cnpj if cnpj in encontradas else grafias[0]
            excluido = escrita.excluir(
                AnoCarteiraSalvo,
                linha_id,
                "carteira_excluir",
                {"cnpj": gravado, "ano": ano},
            )
            return excluido is not None

    def colisoes(self) -> list[Problema]:
        """Every stored year whose ``cnpj`` is not its normalised key (issue 19, item 3): rows
        migration r0008 did not normalise because another row of the same year has the same
        key (it never merges them), or whose CNPJ normalises to nothing. ``multas auditoria
        verificar`` names each until one of the rows is deleted or corrected."""
        with self.repositorio.leitura() as sessao:
            linhas = [
                (int(i), str(cnpj), int(ano))
                for i, cnpj, ano in sessao.execute(
                    select(AnoCarteiraSalvo.id, AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano)
                    .where(vivos(AnoCarteiraSalvo))
                    .order_by(AnoCarteiraSalvo.id)
                )
            ]
        grupos: dict[tuple[str, int], list[tuple[int, str]]] = {}
        for linha_id, cnpj, ano in linhas:
            grupos.setdefault((normalizar_cnpj(cnpj), ano), []).append((linha_id, cnpj))
        problemas = []
        for (chave, ano), grupo in grupos.items():
            for linha_id, cnpj in grupo:
                if cnpj == chave:
                    continue
                outros = [(i, c) for i, c in grupo if i != linha_id]
                problemas.append(
                    Problema(
                        "colisão",
                        mensagem_de_colisao(linha_id, cnpj, ano, chave, outros),
                        tabela="carteira_anos",
                        id=linha_id,
                    )
                )
        return problemas


def mensagem_de_colisao(
    linha_id: int, cnpj: str, ano: int, chave: str, outros: Sequence[tuple[int, str]]
) -> str:
    """What ``multas auditoria verificar`` says of a stored year whose CNPJ is not its key
    (pt-BR): with which rows it collides and how to resolve it."""
    gravado = f"o ano {ano} da carteira gravado com o CNPJ {cnpj!r} (linha nº {linha_id})"
    if not chave:
        return (
            f"{gravado} não tem CNPJ válido como chave (só pontuação e espaços): exclua-o "
            f"(multas carteira excluir {cnpj!r} --ano {ano})"
        )
    if not outros:
        return (
            f"{gravado} não está na forma normalizada {chave}: salve o ano de novo (multas "
            "carteira salvar) e exclua a grafia antiga "
            f"(multas carteira excluir {cnpj!r} --ano {ano})"
        )
    lista = ", ".join(f"{c!r} (linha nº {i})" for i, c in outros)
    return (
        f"{gravado} tem a mesma chave normalizada ({chave}) que {lista}; a migração r0008 não "
        f"os juntou: exclua ou corrija um deles (multas carteira excluir {cnpj!r} --ano {ano} "
        "apaga a linha gravada com essa grafia)"
    )
