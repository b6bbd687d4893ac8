import AutomationSupport

/// Whether the files a suite or a check names mention an XML matcher or helper: a static executable cannot load
/// libxml2, so `test` and `check` hand such a command to `sut-launch-foundation` before anything runs (a scenario
/// that loads XML stubs halfway through a suite could not hand over without running the suite twice).
///
/// A cheap look, not a parse: `.json` and `.feature` files under the paths and beside the files named (directories
/// walked to ``maxDepth``, at most ``maxEntries`` entries, files of at most ``maxBytes``), searched for the matcher
/// and helper names. A mention in a comment only costs the companion's start; a stub file outside these paths is still refused
/// by name when its scenario loads it.
enum XMLStubScan {
    static let maxEntries = 20_000
    static let maxBytes = 16 << 20
    static let maxDepth = 16
    static let names = ["equalToXml", "matchesXPath", "xPath", "soapXPath"].map { Array($0.utf8) }

    /// True when a `.json` or `.feature` file under `paths` (or beside a file named) names an XML matcher or helper.
    static func mentionsXML(_ paths: [String]) -> Bool {
        var budget = maxEntries
        var roots: [String] = []
        for path in paths where !roots.contains(path) {
            roots.append(FileSystem.isDirectory(path) ? path : FileSystem.directory(of: path))
        }
        return roots.contains { mentionsXML($0, depth: 0, budget: &budget) }
    }

    private static func mentionsXML(_ path: String, depth: Int, budget: inout Int) -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        if FileSystem.isDirectory(path) {
            guard depth < maxDepth else { return false }
            let base = path.hasSuffix("/") ? path : path + "/"
            for name in FileSystem.list(path) where !name.hasPrefix(".") {
                if mentionsXML(base + name, depth: depth + 1, budget: &budget) { return true }
            }
            return false
        }
        guard path.hasSuffix(".json") || path.hasSuffix(".feature"), let size = FileSystem.size(path), size <= maxBytes else {
            return false
        }
        guard let bytes = FileSystem.read(path) else { return false }
        return names.contains { name in bytes.withUnsafeBufferPointer { contains($0, name) } }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first && needle.indices.allSatisfy({ haystack[index + $0] == needle[$0] }) { return true }
            index += 1
        }
        return false
    }
}
