"""The processos file (issue 19, item 4): many stored processos at once, in and out, in one
format. ``multas processo importar`` / ``exportar``, ``POST /api/v1/processos/importar``,
``GET /api/v1/processos/exportar`` and the import on the page ``/processos`` all call this.

One row per event: ``referencia`` (the ANP's process number, the § 6 ``id``: ``id`` is read as
its other name, and it is stored as the processo's ``id``), ``tipo``, ``cnpj``, ``nome``,
``evento``, ``data`` and, optionally, ``valor_multa``, ``calendario``, ``dias_sem_expediente``
(the dates separated by spaces in a cell, a list in JSON Lines), ``caso_id``,
``vinculo_lista`` (an anp processo's link: the referencia of its ``renovabio.lista`` processo)
``valor`` (a pagamento's amount, spec § 6.2 v4: the event's own, not the processo's),
``parcelas``, ``valor_consolidado`` and ``parcelas_para_rescisao`` (a parcelamento's plan, the
event's own too), and the processo's readings and inputs (``prazo_alegacoes`` …
``encargo_legal_percentual``: blank is the default). A processo's
own fields repeat on each of its rows (the export writes them on all; a blank cell says
nothing). CSV, XLSX or JSON Lines, read by :func:`multas.nucleo.ciclo.planilha.ler_planilha` (the
bounded readers; every error says ``linha N, coluna X``).

Readings (also in ``docs/ciclo.md``):

- **The key** is ``referencia``, unique: the rows with one referencia are one processo, in the
  order of the file. A stored processo is found by its ``id`` (``123`` and ``"123"`` are one
  key, :func:`multas.servicos.persistencia.ciclo.chave_da_referencia`). One processo per reference
  (:func:`multas.servicos.persistencia.ciclo.referencia_em_uso`): a referencia that another client's
  processo holds (one the importer does not see) refuses the file, naming the line. A
  database written before that rule may hold two processos with one referencia: the file is
  refused, naming them; nothing is merged.
  A processo stored without an ``id`` is never found by an import.
- **Create or append**: a referencia no stored processo has creates one, with its rows'
  events in order (validated as :meth:`Ciclo.criar` does). For a stored one, a row identical
  to one of its events (same ``evento``, same ``data``, same ``valor``) is skipped and counted; the others are
  appended after its last event, in order, validated whole as :meth:`Ciclo.acrescentar` does.
- **Conflicts refuse the whole file**, naming the line: a row with the same event as a stored
  one on another date (an import never changes a stored event), a processo field (``tipo``,
  ``cnpj``, ``nome``, ``valor_multa``, ``calendario``, ``dias_sem_expediente``, ``caso_id``)
  other than the stored one or than another row of the same referencia, an order § 6 refuses.
- **Links** (``vinculo_lista``) point at a stored processo or at other rows of the file; they
  are made after the processos and events, in the same transaction, checked as
  :meth:`Ciclo.vincular` checks one (:func:`multas.servicos.vinculos.validar_vinculo`). A stored
  link identical to the row's is skipped and counted; any other conflict, and a referencia
  neither stored nor in the file, refuses the file naming the line. A blank cell never undoes
  a stored link.
- **All or nothing**: every row is read and every processo validated against what is stored
  inside one transaction (:meth:`RepositorioCiclo.importar_processos`), then all is written
  in it; one error writes nothing.
- **Export, then import, round-trips**: the export writes every stored processo in this
  format, oldest first, its events in order. A CSV cell that a spreadsheet would run as a
  formula gets an apostrophe in front (:func:`multas.saidas.exportacao.celula_reversivel`); the
  import takes it off (CSV, XLSX and pasted rows), so every text comes back as it was.
"""

from __future__ import annotations

import contextlib
import json
import pickle
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import partial
from typing import Any

from multas.nucleo.arquivos import SERVIDOR, Limites, Local
from multas.nucleo.ciclo.planilha import Colunas, Planilha, ler_planilha, sem_desconhecidas
from multas.nucleo.ciclo.processo import LEITURAS_PROCESSO
from multas.nucleo.contrato import Leitura, ler_datas
from multas.nucleo.datas import data_de_arquivo_ptbr, formatar_data, para_data
from multas.nucleo.dialeto import Dialeto
from multas.nucleo.dinheiro import normalizar_ptbr, para_decimal, para_json
from multas.nucleo.erros import Coleta, EntradaInvalida, ErrosDasLinhas, levantar, mostrar_valor
from multas.nucleo.eventos import TIPOS
from multas.saidas.exportacao import desfazer_celula
from multas.servicos.em_paralelo import em_paralelo
from multas.servicos.gestao import Ciclo, ler_valor_multa
from multas.servicos.persistencia import USUARIO_PADRAO
from multas.servicos.persistencia.ciclo import (
    LIMITE_ID,
    NovoProcesso,
    ProcessoArmazenado,
    chave_da_referencia,
)
from multas.servicos.persistencia.processos_em_lote import chaves_tomadas
from multas.servicos.persistencia.registros import RECURSOS, limite_da_coluna, validar_texto
from multas.servicos.vinculos import validar_vinculo

