import AutomationHost
import Foundation
import Testing

@Suite struct FlagStackTests {
    @Test func higherLayersWinAndNameTheirSource() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flagstack-\(UUID().uuidString).json")
        try Data(#"{"greeting":"file","retries":2,"fileOnly":true}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stack = FlagStack([
            .configuration("ephemeral", FlagConfiguration(["greeting": "hi"])),
            .environment(prefix: "MYAPP_", ["MYAPP_retries": "5", "MYAPP_verbose": "true", "OTHER": "x"]),
            try .jsonFile(file.path),
            .defaults(["greeting": "hello", "timeout": 1.5]),
        ])
        #expect(stack.string("greeting") == "hi")
        #expect(stack.source(of: "greeting") == "ephemeral")
        #expect(stack.int("retries") == 5)
        #expect(stack.source(of: "retries") == "environment")
        #expect(stack.bool("verbose") == true)
        #expect(stack.bool("fileOnly") == true)
        #expect(stack.double("timeout") == 1.5)
        #expect(stack.value("OTHER") == nil)
        #expect(stack.source(of: "missing") == nil)
    }

    /// Finding r6a-13: `flag set greeting:=5` over `-f greeting=hi` was applied, yet `string("greeting")` read back
    /// the lower layer's "hi". The first layer holding a key decides; another type there is nil (the default applies).
    @Test func theFirstLayerHoldingAKeyDecidesEvenWhenMistyped() {
        let stack = FlagStack([.defaults(["n": "not a number"]), .defaults(["n": 3])])
        #expect(stack.int("n") == nil)
        #expect(stack.string("n") == "not a number")
        let runtime = RuntimeFlags()
        let launch = FlagStack.Layer(name: "launch", values: ["greeting": "hi"])
        for command in ["flag set greeting:=5", "flag set greeting:=null"] {
            #expect(runtime.apply(ControlCommand(command)!))
            #expect(FlagStack([.runtime(runtime), launch]).string("greeting") == nil, "\(command)")
        }
        runtime.clear("greeting")
        #expect(FlagStack([.runtime(runtime), launch]).string("greeting") == "hi")
    }

    @Test func aBrokenJSONFileThrows() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flagstack-\(UUID().uuidString).json")
        try Data("[1]".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: WireFormatProblem.self) { try FlagStack.Layer.jsonFile(file.path) }
    }

    @Test(arguments: [
        ("true", FlagValue.bool(true)), ("false", .bool(false)), ("42", .int(42)), ("-3", .int(-3)),
        ("1.5", .double(1.5)), ("-0.25", .double(-0.25)), ("2.5e3", .double(2500)), ("007", .string("007")),
        ("True", .string("True")), ("1.", .string("1.")), (".5", .string(".5")), ("inf", .string("inf")),
        ("nan", .string("nan")), ("", .string("")), ("a=b", .string("a=b")), ("99999999999999999999", .string("99999999999999999999")),
    ])
    func inferenceFollowsTheDocumentedRules(text: String, expected: FlagValue) {
        #expect(FlagValue.inferred(from: text) == expected)
    }
}

