import AutomationHost
import AutomationSupport
import ProcessEngine

/// Portable output (``PortableOutput``): what a snapshot or an exact-output check compares, with this scenario's
/// machine-specific values as placeholders.
extension ScenarioRun {
    /// The placeholders of this scenario now: `[CWD]` its working directory, `[HOME]` and `[TMP]` the HOME and TMPDIR
    /// its programs get, `[MOCK]` its mock server's URL and `[MOCK_HOST]` that URL's host and port (when a server
    /// runs), `[VERSION]` sut-launch's version; each directory also by its real path when that differs.
    func portableOutput() -> PortableOutput {
        func environmentValue(_ name: String, default value: String) -> String {
            environment.last { $0.key == name }?.value ?? value
        }
        var literals: [(placeholder: String, value: String)] = []
        func directory(_ placeholder: String, _ path: String) {
            literals.append((placeholder, path))
            if let real = FileSystem.realPath(path), real != path { literals.append((placeholder, real)) }
        }
        directory("[CWD]", workDirectory)
        directory("[HOME]", environmentValue("HOME", default: rootDirectory + "/home"))
        directory("[TMP]", environmentValue("TMPDIR", default: rootDirectory + "/tmp"))
        if server != nil, let url = variable(WireFormat.mockServerURLVariable), !url.isEmpty {
            literals.append(("[MOCK]", url))
            let parts = url.split(separator: "/", omittingEmptySubsequences: true) // http:, 127.0.0.1:PORT
            if parts.count >= 2 { literals.append(("[MOCK_HOST]", String(parts[1]))) }
        }
        literals.append(("[VERSION]", SutLaunch.version))
        return PortableOutput(literals: literals, redactions: options.redactions)
    }

    /// Why `actual` does not match `expected`, or nil when it does as it is or with its placeholders put in.
    func portableMismatch(expected: String, actual: [UInt8]) throws(StepFailure) -> String? {
        let wanted = Array(expected.utf8)
        if OutputPattern.agrees(expected: wanted, actual: actual) { return nil }
        let portable = try portableOutput().apply(actual, deadline: deadline, deadlineName: scenarioTimeoutName)
        // One diff, of what the step compared last (each is a million comparisons at most).
        return OutputPattern.mismatch(expected: wanted, actual: portable)
    }
}
