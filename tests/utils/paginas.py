"""What the tests read in a rendered page: the suggestion boxes of the days without office
hours (by the date they offer) and the ids the labels point at."""

from __future__ import annotations

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
