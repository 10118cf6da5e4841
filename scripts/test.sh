#!/usr/bin/env bash
# Builds the release and the sanitizer trees and runs every test: the whole suite (unit, protocol, server, API,
# browser) on the release build, then the unit tests again with the libraries under ASan+UBSan (the asan presets
# build only the unit-test binaries and leave out the scripts that drive `tabula`). Ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
status=0
recap=$(mktemp)

run_ctest() {  # $1 = preset
  local log
  log=$(mktemp)
  ctest --preset "$1" --output-on-failure 2>&1 | tee "$log"
  local summary
  summary=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
  if [ -z "$summary" ]; then
    echo "test.sh: ctest ($1) printed no summary" >&2
    failed=$((failed + 1))
    status=1
  else
    local f t
    f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
    t=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$summary")
    passed=$((passed + t - f))
    failed=$((failed + f))
    [ "$f" -eq 0 ] || status=1
  fi
  rm -f "$log"
  failed_output "$1" >>"$recap"
}

# What every test that failed in this preset's run printed, read from ctest's own log: from its first "not ok"
# (node's test runner) on, or its last lines, 25 at most, without the runner's closing counts. ctest prints a
# failure's output when the test ends, in the middle of a long run; a CI excerpt keeps the tail, so test.sh
# repeats it just before the summary.
failed_output() {  # $1 = preset
  local last="build/$1/Testing/Temporary/LastTest.log"
  [ -f "$last" ] || return 0
  awk -v preset="$1" '
    /^[0-9]+\/[0-9]+ Test: / { name = $3; n = 0; first = -1; inside = 0; next }
    /^Output:$/ { inside = 1; getline; next }
    /^<end of output>$/ { inside = 0; next }
    inside {
      if ($0 ~ /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) / || $0 ~ /duration_ms:/) next
      if (first < 0 && $0 ~ /^ *not ok /) first = n
      buf[n++] = $0; next
    }
    /^Test Failed/ {
      from = first >= 0 ? first : (n > 25 ? n - 25 : 0)
      print "---- " preset ": " name " failed; it printed:"
      for (i = from; i < n && i < from + 25; i++) print "  " buf[i]
    }' "$last"
}

build() {  # $1 = preset
  if ! { cmake --preset "$1" >/dev/null && cmake --build --preset "$1"; }; then
    echo "test.sh: the $1 build failed" >&2
    failed=$((failed + 1))
    status=1
    return 1
  fi
}

start=$(date +%s)
if build release; then run_ctest release; fi
if build asan; then ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 run_ctest asan; fi
if [ -s "$recap" ]; then echo "test.sh: what the failing tests printed last"; cat "$recap"; fi
rm -f "$recap"
echo "test.sh: $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
exit $status
