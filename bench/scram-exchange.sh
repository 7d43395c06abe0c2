#!/usr/bin/env bash
# The server's side of a SCRAM login in Sluice's own code (bench/ScramExchange.java), this build
# against SLUICE_JAR_BASE, in alternating JVMs (A, B, A, B ...), ROUNDS each; prints each run's
# warm pass and the medians. No network, no PostgreSQL: a whole login's CPU (pgbench-compare.sh
# CLIENT_AUTH=scram-sha-256 CONNECT=1) moves by more than this costs on a shared machine.
#
#   [ROUNDS=3] SLUICE_JAR_BASE=old.jar bench/scram-exchange.sh [exchanges]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jar=${SLUICE_JAR:-$here/server/target/sluice.jar}
base=${SLUICE_JAR_BASE:?set SLUICE_JAR_BASE to the jar to compare with}
n=${1:-100000}; rounds=${ROUNDS:-3}
for f in "$jar" "$base"; do [ -f "$f" ] || { echo "missing $f" >&2; exit 2; }; done
# the launcher's heap and collector, so that allocation costs what it costs in the pooler
opts=(-Xms16m -Xmx256m -XX:+UseParallelGC -XX:ParallelGCThreads=1 -XX:MaxNewSize=16m)
warm() { java "${opts[@]}" -cp "$1" "$here/bench/ScramExchange.java" "$n" | tail -1 | awk '{print $3}'; }
declare -a this_runs base_runs
for ((r = 1; r <= rounds; r++)); do
  this_runs+=("$(warm "$jar")"); base_runs+=("$(warm "$base")")
  echo "round $r: this build ${this_runs[-1]} us, base ${base_runs[-1]} us"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
m1=$(median "${this_runs[@]}"); m2=$(median "${base_runs[@]}")
echo "median: this build $m1 us, base $m2 us an exchange; this / base $(awk -v a="$m1" -v b="$m2" 'BEGIN {printf "%.2f", a / b}')"
