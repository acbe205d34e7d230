"""The command line: one module per command group (calcular, regimes, legislacao, calendario,
reavaliar, prazos and pendencias, processo, listas, carteira, ano)."""
