import Foundation
import Testing

/// `sut-launch test` interrupted by a real signal while a step runs: every report (JUnit, JSON, Cucumber Messages,
/// GitHub output) and the console show the steps that finished as passed, the running step as the interrupted one,
/// the later steps skipped and the scenarios not started as not run; Messages stay one ordered, valid stream.
/// Each test waits for a marker the long step itself writes, never for a fixed time.
@Suite struct InterruptedReportsEndToEndTests {
    /// A scenario whose first steps pass, then whose step at line 8 writes `marker` and sleeps; `name` names it.
    static func scenario(_ name: String, marker: URL) -> String {
        """
          Scenario: \(name)
            Given a file "a.txt" with:
              \"\"\"
              x
              \"\"\"
            When I run "true"
            Then the exit code is 0
            When I run "sh -c 'echo up > \(marker.path); exec sleep 30'"
            Then the exit code is 0

        """
    }

    static let trail = [
        "✓ Given a file \"a.txt\" with:", "✓ When I run \"true\"", "✓ Then the exit code is 0",
    ]

    struct Reports {
        var json: [String: Any]
        var xml: String
        var envelopes: [[String: Any]]
    }

    /// Reads the three reports, checks JUnit against its schema and Messages against theirs and for order.
    static func reports(in directory: URL) throws -> Reports {
        let report = directory.appendingPathComponent("r.json")
        let junit = directory.appendingPathComponent("j.xml").path
        let messages = directory.appendingPathComponent("m.ndjson").path
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        if CLI.hasCommand("xmllint") {
            let schema = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Schemas/junit.xsd").path
            let lint = try CLI.output(of: ["sh", "-c", "xmllint --noout --schema \"$0\" \"$1\" 2>&1", schema, junit])
            #expect(lint.contains("validates"), "\(lint)")
        }
        if CLI.hasCommand("python3") {
            let verdict = try ReportTrustEndToEndTests.schemaVerdict([messages])
            #expect(verdict.hasPrefix("ok ") || verdict.contains("needs PyPI"), "\(verdict)")
        }
        let envelopes = try ReportTrustEndToEndTests.envelopes(messages)
        #expect(orderProblems(envelopes).isEmpty, "\(orderProblems(envelopes))")
        return Reports(json: json, xml: xml, envelopes: envelopes)
    }

    /// What breaks the Messages' order: a timestamp earlier than the one before it, testRunStarted not before every
    /// test case or testRunFinished not last, a test case started twice, not finished, or finished before it started.
    static func orderProblems(_ envelopes: [[String: Any]]) -> [String] {
        func milliseconds(_ message: [String: Any]) -> Double? {
            (message["timestamp"] as? [String: Any]).map {
                Double($0["seconds"] as? Int ?? 0) * 1000 + Double($0["nanos"] as? Int ?? 0) / 1e6
            }
        }
        var problems: [String] = []
        var last = -Double.infinity
        var open: Set<String> = []
        var closed: Set<String> = []
        let kinds = envelopes.compactMap(\.keys.first)
        if kinds.last != "testRunFinished" { problems.append("testRunFinished is not last: \(kinds.suffix(3))") }
        if let started = kinds.firstIndex(of: "testRunStarted"), let first = kinds.firstIndex(of: "testCaseStarted"), first < started {
            problems.append("a test case started before testRunStarted")
        }
        for (line, envelope) in envelopes.enumerated() {
            guard let kind = envelope.keys.first, let message = envelope[kind] as? [String: Any] else { continue }
            if let at = milliseconds(message) {
                if at < last { problems.append("line \(line + 1): \(kind) at \(at) before \(last)") }
                last = max(last, at)
            }
            if kind == "testCaseStarted", let id = message["id"] as? String, !open.insert(id).inserted {
                problems.append("test case \(id) started twice")
            }
            let caseId = message["testCaseStartedId"] as? String
            if let caseId, !open.contains(caseId) || closed.contains(caseId) {
                problems.append("line \(line + 1): \(kind) outside its case")
            }
            if kind == "testCaseFinished", let caseId { closed.insert(caseId) }
        }
        if open != closed { problems.append("test cases not finished: \(open.subtracting(closed).sorted())") }
        return problems
    }

