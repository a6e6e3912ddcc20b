# Sourced by .ci/run: install (when missing) and start a throwaway PostgreSQL server on loopback
# for the storage tests, export its URL in BANGARENA_TEST_PG_URL, and stop it on exit.
# Runs as root on Debian; the server runs as the `postgres` user in a temporary directory.
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
if [ -z "$(pg_bin)" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN="$(pg_bin)"
PG_DIR="$(mktemp -d /tmp/bangarena-pg.XXXXXX)"
PG_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
id postgres >/dev/null 2>&1 || useradd --system --home "$PG_DIR" postgres
chown postgres "$PG_DIR"
su postgres -s /bin/sh -c "'$PG_BIN/initdb' -D '$PG_DIR/data' -A trust -U postgres --no-sync -E UTF8" >/dev/null
su postgres -s /bin/sh -c "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -l '$PG_DIR/log' -w \
    -o \"-c listen_addresses=127.0.0.1 -p $PG_PORT -k '$PG_DIR' -c fsync=off -c max_connections=200\" start" >/dev/null
export BANGARENA_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/postgres"
stop_postgres() { su postgres -s /bin/sh -c "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -m fast stop" >/dev/null 2>&1 || true; }
trap stop_postgres EXIT
