import AutomationSupport

extension CoverageSession {
    /// One raw profile: its path and the scenario directory it is in (nil: `raw/` itself).
    struct Profile {
        var path: String
        var name: String
        var scenario: String?
    }

    /// The regular `.profraw` files in `raw/` and its scenario directories (no link followed). Names the runtime never
    /// writes (not UTF-8, control characters: planted to forge a line where they are named) are not read.
    func rawProfiles() -> [Profile] {
        guard let raw = try? root.directory("raw", create: false) else { return [] }
        var result: [Profile] = []
        for entry in raw.entries() where Self.plausible(entry) {
            let name = entry.name
            switch raw.kind(of: name) {
            case .file where name.hasSuffix(".profraw"):
                result.append(Profile(path: absolute + "/raw/" + name, name: name))
            case .directory:
                guard let below = try? raw.directory(name, create: false) else { continue }
                for inner in below.entries()
                where Self.plausible(inner) && inner.name.hasSuffix(".profraw") && below.kind(of: inner.name) == .file {
                    result.append(Profile(path: absolute + "/raw/" + name + "/" + inner.name, name: inner.name, scenario: name))
                }
            default: continue
            }
            if result.count > Self.profileLimit { break }
        }
        return result
    }

    static func plausible(_ entry: RootedDirectory.Entry) -> Bool {
        entry.isUTF8 && !entry.name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Launches that left no profile of their own (`%p-` names profiles by pid): killed or stopped ones, and ones that
    /// exited without writing one (not built instrumented, or their profile was moved away). Each is named.
    func missingProfiles(_ launches: [Launch], profiles: [Profile]) -> [String] {
        let pids = Set(profiles.compactMap { $0.name.split(separator: "-").first.flatMap { Int32($0) } })
        let missing = launches.filter { !pids.contains($0.pid) }
        var notes: [String] = []
        for (killed, group) in [(true, missing.filter { $0.killed != nil }), (false, missing.filter { $0.killed == nil })]
        where !group.isEmpty {
            let named = group.prefix(10).map { "\($0.label) (pid \($0.pid)\($0.killed.map { ", " + $0 } ?? ""))" }
            let more = group.count > 10 ? " and \(group.count - 10) more" : ""
            let what =
                killed
                ? "ended before writing a profile, not counted"
                : "exited without writing a profile (not built instrumented, or its profile was moved away), not counted"
            notes.append("coverage: \(group.count) launch\(group.count == 1 ? "" : "es") \(what): " + named.joined(separator: ", ") + more)
        }
        return notes
    }

    /// The largest raw profile read (a real one is tens of MiB; a sparse file of GiBs would only cost minutes).
    package static let profileSizeLimit: Int64 = 1 << 30

    /// The profiles whose header is a raw profile's and whose size is within the limit; the others are named in a
    /// note, counted here (not from the tool's messages, which are bounded).
    func screen(_ profiles: [Profile], into outcome: inout CoverageOutcome) -> [Profile] {
        var kept: [Profile] = []
        var refused: [String] = []
        for profile in profiles {
            guard let header = ProfileFiles.header(profile.path) else {
                refused.append("\(profile.path) (not a regular file)")
                continue
            }
            if header.size > Self.profileSizeLimit {
                refused.append("\(profile.path) (\(header.size >> 20) MiB, over the \(Self.profileSizeLimit >> 20) MiB limit)")
            } else if !Self.isRawProfile(header.magic) {
                refused.append("\(profile.path) (not a raw profile: its header is not LLVM's)")
            } else {
                kept.append(profile)
            }
        }
        if !refused.isEmpty {
            outcome.notes.append(
                "coverage: \(refused.count) raw profile\(refused.count == 1 ? "" : "s") could not be read and"
                    + " \(refused.count == 1 ? "was" : "were") left out: " + refused.prefix(10).joined(separator: ", ")
                    + (refused.count > 10 ? " and \(refused.count - 10) more" : ""))
        }
        return kept
    }

    /// LLVM's raw profile magic (`\xFFlprofr\x81` as a 64-bit word, `R` in the 32-bit variant), either byte order.
    static func isRawProfile(_ magic: [UInt8]) -> Bool {
        guard magic.count == 8 else { return false }
        let little = Array(magic.reversed())
        for word in [magic, little] where word[0] == 0xFF && word[7] == 0x81 {
            if Array(word[1...5]) == Array("lprof".utf8) && (word[6] == UInt8(ascii: "r") || word[6] == UInt8(ascii: "R")) { return true }
        }
        return false
    }

}