#: the readings of a processo besides the calendar (spec § 6.1 and § 6.2 v4), one column each
LEITURAS = tuple(LEITURAS_PROCESSO)
#: a parcelamento event's own columns (spec § 6.2 v4)
PLANO = ("parcelas", "valor_consolidado", "parcelas_para_rescisao")
#: the file's columns, in the export's order
COLUNAS = (
    "referencia",
    "tipo",
    "cnpj",
    "nome",
    "evento",
    "data",
    "valor_multa",
    "calendario",
    "dias_sem_expediente",
    "caso_id",
    "vinculo_lista",
    # spec § 6.2 v4: a pagamento's amount, the event's own (last, so that files written
    # before it read the same)
    "valor",
    # spec § 6.2 v4: a parcelamento's plan, the event's own too
    *PLANO,
    # the processo's readings and inputs besides the calendar (blank: the default), so that
    # an export imported again is the same processo (issue 35)
    *LEITURAS,
    "prescricao_penal_anos",
    "encargo_legal_percentual",
    "valor_minimo_parcela",
)
#: a row without one of these is refused
OBRIGATORIAS = ("referencia", "tipo", "evento", "data")
#: the processo's own fields: the same on every row of one referencia
DO_PROCESSO = (
    "tipo",
    "cnpj",
    "nome",
    "valor_multa",
    "calendario",
    "dias_sem_expediente",
    "caso_id",
    "vinculo_lista",
    *LEITURAS,
    "prescricao_penal_anos",
    "encargo_legal_percentual",
    "valor_minimo_parcela",
)
#: the other names a column is read by (§ 6 calls the referencia ``id``)
SINONIMOS = {"id": "referencia"}
FORMATOS = (".csv", ".xlsx", ".jsonl")
#: the codes, whose cells are read without the spaces around them
_CODIGOS = frozenset({"tipo", "evento", "calendario", "caso_id", *LEITURAS})
#: the texts, each checked as the database will keep it (their columns' sizes)
_TEXTOS = {
    "referencia": LIMITE_ID,
    "vinculo_lista": LIMITE_ID,
    **{
        nome: limite_da_coluna(RECURSOS["processos"], RECURSOS["processos"].colunas.c[nome])
        for nome in ("cnpj", "nome")
    },
}
_DICAS = {
    "referencia": ": a referência do processo (o nº do processo na ANP), a chave da importação",
    "tipo": f": {', '.join(TIPOS)}",
    "evento": ": o nome do evento",
    "data": ": a data do evento, AAAA-MM-DD",
}
#: the columns that hold a processo's referencia (its own, the linked list processo's)
_REFERENCIAS = frozenset({"referencia", "vinculo_lista"})
_EVENTO = re.compile(
    r"eventos\[(\d+)\](?:\.(evento|data|valor|parcelas|valor_consolidado|parcelas_para_rescisao))?"
)
#: a § 6 field → the file's column
_COLUNA_DO_CAMPO = {"id": "referencia", "interpretacao": "calendario", "eventos": "evento"}


@dataclass(frozen=True, slots=True)
class Linha:
    """One row read: one event of the processo ``chave``."""

    local: Local
    chave: str
    referencia: str | int
    evento: str
    data: date
    #: the processo's own fields the row gives (read: amounts as Decimal, days as a set)
    campos: dict[str, Any]
    #: spec § 6.2 v4: a pagamento's amount, as the contract writes it
    valor: str | None = None
    #: spec § 6.2 v4: a parcelamento's plan, its cells as read (§ 6 checks them)
    plano: tuple[tuple[str, Any], ...] = ()

    def como_evento(self) -> dict[str, Any]:
        evento: dict[str, Any] = {"evento": self.evento, "data": self.data.isoformat()}
        if self.valor is not None:
            evento["valor"] = self.valor
        evento.update(self.plano)
        return evento

    def extras(self) -> dict[str, Any] | None:
        """What the event carries besides its name and date."""
        extras = {c: v for c, v in self.como_evento().items() if c not in ("evento", "data")}
        return extras or None


