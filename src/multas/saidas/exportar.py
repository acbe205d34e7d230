"""The lists as CSV and PDF, the work queue as CSV, and the deadlines as an iCalendar file
(``.ics``).

The CSV is written by :mod:`multas.saidas.exportacao` (plain or pt-BR; a cell that a spreadsheet
would read as a formula gets a leading apostrophe: a name typed as ``=HYPERLINK(...)`` stays
text). The PDF uses
the report's embedded font (:mod:`multas.saidas.relatorio.pdf`). The calendar is built with the
``icalendar`` library: one all-day event per deadline, its provision and counting in the
description (control characters and bidi controls of a name written as visible escapes,
:func:`multas.nucleo.visivel.texto_visivel`); a deadline on 31/12/9999 has no ``DTEND`` (the next day cannot be written), which
RFC 5545 § 3.6.1 reads as the same one day. Each deadline still open (neither overdue nor
already met) carries reminders (``VALARM``): :data:`LEMBRETES_DIAS` days before it, at
:data:`HORA_DO_LEMBRETE` o'clock in the calendar's own time (docs/ciclo.md, "Calendário").
"""

from __future__ import annotations

import io
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from multas.nucleo.ciclo.pendencias import CAMPOS_ITEM
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import formatar_brl
from multas.nucleo.rotulos import prazo_citado
from multas.nucleo.visivel import texto_visivel
from multas.saidas.exportacao import FORMATO_DINHEIRO, Notacao, celula_xlsx, csv_texto, data_iso
from multas.saidas.relatorio import horario_brasilia

#: the calendar's reminders of an open deadline: how many days before it (one VALARM each)...
LEMBRETES_DIAS: tuple[int, ...] = (7, 1)
#: ...and at what hour of that day (floating: the hour of whoever reads the calendar)
HORA_DO_LEMBRETE = 9

#: the columns of each list (key, header)
COLUNAS: dict[str, tuple[tuple[str, str], ...]] = {
    "sancoes": (
        ("cnpj", "CNPJ"),
        ("nome", "Nome"),
        ("data_inclusao", "Incluído em"),
        ("fim_prazo_meta", "Prazo da meta não cumprido"),
        ("quitacao_meta", "Meta quitada em"),
        ("pedido_retirada", "Retirada pedida em"),
        ("prazo_retirada", "Prazo da ANP para retirar"),
        ("processo_id", "Processo"),
    ),
    "balanco": (
        ("cnpj", "CNPJ"),
        ("nome", "Nome"),
        ("data_inclusao", "Incluído em"),
        ("comprovacao_adequacao", "Adequação comprovada em"),
        ("prazo_retirada", "Prazo da ANP para retirar"),
        ("processo_id", "Processo"),
    ),
    "encaminhamento": (
        ("cnpj", "CNPJ"),
        ("nome", "Nome"),
        ("fim_prazo_meta", "Meta não comprovada na data de"),
        ("quitacao_meta", "Meta quitada depois, em"),
        ("processo_id", "Processo"),
    ),
}


def lista_csv(lista: dict[str, Any], ptbr: bool = False) -> str:
    """One list as CSV (UTF-8 text; comma-separated, dates ISO, or with ``ptbr`` ``;`` and
    dates dd/mm/aaaa: :mod:`multas.saidas.exportacao`)."""
    colunas = COLUNAS[lista["lista"]]
    return csv_texto(
        [titulo for _, titulo in colunas],
        (
            [
                data_iso(item.get(chave)) if chave in COLUNAS_DATA else item.get(chave)
                for chave, _ in colunas
            ]
            for item in lista["itens"]
        ),
        Notacao(ptbr),
    )


def pendencias_csv(fila: dict[str, Any], ptbr: bool = False) -> str:
    """The work queue as CSV (UTF-8 text; comma-separated, dates ISO, or pt-BR as
    :func:`lista_csv`): one row per item, the keys of the JSON as the header (the counting,
    long, stays in the JSON); a processo that cannot be read has its ``erro`` and empty cells
    where its deadline would be; a yes/no is ``sim``/``não``."""
    colunas = [c for c in CAMPOS_ITEM if c != "contagem"]
    return csv_texto(
        colunas,
        ([_celula_da_fila(c, item.get(c)) for c in colunas] for item in fila["prazos"]),
        Notacao(ptbr),
    )


