"""Accessibility, in a real browser (issue 20, item 11): axe-core runs on every page rendered
from the project's templates, in its states (logged out, as an admin, as a read-only user,
with validation errors, with results), and finds no violation at any impact level. The API
console (Swagger UI and ReDoc, maintained libraries) has no critical or serious violation
outside :data:`EXCECOES_CONSOLE`, each with its reason.

axe-core is the copy bundled in the ``axe-playwright-python`` package (MPL-2.0), injected
into the page from the installed file: never from a CDN. Every template in ``templates/`` must
be rendered by at least one visit (recorded from the Jinja environment itself), so a new
template without an axe check fails :func:`test_cada_modelo_tem_uma_visita`.

Playwright drives Debian's Chromium against the real server: the session's browser, a fresh
context per visit, one server for the module, with its records and each user's session
(tests/fixtures/navegacao.py, shared with the page-width module).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.utils.navegacao import Servidor, ano_calculado, calcular, exposicao
from tests.utils.processos import CNPJ

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

RAIZ = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
MODELOS = RAIZ / "src" / "multas" / "servidor" / "templates"

#: the API console's known exceptions (Swagger UI's and ReDoc's own markup, which the project
#: does not write): axe rule id → why it is accepted. Any other critical or serious
#: violation fails; one listed here that no longer occurs fails too, so the list stays true.
EXCECOES_CONSOLE: dict[str, dict[str, str]] = {
    "/docs": {
        "nested-interactive": "Swagger UI puts the copy-path and authorisation buttons inside "
        "the button that opens an operation (.opblock-summary-control): the library's markup, "
        "with no option to change it",
    },
    "/redoc": {
        "color-contrast": "ReDoc's default theme: grey h5 headings (#93999c on white), red "
        "inline code (#e53935 on #f4f5f5), the responses' error tabs and the warning badge; "
        "its classes are generated (styled-components), with no stable selector to override",
        "select-name": "ReDoc's content-type and example selectors are <select> elements "
        "without an accessible name: the library's markup",
    },
}


@dataclass
class Dados:
    base: str
    caso: int
    processo: int
    renderizados: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Visita:
    """One page in one state: who (None, "admin" or "leitura"), where, what to do there,
    and which templates it must have rendered."""

    nome: str
    papel: str | None
    url: str
    modelos: frozenset[str]
    acao: Callable[[Any, Path], None] | None = None


def _calcular_com_erro(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.fill("input[name=valor]", "setecentos")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#resumo-erro")).to_be_visible()


def _entrar_errado(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.get_by_label("Usuário").fill("ana")
    pagina.get_by_label("Senha").fill("senha-errada")
    pagina.get_by_role("button", name="Entrar").click()
    expect(pagina.locator("[role=alert]")).to_be_visible()


def _salvar_processo_vazio(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.locator("form[action='/processos'] [required]").evaluate_all(
        "campos => campos.forEach(c => c.removeAttribute('required'))"
    )
    pagina.get_by_role("button", name="Salvar processo").click()
    expect(pagina.locator(".resumo-erro").first).to_be_visible()


def _salvar_ano_vazio(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.locator("form[action='/carteira'] [required]").evaluate_all(
        "campos => campos.forEach(c => c.removeAttribute('required'))"
    )
    pagina.get_by_role("button", name="Salvar o ano").click()
    expect(pagina.locator(".resumo-erro").first).to_be_visible()


def _colar_linhas_com_erros(pagina: Any, _: Path) -> None:
    """Rows pasted with several errors (issue 37, item 9): every one listed, beside the box."""
    from playwright.sync_api import expect

    pagina.fill(
        "#campo-conteudo",
        f"cnpj\tano\tmeta_cbios\tcbios_aposentados\n{CNPJ}\tdois mil\tx\t1\n"
        f"{CNPJ}\t2025\t1000\t-5\n",
    )
    pagina.locator("#form-importar button[type=submit]").click()
    expect(pagina.locator("#resumo-erro-importar li")).to_have_count(3)


def _ano_com_erro(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.locator("form [required]").evaluate_all(
        "campos => campos.forEach(c => c.removeAttribute('required'))"
    )
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator(".resumo-erro").first).to_be_visible()


def _recusar_exclusao(pagina: Any, _: Path) -> None:
    """A read-only user sends the delete form anyway (the page shows no such button)."""
    from playwright.sync_api import expect

    with pagina.expect_navigation():
        pagina.evaluate(
            """() => { const f = document.createElement('form'); f.method = 'post';
            f.action = location.pathname + '/excluir'; document.body.append(f); f.submit(); }"""
        )
    expect(pagina.locator("h1")).to_be_visible()


def _exposicao_com_erro(pagina: Any, pasta: Path) -> None:
    exposicao(pagina, pasta, certo=False)


def _pedir_exclusao(pagina: Any, _: Path) -> None:
    """The delete's question in its dialog (with JavaScript)."""
    from playwright.sync_api import expect

    pagina.get_by_role("button", name="Excluir caso").click()
    expect(pagina.locator("#dialogo-excluir")).to_be_visible()


