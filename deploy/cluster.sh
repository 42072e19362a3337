#!/usr/bin/env bash
# A local cluster in .cluster/ of the checkout, from Debian's packages: PostgreSQL, Redis,
# three `twinrack serve` workers and nginx in front on 127.0.0.1:8080 (docs/deploy.md).
#
#   deploy/cluster.sh up      start everything (installs the Debian packages when missing)
#   deploy/cluster.sh down    stop exactly the processes `up` started
#   deploy/cluster.sh status  what runs
#
# Ports (change with the environment): PG_PORT=54329, REDIS_PORT=63799, HTTP_PORT=8080,
# workers on WORKER_PORT+1 .. WORKER_PORT+WORKERS (8101..8103); the folder: CLUSTER_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
DIR=${CLUSTER_DIR:-$TOP/.cluster}
PG_PORT=${PG_PORT:-54329}
REDIS_PORT=${REDIS_PORT:-63799}
HTTP_PORT=${HTTP_PORT:-8080}
WORKER_PORT=${WORKER_PORT:-8100}
WORKERS=${WORKERS:-3}
BIN=$TOP/.venv/bin
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)

as_pg() {  # PostgreSQL will not run as root: run its commands as the postgres user then
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

need_packages() {
  local need=()
  [ -n "$PGBIN" ] || need+=(postgresql)
  command -v redis-server >/dev/null || need+=(redis-server)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx)
  if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} (Debian packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
}

pg_up() {
  mkdir -p "$DIR/pg"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR/pg"
  if [ ! -f "$DIR/pg/data/PG_VERSION" ]; then
    as_pg "$PGBIN/initdb -D '$DIR/pg/data' -U twinrack --auth=trust -E UTF8 >/dev/null"
  fi
  as_pg "$PGBIN/pg_ctl -D '$DIR/pg/data' -l '$DIR/pg/postgres.log' -w \
    -o \"-p $PG_PORT -k '$DIR/pg' -c listen_addresses=127.0.0.1\" start >/dev/null"
  as_pg "$PGBIN/psql -h 127.0.0.1 -p $PG_PORT -U twinrack -d postgres -tAc \
    \"SELECT 1 FROM pg_database WHERE datname='twinrack'\"" | grep -q 1 ||
    as_pg "$PGBIN/createdb -h 127.0.0.1 -p $PG_PORT -U twinrack twinrack"
}

redis_up() {
  mkdir -p "$DIR/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DIR/redis" --daemonize yes \
    --pidfile "$DIR/redis/redis.pid" --logfile "$DIR/redis/redis.log" --save "" \
    --appendonly no >/dev/null
}

workers_up() {
  mkdir -p "$DIR/workers"
  for i in $(seq 1 "$WORKERS"); do
    local port=$((WORKER_PORT + i))
    TWINRACK_DATABASE_URL="postgresql+psycopg://twinrack@127.0.0.1:$PG_PORT/twinrack" \
    TWINRACK_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0" TWINRACK_WORKER_ID="w$i" \
    TWINRACK_PUBLIC_URL="http://127.0.0.1:$HTTP_PORT" \
      nohup "$BIN/twinrack" serve --host 127.0.0.1 --port "$port" \
      >"$DIR/workers/w$i.log" 2>&1 &
    echo $! >"$DIR/workers/w$i.pid"
  done
  for i in $(seq 1 "$WORKERS"); do
    local ok=""
    for _ in $(seq 1 300); do
      curl -sf "http://127.0.0.1:$((WORKER_PORT + i))/healthz" >/dev/null && { ok=1; break; }
      running "$DIR/workers/w$i.pid" || break
      sleep 0.2
    done
    if [ -z "$ok" ]; then
      echo "worker w$i did not start; the end of $DIR/workers/w$i.log:" >&2
      tail -5 "$DIR/workers/w$i.log" >&2
      down >/dev/null
      exit 1
    fi
  done
}