def _celula_da_fila(coluna: str, valor: object) -> object:
    """A date as a ``date`` and the balance (spec § 6.2 v4) as a ``Decimal``, so that the
    notation writes them; anything else as it is."""
    if coluna == "data":
        return data_iso(valor)
    if coluna == "saldo" and isinstance(valor, str):
        return Decimal(valor)
    return valor


#: the columns that hold a date (ISO, written by :mod:`multas.servicos.gestao`); every other cell
#: is text, whatever it looks like (a name "Post-Bom12" or "2025-01-01" stays as typed)
COLUNAS_DATA = frozenset(
    {
        "data_inclusao",
        "fim_prazo_meta",
        "quitacao_meta",
        "pedido_retirada",
        "prazo_retirada",
        "comprovacao_adequacao",
    }
)


#: the PDF's column widths, relative (a date column is 1.6)
_PESOS_COLUNAS = {"cnpj": 2.4, "nome": 4.0, "processo_id": 1.0}


def _celula_pdf(chave: str, valor: object) -> str:
    if valor is None:
        return "—"
    if chave in COLUNAS_DATA and isinstance(valor, str):
        return formatar_data(date.fromisoformat(valor))
    return str(valor)


def lista_pdf(lista: dict[str, Any], gerado_em: datetime) -> bytes:
    """One list as a PDF: the title, the date, the provision (quoted where transcribed), the
    rows."""
    colunas = COLUNAS[lista["lista"]]
    topo = [
        (
            f"Situação em {formatar_data(date.fromisoformat(lista['data']))}. "
            f"Gerada em {horario_brasilia(gerado_em)} pelo multas."
        ),
        "",
        f"Fundamento: {lista['fundamento']}",
    ]
    citacao = f"“{lista['texto']}”" if lista.get("texto") else None
    avisos = [f"Aviso: {aviso}" for aviso in lista.get("avisos", [])]
    return tabela_pdf(
        lista["titulo"],
        topo,
        citacao,
        avisos,
        [t for _, t in colunas],
        [[_celula_pdf(chave, item.get(chave)) for chave, _ in colunas] for item in lista["itens"]],
        [_PESOS_COLUNAS.get(chave, 1.6) for chave, _ in colunas],
        "Nenhum distribuidor na lista nesta data.",
    )


def tabela_pdf(
    titulo: str,
    topo: list[str],
    citacao: str | None,
    notas: list[str],
    cabecalho: list[str],
    corpo: list[list[str]],
    pesos: list[float],
    vazio: str,
    fim: list[str] | None = None,
) -> bytes:
    """A landscape A4 PDF of one table, in the report's fonts and colours
    (:mod:`multas.saidas.relatorio.pdf`): the title, the lines of ``topo`` (an empty one is a space),
    the quotation, the notes, the table (``vazio`` when it has no rows), the lines of ``fim``."""
    from xml.sax.saxutils import escape

    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    from multas.saidas.relatorio.pdf import AZUL, FONTE, FUNDO, LINHA, cobrir, registrar_fontes

    registrar_fontes()
    base = ParagraphStyle("base", fontName=FONTE, fontSize=9, leading=11.5)
    estilo_titulo = ParagraphStyle(
        "titulo", parent=base, fontName=f"{FONTE}-Negrito", fontSize=13, leading=16, textColor=AZUL
    )
    estilo_citacao = ParagraphStyle(
        "citacao", parent=base, fontName=f"{FONTE}-Italico", fontSize=8.5
    )
    negrito = ParagraphStyle("cab", parent=base, fontName=f"{FONTE}-Negrito")

    def p(texto: str, estilo: ParagraphStyle = base) -> Paragraph:
        return Paragraph(escape(cobrir(texto)), estilo)

    elementos: list[Any] = [p(titulo, estilo_titulo)]
    for linha in topo:
        elementos.append(p(linha) if linha else Spacer(1, 3 * mm))
    if citacao:
        elementos.append(p(citacao, estilo_citacao))
    elementos += [p(nota) for nota in notas]
    elementos.append(Spacer(1, 4 * mm))
    if corpo:
        linhas = [[p(t, negrito) for t in cabecalho]] + [[p(t) for t in linha] for linha in corpo]
        # fixed widths, so a long text wraps in its own column instead of squeezing the others
        # to nothing; a row taller than a page goes on over the next one
        largura = landscape(A4)[0] - 30 * mm
        larguras = [largura * peso / sum(pesos) for peso in pesos]
        tabela = Table(linhas, colWidths=larguras, repeatRows=1, splitInRow=1)
        tabela.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), FUNDO),
                    ("GRID", (0, 0), (-1, -1), 0.4, LINHA),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        elementos.append(tabela)
    else:
        elementos.append(p(vazio))
    if fim:
        elementos.append(Spacer(1, 4 * mm))
        elementos += [p(linha) for linha in fim]
    saida = io.BytesIO()
    documento = SimpleDocTemplate(
        saida,
        pagesize=landscape(A4),
        title=cobrir(titulo),
        author="multas",
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
    )
    documento.build(elementos)
    return saida.getvalue()


