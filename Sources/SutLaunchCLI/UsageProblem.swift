import AutomationSupport
package import ProcessEngine

/// Every mistake a command line can hold (exit 2), each with what its message needs; ``message`` renders them
/// all, here and nowhere else. `origin` values read "--flag x=1 (argument 3)"; `spelling` is the option as written.
package enum UsageProblem: Sendable, Hashable {
    // Tokens.
    case unknownOption(String, known: [String])
    case singleDashLongOption(String, long: String)
    case unknownShortOption(String, hint: String)
    case takesNoValue(String)
    case missingValue(String, placeholder: String)
    case optionAsValue(String, placeholder: String, next: String)
    // Values.
    case notOneOf(String, value: String, choices: [String], index: Int?)
    case invalidNumber(String, problem: String, index: Int)
    case invalidShard(String, value: String, maxCount: Int, index: Int)
    case invalidDuration(String, value: String, maxSeconds: Int, index: Int)
    case invalidFlag(String, problem: String, index: Int)
    case notKeyValue(String, index: Int)
    case invalidVariable(String, value: String, problem: String, index: Int)
    case emptyName(String, index: Int)
    case invalidPattern(String, value: String, problem: String)
    case invalidTags(String)
    case notNameValue(String, index: Int)
    case invalidDefineName(String, name: String, index: Int)
    case emptyProgramDefine(origin: String)
    case builtInDefine(String, name: String)
    case givenTwice(String, first: String, second: String)
    // Files.
    case cannotWrite(String, path: String, problem: String, index: Int?)
    case sameFile(first: String, second: String)
    case wouldOverwrite(output: String, input: String)
    case cannotRead(String, path: String, reason: String)
    case noSuchStub(String, path: String, index: Int)
    case notUTF8Path(String, shown: String, index: Int?)
    case noSuchPath(String, kind: String)
    case unreadablePath(String, reason: String)
    case unreadableStepFile(String, path: String, reason: String)
    case notShardTimings(String, path: String)
    case badListFile(String, problem: String)
    case walk(String)
    // Commands.
    case noProgram
    case subcommandAsProgram(String)
    case reservedWord(String)
    case unknownSubcommand(String, suggestion: String)
    case subcommandCase(String, lowered: String)
    case noHelpTopic(String, subcommands: [String])
    case needsOperands(String)
    case mockServerURLOverride(key: String, origin: String)
    case journalNeedsStub
    case httpsNeedsStub(String)
    case serverOptionNeedsStub(String)
    case httpsOptionNeedsHTTPS(String)
    case httpsPair(given: String, missing: String)
    case httpsHostWithOwnCertificate(String)
    case interceptWithOwnCertificate(String)
    case interceptProxyVariable(String)
    case invalidBackendURL(String, problem: String, index: Int)
    case recordingOptionNeeds(String, needs: String)
    case coverageOptionNeedsCoverage(String)
    case coverage(String)
    case initTakesOneDirectory([String])
    case initBadProgram(String)
    case initWouldOverwrite([String])
    case initNotAFile([String])
    case initFailed(String)

    /// The text the user sees, one line.
    package var message: String {
        switch self {
        case .unknownOption(let name, let known): "unknown option '\(name)'\(Suggestion.didYouMean(name, among: known, quote: "'"))"
        case .singleDashLongOption(let token, let long): "unknown option '\(token)'; did you mean '\(long)'?"
        case .unknownShortOption(let short, let hint): "unknown option '\(short)'\(hint)"
        case .takesNoValue(let spelling): "option '\(spelling)' takes no value; write '\(spelling)' alone"
        case .missingValue(let spelling, let placeholder): "option '\(spelling)' needs a value: \(spelling) \(placeholder)"
        case .optionAsValue(let spelling, let placeholder, let next):
            "option '\(spelling)' needs a value, and the next word '\(next.prefix { $0 != "=" })' is an option: \(spelling) \(placeholder) "
                + "(write \(spelling)=\(next.prefix { $0 != "=" }) if that word is the value)"
        case .notOneOf(let spelling, let value, let choices, let index):
            "\(spelling) '\(value)' is not one of \(choices.joined(separator: ", "))" + Self.argument(index)
        case .invalidNumber(let spelling, let problem, let index): "\(spelling) \(problem)" + Self.argument(index)
        case .invalidShard(let spelling, let value, let maxCount, let index):
            "\(spelling) '\(value.prefix(40))' is not K/N with 1 <= K <= N <= \(maxCount), like 2/8" + Self.argument(index)
        case .invalidDuration(let spelling, let value, let maxSeconds, let index):
            "\(spelling) '\(value.prefix(40))' is not a duration from 0 to \(maxSeconds) seconds; write 500ms, 30s, 2m, 1h or 1m30s"
                + Self.argument(index)
        case .invalidFlag(let spelling, let problem, let index): "\(spelling) \(problem)" + Self.argument(index)
        case .notUTF8Path(let spelling, let shown, let index):
            "\(spelling) '\(shown)' is not UTF-8, and sut-launch cannot carry such a name to the file system unchanged "
                + "(it would use another name); rename it, or give a link whose name is UTF-8" + Self.argument(index)
        case .notKeyValue(let spelling, let index):
            "\(spelling)\(Self.argument(index)) is not KEY=VALUE (no = after a name; the text is not shown: a value may be a secret)"
        case .invalidVariable(let spelling, let value, let problem, let index): "\(spelling) '\(value)': \(problem)" + Self.argument(index)
        case .emptyName(let spelling, let index): "\(spelling) needs a name" + Self.argument(index)
        case .invalidPattern(let spelling, let value, let problem): "\(spelling) '\(value)': \(problem)"
        case .invalidTags(let message): message
        case .notNameValue(let spelling, let index):
            "\(spelling)\(Self.argument(index)) is not NAME=VALUE (no =; the text is not shown: a value may be a secret)"
        case .invalidDefineName(let spelling, let name, let index):
            "\(spelling)\(Self.argument(index)): \(name.isEmpty ? "no name before =" : "'\(name.escapingControlCharacters())' is not a name")"
                + " (a letter or _, then letters, digits or _)"
        case .emptyProgramDefine(let origin): "\(origin): PROGRAM= names no program"
        case .builtInDefine(let origin, let name):
            "\(origin): \(name) is set by sut-launch for each scenario (its program gets it too); give the value another name"
        case .givenTwice(let subject, let first, let second): "\(subject) is given twice: \(first) and \(second); keep one"
        case .cannotWrite(let spelling, let path, let problem, let index):
            "\(spelling) \(path): cannot write there: \(problem)" + Self.argument(index)
        case .sameFile(let first, let second): "\(first) and \(second) name the same file; give each its own"
        case .wouldOverwrite(let output, let input): "\(output) would overwrite \(input); write it elsewhere"
        case .cannotRead(let spelling, let path, let reason): "\(spelling) \(path): cannot read the file (\(reason))"
        case .noSuchStub(let spelling, let path, let index): "\(spelling) \(path): no such file or directory" + Self.argument(index)
        case .noSuchPath(let path, let kind):
            // Over PATH_MAX open(2) says ENAMETOOLONG: the path may well exist (init makes one component at a time).
            path.utf8.count >= Self.pathLimit
                ? "\(path.prefix(120))…: the path is \(path.utf8.count) bytes, more than the \(Self.pathLimit - 1) the system opens; give a shorter path to it (from a directory nearer to it)"
                : "\(path): no such \(kind)"
        case .unreadablePath(let path, let reason): "\(path): \(reason)"
        case .unreadableStepFile(let spelling, let path, let reason): "\(spelling) \(path): \(reason)"
        case .notShardTimings(let spelling, let path):
            "\(spelling) \(path): not a JUnit file, a sut-launch test --report or Cucumber Messages with a scenario's time in it"
        case .badListFile(let spelling, let problem): "\(spelling) \(problem)"
        case .walk(let message): message
        default: commandMessage
        }
    }

    /// The messages about commands and their operands.
    private var commandMessage: String {
        switch self {
        case .noProgram: "no program given; usage: sut-launch [options] PROGRAM [ARGS...] (see sut-launch --help)"
        case .subcommandAsProgram(let name):
            "'\(name)' is a sut-launch subcommand, not a program: write its options after it (sut-launch \(name) [options] ...); "
                + "to launch a program named \(name), write: sut-launch [options] -- \(name)"
        case .reservedWord(let word): "'\(word)' is reserved for a sut-launch subcommand" + Self.escape(word)
        case .unknownSubcommand(let word, let suggestion):
            "unknown subcommand '\(word)'; did you mean 'sut-launch \(suggestion)'?" + Self.escape(word)
        case .subcommandCase(let word, let lowered):
            "unknown subcommand '\(word)'; subcommands are lower case: 'sut-launch \(lowered)'" + Self.escape(word)
        case .noHelpTopic(let topic, let subcommands):
            "no help topic '\(topic)'\(Suggestion.didYouMean(topic, among: subcommands, quote: "'", otherwise: "; topics: \(subcommands.joined(separator: ", "))"))"
        case .needsOperands(let usage): usage
        case .mockServerURLOverride(let key, let origin):
            "automation flag \"\(key)\" (\(origin)) would send the program away from the mock server this run starts; "
                + "leave it out: the program gets the server's URL"
        case .journalNeedsStub: "--journal needs a mock server: add --stub FILE"
        case .httpsNeedsStub(let option): "\(option) needs a mock server: add --stub FILE"
        case .serverOptionNeedsStub(let option): "\(option) needs a mock server: add --stub FILE"
        case .httpsOptionNeedsHTTPS(let name): "\(name) is for an HTTPS mock server: add --https"
        case .httpsPair(let given, let missing): "\(given) needs \(missing): a certificate is served with its key"
        case .invalidBackendURL(let spelling, let problem, let index): "\(spelling) \(problem)" + Self.argument(index)
        case .recordingOptionNeeds(let name, let needs): "\(name) \(needs)"
        case .coverageOptionNeedsCoverage(let name): "\(name) needs --coverage DIR, where the profiles and reports go"
        case .coverage(let problem): problem
        case .interceptProxyVariable(let name):
            "\(name) is given for the program, and --intercept sets the proxy variables itself: leave \(name) out (the mock server's own address stays off the proxy)"
        case .interceptWithOwnCertificate(let origin):
            "\(origin) answers with certificates minted for the run; --https-cert serves the user's own: leave one of them out"
        case .httpsHostWithOwnCertificate(let origin):
            "\(origin) names hosts for a minted certificate; --https-cert serves the names it holds: leave --https-host out"
        case .initTakesOneDirectory(let directories): "init takes one directory, got \(directories.joined(separator: " "))"
        case .initBadProgram(let program):
            "--program '\(program.escapingControlCharacters())': a program name for the starter is valid UTF-8 and has no control characters, no line breaks and no ${…}"
        case .initWouldOverwrite(let paths):
            "init will not overwrite \(paths.joined(separator: ", ")); choose an empty directory, or pass --force to replace them"
        case .initNotAFile(let paths):
            "init will not write over or through \(paths.joined(separator: ", ")): not a regular file; init writes through no link, even with --force (remove it, or choose another DIR)"
        case .initFailed(let message): "init: \(message)"
        default: message
        }
    }

    /// Linux's PATH_MAX: the longest path open(2) takes is one byte less (with its NUL).
    static let pathLimit = 4096

    private static func argument(_ index: Int?) -> String { index.map { " (argument \($0))" } ?? "" }
    private static func escape(_ word: String) -> String { "; to launch a program named \(word), write: sut-launch -- \(word)" }
}

extension UsageError {
    /// The usage error for `problem`, its message rendered by ``UsageProblem/message``.
    package init(_ problem: UsageProblem) { self.init(problem.message) }
}
