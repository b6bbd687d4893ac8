import Testing

@testable import ProcessEngine

/// A NUL cannot pass through execve: every launch refuses an argument or variable holding one, naming it, before
/// anything starts (hostile review r4b, finding R: `echo A\0B C` ran `echo A C`).
@Suite struct LauncherNulTests {
    @Test func anArgumentOrVariableWithANulIsRefusedNeverCut() {
        let cases: [(LaunchRequest, String)] = [
            (LaunchRequest(executable: "/bin/echo", arguments: ["A\u{0}B", "C"], environment: [:]), "argument 1 A\\0B holds a NUL byte"),
            (LaunchRequest(executable: "/bin/tr\u{0}ue", environment: [:]), "the program's name /bin/tr\\0ue holds a NUL byte"),
            (LaunchRequest(executable: "/bin/true", environment: ["X": "a\u{0}b"]), "the environment variable X holds a NUL byte"),
        ]
        for (request, expected) in cases {
            #expect(throws: LaunchError.self) { try Launcher.launch(request) }
            let message = (try? Launcher.launch(request)).map { _ in "launched" } ?? Launcher.nulProblem(request) ?? "no problem"
            #expect(message.hasPrefix(expected), "\(message)")
        }
        #expect(Launcher.nulProblem(LaunchRequest(executable: "/bin/true", arguments: ["a b"], environment: ["X": "y"])) == nil)
    }
}
