"""The records of every stored table, made through the system (issue 15): one maker per table
(:data:`FABRICAS`), the row as stored, how a user deletes a record, and actions run at once in
threads. The hostile suite (tests/persistencia/test_recusas.py) and the bin's
(tests/persistencia/test_lixeira.py) use them; the ``banco`` fixture is in
tests/fixtures/registros.py."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from multas.nucleo.cnpj import normalizar
from multas.nucleo.erros import EntradaInvalida
from multas.servicos import documentos
from multas.servicos.documentos import anexo
from multas.servicos.gestao import Ciclo, NaoEncontrado
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servicos.persistencia.registros import RECURSOS
from tests.utils import cnpj_valido
from tests.utils.casos import ENTRADA, salvar

CNPJ = "12.345.678/0001-95"


@dataclass
class Banco:
    repo: Repositorio
    ciclo: Ciclo
    acesso: Acesso
    contador: Iterator[int]


@dataclass
class Feito:
    """A record made through the system, and the user-facing read that shows it: it returns
    what it shows, ``None`` when the record is refused or not found, or raises
    :class:`RegistroAlterado`."""

    id: int
    ler: Callable[[], object]


def _id_de(banco: Banco, tabela: str, **onde: Any) -> int:
    colunas = RECURSOS[tabela].colunas
    consulta = select(func.max(colunas.c.id))
    for nome, valor in onde.items():
        consulta = consulta.where(colunas.c[nome] == valor)
    with banco.repo.leitura() as sessao:
        return int(sessao.scalar(consulta))


def fazer_caso(banco: Banco, outro: bool = False) -> Feito:
    caso_id = salvar(banco.repo, ENTRADA, f"ana{next(banco.contador)}")
    return Feito(caso_id, lambda: banco.repo.obter(caso_id))


def fazer_idempotencia(banco: Banco, outro: bool = False) -> Feito:
    from multas import __version__, calcular
    from multas.nucleo.json_exato import ler_json
    from multas.nucleo.legislacao import carregar

    resultado = calcular(ler_json(ENTRADA))
    campos = {
        "regime": resultado["regime"],
        "entrada": ENTRADA,
        "resultado": resultado,
        "versao_motor": __version__,
        "versao_legislacao": carregar().versao,
    }
    chave = f"pedido-{next(banco.contador)}"
    banco.repo.salvar_uma_vez(chave, "c" * 64, "ana", **campos)

    def ler() -> object:
        caso, repetido = banco.repo.salvar_uma_vez(chave, "c" * 64, "ana", **campos)
        return caso if repetido else None  # a replay that found nothing is no replay

    return Feito(_id_de(banco, "idempotencia", chave=chave), ler)


def fazer_processo(banco: Banco, outro: bool = False) -> Feito:
    n = next(banco.contador)
    dados = {
        "tipo": "anp",
        "id": f"48610.{n:06d}/2024-11",
        "cnpj": CNPJ,
        "nome": f"Posto {n}",
        "valor_multa": "1000.00",
        "origem": {"regime": "renovabio.distribuidor", "ano_meta": 2023 + n % 2, "cnpj": CNPJ},
        "dias_sem_expediente": ["2024-02-06"] if outro else ["2024-02-05", "2024-02-07"],
        "prescricao_penal_anos": 4 if outro else 8,
        "interpretacao": {"interrupcao_penal": "nenhuma" if outro else "lei-9873"},
        "caso_id": salvar(banco.repo, ENTRADA, "ana"),
        "eventos": [
            {"evento": "infracao", "data": "2024-01-02"},
            {"evento": "auto_infracao", "data": "2024-02-01"},
            {"evento": "ciencia_primeira_instancia", "data": "2024-06-03"},
            {"evento": "renuncia_recurso", "data": "2024-06-05"},
            # every column filled: a payment's valor (spec § 6.2 v4, migration r0015) and a
            # parcelamento's plan (r0016), the last event
            {"evento": "pagamento", "data": "2024-06-10", "valor": "100.00"},
            {"evento": "inscricao_divida_ativa", "data": "2024-07-10"},
        ][: 1 if outro else 6],
    }
    processo_id = banco.ciclo.criar(dados).armazenado.id
    if not outro:  # the last event: a parcelamento's plan (r0016) and a document (r0017)
        banco.ciclo.acrescentar(
            processo_id,
            {
                "evento": "parcelamento",
                "data": "2024-07-31",
                "parcelas": 12,
                "valor_consolidado": "1000.00",
            },
            "ana",
            [anexo("termo.pdf", b"%PDF-1.4 termo de parcelamento " + str(n).encode())],
        )
    return Feito(processo_id, lambda: _ou_nada(lambda: banco.ciclo.obter(processo_id)))


def fazer_evento(banco: Banco, outro: bool = False) -> Feito:
    """The last event of a processo (of its only one, for the ``outro`` record, so that an
    event moved to the other processo breaks no unique constraint)."""
    processo = fazer_processo(banco, outro)
    evento_id = _id_de(banco, "processo_eventos", processo_id=processo.id)
    return Feito(evento_id, processo.ler)


def fazer_ano(banco: Banco, outro: bool = False) -> Feito:
    cnpj = cnpj_valido(f"{next(banco.contador):02d}345678")
    banco.ciclo.salvar_ano(
        {
            "cnpj": cnpj,
            "nome": "Distribuidora",
            "ano": 2024,
            "meta_cbios": 1000,
            "cbios_aposentados": 900,
            "meta_anterior_cumprida": True,
            "maior_media_mensal": "71.70",
        }
    )
    return Feito(
        # the ledger's key is the normalised CNPJ (migration r0008)
        _id_de(banco, "carteira_anos", cnpj=normalizar(cnpj)),
        lambda: _ou_nada(lambda: banco.ciclo.carteira(cnpj)),
    )


def fazer_usuario(banco: Banco, outro: bool = False) -> Feito:
    nome = f"usuaria{next(banco.contador)}"
    token = banco.acesso.criar(nome, "analista", "senha-bem-longa", "admin")
    return Feito(_id_de(banco, "usuarios", nome=nome), lambda: Acesso(banco.repo).por_token(token))


def fazer_token(banco: Banco, outro: bool = False) -> Feito:
    nome = f"usuaria{next(banco.contador)}"
    token = banco.acesso.criar(nome, "analista", None, "admin")
    prefixo = token.removeprefix("mlt_").partition(".")[0]
    return Feito(
        _id_de(banco, "tokens", prefixo=prefixo), lambda: Acesso(banco.repo).por_token(token)
    )


def fazer_sessao(banco: Banco, outro: bool = False) -> Feito:
    nome = f"usuaria{next(banco.contador)}"
    banco.acesso.criar(nome, "admin", "senha-bem-longa", "admin")
    quem = banco.acesso.por_senha(nome, "senha-bem-longa")
    assert quem is not None
    identificador = banco.acesso.abrir_sessao(quem)
    assert identificador is not None
    return Feito(_id_de(banco, "sessoes"), lambda: Acesso(banco.repo).por_sessao(identificador))


def fazer_feed(banco: Banco, outro: bool = False) -> Feito:
    nome = f"usuaria{next(banco.contador)}"
    banco.acesso.criar(nome, "leitura", None, "admin")
    token = banco.acesso.criar_feed(nome)
    usuario_id = _id_de(banco, "usuarios", nome=nome)
    return Feito(
        _id_de(banco, "feeds", usuario_id=usuario_id), lambda: Acesso(banco.repo).por_feed(token)
    )


def fazer_carga(banco: Banco, outro: bool = False) -> Feito:
    """An import in parts: two distributors, one part each (the ledger of the first shows it)."""
    from multas.servicos.persistencia import carteira

    cnpjs = [cnpj_valido(f"{next(banco.contador):02d}345678") for _ in range(2)]
    linhas = [
        {"cnpj": cnpj, "ano": 2024, "meta_cbios": 1000, "cbios_aposentados": 900} for cnpj in cnpjs
    ]
    antes, carteira.LINHAS_POR_PARTE = carteira.LINHAS_POR_PARTE, 1
    try:
        banco.ciclo.importar(linhas)
    finally:
        carteira.LINHAS_POR_PARTE = antes
    return Feito(_id_de(banco, "cargas"), lambda: _ou_nada(lambda: banco.ciclo.carteira(cnpjs[0])))


def fazer_mes_selic(banco: Banco, outro: bool = False) -> Feito:
    """The month after the series' last, added from a Banco Central CSV (the calculations'
    read shows it)."""
    from multas.nucleo.legislacao.selic import indice, texto_do_mes
    from multas.servicos import selic

    mes = texto_do_mes(indice(selic.serie_atual(banco.repo).ultimo) + 1)
    taxa = f"0,{next(banco.contador) % 100:02d}"
    conteudo = f'"data";"valor"\n"01/{mes[5:]}/{mes[:4]}";"{taxa}"\n'.encode()
    selic.atualizar(banco.repo, conteudo, "bcdata.sgs.4390.csv", "ana")
    return Feito(
        _id_de(banco, "selic_meses", mes=mes), lambda: selic.serie_atual(banco.repo).get(mes)
    )


def fazer_documento(banco: Banco, outro: bool = False) -> Feito:
    """A document's content, stored with the event that carries it (the download shows it)."""
    processo = fazer_processo(banco)
    armazenado = banco.ciclo.repo.obter_processo(processo.id)
    assert armazenado is not None
    sha = armazenado.eventos[-1].documentos[0]["sha256"]
    return Feito(
        _id_de(banco, "documentos", sha256=sha),
        lambda: _ou_nada(lambda: documentos.ler(banco.repo, processo.id, sha)),
    )


