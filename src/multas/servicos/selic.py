"""The monthly Selic the calculations use (issue 35, item 1; spec § 3.5 v4): the months the
project ships (:func:`multas.nucleo.legislacao.selic.serie_enviada`) followed by the months a
user added from the Banco Central's CSV of series 4390 (``multas legislacao selic atualizar
ARQUIVO``), stored one record per month in ``selic_meses``
(:class:`~multas.servicos.persistencia.modelos.MesSelic`), inside the audit chain.

- **Adding** (:func:`atualizar`): the file is read (UTF-8 or Latin-1, at most
  :data:`LIMITE_BYTES`), validated by :meth:`SerieSelic.com` against the series as it is (a
  month already there with the same rate is skipped, another rate refused, a gap refused,
  rates from 0 to 100), and only the new months are inserted, in one transaction. Run twice,
  the same file adds nothing and says so.
- **Reading** (:func:`serie_atual`): every stored month is checked against its history (a row
  altered outside the system is :class:`RegistroAlterado`, never a rate a case computes with)
  and must follow the shipped ones with no gap (a month deleted outside the system is refused
  too). A stored month that a later release ships is taken from the release.
- **Scope**: the Selic is public data, not a client's: it has no CNPJ, so the clients' scopes
  (:mod:`multas.servicos.persistencia.escopo_sql`) neither filter nor refuse it; every user's
  calculation sees every month. Only the command line writes it, as its operator
  (:func:`multas.servicos.ambiente.operador_local`), like ``multas usuarios``.
- **Without a database** (``multas calcular``, ``multas lote``): :func:`serie_do_banco`
  reads the configured database (``MULTAS_DATABASE_URL``, else the user's data folder's) only if it
  already exists and has the table, never creating nor migrating it, and only when a case
  needs the Selic.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from multas.nucleo.arquivos import KIB, tamanho
from multas.nucleo.datas import formatar_data, fuso_brasilia
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao.selic import (
    MAXIMO_MESES,
    SerieSelic,
    TaxaSelic,
    indice,
    ler_csv_do_bcb,
    mes_br,
    serie_enviada,
    taxa_br,
    texto_do_mes,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from multas.nucleo.legislacao import Legislacao
    from multas.servicos.persistencia import Repositorio

#: the largest file read: a century of months takes about 25 KiB
LIMITE_BYTES = 256 * KIB
#: how a stored month's source reads (in the memória, step by step)
FONTE_BCB = (
    "Banco Central do Brasil, SGS série 4390, arquivo {arquivo} (SHA-256 {sha256}), "
    "importado em {dia} por {usuario}"
)
#: the audit's action for a month added
ACAO = "selic_acrescentar"
#: the field the errors about the file name
CAMPO = "arquivo"
_CONTROLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_DATA = re.compile(r'^"?(\d{2})/(\d{2})/(\d{4})"?;', re.ASCII)
_MES = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$", re.ASCII)


@dataclass(frozen=True)
class Resumo:
    """What an update did: the months it added (in order), the months of the file the series
    already had with the same rate, and the series' last month now."""

    arquivo: str
    sha256: str
    adicionados: tuple[str, ...]
    presentes: tuple[str, ...]
    ultimo: str
    fonte: str | None

    def como_dict(self) -> dict[str, Any]:
        return {
            "arquivo": self.arquivo,
            "sha256": self.sha256,
            "adicionados": len(self.adicionados),
            "primeiro_adicionado": self.adicionados[0] if self.adicionados else None,
            "ultimo_adicionado": self.adicionados[-1] if self.adicionados else None,
            "ja_presentes": len(self.presentes),
            "ultimo_mes": self.ultimo,
            "fonte": self.fonte,
        }

    def texto(self) -> str:
        presentes = len(self.presentes)
        if not self.adicionados:
            cabeca = (
                f"Nenhum mês novo em {self.arquivo}: os {presentes} meses do arquivo já estão "
                "na série, com as mesmas taxas."
            )
        else:
            n = len(self.adicionados)
            cabeca = (
                f"{n} {'mês acrescentado' if n == 1 else 'meses acrescentados'}, de "
                f"{mes_br(self.adicionados[0])} a {mes_br(self.adicionados[-1])}."
            )
            if presentes:
                cabeca += (
                    f" Outros {presentes} do arquivo já estavam na série, com as mesmas taxas."
                )
        return f"{cabeca}\nÚltimo mês da série: {mes_br(self.ultimo)}.\n"


