/// Cobertura XML (coverage-04.dtd, what GitLab, Codecov and Jenkins read): one package per directory, one class
/// per source file, its functions as methods, its lines with branch conditions (from the lcov records). Every
/// rate and count of lines is llvm-cov's summary (`files`, `totals`), the figures the console, summary.txt, the
/// JSON report and the threshold use: one source, so they never disagree.
package enum CoberturaReport {
    /// The document; `timestamp` in seconds since 1970. Files of `records` not in `files` are left out.
    package static func render(_ records: LCOVRecords, files: [CoverageFile], totals: CoverageTotals, timestamp: Int) -> String {
        let summaries = Dictionary(files.map { ($0.filename, $0.summary.lines) }, uniquingKeysWith: { first, _ in first })
        let measured = records.files.filter { summaries[$0.path] != nil }.sorted { $0.path < $1.path }
        let branches = measured.reduce((0, 0)) { total, file in
            (total.0 + file.branches.filter { ($0.taken ?? 0) > 0 }.count, total.1 + file.branches.count)
        }
        let lines = totals.lines
        var xml = "<?xml version=\"1.0\" ?>\n<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
        xml += "<coverage line-rate=\"\(rate(lines.covered, lines.count))\" branch-rate=\"\(rate(branches.0, branches.1))\""
        xml += " lines-covered=\"\(lines.covered)\" lines-valid=\"\(lines.count)\" branches-covered=\"\(branches.0)\""
        xml += " branches-valid=\"\(branches.1)\" complexity=\"0\" version=\"sut-launch\" timestamp=\"\(timestamp)\">\n"
        xml += "  <sources>\n    <source>/</source>\n  </sources>\n  <packages>\n"
        let packages = Dictionary(grouping: measured) { directory(of: $0.path) }
        for name in packages.keys.sorted() {
            let members = packages[name] ?? []
            let hit = members.reduce((0, 0)) { total, file in
                let count = summaries[file.path] ?? CoverageCount(count: 0, covered: 0)
                return (total.0 + count.covered, total.1 + count.count)
            }
            let taken = members.reduce((0, 0)) { total, file in
                (total.0 + file.branches.filter { ($0.taken ?? 0) > 0 }.count, total.1 + file.branches.count)
            }
            xml += "    <package name=\"\(escape(name))\" line-rate=\"\(rate(hit.0, hit.1))\" branch-rate=\"\(rate(taken.0, taken.1))\""
            xml += " complexity=\"0\">\n      <classes>\n"
            for file in members { xml += classElement(file, lines: summaries[file.path] ?? CoverageCount(count: 0, covered: 0)) }
            xml += "      </classes>\n    </package>\n"
        }
        return xml + "  </packages>\n</coverage>\n"
    }

    private static func classElement(_ file: LCOVRecords.File, lines: CoverageCount) -> String {
        let taken = file.branches.filter { ($0.taken ?? 0) > 0 }.count
        let name = String(file.path.split(separator: "/").last ?? "")
        var xml = "        <class name=\"\(escape(name))\" filename=\"\(escape(relative(file.path)))\""
        xml +=
            " line-rate=\"\(rate(lines.covered, lines.count))\" branch-rate=\"\(rate(taken, file.branches.count))\" complexity=\"0\">\n"
        xml += "          <methods>\n"
        for function in file.functions {
            xml += "            <method name=\"\(escape(function.name))\" signature=\"\" line-rate=\"\(function.hits > 0 ? "1" : "0")\""
            xml += " branch-rate=\"0\" complexity=\"0\">\n              <lines>\n"
            xml +=
                "                <line number=\"\(function.line)\" hits=\"\(function.hits)\"/>\n              </lines>\n            </method>\n"
        }
        xml += "          </methods>\n          <lines>\n"
        let branchesByLine = Dictionary(grouping: file.branches, by: \.line)
        for (number, hits) in file.lines {
            xml += "            <line number=\"\(number)\" hits=\"\(hits)\""
            if let branches = branchesByLine[number], !branches.isEmpty {
                let covered = branches.filter { ($0.taken ?? 0) > 0 }.count
                xml += " branch=\"true\" condition-coverage=\"\(covered * 100 / branches.count)% (\(covered)/\(branches.count))\""
            } else {
                xml += " branch=\"false\""
            }
            xml += "/>\n"
        }
        return xml + "          </lines>\n        </class>\n"
    }

    /// covered / valid as Cobertura writes it, four decimals, rounded down: `1` only when everything is covered
    /// (60,000 of 60,001 is 0.9999), and 1 when there is nothing to cover (Cobertura's convention).
    static func rate(_ covered: Int, _ valid: Int) -> String {
        guard valid > 0, covered < valid else { return "1" }
        guard covered > 0 else { return "0" }
        let (scaled, overflow) = covered.multipliedReportingOverflow(by: 10_000)
        let tenThousandths = overflow ? Int(Double(covered) / Double(valid) * 10_000) : scaled / valid
        guard tenThousandths > 0 else { return "0" }
        let digits = String(min(tenThousandths, 9_999))
        var text = "0." + String(repeating: "0", count: 4 - digits.count) + digits
        while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
        return text
    }

    static func directory(of path: String) -> String {
        let parts = relative(path).split(separator: "/").dropLast()
        return parts.isEmpty ? "." : parts.joined(separator: ".")
    }

    /// The path below `<source>/</source>`.
    static func relative(_ path: String) -> String { path.hasPrefix("/") ? String(path.dropFirst()) : path }

    /// Text safe in an XML 1.0 attribute: markup escaped, TAB, LF and CR as character references (attribute
    /// normalisation would turn them, raw, into spaces), the other control characters XML forbids as U+FFFD.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                let value = scalar.value
                result.unicodeScalars.append(value < 0x20 || value == 0xFFFE || value == 0xFFFF ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }
}