@dataclass
class _Plano:
    """What the import found, for its summary."""

    iguais: int = 0
    vinculos_iguais: int = 0
    acrescimos: dict[int, list[tuple[str, date, str | None]]] = field(default_factory=dict)


def ler_arquivo(
    conteudo: bytes,
    nome_arquivo: str,
    ptbr: bool = False,
    limites: Limites = SERVIDOR,
    *,
    dialeto: Dialeto | None = None,
    mapa: Mapping[str, str] | None = None,
) -> Planilha:
    """The rows of a processos file (CSV, XLSX or JSON Lines), within ``limites``, read as
    every importer reads a table (docs/arquivos.md): the header row is the first naming the
    referencia or the CNPJ, ``mapa`` is ``--coluna``'s, ``dialeto`` the file's options."""
    extensao = nome_arquivo[nome_arquivo.rfind(".") :].lower() if "." in nome_arquivo else ""
    if extensao not in FORMATOS:
        raise EntradaInvalida(
            "arquivo",
            f"formato não aceito: {mostrar_valor(nome_arquivo)} (aceitos: {', '.join(FORMATOS)})",
        )
    colunas = colunas_do_arquivo(mapa)
    return ler_planilha(conteudo, nome_arquivo, ptbr, limites, dialeto=dialeto, colunas=colunas)


def colunas_do_arquivo(mapa: Mapping[str, str] | None = None) -> Colunas:
    """What the reader knows of a processos table: its columns, the header row the first
    naming the referencia or the CNPJ, and ``--coluna``'s ``mapa``."""
    return Colunas((*COLUNAS, *SINONIMOS), ("referencia", *SINONIMOS, "cnpj"), mapa or {})


# --- reading the rows -------------------------------------------------------------------------


def _valor(nome: str, bruto: object, leitura: Leitura) -> object:
    """A cell as read: blank is ``None``; in a table, the export's apostrophe comes off."""
    if not isinstance(bruto, str):
        return bruto
    if not bruto.strip():
        return None
    if nome in _CODIGOS:
        bruto = bruto.strip()
    return desfazer_celula(bruto) if leitura.tabela else bruto


def _desconhecida(local: Local) -> str:
    oque = "campo desconhecido" if local.chave == "campo" else "coluna desconhecida"
    return f"{oque} (aceitos: {', '.join(COLUNAS)}; id é o outro nome de referencia)"


def _celulas(bruta: object, local: Local, leitura: Leitura) -> dict[str, Any]:
    """The row's cells by column (blank ones left out), each column once."""
    if not isinstance(bruta, Mapping):
        raise local.erro("cada linha deve ser um objeto JSON: um evento de um processo")
    valores: dict[str, Any] = {}
    erros = []
    for chave, bruto in bruta.items():
        nome = SINONIMOS.get(str(chave), str(chave))
        if nome not in COLUNAS:
            erros.append(local.erro(_desconhecida(local), str(chave)))
            continue
        valor = _valor(nome, bruto, leitura)
        if valor is None:
            continue
        if nome in valores:
            erros.append(local.erro("informe um só: id e referencia são o mesmo campo", str(chave)))
        valores[nome] = valor
    erros += [
        local.erro(f"campo obrigatório{_DICAS[nome]}", nome)
        for nome in OBRIGATORIAS
        if nome not in valores
    ]
    levantar(erros)
    return valores


def _texto(valores: dict[str, Any], nome: str, local: Local) -> Any:
    valor = valores.get(nome)
    if valor is None:
        return None
    referencia = nome in _REFERENCIAS
    inteiro = referencia and isinstance(valor, int) and not isinstance(valor, bool)
    if inteiro:
        return valor
    if not isinstance(valor, str):
        tipo = "um texto ou um número inteiro" if referencia else "um texto"
        raise local.erro(f"deve ser {tipo}, não {mostrar_valor(valor)}", nome)
    try:
        return validar_texto(valor, nome, _TEXTOS[nome])
    except EntradaInvalida as erro:
        raise local.localizar(erro) from None


def _campos(
    valores: dict[str, Any], local: Local, leitura: Leitura, coleta: Coleta
) -> dict[str, Any]:
    """The processo's own fields of a row, read, for comparing rows and stored processos (a
    field's error kept in ``coleta``, the field left out)."""
    campos: dict[str, Any] = {}
    for nome in DO_PROCESSO:
        valor = valores.get(nome)
        if valor is None:
            continue
        with coleta.campo():
            campos[nome] = _campo(nome, valor, valores, local, leitura)
    return campos


