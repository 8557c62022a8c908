#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL server for the test suite, on a free loopback port, with its
# data in a temporary folder. `start` prints the DATABASE_URL; `stop DIR` removes it again.
#   url=$(scripts/postgres-test-server.sh start /tmp/pg-dir)
#   scripts/postgres-test-server.sh stop /tmp/pg-dir
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?data folder}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x "$bindir/initdb" ]] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }

# The server refuses to run as root: when we are root it runs as the postgres user.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    rm -rf "$dir" && mkdir -p "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres:postgres "$dir"
    port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres parla_test
    echo "postgres://postgres@127.0.0.1:$port/parla_test"
    ;;
  stop)
    if [[ -d "$dir/data" ]]; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
