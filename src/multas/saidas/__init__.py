"""The output: reports, exports and the terminal's text, made from the core's results."""
