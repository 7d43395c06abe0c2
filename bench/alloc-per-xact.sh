#!/usr/bin/env bash
# Bytes the JVM allocates per transaction, and its young collections, in two Sluice builds side by
# side: this build (SLUICE_JAR) and SLUICE_JAR_BASE (or this build again with BASE_JAVA_OPTS).
# CPU per transaction moves by a few per cent between runs on a shared machine, so a change that
# takes objects off the relay path rarely shows in pgbench-compare.sh; the bytes it allocates do,
# to within a per cent or two. Fewer bytes mean fewer young collections, and each one stops every
# client for a millisecond or so. The CPU time per transaction of each build's process (user and
# system) over the same runs is printed beside it.
#
# MODE=prepared runs pgbench -M prepared: named statements, which Sluice keeps per server and
# rewrites each Bind for (max_prepared_statements, 200 by default). PgBouncer 1.18 cannot run that
# in transaction mode, which is why this comparison of two builds is where it is measured.
#
# Each Sluice runs the launcher's JVM options and pgbench_ini's pool (transaction mode, 20 servers)
# on one throwaway PostgreSQL. After an unmeasured warm-up at full speed, each round runs
# pgbench -S -t XACTS (a fixed count per client) through each build in rotating order. jstat reads
# eden and the young collection count before and after: the bytes allocated are what eden held at
# each collection (collections start when eden is full) plus its growth since the last one. The
# estimate is off by at most a part of one eden (a few MiB) while the heap is still resizing, so
# use enough transactions (the default, 200 clients x 500, allocates 300 MiB or more).
#
# CONNECT=1 adds pgbench -C: a new connection for every transaction, so the figures are per login
# (with its one query); e.g. CONNECT=1 XACTS=2000 ... 10 for 20,000 logins a run.
#
#   [ROUNDS=3] [WARMUP=10] [MODE=simple|prepared] [XACTS=500] [CONNECT=1] SLUICE_JAR_BASE=old.jar bench/alloc-per-xact.sh [clients...]
#
# Needs: server/target/sluice.jar, jstat (the JDK's), pgbouncer (for lib.sh), PostgreSQL binaries.
clients=("$@"); [ ${#clients[@]} -gt 0 ] || clients=(200)
export LC_NUMERIC=C
rounds=${ROUNDS:-3}; warmup=${WARMUP:-10}; mode=${MODE:-extended}; xacts=${XACTS:-500}
connect=(); [ "${CONNECT:-0}" = 0 ] || connect=(-C)
. "$(dirname "$0")/lib.sh"
command -v jstat >/dev/null || { echo "jstat not found (it comes with the JDK: apt-get install -y openjdk-17-jdk-headless)" >&2; exit 2; }
[ -n "${SLUICE_JAR_BASE:-}${BASE_JAVA_OPTS:-}" ] || { echo "set SLUICE_JAR_BASE (or BASE_JAVA_OPTS) to the build to compare with" >&2; exit 2; }
pgbench_cluster
echo '"postgres" ""' > "$work/userlist.txt"
start_poolers base
builds=(sluice sluice-base)

# young GC count, eden capacity and eden used (KiB) of a JVM: jstat -gc's YGC, EC and EU
eden() { jstat -gc "$1" | awk 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } NR == 2 { print $col["YGC"], $col["EC"], $col["EU"] }'; }

run() { # $1 build, $2 clients -> "bytes_per_xact young_gcs_per_10k_xacts cpu_us_per_xact"
  local before after out n cpu0 cpu1
  before=$(eden "${pid[$1]}")
  read -r cpu0 _ < <(cpu_user_ticks "${pid[$1]}")
  out=$("$pgbin/pgbench" -n -S -M "$mode" "${connect[@]}" -c "$2" -j 2 -t "$xacts" -h 127.0.0.1 -p "${port[$1]}" -U postgres postgres 2>&1)
  after=$(eden "${pid[$1]}")
  read -r cpu1 _ < <(cpu_user_ticks "${pid[$1]}")
  n=$(pgbench_xacts "$out")
  [ -n "$n" ] && [ "$n" -gt 0 ] || { echo "pgbench failed through $1: $(tail -3 <<<"$out")" >&2; exit 1; }
  python3 -c "
(g0, c0, u0), (g1, c1, u1) = [tuple(float(x) for x in s.split()) for s in ('$before', '$after')]
gcs = int(g1 - g0)
kib = u1 - u0 if gcs == 0 else (c0 - u0) + (gcs - 1) * c1 + u1
print(f'{kib * 1024 / $n:.0f} {gcs * 10000 / $n:.2f} {($cpu1 - $cpu0) * 1e6 / $(getconf CLK_TCK) / $n:.1f}')"
}

for b in "${builds[@]}"; do
  "$pgbin/pgbench" -n -S -M "$mode" "${connect[@]}" -c "${clients[-1]}" -j 2 -T "$warmup" -h 127.0.0.1 -p "${port[$b]}" -U postgres postgres >/dev/null 2>&1
done
results="$work/results"; : > "$results"
echo "# pgbench -S -M $mode ${connect[*]} -t $xacts per client, transaction pooling, $rounds rounds, order rotating: ${builds[*]}"
for c in "${clients[@]}"; do
  for ((r = 0; r < rounds; r++)); do
    line="# clients $c round $((r + 1))/$rounds:"
    for ((k = 0; k < 2; k++)); do
      b=${builds[$(( (r + k) % 2 ))]}
      read -r bytes gcs cpu < <(run "$b" "$c")
      echo "$c $b $bytes $gcs $cpu" >> "$results"
      line+=" $b $bytes bytes/xact, $gcs young GCs per 10k xacts, $cpu us CPU/xact;"
    done
    echo "$line"
  done
done

python3 - "$results" <<'PY'
import sys
from statistics import median
runs = {}
for line in open(sys.argv[1]):
    c, b, bytes_, gcs, cpu = line.split()
    runs.setdefault((int(c), b), []).append((float(bytes_), float(gcs), float(cpu)))
print()
print(f"{'clients':<8} {'build':<12} {'bytes/xact':>11} {'young GCs/10k xacts':>20} {'CPU us/xact':>12}"
      "   sluice/sluice-base: bytes, CPU")
for c in sorted({c for c, _ in runs}):
    med = {b: tuple(median(r[i] for r in runs[(c, b)]) for i in range(3)) for b in ("sluice", "sluice-base")}
    for b in ("sluice", "sluice-base"):
        ratio = ""
        if b == "sluice":
            ratio = f"{med['sluice'][0] / med['sluice-base'][0]:.3f}, {med['sluice'][2] / max(med['sluice-base'][2], 0.01):.3f}"
        print(f"{c:<8} {b:<12} {med[b][0]:>11.0f} {med[b][1]:>20.2f} {med[b][2]:>12.1f}   {ratio}")
PY
