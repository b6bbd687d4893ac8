import AutomationSupport
import ProcessEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Steps for any command-line program, as testscript, trycmd and bats offer: files in, commands run,
/// output and files compared with text or stored snapshots, signals.
extension StepCatalog {
    static let commands: [StepDefinition] = [
        StepDefinition(
            "a file \(quoted) with:", example: "Given a file \"input.txt\" with:\n  \"\"\"\n  b\n  a\n  \"\"\"",
            docString: .raw, argument: .docString, check: { pathProblem($0[0]) }
        ) { run, captures, step in
            guard let content = step.docString?.content else {
                throw StepFailure("this step needs a doc string with the file's content", kind: .error)
            }
            let name = captures[0]
            if let problem = ScenarioRun.pathProblem(name) { throw StepFailure(problem, kind: .error) }
            // As written: a script in the file keeps its ${HOME} (no substitution in file contents).
            do {
                try run.work().write(Array((content + "\n").utf8), to: name)
            } catch {
                throw StepFailure("cannot write \(captures[0]) in the scenario's directory: \(error)", kind: .error)
            }
        },
        StepDefinition("the files from \(quoted)", example: "Given the files from \"fixtures/project\"", values: [0: .raw]) {
            run, captures, _ in
            try run.refuseEmptyExpansion(captures[0], "fixture directory")
            let source = run.featurePath(captures[0])
            guard FileSystem.isDirectory(source) else {
                throw StepFailure("\(source): no such directory (\(run.pathBase(captures[0])))", kind: .error)
            }
            do {
                // Links that stay inside the copy are kept; a link out of it fails the step (never copied, never followed).
                // Stopped at the scenario's deadline: 30,000 files under @timeout=500ms do not run on for seconds.
                _ = try run.work().copy(
                    from: RootedDirectory(source), rules: .init(keepLinksInside: true, skipOthers: false, deadline: run.deadline))
            } catch {
                if ContinuousClock.now >= run.deadline {
                    throw StepFailure("timed out: the copy of \(source) was stopped by \(run.scenarioTimeoutName)")
                }
                throw StepFailure("cannot copy \(source) into the scenario's directory: \(error)", kind: .error)
            }
        },
        // Bounded by the scenario's timeout (a build or an install takes longer than a wait for output), or by its
        // own `within`.
        StepDefinition(
            "I run \(quoted)(?: within (\\S+))?", example: "When I run \"sort input.txt\"", durationCaptures: [1], values: [0: .raw],
            check: { wordsProblem($0[0]) }
        ) { run, captures, _ in
            try run.within(captures[1]) { try run.runCommand(captures[0]) }
        },
        StepDefinition(
            "I send the signal \(quoted)", example: "When I send the signal \"INT\"",
            check: { captures in
                signalNumber(captures[0]) == nil
                    ? "unknown signal \"\(captures[0])\"; use one of \(signalNames.map(\.name).joined(separator: ", "))" : nil
            }
        ) { run, captures, _ in
            guard let number = signalNumber(captures[0]) else {
                throw StepFailure(
                    "unknown signal \"\(captures[0])\"; use one of \(signalNames.map(\.name).joined(separator: ", "))", kind: .error)
            }
            let process = try run.requireProcess()
            // A signal to a program that ended goes nowhere: the step asked for something that cannot happen.
            if let status = process.status, !process.groupIsAlive {
                throw StepFailure("cannot send the signal \(captures[0]): the program already \(status)")
            }
            process.signalGroup(number)
        },
        StepDefinition(
            "the (output|error output) is:", example: "Then the output is:\n  \"\"\"\n  a\n  [..]\n  ...\n  \"\"\"",
            docString: .expectedPattern, argument: .docString
        ) {
            run, captures, step in
            guard let expected = step.docString?.content else {
                throw StepFailure("this step needs a doc string with the expected output", kind: .error)
            }
            let stream: StandardStream = captures[0] == "output" ? .stdout : .stderr
            let actual = try run.finishedOutput(stream)
            if let difference = try run.portableMismatch(expected: expected, actual: actual) {
                throw StepFailure(
                    "the \(captures[0]) differs from what the step expects ([..] is any text on a line, ... any lines):\n\(difference)")
            }
        },
        StepDefinition(
            "the (output|error output|file \(quoted)) matches the snapshot \(quoted)",
            example: "Then the output matches the snapshot \"sorted\"", values: [2: .name("snapshot")],
            check: { captures in
                (captures[1].isEmpty ? nil : pathProblem(captures[1])) ?? Snapshots.nameProblem(captures[2])
            }
        ) { run, captures, _ in
            let actual: [UInt8]
            switch captures[0] {
            case "output": actual = try run.finishedOutput(.stdout)
            case "error output": actual = try run.finishedOutput(.stderr)
            default: actual = try run.comparedFileBytes(captures[1])
            }
            try Snapshots.compare(actual, named: captures[2], run: run)
        },
        StepDefinition(
            "the file \(quoted) (exists|does not exist)", example: "Then the file \"out/report.txt\" exists", check: { pathProblem($0[0]) }
        ) { run, captures, _ in
            // Looked up in the rooted work/ without following links: a link is an entry of the scenario's
            // directory, and what it points to (outside, perhaps) is not read.
            let name = captures[0]
            if let problem = ScenarioRun.pathProblem(name) { throw StepFailure(problem, kind: .error) }
            let work = try run.work()
            // A link on the way (`lk/f`, dangling, a loop or not) is not followed: whether the file is there cannot be
            // told, and neither `exists` nor `does not exist` passes on it.
            let kind: RootedDirectory.Kind?
            do { kind = try work.existingKind(of: name) } catch {
                throw StepFailure("cannot tell whether \(name) \(captures[1] == "exists" ? "exists" : "does not exist"): \(error)")
            }
            // Only a regular file is a file: `exists` fails on a directory (a step that names one checks a file
            // nobody wrote), a link (dangling or not: sut-launch reads no file through a link), a FIFO or a device,
            // and `does not exist` does too (something is there), as the content steps refuse them.
            if kind != nil && kind != .file {
                let what = work.notAFileDescription(of: name) ?? "not a regular file"
                throw StepFailure(
                    "expected \(captures[0]) \(captures[1] == "exists" ? "to exist" : "not to exist") in the scenario's directory; it is \(what), not a file"
                )
            }
            let exists = kind != nil
            if exists != (captures[1] == "exists") {
                throw StepFailure(
                    "expected \(captures[0]) \(captures[1] == "exists" ? "to exist" : "not to exist") in the scenario's directory; it \(exists ? "does" : "does not")"
                )
            }
        },
        StepDefinition(
            "the file \(quoted) contains \(quoted)", example: "Then the file \"log.txt\" contains \"done\"", values: [1: .expected],
            check: { pathProblem($0[0]) ?? emptyTextProblem($0[1]) }
        ) { run, captures, _ in
            let bytes = try run.fileBytes(captures[0])
            let wanted = captures[1]
            // Bytes, as Then I see is: the text's UTF-8 somewhere in the file (no Unicode normalization).
            if ByteSearch.firstRange(of: Array(wanted.utf8), in: bytes) == nil {
                throw StepFailure(
                    "\(captures[0]) does not contain \"\(wanted)\"; it holds:\n\(String(decoding: bytes.prefix(2000), as: UTF8.self))")
            }
        },
        StepDefinition(
            "the file \(quoted) is:", example: "Then the file \"out.txt\" is:\n  \"\"\"\n  a\n  b\n  \"\"\"", docString: .expectedPattern,
            argument: .docString, check: { pathProblem($0[0]) }
        ) { run, captures, step in
            guard let expected = step.docString?.content else {
                throw StepFailure("this step needs a doc string with the expected content", kind: .error)
            }
            if let difference = try run.portableMismatch(expected: expected, actual: try run.comparedFileBytes(captures[0])) {
                throw StepFailure("\(captures[0]) differs from what the step expects:\n\(difference)")
            }
        },
    ]

