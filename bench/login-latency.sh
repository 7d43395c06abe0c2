#!/usr/bin/env bash
# Logins one at a time (step 13, "Logins"): how long from connect to ReadyForQuery, trust, raw
# protocol (a small Python client, so no driver's own cost is in the figure), through PgBouncer
# and Sluice on one PostgreSQL, transaction pooling, warm pools; then how long the client's first
# query (SELECT 1) takes, which in transaction pooling includes getting a server. Each round, per
# pooler in rotating order: WARMUP logins unmeasured, then LOGINS measured, each login sending
# its query and closing with Terminate before the next; HOLD idle logged-in clients stay connected
# meanwhile (the cost of connected clients). Prints each round and, per pooler and for each of
# the two, the medians over rounds of p50, p90, p99 and max, and the ratios Sluice / PgBouncer.
#
#   [ROUNDS=5] [LOGINS=500] [WARMUP=2000] [HOLD=0] bench/login-latency.sh
#
# Needs: server/target/sluice.jar (or SLUICE_JAR), pgbouncer, PostgreSQL binaries, python3.
export LC_NUMERIC=C
rounds=${ROUNDS:-5}
logins=${LOGINS:-500}
warmup=${WARMUP:-2000}
hold=${HOLD:-0}
. "$(dirname "$0")/lib.sh"
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }
pgbench_cluster
echo '"postgres" ""' > "$work/userlist.txt"
MAX_CLIENT_CONN=$((hold + 100)) start_poolers

cat > "$work/logins.py" <<'PY'
# PORT LOGINS WARMUP HOLD -> "p50 p90 p99 max" of the logins, then of their first queries, in microseconds
import socket, struct, sys, time
port, n, warm, hold = (int(a) for a in sys.argv[1:5])
body = struct.pack("!i", 196608) + b"user\0postgres\0database\0postgres\0\0"
startup = struct.pack("!i", len(body) + 4) + body
terminate = b"X\0\0\0\4"
query = b"Q" + struct.pack("!i", 4 + 9) + b"SELECT 1\0"
def login():
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(startup)
    return ready(s)
def ready(s):
    """reads until ReadyForQuery; an ErrorResponse fails the run"""
    buf = b""
    while True:
        d = s.recv(65536)
        if not d:
            raise SystemExit("connection closed: %r" % buf[:200])
        buf += d
        i = 0
        while i + 5 <= len(buf):
            kind, length = buf[i:i + 1], struct.unpack("!i", buf[i + 1:i + 5])[0]
            if i + 1 + length > len(buf):
                break
            if kind == b"E":
                raise SystemExit("error from the pooler: %r" % buf[i:i + 1 + length])
            if kind == b"Z":
                return s
            i += 1 + length
held = [login() for _ in range(hold)]
for _ in range(warm):
    s = login(); s.sendall(query); ready(s); s.sendall(terminate); s.close()
logins, queries = [], []
for _ in range(n):
    t = time.perf_counter()
    s = login()
    t1 = time.perf_counter()
    s.sendall(query); ready(s)
    logins.append((t1 - t) * 1e6); queries.append((time.perf_counter() - t1) * 1e6)
    s.sendall(terminate); s.close()
for lat in (logins, queries):
    lat.sort()
    print("%.0f %.0f %.0f %.0f" % (lat[len(lat) // 2], lat[int(len(lat) * 0.9)], lat[int(len(lat) * 0.99)], lat[-1]), end=" ")
print()
PY

names=(pgbouncer sluice)
: > "$work/results"
for ((r = 0; r < rounds; r++)); do
  for k in 0 1; do
    name=${names[$(( (r + k) % 2 ))]}
    read -r p50 p90 p99 mx q50 q90 q99 qmx < <(python3 "$work/logins.py" "${port[$name]}" "$logins" "$warmup" "$hold")
    echo "$name $p50 $p90 $p99 $mx $q50 $q90 $q99 $qmx" >> "$work/results"
    echo "round $((r + 1))/$rounds $name: login p50 $p50 us, p90 $p90 us, p99 $p99 us, max $mx us;" \
      "first query p50 $q50 us, p90 $q90 us, p99 $q99 us, max $qmx us"
  done
done

python3 - "$work/results" "$logins" "$hold" <<'PY'
import sys
from statistics import median
runs = {}
for line in open(sys.argv[1]):
    name, *v = line.split()
    runs.setdefault(name, []).append([float(x) for x in v])
cols = ("p50", "p90", "p99", "max")
med = {n: [median(r[i] for r in v) for i in range(8)] for n, v in runs.items()}
print()
print(f"{sys.argv[2]} logins one at a time, {sys.argv[3]} idle clients held; medians over {len(runs['sluice'])} rounds (us)")
for title, at in (("login to ReadyForQuery", 0), ("first query after login", 4)):
    print(title)
    print(f"{'pooler':<10}" + "".join(f"{c:>8}" for c in cols))
    for n in ("pgbouncer", "sluice"):
        print(f"{n:<10}" + "".join(f"{x:>8.0f}" for x in med[n][at:at + 4]))
    print(f"{'ratio':<10}" + "".join(f"{s / p:>8.2f}" for s, p in zip(med["sluice"][at:at + 4], med["pgbouncer"][at:at + 4])))
PY
