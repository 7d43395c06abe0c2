#!/usr/bin/env bash
# Long fuzzing runs of Sluice's parsers with Jazzer, outside CI (mvn verify only replays the
# committed inputs of each @FuzzTest in regression mode).
#
#   scripts/fuzz.sh                       # every target, 10,000,000 executions each
#   RUNS=1000000 scripts/fuzz.sh frames   # targets whose name contains "frames"
#   SECONDS_EACH=90 scripts/fuzz.sh       # a time bound instead of a count
#
# Each target keeps its growing corpus in server/target/fuzz-corpus/<target>; a crash (any
# exception other than the parser's declared error) stops that target and its input is written
# next to the regression inputs in server/src/test/resources/<package>/<Class>Inputs/<method>/,
# where mvn verify will replay it from then on: fix the bug, keep the input. The last line of
# each target's log (server/target/fuzz-logs/<target>.log) says how many runs it did.
set -euo pipefail
cd "$(dirname "$0")/../server"

TARGETS=(
  io.sluice.proto.codec.FrameDecoderFuzzTest#frames
  io.sluice.proto.codec.StartupDecoderFuzzTest#packets
  io.sluice.auth.ScramFuzzTest#serverSide
  io.sluice.auth.ScramFuzzTest#clientSide
  io.sluice.admin.AdminConsoleFuzzTest#commands
  io.sluice.config.IniFuzzTest#config
  io.sluice.config.userlist.AuthFileFuzzTest#parse
)
FILTER="${1:-}"
MVN="${MVN:-mvn}"   # e.g. MVN="mvn -o" offline
RUNS="${RUNS:-10000000}"

if [ ! -f target/fuzz-classpath.txt ] || [ pom.xml -nt target/fuzz-classpath.txt ]; then
  (cd .. && $MVN -B -q -pl server -am test-compile dependency:build-classpath \
      -Dmdep.outputFile="$PWD/server/target/fuzz-classpath.txt" -Dmdep.includeScope=test)
else
  (cd .. && $MVN -B -q -pl server -am test-compile)
fi
CP="target/test-classes:target/classes:$(cat target/fuzz-classpath.txt)"
mkdir -p target/fuzz-logs

status=0
for t in "${TARGETS[@]}"; do
  [[ -n "$FILTER" && "$t" != *"$FILTER"* ]] && continue
  class="${t%#*}"; method="${t#*#}"
  name="${class##*.}-$method"
  inputs="src/test/resources/$(dirname "${class//.//}")/${class##*.}Inputs/$method"
  corpus="target/fuzz-corpus/$name"
  mkdir -p "$corpus" "$inputs"
  limit=(-runs="$RUNS" -max_total_time=864000) # the @FuzzTest maxDuration would cut a run at 30 s
  [[ -n "${SECONDS_EACH:-}" ]] && limit=(-max_total_time="$SECONDS_EACH")
  echo "== $name"
  if java -Xmx1g -cp "$CP" com.code_intelligence.jazzer.Jazzer --target_class="$class" --target_method="$method" \
      --instrumentation_includes='io.sluice.**' -artifact_prefix="$inputs/" "${limit[@]}" -print_final_stats=1 \
      "$corpus" "$inputs" > "target/fuzz-logs/$name.log" 2>&1; then
    grep -E 'number_of_executed_units|average_exec_per_sec' "target/fuzz-logs/$name.log" | tail -2
  else
    echo "FAILED: see target/fuzz-logs/$name.log"; grep -A3 '== Java Exception' "target/fuzz-logs/$name.log" || true
    status=1
  fi
done
exit $status
