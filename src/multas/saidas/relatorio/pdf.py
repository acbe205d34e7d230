"""The PDF report, with ReportLab.

Font: Bitstream Vera, the TrueType family that ReportLab itself ships in its wheel
(``reportlab/fonts/Vera*.ttf``; DejaVu is derived from it). So the PDF looks the same on every
machine, with no system font and no apt package, and "−", "§", "º", "ç", "ã", "“”" and "…" are
real glyphs, embedded (subset) with a Unicode map so the text can be extracted and searched.
A character the font lacks is replaced by :data:`SUBSTITUTOS` (a test checks that every
character of the legislation files and of the memórias is covered).
"""

from __future__ import annotations

import calendar
import os
import time
from datetime import date, datetime
from functools import cache
from io import BytesIO
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from multas.saidas.relatorio import Relatorio

FONTE = "MultasVera"
SUBSTITUTOS = {"→": "->", "←": "<-", "≠": "!=", "\u00a0": " "}
AZUL = colors.HexColor("#0b5394")
CINZA = colors.HexColor("#5a6675")
LINHA = colors.HexColor("#d5dbe3")
FUNDO = colors.HexColor("#f4f6f9")


@cache
def registrar_fontes() -> frozenset[int]:
    """Register the family once per process; return the code points it covers."""
    arquivos = {
        FONTE: "Vera.ttf",
        f"{FONTE}-Negrito": "VeraBd.ttf",
        f"{FONTE}-Italico": "VeraIt.ttf",
        f"{FONTE}-NegritoItalico": "VeraBI.ttf",
    }
    fontes = {nome: TTFont(nome, arquivo) for nome, arquivo in arquivos.items()}
    for fonte in fontes.values():
        pdfmetrics.registerFont(fonte)
    pdfmetrics.registerFontFamily(
        FONTE,
        normal=FONTE,
        bold=f"{FONTE}-Negrito",
        italic=f"{FONTE}-Italico",
        boldItalic=f"{FONTE}-NegritoItalico",
    )
    return frozenset(fontes[FONTE].face.charToGlyph)


class _Troca(dict[int, str]):
    """What :func:`cobrir` writes for each character (``str.translate``'s table), found on
    its first use and remembered: the font's own character, or its substitute."""

    #: at most this many characters remembered (a text may have a million different ones)
    MAXIMO = 4096

    def __init__(self, cobertos: frozenset[int]) -> None:
        super().__init__()
        self.cobertos = cobertos

    def __missing__(self, codigo: int) -> str:
        c = chr(codigo)
        troca = c if codigo in self.cobertos or c in "\n\t" else SUBSTITUTOS.get(c, "?")
        if len(self) < self.MAXIMO:
            self[codigo] = troca
        return troca


@cache
def _troca() -> _Troca:
    return _Troca(registrar_fontes())


def cobrir(texto: str) -> str:
    """The text with every character the font lacks replaced (never a blank box)."""
    return texto.translate(_troca())


def _p(texto: str, estilo: ParagraphStyle) -> Paragraph:
    return Paragraph(escape(cobrir(texto)), estilo)


def _estilos() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("base", fontName=FONTE, fontSize=9.5, leading=12.5)
    return {
        "base": base,
        "titulo": ParagraphStyle(
            "titulo", parent=base, fontName=f"{FONTE}-Negrito", fontSize=15, leading=19
        ),
        "subtitulo": ParagraphStyle("subtitulo", parent=base, textColor=CINZA, spaceAfter=6),
        "secao": ParagraphStyle(
            "secao",
            parent=base,
            fontName=f"{FONTE}-Negrito",
            fontSize=11.5,
            leading=15,
            textColor=AZUL,
            spaceBefore=12,
            spaceAfter=5,
        ),
        "valor": ParagraphStyle(
            "valor",
            parent=base,
            fontName=f"{FONTE}-Negrito",
            fontSize=18,
            leading=23,
            textColor=AZUL,
        ),
        "celula": ParagraphStyle("celula", parent=base, fontSize=8.5, leading=11),
        "numero": ParagraphStyle(
            "numero", parent=base, fontSize=8.5, leading=11, alignment=TA_RIGHT
        ),
        "negrito": ParagraphStyle("negrito", parent=base, fontName=f"{FONTE}-Negrito"),
        "citacao": ParagraphStyle(
            "citacao",
            parent=base,
            fontName=f"{FONTE}-Italico",
            leftIndent=10,
            textColor=colors.HexColor("#333d48"),
            spaceAfter=6,
        ),
        "rodape": ParagraphStyle("rodape", parent=base, fontSize=8, leading=10.5, textColor=CINZA),
    }


