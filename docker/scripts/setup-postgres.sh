#!/bin/sh
# One-shot schema setup for Temporal on PostgreSQL (run by the temporal-admin-tools service).
# Safe to re-run on every `docker compose up`: `create` fails harmlessly on an existing database,
# `setup-schema -v 0.0` leaves an already-stamped schema alone (only --overwrite resets it), and
# `update-schema` applies only the versions newer than the stored one.
set -eu
: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required (temporal-sql-tool reads it)}"
DB_PORT=${DB_PORT:-5432}

echo "Waiting for PostgreSQL at ${POSTGRES_SEEDS}:${DB_PORT}..."
nc -z -w 10 "$POSTGRES_SEEDS" "$DB_PORT"

sql_tool() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -u "$POSTGRES_USER" -p "$DB_PORT" "$@"
}

setup_database() {
  database=$1
  schema_dir=/etc/temporal/schema/postgresql/v12/$2/versioned
  sql_tool --db "$database" create || echo "Database $database already exists"
  sql_tool --db "$database" setup-schema -v 0.0
  sql_tool --db "$database" update-schema -d "$schema_dir"
}

setup_database temporal temporal
setup_database temporal_visibility visibility
echo 'PostgreSQL schema setup complete'