# --- the distributor's ledger -----------------------------------------------------------------

#: the ledger's columns (header, what a cell holds: "n" a count, "%" a percent, "R$" an
#: amount, "d" a date, "t" a text), as the ledger page shows them
COLUNAS_CARTEIRA: tuple[tuple[str, str], ...] = (
    ("CNPJ", "t"),
    ("Nome", "t"),
    ("Ano", "n"),
    ("Meta (CBIOs)", "n"),
    ("Falta do ano anterior", "n"),
    ("Meta total", "n"),
    ("Aposentados", "n"),
    ("Cumprido (%)", "%"),
    ("Falta", "n"),
    ("Diferidos", "n"),
    ("Multados", "n"),
    ("Multa (R$)", "R$"),
    ("Prazo de comprovação", "d"),
    ("Quitação", "d"),
    ("Situação", "t"),
    ("Avisos", "t"),
)


def situacao_do_ano(ano: dict[str, Any]) -> str:
    """The year's status in words, from its figures (what the ledger page shows).

    >>> situacao_do_ano({"deficit": 0, "multa": "0.00", "cbios_diferidos": 0})
    'meta cumprida'
    >>> situacao_do_ano({"deficit": 5, "multa": "10.00", "cbios_diferidos": 0})
    'multa'
    """
    partes = []
    if ano.get("projecao"):
        partes.append("projeção")
    if ano["deficit"] == 0:
        partes.append("meta cumprida")
    elif ano["multa"] is None:
        partes.append("falta sem multa calculada")
    elif Decimal(ano["multa"]) > 0:
        partes.append("multa")
    elif ano["cbios_diferidos"]:
        partes.append("falta diferida para o ano seguinte")
    else:
        partes.append("sem multa")
    if ano.get("data_quitacao"):
        partes.append("quitada")
    return ", ".join(partes)


def carteira_linhas(carteira: dict[str, Any]) -> list[list[object]]:
    """The ledger's rows, one per year, typed (counts ``int``, the percent and the fine
    ``Decimal``, dates ``date``) for :mod:`multas.saidas.exportacao`'s writers."""

    def data(valor: object) -> date | None:
        return date.fromisoformat(valor) if isinstance(valor, str) else None

    linhas: list[list[object]] = []
    for ano in carteira["anos"]:
        linhas.append(
            [
                carteira["cnpj"],
                carteira["nome"],
                ano["ano"],
                ano["meta_cbios"],
                ano["acrescimo_ano_anterior"],
                ano["meta_total"],
                ano["cbios_aposentados"],
                Decimal(ano["percentual_cumprido"]),
                ano["deficit"],
                ano["cbios_diferidos"],
                ano["cbios_multados"],
                None if ano["multa"] is None else Decimal(ano["multa"]),
                data(ano["prazo_comprovacao"]),
                data(ano["data_quitacao"]),
                situacao_do_ano(ano),
                " | ".join(ano["avisos"]) or None,
            ]
        )
    return linhas