def _campo(nome: str, valor: Any, valores: dict[str, Any], local: Local, leitura: Leitura) -> Any:
    """One of the processo's own fields of a row, read."""
    if nome in ("cnpj", "nome"):
        return _texto(valores, nome, local)
    if nome == "vinculo_lista":
        return chave_da_referencia(_texto(valores, nome, local))
    try:
        if nome in ("valor_multa", "valor_minimo_parcela"):
            valor = Decimal(str(ler_valor_multa(valor, nome, leitura)))
        elif nome == "encargo_legal_percentual":
            bruto = (
                normalizar_ptbr(valor)
                if leitura.decimal_virgula and isinstance(valor, str)
                else valor
            )
            valor = para_decimal(bruto, nome)
        elif nome == "prescricao_penal_anos" and isinstance(valor, str):
            valor = int(valor) if valor.strip().isascii() and valor.strip().isdigit() else valor
        elif nome == "dias_sem_expediente":
            valor = ler_datas(_datas_iso(valor, nome, leitura), nome)
    except EntradaInvalida as erro:
        raise _na_coluna(local, erro, nome) from None
    if nome == "caso_id" and isinstance(valor, str) and valor.isascii() and valor.isdigit():
        valor = int(valor) if len(valor) <= 19 else valor
    return valor


def _datas_iso(valor: object, nome: str, leitura: Leitura) -> object:
    """A pt-BR file's days (``dd/mm/aaaa`` as the pt-BR export writes them, or ISO, separated
    by spaces) as ISO, for :func:`ler_datas`."""
    if not (leitura.decimal_virgula and isinstance(valor, str)):
        return valor
    return " ".join(
        data_de_arquivo_ptbr(d, f"{nome}[{i}]").isoformat() for i, d in enumerate(valor.split())
    )


def _na_coluna(local: Local, erro: EntradaInvalida, coluna: str) -> EntradaInvalida:
    """An error about a field, said at the row's column (the field's own name kept when it is
    a place inside the column, as ``dias_sem_expediente[1]``)."""
    detalhe = f" ({erro.campo})" if erro.campo and "[" in erro.campo else ""
    return local.erro(f"{erro.mensagem}{detalhe}", coluna)


def ler_linha(bruta: object, local: Local, leitura: Leitura) -> Linha:
    """One row of the file, checked on its own (the processo is checked whole later): every
    error of the row at once, in the order the fields are read (issue 37, item 9)."""
    valores = _celulas(bruta, local, leitura)
    coleta = Coleta()
    referencia = dia = valor = None
    with coleta.campo():
        referencia = _texto(valores, "referencia", local)
    for nome in ("tipo", "evento"):
        if not isinstance(valores[nome], str):
            with coleta.campo():
                raise local.erro(f"deve ser um nome, não {mostrar_valor(valores[nome])}", nome)
    try:
        # --ptbr reads exactly what the pt-BR export writes (dd/mm/aaaa), and ISO; never the
        # typed forms (ddmmaaaa, d/m/aaaa): export and import are symmetric (docs/ciclo.md)
        ler = data_de_arquivo_ptbr if leitura.decimal_virgula else para_data
        dia = ler(valores["data"], "data")
    except EntradaInvalida as erro:
        coleta.erros.append(local.localizar(erro))
    campos = _campos(valores, local, leitura, coleta)
    if valores.get("valor") is not None:
        try:
            valor = para_json(Decimal(str(ler_valor_multa(valores["valor"], "valor", leitura))))
        except EntradaInvalida as erro:
            coleta.erros.append(_na_coluna(local, erro, "valor"))
    coleta.levantar()
    chave = chave_da_referencia(referencia)
    assert chave is not None and referencia is not None and dia is not None
    plano = tuple(
        (c, _do_plano(c, valores[c], leitura)) for c in PLANO if valores.get(c) is not None
    )
    return Linha(local, chave, referencia, valores["evento"], dia, campos, valor, plano)


def ler_linhas(planilha: Planilha) -> list[Linha]:
    """Every row of the file, each on its own; every error of every row raised together, in
    the file's order (at most :data:`~multas.nucleo.erros.MAXIMO_ERROS_DAS_LINHAS`)."""
    linhas = []
    erros = ErrosDasLinhas()
    for bruta, local in zip(planilha.linhas, planilha.locais, strict=True):
        try:
            linhas.append(ler_linha(bruta, local, planilha.leitura))
        except EntradaInvalida as erro:
            for um in erro.todos():
                erros.juntar(um)
    erros.levantar()
    return linhas


