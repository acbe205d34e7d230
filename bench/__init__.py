"""The measurements (``make bench``; docs/desempenho.md). Each module is a script run on its
own; this file makes the folder a package only so that a test can take a bench's inputs from
the bench itself (tests/lote/test_xlsx_arrow.py reads the workbook shape of xlsx_vs_csv.py)."""