@Suite struct ControlCommandTests {
    @Test(arguments: [
        ("entryPoint albums", ControlCommand.entryPoint("albums")),
        ("flag set greeting=ciao", .setFlag("greeting", "ciao")),
        ("flag set retries=3", .setFlag("retries", 3)),
        ("flag set dark=true", .setFlag("dark", true)),
        (#"flag set code:="007""#, .setFlag("code", "007")),
        (#"flag set user:={"name":"ada","tags":[1,2]}"#, .setFlag("user", ["name": "ada", "tags": [1, 2]])),
        ("flag clear greeting", .clearFlag("greeting")),
    ])
    func builtInMessagesParseAndPrintBack(text: String, command: ControlCommand) {
        #expect(ControlCommand(text) == command)
        #expect(ControlCommand(command.text) == command)
    }

    /// R8C-7: a command with a BOM before it or a Unicode space (NBSP, U+3000) after its first word was answered `ok`
    /// as an ordinary message, with nothing done; an ordinary message that only starts alike stays one.
    @Test(arguments: [
        "flag\u{A0}set greeting=nbsp", "\u{FEFF}flag set greeting=bom", "entryPoint\u{A0}search", "flag\u{3000}set greeting=x",
        "\u{FEFF}entryPoint a", "flag\u{2003}clear k",
    ])
    func aCommandWithAByteOrderMarkOrAnotherSpaceIsAProblem(text: String) {
        #expect(ControlCommand(text) == nil)
        let problem = ControlCommand.problem(text)
        #expect(problem?.contains("a space other than U+0020") == true, "\(String(describing: problem))")
        #expect(ControlCommand.problem("flagship\u{A0}ahoy") == nil)
        #expect(ControlCommand.problem("\u{FEFF}hello") == nil)
    }

    /// R9C-5: other invisible characters (Unicode Cf, default-ignorable) before or inside the first word, or in a key,
    /// were an ordinary message (`ok`, nothing done) or another key; each is a problem naming it.
    @Test(arguments: [
        "\u{200B}flag set greeting=zwsp", "\u{2060}flag set greeting=wj", "\u{AD}flag set greeting=shy", "flag\u{200B} set k=1",
        "\u{200E}flag set greeting=lrm", "\u{200B}entryPoint search", "flag set gree\u{200B}ting=x", "flag clear k\u{2060}",
        // R10C-15: C0 controls and DEL alike.
        "flag\u{0} set greeting=y", "\u{0}flag set greeting=y", "flag\u{1} set greeting=y", "fl\u{7F}ag set greeting=y",
        "entryPoint\u{0} search", "flag clear greeting\u{0}", "flag clear greeting\u{7F}", "flag set greeting\u{0}=z",
    ])
    func aCommandWithAnInvisibleCharacterIsAProblem(text: String) {
        #expect(ControlCommand(text) == nil)
        let problem = ControlCommand.problem(text)
        // Shown escaped (`\u{200B}`; NUL as `\0`), never raw.
        #expect(
            (problem?.contains("\\u{") == true || problem?.contains("\\0") == true)
                && problem?.unicodeScalars.contains(where: {
                    [Unicode.GeneralCategory.format, .control].contains($0.properties.generalCategory)
                }) == false,
            "\(String(describing: problem))")
        #expect(ControlCommand.problem("\u{200B}hello") == nil)
    }

    /// R10C-3: compatibility forms of the command word (the ligature `ﬂ`, fullwidth letters, a combining mark, a
    /// mathematical letter) were an ordinary message, acknowledged `ok` with nothing done; each is a problem naming it.
    @Test(arguments: [
        "\u{FB02}ag set greeting=lig", "\u{FF46}\u{FF4C}\u{FF41}\u{FF47} set greeting=fw", "flag\u{301} set greeting=comb",
        "entry\u{FF30}oint search", "\u{1D41F}lag set k=1", "\u{24D5}lag clear k",
    ])
    func aCommandWordInACompatibilityFormIsAProblem(text: String) {
        #expect(ControlCommand(text) == nil)
        let problem = ControlCommand.problem(text)
        #expect(problem?.contains("not a built-in command as written (U+") == true, "\(String(describing: problem))")
        #expect(ControlCommand.problem("\u{FB01}sh and chips") == nil) // a ligature in another word is an ordinary message
    }

    @Test func stringsThatWouldReadAsOtherTypesTravelAsJSON() {
        for value: FlagValue in ["true", "42", "two words", "a=b", ""] {
            let command = ControlCommand.setFlag("k", value)
            #expect(ControlCommand(command.text) == command, "\(command.text)")
        }
    }

    @Test(arguments: [
        "refresh", "entryPoint", "entryPoint a b", "flag set", "flag set =1", "flag set k:=nope", "flag clear", "flag toggle k",
        // C13: the CLI's number rule and one space between words.
        "entryPoint  a", "entryPoint a ", " entryPoint a", "entryPoint a\tb", "flag  set k=1", "flag set k:=1e-400", "flag set k:=-1e-400",
        "flag set k:=1.0000000000000000001", "flag set k=1.0000000000000000001", "flag set k:=-0", "flag set k:=[-0]",
    ])
    func otherMessagesAreNotCommands(text: String) {
        #expect(ControlCommand(text) == nil)
    }

    @Test func runtimeFlagsAreTheTopLayer() {
        let runtime = RuntimeFlags()
        let base = FlagStack.Layer.defaults(["greeting": "hello"])
        #expect(runtime.apply(.setFlag("greeting", "ciao")))
        #expect(FlagStack([.runtime(runtime), base]).string("greeting") == "ciao")
        #expect(FlagStack([.runtime(runtime), base]).source(of: "greeting") == "runtime")
        #expect(runtime.apply(.clearFlag("greeting")))
        #expect(FlagStack([.runtime(runtime), base]).string("greeting") == "hello")
        #expect(!runtime.apply(.entryPoint("albums")))
    }
}
