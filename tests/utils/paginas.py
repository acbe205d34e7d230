"""What the tests read in a rendered page: the suggestion boxes of the days without office
hours (by the date they offer) and the ids the labels point at; a refused form's errors (the
summary of templates/_resumo_erros.html, the message beside each field, the controls marked
invalid)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


class Caixas(HTMLParser):
    """The suggestion boxes of a page (by the date they offer) and the ids labels point at."""

    def __init__(self) -> None:
        super().__init__()
        self.caixas: dict[str, dict[str, str | None]] = {}
        self.rotulos: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        atributos = dict(attrs)
        if tag == "input" and atributos.get("data-dia-sugerido"):
            self.caixas[str(atributos["data-dia-sugerido"])] = atributos
        if tag == "label" and atributos.get("for"):
            self.rotulos.add(str(atributos["for"]))


def caixas(html: str) -> Caixas:
    leitor = Caixas()
    leitor.feed(html)
    return leitor


@dataclass
class ErrosDaPagina:
    """A refused form's errors as the page shows them, texts with tags dropped, entities
    decoded and spaces collapsed: the summary above the form (its heading, each error and the
    id each error's link points at, in order), the message beside each field (by its
    element's id without ``erro-``, the hidden "Erro: " prefix kept) and the ids of the
    controls marked ``aria-invalid``, in page order."""

    titulo: str = ""
    resumo: list[str] = field(default_factory=list)
    ligacoes: list[str] = field(default_factory=list)
    ao_lado: dict[str, str] = field(default_factory=dict)
    invalidos: list[str] = field(default_factory=list)
    resumos: int = 0


class _LeitorDeErros(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.erros = ErrosDaPagina()
        self._dentro = 0  # the depth of <div> inside the summary; 0 outside it
        self._aberto: tuple[str, str] | None = None  # (the tag, where its text goes)
        self._texto: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {nome: valor or "" for nome, valor in attrs}
        if a.get("aria-invalid") == "true":
            self.erros.invalidos.append(a.get("id", ""))
        if tag == "div" and (self._dentro or "resumo-erro" in a.get("class", "").split()):
            if not self._dentro:
                self.erros.resumos += 1
            self._dentro += 1
        if self._dentro and tag in ("h2", "li", "p") and self._aberto is None:
            self._abrir(tag, "titulo" if tag == "h2" else "resumo")
        elif self._dentro and tag == "a" and a.get("href", "").startswith("#"):
            self.erros.ligacoes.append(a["href"][1:])
        elif tag == "p" and "mensagem-erro" in a.get("class", "").split():
            self._abrir(tag, a.get("id", "").removeprefix("erro-"))

    def handle_endtag(self, tag: str) -> None:
        if self._aberto and tag == self._aberto[0]:
            texto = " ".join("".join(self._texto).split())
            onde = self._aberto[1]
            if onde == "titulo":
                self.erros.titulo = texto
            elif onde == "resumo":
                self.erros.resumo.append(texto)
            else:
                self.erros.ao_lado[onde] = texto
            self._aberto = None
        if tag == "div" and self._dentro:
            self._dentro -= 1

    def handle_data(self, data: str) -> None:
        if self._aberto:
            self._texto.append(data)

    def _abrir(self, tag: str, onde: str) -> None:
        self._aberto, self._texto = (tag, onde), []


def erros_da_pagina(html: str) -> ErrosDaPagina:
    """The errors of a refused form's page (see :class:`ErrosDaPagina`). Checks what the
    summary's template promises: at most one summary, and a heading that counts its errors
    (``…: N erros``) when there are several, one error otherwise."""
    leitor = _LeitorDeErros()
    leitor.feed(html)
    leitor.close()
    erros = leitor.erros
    assert erros.resumos <= 1, f"{erros.resumos} resumos de erros na página"
    contagem = re.search(r": (\d+) erros$", erros.titulo)
    if erros.resumos:
        quantos = int(contagem[1]) if contagem else 1
        assert len(erros.resumo) == quantos, (erros.titulo, erros.resumo)
    return erros


def todos_os_erros(
    html: str, titulo: str, campos: list[str], prefixo: str = "campo-"
) -> ErrosDaPagina:
    """A form refused with several errors at once: the summary's heading is ``titulo``, its
    errors link to these fields in this order, and exactly these fields are marked invalid
    (each field's control has the id ``prefixo`` + its name). The errors, for more checks."""
    erros = erros_da_pagina(html)
    ids = [prefixo + campo for campo in campos]
    assert erros.titulo == titulo, erros.titulo
    assert erros.ligacoes == ids, erros.ligacoes
    assert sorted(erros.invalidos) == sorted(ids), erros.invalidos
    return erros
