"""The services: they own the database, the clock and the files (the processos, the lists, the ledger, the year, imports, re-evaluation, saved cases)."""
