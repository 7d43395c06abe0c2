#!/usr/bin/env bash
# Soak (outside CI): SOAK_SECONDS (default 1800) of mixed load through Sluice on a throwaway
# PostgreSQL, with a PostgreSQL restart (fast shutdown, then start) half way. Every
# SAMPLE_SECONDS (5) it writes Sluice's JVM resident memory, open file descriptors and threads to
# a CSV; at the end it prints them at the start, middle and end of the load and at idle before
# and after, and exits 1 when they are not flat:
#   RSS      end of load  <= start of load + RSS_TOLERANCE_MIB (64)
#   fds      end of load within FD_TOLERANCE (20) of the start; idle after <= idle before + 5
#            + the server connections the pool keeps open then and not before
#   threads  end of load <= start + 2; idle after <= idle before + 2
# plus no leaked server connection (PostgreSQL's backends = SHOW SERVERS, <= the pool size).
# "Start" is the highest sample of the window after a warm-up (10% of the run, at least 10 s),
# "middle" the window before the restart, "end" the last window of the load (each 5% of the run,
# at least two samples).
#
# Load, each lane a loop of pgbench runs of at most 60 s until the deadline (a run's clients that
# lost their server in the restart end with it; the next run starts fresh): 40 clients
# select-only, 10 clients tpcb-like, 4 clients select-only with a new connection per transaction
# (-C: client churn), 50 idle clients (a script that only sleeps). One transaction-mode pool of 20.
# Sluice runs with the JAVA_OPTS the packages ship (packaging/common/sluice.default) unless
# JAVA_OPTS is set. Loopback only; every load is bounded by -T.
#
#   [SOAK_SECONDS=1800] [SAMPLE_SECONDS=5] [JAVA_OPTS=...] bench/soak.sh [samples.csv]
#   e.g. SOAK_SECONDS=180 bench/soak.sh /tmp/soak.csv      (a smoke run)
secs=${SOAK_SECONDS:-1800}
every=${SAMPLE_SECONDS:-5}
rss_tol=${RSS_TOLERANCE_MIB:-64}
fd_tol=${FD_TOLERANCE:-20}
csv=${1:-/tmp/sluice-soak-$(date +%Y%m%d-%H%M%S).csv}
. "$(dirname "$0")/lib.sh"
[ "$secs" -ge 60 ] 2>/dev/null || { echo "SOAK_SECONDS must be at least 60" >&2; exit 2; }
: "${JAVA_OPTS=$(. "$here/packaging/common/sluice.default"; echo "$JAVA_OPTS")}"
export LC_NUMERIC=C

pgbench_cluster
sl_port=$(free_port)
echo '"postgres" ""' > "$work/userlist.txt"
pgbench_ini "$sl_port" "server_login_retry = 2
query_wait_timeout = 120
admin_users = postgres" > "$work/sluice.ini"
is_root && chown postgres: "$work/sluice.ini" "$work/userlist.txt"
JAVA_OPTS="$JAVA_OPTS" SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/sluice.ini" & pids+=($!)
wait_port "$sl_port"
jvm=$(pgrep -P "${pids[0]}" java) || { echo "no Sluice JVM under ${pids[0]}" >&2; exit 1; }

sl_psql() { "$pgbin/psql" -X -qAt -h 127.0.0.1 -p "$sl_port" -U postgres "$@"; }
pg_psql() { "$pgbin/psql" -X -qAt -h 127.0.0.1 -p "$pg_port" -U postgres postgres "$@"; }
sample() { # elapsed seconds -> "t,rss_mib,fds,threads"
  local rss threads fds
  rss=$(awk '/^VmRSS:/ {printf "%d", $2 / 1024}' "/proc/$jvm/status")
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$jvm/status")
  fds=$(find "/proc/$jvm/fd" -mindepth 1 -maxdepth 1 | wc -l)
  echo "$1,$rss,$fds,$threads"
}

printf '\\sleep 1 s\n' > "$work/idle.sql"
sl_psql -c 'select 1' postgres >/dev/null   # the pool's welcome is learned: idle clients need no server
sleep 3
idle_before=$(sample 0)
servers_before=$(sl_psql -c 'show servers' pgbouncer | grep -c '|postgres|postgres|' || true)
echo "t_s,rss_mib,fds,threads" > "$csv"

start=$(date +%s); deadline=$((start + secs))
lane() { # name, pgbench args...
  local name=$1; shift
  local left
  while left=$((deadline - $(date +%s))); [ "$left" -ge 5 ]; do
    "$pgbin/pgbench" -n -T $((left < 60 ? left : 60)) -h 127.0.0.1 -p "$sl_port" -U postgres "$@" postgres \
      >> "$work/$name.out" 2>&1 || true
  done
}
lane select -S -c 40 -j 1 & lanes=($!)
lane tpcb -c 10 -j 1 & lanes+=($!)
lane churn -S -C -c 4 -j 1 & lanes+=($!)
lane idle -f "$work/idle.sql" -c 50 -j 1 & lanes+=($!)
pids+=("${lanes[@]}")

