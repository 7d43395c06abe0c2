#!/usr/bin/env bash
# Accept-queue overflows under bursts of quick connects (issue 15 item 8), Sluice beside PgBouncer:
# each pooler runs alone in a private network namespace (so the kernel's ListenOverflows counter
# is its own), with listen_backlog at PgBouncer's default 128, and a client in the same namespace
# sends CANCEL requests with unknown keys (connect, 16 bytes, closed at once: no PostgreSQL
# needed) from many threads. Prints, per pooler and round: elapsed seconds, accept-queue
# overflows, and connects that took a SYN retransmission (>= 0.9 s).
#
#   bench/accept-burst.sh [CONNECTS=3000] [THREADS=200] [ROUNDS=3]      (needs root for unshare -n)
#   SLUICE_JAR=/path/to/other/sluice.jar bench/accept-burst.sh           (another Sluice build)
#   BUSY=100 bench/accept-burst.sh     the bursts arrive while BUSY pgbench -S clients keep the
#                                      pooler's loop busy (a PostgreSQL is started for them,
#                                      reached over its unix socket from the namespace)
#
# Figures depend on the machine's load; compare the two poolers in the same run, never across runs.
source "$(dirname "$0")/lib.sh"
connects=${1:-3000}; threads=${2:-200}; rounds=${3:-3}
jar=${SLUICE_JAR:-$jar}  # another build to measure, e.g. one from before a change
is_root || { echo "needs root (unshare -n) to count overflows in a namespace of its own" >&2; exit 2; }
command -v unshare >/dev/null || { echo "unshare (util-linux) is missing" >&2; exit 2; }

cat > "$work/burst.py" <<'PY'
import socket, struct, sys, threading, time
port, n, threads, rounds = (int(a) for a in sys.argv[1:5])
def counters():
    lines = open('/proc/net/netstat').read().split('\n')
    head, vals = lines[0].split(), lines[1].split()
    return int(vals[head.index('ListenOverflows')])
deadline = time.time() + 30
while True:
    try:
        socket.create_connection(('127.0.0.1', port), timeout=1).close(); break
    except OSError:
        if time.time() > deadline: sys.exit('nothing listens on %d' % port)
        time.sleep(0.1)
for r in range(rounds):
    before, slow, lock = counters(), [0], threading.Lock()
    def worker(k):
        for i in range(k):
            t = time.time()
            s = socket.create_connection(('127.0.0.1', port), timeout=10)
            s.sendall(struct.pack('!iiii', 16, 80877102, i, i))
            try: s.recv(1)
            except OSError: pass
            s.close()
            if time.time() - t >= 0.9:
                with lock: slow[0] += 1
    ts = [threading.Thread(target=worker, args=(n // threads,)) for _ in range(threads)]
    t0 = time.time()
    for t in ts: t.start()
    for t in ts: t.join()
    print('  round %d: %5.2f s  overflows %4d  retransmitted connects %4d'
          % (r + 1, time.time() - t0, counters() - before, slow[0]), flush=True)
PY

port=6432  # inside each pooler's own namespace, so any port is free
ini="$work/accept.ini"
busy=${BUSY:-0}
database="nowhere = host=127.0.0.1 port=1"
if [ "$busy" -gt 0 ]; then
  pgbench_cluster
  database="postgres = host=$work port=$pg_port dbname=postgres"
fi
printf '[databases]\n%s\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = %s\nunix_socket_dir =\nauth_type = trust\nauth_file = %s/users.txt\nmax_client_conn = 5000\n' \
  "$database" "$port" "$work" > "$ini"
echo '"postgres" ""' > "$work/users.txt"
is_root && chown postgres: "$ini" "$work/users.txt"

run() { # NAME COMMAND...: the command and the client share one fresh namespace
  local name=$1; shift
  echo "$name"
  unshare -n bash -c 'ip link set lo up 2>/dev/null || ifconfig lo up; ulimit -n 8192; "$@" >/dev/null 2>&1 & srv=$!;
    pgbin='"$pgbin"'; '"$(declare -f busy_load)"'; busy_load '"$port $busy $work/busy.out"'
    python3 "$0" '"$port $connects $threads $rounds"'
    [ -n "${load:-}" ] && { wait $load 2>/dev/null || true; }
    kill $srv; wait $srv 2>/dev/null || true' \
    "$work/burst.py" "$@"
  [ "$busy" -gt 0 ] && echo "  meanwhile $busy pgbench -S clients: $(grep -E '^(tps|number of transactions actually)' "$work/busy.out" | tr '\n' ' ')"
  true
}

busy_load() { # PORT CLIENTS OUT: (inside the namespace) once the pooler listens, CLIENTS pgbench
  # -S clients for 10 s of warm-up, then in the background for the bursts (sets load; output to OUT)
  [ "$2" -gt 0 ] || return 0
  local i; for i in $(seq 1 300); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && break; sleep 0.1; done
  "$pgbin/pgbench" -n -S -c "$2" -j 2 -T 10 -h 127.0.0.1 -p "$1" -U postgres postgres >/dev/null 2>&1
  "$pgbin/pgbench" -n -S -c "$2" -j 2 -T 20 -h 127.0.0.1 -p "$1" -U postgres postgres > "$3" 2>&1 & load=$!
}
run "Sluice" java -Xmx256m -jar "$jar" -q "$ini"
run "PgBouncer $("$pgbouncer" --version | head -1 | awk '{print $2}')" \
  setpriv --reuid=postgres --regid=postgres --init-groups -- "$pgbouncer" -q "$ini"