nginx_up() {
  mkdir -p "$DIR/nginx/logs" "$DIR/nginx/tmp"
  {
    echo "worker_processes 1;"
    echo "pid $DIR/nginx/nginx.pid;"
    echo "error_log $DIR/nginx/logs/error.log warn;"
    echo "events { worker_connections 4096; }"
    echo "http {"
    echo "  access_log off;"
    echo "  client_body_temp_path $DIR/nginx/tmp/body;"
    echo "  proxy_temp_path $DIR/nginx/tmp/proxy;"
    echo "  fastcgi_temp_path $DIR/nginx/tmp/fastcgi;"
    echo "  uwsgi_temp_path $DIR/nginx/tmp/uwsgi;"
    echo "  scgi_temp_path $DIR/nginx/tmp/scgi;"
    echo "  upstream twinrack {"
    for i in $(seq 1 "$WORKERS"); do
      echo "    server 127.0.0.1:$((WORKER_PORT + i)) max_fails=1 fail_timeout=2s;"
    done
    echo "  }"
    echo "  map \$arg_w \$twinrack_worker {"
    echo "    default twinrack;"
    for i in $(seq 1 "$WORKERS"); do
      echo "    w$i 127.0.0.1:$((WORKER_PORT + i));"
    done
    echo "  }"
    sed -n '/^  # --- server ---/,/^  # --- end ---/p' deploy/nginx.conf |
      sed -e "s/listen 80;/listen 127.0.0.1:$HTTP_PORT;/"
    echo "}"
  } >"$DIR/nginx/nginx.conf"
  /usr/sbin/nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx/"
}

alive() {  # whether process $1 runs (a zombie, dead but not yet reaped, does not)
  local state
  state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

running() {  # whether the process of pid file $1 runs
  [ -f "$1" ] && alive "$(head -1 "$1")"
}

stop_pid() {  # SIGTERM the process of pid file $1 and wait up to $2 seconds for it to go
  running "$1" || { rm -f "$1"; return 0; }
  local pid
  pid=$(head -1 "$1")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 $(($2 * 10))); do alive "$pid" || break; sleep 0.1; done
  if alive "$pid"; then
    echo "process $pid ($1) did not stop in $2 s: killed" >&2
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$1"
}

down() {
  if running "$DIR/nginx/nginx.pid"; then
    /usr/sbin/nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx/" -s quit 2>/dev/null || true
    for _ in $(seq 1 50); do running "$DIR/nginx/nginx.pid" || break; sleep 0.1; done
  fi
  # the workers first (SIGTERM: each hands its tables over, then exits), while the
  # database and Redis they need are still there
  for f in "$DIR"/workers/*.pid; do
    [ -f "$f" ] && running "$f" && kill "$(cat "$f")" 2>/dev/null
  done
  for f in "$DIR"/workers/*.pid; do
    [ -f "$f" ] && stop_pid "$f" 20
  done
  stop_pid "$DIR/redis/redis.pid" 10
  if [ -n "$PGBIN" ] && [ -f "$DIR/pg/data/postmaster.pid" ]; then
    as_pg "$PGBIN/pg_ctl -D '$DIR/pg/data' -m fast -w stop >/dev/null" || true
  fi
  echo "the local cluster is stopped"
}

status() {
  for f in "$DIR"/workers/*.pid "$DIR/redis/redis.pid" "$DIR/nginx/nginx.pid"; do
    running "$f" && echo "running: $f (pid $(head -1 "$f"))"
  done
  [ -f "$DIR/pg/data/postmaster.pid" ] && echo "running: PostgreSQL on $PG_PORT"
  curl -s "http://127.0.0.1:$HTTP_PORT/healthz" && echo
}

case "${1:-}" in
  up)
    for f in "$DIR"/workers/*.pid "$DIR/redis/redis.pid" "$DIR/nginx/nginx.pid"; do
      if running "$f"; then
        echo "the local cluster already runs ($f); stop it first: make cluster-down" >&2
        exit 1
      fi
    done
    [ -x "$BIN/twinrack" ] || { echo "no $BIN/twinrack: run make .venv/.installed" >&2; exit 1; }
    need_packages
    pg_up
    redis_up
    workers_up
    nginx_up
    echo "TwinRack cluster: open http://127.0.0.1:$HTTP_PORT/ ($WORKERS workers, PostgreSQL" \
         "on $PG_PORT, Redis on $REDIS_PORT; logs in $DIR). Stop with: make cluster-down"
    ;;
  down) down ;;
  status) status ;;
  *) echo "usage: deploy/cluster.sh up|down|status" >&2; exit 2 ;;
esac
