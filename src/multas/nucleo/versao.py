"""The engine's version, as every result, report and page names it."""

VERSAO = "0.1.0"
