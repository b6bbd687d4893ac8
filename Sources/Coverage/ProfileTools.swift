import AutomationSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The calls to `llvm-profdata` and `llvm-cov`, each under a deadline with its output bounded, and how their
/// complaints read: a profile of another LLVM version, a corrupt or truncated profile, a binary without mapping.
struct ProfileTools {
    let tools: CoverageTools
    let runner: any CoverageToolRunning
    /// Every tool call's deadline.
    static let deadline = Duration.seconds(300)
    /// The most stdout read from `llvm-cov export` (an lcov file of a large program is tens of MiB).
    static let outputLimit = 256 << 20

    /// What a merge read and refused.
    struct Merged {
        /// Profiles refused, each `PATH (reason)`.
        var refused: [String] = []
    }

    /// Merges the raw profiles listed in `listFile` into `output` (`--failure-mode=all`: one bad profile is named,
    /// the others merged). A profile of another LLVM version is an error naming both versions.
    func merge(listFile: String, output: String) throws(CoverageError) -> Merged {
        let result = runner.run(
            tools.profdata, ["merge", "--sparse", "--failure-mode=all", "-f", listFile, "-o", output], timeout: Self.deadline,
            outputLimit: 1 << 20)
        var merged = Merged()
        var seen: Set<String> = []
        for line in result.stderr.split(whereSeparator: \.isNewline) where line.hasPrefix("warning: ") {
            let text = line.dropFirst("warning: ".count)
            // The reason never holds ": " after the path; the path may.
            guard let separator = Self.lastRange(of: ": ", in: text) else { continue }
            let path = String(text[..<separator.lowerBound])
            let reason = String(text[separator.upperBound...])
            if reason.contains("unsupported instrumentation profile format version") {
                throw CoverageError(versionMismatch(path))
            }
            if seen.insert(path).inserted { merged.refused.append("\(path) (\(reason))") }
        }
        if let failure = result.failure("llvm-profdata merge", limit: 1 << 20) {
            throw CoverageError(failure + (merged.refused.isEmpty ? "" : "; refused: " + merged.refused.joined(separator: ", ")))
        }
        return merged
    }

    /// `PATH was written in raw profile format version N; llvm-profdata at P is LLVM X, which does not read it`.
    func versionMismatch(_ path: String) -> String {
        let written = Self.rawVersion(path).map { "raw profile format version \($0)" } ?? "a raw profile format version"
        return "\(path) was written in \(written), which \(tools.profdata) (\(toolVersion())) does not read: use the llvm-profdata of the"
            + " toolchain that built the program (--llvm-profdata PATH; the one beside swift for Swift programs)"
    }

    /// The tool's `LLVM version X.Y.Z`.
    func toolVersion() -> String {
        let result = runner.run(tools.profdata, ["merge", "--version"], timeout: .seconds(30), outputLimit: 64 << 10)
        let text = String(decoding: result.stdout, as: UTF8.self) + result.stderr
        guard let range = text.firstRange(of: "LLVM version ") else { return "LLVM of unknown version" }
        return "LLVM " + text[range.upperBound...].prefix { !$0.isWhitespace }
    }

    /// The raw profile's format version (its header's second word, without the variant bits); nil when unreadable.
    static func rawVersion(_ path: String) -> UInt64? {
        guard let bytes = FileSystem.read(path), bytes.count >= 16 else { return nil }
        var version: UInt64 = 0
        for index in (8..<16).reversed() { version = version << 8 | UInt64(bytes[index]) }
        return version & 0x00ff_ffff_ffff_ffff
    }

    /// llvm-cov's filter for source files whose name breaks a line (lcov has no escaping for one): every break
    /// ``Visible/breaksLines(_:)`` names (U+2028 was named left out, yet written). LLVM's regex reads bytes, so the
    /// multibyte ones are alternatives of their UTF-8 bytes, never a bracket (which would match any of their bytes).
    static let ignoreBrokenNames = "-ignore-filename-regex=(\n|\r|\u{0B}|\u{0C}|\u{85}|\u{2028}|\u{2029})"

    /// The build IDs a raw profile names (`llvm-profdata show --binary-ids`); empty when it names none.
    func binaryIDs(_ path: String) -> Set<String> {
        let result = runner.run(tools.profdata, ["show", "--binary-ids", path], timeout: .seconds(60), outputLimit: 1 << 20)
        guard result.exitCode == 0 else { return [] }
        let text = String(decoding: result.stdout, as: UTF8.self)
        guard let range = text.firstRange(of: "Binary IDs:") else { return [] }
        return Set(
            text[range.upperBound...].split(whereSeparator: \.isWhitespace).map(String.init).filter {
                !$0.isEmpty && $0.allSatisfy(\.isHexDigit)
            })
    }

