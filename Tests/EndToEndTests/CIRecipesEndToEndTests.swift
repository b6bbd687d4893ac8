import Foundation
import Testing

/// The CI recipes of docs/ci.md (and the copies `init` writes) pass as written: parsed as their CI parses them,
/// and every `sut-launch` command in them run against the built binary, machine by machine, with the variables
/// that CI sets. Together the shards run the whole suite once.
@Suite struct CIRecipesEndToEndTests {
    static let hasYAML = (try? CLI.output(of: ["python3", "-c", "import yaml; print('ok')"]))?.hasPrefix("ok") == true

    /// The fenced block after `<!-- recipe: NAME -->` in docs/ci.md.
    static func recipe(_ name: String) throws -> String {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let marker = try #require(lines.firstIndex(of: "<!-- recipe: \(name) -->"), "docs/ci.md has no recipe \(name)")
        #expect(lines[marker + 1].hasPrefix("```"))
        let body = lines[(marker + 2)...].prefix { !$0.hasPrefix("```") }
        return body.joined(separator: "\n") + "\n"
    }

    /// YAML as PyYAML reads it, as JSON objects.
    static func yaml(_ text: String, in directory: URL) throws -> [String: Any] {
        let file = try CLI.write(text, "recipe.yml", in: directory)
        let json = try CLI.output(of: [
            "python3", "-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), default=str))", file,
        ])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not a mapping: \(json)")
    }

