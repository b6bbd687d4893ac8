extension CoverageSession {
    /// The most profiles of programs not launched directly whose binary ID is read (one tool call each).
    static let foreignCheckLimit = 200

    /// Launched programs llvm-cov found no coverage mapping in (`sh`, a wrapper script, a program not built
    /// instrumented): not measured, and named.
    func droppedBinaries(_ dropped: [String]) -> [String] {
        guard !dropped.isEmpty else { return [] }
        return [
            "coverage: not measured, no coverage mapping (not built with -profile-generate -profile-coverage-mapping, or a"
                + " script): " + dropped.prefix(10).joined(separator: ", ") + (dropped.count > 10 ? " and \(dropped.count - 10) more" : "")
        ]
    }

    /// Profiles written by a binary no launch ran (a program a launch started, built from other sources): llvm-cov
    /// needs that binary to read them, so their code is not in the reports; they are named. A profile's binary is
    /// told by its build ID, against the IDs in the launches' own profiles.
    func foreignProfiles(_ profiles: [Profile], tools: ProfileTools) -> [String] {
        let launches = recorded
        let pids = Set(launches.map(\.pid))
        func launchPID(_ profile: Profile) -> Int32? {
            profile.name.split(separator: "-").first.flatMap { Int32($0) }.flatMap { pids.contains($0) ? $0 : nil }
        }
        let others = profiles.filter { launchPID($0) == nil }
        guard !others.isEmpty else { return [] }
        var known: Set<String> = []
        var executables: Set<String> = []
        for profile in profiles {
            guard let pid = launchPID(profile), let launch = launches.first(where: { $0.pid == pid }),
                executables.insert(launch.executable ?? "").inserted
            else { continue }
            known.formUnion(tools.binaryIDs(profile.path))
        }
        let foreign = others.prefix(Self.foreignCheckLimit).filter {
            let ids = tools.binaryIDs($0.path)
            return !ids.isEmpty && ids.isDisjoint(with: known)
        }
        guard !foreign.isEmpty else { return [] }
        return [
            "coverage: \(foreign.count) profile\(foreign.count == 1 ? " was" : "s were") written by a program a launch started"
                + " from another binary, which sut-launch was not given, so its code is not in the reports: "
                + foreign.prefix(10).map(\.path).joined(separator: ", ") + (foreign.count > 10 ? " and \(foreign.count - 10) more" : "")
        ]
    }
}