    /// Runs `test` on `feature` and sends `signal` once every marker exists.
    static func interrupt(
        _ arguments: [String], in directory: URL, markers: [URL], signal: Int32, environment: [String: String]? = nil,
        then: ((Process, URL) throws -> Void)? = nil
    ) throws -> CLI.Result {
        let outputs = ["--junit", "j.xml", "--report", "r.json", "--messages", "m.ndjson"].map {
            $0.hasPrefix("-") ? $0 : directory.appendingPathComponent($0).path
        }
        return try CLI.run(["test", "--step-timeout", "120s"] + outputs + arguments, environment: environment, cwd: directory) {
            process, stdout in
            let up = CLI.eventually(120) { markers.allSatisfy { FileManager.default.fileExists(atPath: $0.path) } }
            #expect(up, "the long steps did not start")
            kill(process.processIdentifier, signal)
            try then?(process, stdout)
        }
    }

    @Test(arguments: [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")])
    func theInterruptedStepIsNamedAfterTheStepsThatPassed(signal: Int32, name: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("up")
        _ = try CLI.write(
            "Feature: halt\n" + Self.scenario("first", marker: marker) + "  Scenario: second\n    When I run \"true\"\n", "halt.feature",
            in: directory)
        let summary = directory.appendingPathComponent("summary.md")
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = summary.path
        let result = try Self.interrupt(
            ["--format", "github", "halt.feature"], in: directory, markers: [marker], signal: signal, environment: environment)
        let interruption = "interrupted by \(name)"
        let long = "When I run \"sh -c 'echo up > \(marker.path); exec sleep 30'\""
        #expect(result.status == 128 + signal, "\(result.stdout)\(result.stderr)")
        // The console: the trail, the interrupted step, the summary.
        #expect(
            result.stdout.contains((Self.trail + ["✗ " + long, "- Then the exit code is 0"]).map { "    " + $0 }.joined(separator: "\n")))
        #expect(result.stdout.contains("Failed: halt.feature:9: \(long)\n    \(interruption)"), "\(result.stdout)")
        #expect(result.stdout.contains("2 scenarios: 0 passed, 1 could not run, 1 not run"), "\(result.stdout)")
        // GitHub: the annotation on the interrupted step's line, the summary's rows.
        #expect(result.stdout.contains("::error file=halt.feature,line=9,title=halt%3A first::\(interruption)"), "\(result.stdout)")
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(
            markdown.contains("| ⚠️ | halt: first | halt.feature:9: When I run") && markdown.contains("| ⏭️ | halt: second |"), "\(markdown)")

        let reports = try Self.reports(in: directory)
        #expect(reports.json["exitCode"] as? Int == Int(128 + signal) && reports.json["error"] as? String == interruption)
        let results = reports.json["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["status"] as? String ?? "" } == ["error", "notRun"], "\(results)")
        #expect(results.first?["steps"] as? [String] == Self.trail + ["✗ " + long, "- Then the exit code is 0"], "\(results)")
        #expect(results.first?["failedStep"] as? String == "halt.feature:9: \(long)")
        #expect(results.first?["message"] as? String == interruption)
        #expect(results.last?["message"] as? String == "not run: \(interruption)")
        #expect(reports.xml.contains("<error message=\"\(interruption)\" type=\"ScenarioError\">halt.feature:9: "), "\(reports.xml)")
        #expect(reports.xml.contains("✓ Then the exit code is 0\n✗ When I run"), "\(reports.xml)")
        #expect(reports.xml.contains("<skipped message=\"not run: \(interruption)\"/>"), "\(reports.xml)")
        let statuses = ReportTrustEndToEndTests.caseStatuses(reports.envelopes)
        #expect(statuses["first"] == ["PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED"], "\(statuses)")
        #expect(statuses["second"] == ["SKIPPED"], "\(statuses)")
        let failed = reports.envelopes.compactMap { ($0["testStepFinished"] as? [String: Any])?["testStepResult"] as? [String: Any] }
            .filter { $0["status"] as? String == "FAILED" }
        #expect(failed.count == 1 && failed.first?["message"] as? String == interruption, "\(failed)")
    }

    /// Two scenarios at once: each keeps its own trail, and the Messages interleave them in time order, every case
    /// finished before testRunFinished.
    @Test func parallelInterruptedScenariosStayOrdered() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let markers = ["one", "two"].map { directory.appendingPathComponent("up-" + $0) }
        _ = try CLI.write(
            "Feature: both\n" + Self.scenario("one", marker: markers[0]) + Self.scenario("two", marker: markers[1]), "both.feature",
            in: directory)
        let result = try Self.interrupt(["--jobs", "2", "both.feature"], in: directory, markers: markers, signal: SIGTERM)
        #expect(result.status == 143, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scenarios: 0 passed, 2 could not run"), "\(result.stdout)")
        let reports = try Self.reports(in: directory)
        let results = reports.json["results"] as? [[String: Any]] ?? []
        let long = markers.map { "When I run \"sh -c 'echo up > \($0.path); exec sleep 30'\"" }
        #expect(
            results.map { $0["failedStep"] as? String ?? "" } == ["both.feature:9: " + long[0], "both.feature:18: " + long[1]], "\(results)"
        )
        let statuses = ReportTrustEndToEndTests.caseStatuses(reports.envelopes)
        #expect(statuses["one"] == ["PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED"], "\(statuses)")
        #expect(statuses["two"] == ["PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED"], "\(statuses)")
    }

