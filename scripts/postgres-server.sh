#!/usr/bin/env bash
# A throwaway PostgreSQL server for forkpoint's tests and benchmarks, from Debian's `postgresql` package:
#   scripts/postgres-server.sh start   # makes the cluster on first use, starts it, prints FORKPOINT_TEST_PG=<url>
#   scripts/postgres-server.sh stop
#   scripts/postgres-server.sh url     # the URL of the running server
# It listens on 127.0.0.1 only (port $FORKPOINT_PG_PORT, default 54329), with password authentication, and
# keeps its files in $FORKPOINT_PG_DIR (default /tmp/forkpoint-postgres). Run as root (CI), the server runs as
# the `postgres` user, which PostgreSQL requires.
set -euo pipefail

dir="${FORKPOINT_PG_DIR:-/tmp/forkpoint-postgres}"
port="${FORKPOINT_PG_PORT:-54329}"
user=forkpoint
password=forkpoint
database=forkpoint
url="postgres://${user}:${password}@127.0.0.1:${port}/${database}"

bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
if [[ -z "$bindir" || ! -x "$bindir/initdb" ]]; then
  echo "postgres-server: PostgreSQL is not installed; install it with: apt-get update && apt-get install -y postgresql" >&2
  exit 2
fi

# PostgreSQL refuses to run as root: as root, its commands run as the postgres user.
as_owner() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  if [[ ! -s "$dir/data/PG_VERSION" ]]; then
    mkdir -p "$dir"
    [[ "$(id -u)" == 0 ]] && chown postgres: "$dir"
    local pwfile="$dir/superuser-password"
    as_owner bash -c "umask 077; echo postgres > '$pwfile'"
    as_owner "$bindir/initdb" --pgdata="$dir/data" --username=postgres --auth=scram-sha-256 --pwfile="$pwfile" \
      --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    # Loopback only, the socket beside the data, and settings for a test server.
    as_owner bash -c "cat >> '$dir/data/postgresql.conf'" <<CONF
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = '${dir}'
max_connections = 200
shared_buffers = 128MB
log_min_messages = warning
CONF
  fi
  if ! as_owner "$bindir/pg_ctl" --pgdata="$dir/data" status >/dev/null 2>&1; then
    as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 start >/dev/null
  fi
  # The role and database the tests use: an owner of its database, not a superuser, allowed to run CHECKPOINT
  # and to read settings such as data_directory (the retention test reads the server's files).
  PGPASSWORD=postgres "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q <<SQL
SELECT 'CREATE ROLE ${user} LOGIN PASSWORD ''${password}''' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${user}')\gexec
SELECT 'CREATE DATABASE ${database} OWNER ${user}' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${database}')\gexec
GRANT pg_checkpoint, pg_read_all_settings TO ${user};
SQL
  echo "FORKPOINT_TEST_PG=${url}"
}

stop() {
  if [[ -s "$dir/data/PG_VERSION" ]]; then
    as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null 2>&1 || true
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) echo "$url" ;;
  *)
    echo "usage: scripts/postgres-server.sh start|stop|url" >&2
    exit 2
    ;;
esac
