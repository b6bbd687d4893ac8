#!/usr/bin/env bash
# fuzz.sh: runs libFuzzer (with AddressSanitizer) on what reads input users and clients write:
# JSON + stub files (ParseJSON), HTTP request heads + chunked bodies (ParseRequest), Gherkin (ParseGherkin),
# flags: the wire format, flag assignments, flags files, .env files, durations (ParseFlags); and a whole client
# connection answered by the server's connection loop over a socketpair (ServeConnection); regular expressions
# as stubs and steps compile and match them (ParseRegex); what programs print on a terminal, rendered (ParseTerminal);
# tag expressions and Cucumber Expressions (step patterns) with a text to match (ParseExpressions); admin API and
# control channel requests through the endpoint policy (AdminRequest); response templates rendered against a
# request made of the same input (RenderTemplate); step patterns (Cucumber Expressions and regular expressions)
# matched against step texts and output lines (StepMatching); shard partitions from a timings file (ShardTimings);
# a client's bytes (ClientHello, records, fragments, alerts, garbage) to the HTTPS server's TLS layer over OpenSSL's
# memory BIOs, with the connection served when a handshake completes (ServeTLS; needs libssl at run time); request
# bodies with Content-Encoding gzip or deflate, decoded within a limit (Inflate: gzip, zlib, raw DEFLATE); a WireMock
# mapping's request matchers (dates, formats, multi-values, credentials, binary and multipart bodies) loaded and asked
# by a request made of the same input (MatchWireMock); an XPath expression and a document through the XML matchers on
# libxml2 (MatchXML: parsed, compared with itself, evaluated; needs libxml2 at run time); Cucumber Messages read back
# for `report` and the HTML (ReadMessages: the reader's fast path against a whole parse of every line).
#
# The targets are Tests/FuzzTargetsTests/FuzzTargets*.swift, which `swift test` also compiles and runs on every
# saved input in Tests/FuzzTargetsTests/Inputs/<target>/. This script builds the library targets with the sanitizers
# (scratch path .build/fuzz/build), links each target with a generated
# LLVMFuzzerTestOneInput, and runs it for FUZZ_SECONDS from a corpus seeded with the saved inputs and the fixtures
# (the corpus grows in .build/fuzz/corpus across runs). A crash leaves its input in .build/fuzz/crashes/ and the
# script exits 1; so does an input that runs longer than FUZZ_TIMEOUT seconds (5 by default: a hang is a failure;
# it is left as timeout-...). Rerun it with `.build/fuzz/ParseRequest .build/fuzz/crashes/crash-...`; once fixed, copy it to
# Tests/FuzzTargetsTests/Inputs/<target>/crash-<what> so it stays fixed.
#
# Usage: scripts/fuzz.sh                 FUZZ_SECONDS=600 scripts/fuzz.sh ServeConnection
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
# A hang is a failure: libFuzzer stops at the first input that runs longer than this (a quadratic rescan, a loop).
TIMEOUT_EACH="${FUZZ_TIMEOUT:-5}"
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=(ParseJSON ParseRequest ParseGherkin ParseFlags ServeConnection ParseRegex ParseTerminal ParseExpressions AdminRequest RenderTemplate StepMatching ShardTimings ServeTLS Inflate MatchWireMock MatchXML ReadMessages); fi
WORK="$ROOT/.build/fuzz"
INPUTS="$ROOT/Tests/FuzzTargetsTests/Inputs"
mkdir -p "$WORK/crashes" "$WORK/modulemap"
printf 'module CSystemShims {\n  header "%s"\n  export *\n}\nmodule _CProcessSpawn {\n  header "%s"\n  export *\n}\n' \
    "$ROOT/Sources/CSystemShims/include/CSystemShims.h" "$ROOT/Sources/_CProcessSpawn/include/_CProcessSpawn.h" > "$WORK/modulemap/module.modulemap"

echo "building the libraries with the sanitizers (release, -sanitize=fuzzer,address)..." >&2
(cd "$ROOT" && swift build -c release --scratch-path "$WORK/build" --target SutLaunchCLI \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address >&2)
BUILT="$WORK/build/release"
# Only the objects of today's sources: a file moved to another module leaves its old .o behind, and linking
# both defines (or half-defines) its symbols twice.
OBJECTS=("$BUILT"/CSystemShims.build/*.o "$BUILT"/_CProcessSpawn.build/*.o)
for module in AutomationSupport XMLSupport MockServer AutomationHost ProcessEngine Scenarios SutLaunchCLI; do
    while IFS= read -r source; do OBJECTS+=("$BUILT/$module.build/$(basename "$source").o"); done < "$BUILT/$module.build/sources"
done
# FuzzTargets.swift uses `package` API: it must be compiled with the package name SwiftPM gave the modules
# (it comes from the checkout's directory name).
PACKAGE_NAME="$(grep -o '"-package-name","[^"]*"' "$WORK/build/release.yaml" | head -1 | cut -d'"' -f4)"

# No leak checks: the Swift runtime's and Regex's lazily built caches read as leaks to LeakSanitizer; this
# looks for traps and memory errors.
failed=0
for target in "${TARGETS[@]}"; do
    [ -d "$INPUTS/$target" ] || { echo "fuzz: no target $target (see $INPUTS)" >&2; exit 2; }
    function="$(tr '[:upper:]' '[:lower:]' <<< "${target:0:1}")${target:1}"
    cat > "$WORK/$target-entry.swift" <<SWIFT
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzTargets.$function(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
SWIFT
    swiftc -O -D FUZZING -package-name "$PACKAGE_NAME" -sanitize=fuzzer,address -parse-as-library -I "$BUILT/Modules" -I "$WORK/modulemap" \
        "$ROOT"/Tests/FuzzTargetsTests/FuzzTargets*.swift "$WORK/$target-entry.swift" "${OBJECTS[@]}" -o "$WORK/$target" \
        2> "$WORK/$target.link.log" || { cat "$WORK/$target.link.log" >&2; exit 2; } # (gold warns about sanitizer symbols)
    corpus="$WORK/corpus/$target"
    if [ ! -d "$corpus" ]; then
        mkdir -p "$corpus"
        cp "$INPUTS/$target"/* "$corpus"/
        case "$target" in
            ParseJSON) cp "$ROOT"/Fixtures/stubs/*.json "$ROOT"/Tests/MockServerTests/Fixtures/wiremock/mappings/*.json "$corpus"/ ;;
            ParseGherkin) find "$ROOT/Fixtures" -type f -name '*.feature' -exec cp {} "$corpus"/ \; ;;
        esac
    fi
    echo "fuzzing $target for ${SECONDS_EACH}s..." >&2
    if ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$WORK/$target" -max_total_time="$SECONDS_EACH" \
        -timeout="$TIMEOUT_EACH" -max_len=4096 -detect_leaks=0 -artifact_prefix="$WORK/crashes/" "$corpus" > "$WORK/$target.log" 2>&1; then
        echo "$target: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$WORK/$target.log" | tail -1)s, no crash"
    else
        echo "$target: CRASH or TIMEOUT (over ${TIMEOUT_EACH}s); see $WORK/$target.log and $WORK/crashes/" >&2
        failed=1
    fi
done
exit "$failed"