# --- reading ----------------------------------------------------------------------------------


def serie_atual(origem: Repositorio | Session) -> SerieSelic:
    """The shipped series followed by the months stored in the database (each checked against
    its history: :class:`~multas.servicos.persistencia.RegistroAlterado` otherwise)."""
    from sqlalchemy.orm import Session

    if isinstance(origem, Session):
        return _compor(_guardados(origem))
    with origem.leitura() as sessao:
        return _compor(_guardados(sessao))


def legislacao_com_selic(repositorio: Repositorio) -> Legislacao:
    """The shipped legislation with the Selic of this database, read when a rule first asks
    for it (a case that needs no Selic reads nothing)."""
    from multas.nucleo.legislacao import carregar

    return carregar().com_selic(lambda: serie_atual(repositorio))


def serie_do_banco(url: str | None = None) -> SerieSelic | None:
    """The series with the months stored in the database of ``url`` (default: the configured
    one, ``MULTAS_DATABASE_URL``, else the user's data folder's: :mod:`multas.servicos.pasta_de_dados`), read
    without writing: ``None`` when there is no such database (a SQLite file that does not
    exist, or one in memory), when its schema predates the table (migration r0014) or when it
    holds no month. Never creates, migrates nor writes the database."""
    if url is None:
        from multas.servicos.ambiente import urls_do_banco

        url = urls_do_banco()[0]
        if url is None:  # the default: no file, no database (and SQLAlchemy not loaded)
            from multas.servicos.pasta_de_dados import (
                BancoAntigoTrancado,
                banco_padrao,
                url_sqlite,
            )

            try:
                arquivo = banco_padrao()  # an old one is read where it is, never moved
            except BancoAntigoTrancado as erro:  # a 'banco mover' copying it
                from multas.servicos.persistencia.registros import BancoInacessivel

                raise BancoInacessivel(str(erro)) from None
            if not arquivo.is_file():
                return None
            url = url_sqlite(arquivo)
    from sqlalchemy import inspect
    from sqlalchemy.engine import make_url
    from sqlalchemy.orm import Session

    from multas.servicos.persistencia import criar_engine

    dados = make_url(url)
    if dados.get_backend_name() == "sqlite" and (
        not dados.database or dados.database == ":memory:" or not Path(dados.database).is_file()
    ):
        return None
    engine = criar_engine(url)
    try:
        with engine.connect() as conexao:
            if not inspect(conexao).has_table("selic_meses"):
                return None
            with Session(bind=conexao) as sessao:
                guardados = _guardados(sessao)
    finally:
        engine.dispose()
    return _compor(guardados) if guardados else None


def _guardados(sessao: Session) -> list[Any]:
    """The stored months, in month order, each checked against its history."""
    from sqlalchemy import select

    from multas.servicos.persistencia.modelos import MesSelic
    from multas.servicos.persistencia.registros import RECURSOS, RegistroAlterado, conferir

    linhas = list(sessao.scalars(select(MesSelic).order_by(MesSelic.mes)))
    problemas = conferir(sessao, RECURSOS["selic_meses"], linhas)
    if problemas:
        raise RegistroAlterado(next(iter(problemas.values())))
    return linhas


