#!/usr/bin/env bash
# A real Redis Cluster on loopback for the tests: three masters with one
# replica each, made by `redis-cli --cluster create`, no Docker.
#
#   tools/redis-cluster/cluster.sh start    # prints the seeds (host:port,...) once cluster_state is ok
#   tools/redis-cluster/cluster.sh stop     # stops the six servers and removes their directory
#   tools/redis-cluster/cluster.sh status   # cluster_state and the masters
#   tools/redis-cluster/cluster.sh nodes    # the seeds, for REDIS_CLUSTER_NODES
#
# REDIS_CLUSTER_PORT_BASE (default 7000): the six servers listen on BASE..BASE+5.
# REDIS_CLUSTER_DIR (default $TMPDIR/redis-cluster-BASE): each server's config,
# nodes file and log. `start` on ports that already hold a healthy cluster of
# this script leaves it as it is; anything else there (a half-made cluster, a
# stale directory) is stopped and made anew, so `start` is safe to repeat.
set -euo pipefail

base=${REDIS_CLUSTER_PORT_BASE:-7000}
dir=${REDIS_CLUSTER_DIR:-${TMPDIR:-/tmp}/redis-cluster-$base}
host=127.0.0.1
ports=$(seq "$base" $((base + 5)))

say() { echo "[redis-cluster $base] $*" >&2; }

cli() { redis-cli -h "$host" -p "$1" "${@:2}"; }

answers() { cli "$1" ping > /dev/null 2>&1; }

cluster_ok() { cli "$1" cluster info 2>/dev/null | tr -d '\r' | grep -qx 'cluster_state:ok'; }

nodes() { local seeds=(); for p in $ports; do seeds+=("$host:$p"); done; (IFS=,; echo "${seeds[*]}"); }

# Waits until every server has the whole cluster's view: state ok, 6 known nodes, all 16384 slots served.
wait_ok() {
  for _ in $(seq 1 120); do
    local all=true
    for p in $ports; do
      local info
      info=$(cli "$p" cluster info 2>/dev/null | tr -d '\r') || { all=false; break; }
      grep -qx 'cluster_state:ok' <<< "$info" && grep -qx 'cluster_known_nodes:6' <<< "$info" \
        && grep -qx 'cluster_slots_ok:16384' <<< "$info" || { all=false; break; }
    done
    $all && return 0
    sleep 0.5
  done
  say "cluster_state is not ok on every node after 60 s"
  return 1
}

stop() {
  for p in $ports; do
    if answers "$p"; then cli "$p" shutdown nosave > /dev/null 2>&1 || true; fi
  done
  for p in $ports; do
    for _ in $(seq 1 50); do answers "$p" || break; sleep 0.1; done
    if answers "$p"; then say "port $p still answers after SHUTDOWN"; return 1; fi
  done
  rm -rf "$dir"
}

start() {
  command -v redis-server > /dev/null || { say "redis-server is not on PATH"; exit 1; }
  local healthy=true
  for p in $ports; do cluster_ok "$p" && [ -f "$dir/$p/nodes.conf" ] || healthy=false; done
  if $healthy; then
    say "already running"
    nodes
    return 0
  fi
  stop
  for p in $ports; do
    mkdir -p "$dir/$p"
    # No persistence: a test cluster is made anew each time. cluster-node-timeout
    # is short so that a killed master's replica is promoted within seconds.
    cat > "$dir/$p/redis.conf" <<EOF
port $p
bind $host
dir $dir/$p
cluster-enabled yes
cluster-config-file nodes.conf
cluster-node-timeout 2000
cluster-replica-validity-factor 0
save ""
appendonly no
daemonize yes
pidfile $dir/$p/redis.pid
logfile $dir/$p/redis.log
EOF
    redis-server "$dir/$p/redis.conf"
  done
  for p in $ports; do
    for _ in $(seq 1 100); do answers "$p" && break; sleep 0.1; done
    answers "$p" || { say "redis-server on port $p did not start (see $dir/$p/redis.log)"; exit 1; }
  done
  local seeds=()
  for p in $ports; do seeds+=("$host:$p"); done
  redis-cli --cluster create "${seeds[@]}" --cluster-replicas 1 --cluster-yes > "$dir/create.log" 2>&1 \
    || { cat "$dir/create.log" >&2; exit 1; }
  wait_ok
  say "cluster_state:ok"
  nodes
}

status() {
  for p in $ports; do
    if answers "$p"; then
      echo "$p $(cli "$p" cluster info | tr -d '\r' | grep cluster_state) $(cli "$p" role | head -1)"
    else
      echo "$p down"
    fi
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  nodes) nodes ;;
  wait) wait_ok ;;
  *) echo "usage: $0 start|stop|status|nodes|wait" >&2; exit 2 ;;
esac
