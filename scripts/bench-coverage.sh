#!/usr/bin/env bash
# bench-coverage.sh: what does --coverage cost?
#
# Builds a small Swift program instrumented (swiftc -profile-generate -profile-coverage-mapping) and measures, in one
# run on this machine:
#   1. merge + export: `sut-launch --coverage DIR PROG spawn N` (the program launches itself N times, so N+1 raw
#      profiles) against the same command without --coverage; the difference is merging the profiles with
#      llvm-profdata and exporting lcov.info, coverage.xml and the summary. Target (issue 31): <= 2 s for 100.
#   2. cost per launch in a suite: `sut-launch test` of SCENARIOS scenarios, each launching the program once,
#      with and without --coverage (attribution per scenario included); (with - without) / SCENARIOS.
# Each figure is the median of REPEAT runs; the reference (without coverage) is measured in the same run.
#
# Usage: scripts/bench-coverage.sh      N=100 SCENARIOS=40 REPEAT=5 SUT=/path/to/sut-launch scripts/bench-coverage.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N="${N:-100}"
SCENARIOS="${SCENARIOS:-40}"
REPEAT="${REPEAT:-5}"
SUT="${SUT:-$ROOT/.build/debug/sut-launch}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

[ -x "$SUT" ] || (cd "$ROOT" && swift build --product sut-launch >&2)
command -v swiftc >/dev/null || { echo "bench-coverage: swiftc not found (a Swift toolchain is needed)" >&2; exit 2; }

cat > "$WORK/app.swift" <<'SWIFT'
#if canImport(Glibc)
import Glibc
#endif
func login() -> Int32 { print("logged in"); return 0 }
func search() -> Int32 { print("results"); return 0 }
func spawn(_ count: Int) -> Int32 {
    let me = CommandLine.arguments[0]
    for _ in 0..<count {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(me), strdup("login"), nil]
        guard posix_spawn(&pid, me, nil, nil, argv, environ) == 0 else { return 1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
    return 0
}
let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "login": exit(login())
case "search": exit(search())
case "spawn": exit(spawn(Int(arguments[2]) ?? 1))
default: exit(2)
}
SWIFT
swiftc -profile-generate -profile-coverage-mapping "$WORK/app.swift" -o "$WORK/app" 2>/dev/null
APP="$WORK/app"

# The median wall time, in ms, of REPEAT runs of the command (run from $WORK/run so default.profraw lands there).
median_ms() {
    mkdir -p "$WORK/run"
    local times=()
    for _ in $(seq "$REPEAT"); do
        local start end
        start=$(date +%s%N)
        (cd "$WORK/run" && "$@" >/dev/null 2>&1) || true
        end=$(date +%s%N)
        times+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

plain=$(median_ms "$SUT" "$APP" spawn "$N")
covered=$(median_ms "$SUT" --coverage "$WORK/cov" "$APP" spawn "$N")
"$SUT" --coverage "$WORK/cov" "$APP" spawn "$N" 2>&1 >/dev/null | grep '^sut-launch: coverage:' >&2 || true
echo "launch of $N children: ${plain} ms without --coverage, ${covered} ms with: merge + export $((covered - plain)) ms (target <= 2000 ms)"

{
    echo "Feature: bench"
    for i in $(seq "$SCENARIOS"); do
        printf '  Scenario: launch %s\n    When I run "%s login"\n    Then the exit code is 0\n\n' "$i" "$APP"
    done
} > "$WORK/bench.feature"
suite_plain=$(median_ms "$SUT" test -q "$WORK/bench.feature")
suite_covered=$(median_ms "$SUT" test -q --coverage "$WORK/suite-cov" "$WORK/bench.feature")
echo "test of $SCENARIOS scenarios: ${suite_plain} ms without --coverage, ${suite_covered} ms with:" \
    "$(((suite_covered - suite_plain) / SCENARIOS)) ms more per launch (attribution per scenario included)"