def _compor(linhas: Sequence[Any]) -> SerieSelic:
    """The shipped series, then the stored months after its last one, contiguous."""
    enviada = serie_enviada()
    meses = dict(enviada.meses)
    for linha in linhas:
        if linha.mes in enviada.meses:
            continue  # a later release ships it: the release's rate
        if not _MES.match(linha.mes):
            # no month a case can ask for: only code that bypassed atualizar (which checks
            # every month) could have written it, and the chain vouches for it as written
            continue
        esperado = texto_do_mes(indice(max(meses)) + 1)
        if linha.mes != esperado:
            _alterada(linha, f"falta o mês {mes_br(esperado)} antes de {mes_br(linha.mes)}")
        try:
            taxa = Decimal(linha.taxa)
        except InvalidOperation:
            _alterada(linha, f"taxa ilegível: {linha.taxa!r}")
        meses[linha.mes] = TaxaSelic(taxa, linha.fonte)
    return SerieSelic(meses)


def _alterada(linha: Any, motivo: str) -> NoReturn:
    """A stored series the system could not have written (it checks every month it adds)."""
    from multas.servicos.persistencia.integridade import Problema
    from multas.servicos.persistencia.registros import RegistroAlterado

    raise RegistroAlterado(
        Problema(
            "ausente",
            f"a Selic guardada (tabela selic_meses) não confere: {motivo}",
            tabela="selic_meses",
            id=int(linha.id),
        )
    )


def trechos(serie: SerieSelic) -> list[dict[str, Any]]:
    """The series as stretches of consecutive months with one source each, in order."""
    saida: list[dict[str, Any]] = []
    for mes in sorted(serie.meses):
        taxa = serie.meses[mes]
        if saida and saida[-1]["fonte"] == taxa.fonte:
            saida[-1]["ate"], saida[-1]["meses"] = mes, saida[-1]["meses"] + 1
        else:
            saida.append({"de": mes, "ate": mes, "meses": 1, "fonte": taxa.fonte})
    return saida


def descrever(serie: SerieSelic) -> dict[str, Any]:
    """``multas legislacao selic --formato json``: the series' ends, size, stretches and
    every month's rate (exact decimal text, in percent)."""
    return {
        "serie": "Selic acumulada no mês (Banco Central, SGS série 4390), % ao mês",
        "primeiro": serie.primeiro,
        "ultimo": serie.ultimo,
        "meses": len(serie.meses),
        "trechos": trechos(serie),
        "taxas": {mes: f"{serie.meses[mes].taxa:f}" for mes in sorted(serie.meses)},
    }


def como_texto(serie: SerieSelic) -> str:
    """``multas legislacao selic``: the ends, the size and each stretch with its source."""
    linhas = [
        "Selic acumulada no mês (Banco Central, SGS série 4390), % ao mês",
        f"De {mes_br(serie.primeiro)} a {mes_br(serie.ultimo)}: {len(serie.meses)} meses.",
        "",
    ]
    for trecho in trechos(serie):
        ultima = serie.meses[trecho["ate"]].taxa
        linhas.append(
            f"- {mes_br(trecho['de'])} a {mes_br(trecho['ate'])} ({trecho['meses']} "
            f"{'mês' if trecho['meses'] == 1 else 'meses'}; última taxa {taxa_br(ultima)})"
        )
        linhas.append(f"  Fonte: {trecho['fonte']}")
    return "\n".join(linhas) + "\n"


# --- adding -----------------------------------------------------------------------------------


