"""Reading the parameter files: the TOML texts parsed, validated and built into a
:class:`~multas.nucleo.legislacao.modelo.Legislacao`; the shipped files (:func:`carregar`, their
parse kept in the package's ``__pycache__``) or a folder of the user's (:func:`ler_pasta`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import re
from datetime import date, timedelta
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from multas.nucleo.calendario import CalendarioFederal, CalendarioInvalido, ler_calendario
from multas.nucleo.legislacao.modelo import (
    Fonte,
    Legislacao,
    LegislacaoInvalida,
    Parametro,
    PrazoComprovacao,
    Vigencia,
)

_NUMERO = re.compile(r"^-?\d+(\.\d+)?$|^\d+/\d+$")
_CAMPOS_VIGENCIA = {
    "inicio",
    "fim",
    "valor",
    "dispositivo",
    "redacao",
    "texto",
    "fonte",
    "data_conferida",
}
_CAMPOS_PRAZO = {
    "ano_meta_inicio",
    "ano_meta_fim",
    "anos_depois",
    "mes",
    "dia",
    "dispositivo",
    "texto",
    "fonte",
}


#: the federal calendar's file among the parameter files (spec § 1)
ARQUIVO_CALENDARIO = "calendario.toml"


def _valor(bruto: Any) -> Any:
    """Numbers are written as strings ("0.05", "1/12") and read as exact fractions."""
    if isinstance(bruto, str) and _NUMERO.match(bruto):
        return Fraction(bruto)
    if isinstance(bruto, dict):
        return {chave: _valor(item) for chave, item in bruto.items()}
    if isinstance(bruto, float):
        raise LegislacaoInvalida('valor numérico em float: escreva-o como texto ("0.05")')
    return bruto


def _texto_obrigatorio(dados: dict[str, Any], chave: str, onde: str) -> str:
    valor = dados.get(chave)
    if not isinstance(valor, str) or not valor.strip():
        raise LegislacaoInvalida(f"{onde}: falta '{chave}'")
    return valor


def _ler_fonte(dados: dict[str, Any], onde: str) -> Fonte:
    """``fonte = {titulo = "...", href = "https://..."}`` (``href`` where a public page
    exists); a plain text is a title with no page (a folder written before sources had
    links still reads)."""
    bruta = dados.get("fonte")
    if isinstance(bruta, str):
        return Fonte(_texto_obrigatorio(dados, "fonte", onde))
    if not isinstance(bruta, dict):
        raise LegislacaoInvalida(f"{onde}: falta 'fonte'")
    desconhecidos = set(bruta) - {"titulo", "href"}
    if desconhecidos:
        raise LegislacaoInvalida(f"{onde}: fonte com campos desconhecidos {sorted(desconhecidos)}")
    titulo = _texto_obrigatorio(bruta, "titulo", f"{onde}: fonte")
    href = bruta.get("href")
    if href is not None and (
        not isinstance(href, str) or not re.fullmatch(r"https?://[^\s<>\"]+", href)
    ):
        raise LegislacaoInvalida(f"{onde}: fonte.href deve ser um endereço http(s)")
    return Fonte(titulo, href)


def _ler_vigencia(dados: dict[str, Any], onde: str) -> Vigencia:
    desconhecidos = set(dados) - _CAMPOS_VIGENCIA
    if desconhecidos:
        raise LegislacaoInvalida(f"{onde}: campos desconhecidos {sorted(desconhecidos)}")
    inicio, fim = dados.get("inicio"), dados.get("fim")
    if not isinstance(inicio, date):
        raise LegislacaoInvalida(f"{onde}: falta a data de início ('inicio')")
    if fim is not None and (not isinstance(fim, date) or fim < inicio):
        raise LegislacaoInvalida(f"{onde}: 'fim' inválido")
    data_conferida = dados.get("data_conferida", True)
    if not isinstance(data_conferida, bool):
        raise LegislacaoInvalida(f"{onde}: 'data_conferida' é true ou false")
    try:
        valor = _valor(dados.get("valor"))
    except LegislacaoInvalida as erro:
        raise LegislacaoInvalida(f"{onde}: {erro}") from None
    return Vigencia(
        inicio=inicio,
        fim=fim,
        valor=valor,
        dispositivo=_texto_obrigatorio(dados, "dispositivo", onde),
        redacao=dados.get("redacao"),
        texto=dados.get("texto"),
        fonte=_ler_fonte(dados, onde),
        data_conferida=data_conferida,
    )


def _ler_parametro(nome: str, dados: dict[str, Any], arquivo: str) -> Parametro:
    onde = f"{arquivo}: {nome}"
    if "igual_a" in dados:  # an alias: resolved once every file is read (_resolver_aliases)
        if dados.get("vigencias") or not isinstance(dados["igual_a"], str):
            raise LegislacaoInvalida(
                f"{onde}: 'igual_a' é o nome de outro parâmetro, sem vigências"
            )
        return Parametro(
            nome=nome,
            descricao=_texto_obrigatorio(dados, "descricao", onde),
            unidade=_texto_obrigatorio(dados, "unidade", onde),
            arquivo=arquivo,
            vigencias=(),
            igual_a=dados["igual_a"],
        )
    vigencias = tuple(
        _ler_vigencia(v, f"{onde}, vigência {i + 1}")
        for i, v in enumerate(dados.get("vigencias", []))
    )
    if not vigencias:
        raise LegislacaoInvalida(f"{onde}: nenhuma vigência")
    for anterior, seguinte in itertools.pairwise(vigencias):
        if anterior.fim is None or seguinte.inicio <= anterior.fim:
            raise LegislacaoInvalida(f"{onde}: vigências fora de ordem ou sobrepostas")
        if seguinte.inicio != anterior.fim + timedelta(days=1):
            raise LegislacaoInvalida(
                f"{onde}: lacuna entre vigências ({anterior.fim.isoformat()} a "
                f"{seguinte.inicio.isoformat()}); uma vigência começa no dia seguinte ao fim da "
                "anterior"
            )
    return Parametro(
        nome=nome,
        descricao=_texto_obrigatorio(dados, "descricao", onde),
        unidade=_texto_obrigatorio(dados, "unidade", onde),
        arquivo=arquivo,
        vigencias=vigencias,
    )


def _ler_prazo(dados: dict[str, Any], onde: str) -> PrazoComprovacao:
    desconhecidos = set(dados) - _CAMPOS_PRAZO
    if desconhecidos:
        raise LegislacaoInvalida(f"{onde}: campos desconhecidos {sorted(desconhecidos)}")
    prazo = PrazoComprovacao(
        ano_meta_inicio=int(dados["ano_meta_inicio"]),
        ano_meta_fim=dados.get("ano_meta_fim"),
        anos_depois=int(dados["anos_depois"]),
        mes=int(dados["mes"]),
        dia=int(dados["dia"]),
        dispositivo=_texto_obrigatorio(dados, "dispositivo", onde),
        texto=dados.get("texto"),
        fonte=_ler_fonte(dados, onde),
    )
    if prazo.ano_meta_fim is not None and prazo.ano_meta_fim < prazo.ano_meta_inicio:
        raise LegislacaoInvalida(f"{onde}: 'ano_meta_fim' antes de 'ano_meta_inicio'")
    prazo.prazo(prazo.ano_meta_inicio)  # an impossible date fails here, at start-up
    return prazo


def ler_textos(textos: dict[str, str], guardar: bool = False) -> Legislacao:
    """Build and validate the legislation from TOML texts keyed by file name (``guardar``:
    through the parse cache of the shipped files, :func:`_ler_toml`)."""
    import hashlib  # imported here, not at start-up: `multas regimes` never reads the files
    import tomllib

    parametros: dict[str, Parametro] = {}
    prazos: list[PrazoComprovacao] = []
    calendario: CalendarioFederal | None = None
    resumo = hashlib.sha256()
    for arquivo in sorted(textos):
        resumo.update(arquivo.encode() + b"\0" + textos[arquivo].encode() + b"\0")
        try:
            dados = (
                _ler_toml(arquivo, textos[arquivo]) if guardar else tomllib.loads(textos[arquivo])
            )
        except tomllib.TOMLDecodeError as erro:
            raise LegislacaoInvalida(f"{arquivo}: TOML inválido: {erro}") from None
        if arquivo == ARQUIVO_CALENDARIO:
            try:
                calendario = ler_calendario(dados, arquivo)
            except CalendarioInvalido as erro:
                raise LegislacaoInvalida(str(erro)) from None
            continue
        for i, linha in enumerate(dados.pop("prazos_comprovacao", [])):
            prazos.append(_ler_prazo(linha, f"{arquivo}: prazos_comprovacao[{i}]"))
        for nome, conteudo in dados.items():
            if nome in parametros:
                raise LegislacaoInvalida(f"{arquivo}: {nome} definido duas vezes")
            parametros[nome] = _ler_parametro(nome, conteudo, arquivo)
    _conferir_prazos(prazos)
    return Legislacao(
        _resolver_aliases(parametros), tuple(prazos), resumo.hexdigest()[:12], calendario
    )


def _resolver_aliases(parametros: dict[str, Parametro]) -> dict[str, Parametro]:
    """Give each alias the versions of the parameter it names (which must exist, not be an
    alias itself, and have the same unit)."""
    resolvidos = dict(parametros)
    for nome, parametro in parametros.items():
        if parametro.igual_a is None:
            continue
        onde = f"{parametro.arquivo}: {nome}"
        alvo = parametros.get(parametro.igual_a)
        if alvo is None or alvo.igual_a is not None:
            raise LegislacaoInvalida(
                f"{onde}: igual_a = {parametro.igual_a!r} não é um parâmetro com vigências"
            )
        if alvo.unidade != parametro.unidade:
            raise LegislacaoInvalida(
                f"{onde}: unidade '{parametro.unidade}' diferente da de {alvo.nome} "
                f"('{alvo.unidade}')"
            )
        resolvidos[nome] = dataclasses.replace(parametro, vigencias=alvo.vigencias)
    return resolvidos


def _conferir_prazos(prazos: list[PrazoComprovacao]) -> None:
    """The deadline table, like every dated table: rows in order of year, no year covered twice
    (the first match would silently hide the other), no year left out between two rows, and
    only the last row open-ended."""
    for i, (anterior, seguinte) in enumerate(itertools.pairwise(prazos)):
        onde = f"prazos_comprovacao[{i + 1}]"
        if anterior.ano_meta_fim is None or seguinte.ano_meta_inicio <= anterior.ano_meta_fim:
            raise LegislacaoInvalida(f"{onde}: anos fora de ordem ou sobrepostos")
        if seguinte.ano_meta_inicio != anterior.ano_meta_fim + 1:
            raise LegislacaoInvalida(
                f"{onde}: lacuna entre os anos {anterior.ano_meta_fim} e {seguinte.ano_meta_inicio}"
            )


#: a legislation folder read from the user's disk holds a few TOML files of some kilobytes
MAXIMO_PASTA = 64
MAXIMO_ARQUIVO = 4 * 1024 * 1024


def ler_pasta(pasta: Path) -> Legislacao:
    """A legislation from a folder of parameter files (``*.toml``), such as a copy of the
    shipped ``parametros`` before a change; bounded, and every error in pt-BR."""
    from multas.nucleo.erros import EntradaInvalida

    if not pasta.is_dir():
        raise EntradaInvalida(None, f"{pasta}: não é uma pasta")
    arquivos = sorted(p for p in pasta.iterdir() if p.name.endswith(".toml") and p.is_file())
    if not arquivos or len(arquivos) > MAXIMO_PASTA:
        raise EntradaInvalida(
            None, f"{pasta}: a pasta deve ter de 1 a {MAXIMO_PASTA} arquivos .toml da legislação"
        )
    textos: dict[str, str] = {}
    for arquivo in arquivos:
        if arquivo.stat().st_size > MAXIMO_ARQUIVO:
            raise EntradaInvalida(None, f"{arquivo.name}: arquivo grande demais")
        try:
            textos[arquivo.name] = arquivo.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise EntradaInvalida(None, f"{arquivo.name}: o arquivo não está em UTF-8") from None
    try:
        return ler_textos(textos)
    except LegislacaoInvalida as erro:
        raise EntradaInvalida(None, f"{pasta}: legislação inválida: {erro}") from None


@cache
def carregar() -> Legislacao:
    """The shipped legislation (read once per process)."""
    pasta: Any = Path(__file__).parent / "parametros"
    if not pasta.is_dir():  # installed inside a zip: through importlib (slower to import)
        from importlib import resources

        pasta = resources.files("multas.nucleo.legislacao") / "parametros"
    textos = {
        item.name: item.read_text(encoding="utf-8")
        for item in pasta.iterdir()
        if item.name.endswith(".toml")
    }
    return ler_textos(textos, guardar=True)


def _ler_toml(arquivo: str, texto: str) -> dict[str, Any]:
    """``tomllib.loads(texto)`` of a shipped parameter file, kept in the package's
    ``__pycache__`` as Python keeps a module's bytecode: parsing the five files costs about
    40 ms, a twentieth of a lifecycle command's start-up (issue 19), and loading the kept
    parse about 1 ms. What is kept is only the parse (plain data: no code, no validation),
    under the SHA-256 of the text and the Python version, so a changed file or interpreter
    parses afresh; the legislation built from it is validated as always. A cache that cannot
    be read or written is ignored."""
    import hashlib
    import pickle
    import sys
    import tomllib

    chave = hashlib.sha256(f"{sys.version}\0{texto}".encode()).hexdigest()
    guardado = Path(__file__).parent / "__pycache__" / f"parametros-{arquivo}.pickle"
    try:
        # trusted as the bytecode beside it: only the package's own folder is read
        conteudo = pickle.loads(guardado.read_bytes())
        if isinstance(conteudo, tuple) and len(conteudo) == 2 and conteudo[0] == chave:
            dados: dict[str, Any] = conteudo[1]
            return dados
    except Exception:  # a missing, stale or broken cache is parsed afresh
        pass
    dados = tomllib.loads(texto)
    temporario = guardado.with_suffix(f".{os.getpid()}.tmp")
    try:
        guardado.parent.mkdir(exist_ok=True)
        temporario.write_bytes(pickle.dumps((chave, dados), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(temporario, guardado)
    except OSError:  # not kept, and no temporary file left behind either
        with contextlib.suppress(OSError):
            temporario.unlink(missing_ok=True)
    return dados
