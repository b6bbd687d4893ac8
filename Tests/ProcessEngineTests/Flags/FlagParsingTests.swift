import AutomationHost
import AutomationSupport
import MockServer
import Testing

@testable import ProcessEngine

@Suite struct FlagAssignmentTests {
    @Test(arguments: [
        ("a=true", "a", FlagValue.bool(true)), ("n=3", "n", .int(3)), ("x=1.5", "x", .double(1.5)),
        ("s=hello world", "s", .string("hello world")), ("eq=a=b", "eq", .string("a=b")), ("empty=", "empty", .string("")),
        ("retries:=3", "retries", .int(3)), ("name:=\"007\"", "name", .string("007")), ("ids:=[1,2]", "ids", FlagValue.array([1, 2])),
        ("o:={\"k\":null}", "o", FlagValue.object(["k": .null])), ("b:=false", "b", .bool(false)),
    ])
    func parses(token: String, key: String, value: FlagValue) throws {
        let assignment = try FlagAssignment.parse(token)
        #expect(assignment.key == key)
        #expect(assignment.value == value)
    }

    @Test(arguments: [
        ("novalue", "'novalue' is not key=value or key:=JSON"),
        ("=1", "'=1' has an empty key"),
        (":=1", "':=1' has an empty key"),
        ("name:=007", "the value after := is not JSON: numbers cannot have leading zeros (a JSON string needs quotes"),
        (
            "name:=bob",
            "the value after := is not JSON: expected a JSON value, found 'b' (a JSON string needs quotes: name:='\"bob\"', or use name=bob)"
        ),
        ("ids:=[1,", "the value after := is not JSON: expected a JSON value, found end of file"),
        (
            "n=1.0000000000000000001",
            "'n=1.0000000000000000001': the number 1.0000000000000000001 has more digits than a double keeps (it would read as 1.0); "
                + "send it as text with n:='\"1.0000000000000000001\"'"
        ),
        ("n:=1e-400", "the number 1e-400 has more digits than a double keeps (it would read as 0.0)"),
    ])
    func rejectsWithTheTokenNamed(token: String, message: String) {
        #expect {
            try FlagAssignment.parse(token)
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }
}

@Suite struct DotEnvTests {
    @Test func readsTheUsualSyntax() throws {
        let text = """
            # a comment
            PLAIN=value
            export EXPORTED=yes
              SPACED = padded value   # trailing comment
            SINGLE='literal $HOME \\n # not a comment'
            DOUBLE="line1\\nline2 \\"quoted\\""
            MULTI="first
            second"
            EMPTY=
            URL=http://x/#anchor
            """
        let values = try DotEnv.parse(text, file: ".env")
        let map = Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(map["PLAIN"] == "value")
        #expect(map["EXPORTED"] == "yes")
        #expect(map["SPACED"] == "padded value")
        #expect(map["SINGLE"] == "literal $HOME \\n # not a comment")
        #expect(map["DOUBLE"] == "line1\nline2 \"quoted\"")
        #expect(map["MULTI"] == "first\nsecond")
        #expect(map["EMPTY"] == "")
        #expect(map["URL"] == "http://x/#anchor")
    }

    /// A file saved on Windows (CRLF, a byte order mark) or an old Mac (lone CR) holds the same variables: CR LF
    /// is one Character in Swift, so a split on "\n" saw one long line and gave A the whole file as its value.
    @Test func everyLineEndingAndAByteOrderMarkReadTheSame() throws {
        for text in ["\u{FEFF}A=1\r\nB=\"two\r\nlines\"\r\n", "A=1\rB=\"two\rlines\"\r", "A=1\nB=\"two\nlines\"\n"] {
            let values = try DotEnv.parse(text, file: ".env")
            #expect(values.map(\.key) == ["A", "B"], "\(text.debugDescription)")
            #expect(values.map(\.value) == ["1", "two\nlines"], "\(text.debugDescription)")
        }
        #expect(throws: InputError.self) { try DotEnv.parse("A=1\r\nB=x\u{0}y\r\n", file: ".env") }
    }

    @Test(arguments: [
        // r12 R12-1: a line of one word (a PEM body line, a value continued with `\`) may be a secret whole: counted only.
        ("JUSTAKEY", ".env:1: expected KEY=value, found a line of 8 characters (not shown: it may be a secret)"),
        // r14 R14-6: nothing but blanks, a `:` or a comment after the word: it may be the secret itself.
        ("s3cr3tWord \t", ".env:1: expected KEY=value, found a line of 12 characters (not shown: it may be a secret)"),
        ("s3cr3tWord:", ".env:1: expected KEY=value, found a line of 11 characters (not shown: it may be a secret)"),
        ("ghp_s3cr3t # prod token", ".env:1: expected KEY=value, found a line of 23 characters (not shown: it may be a secret)"),
        (
            "A=1\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSj+Ag/s3cr3t",
            ".env:2: expected KEY=value, found a line of 50 characters (not shown: it may be a secret)"
        ),
        ("OK=1\n1BAD=2", ".env:2: '1BAD' is not a valid variable name (letters, digits, _; not starting with a digit)"),
        // r11 R11-3: a line that is not KEY=value shows its leading name, the rest counted (the YAML habit held a secret).
        (
            "API_TOKEN: s3cr3tValue",
            ".env:1: expected KEY=value, found 'API_TOKEN' and 13 more characters (not shown: a value may be a secret)"
        ),
        (
            "export API_TOKEN s3cr3t",
            ".env:1: expected KEY=value, found 'API_TOKEN' and 7 more characters (not shown: a value may be a secret)"
        ),
        (
            "API_TOKEN: s3cr3t=x",
            ".env:1: 'API_TOKEN' and 8 more characters (not shown: a value may be a secret) is not a valid variable name (letters, digits, _; not starting with a digit)"
        ),
        ("Q='open", ".env:1: unterminated single quote in the value of Q"),
        ("Q=\"open\nstill", ".env:1: unterminated double quote in the value of Q"),
        // R10C-6: the text after the quotes is part of a value, which may be a secret: counted, never shown.
        (
            "Q=\"hunter2\"s3cr3tTail",
            ".env:1: unexpected text after the quoted value of Q (10 characters, not shown: a value may be a secret): put the whole value in the quotes, and a # before a comment"
        ),
    ])
    func errorsNameFileAndLine(text: String, message: String) {
        #expect {
            try DotEnv.parse(text, file: ".env")
        } throws: { error in
            (error as? InputError)?.description == message
        }
    }
}

