#!/usr/bin/env bash
# Installs (Debian's packages) and starts what the full test suite needs beyond Python:
# PostgreSQL, for the persistence tests, and Chromium (with a font), for the browser test.
# Needs root; idempotent (installs only what is missing, starts only what is stopped).
# Prints the line to export; `.ci/run` evaluates it:   eval "$(bash scripts/servicos_teste.sh)"
set -euo pipefail

PACOTES=(postgresql chromium fonts-dejavu-core)
if ! dpkg -s "${PACOTES[@]}" >/dev/null 2>&1; then
    echo "instalando ${PACOTES[*]}..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${PACOTES[@]}" >&2
fi

# the newest cluster that apt created (Debian 12: 15/main)
read -r VERSAO CLUSTER PORTA < <(pg_lsclusters --no-header | sort -k1,1n | tail -n 1 | awk '{print $1, $2, $3}') || true
if [ -z "${VERSAO:-}" ]; then
    VERSAO=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
    pg_createcluster "$VERSAO" main >&2
    CLUSTER=main
    PORTA=5432
fi
pg_ctlcluster "$VERSAO" "$CLUSTER" start >&2 2>/dev/null || true
for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p "$PORTA" && break
    sleep 1
done
pg_isready -h 127.0.0.1 -p "$PORTA" >&2

USUARIO=multas
SENHA=multas
BANCO=multas_teste
como_postgres() { (cd /tmp && su postgres -c "$1"); }
if ! como_postgres "psql -p $PORTA -tAc \"SELECT 1 FROM pg_roles WHERE rolname='$USUARIO'\"" | grep -q 1; then
    como_postgres "psql -p $PORTA -q -c \"CREATE ROLE $USUARIO LOGIN PASSWORD '$SENHA'\"" >&2
fi
# CREATEROLE: the migrations create the owner role of the audit log (multas_dono) and hand
# the table to it, so the application's role may only read it and insert into it; the tests
# also create throwaway application roles (tests/persistencia/test_integridade.py)
como_postgres "psql -p $PORTA -q -c \"ALTER ROLE $USUARIO CREATEROLE\"" >&2
if ! como_postgres "psql -p $PORTA -tAc \"SELECT 1 FROM pg_database WHERE datname='$BANCO'\"" | grep -q 1; then
    como_postgres "createdb -p $PORTA -O $USUARIO $BANCO" >&2
fi
# two roles, as in production (issue 16): the one above owns the tables and runs the
# migrations; the application's role below may not create roles nor own anything, and gets
# its rights from the migrations (the tests that start `multas servir` on PostgreSQL use it)
APLICACAO=multas_app_teste
if ! como_postgres "psql -p $PORTA -tAc \"SELECT 1 FROM pg_roles WHERE rolname='$APLICACAO'\"" | grep -q 1; then
    como_postgres "psql -p $PORTA -q -c \"CREATE ROLE $APLICACAO LOGIN PASSWORD '$APLICACAO' NOCREATEROLE NOCREATEDB\"" >&2
fi
echo "export MULTAS_TEST_POSTGRES_URL=postgresql+psycopg://$USUARIO:$SENHA@127.0.0.1:$PORTA/$BANCO"
echo "export MULTAS_TEST_POSTGRES_URL_APP=postgresql+psycopg://$APLICACAO:$APLICACAO@127.0.0.1:$PORTA/$BANCO"