def carteira_csv(carteira: dict[str, Any], ptbr: bool = False) -> str:
    """The ledger as CSV, one row per year (plain or pt-BR: :mod:`multas.saidas.exportacao`)."""
    return csv_texto(
        [titulo for titulo, _ in COLUNAS_CARTEIRA], carteira_linhas(carteira), Notacao(ptbr)
    )


#: XLSX: the percent fulfilled, a number of two places
FORMATO_PERCENTUAL = "0.00"


def carteira_xlsx(carteira: dict[str, Any]) -> bytes:
    """The ledger as XLSX: counts as integers, the fine a number cell shown ``R$ #,##0.00``
    (exact), dates date cells shown dd/mm/aaaa, texts neutralised
    (:func:`multas.saidas.exportacao.celula_xlsx`)."""
    import openpyxl

    livro = openpyxl.Workbook(write_only=True)
    folha = livro.create_sheet("carteira")
    folha.append([celula_xlsx(folha, titulo) for titulo, _ in COLUNAS_CARTEIRA])
    for linha in carteira_linhas(carteira):
        folha.append(
            [
                celula_xlsx(folha, v, FORMATO_PERCENTUAL if tipo == "%" else FORMATO_DINHEIRO)
                for v, (_, tipo) in zip(linha, COLUNAS_CARTEIRA, strict=True)
            ]
        )
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()


def carteira_pdf(carteira: dict[str, Any], gerado_em: datetime) -> bytes:
    """The ledger as a PDF: the distributor, every year with its figures, fine, deadline and
    status, the total and the provisions."""
    from multas.nucleo.cnpj import rotulo
    from multas.nucleo.dinheiro import formatar_brl, formatar_numero

    def texto(valor: object, tipo: str) -> str:
        if valor is None:
            return "—"
        if tipo == "R$":
            return formatar_brl(str(valor))
        if tipo == "%":
            return formatar_numero(str(valor)) + "%"
        if tipo == "n":
            return formatar_numero(valor) if isinstance(valor, int) else str(valor)
        if isinstance(valor, date):
            return formatar_data(valor)
        return str(valor)

    cnpj = rotulo(carteira["cnpj"])
    incluidas = COLUNAS_CARTEIRA[2:-1]  # the distributor heads the page; the notes below
    corpo = [
        [texto(v, tipo) for v, (_, tipo) in zip(linha[2:-1], incluidas, strict=True)]
        for linha in carteira_linhas(carteira)
    ]
    notas = [f"{ano['ano']}: {aviso}" for ano in carteira["anos"] for aviso in ano["avisos"]]
    total = carteira["total_multas"]
    return tabela_pdf(
        f"Carteira de {carteira['nome'] or cnpj}",
        [f"CNPJ {cnpj}. Gerada em {horario_brasilia(gerado_em)} pelo multas."],
        None,
        [],
        [titulo for titulo, _ in incluidas],
        corpo,
        [0.8, *([1.1] * 8), 1.6, 1.4, 1.2, 2.2],
        "Nenhum ano na carteira.",
        [
            f"Total das multas: {formatar_brl(total) if total is not None else '—'}",
            f"A falta de um ano soma-se à meta do seguinte: {carteira['fundamento_acrescimo']}",
            "Diferimento de parte da falta para o ano seguinte: "
            f"{carteira['fundamento_diferimento']}",
            *(f"Aviso de {n}" for n in notas),
        ],
    )