def _pagina_de_confirmacao(pagina: Any, _: Path) -> None:
    """The delete's confirmation page (what the form leads to without JavaScript)."""
    from playwright.sync_api import expect

    with pagina.expect_navigation():
        pagina.evaluate(
            """() => { const f = document.createElement('form'); f.method = 'post';
            f.action = location.pathname + '/excluir'; document.body.append(f); f.submit(); }"""
        )
    expect(pagina.locator("#confirmar")).to_be_visible()


def _criar_calendario_privado(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.get_by_role("button", name="Criar endereço").click()
    expect(pagina.locator("#feed-criado")).to_be_visible()


def _conferir(pagina: Any, _: Path, certo: bool = True) -> None:
    """The ANP's notice checked from the distributor's page: the table, or every error."""
    from playwright.sync_api import expect

    pagina.get_by_label("Meta publicada").fill("1.200" if certo else "abc")
    pagina.get_by_label("Preço do CBIO").fill("71,70" if certo else "-1")
    pagina.get_by_role("button", name="Conferir a notificação").click()
    expect(
        pagina.locator("#tabela-conferencia" if certo else "#resumo-erro-conferir")
    ).to_be_visible()


def _conferir_com_erro(pagina: Any, pasta: Path) -> None:
    _conferir(pagina, pasta, certo=False)


def _m(*nomes: str) -> frozenset[str]:
    return frozenset({"base.html", *nomes})


INICIO = ("inicio.html", "_area.html", "_campos.html")

VISITAS: list[Visita] = [
    # logged out
    Visita("entrar", None, "/entrar", _m("entrar.html")),
    Visita("entrar-erro", None, "/entrar", _m("entrar.html"), _entrar_errado),
    Visita("erro-anonimo", None, "/static/nao-existe.css", _m("erro.html")),
    # an admin
    Visita("inicio", "admin", "/", _m(*INICIO)),
    Visita("inicio-dias-locais", "admin", "/?regime=anp.mora", _m(*INICIO, "_dias_locais.html")),
    Visita("inicio-erro", "admin", "/?caso={caso}", _m(*INICIO), _calcular_com_erro),
    Visita("inicio-resultado", "admin", "/?caso={caso}", _m(*INICIO, "_resultado.html"), calcular),
    Visita("casos", "admin", "/casos", _m("casos.html")),
    # a page past the first: the page links (anterior, the position) are shown
    Visita(
        "casos-paginas",
        "admin",
        "/casos?limite=1&deslocamento=1",
        _m("casos.html", "_paginacao.html"),
    ),
    Visita("caso", "admin", "/casos/{caso}", _m("caso.html", "_resultado.html", "_confirmar.html")),
    Visita("caso-dialogo", "admin", "/casos/{caso}", _m("caso.html"), _pedir_exclusao),
    Visita(
        "caso-confirmar",
        "admin",
        "/casos/{caso}",
        _m("confirmar.html", "_confirmar.html"),
        _pagina_de_confirmacao,
    ),
    Visita("auditoria", "admin", "/auditoria", _m("auditoria.html")),
    Visita("auditoria-clientes", "admin", "/auditoria/clientes", _m("auditoria.html")),
    Visita("usuarios", "admin", "/usuarios", _m("usuarios.html")),
    Visita("calendario-privado", "admin", "/calendario-privado", _m("calendario_privado.html")),
    Visita(
        "calendario-privado-criado",
        "admin",
        "/calendario-privado",
        _m("calendario_privado.html"),
        _criar_calendario_privado,
    ),
    Visita("lixeira", "admin", "/lixeira", _m("lixeira.html")),
    Visita("processos", "admin", "/processos", _m("processos.html", "_campo_dias.html")),
    Visita("processos-erro", "admin", "/processos", _m("processos.html"), _salvar_processo_vazio),
    Visita("processo", "admin", "/processos/{processo}", _m("processo.html", "_campo_dias.html")),
    Visita("pendencias", "admin", "/pendencias", _m("pendencias.html")),
    Visita("listas", "admin", "/listas", _m("listas.html")),
    Visita("carteira", "admin", "/carteira", _m("carteira.html", "_campo_colunas.html")),
    Visita("carteira-erro", "admin", "/carteira", _m("carteira.html"), _salvar_ano_vazio),
    Visita(
        "carteira-colagem-erros", "admin", "/carteira", _m("carteira.html"), _colar_linhas_com_erros
    ),
    Visita(
        "distribuidor",
        "admin",
        f"/carteira/distribuidor?cnpj={CNPJ}",
        _m("distribuidor.html", "_conferir.html"),
    ),
    Visita(
        "conferir",
        "admin",
        f"/carteira/distribuidor?cnpj={CNPJ}",
        _m("conferir.html", "_conferir.html"),
        _conferir,
    ),
    Visita(
        "conferir-erro",
        "admin",
        f"/carteira/distribuidor?cnpj={CNPJ}",
        _m("conferir.html", "_conferir.html"),
        _conferir_com_erro,
    ),
    Visita("ano", "admin", "/ano", _m("ano.html", "_campo_colunas.html")),
    Visita("ano-resultado", "admin", "/ano", _m("ano.html"), ano_calculado),
    Visita("ano-erro", "admin", "/ano", _m("ano.html", "_resumo_erros.html"), _ano_com_erro),
    Visita("erro-404", "admin", "/casos/999999", _m("erro.html")),
    Visita("guia-da-api", "admin", "/guia-da-api", _m("guia_api.html")),
    Visita("exposicao", "admin", "/exposicao", _m("exposicao.html")),
    Visita("exposicao-resultado", "admin", "/exposicao", _m("exposicao.html"), exposicao),
    Visita("exposicao-erro", "admin", "/exposicao", _m("exposicao.html"), _exposicao_com_erro),
    Visita(
        "memoria-ano",
        "admin",
        f"/carteira/distribuidor/memoria?cnpj={CNPJ}&ano=2025",
        _m("memoria_ano.html", "_resultado.html"),
    ),
    # a read-only user: no save nor delete buttons, and a refused action explained
    Visita("leitura-inicio", "leitura", "/?caso={caso}", _m(*INICIO, "_resultado.html"), calcular),
    Visita("leitura-caso", "leitura", "/casos/{caso}", _m("caso.html")),
    Visita("leitura-processo", "leitura", "/processos/{processo}", _m("processo.html")),
    Visita("leitura-processos", "leitura", "/processos", _m("processos.html")),
    Visita("leitura-carteira", "leitura", "/carteira", _m("carteira.html")),
    Visita("leitura-recusado", "leitura", "/casos/{caso}", _m("recusado.html"), _recusar_exclusao),
]


@pytest.fixture(scope="module")
def dados(servidor_com_dados: Servidor) -> Iterator[Dados]:
    """The module's server and records (tests/fixtures/navegacao.py); every template the
    server renders is recorded in ``renderizados``."""
    from multas.servidor.resposta import ambiente

    servidor = servidor_com_dados
    dados = Dados(servidor.base, servidor.caso, servidor.processo)
    # every template the server loads, the extended and included ones too (Jinja's compiled
    # extends and include call environment.get_template)
    env = ambiente()
    original = env.get_template

    def registrar(nome: Any, *args: Any, **kwargs: Any) -> Any:
        dados.renderizados.add(str(nome))
        return original(nome, *args, **kwargs)

    metodos: Any = env  # the method replaced on this one object, for the module
    metodos.get_template = registrar
    try:
        yield dados
    finally:
        del env.get_template  # the method again, for the other tests of the session


def _axe(pagina: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (every rule, every impact level)."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    resultado = Axe().run(pagina, options={"resultTypes": ["violations"]})
    violacoes: list[dict[str, Any]] = resultado.response["violations"]
    return violacoes


def _descrever(violacoes: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"- {v['id']} ({v['impact']}): {v['help']}; "
        + "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:5])
        for v in violacoes
    )


def _abrir(
    abrir: Callable[..., Any], dados: Dados, sessoes: dict[str, Any], papel: str | None
) -> Any:
    """A page in a fresh context, signed in as ``papel`` (None: logged out)."""
    return abrir(dados.base, storage_state=sessoes[papel] if papel else None)


@pytest.mark.parametrize("visita", VISITAS, ids=[v.nome for v in VISITAS])
def test_nenhuma_violacao_do_axe(
    visita: Visita,
    dados: Dados,
    sessoes: dict[str, Any],
    abrir: Callable[..., Any],
    tmp_path: Path,
) -> None:
    """(A JavaScript error on the page fails the test too: :func:`abrir`.)"""
    pagina = _abrir(abrir, dados, sessoes, visita.papel)
    dados.renderizados.clear()
    pagina.goto(visita.url.format(caso=dados.caso, processo=dados.processo))
    if visita.acao:
        visita.acao(pagina, tmp_path)
    pagina.wait_for_load_state("networkidle")
    faltam = visita.modelos - dados.renderizados
    assert not faltam, f"a visita não mostrou {sorted(faltam)} ({sorted(dados.renderizados)})"
    violacoes = _axe(pagina)
    assert not violacoes, f"{pagina.url}:\n{_descrever(violacoes)}"


def test_cada_modelo_tem_uma_visita() -> None:
    """A template that no visit renders has no axe check: add a visit for it."""
    modelos = {arquivo.name for arquivo in MODELOS.glob("*.html")}
    visitados = frozenset().union(*(v.modelos for v in VISITAS))
    assert modelos - visitados == set(), "modelos sem verificação de acessibilidade"
    assert visitados - modelos == set(), "visitas que citam modelos que não existem"


def test_o_axe_vem_do_pacote_nao_de_um_cdn() -> None:
    """The axe-core run is the file installed with the package, and it knows its version."""
    from axe_playwright_python import sync_playwright  # type: ignore[import-untyped]

    arquivo = Path(sync_playwright.__file__).parent / "axe.min.js"
    assert arquivo.read_text(encoding="utf-8").startswith("/*! axe v4.")


@pytest.mark.parametrize("caminho", sorted(EXCECOES_CONSOLE))
def test_console_da_api(
    caminho: str, dados: Dados, sessoes: dict[str, Any], abrir: Callable[..., Any]
) -> None:
    """The console: pt-BR ``lang``, a link to the pt-BR API guide, and no critical or serious
    violation beyond the known exceptions (each with its reason), all still occurring."""
    from playwright.sync_api import expect

    pagina = _abrir(abrir, dados, sessoes, "admin")
    pagina.goto(caminho)
    expect(pagina.locator("html")).to_have_attribute("lang", "pt-BR")
    guia = pagina.get_by_role("link", name="Guia da API (pt-BR)")
    expect(guia).to_be_visible()
    if caminho == "/docs":
        expect(pagina.locator(".swagger-ui .info")).to_be_visible()
    else:
        expect(pagina.locator("redoc .api-content, .api-content").first).to_be_visible()
    pagina.wait_for_load_state("networkidle")
    graves = [v for v in _axe(pagina) if v["impact"] in ("critical", "serious")]
    excecoes = EXCECOES_CONSOLE[caminho]
    novas = [v for v in graves if v["id"] not in excecoes]
    assert not novas, f"{caminho}:\n{_descrever(novas)}"
    extintas = set(excecoes) - {v["id"] for v in graves}
    assert not extintas, f"exceções que não ocorrem mais em {caminho}: {sorted(extintas)}"
    guia.click()
    expect(pagina.locator("h1")).to_have_text("Guia da API")


def test_console_com_outra_marcacao_falha_alto() -> None:
    """If FastAPI's console markup changes (no <html>, </head> or <body>), the console fails
    loudly instead of losing its lang and its link to the guide in silence."""
    from fastapi.responses import HTMLResponse

    from multas.servidor.aplicacao import console_em_portugues

    pronto = console_em_portugues(HTMLResponse("<html><head></head><body><p>x</p></body></html>"))
    assert b'<html lang="pt-BR">' in bytes(pronto.body)
    assert b'href="/guia-da-api"' in bytes(pronto.body)
    with pytest.raises(RuntimeError, match="console da API mudou"):
        console_em_portugues(HTMLResponse("<p>sem documento</p>"))
