import ProcessEngine
import Testing

@testable import SutLaunchCLI

/// The text of usage errors is what users (and the end-to-end tests) read: pinned here, case by case.
@Suite struct UsageProblemTests {
    @Test(arguments: [
        (UsageProblem.unknownOption("--flgs", known: ["--flag", "--env"]), "unknown option '--flgs'; did you mean '--flag'?"),
        (.singleDashLongOption("-flag", long: "--flag"), "unknown option '-flag'; did you mean '--flag'?"),
        (
            .unknownShortOption("-t", hint: "; write --tags (-t is --timeout in the run form)"),
            "unknown option '-t'; write --tags (-t is --timeout in the run form)"
        ),
        (.takesNoValue("-q"), "option '-q' takes no value; write '-q' alone"),
        (.missingValue("--flag", placeholder: "key=value"), "option '--flag' needs a value: --flag key=value"),
        (
            .notOneOf("--flags-in", value: "argv", choices: ["args", "env", "both"], index: nil),
            "--flags-in 'argv' is not one of args, env, both"
        ),
        (
            .notOneOf("--launcher", value: "x", choices: ["spawn", "foundation"], index: 2),
            "--launcher 'x' is not one of spawn, foundation (argument 2)"
        ),
        (
            .invalidShard("--shard", value: "9/8", maxCount: 10_000, index: 1),
            "--shard '9/8' is not K/N with 1 <= K <= N <= 10000, like 2/8 (argument 1)"
        ),
        (
            .givenTwice("--report", first: "--report a (argument 1)", second: "--report b (argument 3)"),
            "--report is given twice: --report a (argument 1) and --report b (argument 3); keep one"
        ),
        (
            .cannotWrite("--artifacts", path: "/x", problem: "no such directory", index: nil),
            "--artifacts /x: cannot write there: no such directory"
        ),
        (.noSuchStub("-s", path: "r.json", index: 2), "-s r.json: no such file or directory (argument 2)"),
        (.noProgram, "no program given; usage: sut-launch [options] PROGRAM [ARGS...] (see sut-launch --help)"),
        (
            .unknownSubcommand("tset", suggestion: "test"),
            "unknown subcommand 'tset'; did you mean 'sut-launch test'?; to launch a program named tset, write: sut-launch -- tset"
        ),
        (.journalNeedsStub, "--journal needs a mock server: add --stub FILE"),
        (.httpsNeedsStub("--https"), "--https needs a mock server: add --stub FILE"),
        (.httpsNeedsStub("--intercept"), "--intercept needs a mock server: add --stub FILE"),
        (.serverOptionNeedsStub("--strict"), "--strict needs a mock server: add --stub FILE"),
        (
            .interceptWithOwnCertificate("--intercept a.test (argument 3)"),
            "--intercept a.test (argument 3) answers with certificates minted for the run; --https-cert serves the user's own: leave one of them out"
        ),
        (.httpsOptionNeedsHTTPS("--https-host"), "--https-host is for an HTTPS mock server: add --https"),
        (.httpsPair(given: "--https-key", missing: "--https-cert"), "--https-key needs --https-cert: a certificate is served with its key"),
        (
            .httpsHostWithOwnCertificate("--https-host a.test (argument 3)"),
            "--https-host a.test (argument 3) names hosts for a minted certificate; --https-cert serves the names it holds: leave --https-host out"
        ),
        (
            .initWouldOverwrite(["d/a", "d/b"]),
            "init will not overwrite d/a, d/b; choose an empty directory, or pass --force to replace them"
        ),
        (
            .initNotAFile(["d/features (a symbolic link)"]),
            "init will not write over or through d/features (a symbolic link): not a regular file; init writes through no link, even with --force (remove it, or choose another DIR)"
        ),
    ])
    func rendersTheMessageUsersSee(problem: UsageProblem, message: String) {
        #expect(problem.message == message)
        #expect(UsageError(problem).message == message)
    }
}

/// A failed parse still knows the `--report` given, before or after the mistake (the parser reads on past a
/// bad token), so the report is written without parsing twice.
@Suite struct EarlyReportTests {
    @Test func aRunParseThatFailsCarriesTheReportGivenBeforeOrAfterTheMistake() {
        #expect(runFailure(["--report", "/tmp/r.json", "--no-such-option", "prog"])?.report == .run(path: "/tmp/r.json", program: "prog"))
        #expect(runFailure(["--report", "/tmp/r.json", "--timeout", "soon", "prog"])?.report == .run(path: "/tmp/r.json", program: "prog"))
        #expect(runFailure(["--no-such-option", "--report", "/tmp/r.json", "prog"])?.report == .run(path: "/tmp/r.json", program: "prog"))
        #expect(runFailure(["-Z", "--report", "/tmp/r.json"])?.report == .run(path: "/tmp/r.json", program: ""))
        // R8C-5: the word after an unknown option is its value when more follows, and the options are read on.
        #expect(runFailure(["--timout", "5s", "--report", "/tmp/r.json", "prog"])?.report == .run(path: "/tmp/r.json", program: "prog"))
        // R9C-3: so is the word after an unknown short option (`-F a=1`, a typo of `-f`), alone or in a bundle.
        for short in ["-F", "-qZ", "-Zq"] {
            #expect(runFailure([short, "a=1", "--report", "/tmp/r.json", "prog"])?.report == .run(path: "/tmp/r.json", program: "prog"))
        }
        // R10C-1: an option missing its value took the `--report` after it as that value.
        for option in ["-t", "--timeout", "-f", "--cwd", "-e", "--flags-in", "-qt", "--env-file"] {
            let failure = runFailure([option, "--report", "/tmp/r.json", "prog"])
            #expect(failure?.report == .run(path: "/tmp/r.json", program: "prog"), "\(option)")
            let said = "\(failure?.underlying ?? UsageError(""))"
            #expect(said.contains("the next word '--report' is an option"), "\(option)")
        }
        #expect(runFailure(["-t", "--report=/tmp/r.json", "prog"])?.report == .run(path: "/tmp/r.json", program: "prog"))
        // Joined, such a word is still a value (a directory named --report).
        #expect(runFailure(["--cwd=--report", "--bogus", "prog"])?.report == nil)
        // The first mistake is the one reported, whatever comes after it.
        #expect(
            runFailure(["--bogus", "--timeout", "soon", "prog"])?.underlying as? UsageError
                == UsageError(.unknownOption("--bogus", known: RunOption.specs.map(\.long))))
    }

    @Test func aReportOnAFileOfAnotherOutputIsNotWrittenAndOneGivenTwiceIsWrittenToEach() {
        // Given twice: the usage error is written to each (none of the reports asked for is left out in silence).
        #expect(
            runFailure(["--report", "/tmp/r.json", "--report", "/tmp/s.json", "prog"])?.report
                == .each([.run(path: "/tmp/r.json", program: "prog"), .run(path: "/tmp/s.json", program: "prog")]))
        #expect(runFailure(["--report", "/no/such/dir/r.json", "--bogus", "prog"])?.report == nil)
    }

    @Test func aTestParseThatFailsAfterReportCarriesIt() {
        do {
            _ = try TestOptions.parse(["--report", "/tmp/t.json", "--jobs", "0", "features/"])
            Issue.record("parsed")
        } catch {
            #expect(error.report == .test(path: "/tmp/t.json"))
            #expect((error.underlying as? UsageError)?.message.hasPrefix("--jobs") == true)
        }
    }

    private func runFailure(_ arguments: [String]) -> CommandFailure? {
        do {
            _ = try RunOptions.parse(arguments)
            return nil
        } catch {
            return error
        }
    }
}
