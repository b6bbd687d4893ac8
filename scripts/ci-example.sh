#!/usr/bin/env bash
# ci-example.sh: one job of a sharded CI matrix running the example feature suite.
#
# Each machine of the matrix runs the same command with its own SHARD (1..SHARDS); --shard picks a stable
# share of the scenarios, so together the jobs run every scenario exactly once. Each job writes its own
# JUnit file for the CI to collect. A GitHub Actions matrix, for instance:
#
#   strategy: { matrix: { shard: [1, 2, 3, 4] } }
#   steps:
#     - uses: actions/checkout@v4
#     - run: SHARD=${{ matrix.shard }} SHARDS=4 scripts/ci-example.sh
#     - uses: actions/upload-artifact@v4
#       with: { name: junit-${{ matrix.shard }}, path: junit-${{ matrix.shard }}.xml }
#
# The same job as a GitHub Actions composite action: scripts/github-action/action.yml (FORMAT=github here
# prints its annotations). In GitLab CI:
#
#   scenarios:
#     parallel: 4
#     script: SHARD=$CI_NODE_INDEX SHARDS=$CI_NODE_TOTAL scripts/ci-example.sh
#     artifacts: { when: always, reports: { junit: "junit-*.xml" } }
#
# Usage: SHARD=2 SHARDS=4 JOBS=2 scripts/ci-example.sh      (defaults: SHARD=1 SHARDS=1 JOBS=2 FORMAT=plain)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARD="${SHARD:-1}"
SHARDS="${SHARDS:-1}"
JOBS="${JOBS:-2}"
FORMAT="${FORMAT:-plain}"
cd "$ROOT"

swift build --product sut-launch
swift build --product MyAppCLI
BIN="$(swift build --show-bin-path)"
"$BIN/sut-launch" test --shard "$SHARD/$SHARDS" --jobs "$JOBS" --format "$FORMAT" --junit "junit-$SHARD.xml" \
    -D PROGRAM="$BIN/MyAppCLI" Fixtures/features