    /// A second signal while the first one's reports are written changes nothing: one exit, 128+N of the first,
    /// every report whole.
    @Test func aSecondSignalWhileTheReportsAreWrittenChangesNothing() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("up")
        _ = try CLI.write("Feature: twice\n" + Self.scenario("only", marker: marker), "twice.feature", in: directory)
        let result = try Self.interrupt(["twice.feature"], in: directory, markers: [marker], signal: SIGINT) { process, stdout in
            let stderr = stdout.deletingLastPathComponent().appendingPathComponent("stderr") // beside it (CLI.run)
            let printed = CLI.eventually(120) {
                (try? String(contentsOf: stderr, encoding: .utf8))?.contains("interrupted by SIGINT; stopping") == true
            }
            #expect(printed)
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        // The second signal is not reported as what ended the run (the leftover-process line may name the SIGTERM
        // the run's own cleanup sends: a plain CI run saw it and failed here).
        let said = result.stdout + result.stderr
        #expect(!said.contains("interrupted by SIGTERM") && !said.contains("by SIGTERM;"), "\(said)")
        let reports = try Self.reports(in: directory)
        #expect(reports.json["exitCode"] as? Int == 130)
        #expect(ReportTrustEndToEndTests.caseStatuses(reports.envelopes)["only"] == ["PASSED", "PASSED", "PASSED", "FAILED", "SKIPPED"])
    }

    /// CPU time `pid` has used, in clock ticks (utime + stime of /proc/PID/stat), or 0.
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
    }

    /// SIGINT while the feature files still load (30,000 scenarios: seconds of parsing; the signal goes once the
    /// run has used 0.3 s of CPU, far past its start and far before the files are read): every report says the run
    /// was interrupted (exit 130, one error entry naming the interruption, Messages' run not a success), never zero
    /// scenarios a CI reads as an empty green run; `report` on its Messages fails too.
    @Test func aSignalWhileTheFilesLoadIsAnInterruptedRunNotAnEmptyOne() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = (1...50).map { "  Scenario: s\($0)\n    When I run \"true\"\n    Then the exit code is 0\n" }.joined()
        for file in 1...600 { _ = try CLI.write("Feature: f\(file)\n" + scenarios, "big/f\(file).feature", in: directory) }
        var environment = CLI.localEnvironment
        environment["GITHUB_STEP_SUMMARY"] = directory.appendingPathComponent("summary.md").path
        let result = try CLI.run(
            ["test", "--format", "github", "--junit", "j.xml", "--report", "r.json", "--messages", "m.ndjson", "big"],
            environment: environment, cwd: directory
        ) { process, _ in
            #expect(CLI.eventually(120) { Self.cpuTicks(process.processIdentifier) >= 30 }, "the run used no CPU")
            kill(process.processIdentifier, SIGINT)
        }
        let said = "interrupted by SIGINT while the feature files were loading: no scenario ran"
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(said), "\(result.stdout)\(result.stderr)")
        // GitHub: one annotation on the run (no `file=,line=0`), the summary's row.
        #expect(result.stdout.contains("::error title=sut-launch%3A load feature files::\(said)\n"), "\(result.stdout)")
        let markdown = try String(contentsOf: directory.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(markdown.contains("| ⚠️ | sut-launch: load feature files |  |") && markdown.contains("0 of 1 passed"), "\(markdown)")
        let reports = try Self.reports(in: directory)
        #expect(reports.json["exitCode"] as? Int == 130 && reports.json["error"] as? String == "interrupted by SIGINT")
        let results = reports.json["results"] as? [[String: Any]] ?? []
        #expect(results.count == 1 && results.first?["status"] as? String == "error", "\(results)")
        #expect(results.first?["message"] as? String == said, "\(results)")
        #expect(reports.xml.contains("errors=\"1\"") && reports.xml.contains("<error message=\"\(said)\""), "\(reports.xml)")
        let finished = reports.envelopes.compactMap { $0["testRunFinished"] as? [String: Any] }
        #expect(finished.count == 1 && finished.first?["success"] as? Bool == false, "\(finished)")
        let report = try CLI.run(["report", "--junit", "again.xml", "m.ndjson"], cwd: directory)
        #expect(report.status != 0, "\(report.stderr)")
    }
}
