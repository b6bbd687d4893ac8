/// Cobertura XML (coverage-04.dtd, what GitLab, Codecov and Jenkins read) from lcov records: one package per
/// directory, one class per source file, its functions as methods, its lines with branch conditions.
package enum CoberturaReport {
    /// The document; `timestamp` in seconds since 1970.
    package static func render(_ records: LCOVRecords, timestamp: Int) -> String {
        let files = records.files.sorted { $0.path < $1.path }
        let lines = files.reduce((0, 0)) { ($0.0 + $1.linesHit, $0.1 + $1.lines.count) }
        let branches = files.reduce((0, 0)) { total, file in
            (total.0 + file.branches.filter { ($0.taken ?? 0) > 0 }.count, total.1 + file.branches.count)
        }
        var xml = "<?xml version=\"1.0\" ?>\n<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
        xml += "<coverage line-rate=\"\(rate(lines.0, lines.1))\" branch-rate=\"\(rate(branches.0, branches.1))\""
        xml += " lines-covered=\"\(lines.0)\" lines-valid=\"\(lines.1)\" branches-covered=\"\(branches.0)\""
        xml += " branches-valid=\"\(branches.1)\" complexity=\"0\" version=\"sut-launch\" timestamp=\"\(timestamp)\">\n"
        xml += "  <sources>\n    <source>/</source>\n  </sources>\n  <packages>\n"
        let packages = Dictionary(grouping: files) { directory(of: $0.path) }
        for name in packages.keys.sorted() {
            let members = packages[name] ?? []
            let hit = members.reduce((0, 0)) { ($0.0 + $1.linesHit, $0.1 + $1.lines.count) }
            let taken = members.reduce((0, 0)) { total, file in
                (total.0 + file.branches.filter { ($0.taken ?? 0) > 0 }.count, total.1 + file.branches.count)
            }
            xml += "    <package name=\"\(escape(name))\" line-rate=\"\(rate(hit.0, hit.1))\" branch-rate=\"\(rate(taken.0, taken.1))\""
            xml += " complexity=\"0\">\n      <classes>\n"
            for file in members { xml += classElement(file) }
            xml += "      </classes>\n    </package>\n"
        }
        return xml + "  </packages>\n</coverage>\n"
    }

    private static func classElement(_ file: LCOVRecords.File) -> String {
        let taken = file.branches.filter { ($0.taken ?? 0) > 0 }.count
        let name = String(file.path.split(separator: "/").last ?? "")
        var xml = "        <class name=\"\(escape(name))\" filename=\"\(escape(relative(file.path)))\""
        xml +=
            " line-rate=\"\(rate(file.linesHit, file.lines.count))\" branch-rate=\"\(rate(taken, file.branches.count))\" complexity=\"0\">\n"
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

    /// covered / valid as Cobertura writes it (1 when there is nothing to cover).
    static func rate(_ covered: Int, _ valid: Int) -> String {
        guard valid > 0 else { return "1" }
        let value = Double(covered) / Double(valid)
        return String((value * 10_000).rounded() / 10_000)
    }

    static func directory(of path: String) -> String {
        let parts = relative(path).split(separator: "/").dropLast()
        return parts.isEmpty ? "." : parts.joined(separator: ".")
    }

    /// The path below `<source>/</source>`.
    static func relative(_ path: String) -> String { path.hasPrefix("/") ? String(path.dropFirst()) : path }

    /// Text safe in an XML 1.0 attribute: markup escaped, control characters XML forbids (and CR, LF, TAB,
    /// which attribute normalisation would turn into spaces) written as U+FFFD.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                let value = scalar.value
                result.unicodeScalars.append(value < 0x20 || value == 0xFFFE || value == 0xFFFF ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }
}