def _do_plano(campo: str, valor: Any, leitura: Leitura) -> Any:
    """A plan's cell: a count as an integer when it is digits, the amount in the contract's
    notation (§ 6 refuses anything else, naming the column)."""
    if campo == "valor_consolidado":
        if isinstance(valor, str) and leitura.decimal_virgula:
            return normalizar_ptbr(valor)
        return valor if isinstance(valor, str) else f"{valor}"
    if (
        isinstance(valor, str)
        and valor.strip().isascii()
        and valor.strip().isdigit()
        and len(valor.strip()) < 6
    ):
        return int(valor.strip())
    return valor


# --- one processo -----------------------------------------------------------------------------


def _mostrar(valor: object) -> str:
    if isinstance(valor, frozenset):
        return repr(" ".join(sorted(d.isoformat() for d in valor)))
    if isinstance(valor, Decimal):
        return f"{valor:f}"
    return repr(valor)


def dados_do_grupo(grupo: Sequence[Linha]) -> dict[str, tuple[Any, Linha]]:
    """The processo's own fields, each with the first row that gives it; a row that gives
    another value refuses the file, naming both lines."""
    dados: dict[str, tuple[Any, Linha]] = {}
    for linha in grupo:
        for nome, valor in linha.campos.items():
            if nome not in dados:
                dados[nome] = (valor, linha)
                continue
            primeiro, onde = dados[nome]
            if primeiro != valor:
                raise linha.local.erro(
                    f"a referência {mostrar_valor(linha.chave)} tem {nome} {_mostrar(primeiro)} na "
                    f"{onde.local} e {_mostrar(valor)} aqui: os dados de um processo são os "
                    "mesmos em todas as suas linhas",
                    nome,
                )
    return dados


def _no_arquivo(
    erro: EntradaInvalida,
    novas: Sequence[Linha],
    dados: Mapping[str, tuple[Any, Linha]],
    base: int = 0,
) -> EntradaInvalida:
    """A § 6 (or linked fine) error about a processo built from the rows ``novas`` (its events
    from ``base`` on), said at the row and column it comes from."""
    campo = erro.campo or ""
    evento = _EVENTO.fullmatch(campo)
    if evento is not None and 0 <= int(evento[1]) - base < len(novas):
        linha = novas[int(evento[1]) - base]
        return linha.local.erro(erro.mensagem, evento[2] or "evento")
    raiz = re.split(r"[.\[]", campo, maxsplit=1)[0]
    coluna = _COLUNA_DO_CAMPO.get(raiz, raiz)
    if raiz == "interpretacao" and campo.removeprefix("interpretacao.") in LEITURAS:
        coluna = campo.removeprefix("interpretacao.")  # a reading has its own column
    if coluna in COLUNAS:
        onde = dados[coluna][1] if coluna in dados else novas[0]
        return _na_coluna(onde.local, erro, coluna)
    return novas[0].local.erro(f"{campo}: {erro.mensagem}" if campo else erro.mensagem)


def _novo_livre(
    ciclo: Ciclo,
    grupo: Sequence[Linha],
    em_uso: Callable[[str], str | None],
    previsto: NovoProcesso | EntradaInvalida | None = None,
) -> NovoProcesso:
    """:func:`_novo` (``previsto``: its result, computed before), once no processo the
    importer cannot see (another client's) holds the reference: else the error names the
    group's first row."""
    if (ocupada := em_uso(grupo[0].chave)) is not None:
        raise grupo[0].local.erro(ocupada, "referencia")
    if isinstance(previsto, EntradaInvalida):
        raise previsto
    return _novo(ciclo, grupo) if previsto is None else previsto


