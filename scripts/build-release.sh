#!/usr/bin/env bash
# build-release.sh: builds the sut-launch binary to put on CI machines and prints its path. Beside it, it
# builds sut-launch-foundation: the same commands with the Foundation.Process launcher linked in, which
# sut-launch runs for `--launcher foundation` (kept out of sut-launch: Foundation triples the static binary
# and slows every start). Install both in one directory, or only sut-launch if nobody uses that launcher.
#
# On Linux it is one fully static executable (-static-executable): nothing for the dynamic loader to find,
# map or relocate, so it starts ~2.5 ms sooner than a build with --static-swift-stdlib and ~5 ms sooner than
# a default build (README "Performance"), and it can be copied to any x86_64/arm64 Linux as one file.
# The static link warns that dlopen, getpwnam and friends need glibc's shared libraries at run time: those are
# FoundationEssentials' user and group lookups, which sut-launch never makes; the warnings are expected.
# macOS has no static executables; there it is a plain release build. It builds in .build/static, so that
# other release builds (MyAppCLI for bench-scenarios.sh) do not rebuild everything with other flags.
#
# Usage: scripts/build-release.sh            (the path goes to stdout, the build log to stderr)
#   cp "$(scripts/build-release.sh)"{,-foundation} /usr/local/bin/
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLAGS=()
if [ "$(uname -s)" = Linux ]; then FLAGS=(-Xswiftc -static-executable); fi
for product in sut-launch sut-launch-foundation; do
    (cd "$ROOT" && swift build -c release --scratch-path .build/static --product "$product" ${FLAGS[@]+"${FLAGS[@]}"} >&2)
done
BINARY="$ROOT/.build/static/release/sut-launch"
"$BINARY" --version >/dev/null || { echo "build-release: the built binary does not run: $BINARY" >&2; exit 1; }
echo "$BINARY"
