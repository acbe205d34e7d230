"""The pure core: money, dates, the calendar, the contract, the legislation, the regimes, the kernel, the memória and the § 6 deadlines; no database, no clock, no terminal, no PDF."""
