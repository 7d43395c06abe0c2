#!/usr/bin/env bash
# Large rows side by side (step 12, item 4): one client reads MIB rows of 1 MiB through the pooler
# (raw protocol, counting bytes, never holding a row) while a bystander runs `select 1` in a loop
# (pgbench -c 1, per-transaction log). Per pooler and round: the big query's time, the pooler's
# CPU seconds and RSS growth, and the bystander's p50 / p99 / worst latency during the big query.
# Sluice and PgBouncer take turns (A, B, A, B ...); medians and ratios at the end. Loopback only.
#
#   bench/large-rows.sh [MiB] [rounds]      (default 1024 MiB, 3 rounds)
mib=${1:-1024}; rounds=${2:-3}
. "$(dirname "$0")/lib.sh"
pg_port=$(free_port)
start_postgres "$pg_port" <<<"max_connections = 50"
echo '"postgres" ""' > "$work/userlist.txt"
echo 'select 1;' > "$work/select1.sql"

cat > "$work/big.py" <<'PY'
import socket, struct, sys, time
port, mib = int(sys.argv[1]), int(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port))
body = b"user\0postgres\0database\0postgres\0\0"
s.sendall(struct.pack("!ii", len(body) + 8, 196608) + body)
buf = bytearray(1 << 20); view = memoryview(buf)
def messages():  # yields (type, length) while skipping bodies; reads in 1 MiB pieces
    pending = b""
    while True:
        while len(pending) < 5:
            n = s.recv_into(view)
            if n == 0: sys.exit("connection closed")
            pending += bytes(view[:n])
        t, ln = pending[0:1], struct.unpack("!i", pending[1:5])[0]
        need = 1 + ln
        if len(pending) >= need:
            head = pending[:min(need, 64)]; pending = pending[need:]
        else:
            left = need - len(pending); head = pending[:64]; pending = b""
            while left > 0:
                n = s.recv_into(view, min(left, len(buf)))
                if n == 0: sys.exit("connection closed")
                left -= n
        yield t, ln, head
m = messages()
for t, ln, head in m:
    if t == b"E": sys.exit(f"login: {head!r}")
    if t == b"Z": break
q = f"select repeat('x', 1048576) from generate_series(1, {mib})".encode() + b"\0"
start = time.time(); s.sendall(b"Q" + struct.pack("!i", len(q) + 4) + q)
rows = 0; total = 0
for t, ln, head in m:
    if t == b"D": rows += 1; total += ln
    elif t == b"E": sys.exit(f"query: {head!r}")
    elif t == b"Z": break
print(f"{rows} {total} {time.time() - start:.3f}", flush=True)
PY

cpu_s() { awk '{printf "%.2f", ($14 + $15) / 100}' "/proc/$1/stat"; }
rss_mib() { awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$1/status"; }
start_poolers
for pooler in pgbouncer sluice; do
  python3 "$work/big.py" "${port[$pooler]}" 64 >/dev/null   # warm the large-row path once
done

results="$work/results"; : > "$results"
for r in $(seq 1 "$rounds"); do
  for pooler in sluice pgbouncer; do
    p=${pid[$pooler]}; rss0=$(rss_mib "$p"); cpu0=$(cpu_s "$p"); peak=$rss0
    rm -f "$work"/pgbench_log.*
    (cd "$work" && exec "$pgbin/pgbench" -n -c 1 -T 600 -l -f select1.sql -h 127.0.0.1 -p "${port[$pooler]}" \
        -U postgres postgres >/dev/null 2>&1) & by=$!
    python3 "$work/big.py" "${port[$pooler]}" "$mib" > "$work/big.out" & big=$!
    while kill -0 "$big" 2>/dev/null; do rss=$(rss_mib "$p"); [ "$rss" -gt "$peak" ] && peak=$rss; sleep 0.05; done
    wait "$big"; kill -INT "$by" 2>/dev/null; wait "$by" 2>/dev/null || true
    read -r rows bytes secs < "$work/big.out"
    [ "$rows" = "$mib" ] || { echo "$pooler: $rows rows, expected $mib" >&2; exit 1; }
    lat=$(cat "$work"/pgbench_log.* | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {
      printf "%d %.2f %.2f %.2f", NR, a[int(NR*0.5)+1]/1000, a[int(NR*0.99)+1]/1000, a[NR]/1000}')
    cpu=$(python3 -c "print(f'{$(cpu_s "$p") - $cpu0:.2f}')")
    echo "$pooler $secs $cpu $((peak - rss0)) $lat" | tee -a "$results" | awk '{printf "round '"$r"' %-9s %6.2f s  cpu %6.2f s  rss +%4d MiB  bystander n=%d p50 %.2f p99 %.2f max %.2f ms\n", $1, $2, $3, $4, $5, $6, $7, $8}'
  done
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {p: [statistics.median(float(r[i]) for r in rows if r[0] == p) for i in range(1, 8)] for p in ("sluice", "pgbouncer")}
names = ["seconds", "cpu s", "rss +MiB", "bystander queries", "p50 ms", "p99 ms", "max ms"]
print(f"{'median':18} {'sluice':>10} {'pgbouncer':>10} {'ratio':>7}")
for i, n in enumerate(names):
    s, b = med["sluice"][i], med["pgbouncer"][i]
    print(f"{n:18} {s:10.2f} {b:10.2f} {s / b if b else float('nan'):7.2f}")
PY