def calendario_ics(prazos: list[dict[str, Any]], gerado_em: datetime) -> bytes:
    """The deadlines as an iCalendar file: one all-day event per deadline (RFC 5545)."""
    from icalendar import Calendar, Event

    calendario = Calendar()
    calendario.add("prodid", "-//multas//prazos do ciclo de fiscalização//PT-BR")
    calendario.add("version", "2.0")
    calendario.add("calscale", "GREGORIAN")
    calendario.add("x-wr-calname", "multas: prazos")
    for item in prazos:
        quem = (
            item.get("nome")
            or item.get("cnpj")
            or item.get("id")
            or f"processo {item['processo_id']}"
        )
        if item.get("erro"):
            # a processo that cannot be read: on the export's day, never silently left out
            calendario.add_component(_evento_erro(item, quem, gerado_em))
            continue
        dia = date.fromisoformat(item["data"])
        evento = Event()
        evento.add("uid", f"multas-processo-{item['processo_id']}-{item['prazo']}@multas")
        evento.add("dtstamp", gerado_em)
        evento.add("dtstart", dia)
        # 31/12/9999 has no next day; without DTEND a DATE DTSTART is one day (RFC 5545 § 3.6.1)
        if dia < date.max:
            evento.add("dtend", dia + timedelta(days=1))
        # an overdue deadline, as of the export's date (its UID stays the same)
        vencido = "[VENCIDO] " if item.get("situacao") == "vencido" else ""
        evento.add("summary", texto_visivel(f"{vencido}{item['rotulo']}: {quem}"))
        linhas = [
            f"Prazo {prazo_citado(item['prazo'])} do processo {item['processo_id']} ({item['tipo']})"
            + (f", id {item['id']}" if item.get("id") is not None else "")
            + (f", CNPJ {item['cnpj']}" if item.get("cnpj") else ""),
            f"Fundamento: {item['fundamento']}",
            f"Contagem: {item['contagem']}",
            f"Quem age: {item['responsavel']}",
        ]
        if item.get("saldo") is not None:
            linhas.append(
                f"Valor devido na data da exportação: {formatar_brl(item['saldo'])} "
                "(principal e encargos, menos o que foi pago)"
            )
        if item.get("situacao") == "vencido":
            atraso = item.get("dias_de_atraso", 0)
            linhas.append(
                f"Situação: vencido há {atraso} dia{'s' if atraso != 1 else ''} na data da "
                "exportação, sem evento que o cumpra ou encerre."
            )
        elif item.get("encerrado"):
            linhas.append("Situação: já cumprido ou superado por um evento do processo.")
        evento.add("description", texto_visivel("\n".join(linhas)))
        evento.add("categories", [item["tipo"]])
        evento.add("transp", "TRANSPARENT")
        if not vencido and not item.get("encerrado"):
            for dias in LEMBRETES_DIAS:
                evento.add_component(_lembrete(dias, f"{item['rotulo']}: {quem}"))
        calendario.add_component(evento)
    resultado: bytes = calendario.to_ical()
    return resultado


def _lembrete(dias: int, resumo: str) -> Any:
    """A reminder ``dias`` days before an all-day deadline, at :data:`HORA_DO_LEMBRETE`."""
    from icalendar import Alarm

    lembrete = Alarm()
    lembrete.add("action", "DISPLAY")
    lembrete.add("trigger", timedelta(days=-dias, hours=HORA_DO_LEMBRETE))
    quando = "amanhã" if dias == 1 else f"em {dias} dias"
    lembrete.add("description", texto_visivel(f"Vence {quando}: {resumo}"))
    return lembrete


def _evento_erro(item: dict[str, Any], quem: object, gerado_em: datetime) -> Any:
    from icalendar import Event

    from multas.nucleo.datas import fuso_brasilia

    dia = gerado_em.astimezone(fuso_brasilia()).date()
    evento = Event()
    evento.add("uid", f"multas-processo-{item['processo_id']}-erro@multas")
    evento.add("dtstamp", gerado_em)
    evento.add("dtstart", dia)
    evento.add("dtend", dia + timedelta(days=1) if dia < date.max else dia)
    evento.add(
        "summary", texto_visivel(f"[ERRO] Processo {item['processo_id']} não pôde ser lido: {quem}")
    )
    evento.add(
        "description", texto_visivel(f"Os prazos deste processo não são mostrados: {item['erro']}")
    )
    if item.get("tipo"):
        evento.add("categories", [item["tipo"]])
    evento.add("transp", "TRANSPARENT")
    return evento
