#!/usr/bin/env bash
# bench-gherkin.sh: how fast do feature files load? Writes 1,000 feature files of 20 scenarios each (a
# Background, tags, a table and a doc string in each file, an outline with 4 rows), then times, in one run:
#   1. sut-launch test --list       (parse, compile pickles, select, print them; runs nothing)
#   2. behave --dry-run             (PyPI behave, the reference in the same run: parses and walks every scenario)
# Target (issue 14): sut-launch well under a second.
# Then a step file of PATTERNS patterns (default 3,000; `the account N has {int} items`) and a feature of 1,000 steps
# that use them: sut-launch test --list --steps (load, index, clash and ambiguity checks) beside behave --dry-run with
# the same definitions (its `parse` matcher), CPU seconds of each. Target: under a second (it took 19 s in a debug
# build when every step tried every pattern and every pair of patterns was compared).
#
# Usage: scripts/bench-gherkin.sh      (needs behave: pip install behave; and hyperfine)
#   FILES=200 PATTERNS=400 scripts/bench-gherkin.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FILES="${FILES:-1000}"
PATTERNS="${PATTERNS:-3000}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
command -v hyperfine >/dev/null || { echo "bench-gherkin: hyperfine not found; install it with: apt-get install -y hyperfine" >&2; exit 2; }
command -v behave >/dev/null || { echo "bench-gherkin: behave not found; install it with: pip install behave" >&2; exit 2; }

echo "building sut-launch (scripts/build-release.sh)..." >&2
SUT="$("$ROOT/scripts/build-release.sh")"

python3 - "$WORK/features" "$FILES" <<'PY'
import os, sys
directory, count = sys.argv[1], int(sys.argv[2])
os.makedirs(os.path.join(directory, "steps"))
open(os.path.join(directory, "steps", "steps.py"), "w").write("")  # behave wants a steps directory
for file in range(count):
    scenarios = []
    for number in range(16):
        scenarios.append(f'''
  @smoke @n{number}
  Scenario: Scenario {number} of file {file}
    Given the program "sh"
    And the environment variable "N" is "{number}"
    When I run "sh -c 'echo $N'"
    Then I see "{number}"
    And the exit code is 0''')
    scenarios.append('''
  Scenario Outline: An outline <n>
    Given a file "in.txt" with:
      """
      value <n>
      """
    When I run "cat in.txt"
    Then I see "value <n>"

    Examples:
      | n |
      | 1 |
      | 2 |
      | 3 |
      | 4 |''')
    text = f"Feature: File {file}\n  Background:\n    Given the feature flags:\n      | greeting | hi |\n" + "\n".join(scenarios) + "\n"
    open(os.path.join(directory, f"f{file:04d}.feature"), "w").write(text)
PY

SCENARIOS=$("$SUT" test --list "$WORK/features" | grep -c . || true)
echo "$FILES files, $SCENARIOS scenarios" >&2
# behave exits 1 on the undefined steps of a dry run (-i): it still parses and walks every scenario.
hyperfine -N --style basic --warmup 0 --runs 3 -i --export-json "$WORK/results.json" \
    -n sut-launch "$SUT test --list $WORK/features" \
    -n behave "behave --dry-run --no-summary --format null --no-capture $WORK/features" >&2

python3 - "$WORK/results.json" "$FILES" "$SCENARIOS" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
ours, behave = results["sut-launch"]["median"], results["behave"]["median"]
ok = "PASS" if ours < 1.0 else "FAIL"
print(f"{sys.argv[2]} feature files, {sys.argv[3]} scenarios: sut-launch test --list {ours * 1000:.0f} ms "
      f"(target well under 1 s: {ok}); behave --dry-run {behave * 1000:.0f} ms ({behave / ours:.1f} x sut-launch)")
PY

python3 - "$WORK/patterns" "$PATTERNS" <<'PY'
import json, os, sys
directory, count = sys.argv[1], int(sys.argv[2])
os.makedirs(os.path.join(directory, "steps"))
json.dump([{"step": "the account %d has {int} items" % i, "run": ["true"]} for i in range(count)],
          open(os.path.join(directory, "accounts.steps.json"), "w"))
with open(os.path.join(directory, "steps", "steps.py"), "w") as f:
    f.write("from behave import given\n")
    for i in range(count):
        f.write("@given('the account %d has {n:d} items')\ndef step_%d(context, n): pass\n" % (i, i))
with open(os.path.join(directory, "accounts.feature"), "w") as f:
    f.write("Feature: Accounts\n")
    for s in range(100):
        f.write("  Scenario: s%d\n" % s)
        for k in range(10):
            f.write("    Given the account %d has %d items\n" % ((s * 10 + k) * 7 % count, k))
PY
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }'; }
ours=$(cpu "$SUT" test --list "$WORK/patterns/accounts.feature")
reference=$(cd "$WORK/patterns" && cpu behave --dry-run --no-summary --format null --no-capture accounts.feature)
python3 - "$PATTERNS" "$ours" "$reference" <<'PY'
import sys
patterns, ours, behave = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
ok = "PASS" if ours < 1.0 else "FAIL"
print(f"a step file of {patterns} patterns, 1,000 steps: sut-launch test --list {ours:.2f} s CPU (target under 1 s: {ok}); "
      f"behave --dry-run with the same definitions {behave:.2f} s CPU")
PY
