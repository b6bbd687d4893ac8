/// sut-launch's exit codes, in one place (DESIGN.md "Runs, reports and exit codes").
///
/// When the program ran and every check held, sut-launch exits with the program's own code.
package enum ExitCode {
    /// A usage error: unknown option, missing value, malformed `--flag`.
    package static let usage: Int32 = 2
    /// An invalid stub, flags, env or feature file; nothing was launched.
    package static let invalidInput: Int32 = 3
    /// The program passed, but mock-server checks failed (unexpected requests, unmet expectations).
    package static let serverChecksFailed: Int32 = 4
    /// No scenario was selected (a tag expression or path that matched nothing), as pytest's 5.
    package static let noScenarios: Int32 = 5
    /// `--coverage`: the program passed, but coverage could not be measured (no profile written, a profile of
    /// another LLVM version, the tools failed) or line coverage is below `--coverage-threshold`; the reports are
    /// written first.
    package static let coverageFailed: Int32 = 6
    /// A report or journal could not be written at the end (EX_IOERR).
    package static let ioError: Int32 = 74
    /// The run timed out (as GNU timeout).
    package static let timeout: Int32 = 124
    /// The program could not be launched for a reason other than the two below (as GNU env).
    package static let cannotLaunch: Int32 = 125
    /// The program was found but is not executable (as shells).
    package static let notExecutable: Int32 = 126
    /// The program was not found (as shells).
    package static let notFound: Int32 = 127
    /// The program died of signal N: 128 + N.
    package static func signaled(_ signal: Int32) -> Int32 { 128 + signal }
}
