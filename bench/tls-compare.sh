#!/usr/bin/env bash
# TLS side by side: PgBouncer (Debian's 1.18) and Sluice with the same pgbouncer.ini
# (client_tls_sslmode = require, one RSA-2048 certificate made here with openssl), on one
# throwaway PostgreSQL. Two workloads, every client over TLS (PGSSLMODE=require):
#   logins  pgbench -C: each transaction is a new TLS connection + login + one select,
#           LOGIN_CLIENTS (200) clients at once; tps = logins per second
#   select  pgbench -S over TLS connections kept open, SELECT_CLIENTS (50) clients
# The poolers take turns ROUNDS times per workload (order rotating); the summary gives per
# pooler the median and each run, then Sluice/PgBouncer ratios of the medians (> 1: Sluice
# does more). One unmeasured warm-up run each first, so a cold JVM is not what is measured; a
# JVM's compiler keeps compiling the TLS login path for about 40 s of login load, so WARMUP=60
# gives the figure of a pooler that has run for a while. cpu_us is the pooler's CPU time (user +
# system) per login or transaction.
# KEY=rsa (default: RSA-2048, the usual certificate) or KEY=ec (ECDSA P-256). With RSA the
# server's signature dominates a login's CPU, and the two poolers sign with different libraries:
# Debian's OpenSSL 3 uses AVX-512 IFMA for RSA where the CPU has it, BoringSSL does not;
# OPENSSL_ia32cap=":~0x200000" in the environment masks IFMA from OpenSSL (PgBouncer, pgbench,
# openssl) to measure a CPU without it.
#
#   [ROUNDS=3] [WARMUP=5] [KEY=rsa|ec] [LOGIN_CLIENTS=200] [SELECT_CLIENTS=50] bench/tls-compare.sh [seconds-per-run]
#
# Needs: server/target/sluice.jar (mvn -q package -DskipTests), pgbouncer, PostgreSQL binaries, openssl.
secs=${1:-15}
export LC_NUMERIC=C
rounds=${ROUNDS:-3}
warmup=${WARMUP:-5}
login_clients=${LOGIN_CLIENTS:-200}
select_clients=${SELECT_CLIENTS:-50}
key=${KEY:-rsa}
case $key in
  rsa) newkey=(-newkey rsa:2048) ;;
  ec) newkey=(-newkey ec -pkeyopt ec_paramgen_curve:P-256) ;;
  *) echo "KEY must be rsa or ec" >&2; exit 2 ;;
esac
. "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null || { echo "openssl not installed (apt-get install -y openssl)" >&2; exit 2; }
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }

# a CA and a server certificate for 127.0.0.1, as a PgBouncer admin would make them
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=bench CA" \
  -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null
