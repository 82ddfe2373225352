#!/bin/sh
# Runs once, as the superuser, when the PostgreSQL data volume is first initialised (the
# postgres image runs /docker-entrypoint-initdb.d/*). The app connects as APP_DB_USER, which
# is not a superuser and owns only its database; the extensions need a superuser (pgvector is
# not a trusted extension), so they are created here and the app's migration skips them.
set -eu

: "${APP_DB_PASSWORD:?set APP_DB_PASSWORD}"
APP_DB_USER="${APP_DB_USER:-cms}"
APP_DB_NAME="${APP_DB_NAME:-cms}"

psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  -v app_user="$APP_DB_USER" -v app_password="$APP_DB_PASSWORD" -v app_db="$APP_DB_NAME" <<'SQL'
CREATE ROLE :"app_user" LOGIN PASSWORD :'app_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
-- UTF-8 ctype: pg_trgm extracts no trigrams from Japanese text under LC_CTYPE=C.
CREATE DATABASE :"app_db" OWNER :"app_user" ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'
  TEMPLATE template0;
\connect :"app_db"
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS pg_textsearch;
SQL