/// R10C-5: escapes python-dotenv reads otherwise than sut-launch (`"\${HOME}"` is a backslash and the expanded HOME
/// there; `\'` a quote; `\a \b \f \v` control characters), and an unquoted value with U+2028 or NBSP at an end (python
/// strips it), passed one of the two values in silence; each is exit 3 at its line now, never quoting the value.
@Suite struct DotEnvDisagreementTests {
    @Test(arguments: [
        "TOKEN=\"\\${HOME}\"", "TOKEN=\"a\\$\\$b\"", "TOKEN=\"a\\'b\"", "TOKEN=\"a\\ab\"", "TOKEN=\"a\\bb\"", "TOKEN=\"a\\fb\"",
        "TOKEN=\"a\\vb\"", "TOKEN=\u{2028}s3cr3t", "TOKEN=s3cr3t\u{A0}",
    ])
    func whatPythonDotenvReadsOtherwiseIsRefusedAtItsLine(text: String) {
        #expect {
            try DotEnv.parse("A=1\n" + text, file: ".env")
        } throws: { error in
            let description = (error as? InputError)?.description ?? ""
            return description.hasPrefix(".env:2: ") && description.contains("TOKEN") && !description.contains("s3cr3t")
        }
    }

    @Test func escapesBothReadAlikeStillWork() throws {
        let values = try DotEnv.parse(#"A="x\ny\t\"\\z\d""# + "\nB='${HOME} a$$b'\nC= plain ", file: ".env")
        #expect(values.map(\.value) == ["x\ny\t\"\\z\\d", "${HOME} a$$b", "plain"])
    }
}

@Suite struct FlagsFileTests {
    @Test func readsAllThreeSections() throws {
        let file = try FlagsFile.parse(#"{"featureFlags":{"a":true},"automationFlags":{"b":[1]},"env":{"K":"v","N":"3"}}"#, file: "f.json")
        #expect(file.featureFlags == ["a": true])
        #expect(file.automationFlags == ["b": [1]])
        #expect(file.environment == ["K": "v", "N": "3"])
    }

    @Test(arguments: [
        ("{\n  \"featureFlag\": {}\n}", "f.json:2:3: unknown key \"featureFlag\"; did you mean \"featureFlags\"?"),
        ("[]", "f.json:1:1: expected an object with \"featureFlags\", \"automationFlags\" and \"env\", found a JSON array"),
        ("{\"featureFlags\": []}", "f.json:1:18: \"featureFlags\" must be an object of flags, found a JSON array"),
        ("{\"env\": {\"K\": {}}}", "f.json:1:15: env \"K\" must be a string, found a JSON object"),
        // C2: what -f/-a/-e refuse is refused here too (a number was turned into text while null was refused).
        ("{\"env\": {\"K\": 3}}", "f.json:1:15: env \"K\" must be a string, found a JSON number (write it in quotes, as -e gives it)"),
        ("{\"featureFlags\": {\"\": 1}}", "f.json:1:19: featureFlags: a flag's key is empty (as in -f '=1'); name the flag"),
        (
            "{\"featureFlags\": {\"a\": -0}}",
            "f.json:1:24: the integer -0 is 0 and would lose its sign; write 0, or -0.0 for a negative zero"
        ),
        ("{\"env\": ", "f.json:1:9: expected a JSON value, found end of file"),
    ])
    func errorsNameFileLineAndKey(text: String, message: String) {
        #expect {
            try FlagsFile.parse(text, file: "f.json")
        } throws: { error in
            (error as? InputError)?.description == message
        }
    }
}

@Suite struct DurationParserTests {
    @Test(arguments: [
        ("500ms", 0.5), ("30s", 30.0), ("2m", 120.0), ("1.5h", 5400.0), ("7", 7.0), ("0", 0.0), ("0.25s", 0.25),
        ("1000000000", 1e9),
    ])
    func parses(text: String, seconds: Double) {
        #expect(DurationParser.parse(text)?.seconds == seconds)
    }

    // The long ones were found by fuzzing: they overflowed Duration's Int64 nanoseconds and trapped.
    @Test(arguments: ["", "ms", "-1s", "abc", "1d", "1 s", "1e3s", "8888888888888888888888888888", "16666667m", "277778h"])
    func rejects(text: String) {
        #expect(DurationParser.parse(text) == nil)
    }
}
