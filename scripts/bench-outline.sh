#!/usr/bin/env bash
# bench-outline.sh: does loading a Scenario Outline grow linearly with its Examples rows? Writes outlines of
# 10,000, 40,000 and 100,000 rows (one step each, every row its own text) and times, in one run, for each:
#   1. sut-launch check FILE        (parse, compile the pickles, lint every step against the catalog)
#   2. gherkin-official (Python)    (the reference in the same run: Cucumber's parser and pickle compiler)
# Target (attack 2, F5): the time per row stays flat from 10,000 to 100,000 rows (it was 0.34 ms at 10,000,
# 0.43 ms at 40,000 and over 1 ms at 100,000: a cache of 20,000 step texts made every later row match the catalog
# three times, and a regular expression was compiled for each step).
#
# Usage: scripts/bench-outline.sh      (needs gherkin-official: pip install gherkin-official)
#   SUT=.build/debug/sut-launch scripts/bench-outline.sh    (skip the release build)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 -c 'import gherkin' 2>/dev/null || { echo "bench-outline: gherkin-official not found; pip install gherkin-official" >&2; exit 2; }
if [ -z "${SUT:-}" ]; then
    echo "building sut-launch (scripts/build-release.sh)..." >&2
    SUT="$("$ROOT/scripts/build-release.sh")"
fi

seconds() { # user+system CPU seconds of a command, its output discarded
    /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.2f", $1 + $2 }'
}

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
