#!/usr/bin/env bash
# A pooler's first minute (step 13, target 3): how long from its start until it accepts a
# connection, and how long the first herd takes on the freshly started process: 200 clients at
# once, each one 10 ms query, on a transaction-mode pool of 40 (trust). Each round starts
# PgBouncer and Sluice afresh in turn (the order rotates), runs the herd, and stops the pooler
# again, so every figure is from a process that has served nothing before.
#
# Sluice runs as its package runs it: with a class-data archive (sluice launcher, SLUICE_CDS_DIR),
# written by one unmeasured start and herd before the rounds, as the package's first start after
# an install or upgrade writes it. CDS=0 measures starts without it.
#
# FLOOR=pooled adds bench/PooledFloor.java to the rotation, compiled beforehand and started with
# the launcher's JVM options and a class-data archive of its own written the same way: the least
# a JVM on Netty spends before it accepts and on a first herd that it logs in and relays through
# a pool of 40, with nothing of Sluice's code to load, interpret or compile.
#
# SLUICE_JAR_BASE=old.jar adds that build as sluice-base, with a class-data archive of its own.
#
#   [ROUNDS=5] [CDS=0] [FLOOR=pooled] [SLUICE_JAR_BASE=old.jar] [JAVA_OPTS=...] bench/fresh-start.sh
#
# Prints each run and, per pooler, the medians and the ratios Sluice / PgBouncer.
# Needs: server/target/sluice.jar (or SLUICE_JAR), pgbouncer, PostgreSQL binaries.
export LC_NUMERIC=C
rounds=${ROUNDS:-5}
. "$(dirname "$0")/lib.sh"
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }
pgbench_cluster
echo '"postgres" ""' > "$work/userlist.txt"
echo 'select pg_sleep(0.01);' > "$work/herd.sql"
port=$(free_port)
POOL_SIZE=40 pgbench_ini "$port" > "$work/pooler.ini"
is_root && chown postgres: "$work"/*.ini "$work/userlist.txt"
base_jar=${SLUICE_JAR_BASE:-}
[ -z "$base_jar" ] || [ -f "$base_jar" ] || { echo "SLUICE_JAR_BASE: no such jar: $base_jar" >&2; exit 2; }
if [ "${CDS:-1}" != 0 ]; then
  mkdir -p "$work/cds"; is_root && chown postgres: "$work/cds"
  export SLUICE_CDS_DIR=$work/cds
  # a directory of its own: the launcher deletes the archives of other jars in its directory
  [ -z "$base_jar" ] || { mkdir -p "$work/cds-base"; is_root && chown postgres: "$work/cds-base"; }
fi
command -v gcc >/dev/null || { echo "needs gcc (apt-get install -y gcc)" >&2; exit 2; }
gcc -O2 -o "$work/connect-wait" "$here/bench/connect-wait.c"
now_us() { echo $(( $(date +%s%N) / 1000 )); }
if [ -n "${FLOOR:-}" ]; then
  [ "$FLOOR" = pooled ] || { echo "FLOOR can only be pooled here" >&2; exit 2; }
  mkdir -p "$work/floor"
  # in a jar: a class-data archive takes classes from jars only
  javac -cp "$jar" -d "$work/floor/classes" "$here/bench/PooledFloor.java" 2> "$work/javac.out" \
    || { cat "$work/javac.out" >&2; exit 1; }
  jar cf "$work/floor/floor.jar" -C "$work/floor/classes" .
  floor_cds=()
  [ "${CDS:-1}" = 0 ] || floor_cds=(-Xlog:cds=off -Xlog:cds+dynamic=off "-XX:ArchiveClassesAtExit=$work/floor/floor.jsa")
fi

one() { # $1 pgbouncer|sluice|sluice-base|floor -> "accept_ms herd_ms"
  local t0 t1 t2 t3 pid
  t0=$(now_us)
  if [ "$1" = pgbouncer ]; then
    (run_pgbouncer -q "$work/pooler.ini") & pid=$!
  elif [ "$1" = floor ]; then
    # shellcheck disable=SC2086 # a list of options
    setsid java $launcher_java_opts "${floor_cds[@]}" -cp "$jar:$work/floor/floor.jar" PooledFloor "$port" "$pg_port" 40 & pid=$!
  elif [ "$1" = sluice-base ]; then
    SLUICE_CDS_DIR=${SLUICE_CDS_DIR:+$work/cds-base} SLUICE_JAR="$base_jar" \
      "$here/server/src/main/dist/bin/sluice" -q "$work/pooler.ini" & pid=$!
  else
    SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/pooler.ini" & pid=$!
  fi
  # bench/connect-wait.c: tries to connect every 2 ms, at most 30 s, from one small process (a
  # shell loop's forks would take CPU from the starting pooler, and python3 takes 0.3 s to start)
  "$work/connect-wait" "$port" || echo "$1: nothing accepted on port $port within 30 s" >&2
  t1=$(now_us)
  t2=$(now_us)
  "$pgbin/pgbench" -n -c 200 -j 2 -t 1 -f "$work/herd.sql" -h 127.0.0.1 -p "$port" -U postgres postgres \
    > "$work/herd.out" 2>&1 || echo "$1: the herd failed: $(tail -2 "$work/herd.out")" >&2
  t3=$(now_us)
  # a background job's SIGINT is ignored, so the floor's JVM (no launcher of its own) gets TERM
  if [ "$1" = floor ]; then kill -TERM "$pid"; else kill -INT "$pid"; fi
  wait "$pid" 2>/dev/null || true   # a JVM that TERM ends exits with 143
  # the port must be free before the next start
  for _ in $(seq 1 500); do [ -z "$(listening_pid "$port")" ] && break; sleep 0.01; done
  echo "$(( (t1 - t0) / 1000 )) $(( (t3 - t2) / 1000 ))"
}

[ -z "${SLUICE_CDS_DIR:-}" ] || one sluice > /dev/null   # writes the archive when it exits
names=(pgbouncer sluice)
if [ -n "$base_jar" ]; then
  names+=(sluice-base)
  [ -z "${SLUICE_CDS_DIR:-}" ] || one sluice-base > /dev/null
fi
if [ -n "${FLOOR:-}" ]; then
  names+=(floor)
  if [ "${#floor_cds[@]}" -gt 0 ]; then
    one floor > /dev/null
    [ -s "$work/floor/floor.jsa" ] || { echo "the floor wrote no class-data archive" >&2; exit 1; }
    floor_cds=(-Xlog:cds=off -Xlog:cds+dynamic=off "-XX:SharedArchiveFile=$work/floor/floor.jsa")
  fi
fi
: > "$work/results"
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < ${#names[@]}; k++)); do
    name=${names[$(( (r + k) % ${#names[@]} ))]}
    read -r accept herd < <(one "$name")
    echo "$name $accept $herd" >> "$work/results"
    echo "round $((r + 1))/$rounds $name: accepts after $accept ms, first herd $herd ms"
  done
done

python3 - "$work/results" <<'PY'
import sys
from statistics import median
runs = {}
for line in open(sys.argv[1]):
    name, accept, herd = line.split()
    runs.setdefault(name, []).append((int(accept), int(herd)))
med = {n: (median(a for a, _ in v), median(h for _, h in v)) for n, v in runs.items()}
print()
print(f"{'pooler':<11} {'runs':>4} {'accept_ms':>10} {'herd_ms':>8}   herd of each run")
for n in ("pgbouncer", "sluice", "sluice-base", "floor"):
    if n in runs:
        print(f"{n:<11} {len(runs[n]):>4} {med[n][0]:>10.0f} {med[n][1]:>8.0f}   " + " ".join(str(h) for _, h in runs[n]))
print(f"sluice/pgbouncer: first herd {med['sluice'][1] / med['pgbouncer'][1]:.2f}")
if "sluice-base" in runs:
    print(f"sluice-base/pgbouncer: first herd {med['sluice-base'][1] / med['pgbouncer'][1]:.2f}; "
          f"sluice/sluice-base: accept {med['sluice'][0] / med['sluice-base'][0]:.2f}, "
          f"first herd {med['sluice'][1] / med['sluice-base'][1]:.2f}")
if "floor" in runs:
    print(f"floor/pgbouncer: first herd {med['floor'][1] / med['pgbouncer'][1]:.2f}")
PY
