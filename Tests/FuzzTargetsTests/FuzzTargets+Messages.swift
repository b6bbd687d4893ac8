import Scenarios

// Cucumber Messages as `report` and `test` read them back: the reader's fast path (MessagesLine: only the members a
// report uses built, the rest checked and skipped) and a whole parse of every line (each line put behind a byte order
// mark, which only the whole parse reads) accept the same files and read them into the same page. Each input must end
// within 5 s (a hang is a failure).
extension FuzzTargets {
    static func readMessages(_ bytes: [UInt8]) {
        let fast = try? MessagesReader.read([("f.ndjson", bytes)])
        var slow: [UInt8] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }
            if !blank && !line.starts(with: [0xEF, 0xBB, 0xBF]) { slow += [0xEF, 0xBB, 0xBF] }
            slow += line + [UInt8(ascii: "\n")]
        }
        if bytes.last != UInt8(ascii: "\n") { slow.removeLast() }
        let whole = try? MessagesReader.read([("f.ndjson", slow)])
        precondition((fast == nil) == (whole == nil), "the fast path \(fast == nil ? "refused" : "read") what a whole parse did not")
        if let fast, let whole { precondition(HTMLReport.render(fast) == HTMLReport.render(whole), "the fast path read a different run") }
    }
}
