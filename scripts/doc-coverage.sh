#!/usr/bin/env bash
# doc-coverage.sh: the share of public declarations that carry a `///` doc comment, per module (issue 16 asks
# ≥ 90 % for AutomationTesting). A declaration counts as documented when the line above it (attributes and
# other comment lines skipped) is a `///` line; enum cases declared in one `case a, b` line count once.
#
# Usage: scripts/doc-coverage.sh [MODULE...]        (default: every module under Sources/)
#        MIN=90 scripts/doc-coverage.sh AutomationTesting    (exit 1 when below MIN percent)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODULES=("$@")
[ ${#MODULES[@]} -eq 0 ] && MODULES=($(ls "$ROOT/Sources"))
python3 - "$ROOT" "${MIN:-0}" "${MODULES[@]}" <<'PY'
import os, re, sys
root, minimum, modules = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
declaration = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|override|mutating|nonisolated|convenience|required|indirect)\s+)*(func|var|let|init|struct|class|enum|case|subscript|typealias|protocol|actor)\b')
failed = False
for module in modules:
    directory = os.path.join(root, "Sources", module)
    if not os.path.isdir(directory):
        continue
    total = documented = 0
    missing = []
    for folder, _, files in os.walk(directory):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            lines = open(path, encoding="utf-8").read().split("\n")
            for index, line in enumerate(lines):
                if not declaration.match(line):
                    continue
                total += 1
                above = index - 1
                while above >= 0 and (lines[above].strip().startswith("@") or lines[above].strip().startswith("// ")):
                    above -= 1
                if above >= 0 and lines[above].strip().startswith("///"):
                    documented += 1
                else:
                    missing.append(f"{os.path.relpath(path, root)}:{index + 1}: {line.strip()[:100]}")
    if total == 0:
        continue
    share = 100.0 * documented / total
    print(f"{module}: {documented}/{total} public declarations documented ({share:.1f} %)")
    if share < minimum:
        failed = True
        for entry in missing:
            print("  undocumented: " + entry)
sys.exit(1 if failed else 0)
PY