    /// Signal names a step may send.
    static let signalNames: [(name: String, number: Int32)] = SignalNumber.named

    static func signalNumber(_ name: String) -> Int32? {
        let bare = name.uppercased().hasPrefix("SIG") ? String(name.uppercased().dropFirst(3)) : name.uppercased()
        return signalNames.first { $0.name == bare }?.number
    }
}

extension ScenarioRun {
    /// Why a file step's path would leave the scenario's directory, or nil.
    static func pathProblem(_ name: String) -> String? {
        if name.isEmpty { return "a file step needs a file name" }
        if name.hasPrefix("/") { return "\"\(name)\" is an absolute path; file steps stay inside the scenario's directory" }
        if name.split(separator: "/").contains("..") {
            return "\"\(name)\" climbs out with ..; file steps stay inside the scenario's directory"
        }
        return nil
    }

    /// A file's bytes, from the scenario's directory, read through its rooted `work/`: no link followed, a FIFO,
    /// socket or device refused by name at once (never opened to wait for a writer).
    /// `name` comes expanded, as every step value does (``StepValue``).
    func fileBytes(_ name: String) throws(StepFailure) -> [UInt8] {
        if let problem = Self.pathProblem(name) { throw StepFailure(problem, kind: .error) }
        let work = try work()
        do {
            return try work.readFile(name)
        } catch {
            let text = error.description
            throw StepFailure(text.hasSuffix(": no such file") ? "\(name): no such file in the scenario's directory" : text)
        }
    }

    /// A file's bytes for a whole-file comparison (`is:`, a snapshot): at most ``ScenarioRun/wholeTextLimit``, as
    /// the whole-output steps; a larger file is refused by name (the comparison and its diff stay within budget).
    func comparedFileBytes(_ name: String) throws(StepFailure) -> [UInt8] {
        let bytes = try fileBytes(name)
        guard bytes.count <= Self.wholeTextLimit else {
            throw StepFailure(
                "\(name) is \(bytes.count) bytes; whole-file steps compare at most \(ByteSize.text(Self.wholeTextLimit)) "
                    + "(use Then the file \"\(name)\" contains \"…\" on larger files)")
        }
        return bytes
    }

    /// The most bytes a whole-output or whole-file comparison reads (what a program's stream keeps in memory).
    static let wholeTextLimit = 16 << 20

    /// The whole output of the most recent command or program, once it has ended (waiting up to the step
    /// timeout for a launched program).
    func finishedOutput(_ stream: StandardStream) throws(StepFailure) -> [UInt8] {
        try requireOwnStream(stream)
        let process = try requireProcess()
        guard process.waitForExit(timeout: waitLimit) != nil else {
            throw StepFailure("the program was still running after \(waitDescription); its output is compared once it has ended")
        }
        process.finish(grace: options.killGrace)
        guard !process.output.isCaptureCut(stream) else {
            throw StepFailure(
                "the \(stream.rawValue) is \(process.output.byteCount(stream)) bytes; whole-output steps compare at most \(ByteSize.text(process.output.captureLimit)) (use Then I see or a line matching step on larger output)"
            )
        }
        let bytes = Array(process.output.captured(stream))
        // A terminal's driver writes each LF the program wrote as CRLF (ONLCR): one CR before each LF is the
        // terminal's, not the program's, so it is taken out again; every other byte is compared as it came.
        return terminal == nil ? bytes : Self.withoutTerminalCR(bytes)
    }

    static func withoutTerminalCR(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { continue }
            result.append(byte)
        }
        return result
    }
}
