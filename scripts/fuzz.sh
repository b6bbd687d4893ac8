#!/usr/bin/env bash
# fuzz.sh: runs libFuzzer (with AddressSanitizer) on the parsers that read what users and clients send:
# JSON + stub files (ParseJSON), HTTP request heads + chunked bodies (ParseRequest), Gherkin (ParseGherkin),
# flags: the wire format, flag assignments, flags files, .env files, durations (ParseFlags); and a whole client
# connection answered by the server's connection loop over a socketpair (ServeConnection).
#
# The targets live in Fuzz/ (not in Package.swift, so normal builds skip them). This script builds them in a
# scratch package under .build/fuzz whose library targets link to Sources/, then runs each for SECONDS,
# seeded from the fixtures (the corpus grows in .build/fuzz/corpus across runs). A crash leaves its input in .build/fuzz/crashes/ and the script exits 1; rerun one
# input with: .build/fuzz/ParseRequest .build/fuzz/crashes/crash-...
#
# Usage: scripts/fuzz.sh                 FUZZ_SECONDS=600 scripts/fuzz.sh ParseRequest
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=(ParseJSON ParseRequest ParseGherkin ParseFlags ServeConnection); fi
WORK="$ROOT/.build/fuzz"
PACKAGE="$WORK/fuzz" # its directory name is the package name swiftc gets below (-package-name fuzz)
mkdir -p "$PACKAGE/Sources" "$WORK/crashes" "$WORK/modulemap"
for module in CSystemShims MockServer AutomationHost AutomationCore; do ln -sfn "$ROOT/Sources/$module" "$PACKAGE/Sources/$module"; done
cat > "$PACKAGE/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "fuzz", targets: [
    .target(name: "CSystemShims"),
    .target(name: "MockServer", dependencies: ["CSystemShims"]),
    .target(name: "AutomationHost"),
    .target(name: "AutomationCore", dependencies: ["AutomationHost", "MockServer", "CSystemShims"]),
])
for target in package.targets where target.name != "CSystemShims" {
    target.swiftSettings = ["ExistentialAny", "MemberImportVisibility", "InternalImportsByDefault"].map { .enableUpcomingFeature($0) }
}
SWIFT
printf 'module CSystemShims {\n  header "%s"\n  export *\n}\n' "$ROOT/Sources/CSystemShims/include/CSystemShims.h" > "$WORK/modulemap/module.modulemap"

echo "building the fuzz targets (release, -sanitize=fuzzer,address)..." >&2
(cd "$PACKAGE" && swift build -c release --target AutomationCore \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address >&2)
BUILT="$PACKAGE/.build/release"
OBJECTS=("$BUILT"/CSystemShims.build/*.o "$BUILT"/MockServer.build/*.o "$BUILT"/AutomationHost.build/*.o "$BUILT"/AutomationCore.build/*.o)

seed() { # $1 target, $2 corpus directory
    mkdir -p "$2"
    case "$1" in
        ParseJSON) cp "$ROOT"/Fixtures/stubs/*.json "$ROOT"/Tests/MockServerTests/Fixtures/wiremock/mappings/*.json "$2"/ ;;
        ParseRequest)
            printf 'GET /a?b=c HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n' > "$2/head"
            printf '5\r\nhello\r\n0\r\nTrailer: x\r\n\r\n' > "$2/chunked" ;;
        ParseGherkin) find "$ROOT/Fixtures" -name '*.feature' -exec cp {} "$2"/ \; ;;
        ServeConnection)
            printf 'GET /message HTTP/1.1\r\nHost: x\r\n\r\nGET /q?x=12 HTTP/1.1\r\nHost: x\r\nh: vv\r\n\r\n' > "$2/pipelined"
            printf 'POST /users/7/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\n{"a":1}' > "$2/json"
            printf 'POST /seq HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n' > "$2/chunked"
            printf 'GET /s HTTP/1.0\r\n\r\n' > "$2/http10"
            printf 'POST /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi' > "$2/continue" ;;
        ParseFlags)
            printf '{"skipPreActiveCheck":true,"retries":3,"name":"x","list":[1,"a"]}' > "$2/wire"
            printf 'retries:=3' > "$2/assignment"
            printf 'A=1\nexport B="two words"\n# comment\n' > "$2/dotenv"
            printf '1m30s' > "$2/duration" ;;
    esac
}

# No leak checks: the Swift runtime's and Regex's lazily built caches read as leaks to LeakSanitizer; this
# looks for traps and memory errors.
failed=0
for target in "${TARGETS[@]}"; do
    swiftc -O -package-name fuzz -sanitize=fuzzer,address -parse-as-library -I "$BUILT/Modules" -I "$WORK/modulemap" \
        "$ROOT/Fuzz/$target.swift" "${OBJECTS[@]}" -o "$WORK/$target" 2> "$WORK/$target.link.log" \
        || { cat "$WORK/$target.link.log" >&2; exit 2; } # (gold warns about sanitizer symbols on every link)
    corpus="$WORK/corpus/$target"
    [ -d "$corpus" ] || seed "$target" "$corpus"
    echo "fuzzing $target for ${SECONDS_EACH}s..." >&2
    if ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$WORK/$target" -max_total_time="$SECONDS_EACH" -max_len=4096 -detect_leaks=0 -artifact_prefix="$WORK/crashes/" "$corpus" \
        > "$WORK/$target.log" 2>&1; then
        echo "$target: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$WORK/$target.log" | tail -1)s, no crash"
    else
        echo "$target: CRASH; see $WORK/$target.log and $WORK/crashes/" >&2
        failed=1
    fi
done
exit "$failed"
