#!/usr/bin/env bash
# The server's side of a SCRAM login in Sluice's own code (bench/ScramExchange.java), this build
# against SLUICE_JAR_BASE, in alternating JVMs (A, B, A, B ...), ROUNDS each, with the launcher's
# JVM options; prints each run's warm pass and the medians. No network, no PostgreSQL: a whole
# login's CPU (pgbench-compare.sh CLIENT_AUTH=scram-sha-256 CONNECT=1) moves by more than this
# costs on a shared machine.
#
# Both jars must be from d9cf07e on, where a login holds its user's secret as a classified and
# parsed Secret (before, a String), since one source runs against both.
#
#   [ROUNDS=3] SLUICE_JAR_BASE=old.jar bench/scram-exchange.sh [exchanges]
n=${1:-100000}; rounds=${ROUNDS:-3}
. "$(dirname "$0")/lib.sh"
base=${SLUICE_JAR_BASE:?set SLUICE_JAR_BASE to the jar to compare with}
[ -f "$base" ] || { echo "SLUICE_JAR_BASE: no such jar: $base" >&2; exit 2; }
# shellcheck disable=SC2086 # the launcher's options, one word each
warm() { java $launcher_java_opts -cp "$1" "$here/bench/ScramExchange.java" "$n" | tail -1 | awk '{print $3}'; }
: > "$work/runs"
for ((r = 1; r <= rounds; r++)); do
  this=$(warm "$jar"); before=$(warm "$base")
  echo "round $r: this build $this us, base $before us"
  echo "$this $before" >> "$work/runs"
done
python3 - "$work/runs" <<'PY'
import sys
from statistics import median
runs = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
this, base = median(r[0] for r in runs), median(r[1] for r in runs)
print(f"median: this build {this:.2f} us, base {base:.2f} us an exchange; this / base {this / base:.2f}")
PY
