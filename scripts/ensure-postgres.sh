#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and CI, on loopback only, with trust authentication.
#
#   ensure-postgres.sh DIR PORT   install PostgreSQL if missing (Debian's package, needs root), create a
#                                 cluster under DIR if there is none, start it on 127.0.0.1:PORT if it
#                                 is not running, create the database durable_agent_test, and print its
#                                 connection string (the only thing written to stdout)
#   ensure-postgres.sh stop DIR   stop the cluster under DIR if it runs (DIR is left for the caller)
#
# Idempotent: running either form twice does no harm. As root, the server runs as the `postgres`
# system user (initdb refuses root). Never use such a cluster for real data: trust authentication
# lets every local user in, and fsync is off.
set -euo pipefail

DATABASE=durable_agent_test
log() { echo "[ensure-postgres] $*" >&2; }
die() { log "error: $*"; exit 1; }

# Debian keeps the server binaries out of PATH, under /usr/lib/postgresql/<version>/bin.
find_bin_dir() {
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$newest" && -x "$newest/initdb" && -x "$newest/pg_ctl" ]]; then echo "$newest"; return; fi
  if command -v pg_ctl >/dev/null && command -v initdb >/dev/null; then dirname "$(command -v pg_ctl)"; fi
}

install_postgres() {
  [[ $(id -u) -eq 0 ]] || die "PostgreSQL is not installed and only root can install it (apt-get install postgresql)"
  command -v apt-get >/dev/null || die "PostgreSQL is not installed and there is no apt-get to install it with"
  log "installing Debian's postgresql package"
  local started=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq -o DPkg::Lock::Timeout=300 postgresql >&2
  log "installed in $((SECONDS - started)) s"
}

# Runs a server program as the cluster's owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

init_cluster() {
  local dir=$1 data=$1/data
  [[ -f "$data/PG_VERSION" ]] && return
  if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || die "there is no postgres system user to run the server as"
    chown postgres: "$dir"
    as_owner test -w "$dir" || die "the postgres user cannot write to $dir (is a parent directory private?)"
  fi
  as_owner "$BIN/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  echo "include_if_exists = 'durable_agent.conf'" >>"$data/postgresql.conf"
}

start_cluster() {
  local dir=$1 port=$2 data=$1/data
  if as_owner "$BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; then return; fi
  # Rewritten on every start, so that a second run may choose another port.
  cat >"$data/durable_agent.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  [[ $(id -u) -eq 0 ]] && chown postgres: "$data/durable_agent.conf"
  local started=$SECONDS
  as_owner "$BIN/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 start >&2 \
    || { tail -n 30 "$dir/server.log" >&2 || true; die "the server did not start"; }
  log "started on 127.0.0.1:$port in $((SECONDS - started)) s"
}

create_database() {
  local port=$1 psql=("$BIN/psql" -X -q -h 127.0.0.1 -p "$1" -U postgres -d postgres -v ON_ERROR_STOP=1)
  if [[ -z $("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'") ]]; then
    "${psql[@]}" -c "CREATE DATABASE $DATABASE" >&2
  fi
}

stop_cluster() {
  local data=$1/data
  [[ -f "$data/PG_VERSION" ]] || { log "no cluster under $1"; return; }
  if as_owner "$BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    as_owner "$BIN/pg_ctl" -D "$data" -m fast -w -t 60 stop >&2
  fi
}

usage() { die "usage: $0 DIR PORT | $0 stop DIR"; }

if [[ ${1:-} == stop ]]; then
  [[ $# -eq 2 ]] || usage
  BIN=$(find_bin_dir)
  [[ -n "$BIN" ]] || { log "PostgreSQL is not installed: nothing to stop"; exit 0; }
  stop_cluster "$(realpath "$2")"
  exit 0
fi

[[ $# -eq 2 && $2 =~ ^[0-9]+$ ]] || usage
DIR=$1 PORT=$2
mkdir -p "$DIR"
DIR=$(realpath "$DIR")
BIN=$(find_bin_dir)
if [[ -z "$BIN" ]]; then
  install_postgres
  BIN=$(find_bin_dir)
  [[ -n "$BIN" ]] || die "postgresql was installed but no initdb/pg_ctl was found"
fi
init_cluster "$DIR"
start_cluster "$DIR" "$PORT"
create_database "$PORT"
echo "postgresql://postgres@127.0.0.1:$PORT/$DATABASE"