def _previstos(
    ciclo: Ciclo, grupos: Mapping[str, list[Linha]], processos: int = 1
) -> dict[str, NovoProcesso | EntradaInvalida]:
    """What :func:`_novo` gives of each group whose reference no processo holds now: checked
    (§ 6 derives each) before the write takes the chain's lock, so that the other writers do
    not wait on the derivations. A reference taken or freed meanwhile is checked inside the
    write, as before. With ``processos`` > 1 (the command line's cores), the groups are
    derived in forked workers that read no database (the legislation and its Selic are read
    here first); a group that names a saved case (``caso_id``: its fine is read from the
    database) and a group a worker refuses are derived here, so every error is the one a
    single core gives."""
    with ciclo.repositorio.leitura() as sessao:
        tomadas = chaves_tomadas(sessao, grupos)
    livres = [chave for chave in grupos if chave not in tomadas]
    fixo = ciclo._com_a_selic_lida() if processos > 1 and len(livres) >= 2 * processos else None
    feitos: dict[str, NovoProcesso | None] = {}
    if fixo is not None:
        sem_banco = [c for c in livres if not any("caso_id" in g.campos for g in grupos[c])]
        fazer = partial(_previsto_em_bytes, fixo)
        em_bytes = em_paralelo(fazer, [grupos[c] for c in sem_banco], processos)
        feitos = dict(zip(sem_banco, map(pickle.loads, em_bytes), strict=True))
    previstos: dict[str, NovoProcesso | EntradaInvalida] = {}
    for chave in livres:
        if (pronto := feitos.get(chave)) is not None:
            previstos[chave] = pronto
            continue
        try:
            previstos[chave] = _novo(ciclo, grupos[chave])
        except EntradaInvalida as erro:
            previstos[chave] = erro
    return previstos


def _previsto_em_bytes(ciclo: Ciclo, grupo: Sequence[Linha]) -> bytes:
    """:func:`_novo` in a worker, pickled; ``None`` when it refuses the group (the parent
    derives it again, for the error itself: an :class:`EntradaInvalida` does not survive a
    pickle)."""
    try:
        return pickle.dumps(_novo(ciclo, grupo))
    except EntradaInvalida:
        return pickle.dumps(None)


def _novo(ciclo: Ciclo, grupo: Sequence[Linha]) -> NovoProcesso:
    """A processo to create: its rows checked as :meth:`Ciclo.criar` checks a processo."""
    dados = dados_do_grupo(grupo)
    processo: dict[str, Any] = {
        "id": grupo[0].referencia,
        "tipo": dados["tipo"][0],
        "eventos": [linha.como_evento() for linha in grupo],
    }
    for nome in ("cnpj", "nome", "caso_id"):
        if nome in dados:
            processo[nome] = dados[nome][0]
    if "valor_multa" in dados:
        processo["valor_multa"] = f"{dados['valor_multa'][0]:f}"
    if "calendario" in dados:
        processo["interpretacao"] = {"calendario": dados["calendario"][0]}
    leituras = {nome: dados[nome][0] for nome in LEITURAS if nome in dados}
    if leituras:
        processo["interpretacao"] = {**processo.get("interpretacao", {}), **leituras}
    if "prescricao_penal_anos" in dados:
        processo["prescricao_penal_anos"] = dados["prescricao_penal_anos"][0]
    if "encargo_legal_percentual" in dados:
        processo["encargo_legal_percentual"] = f"{dados['encargo_legal_percentual'][0]:f}"
    if "valor_minimo_parcela" in dados:
        processo["valor_minimo_parcela"] = f"{dados['valor_minimo_parcela'][0]:f}"
    if "dias_sem_expediente" in dados:
        processo["dias_sem_expediente"] = sorted(
            d.isoformat() for d in dados["dias_sem_expediente"][0]
        )
    try:
        campos = ciclo.preparar(processo)
    except EntradaInvalida as erro:
        raise _no_arquivo(erro, grupo, dados) from None
    return campos


def _normal(evento: dict[str, Any]) -> dict[str, Any]:
    """A row's event as a stored one reads (amounts with two places), to compare them."""
    normal = dict(evento)
    if isinstance(normal.get("valor_consolidado"), str):
        with contextlib.suppress(ArithmeticError):  # not a number: § 6 refuses it later
            normal["valor_consolidado"] = para_json(Decimal(normal["valor_consolidado"]))
    return normal


def _sem_documentos(evento: dict[str, Any]) -> dict[str, Any]:
    """A stored event as a row gives it: the file has no column for its documents (spec
    § 6.2 v4: they come as files, with the event), so a row is the same event without them."""
    evento.pop("documentos", None)
    return evento


def _guardado(salvo: ProcessoArmazenado, nome: str) -> Any:
    """A stored processo's own field, read as a row's is (for comparing them)."""
    if nome == "valor_multa":
        return None if salvo.valor_multa is None else Decimal(salvo.valor_multa)
    if nome == "dias_sem_expediente":
        return frozenset(date.fromisoformat(d) for d in salvo.dias_sem_expediente or ())
    if nome in (
        *LEITURAS,
        "prescricao_penal_anos",
        "encargo_legal_percentual",
        "valor_minimo_parcela",
    ):
        valor = _leitura_guardada(salvo, nome)
        if nome in ("encargo_legal_percentual", "valor_minimo_parcela") and valor is not None:
            return Decimal(str(valor))
        return valor
    return getattr(salvo, nome)