def ler_arquivo(conteudo: bytes, arquivo: str) -> dict[str, Decimal]:
    """The months of a Banco Central CSV of series 4390 (:func:`ler_csv_do_bcb`), its bytes
    first read as UTF-8 or else Latin-1 (CP1252), within :data:`LIMITE_BYTES`; a file that is
    not text is refused naming its line."""
    from multas.nucleo.dialeto import decodificar_texto

    if len(conteudo) > LIMITE_BYTES:
        raise EntradaInvalida(
            CAMPO,
            f"{arquivo}: arquivo grande demais (máximo {tamanho(LIMITE_BYTES)}, "
            f"{MAXIMO_MESES} meses): baixe do Banco Central só os meses que faltam",
        )
    texto, _ = decodificar_texto(conteudo, None, arquivo)
    controle = _CONTROLE.search(texto)
    if controle is not None:
        linha = texto.count("\n", 0, controle.start()) + 1
        raise EntradaInvalida(
            CAMPO,
            f"{arquivo}, linha {linha}: o arquivo não é texto (caractere de controle "
            f"{controle.group()!r}); esperado o CSV da série 4390 do Banco Central",
        )
    try:
        return ler_csv_do_bcb(texto, CAMPO)
    except EntradaInvalida as erro:
        juncao = ", " if erro.mensagem.startswith("linha ") else ": "
        raise EntradaInvalida(CAMPO, f"{arquivo}{juncao}{erro.mensagem}") from None


def _linha_do_mes(conteudo: bytes, mes: str) -> int | None:
    """The line of ``mes`` in the file, as :func:`ler_csv_do_bcb` counts them (non-blank
    lines, the header being line 1)."""
    texto = conteudo.decode("latin-1").lstrip("\ufeff")
    linhas = [linha.strip() for linha in texto.splitlines() if linha.strip()]
    for numero, linha in enumerate(linhas[1:], 2):
        achado = _DATA.match(linha)
        if achado is not None and f"{achado[3]}-{achado[2]}" == mes:
            return numero
    return None


def atualizar(repositorio: Repositorio, conteudo: bytes, arquivo: str, usuario: str) -> Resumo:
    """Add to the database the months of this Banco Central CSV after the series' last one,
    in one transaction (see the module). ``arquivo``: the file's name, for the source and the
    errors. An invalid file or month is :class:`EntradaInvalida` naming its line, and nothing
    is written."""
    from multas.servicos.persistencia.modelos import MesSelic

    arquivo = Path(arquivo).name[:200] or "arquivo"
    novos = ler_arquivo(conteudo, arquivo)
    sha256 = hashlib.sha256(conteudo).hexdigest()
    with repositorio.escrita(usuario) as escrita:
        atual = serie_atual(escrita.sessao)
        dia = formatar_data(escrita.momento.astimezone(fuso_brasilia()).date())
        fonte = FONTE_BCB.format(arquivo=arquivo, sha256=sha256, dia=dia, usuario=usuario)
        _validar(atual, novos, fonte, conteudo, arquivo)
        adicionados = tuple(sorted(m for m in novos if m not in atual.meses))
        for mes in adicionados:
            taxa = f"{novos[mes]:f}"
            escrita.inserir(
                MesSelic(
                    mes=mes, taxa=taxa, fonte=fonte, usuario=usuario, criado_em=escrita.momento
                ),
                ACAO,
                {"mes": mes, "taxa": taxa, "arquivo": arquivo, "sha256": sha256},
            )
    presentes = tuple(sorted(m for m in novos if m in atual.meses))
    ultimo = adicionados[-1] if adicionados else atual.ultimo
    return Resumo(arquivo, sha256, adicionados, presentes, ultimo, fonte if adicionados else None)


def _validar(
    atual: SerieSelic, novos: dict[str, Decimal], fonte: str, conteudo: bytes, arquivo: str
) -> None:
    """:meth:`SerieSelic.com`'s checks, each error naming the file's line."""
    antes = [m for m in sorted(novos) if indice(m) < indice(atual.primeiro)]
    try:
        if antes:
            raise EntradaInvalida(
                antes[0],
                f"{mes_br(antes[0])} é anterior ao primeiro mês da série "
                f"({mes_br(atual.primeiro)}): baixe o arquivo a partir de "
                f"{mes_br(atual.primeiro)}",
            )
        atual.com(novos, fonte)
    except EntradaInvalida as erro:
        mes = erro.campo or ""
        linha = _linha_do_mes(conteudo, mes)
        onde = f"{arquivo}, linha {linha}" if linha is not None else arquivo
        raise EntradaInvalida(CAMPO, f"{onde}: {erro.mensagem}") from None
