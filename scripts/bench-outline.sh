#!/usr/bin/env bash
# bench-outline.sh: does loading a Scenario Outline grow linearly with its Examples rows? Writes outlines of
# 10,000, 40,000 and 100,000 rows (one step each, every row its own text) and times, in one run, for each:
#   1. sut-launch check FILE        (parse, compile the pickles, lint every step against the catalog)
#   2. gherkin-official (Python)    (the reference in the same run: Cucumber's parser and pickle compiler)
# Target (attack 2, F5): the time per row stays flat from 10,000 to 100,000 rows (it was 0.34 ms at 10,000,
# 0.43 ms at 40,000 and over 1 ms at 100,000: a cache of 20,000 step texts made every later row match the catalog
# three times, and a regular expression was compiled for each step).
# Then the cost per byte of step text (R7B-11): user CPU of `sut-launch test --list` on one 400 KB step line
# (`Then I do not see "aaa…"`), on outlines whose one step has 250 placeholders filled with 4 KB values (O2: 2 rows,
# O6: 6 rows, ~1 MB of step text per row), and on the reference: the same 400 KB as a doc string.
# Target: a byte of step text within a small factor (4 ×) of a byte of doc string. Before the capture matcher's
# fast path, a debug build took 2.8 s for the line against 0.18 s for the doc string, 16 s for O2.
#
# Usage: scripts/bench-outline.sh      (needs gherkin-official: pip install gherkin-official)
#   SUT=.build/debug/sut-launch scripts/bench-outline.sh    (skip the release build)
#   BASE=/path/to/older/sut-launch ...                       (the step-text part for that binary too, same run)
#   ONLY=steps ...                                           (the step-text part alone; gherkin-official not needed)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ "${ONLY:-}" != steps ]; then
    python3 -c 'import gherkin' 2>/dev/null || { echo "bench-outline: gherkin-official not found; pip install gherkin-official" >&2; exit 2; }
fi
if [ -z "${SUT:-}" ]; then
    echo "building sut-launch (scripts/build-release.sh)..." >&2
    SUT="$("$ROOT/scripts/build-release.sh")"
fi

seconds() { # user+system CPU seconds of a command, its output discarded
    /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.2f", $1 + $2 }'
}

if [ "${ONLY:-}" != steps ]; then
printf '%8s  %12s  %10s  %16s\n' rows sut-launch "ms/row" gherkin-official
for rows in 10000 40000 100000; do
    python3 -c "import sys; n=int(sys.argv[1]); open(sys.argv[2],'w').write('Feature: T\n  Scenario Outline: s <a>\n    When I run \"echo <a>\"\n  Examples:\n    | a |\n'+''.join('    | %d |\n'%i for i in range(n)))" "$rows" "$WORK/o.feature"
    ours="$(seconds "$SUT" check "$WORK/o.feature")"
    reference="$(seconds python3 -c "
import sys
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
document = Parser().parse(open(sys.argv[1]).read())
document['uri'] = sys.argv[1]
print(len(Compiler().compile(document)))" "$WORK/o.feature")"
    printf '%8s  %11ss  %10s  %15ss\n' "$rows" "$ours" "$(awk -v s="$ours" -v n="$rows" 'BEGIN { printf "%.3f", s * 1000 / n }')" "$reference"
done
fi

# The cost per byte of step text, against a doc string of the same size.
python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
value = 'b' * 4000
for rows in (2, 6):
    rows_text = ''.join(f'      | {value}{i} |\n' for i in range(rows))
    text = 'Feature: O\n  Scenario Outline: o\n    Then I do not see "' + '<a>' * 250 + '"\n\n    Examples:\n      | a |\n' + rows_text
    open(f'{work}/O{rows}.feature', 'w').write(text)
open(f'{work}/line.feature', 'w').write('Feature: L\n  Scenario: s\n    Then I do not see "' + 'a' * 400000 + '"\n')
open(f'{work}/doc.feature', 'w').write('Feature: D\n  Scenario: s\n    Given a file "x" with:\n      """\n      ' + 'a' * 400000 + '\n      """\n')
PY
user() { # user CPU seconds of a command, its output discarded
    /usr/bin/time -f '%U' "$@" 2>&1 >/dev/null | tail -1
}
printf '\n%-34s  %10s  %10s\n' "test --list (user CPU)" sut-launch "${BASE:+base}"
for shape in "line:400 KB step line" "doc:400 KB doc string (reference)" "O2:outline, 2 rows of ~1 MB" "O6:outline, 6 rows of ~1 MB"; do
    file="$WORK/${shape%%:*}.feature"
    printf '%-34s  %9ss  %9s\n' "${shape#*:}" "$(user "$SUT" test --list "$file")" "${BASE:+$(user "$BASE" test --list "$file")s}"
done
