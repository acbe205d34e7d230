"""The suite's configuration: its fixtures are the plugins of tests/fixtures/ (the session's
options and markers, the databases, the browser); its plain helpers (factories, data, small functions) are the modules of tests/utils/."""

from __future__ import annotations

from hypothesis import settings

pytest_plugins = [
    "tests.fixtures.sessao",
    "tests.fixtures.bancos",
    "tests.fixtures.papeis",
    "tests.fixtures.registros",
    "tests.fixtures.navegador",
    "tests.fixtures.navegacao",
    "tests.fixtures.servidor",
]

# Hypothesis: no per-example deadline. On a shared 2-core machine a slow example is load, not
# a defect; the properties, not the timings, are what these tests check.
settings.register_profile("multas", deadline=None)
settings.load_profile("multas")
