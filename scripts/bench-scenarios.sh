#!/usr/bin/env bash
# bench-scenarios.sh: what does the scenario runner cost over running the program yourself?
#
# Runs 100 trivial scenarios (launch MyAppCLI greet, see its greeting, exit code 0) with --jobs 2, and runs
# the same program 100 times directly from a shell loop, in the same run; prints both and the ratio.
# Target (issue 5): the scenarios take under 3 x the direct runs.
#
# Then, beside bats-core (Debian package bats) in the same run: 100 scenarios of `When I run "true"` and
# `Then the exit code is 0` with --jobs 2, against bats running the same 100 tests (`run true`,
# `[ "$status" -eq 0 ]`). Target (issue 13): at most 0.5 x bats' time. Skipped, and said, without bats.
#
# Usage: scripts/bench-scenarios.sh      SCENARIOS=200 JOBS=2 scripts/bench-scenarios.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCENARIOS="${SCENARIOS:-100}"
JOBS="${JOBS:-2}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# MyAppCLI links FoundationNetworking (URLSession), which links statically only with libcurl's static
# library, so it is a default release build; sut-launch is built as it is installed (scripts/build-release.sh).
echo "building MyAppCLI (release) and sut-launch (scripts/build-release.sh)..." >&2
(cd "$ROOT" && swift build -c release --product MyAppCLI >&2)
SUT="$("$ROOT/scripts/build-release.sh")"
APP="$ROOT/.build/release/MyAppCLI"

{
    echo "Feature: Trivial"
    for i in $(seq 1 "$SCENARIOS"); do
        printf '  Scenario: greeting %s\n    When I launch the program with "greet"\n    Then I see "hello, world"\n    And the exit code is 0\n\n' "$i"
    done
} > "$WORK/trivial.feature"

now() { python3 -c 'import time; print(time.perf_counter())'; }
"$APP" greet > /dev/null   # warm the page cache
start=$(now)
for _ in $(seq 1 "$SCENARIOS"); do "$APP" greet > /dev/null; done
direct=$(python3 -c "print($(now) - $start)")

start=$(now)
"$SUT" test -q --jobs 1 -D PROGRAM="$APP" "$WORK/trivial.feature" > "$WORK/out1.txt"
serial=$(python3 -c "print($(now) - $start)")
start=$(now)
"$SUT" test -q --jobs "$JOBS" -D PROGRAM="$APP" "$WORK/trivial.feature" > "$WORK/out.txt"
scenarios=$(python3 -c "print($(now) - $start)")
tail -1 "$WORK/out.txt" >&2

python3 - "$direct" "$scenarios" "$SCENARIOS" "$JOBS" "$serial" <<'PY'
import sys
direct, scenarios, n, jobs, serial = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
ratio = scenarios / direct
print(f"{n} direct runs (shell loop): {direct * 1000:.0f} ms; {n} scenarios with --jobs {jobs}: {scenarios * 1000:.0f} ms, "
      f"ratio {ratio:.2f} (target < 3: {'PASS' if ratio < 3 else 'FAIL'}); with --jobs 1: {serial * 1000:.0f} ms ({serial / direct:.2f} x)")
PY

if command -v bats >/dev/null; then
    {
        echo "Feature: Commands"
        for i in $(seq 1 "$SCENARIOS"); do
            printf '  Scenario: true %s\n    When I run "true"\n    Then the exit code is 0\n\n' "$i"
        done
    } > "$WORK/commands.feature"
    {
        for i in $(seq 1 "$SCENARIOS"); do
            printf '@test "true %s" {\n  run true\n  [ "$status" -eq 0 ]\n}\n\n' "$i"
        done
    } > "$WORK/commands.bats"
    bats "$WORK/commands.bats" > /dev/null   # warm
    start=$(now)
    bats "$WORK/commands.bats" > "$WORK/bats.txt"
    bats_time=$(python3 -c "print($(now) - $start)")
    start=$(now)
    "$SUT" test -q --jobs "$JOBS" "$WORK/commands.feature" > "$WORK/commands.txt"
    ours=$(python3 -c "print($(now) - $start)")
    python3 - "$bats_time" "$ours" "$SCENARIOS" "$JOBS" <<'PY'
import sys
bats, ours, n, jobs = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
print(f"{n} x When I run \"true\" with --jobs {jobs}: {ours * 1000:.0f} ms; bats-core, the same {n} tests: {bats * 1000:.0f} ms; "
      f"ratio {ours / bats:.2f} (target <= 0.5: {'PASS' if ours <= 0.5 * bats else 'FAIL'})")
PY
else
    echo "bats not found (apt-get install -y bats): the comparison with bats-core is skipped" >&2
fi
