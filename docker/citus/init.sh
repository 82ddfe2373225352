#!/bin/sh
# Runs once on each node's first start (docker-entrypoint-initdb.d): the extensions the app
# needs, in the app's database, on the coordinator and on every worker alike.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
CREATE EXTENSION IF NOT EXISTS citus;
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
SQL