openssl req "${newkey[@]}" -nodes -subj "/CN=127.0.0.1" -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
  -extfile <(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost') -out "$work/server.crt" 2>/dev/null
chmod 600 "$work/server.key"

pgbench_cluster
pgb_port=$(free_port); sl_port=$(free_port)
ini() { # $1 = listen port
  pgbench_ini "$1" "client_tls_sslmode = require
client_tls_key_file = $work/server.key
client_tls_cert_file = $work/server.crt
server_tls_sslmode = disable"
}
echo '"postgres" ""' > "$work/userlist.txt"
ini "$pgb_port" > "$work/pgbouncer.ini"
ini "$sl_port" > "$work/sluice.ini"
names=(pgbouncer sluice); ports=("$pgb_port" "$sl_port")
is_root && chown postgres: "$work"/*.ini "$work/userlist.txt" "$work/server.key" "$work/server.crt"
(run_pgbouncer -q "$work/pgbouncer.ini") & pids+=($!)
SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/sluice.ini" & pids+=($!)
for p in "${ports[@]}"; do wait_port "$p"; done
pooler_pids=("$(listening_pid "$pgb_port")" "$(listening_pid "$sl_port")")

run() { # $1 workload, $2 port, $3 seconds, [$4 pooler pid] -> "tps lat_ms cpu_us"
  local out tps lat args t0 t1
  if [ "$1" = logins ]; then args=(-C -S -c "$login_clients"); else args=(-S -M extended -c "$select_clients"); fi
  t0=$(cpu_ticks "${4:-$$}")
  out=$(PGSSLMODE=require "$pgbin/pgbench" -n "${args[@]}" -j 2 -T "$3" -h 127.0.0.1 -p "$2" -U postgres postgres 2>&1)
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out" | head -1)
  lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
  t1=$(cpu_ticks "${4:-$$}")
  [ -n "$tps" ] || echo "pgbench ($1) failed on port $2: $(tail -3 <<<"$out")" >&2
  # ticks are 1/100 s (USER_HZ)
  echo "${tps:-0} ${lat:-0} $(python3 -c "t = ${tps:-0} * $3; print(round(($t1 - $t0) * 1e4 / t, 1) if t else 0)")"
}

# every client must really be on TLS: psql says so through each pooler
for i in "${!names[@]}"; do
  PGSSLMODE=verify-full PGSSLROOTCERT="$work/ca.crt" "$pgbin/psql" -X -h 127.0.0.1 -p "${ports[$i]}" -U postgres \
    -d postgres -c '\conninfo' | grep -q 'SSL connection' || { echo "${names[$i]}: no TLS" >&2; exit 1; }
done

if [ "$warmup" -gt 0 ]; then
  for i in "${!names[@]}"; do run select "${ports[$i]}" "$warmup" >/dev/null; run logins "${ports[$i]}" "$warmup" >/dev/null; done
fi

n=${#names[@]}
results="$work/results"; : > "$results"
echo "# TLS (client_tls_sslmode = require, $key certificate), ${secs} s a run, $rounds rounds, order rotating: ${names[*]}"
echo "# logins: pgbench -C -S -c $login_clients; select: pgbench -S -M extended -c $select_clients"
for w in logins select; do
  for ((r = 0; r < rounds; r++)); do
    line="# $w round $((r + 1))/$rounds:"
    for ((k = 0; k < n; k++)); do
      i=$(( (r + k) % n ))
      read -r tps lat cpu < <(run "$w" "${ports[$i]}" "$secs" "${pooler_pids[$i]}")
      echo "$w ${names[$i]} $tps $lat $cpu" >> "$results"
      line+=$(printf ' %s %.1f/s %.3f ms %.0f us cpu;' "${names[$i]}" "$tps" "$lat" "$cpu")
    done
    echo "$line"
  done
done

python3 - "$results" <<'PY'
import sys
from statistics import median
runs = {}
for line in open(sys.argv[1]):
    w, name, tps, lat, cpu = line.split()
    runs.setdefault((w, name), []).append((float(tps), float(lat), float(cpu)))
med = {k: tuple(median(x[i] for x in v) for i in range(3)) for k, v in runs.items()}
unit = {"logins": "logins/s", "select": "tps"}
print()
print(f"{'workload':<8} {'pooler':<10} {'runs':>4} {'median':>10} {'unit':<9} {'lat_ms':>8} {'cpu_us':>7}   each run")
for w in ("logins", "select"):
    for n in ("pgbouncer", "sluice"):
        v = runs[(w, n)]
        t, l, c = med[(w, n)]
        print(f"{w:<8} {n:<10} {len(v):>4} {t:>10.1f} {unit[w]:<9} {l:>8.3f} {c:>7.1f}   " + " ".join(f"{x[0]:.0f}" for x in v))
print()
ratio = lambda a, b: f"{a / b:.3f}" if b else "n/a"
for w in ("logins", "select"):
    (ts, ls, cs), (tp, lp, cp) = med[(w, "sluice")], med[(w, "pgbouncer")]
    print(f"{w:<8} sluice/pgbouncer {unit[w]}: {ratio(ts, tp)}   latency: {ratio(ls, lp)}   cpu per {'login' if w == 'logins' else 'txn'}: {ratio(cs, cp)}")
PY
