"""A notice of the RenovaBio fine, as the ANP signs it (``multas ano calcular``): the model
(:class:`Notificacao`, every text already written in pt-BR) and its PDF (ReportLab).

The letterhead and the signature block are Jinja2 templates (``cabecalho.html`` and
``assinatura.html``, in ``templates/notificacao/``), which a folder given with ``--modelo``
overrides file by file: each renders ReportLab's paragraph markup, one paragraph per line, with
autoescape, so a name or an address from the input is text, never markup. The rest of the
notice is built here, from the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, PackageLoader, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer

from multas.nucleo.erros import EntradaInvalida
from multas.saidas.relatorio.pdf import (
    CINZA,
    FONTE,
    _estilos,
    _p,
    _tabela,
    canvas_datado,
    cobrir,
    registrar_fontes,
    tabela_dos_passos,
    textos_legais,
)

#: the templates a ``--modelo`` folder may override
MODELOS = ("cabecalho.html", "assinatura.html")


@dataclass(frozen=True, slots=True)
class Passo:
    """One step of the memória, as the notice shows it (exact values)."""

    numero: int
    descricao: str
    valor: str
    fundamento: str


@dataclass(frozen=True)
class Notificacao:
    """Everything a notice says, written once."""

    numero: str
    #: the ANP's process number, or ``None`` (a blank line to fill)
    processo: str | None
    ano: int
    #: the notice's date (dd/mm/aaaa), or ``None``
    data: str | None
    #: the addressee: name (or ``None``), CNPJ formatted, address (or ``None``)
    nome: str | None
    cnpj: str
    endereco: str | None
    assunto: str
    abertura: str
    #: the target's composition and the shortfall: (label, CBIOs) rows
    composicao: tuple[tuple[str, str], ...]
    #: paragraphs under the composition (why no deferral, the deferral aviso)
    sobre_a_meta: tuple[str, ...]
    #: the price: (label, value) rows
    preco: tuple[tuple[str, str], ...]
    valor: str
    sobre_a_multa: tuple[str, ...]
    passos: tuple[Passo, ...]
    citacoes: tuple[tuple[str, str], ...]
    prazos: tuple[tuple[str, str], ...]
    observacoes: tuple[str, ...]
    #: the daily quotes of the annex, as (date, price) rows; empty: no annex
    anexo: tuple[tuple[str, str], ...]
    #: the signature's name and role (``None``: the template's placeholder)
    assinatura_nome: str | None = None
    assinatura_cargo: str | None = None

    @property
    def titulo(self) -> str:
        return f"Notificação nº {self.numero}"


def ambiente(carregador: BaseLoader | None = None) -> SandboxedEnvironment:
    """The templates: ``carregador``'s (a ``--modelo`` folder) first, then the default ones;
    autoescape always on (the input's cells are text)."""
    padrao = PackageLoader("multas.saidas.relatorio", "templates/notificacao")
    return SandboxedEnvironment(
        loader=padrao if carregador is None else ChoiceLoader([carregador, padrao]),
        autoescape=True,
        keep_trailing_newline=False,
    )


def _contexto(n: Notificacao, pasta: str) -> dict[str, Any]:
    return {
        "numero": n.numero,
        "processo": n.processo,
        "ano": n.ano,
        "data": n.data,
        "local_e_data": f"_______________, {n.data}"
        if n.data
        else "_______________, ___/___/______",
        "destinatario": {"nome": n.nome, "cnpj": n.cnpj, "endereco": n.endereco},
        "assinatura": {"nome": n.assinatura_nome, "cargo": n.assinatura_cargo},
        "pasta": pasta,
    }


def _bloco(modelos: SandboxedEnvironment, nome: str, contexto: dict[str, Any]) -> list[Any]:
    """A template's paragraphs (one per non-blank line); a template or markup error is an
    error naming the template, never a traceback."""
    estilo = _estilos()["base"]
    try:
        texto = modelos.get_template(nome).render(contexto)
        return [Paragraph(cobrir(linha), estilo) for linha in texto.splitlines() if linha.strip()]
    except TemplateError as erro:
        linha = getattr(erro, "lineno", None)
        onde = f", linha {linha}" if linha else ""
        raise EntradaInvalida("--modelo", f"{nome}{onde}: erro no modelo: {erro}") from None
    except ValueError as erro:  # ReportLab's paragraph markup
        motivo = str(erro).splitlines()[0][:200]
        raise EntradaInvalida(
            "--modelo", f"{nome}: marcação que o PDF não aceita ({motivo})"
        ) from None


def conferir_modelos(modelos: SandboxedEnvironment, pasta: str = "") -> None:
    """Render every template once with an example notice: a bad template is refused before
    the year is computed."""
    exemplo = Notificacao(
        numero="001/2024",
        processo=None,
        ano=2024,
        data="03/03/2025",
        nome="Distribuidor",
        cnpj="11.222.333/0001-81",
        endereco=None,
        assunto="",
        abertura="",
        composicao=(),
        sobre_a_meta=(),
        preco=(),
        valor="",
        sobre_a_multa=(),
        passos=(),
        citacoes=(),
        prazos=(),
        observacoes=(),
        anexo=(),
    )
    for nome in MODELOS:
        _bloco(modelos, nome, _contexto(exemplo, pasta))


def notificacao_pdf(n: Notificacao, modelos: SandboxedEnvironment, pasta: str = "") -> bytes:
    """The notice in PDF: letterhead, number, process, addressee, the case, the price, the
    fine and its memória, the law quoted, the deadlines, the signature, and the annex."""
    registrar_fontes()
    e = _estilos()
    largura = A4[0] - 36 * mm
    contexto = _contexto(n, pasta)
    rotulo = 46 * mm

    def ficha(
        linhas: tuple[tuple[str, str], ...] | list[tuple[str, str]], coluna: float = rotulo
    ) -> Any:
        return _tabela(
            [[_p(r, e["negrito"]), _p(v, e["base"])] for r, v in linhas],
            [coluna, largura - coluna],
            cabecalho=False,
        )

    def secao(titulo: str) -> Any:
        return _p(titulo, e["secao"])

    historia: list[Any] = [*_bloco(modelos, "cabecalho.html", contexto), Spacer(1, 10)]
    historia.append(_p(n.titulo.upper(), e["titulo"]))
    identificacao = [("Processo nº", n.processo or "________________________")]
    if n.data:
        identificacao.append(("Data", n.data))
    identificacao.append(("Assunto", n.assunto))
    historia += [Spacer(1, 4), ficha(identificacao)]
    historia.append(secao("Destinatário"))
    destinatario = [("Razão social", n.nome)] if n.nome else []
    destinatario.append(("CNPJ", n.cnpj))
    if n.endereco:
        destinatario.append(("Endereço", n.endereco))
    historia += [ficha(destinatario), Spacer(1, 8), _p(n.abertura, e["base"])]
    historia += [secao("1. A meta e a falta"), ficha(n.composicao, largura - 40 * mm)]
    historia += [_p(texto, e["base"]) for texto in n.sobre_a_meta]
    historia += [secao("2. O preço do CBIO"), ficha(n.preco)]
    historia.append(secao("3. A multa"))
    historia.append(
        _tabela(
            [[[_p("Valor da multa", e["base"]), _p(n.valor, e["valor"])]]],
            [largura],
            cabecalho=False,
        )
    )
    historia += [_p(texto, e["base"]) for texto in n.sobre_a_multa]
    historia.append(secao("4. Memória de cálculo"))
    historia.append(
        tabela_dos_passos(n.passos, [9 * mm, largura * 0.44, 52 * mm, largura * 0.56 - 61 * mm], e)
    )
    if n.citacoes:
        historia.append(secao("5. Texto legal aplicado"))
        historia += textos_legais(n.citacoes, e)
    historia += [secao("6. Prazos"), ficha(n.prazos)]
    if n.observacoes:
        historia.append(secao("7. Observações"))
        historia += [_p(texto, e["base"]) for texto in n.observacoes]
    historia += [Spacer(1, 18), KeepTogether(_bloco(modelos, "assinatura.html", contexto))]
    if n.anexo:
        historia += [
            PageBreak(),
            secao(f"Anexo: cotações diárias do CBIO em {n.anexo[0][0][-4:]}"),
            _anexo(n.anexo, largura, e),
        ]
    rodape = cobrir(f"{n.titulo} · {n.cnpj}")

    def _numerar(canvas: Any, documento: Any) -> None:
        canvas.saveState()
        canvas.setFont(FONTE, 7.5)
        canvas.setFillColor(CINZA)
        canvas.drawString(18 * mm, 10 * mm, rodape)
        canvas.drawRightString(A4[0] - 18 * mm, 10 * mm, f"página {documento.page}")
        canvas.restoreState()

    saida = BytesIO()
    SimpleDocTemplate(
        saida,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=cobrir(f"{n.titulo}: multa do RenovaBio, meta de {n.ano}"),
        subject=cobrir(n.assunto),
        lang="pt-BR",
        invariant=True,
    ).build(
        historia,
        onFirstPage=_numerar,
        onLaterPages=_numerar,
        # the notice's own date (dd/mm/aaaa) as its CreationDate, when it has one
        canvasmaker=canvas_datado(
            None if n.data is None else datetime.strptime(n.data, "%d/%m/%Y").date()
        ),
    )
    return saida.getvalue()


def _anexo(cotacoes: tuple[tuple[str, str], ...], largura: float, e: dict[str, Any]) -> Any:
    """The daily quotes in three columns of (date, what priced the fine: the price, or the
    volume traded and its value), the header repeated on each page."""
    colunas = 3
    por_coluna = -(-len(cotacoes) // colunas)
    titulo = "Preço" if cotacoes and cotacoes[0][1].startswith("R$") else "Negociado"
    linhas = [[_p(t, e["negrito"]) for _ in range(colunas) for t in ("Data", titulo)]]
    for i in range(por_coluna):
        linha: list[Any] = []
        for c in range(colunas):
            k = c * por_coluna + i
            dia, preco = cotacoes[k] if k < len(cotacoes) else ("", "")
            linha += [_p(dia, e["celula"]), _p(preco, e["numero"])]
        linhas.append(linha)
    return _tabela(linhas, [largura / colunas * 0.5, largura / colunas * 0.5] * colunas)