def _tabela(linhas: list[list[Any]], larguras: list[float], cabecalho: bool = True) -> Table:
    # a row taller than a page (a year of daily quotes in one cell) splits across pages
    # instead of raising LayoutError; long tables split between rows, the header repeated
    tabela = Table(linhas, colWidths=larguras, repeatRows=1 if cabecalho else 0, splitInRow=1)
    comandos: list[tuple[Any, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.5, LINHA),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if cabecalho:
        comandos.append(("BACKGROUND", (0, 0), (-1, 0), FUNDO))
    tabela.setStyle(TableStyle(comandos))
    return tabela


def tabela_dos_passos(passos: Any, larguras: list[float], e: dict[str, ParagraphStyle]) -> Table:
    """The memória's steps as a table (#, step, value, provision): the report's and the
    notice's one layout, each with its column widths."""
    linhas = [[_p(t, e["negrito"]) for t in ("#", "Passo", "Valor", "Fundamento")]]
    linhas += [
        [
            _p(str(p.numero), e["numero"]),
            _p(p.descricao, e["celula"]),
            _p(p.valor, e["numero"]),
            _p(p.fundamento, e["celula"]),
        ]
        for p in passos
    ]
    return _tabela(linhas, larguras)


def textos_legais(citacoes: Any, e: dict[str, ParagraphStyle]) -> list[KeepTogether]:
    """Each provision applied with its text, quoted, kept on one page."""
    return [
        KeepTogether([_p(fundamento, e["negrito"]), _p(f"“{texto}”", e["citacao"])])
        for fundamento, texto in citacoes
    ]


def gerar_pdf(relatorio: Relatorio) -> bytes:
    registrar_fontes()
    e = _estilos()
    r, meta = relatorio.resultado, relatorio.metadados
    largura = A4[0] - 36 * mm
    historia: list[Any] = []
    if relatorio.destinatario:  # the client (name, CNPJ) heads the document
        historia.append(
            _tabela(
                [
                    [_p(rotulo, e["negrito"]), _p(valor, e["base"])]
                    for rotulo, valor in relatorio.destinatario
                ],
                [42 * mm, largura - 42 * mm],
                cabecalho=False,
            )
        )
        historia.append(Spacer(1, 6))
    historia += [_p(relatorio.titulo, e["titulo"]), _p(relatorio.subtitulo, e["subtitulo"])]
    historia += [
        _tabela(
            [[[_p("Valor devido", e["base"]), _p(r.valor, e["valor"])]]],
            [largura],
            cabecalho=False,
        ),
        Spacer(1, 6),
    ]
    ficha = [
        ("Fundamento", r.fundamento),
        ("Data de referência", r.data_referencia),
        ("Redação aplicada", r.redacao),
    ]
    if r.leitura:
        ficha.append(("Leitura adotada", r.leitura))
    historia.append(
        _tabela(
            [[_p(rotulo, e["negrito"]), _p(valor, e["base"])] for rotulo, valor in ficha],
            [42 * mm, largura - 42 * mm],
            cabecalho=False,
        )
    )
    if relatorio.entrada:
        historia.append(_p("O caso", e["secao"]))
        linhas = [[_p("Campo", e["negrito"]), _p("Valor informado", e["negrito"])]]
        linhas += [
            [_p(f"{c.descricao or c.nome} ({c.nome})", e["celula"]), _p(c.valor, e["celula"])]
            for c in relatorio.entrada
        ]
        historia.append(_tabela(linhas, [largura * 0.62, largura * 0.38]))
    if r.saidas:
        historia.append(_p("Resultado", e["secao"]))
        historia.append(
            _tabela(
                [[_p(rotulo, e["negrito"]), _p(valor, e["celula"])] for rotulo, valor in r.saidas],
                [50 * mm, largura - 50 * mm],
                cabecalho=False,
            )
        )
    historia.append(_p("Memória de cálculo", e["secao"]))
    historia.append(
        tabela_dos_passos(r.passos, [10 * mm, largura * 0.44, 36 * mm, largura * 0.56 - 46 * mm], e)
    )
    if r.citacoes:
        historia.append(_p("Texto legal aplicado", e["secao"]))
        historia += textos_legais(r.citacoes, e)
    if relatorio.prazos:
        historia.append(_p("Prazos que se seguem", e["secao"]))
        historia.append(
            _tabela(
                [
                    [_p(rotulo, e["negrito"]), _p(texto, e["celula"])]
                    for rotulo, texto in relatorio.prazos
                ],
                [42 * mm, largura - 42 * mm],
                cabecalho=False,
            )
        )
    if r.avisos:
        historia.append(_p("Avisos", e["secao"]))
        historia += [_p(f"• {aviso}", e["base"]) for aviso in r.avisos]
    if r.leituras:
        historia.append(_p("Outras leituras do texto", e["secao"]))
        linhas = [[_p("Leitura", e["negrito"]), _p("Valor", e["negrito"])]]
        linhas += [
            [
                _p(leitura.descricao + (" (adotada)" if leitura.adotada else ""), e["celula"]),
                _p(leitura.valor, e["numero"]),
            ]
            for leitura in r.leituras
        ]
        historia.append(_tabela(linhas, [largura - 45 * mm, 45 * mm]))
    origem = (
        f"Calculado em {relatorio.calculado_em} pelo motor multas {meta.versao_motor}, com os "
        f"dados da legislação versão {meta.versao_legislacao} (redação aplicada: {r.redacao})."
    )
    if meta.usuario:
        origem += f" Salvo por {meta.usuario}."
    origem += f" Relatório gerado em {relatorio.gerado_em}."
    historia += [
        Spacer(1, 14),
        _p(origem, e["rodape"]),
        _p(
            "Este relatório reproduz a memória de cálculo do motor; ele não substitui a "
            "decisão fundamentada da autoridade competente.",
            e["rodape"],
        ),
    ]

    rodape = cobrir(
        f"multas {meta.versao_motor} · legislação {meta.versao_legislacao} · {r.regime}"
    )

    def _numerar(canvas: Any, documento: Any) -> None:
        canvas.saveState()
        canvas.setFont(FONTE, 7.5)
        canvas.setFillColor(CINZA)
        canvas.drawString(18 * mm, 10 * mm, rodape)
        canvas.drawRightString(A4[0] - 18 * mm, 10 * mm, f"página {documento.page}")
        canvas.restoreState()

    saida = BytesIO()
    documento = SimpleDocTemplate(
        saida,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=cobrir(relatorio.titulo),
        author=f"multas {meta.versao_motor}",
        subject=cobrir(r.titulo),
        lang="pt-BR",
        invariant=True,
    )
    documento.build(
        historia,
        onFirstPage=_numerar,
        onLaterPages=_numerar,
        canvasmaker=canvas_datado(meta.gerado_em),
    )
    return saida.getvalue()


def canvas_datado(dia: date | None) -> Any:
    """The canvas maker of an *invariant* PDF (no run's id nor time inside, so the same input
    gives the same bytes, on one core or many) whose CreationDate is ``dia``, the document's
    own date given by the caller (the clock's today, the notice's date), at 00:00 UTC; without
    it, or when ``SOURCE_DATE_EPOCH`` is set (reproducible builds), ReportLab's own (that epoch,
    else 01/01/2000)."""
    from reportlab.pdfgen.canvas import Canvas

    if dia is None or os.environ.get("SOURCE_DATE_EPOCH", "").strip():
        return Canvas
    if isinstance(dia, datetime):
        dia = dia.date()
    segundos = calendar.timegm(dia.timetuple())

    class _Datado(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            marca = getattr(self, "_doc")._timeStamp  # noqa: B009 (ReportLab's, untyped)
            # the given day's time, not the clock's
            marca.t, marca.lt = segundos, time.gmtime(segundos)  # noqa: TID251
            marca.YMDhms = tuple(marca.lt)[:6]

    return _Datado


def ficha_pdf(
    titulo: str, linhas: list[tuple[str, str]], rodape: str, criado_em: date | None = None
) -> bytes:
    """A one-page sheet: a title, (label, value) rows and a footnote (a year's summary);
    ``criado_em`` its CreationDate (:func:`canvas_datado`)."""
    registrar_fontes()
    e = _estilos()
    largura = A4[0] - 36 * mm
    historia: list[Any] = [
        _p(titulo, e["titulo"]),
        Spacer(1, 6),
        _tabela(
            [[_p(rotulo, e["negrito"]), _p(valor, e["base"])] for rotulo, valor in linhas],
            [70 * mm, largura - 70 * mm],
            cabecalho=False,
        ),
        Spacer(1, 14),
        _p(rodape, e["rodape"]),
    ]
    saida = BytesIO()
    SimpleDocTemplate(
        saida,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=cobrir(titulo),
        lang="pt-BR",
        invariant=True,
    ).build(historia, canvasmaker=canvas_datado(criado_em))
    return saida.getvalue()
