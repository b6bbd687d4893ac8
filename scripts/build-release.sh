#!/usr/bin/env bash
# build-release.sh: builds the sut-launch binary to put on CI machines and prints its path. Beside it, it
# builds sut-launch-foundation: the same commands with the Foundation.Process launcher linked in, which
# sut-launch runs for `--launcher foundation` (kept out of sut-launch: Foundation triples the static binary
# and slows every start). Install both in one directory, or only sut-launch if nobody uses that launcher.
#
# On Linux it is one fully static executable (-static-executable): nothing for the dynamic loader to find,
# map or relocate, so it starts ~2.5 ms sooner than a build with --static-swift-stdlib and ~5 ms sooner than
# a default build (docs/performance.md), and it can be copied to any x86_64 Linux as one file (arm64 compiles the same code but is not built or run here).
# The static link warns that dlopen, getpwnam and friends need glibc's shared libraries at run time: those are
# FoundationEssentials' user and group lookups, which sut-launch never makes; the warnings are expected.
# sut-launch-foundation links the C library dynamically (see below): it also serves the --https runs.
# It links with the toolchain's lld, laying out the functions that starting, launching and serving run side
# by side (scripts/link-order.txt, written by scripts/generate-link-order.sh): the kernel maps program text
# 64 KB around each fault, so fewer faults and less resident text (docs/performance.md). Without lld, or if
# that link fails, it links as before and says so.
# macOS has no static executables; there it is a plain release build. It builds in .build/static, so that
# other release builds (MyAppCLI for bench-scenarios.sh) do not rebuild everything with other flags.
#
# Usage: scripts/build-release.sh            (the path goes to stdout, the build log to stderr)
#   cp "$(scripts/build-release.sh)"{,-foundation} /usr/local/bin/
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLAGS=()
ORDER=()
if [ "$(uname -s)" = Linux ]; then
    FLAGS=(-Xswiftc -static-executable)
    SWIFTC="$(command -v swiftc || true)"
    if [ -n "$SWIFTC" ] && [ -x "$(dirname "$(readlink -f "$SWIFTC")")/ld.lld" ] && [ -f "$ROOT/scripts/link-order.txt" ]; then
        ORDER=(-Xswiftc -use-ld=lld -Xlinker "--symbol-ordering-file=$ROOT/scripts/link-order.txt" -Xlinker --no-warn-symbol-ordering)
    fi
fi
for product in sut-launch; do
    # SwiftPM does not see the order file as an input: a newer list relinks by removing the old binary.
    BUILT="$ROOT/.build/static/release/$product"
    if [ ${#ORDER[@]} -gt 0 ] && [ -e "$BUILT" ] && [ "$ROOT/scripts/link-order.txt" -nt "$BUILT" ]; then rm -f "$(readlink -f "$BUILT")"; fi
    if ! (cd "$ROOT" && swift build -c release --scratch-path .build/static --product "$product" ${FLAGS[@]+"${FLAGS[@]}"} ${ORDER[@]+"${ORDER[@]}"} >&2); then
        [ ${#ORDER[@]} -gt 0 ] || exit 1
        echo "build-release: linking with lld and scripts/link-order.txt failed; linking with the default linker" >&2
        ORDER=()
        (cd "$ROOT" && swift build -c release --scratch-path .build/static --product "$product" ${FLAGS[@]+"${FLAGS[@]}"} >&2)
    fi
done
# The companion links Foundation and the C library dynamically (the Swift runtime static): a static executable
# cannot load libssl safely (the shared C library it needs would run beside the static one, and a thread that used
# TLS crashed when it ended), so sut-launch hands it --https runs as it hands it --launcher foundation. Built in a
# scratch path of its own (other flags), then put beside sut-launch.
COMPANION_FLAGS=()
[ "$(uname -s)" = Linux ] && COMPANION_FLAGS=(-Xswiftc -static-stdlib)
(cd "$ROOT" && swift build -c release --scratch-path .build/dynamic-libc --product sut-launch-foundation ${COMPANION_FLAGS[@]+"${COMPANION_FLAGS[@]}"} >&2)
install -m 755 "$ROOT/.build/dynamic-libc/release/sut-launch-foundation" "$ROOT/.build/static/release/sut-launch-foundation.new"
mv -f "$ROOT/.build/static/release/sut-launch-foundation.new" "$ROOT/.build/static/release/sut-launch-foundation"

BINARY="$ROOT/.build/static/release/sut-launch"
"$BINARY" --version >/dev/null || { echo "build-release: the built binary does not run: $BINARY" >&2; exit 1; }
# The pair serves HTTPS where the system has libssl: a run of `true` beside an HTTPS mock server exits 0.
if { ldconfig -p 2>/dev/null || true; } | grep -q 'libssl\.so\.\(3\|1\.1\)'; then
    CHECK="$(mktemp -d)"
    echo '{"routes": [{"path": "/", "status": 200}]}' >"$CHECK/stub.json"
    if ! "$BINARY" -q --https --port 0 --stub "$CHECK/stub.json" sh -c 'curl -sS --fail "$SUT_MOCK_SERVER_URL/" >/dev/null 2>&1 || [ -z "$(command -v curl)" ]' >&2; then
        rm -rf "$CHECK"
        echo "build-release: the built pair does not serve HTTPS: $BINARY --https" >&2
        exit 1
    fi
    rm -rf "$CHECK"
fi
# Stubs with XML matchers: the static binary cannot load libxml2 and hands the run to the companion, which can.
if { ldconfig -p 2>/dev/null || true; } | grep -q 'libxml2\.so\.2'; then
    CHECK="$(mktemp -d)"
    echo '{"request": {"method": "POST", "url": "/", "bodyPatterns": [{"matchesXPath": "/a"}]}, "response": {"status": 200}}' >"$CHECK/xml.json"
    if ! "$BINARY" -q --port 0 --stub "$CHECK/xml.json" sh -c 'curl -sS --fail -d "<a/>" "$SUT_MOCK_SERVER_URL/" >/dev/null 2>&1 || [ -z "$(command -v curl)" ]' >&2; then
        rm -rf "$CHECK"
        echo "build-release: the built pair does not match XML: $BINARY --stub (matchesXPath)" >&2
        exit 1
    fi
    rm -rf "$CHECK"
fi
echo "$BINARY"