def _leitura_guardada(salvo: ProcessoArmazenado, nome: str) -> Any:
    """A stored processo's reading or input kept in ``leituras`` (``None``: the default)."""
    leituras = salvo.leituras if isinstance(salvo.leituras, Mapping) else {}
    if nome in LEITURAS:
        interpretacao = leituras.get("interpretacao")
        return interpretacao.get(nome) if isinstance(interpretacao, Mapping) else None
    return leituras.get(nome)


def _conferir_dados(salvo: ProcessoArmazenado, dados: Mapping[str, tuple[Any, Linha]]) -> None:
    """An import appends events; it never changes what a stored processo says of itself."""
    for nome, (valor, linha) in dados.items():
        if nome == "vinculo_lista":  # the link is checked when it is made (_vincular)
            continue
        guardado = _guardado(salvo, nome)
        if guardado != valor:
            raise linha.local.erro(
                f"o processo salvo nº {salvo.id} (referência {mostrar_valor(linha.chave)}) tem {nome} "
                f"{_mostrar(guardado)}, e esta linha diz {_mostrar(valor)}: a importação só "
                "acrescenta eventos, não altera os dados de um processo salvo",
                nome,
            )


def _acrescimo(
    ciclo: Ciclo, salvo: ProcessoArmazenado, grupo: Sequence[Linha]
) -> tuple[list[Linha], int]:
    """The rows to append to a stored processo, and how many were identical to its events."""
    dados = dados_do_grupo(grupo)
    _conferir_dados(salvo, dados)
    restantes = Counter(
        (e.evento, e.data, json.dumps(_sem_documentos(e.como_dict()), sort_keys=True))
        for e in salvo.eventos
    )
    datas = {e.evento: e.data for e in salvo.eventos}
    tipo = TIPOS.get(salvo.tipo)
    novas: list[Linha] = []
    for linha in grupo:
        igual = (linha.evento, linha.data, json.dumps(_normal(linha.como_evento()), sort_keys=True))
        if restantes[igual] > 0:
            restantes[igual] -= 1
            continue
        definicao = tipo.eventos.get(linha.evento) if tipo else None
        outra_data = linha.evento in datas and datas[linha.evento] != linha.data
        repetivel = definicao is not None and (definicao.suspensao or definicao.repete)
        if definicao is not None and not repetivel and outra_data:
            raise linha.local.erro(
                f"o processo salvo nº {salvo.id} (referência {mostrar_valor(linha.chave)}) já tem o evento "
                f"'{linha.evento}' em {formatar_data(datas[linha.evento])}, e esta linha diz "
                f"{formatar_data(linha.data)}: a importação não altera um evento salvo",
                "data",
            )
        novas.append(linha)
    if novas:
        base = len(salvo.eventos)
        try:
            ciclo.conferir_acrescimo(
                salvo,
                [(linha.evento, linha.data) for linha in novas],
                [n.extras() for n in novas],
            )
        except EntradaInvalida as erro:
            evento = _EVENTO.fullmatch(erro.campo or "")
            if evento is not None and int(evento[1]) < base:  # a stored event: the rules changed
                raise novas[0].local.erro(
                    f"o processo salvo nº {salvo.id} não é válido pelas regras de agora "
                    f"({erro.campo}: {erro.mensagem}); corrija-o antes de acrescentar eventos",
                    "referencia",
                ) from None
            raise _no_arquivo(erro, novas, dados, base) from None
    return novas, len(grupo) - len(novas)


# --- the whole file ---------------------------------------------------------------------------


