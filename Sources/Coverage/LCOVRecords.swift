/// lcov's tracefile (`llvm-cov export -format=lcov`), read into records: per source file its lines with hits,
/// functions with hits and branches. Counts past `Int.max` read as `Int.max`; unknown lines are skipped.
package struct LCOVRecords: Sendable {
    /// One source file's record.
    package struct File: Sendable {
        package var path: String
        /// (line, hits), in file order.
        package var lines: [(line: Int, hits: Int)] = []
        /// Functions: (name, first line, hits).
        package var functions: [(name: String, line: Int, hits: Int)] = []
        /// Branches: (line, taken; nil when the condition was never evaluated).
        package var branches: [(line: Int, taken: Int?)] = []

        package var linesHit: Int { lines.filter { $0.hits > 0 }.count }
        package var functionsHit: Int { functions.filter { $0.hits > 0 }.count }
    }

    package var files: [File] = []

    /// Reads an lcov tracefile. Lines end at LF (a CR before it is dropped); no other character ends one, as for
    /// lcov itself.
    package init(_ text: String) {
        var current: File?
        var functionLines: [String: Int] = [:]
        var functionHits: [String: Int] = [:]
        var order: [String] = []
        for bytes in text.utf8.split(separator: 10) {
            let line = Substring(String(decoding: bytes.last == 13 ? bytes.dropLast() : bytes, as: UTF8.self))
            guard let colon = line.firstIndex(of: ":") else {
                if line == "end_of_record", var file = current {
                    file.functions = order.map { ($0, functionLines[$0] ?? 0, functionHits[$0] ?? 0) }
                    files.append(file)
                    current = nil
                    (functionLines, functionHits, order) = ([:], [:], [])
                }
                continue
            }
            let tag = line[..<colon]
            let value = line[line.index(after: colon)...]
            let fields = value.split(separator: ",", maxSplits: tag == "FN" || tag == "FNDA" ? 1 : 4, omittingEmptySubsequences: false)
            switch tag {
            case "SF": current = File(path: String(value))
            case "FN" where fields.count == 2:
                let name = String(fields[1])
                if functionLines[name] == nil { order.append(name) }
                functionLines[name] = Self.count(fields[0])
            case "FNDA" where fields.count == 2:
                let name = String(fields[1])
                if functionLines[name] == nil && functionHits[name] == nil { order.append(name) }
                functionHits[name] = Self.count(fields[0])
            case "DA" where fields.count >= 2: current?.lines.append((Self.count(fields[0]), Self.count(fields[1])))
            case "BRDA" where fields.count >= 4:
                current?.branches.append((Self.count(fields[0]), fields[3] == "-" ? nil : Self.count(fields[3])))
            default: break
            }
        }
    }

    /// The source files of an lcov tracefile whose names are not UTF-8 (lcov.info keeps their bytes; read as text, as
    /// coverage.xml and summary.txt are written, each byte UTF-8 cannot read is U+FFFD, a name no file has), each as
    /// that text, in file order.
    package static func namesNotUTF8(_ tracefile: [UInt8]) -> [String] {
        tracefile.split(separator: 10).compactMap { line in
            guard line.starts(with: Array("SF:".utf8)) else { return nil }
            let name = line.dropFirst(3).last == 13 ? line.dropFirst(3).dropLast() : line.dropFirst(3)
            return String(validating: name, as: UTF8.self) == nil ? String(decoding: name, as: UTF8.self) : nil
        }
    }

    /// A decimal count; past `Int.max` it is `Int.max`, anything else 0.
    static func count(_ text: Substring) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return 0 }
        return Int(text) ?? Int.max
    }
}