    /// Runs `command` with `sh -c` in `directory`, the built binaries first on PATH; stdout and stderr through files.
    static func shell(_ command: String, in directory: URL, environment: [String: String] = [:]) throws -> CLI.Result {
        let out = directory.appendingPathComponent(".out-\(UUID().uuidString)")
        let err = directory.appendingPathComponent(".err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        let path = CLI.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = ["PATH": path, "HOME": directory.path].merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8), stdoutBytes: 0)
    }

    /// A project with `features/` holding ten scenarios.
    static func project() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("features"), withIntermediateDirectories: true)
        let scenarios = (1...10).map { "  Scenario: s\($0)\n    When I run \"true\"\n" }.joined()
        _ = try CLI.write("Feature: suite\n" + scenarios, "features/suite.feature", in: directory)
        return directory
    }

    /// The names of the scenarios a Messages file ran (its test cases' pickles).
    static func ran(messages file: URL) throws -> [String] {
        var names: [String: String] = [:]
        var ran: [String] = []
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let envelope = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let pickle = envelope["pickle"] as? [String: Any] { names[pickle["id"] as! String] = pickle["name"] as? String }
            if let testCase = envelope["testCase"] as? [String: Any] { ran.append(names[testCase["pickleId"] as! String] ?? "?") }
        }
        return ran
    }

    /// The names of the test cases of JUnit files.
    static func ran(junit files: [URL]) throws -> [String] {
        var names: [String] = []
        for file in files {
            for element in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "<testcase ").dropFirst() {
                guard let range = element.range(of: " name=\"") else { continue }
                names.append(String(element[range.upperBound...].prefix { $0 != "\"" }))
            }
        }
        return names
    }

    static let suite = (1...10).map { "s\($0)" }.sorted()

    @Test(.enabled(if: hasYAML, "needs PyYAML (python3-yaml; scripts/install-test-deps.sh)"))
    func theGitHubActionsMatrixRunsEveryScenarioOnceAndMergesOneReport() throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try Self.recipe("github-actions")
        let workflow = try Self.yaml(text, in: directory)
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let shard = try #require(jobs["shard"] as? [String: Any])
        let matrix = try #require((shard["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
        let shards = try #require(matrix["shard"] as? [Int])
        #expect(shards == [1, 2, 3, 4])
        let runs = try #require(shard["steps"] as? [[String: Any]]).compactMap { $0["run"] as? String }
        let test = try #require(runs.first { $0.hasPrefix("sut-launch test") })
        // Every job of one workflow run sees the same GITHUB_RUN_ID: that is how report knows the shards are one run.
        let environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": directory.appendingPathComponent("summary.md").path, "GITHUB_RUN_ID": "4242",
            "GITHUB_RUN_ATTEMPT": "1",
        ]
        var ran: [String] = []
        for k in shards {
            let result = try Self.shell(
                test.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(k)"), in: directory, environment: environment)
            #expect(result.status == 0, "shard \(k): \(result.stdout)\(result.stderr)")
            ran += try Self.ran(messages: directory.appendingPathComponent("shard-\(k).ndjson"))
        }
        #expect(ran.sorted() == Self.suite, "\(ran)")
        // The merge job: the download step puts every shard's file in messages/.
        let report = try #require(jobs["report"] as? [String: Any])
        #expect(report["needs"] as? String == "shard" && report["if"] as? String == "always()")
        let steps = try #require(report["steps"] as? [[String: Any]])
        let merge = try #require(steps.compactMap { $0["run"] as? String }.first)
        #expect(merge == "sut-launch report --html report.html --junit junit.xml messages/*.ndjson")
        let messages = directory.appendingPathComponent("messages")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        for k in shards {
            try FileManager.default.moveItem(
                at: directory.appendingPathComponent("shard-\(k).ndjson"), to: messages.appendingPathComponent("shard-\(k).ndjson"))
        }
        do {
            let merged = try Self.shell(merge, in: directory)
            #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
            #expect(try Self.ran(junit: [directory.appendingPathComponent("junit.xml")]).sorted() == Self.suite)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.html").path))
        }
    }

    @Test(.enabled(if: hasYAML, "needs PyYAML (python3-yaml; scripts/install-test-deps.sh)"))
    func theGitLabParallelJobRunsEveryScenarioOnce() throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = try Self.yaml(try Self.recipe("gitlab"), in: directory)
        let job = try #require(pipeline["scenarios"] as? [String: Any])
        let total = try #require(job["parallel"] as? Int)
        #expect(total == 4)
        let script = try #require(job["script"] as? [String])
        var junits: [URL] = []
        for k in 1...total {
            for line in script {
                let result = try Self.shell(
                    line, in: directory,
                    environment: ["CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "\(total)", "CI": "true", "CI_PIPELINE_ID": "77"])
                #expect(result.status == 0, "node \(k): \(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains("shard \(k)/4 from GitLab CI"), "\(result.stderr)")
            }
            junits.append(directory.appendingPathComponent("junit-\(k).xml"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("messages-\(k).ndjson").path))
        }
        #expect(try Self.ran(junit: junits).sorted() == Self.suite)
        let merge = try #require((pipeline["scenarios-report"] as? [String: Any])?["script"] as? [String])
        #expect(merge == ["sut-launch report --html report.html --junit junit.xml messages-*.ndjson"])
        do {
            let merged = try Self.shell(merge[0], in: directory, environment: ["CI": "true", "CI_PIPELINE_ID": "77"])
            #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        }
    }

    @Test func theBazelShTestRunsEveryScenarioOnceAsBazelsProtocolAsks() throws {
        let directory = try Self.project()
        defer { try? FileManager.default.removeItem(at: directory) }
        // BUILD is Starlark, Python's syntax: its sh_test call read with Python's own parser.
        let build = try CLI.write(try Self.recipe("bazel-build"), "BUILD.bazel", in: directory)
        let checked = try CLI.output(of: [
            "python3", "-c",
            """
            import ast, sys
            call = ast.parse(open(sys.argv[1]).read()).body[0].value
            args = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg != 'data'}
            print(call.func.id, args['shard_count'], args['srcs'][0])
            """,
            build,
        ])
        #expect(checked == "sh_test 4 run-scenarios.sh\n", "\(checked)")
        let script = try CLI.write(try Self.recipe("bazel-script"), "run-scenarios.sh", in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        var junits: [URL] = []
        for index in 0..<4 {
            let status = directory.appendingPathComponent("status-\(index)")
            let xml = directory.appendingPathComponent("test-\(index).xml")
            let result = try Self.shell(
                "./run-scenarios.sh", in: directory,
                environment: [
                    "TEST_SHARD_INDEX": "\(index)", "TEST_TOTAL_SHARDS": "4", "TEST_SHARD_STATUS_FILE": status.path,
                    "XML_OUTPUT_FILE": xml.path, "TEST_TMPDIR": directory.path,
                ])
            #expect(result.status == 0, "shard \(index): \(result.stdout)\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: status.path), "TEST_SHARD_STATUS_FILE not touched")
            junits.append(xml)
        }
        #expect(try Self.ran(junit: junits).sorted() == Self.suite)
    }

    /// The workflows `init` writes are the recipes, byte for byte.
    @Test func initWritesTheRecipesOfTheManual() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try CLI.run(["init", directory.path]).status == 0)
        let github = try String(contentsOf: directory.appendingPathComponent("ci/github-actions.yml"), encoding: .utf8)
        let gitlab = try String(contentsOf: directory.appendingPathComponent("ci/gitlab-ci.yml"), encoding: .utf8)
        #expect(github == (try Self.recipe("github-actions")))
        #expect(gitlab == (try Self.recipe("gitlab")))
    }
}
