"""The batch: `multas lote` (files of cases in, results out, block by block, on the kernel or
the engine, locally or on Dask) and `multas exposicao` (price scenarios over a portfolio)."""
