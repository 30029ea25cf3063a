#!/usr/bin/env bash
# A database topology past one server, on this machine, for the tests and benchmarks that need it:
# a streaming standby (hot standby) of the local PostgreSQL on port 5433 and PgBouncer on port 6432 in
# transaction mode in front of the primary. Everything lives under PG_TOPOLOGY_DIR; the primary is
# only asked to accept replication connections from 127.0.0.1 (a line in its pg_hba.conf and a
# reload, when it does not yet).
#
#   scripts/pg-topology.sh start          the standby and PgBouncer (each left as it is when running)
#   scripts/pg-topology.sh stop           both, and their directory removed
#   scripts/pg-topology.sh standby-stop   the standby alone (its data kept), e.g. to test a replica down
#   scripts/pg-topology.sh standby-start  the standby again
#   scripts/pg-topology.sh env            the service's settings for this topology, as shell assignments
set -euo pipefail

PRIMARY_PORT="${PG_PRIMARY_PORT:-5432}"
STANDBY_PORT="${PG_STANDBY_PORT:-5433}"
POOLER_PORT="${PG_POOLER_PORT:-6432}"
DIR="${PG_TOPOLOGY_DIR:-/tmp/ums-pg-topology}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
STANDBY_DATA="$DIR/standby"
POOLER_DIR="$DIR/pgbouncer"
# PostgreSQL and PgBouncer refuse to run as root: as root, they run as the postgres user.
OWNER="$(id -un)"
[ "$OWNER" = root ] && OWNER=postgres

say() { echo "pg-topology: $*"; }
as_owner() { if [ "$(id -un)" = "$OWNER" ]; then "$@"; else runuser -u "$OWNER" -- "$@"; fi; }
standby_running() { [ -f "$STANDBY_DATA/postmaster.pid" ] && as_owner "$PG_BIN/pg_ctl" -D "$STANDBY_DATA" status >/dev/null 2>&1; }
pooler_running() { [ -f "$POOLER_DIR/pgbouncer.pid" ] && kill -0 "$(cat "$POOLER_DIR/pgbouncer.pid")" 2>/dev/null; }

replication_allowed() {
  "$PG_BIN/psql" "host=127.0.0.1 port=$PRIMARY_PORT user=postgres replication=true dbname=postgres" \
    -Atc IDENTIFY_SYSTEM >/dev/null 2>&1
}

allow_replication() {
  if replication_allowed; then return 0; fi
  local hba
  hba="$("$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -Atc 'SHOW hba_file')"
  say "allowing replication connections from 127.0.0.1 in $hba, and reloading the primary"
  echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
  "$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -Atc 'SELECT pg_reload_conf()' >/dev/null
  for _ in $(seq 1 20); do replication_allowed && return 0; sleep 0.5; done
  say "the primary on port $PRIMARY_PORT still refuses replication connections" >&2
  return 1
}

wait_ready() {
  local port="$1" what="$2"
  for _ in $(seq 1 60); do
    "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" && return 0
    sleep 0.5
  done
  say "$what on port $port is not ready" >&2
  return 1
}

start_standby() {
  if standby_running; then
    say "standby already running on port $STANDBY_PORT ($STANDBY_DATA)"
    return 0
  fi
  if [ ! -f "$STANDBY_DATA/standby.signal" ]; then
    allow_replication
    say "base backup of 127.0.0.1:$PRIMARY_PORT into $STANDBY_DATA (pg_basebackup -R)"
    rm -rf "$STANDBY_DATA"
    mkdir -p "$STANDBY_DATA"
    chown "$OWNER" "$DIR" "$STANDBY_DATA"
    chmod 700 "$STANDBY_DATA"
    as_owner "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$STANDBY_DATA" -R -X stream -c fast
    # The primary's configuration lives outside its data directory (Debian): the standby gets its own,
    # with at least the primary's max_connections (a hot standby refuses to start with fewer).
    local connections
    connections="$("$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -Atc 'SHOW max_connections')"
    cat >"$STANDBY_DATA/postgresql.conf" <<EOF