def importar_processos(
    ciclo: Ciclo, planilha: Planilha, usuario: str = USUARIO_PADRAO, processos: int = 1
) -> dict[str, Any]:
    """Import a processos file (see the module's readings): all or nothing, in one
    transaction. Returns the summary: rows read, processos created, events appended, rows
    identical to a stored event (skipped), links made and links already stored (skipped), and
    the ids created and appended to. A table's columns that name no field of the file
    (:attr:`Planilha.desconhecidas`) are read past: a processo does not keep them. The new
    processos are checked before the write (:func:`_previstos`, in ``processos`` forked
    workers: only the command line asks for more than one)."""
    sem_desconhecidas(planilha)
    ciclo = ciclo.de_uma_vez()  # the file's processos derived under one Selic, read once
    linhas = ler_linhas(planilha)
    grupos: dict[str, list[Linha]] = {}
    for linha in linhas:
        grupos.setdefault(linha.chave, []).append(linha)
    # each anp referencia → (the list processo's referencia, the first row that names it)
    alvos = {
        chave: dados["vinculo_lista"]
        for chave, grupo in grupos.items()
        if "vinculo_lista" in (dados := dados_do_grupo(grupo))
    }
    plano = _Plano()
    previstos = _previstos(ciclo, grupos, processos)

    def planejar(
        existentes: Mapping[str, list[ProcessoArmazenado]],
        em_uso: Callable[[str], str | None],
    ) -> tuple[
        list[NovoProcesso],
        dict[int, list[tuple[str, date, str | None]]],
        dict[str, tuple[str, Linha]],
    ]:
        novos = []
        for chave, grupo in grupos.items():
            salvos = existentes.get(chave, [])
            if len(salvos) > 1:
                raise grupo[0].local.erro(
                    _ambigua(chave, salvos, "a qual acrescentar"), "referencia"
                )
            if not salvos:
                novos.append(_novo_livre(ciclo, grupo, em_uso, previstos.get(chave)))
                continue
            novas, iguais = _acrescimo(ciclo, salvos[0], grupo)
            plano.iguais += iguais
            if novas:
                plano.acrescimos[salvos[0].id] = [(n.evento, n.data, n.valor) for n in novas]
        vinculos: dict[str, tuple[str, Linha]] = {}
        for chave, (alvo, linha) in alvos.items():
            salvos = existentes.get(alvo, [])
            if alvo not in grupos and not salvos:
                raise linha.local.erro(
                    f"a referência {mostrar_valor(alvo)} não é de um processo salvo nem de uma linha deste "
                    "arquivo: o processo renovabio.lista vinculado deve existir",
                    "vinculo_lista",
                )
            if len(salvos) > 1:
                raise linha.local.erro(_ambigua(alvo, salvos, "a qual vincular"), "vinculo_lista")
            anp = existentes.get(chave, [])
            if anp and salvos and anp[0].lista_id == salvos[0].id:
                plano.vinculos_iguais += 1  # already linked so: nothing to write
                continue
            vinculos[chave] = (alvo, linha)
        return novos, plano.acrescimos, vinculos

    def conferir_vinculo(
        linha: Linha,
        anp: ProcessoArmazenado,
        lista: ProcessoArmazenado,
        ocupante: ProcessoArmazenado | None,
        ocultos: frozenset[int],
    ) -> None:
        envolvidos = (anp, lista) if ocupante is None else (anp, lista, ocupante)
        referencias = {
            p.id: p.identificador
            for p in envolvidos
            if p.identificador is not None and p.id not in ocultos
        }

        def nome(numero: int) -> str:
            if numero in referencias:
                return f"processo de referência {referencias[numero]}"
            return f"processo nº {numero}"

        try:
            validar_vinculo(
                anp, lista.id, lista, None if ocupante is None else ocupante.id, nome, ocultos
            )
        except EntradaInvalida as erro:
            coluna = "tipo" if erro.campo == "processo_id" else "vinculo_lista"
            raise linha.local.erro(erro.mensagem, coluna) from None

    chaves = list(grupos) + sorted({a for a, _ in alvos.values()} - set(grupos))
    criados, acrescidos, vinculados = ciclo.repo.importar_processos(
        chaves, planejar, usuario, conferir_vinculo
    )
    return {
        "linhas": len(linhas),
        "processos_criados": len(criados),
        "eventos_acrescentados": sum(len(e) for e in plano.acrescimos.values()),
        "linhas_iguais_puladas": plano.iguais,
        "vinculos_criados": vinculados,
        "vinculos_iguais_pulados": plano.vinculos_iguais,
        "criados": [p.id for p in criados],
        "acrescidos": [p.id for p in acrescidos],
    }


def _ambigua(chave: str, salvos: Sequence[ProcessoArmazenado], oque: str) -> str:
    numeros = ", ".join(str(s.id) for s in sorted(salvos, key=lambda s: s.id))
    return (
        f"a referência {mostrar_valor(chave)} está em {len(salvos)} processos salvos (nº {numeros}): a "
        f"importação não sabe {oque}; deixe cada referência em um só processo"
    )