def _ou_nada(ler: Callable[[], object]) -> object:
    try:
        return ler()
    except (NaoEncontrado, documentos.DocumentoNaoEncontrado):
        return None


#: how each table's records are made, through the system (one per table: the hostile suite
#: fails for a table without one)
FABRICAS: dict[str, Callable[..., Feito]] = {
    "casos": fazer_caso,
    "idempotencia": fazer_idempotencia,
    "processos": fazer_processo,
    "processo_eventos": fazer_evento,
    "carteira_anos": fazer_ano,
    "usuarios": fazer_usuario,
    "tokens": fazer_token,
    "sessoes": fazer_sessao,
    "feeds": fazer_feed,
    "cargas": fazer_carga,
    "selic_meses": fazer_mes_selic,
    "documentos": fazer_documento,
}


def linha_do_registro(banco: Banco, tabela: str, registro_id: int) -> dict[str, Any]:
    colunas = RECURSOS[tabela].colunas
    with banco.repo.engine.connect() as conexao:
        return dict(
            conexao.execute(select(colunas).where(colunas.c.id == registro_id)).mappings().one()
        )


def como_excluir(banco: Banco, tabela: str, feito: Feito) -> Callable[[], bool]:
    """How a user deletes a record of this table: ``True`` when this call deleted it."""
    if tabela == "casos":
        return lambda: banco.repo.excluir(feito.id, "ana")
    if tabela == "processos":
        return lambda: banco.ciclo.repo.excluir_processo(feito.id, "ana")
    if tabela == "carteira_anos":
        linha = linha_do_registro(banco, tabela, feito.id)
        return lambda: banco.ciclo.repo.excluir_ano(linha["cnpj"], linha["ano"], "ana")
    if tabela == "processo_eventos":
        linha = linha_do_registro(banco, tabela, feito.id)
        return lambda: _desfazer(banco, linha["processo_id"], linha["evento"])
    if tabela == "sessoes":
        return lambda: _fechar_sessao(banco, feito.id)
    raise AssertionError(tabela)


def _desfazer(banco: Banco, processo_id: int, evento: str) -> bool:
    """Undo this event (``DELETE .../eventos/ultimo?evento=``): refused once it is gone."""
    try:
        banco.ciclo.remover_ultimo_evento(processo_id, "ana", esperado=evento)
    except EntradaInvalida:
        return False
    return True


def _fechar_sessao(banco: Banco, sessao_id: int) -> bool:
    from multas.servicos.persistencia.modelos import Sessao

    with banco.repo.escrita("ana") as escrita:
        return escrita.excluir(Sessao, sessao_id, "sessao_fechar") is not None


def ao_mesmo_tempo(acoes: list[Callable[[], object]]) -> list[object]:
    """Run the actions in threads released together: each one's result, or its exception."""
    barreira = threading.Barrier(len(acoes))
    saidas: list[object] = [None] * len(acoes)

    def rodar(i: int) -> None:
        barreira.wait()
        try:
            saidas[i] = acoes[i]()
        except Exception as erro:
            saidas[i] = erro

    linhas = [threading.Thread(target=rodar, args=(i,)) for i in range(len(acoes))]
    for linha in linhas:
        linha.start()
    for linha in linhas:
        linha.join()
    return saidas
