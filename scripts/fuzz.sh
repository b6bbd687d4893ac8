#!/usr/bin/env bash
# fuzz.sh: runs libFuzzer (with AddressSanitizer) on what reads input users and clients write:
# JSON + stub files (ParseJSON), HTTP request heads + chunked bodies (ParseRequest), Gherkin (ParseGherkin),
# flags: the wire format, flag assignments, flags files, .env files, durations (ParseFlags); and a whole client
# connection answered by the server's connection loop over a socketpair (ServeConnection).
#
# The targets are Tests/FuzzTargetsTests/FuzzTargets.swift, which `swift test` also compiles and runs on every
# saved input in Tests/FuzzTargetsTests/Inputs/<target>/. This script builds the modules with the sanitizers in a
# scratch package under .build/fuzz (its library targets link to Sources/), links each target with a generated
# LLVMFuzzerTestOneInput, and runs it for FUZZ_SECONDS from a corpus seeded with the saved inputs and the fixtures
# (the corpus grows in .build/fuzz/corpus across runs). A crash leaves its input in .build/fuzz/crashes/ and the
# script exits 1: rerun it with `.build/fuzz/ParseRequest .build/fuzz/crashes/crash-...`; once fixed, copy it to
# Tests/FuzzTargetsTests/Inputs/<target>/crash-<what> so it stays fixed.
#
# Usage: scripts/fuzz.sh                 FUZZ_SECONDS=600 scripts/fuzz.sh ServeConnection
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=(ParseJSON ParseRequest ParseGherkin ParseFlags ServeConnection); fi
WORK="$ROOT/.build/fuzz"
PACKAGE="$WORK/fuzz" # its directory name is the package name swiftc gets below (-package-name fuzz)
INPUTS="$ROOT/Tests/FuzzTargetsTests/Inputs"
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
    swiftc -O -package-name fuzz -sanitize=fuzzer,address -parse-as-library -I "$BUILT/Modules" -I "$WORK/modulemap" \
        "$ROOT/Tests/FuzzTargetsTests/FuzzTargets.swift" "$WORK/$target-entry.swift" "${OBJECTS[@]}" -o "$WORK/$target" \
        2> "$WORK/$target.link.log" || { cat "$WORK/$target.link.log" >&2; exit 2; } # (gold warns about sanitizer symbols)
    corpus="$WORK/corpus/$target"
    if [ ! -d "$corpus" ]; then
        mkdir -p "$corpus"
        cp "$INPUTS/$target"/* "$corpus"/
        case "$target" in
            ParseJSON) cp "$ROOT"/Fixtures/stubs/*.json "$ROOT"/Tests/MockServerTests/Fixtures/wiremock/mappings/*.json "$corpus"/ ;;
            ParseGherkin) find "$ROOT/Fixtures" -name '*.feature' -exec cp {} "$corpus"/ \; ;;
        esac
    fi
    echo "fuzzing $target for ${SECONDS_EACH}s..." >&2
    if ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$WORK/$target" -max_total_time="$SECONDS_EACH" \
        -max_len=4096 -detect_leaks=0 -artifact_prefix="$WORK/crashes/" "$corpus" > "$WORK/$target.log" 2>&1; then
        echo "$target: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$WORK/$target.log" | tail -1)s, no crash"
    else
        echo "$target: CRASH; see $WORK/$target.log and $WORK/crashes/" >&2
        failed=1
    fi
done
exit "$failed"