    /// `llvm-cov export` of `binaries` against `profdata`. A binary without coverage mapping (`sh`, a program not
    /// built instrumented) is left out and the export run again; `dropped` collects them.
    func export(profdata: String, binaries: [String], arguments: [String], dropped: inout [String]) throws(CoverageError) -> [UInt8] {
        var remaining = binaries
        while let first = remaining.first {
            let objects = remaining.dropFirst().flatMap { ["-object", $0] }
            let result = runner.run(
                tools.cov, ["export"] + arguments + ["-instr-profile", profdata, first] + objects, timeout: Self.deadline,
                outputLimit: Self.outputLimit)
            if let failure = result.failure("llvm-cov export", limit: Self.outputLimit) {
                guard !result.timedOut && !result.truncated,
                    let binary = Self.unmapped(result.stderr) ?? remaining.first(where: { result.stderr.contains("'\($0)'") })
                        ?? (remaining.count == 1 && Self.unloadable(result.stderr) ? first : nil),
                    remaining.contains(binary)
                else { throw CoverageError(failure) }
                remaining.removeAll { $0 == binary }
                dropped.append(binary)
                continue
            }
            return result.stdout
        }
        throw CoverageError(
            "none of the launched programs (\(binaries.joined(separator: ", "))) is a binary with coverage mapping, though raw"
                + " profiles were written: a program they start wrote them (a wrapper script?); launch the instrumented binary"
                + " itself, built with -profile-generate -profile-coverage-mapping")
    }

    /// llvm-cov's complaint about a binary it cannot read coverage from (a script, a file without mapping).
    static func unloadable(_ stderr: String) -> Bool {
        ["could not load coverage information", "not recognized as a valid object file", "no coverage data found"].contains {
            stderr.contains($0)
        }
    }

    /// The binary llvm-cov names in `'PATH': no coverage data found`.
    static func unmapped(_ stderr: String) -> String? {
        guard let end = stderr.firstRange(of: "': no coverage data found"),
            let start = stderr[..<end.lowerBound].lastIndex(of: "'")
        else { return nil }
        return String(stderr[stderr.index(after: start)..<end.lowerBound])
    }

    /// The last occurrence of `needle` in `text`.
    static func lastRange(of needle: String, in text: Substring) -> Range<Substring.Index>? {
        var found: Range<Substring.Index>?
        var rest = text[...]
        while let range = rest.firstRange(of: needle) {
            found = range
            rest = text[range.upperBound...]
        }
        return found
    }

    /// Swift names made readable (`s.swift:$s1s5loginyyF` → `s.swift:login()`) with `swift-demangle`, beside the
    /// tools; other names, and all of them when it is missing or fails, stay as they are.
    func demangled(_ names: [String]) -> [String] {
        guard let demangler = tools.demangler else { return names }
        var result = names
        let mangled = names.indices.filter { names[$0].contains("$s") || names[$0].contains("$S") }
        for batch in stride(from: 0, to: mangled.count, by: 200) {
            let indices = Array(mangled[batch..<min(batch + 200, mangled.count)])
            let symbols = indices.map { Self.symbol(names[$0]) }
            let output = runner.run(
                demangler, ["--simplified", "--compact"] + symbols.map(\.mangled), timeout: .seconds(60), outputLimit: 4 << 20)
            let lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            guard output.exitCode == 0, lines.count >= indices.count else { continue }
            for (offset, index) in indices.enumerated() { result[index] = symbols[offset].prefix + lines[offset] }
        }
        return result
    }

    /// `FILE:$s…` → (`FILE:`, `$s…`): file-local functions carry their file in front.
    static func symbol(_ name: String) -> (prefix: String, mangled: String) {
        guard let dollar = name.firstIndex(of: "$") else { return ("", name) }
        return (String(name[..<dollar]), String(name[dollar...]))
    }

    /// Reads `llvm-cov export -format=text -summary-only`: the totals and each file's.
    static func summary(_ bytes: [UInt8]) throws(CoverageError) -> (CoverageTotals, [CoverageFile]) {
        struct Export: Decodable {
            struct Unit: Decodable {
                var files: [CoverageFile]
                var totals: CoverageTotals
            }
            var data: [Unit]
        }
        guard let export = try? JSONDecoder().decode(Export.self, from: Data(bytes)), let unit = export.data.first else {
            throw CoverageError("llvm-cov export wrote a summary that is not the JSON it documents")
        }
        return (unit.totals, unit.files.sorted { $0.filename < $1.filename })
    }
}