port = $STANDBY_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
hot_standby = on
hot_standby_feedback = on
max_connections = $connections
shared_buffers = 64MB
logging_collector = off
EOF
    cat >"$STANDBY_DATA/pg_hba.conf" <<EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
    : >"$STANDBY_DATA/pg_ident.conf"
    chown "$OWNER" "$STANDBY_DATA/postgresql.conf" "$STANDBY_DATA/pg_hba.conf" "$STANDBY_DATA/pg_ident.conf"
  fi
  say "starting the standby on port $STANDBY_PORT (log: $DIR/standby.log)"
  as_owner "$PG_BIN/pg_ctl" -D "$STANDBY_DATA" -l "$DIR/standby.log" -w start >/dev/null
  wait_ready "$STANDBY_PORT" standby
  say "standby in recovery: $("$PG_BIN/psql" -h 127.0.0.1 -p "$STANDBY_PORT" -U postgres -d postgres -Atc 'SELECT pg_is_in_recovery()')"
}

stop_standby() {
  if standby_running; then
    say "stopping the standby on port $STANDBY_PORT"
    as_owner "$PG_BIN/pg_ctl" -D "$STANDBY_DATA" -m fast -w stop >/dev/null
  else
    say "standby not running"
  fi
}

start_pooler() {
  if pooler_running; then
    say "PgBouncer already running on port $POOLER_PORT"
    return 0
  fi
  command -v pgbouncer >/dev/null || {
    say "pgbouncer is not installed (apt-get install -y pgbouncer)" >&2
    return 1
  }
  mkdir -p "$POOLER_DIR"
  # Trust, as the primary's own 127.0.0.1 rule: the users only have to be named.
  printf '"postgres" ""\n"root" ""\n' >"$POOLER_DIR/userlist.txt"
  cat >"$POOLER_DIR/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$PRIMARY_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $POOLER_PORT
unix_socket_dir = $POOLER_DIR
auth_type = trust
auth_file = $POOLER_DIR/userlist.txt
pool_mode = transaction
max_client_conn = 500
default_pool_size = 8
server_idle_timeout = 30
ignore_startup_parameters = extra_float_digits
logfile = $POOLER_DIR/pgbouncer.log
pidfile = $POOLER_DIR/pgbouncer.pid
admin_users = postgres
EOF
  chown -R "$OWNER" "$DIR"
  say "starting PgBouncer on port $POOLER_PORT in transaction mode ($POOLER_DIR/pgbouncer.ini)"
  as_owner pgbouncer -d -q "$POOLER_DIR/pgbouncer.ini"
  wait_ready "$POOLER_PORT" PgBouncer
}

stop_pooler() {
  if pooler_running; then
    say "stopping PgBouncer on port $POOLER_PORT"
    local pid
    pid="$(cat "$POOLER_DIR/pgbouncer.pid")"
    kill "$pid"
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
  else
    say "PgBouncer not running"
  fi
}

case "${1:-}" in
start)
  mkdir -p "$DIR"
  start_standby
  start_pooler
  ;;
stop)
  stop_pooler
  stop_standby
  if [ -d "$DIR" ]; then
    say "removing $DIR"
    rm -rf "$DIR"
  fi
  ;;
standby-stop) stop_standby ;;
standby-start) start_standby ;;
env)
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$POOLER_PORT/test"
  echo "DATABASE_POOLED=true"
  echo "DATABASE_LISTEN_URL=postgres://postgres@127.0.0.1:$PRIMARY_PORT/test"
  echo "DATABASE_REPLICA_URL=postgres://postgres@127.0.0.1:$STANDBY_PORT/test"
  ;;
*)
  echo "usage: $0 start|stop|standby-stop|standby-start|env" >&2
  exit 2
  ;;
esac
