#!/usr/bin/env bash
# bench-gherkin.sh: how fast do feature files load? Writes 1,000 feature files of 20 scenarios each (a
# Background, tags, a table and a doc string in each file, an outline with 4 rows), then times, in one run:
#   1. sut-launch test --list       (parse, compile pickles, select, print them; runs nothing)
#   2. behave --dry-run             (PyPI behave, the reference in the same run: parses and walks every scenario)
# Target (issue 14): sut-launch well under a second.
#
# Usage: scripts/bench-gherkin.sh      (needs behave: pip install behave; and hyperfine)
#   FILES=200 scripts/bench-gherkin.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FILES="${FILES:-1000}"
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