mid=$((start + secs / 2)); restarted=
while now=$(date +%s); [ "$now" -lt "$deadline" ]; do
  sample $((now - start)) >> "$csv"
  if [ -z "$restarted" ] && [ "$now" -ge "$mid" ]; then
    restarted=$((now - start))
    as_pg "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null
    as_pg "$pgbin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w start >/dev/null
    until "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"; do sleep 0.05; done
    ready=$(date +%s%N)
    until sl_psql -c 'select 1' postgres >/dev/null 2>&1; do sleep 0.05; done
    recovered_ms=$((($(date +%s%N) - ready) / 1000000))
    echo "PostgreSQL restarted at ${restarted} s; a login through Sluice worked ${recovered_ms} ms after pg_isready"
  fi
  sleep "$every"
done
wait "${lanes[@]}"
sleep 10
idle_after=$(sample $(($(date +%s) - start)))

# PostgreSQL's backends for the pool must be what SHOW SERVERS lists, and no more than the pool
backends=$(pg_psql -c "select count(*) from pg_stat_activity where backend_type = 'client backend' and datname = 'postgres' and pid <> pg_backend_pid()")
servers=$(sl_psql -c 'show servers' pgbouncer | grep -c '|postgres|postgres|' || true)

# window FROM TO: the highest value of each column over samples with FROM <= t < TO
window() { awk -F, -v a="$1" -v b="$2" 'NR > 1 && $1 >= a && $1 < b {
  n++; if ($2 > r) r = $2; if ($3 > f) f = $3; if ($4 > t) t = $4 }
  END { if (n) printf "%d,%d,%d", r, f, t; else print "" }' "$csv"; }
warm=$((secs / 10 < 10 ? 10 : secs / 10)); span=$((secs / 20 < 2 * every ? 2 * every : secs / 20))
s=$(window "$warm" $((warm + span))); m=$(window $((restarted - span)) "$restarted"); e=$(window $((secs - span)) "$secs")
[ -n "$s" ] && [ -n "$m" ] && [ -n "$e" ] || { echo "too few samples in $csv" >&2; exit 1; }

fail=0
check() { if eval "$2"; then echo "  ok    $1"; else echo "  FAIL  $1"; fail=1; fi; }
IFS=, read -r s_rss s_fd s_thr <<<"$s"; IFS=, read -r m_rss m_fd m_thr <<<"$m"; IFS=, read -r e_rss e_fd e_thr <<<"$e"
IFS=, read -r _ b_rss b_fd b_thr <<<"$idle_before"; IFS=, read -r _ a_rss a_fd a_thr <<<"$idle_after"
echo
echo "Sluice $(basename "$jar"), JAVA_OPTS='$JAVA_OPTS', ${secs} s, samples in $csv"
printf '%-22s %8s %6s %8s\n' "" "RSS MiB" "fds" "threads"
printf '%-22s %8s %6s %8s\n' "idle before" "$b_rss" "$b_fd" "$b_thr" "load start (${warm} s)" "$s_rss" "$s_fd" "$s_thr" \
  "load middle (${restarted} s)" "$m_rss" "$m_fd" "$m_thr" "load end (${secs} s)" "$e_rss" "$e_fd" "$e_thr" \
  "idle after" "$a_rss" "$a_fd" "$a_thr"
for lane_out in select tpcb churn idle; do
  printf '  pgbench %-7s %9d transactions, %d runs, %d aborted clients\n' "$lane_out" \
    "$(awk '/actually processed/ {n += $NF} END {print n + 0}' "$work/$lane_out.out")" \
    "$(grep -c 'actually processed' "$work/$lane_out.out")" "$(grep -c 'aborted in command' "$work/$lane_out.out")"
done
echo "  server connections after the load: PostgreSQL $backends, SHOW SERVERS $servers"
check "RSS end of load ($e_rss) <= start ($s_rss) + $rss_tol MiB" "[ $e_rss -le $((s_rss + rss_tol)) ]"
check "fds end of load ($e_fd) within $fd_tol of start ($s_fd)" "[ $((e_fd - s_fd)) -le $fd_tol ] && [ $((s_fd - e_fd)) -le $fd_tol ]"
check "fds idle after ($a_fd) <= idle before ($b_fd) + 5 + servers kept ($servers - $servers_before)" \
  "[ $a_fd -le $((b_fd + 5 + servers - servers_before)) ]"
check "threads end of load ($e_thr) <= start ($s_thr) + 2" "[ $e_thr -le $((s_thr + 2)) ]"
check "threads idle after ($a_thr) <= idle before ($b_thr) + 2" "[ $a_thr -le $((b_thr + 2)) ]"
check "no leaked backend ($backends = SHOW SERVERS $servers, <= 20)" "[ $backends -eq $servers ] && [ $backends -le 20 ]"
exit $fail
