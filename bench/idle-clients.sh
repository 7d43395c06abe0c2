#!/usr/bin/env bash
# Resident memory with many idle clients (step 13, target 4): N clients log in through Sluice and
# through PgBouncer (transaction mode, trust, the same pgbouncer.ini but the port) and stay idle;
# per pooler: RSS before, RSS with N logged-in clients, and the cost per client; for Sluice also
# the heap its live objects take after a full collection (jcmd), before and with the clients,
# which is what a client costs against -Xmx. Sluice runs with the launcher's (= the package's)
# JVM options unless JAVA_OPTS is set. Loopback only.
#
#   bench/idle-clients.sh [clients]      (default 10000; needs `ulimit -n` above clients + 100)
n=${1:-10000}
. "$(dirname "$0")/lib.sh"
[ "$(ulimit -Hn)" -gt $((n + 200)) ] || { echo "fd limit $(ulimit -Hn) is too low for $n clients" >&2; exit 2; }
ulimit -n "$(ulimit -Hn)"
pg_port=$(free_port)
start_postgres "$pg_port" <<<"max_connections = 50"
echo '"postgres" ""' > "$work/userlist.txt"
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
# heap_kb PID: a JVM's used heap in KiB right after a full collection (the live objects)
heap_kb() {
  jcmd "$1" GC.run >/dev/null &&
    jcmd "$1" GC.heap_info | awk '/total .*used/ && !/Metaspace|class space/ {
      for (i = 1; i < NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); kb += v } } END { print kb }'
}

# logs N clients in with the raw protocol and keeps them open until stdin closes
cat > "$work/idle.py" <<'PY'
import resource, socket, struct, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
body = b"user\0postgres\0database\0postgres\0\0"
startup = struct.pack("!ii", len(body) + 8, 196608) + body
held = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(startup)
    buf = b""
    while True:  # until ReadyForQuery
        chunk = s.recv(65536)
        if not chunk:
            sys.exit(f"client {i}: connection closed during login: {buf[-200:]!r}")
        buf += chunk
        if len(buf) >= 6 and buf[-6:-5] == b"Z":
            break
        if buf[:1] == b"E":
            sys.exit(f"client {i}: login refused: {buf[:200]!r}")
    held.append(s)
print(f"{n} clients logged in", flush=True)
sys.stdin.read()
PY

measure() { # $1 label, $2 pid, $3 port
  local before after heap0 heap1
  before=$(rss_kb "$2")
  [ "$1" = pgbouncer ] || heap0=$(heap_kb "$2")
  coproc IDLE { python3 "$work/idle.py" "$3" "$n"; }
  read -r line <&"${IDLE[0]}" || { echo "$1: the clients did not log in" >&2; return 1; }
  sleep 2   # let the pooler settle (GC, buffers) before reading its resident size
  after=$(rss_kb "$2")
  if [ "$1" != pgbouncer ]; then
    heap1=$(heap_kb "$2")
    printf '%-10s live heap before %5d MiB   with %d idle clients %5d MiB   %6.1f KiB per client\n' "$1" \
      $((heap0 / 1024)) "$n" $((heap1 / 1024)) "$(python3 -c "print(($heap1 - $heap0) / $n)")"
  fi
  exec {IDLE[1]}>&-; wait "$IDLE_PID" 2>/dev/null || true
  printf '%-10s before %5d MiB   with %d idle clients %5d MiB   %6.1f KiB per client\n' "$1" \
    $((before / 1024)) "$n" $((after / 1024)) "$(python3 -c "print(($after - $before) / $n)")"
}

for pooler in pgbouncer sluice; do
  port=$(free_port)
  MAX_CLIENT_CONN=$((n + 100)) pgbench_ini "$port" > "$work/$pooler.ini"
  is_root && chown postgres: "$work"/*.ini "$work/userlist.txt"
  start_pooler "$pooler" "$work/$pooler.ini" "$port"
  pid=$pooler_pid
  measure "$pooler" "$pid" "$port"
  kill "$pid" 2>/dev/null || true
done
