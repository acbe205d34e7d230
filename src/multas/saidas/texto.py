"""The § 6 output as pt-BR text (``multas prazos calcular --formato texto``), from the output
object itself, so a JSON Lines run and a single processo read the same."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.nucleo.cnpj import rotulo as rotulo_do_cnpj
from multas.nucleo.datas import data_com_dia_da_semana
from multas.nucleo.eventos import (
    ESTADOS_DERIVADOS,
    PREFIXO_PARCELA,
    ROTULOS_PRAZOS,
    SITUACOES,
    TIPOS,
    rotulo_do_prazo,
)


def data_por_extenso(iso: str) -> str:
    """``2024-04-29`` → ``29/04/2024 (segunda-feira)``."""
    return data_com_dia_da_semana(date.fromisoformat(iso))


def rotulo_estado(tipo: str, estado: str) -> str:
    """The estado in words (``aguardando_pagamento`` → ``aguardando pagamento``)."""
    if estado in ESTADOS_DERIVADOS:
        return ESTADOS_DERIVADOS[estado]
    for evento in TIPOS[tipo].eventos.values():
        if evento.estado == estado:
            return evento.estado_rotulo
    return estado


def como_texto(resultado: dict[str, Any]) -> str:
    """A readable report of one processo's deadlines.

    >>> print(como_texto({"tipo": "renovabio.balanco", "estado": "na_lista", "prazos": [],
    ...                   "avisos": []}), end="")
    Processo renovabio.balanco: Lista de balanço de biodiesel inconsistente (Decreto nº 9.888/2019, art. 9º-A)
    Estado: na lista (na_lista)
    <BLANKLINE>
    Prazos: nenhum por enquanto.
    """
    tipo = TIPOS[resultado["tipo"]]
    linhas = [f"Processo {tipo.nome}: {tipo.titulo}"]
    identificacao = [
        f"{rotulo}: {resultado[chave]}"
        for chave, rotulo in (("id", "id"), ("cnpj", "CNPJ"), ("nome", "nome"))
        if chave in resultado
    ]
    if identificacao:
        linhas.append(" · ".join(identificacao))
    if origem := resultado.get("origem"):  # spec § 6.3 v4: the fine it was opened for
        linhas.append(
            f"Origem: {origem['regime']}, meta de {origem['ano_meta']}, CNPJ {origem['cnpj']}"
        )
    linhas.append(
        f"Estado: {rotulo_estado(tipo.nome, resultado['estado'])} ({resultado['estado']})"
    )
    if "proxima_acao" in resultado:
        linhas.append(f"Próxima ação: {acao_texto(resultado['proxima_acao'])}")
    if devido := resultado.get("devido"):
        linhas += devido_texto(devido)
    linhas.append("")
    if not resultado["prazos"]:
        linhas.append("Prazos: nenhum por enquanto.")
    else:
        linhas.append("Prazos, por data:")
        for prazo in resultado["prazos"]:
            rotulo = (
                rotulo_do_prazo(prazo["prazo"])
                if prazo["prazo"].startswith(PREFIXO_PARCELA)
                else ROTULOS_PRAZOS.get(prazo["prazo"], prazo["prazo"])
            )
            linhas.append(f"  {data_por_extenso(prazo['data'])}  {rotulo} ({prazo['prazo']})")
            linhas.append(f"      Fundamento: {prazo['fundamento']}")
            linhas.append(f"      Contagem: {prazo['contagem']}")
    if resultado["avisos"]:
        linhas.append("")
        linhas.append("Avisos:")
        linhas.extend(f"  - {aviso}" for aviso in resultado["avisos"])
    return "\n".join(linhas) + "\n"


def devido_texto(devido: dict[str, Any]) -> list[str]:
    """Spec § 6.2 v4: what is owed on a date, its parts, the payments and the memória.

    >>> print("\\n".join(devido_texto({"em": "2024-10-01", "encargos": "lei-9847",
    ...     "imputacao": "encargos", "principal": "10000.00", "juros_mora": "0.00",
    ...     "multa_mora": "0.00", "desconto": "0.00", "pago": "0.00", "saldo": "10000.00",
    ...     "excedente": "0.00", "pagamentos": [], "memoria": []})))
    <BLANKLINE>
    Valor devido em 01/10/2024 (terça-feira): R$ 10.000,00
      Principal: R$ 10.000,00 · juros de mora: R$ 0,00 · multa de mora: R$ 0,00
      Leituras: encargos lei-9847, imputação encargos
    """
    from multas.nucleo.dinheiro import formatar_brl

    linhas = [
        "",
        f"Valor devido em {data_por_extenso(devido['em'])}: {formatar_brl(devido['saldo'])}",
        f"  Principal: {formatar_brl(devido['principal'])} · juros de mora: "
        f"{formatar_brl(devido['juros_mora'])} · multa de mora: {formatar_brl(devido['multa_mora'])}",
    ]
    if devido["desconto"] != "0.00":
        linhas.append(f"  Desconto: {formatar_brl(devido['desconto'])}")
    if devido["pagamentos"]:
        linhas.append(
            f"  Pago: {formatar_brl(devido['pago'])}"
            + (
                f" (excedente: {formatar_brl(devido['excedente'])})"
                if devido["excedente"] != "0.00"
                else ""
            )
        )
        for pagamento in devido["pagamentos"]:
            imputado = pagamento["imputado"]
            linhas.append(
                f"    {data_por_extenso(pagamento['data'])}  {formatar_brl(pagamento['valor'])}: "
                f"multa de mora {formatar_brl(imputado['multa_mora'])}, juros "
                f"{formatar_brl(imputado['juros_mora'])}, principal "
                f"{formatar_brl(imputado['principal'])}"
            )
    linhas.append(f"  Leituras: encargos {devido['encargos']}, imputação {devido['imputacao']}")
    if devido["memoria"]:
        linhas.append("  Memória de cálculo:")
        for passo in devido["memoria"]:
            valor = f": {passo['valor']}" if passo["valor"] is not None else ""
            linhas.append(f"    - {passo['descricao']}{valor} ({passo['fundamento']})")
    return linhas


def parcelamento_texto(simulacao: dict[str, Any]) -> str:
    """``multas parcelamento simular --formato texto``: the schedule, one line per instalment."""
    from multas.nucleo.dinheiro import formatar_brl

    linhas = [
        f"Parcelamento de {formatar_brl(simulacao['valor_consolidado'])} consolidado em "
        f"{data_por_extenso(simulacao['data_consolidacao'])}, em {simulacao['parcelas']} "
        "prestações mensais",
        "",
        "Nº   Vencimento                 Prestação        Juros no vencimento   Total",
    ]
    for p in simulacao["cronograma"]:
        juros = formatar_brl(p["juros"]) if p["juros"] is not None else "—"
        total = formatar_brl(p["valor_com_juros"]) if p["valor_com_juros"] is not None else "—"
        taxa = f" ({p['taxa_juros'].replace('.', ',')}%)" if p["taxa_juros"] is not None else ""
        linhas.append(
            f"{p['numero']:>3}  {data_por_extenso(p['vencimento']):<26} "
            f"{formatar_brl(p['valor']):>15}  {juros + taxa:>20}  {total:>15}"
        )
    linhas += ["", "Memória de cálculo:"]
    for passo in simulacao["memoria"]:
        valor = f": {passo['valor']}" if passo["valor"] is not None else ""
        linhas.append(f"  - {passo['descricao']}{valor} ({passo['fundamento']})")
    if simulacao["avisos"]:
        linhas += ["", "Avisos:"]
        linhas.extend(f"  - {aviso}" for aviso in simulacao["avisos"])
    return "\n".join(linhas) + "\n"


def acao_texto(acao: dict[str, Any] | None, atraso: int = 0) -> str:
    """A processo's next action (spec § 6.1 v4) in one line.

    >>> acao_texto({"quem": "anp", "o_que": "julgar", "desde": "2025-06-12",
    ...             "ate": "2025-07-14", "fundamento": "Decreto nº 2.953/1999, art. 17"}, 3)
    'ANP: julgar, desde 12/06/2025 (quinta-feira), até 14/07/2025 (segunda-feira), ATRASADA há 3 dias (Decreto nº 2.953/1999, art. 17)'
    >>> acao_texto(None)
    'nenhuma, nada resta a fazer'
    """
    from multas.nucleo.rotulos import rotulo_quem

    if acao is None:
        return "nenhuma, nada resta a fazer"
    prazo = f", até {data_por_extenso(acao['ate'])}" if acao["ate"] else ", sem prazo"
    if atraso:
        prazo += f", ATRASADA há {_dias(atraso)}"
    return (
        f"{rotulo_quem(acao['quem'])}: {acao['o_que']}, desde {data_por_extenso(acao['desde'])}"
        f"{prazo} ({acao['fundamento']})"
    )


def _documento_texto(documento: Any) -> str:
    """One document of an event (spec § 6.2 v4): its name, type, size and hash."""
    if not isinstance(documento, dict):
        return str(documento)
    return (
        f"{documento.get('nome')} ({documento.get('tipo')}, {documento.get('bytes')} bytes; "
        f"SHA-256 {documento.get('sha256')})"
    )


def detalhe_texto(detalhe: dict[str, Any]) -> str:
    """A stored processo, for ``multas processo mostrar --formato texto``."""
    from multas.nucleo.dinheiro import formatar_brl

    linhas = [f'Processo nº {detalhe["processo_id"]} (calendário "{detalhe["calendario"]}")']
    if detalhe.get("dias_sem_expediente") and not detalhe.get("erro"):
        datas = ", ".join(data_por_extenso(d) for d in detalhe["dias_sem_expediente"])
        linhas.append(f"Outros dias sem expediente: {datas}")
    if detalhe.get("valor_multa"):
        linhas.append(f"Multa fixada: {formatar_brl(detalhe['valor_multa'])}")
    if detalhe.get("vinculo"):
        vinculo = detalhe["vinculo"]
        linhas.append(f"Vinculado ao processo nº {vinculo['processo_id']} ({vinculo['tipo']})")
    linhas.append("")
    linhas.append("Eventos:")
    for evento in detalhe["eventos"]:
        valor = f": {formatar_brl(evento['valor'])}" if evento.get("valor") else ""
        linhas.append(
            f"  {data_por_extenso(evento['data'])}  {evento['rotulo']} ({evento['evento']}){valor}"
        )
        for documento in evento.get("documentos") or ():
            linhas.append(f"      documento: {_documento_texto(documento)}")
    linhas.append("")
    if detalhe.get("erro"):
        return "\n".join([*linhas, f"NÃO PÔDE SER AVALIADO: {detalhe['erro']}"]) + "\n"
    texto = "\n".join(linhas) + "\n" + como_texto(detalhe["resultado"])
    extras: list[str] = []
    if detalhe["informacoes"]:
        extras.append("")
        extras.append("Informações (não são prazos):")
        for info in detalhe["informacoes"]:
            quando = f"{data_por_extenso(info['data'])}: " if info.get("data") else ""
            extras.append(f"  - {quando}{info['descricao']} — {info['fundamento']}")
    multa = detalhe.get("multa")
    if multa and multa.get("erro"):
        extras += ["", f"{multa['descricao']}: NÃO MOSTRADA. {multa['erro']}"]
    elif multa:
        extras.append("")
        resultado = multa["resultado"]
        extras.append(
            f"{multa['descricao']}: {formatar_brl(resultado['valor'])} ({resultado['fundamento']})"
        )
    if detalhe["eventos_possiveis"]:
        extras.append("")
        extras.append(
            "Próximos eventos aceitos: "
            + ", ".join(e["evento"] for e in detalhe["eventos_possiveis"])
        )
    return texto + ("\n".join(extras) + "\n" if extras else "")


def decisao_texto(resultado: dict[str, Any]) -> str:
    """The first-instance decision entered for a linked pair, for ``multas processo decisao
    --formato texto``: what went where, the avisos, and the two processos."""
    linhas = [
        f"Decisão de primeira instância: processo anp nº {resultado['processo_anp']}, processo "
        f"renovabio.lista nº {resultado['processo_lista']}"
    ]
    for evento in resultado["eventos"]:
        feito = "acrescentado" if evento["acrescentado"] else "já registrado"
        linhas.append(
            f"  processo nº {evento['processo_id']}: {evento['evento']} em "
            f"{data_por_extenso(evento['data'])} ({feito})"
        )
    if resultado["avisos"]:
        linhas.append("Avisos:")
        linhas.extend(f"  - {aviso}" for aviso in resultado["avisos"])
    partes = ["\n".join(linhas) + "\n"]
    partes += [detalhe_texto(detalhe) for detalhe in resultado["processos"]]
    return "\n".join(partes)


def _dias(n: int) -> str:
    return f"{n} dia{'s' if n != 1 else ''}"


def situacao_da_pendencia(item: dict[str, Any]) -> str:
    """A queue item's situação in words, with its days late or left.

    >>> situacao_da_pendencia({"situacao": "vencido", "dias_de_atraso": 1})
    'VENCIDO há 1 dia'
    >>> situacao_da_pendencia({"situacao": "em_aberto", "dias_restantes": 0})
    'em aberto, vence hoje'
    >>> situacao_da_pendencia({"situacao": "suspenso", "dias_restantes": 3})
    'suspenso por ordem judicial, a data é daqui a 3 dias'
    """
    situacao: str = item["situacao"]
    if situacao == "vencido":
        return f"VENCIDO há {_dias(item['dias_de_atraso'])}"
    restantes = item["dias_restantes"]
    if situacao == "em_aberto":
        return (
            "em aberto, vence hoje" if restantes == 0 else f"em aberto, faltam {_dias(restantes)}"
        )
    quando = "a data é hoje" if restantes == 0 else f"a data é daqui a {_dias(restantes)}"
    if situacao == "suspenso":
        return f"suspenso por ordem judicial, {quando}"
    return SITUACOES.get(situacao, situacao)


def pendencias_texto(fila: dict[str, Any]) -> str:
    """The work queue (``multas pendencias``, ``multas prazos proximos``) in pt-BR."""
    filtros = fila["filtros"]
    linhas = [
        f"Pendências em {data_por_extenso(fila['data_referencia'])}: os prazos vencidos e os "
        f"que vencem em {_dias(fila['dias'])}, até {data_por_extenso(fila['ate'])}"
    ]
    aplicados = [
        texto
        for valor, texto in (
            (filtros["responsavel"], f"age: {filtros['responsavel']}"),
            (filtros["cnpj"], f"CNPJ {filtros['cnpj']}"),
            (filtros["estado"], f"estado {filtros['estado']}"),
            (not filtros["prescritos"], "sem os processos prescritos"),
            (not filtros["vencidos"], "sem os vencidos"),
            (filtros["todos"], "com os já cumpridos ou encerrados"),
        )
        if valor
    ]
    if aplicados:
        linhas.append("Filtros: " + " · ".join(aplicados))
    linhas.append("")
    acoes = fila.get("acoes", [])
    if acoes:
        linhas.append(f"Próximas ações, uma por processo ({len(acoes)}), a mais urgente primeiro:")
        for acao in acoes:
            estado = rotulo_estado(acao["tipo"], acao["estado"])
            linhas.append(f"  {acao_texto(acao, acao['dias_de_atraso'])}")
            linhas.append(
                f"      processo {acao['processo_id']} ({acao['tipo']}, {estado}) "
                f"{quem_e(acao)}".rstrip()
            )
        linhas.append("")
        linhas.append("Prazos:")
    if not fila["prazos"]:
        linhas.append("Nenhuma pendência.")
    for item in fila["prazos"]:
        quem = quem_e(item)
        if item.get("erro"):
            linhas.append(
                f"  ERRO  processo {item['processo_id']} ({item['tipo'] or '?'}) {quem}".rstrip()
                + ": não pôde ser lido, os seus prazos não são mostrados"
            )
            linhas.append(f"      {item['erro']}")
            continue
        estado = rotulo_estado(item["tipo"], item["estado"])
        linhas.append(
            f"  {situacao_da_pendencia(item)}: {data_por_extenso(item['data'])}  "
            f"{item['rotulo']} ({item['prazo']})"
        )
        linhas.append(
            f"      age: {item['responsavel']} · processo {item['processo_id']} "
            f"({item['tipo']}, {estado}) {quem}".rstrip()
        )
        linhas.append(f"      {item['fundamento']}")
    ocultos = fila.get("prescritos_ocultos", 0)
    if ocultos:
        linhas.append("")
        linhas.append(
            f"{ocultos} prazo{'s' if ocultos != 1 else ''} de processos prescritos "
            f"oculto{'s' if ocultos != 1 else ''} (--prescritos para mostrar)."
        )
    return "\n".join(linhas) + "\n"


def carteira_texto(carteira: dict[str, Any]) -> str:
    """A distributor's ledger as a pt-BR table."""
    from multas.nucleo.dinheiro import formatar_brl
    from multas.nucleo.dinheiro import formatar_numero as n

    cnpj = rotulo_do_cnpj(carteira["cnpj"])
    titulo = f"Carteira de {carteira['nome'] or cnpj} (CNPJ {cnpj})"
    linhas = [
        titulo,
        "",
        f"{'Ano':<5} {'Meta':>12} {'+ anterior':>12} {'Total':>12} {'Aposentados':>12} "
        f"{'Falta':>10} {'Diferidos':>10} {'Multa':>20}",
    ]
    for ano in carteira["anos"]:
        multa = formatar_brl(ano["multa"]) if ano["multa"] is not None else "—"
        linhas.append(
            f"{ano['ano']:<5} {n(ano['meta_cbios']):>12} {n(ano['acrescimo_ano_anterior']):>12} "
            f"{n(ano['meta_total']):>12} {n(ano['cbios_aposentados']):>12} "
            f"{n(ano['deficit']):>10} {n(ano['cbios_diferidos']):>10} {multa:>20}"
            + ("  projeção" if ano.get("projecao") else "")
        )
        if ano.get("projecao"):
            prazo = ano["prazo_comprovacao"]
            ate = f"o prazo de comprovação ({data_por_extenso(prazo)})" if prazo else "o ano"
            linhas.append(
                f"      projeção: {ate} ainda não passou; os números deste ano podem mudar"
            )
        for aviso in ano["avisos"]:
            linhas.append(f"      aviso: {aviso}")
        if ano["comprovacoes_parciais"]:
            datas = " e ".join(data_por_extenso(d) for d in ano["comprovacoes_parciais"]["datas"])
            linhas.append(f"      comprovações parciais (informação): {datas}")
    total = formatar_brl(carteira["total_multas"]) if carteira["total_multas"] else "—"
    linhas += [
        "",
        f"Total das multas: {total}",
        f"A falta de um ano soma-se à meta do seguinte: {carteira['fundamento_acrescimo']}",
        f"Diferimento de parte da falta para o ano seguinte: {carteira['fundamento_diferimento']}",
    ]
    return "\n".join(linhas) + "\n"


def quem_e(registro: dict[str, Any]) -> str:
    """Who a stored record is about, in a listing: its name, else its CNPJ (formatted, and
    flagged when its check digits are wrong: :func:`multas.nucleo.cnpj.rotulo`), else its ``id``.

    >>> quem_e({"nome": None, "cnpj": "11222333000180", "id": "48610.1/2025"})
    '11.222.333/0001-80 (dígitos verificadores não conferem)'
    """
    if registro.get("nome"):
        return str(registro["nome"])
    if registro.get("cnpj"):
        return rotulo_do_cnpj(str(registro["cnpj"]))
    return str(registro.get("id") or "")
