import AutomationHost
import Foundation
import Testing

extension AutomationBridge {
    // A user extension, as the README teaches.
    fileprivate var simulateUserAlreadyLoggedIn: Bool { automationConfiguration.bool("simulateUserAlreadyLoggedIn") ?? false }
}

@Suite struct AutomationBridgeTests {
    private func bridge(_ ephemeral: [String: FlagValue] = [:], _ automation: [String: FlagValue] = [:], args: [String] = [])
        -> AutomationBridge
    {
        AutomationBridge(
            arguments: ["/bin/app"] + WireFormat.launchArguments(ephemeral: ephemeral, automation: automation) + args,
            environment: [:])
    }

    @Test func typedAccessorsReadTheirOwnTypeOnly() {
        let flags = bridge(["b": true, "i": 3, "d": 2.5, "s": "x", "whole": 4.0]).ephemeralConfiguration
        #expect(flags.bool("b") == true)
        #expect(flags.bool("s") == nil)
        #expect(flags.int("i") == 3)
        #expect(flags.int("d") == nil)
        #expect(flags.int("whole") == 4)
        #expect(flags.double("i") == 3)
        #expect(flags.string("s") == "x")
        #expect(flags.string("i") == nil)
        #expect(flags.bool("missing") == nil)
        #expect(flags.contains("b"))
        #expect(flags.keys == ["b", "d", "i", "s", "whole"])
    }

    @Test func codableDecode() throws {
        struct User: Decodable, Equatable {
            var name: String
            var ids: [Int]
        }
        let flags = bridge([:], ["user": ["name": "Ada", "ids": [1, 2]]]).automationConfiguration
        #expect(try flags.decode("user", as: User.self) == User(name: "Ada", ids: [1, 2]))
        #expect(try flags.decode("absent", as: User.self) == nil)
        #expect(throws: (any Error).self) { try flags.decode("user", as: Int.self) }
    }

    @Test func userExtensionsReadThroughTheBridge() {
        #expect(bridge([:], ["simulateUserAlreadyLoggedIn": true]).simulateUserAlreadyLoggedIn)
        #expect(!bridge().simulateUserAlreadyLoggedIn)
    }

    @Test func argumentsLeaveOutTheMarshalledEntries() {
        let subject = bridge(["a": 1], ["b": 2], args: ["login", "--verbose"])
        #expect(subject.arguments == ["/bin/app", "login", "--verbose"])
        #expect(subject.launchArgumentsContain("UI_TEST_MODE"))
        #expect(subject.launchArgumentsContain("--verbose"))
        #expect(!subject.launchArgumentsContain("--quiet"))
    }

    @Test func mockServerURLAndEntryPoint() {
        let subject = bridge([:], ["mockServerURL": "http://127.0.0.1:8080", "entryPoint": "search"])
        #expect(subject.mockServerURL?.absoluteString == "http://127.0.0.1:8080")
        #expect(subject.entryPoint == "search")
        let fromEnvironment = AutomationBridge(
            arguments: ["app"], environment: ["SUT_UNDER_TEST": "1", "SUT_MOCK_SERVER_URL": "http://127.0.0.1:9"])
        #expect(fromEnvironment.mockServerURL?.port == 9)
        // Not under test (R9C-2): a URL left in the environment is not read.
        let left = AutomationBridge(arguments: ["app"], environment: ["SUT_MOCK_SERVER_URL": "http://127.0.0.1:9"])
        #expect(!left.isUnderTest && left.mockServerURL == nil)
    }

    @Test func malformedInputIsRecordedNotFatal() {
        let subject = AutomationBridge(arguments: ["app", "UI_TEST_MODE", "EPHEMERAL_[1]", "AUTOMATION_{"], environment: [:])
        #expect(subject.problems.count == 2)
        #expect(subject.ephemeralConfiguration.values.isEmpty)
        #expect(subject.isUnderTest)
    }

    @Test func entryPointsRunTheNamedOneOrTheDefault() throws {
        var ran: [String] = []
        var entryPoints = EntryPoints()
        entryPoints.register("search") { ran.append("search") }
        try entryPoints.run(bridge([:], ["entryPoint": "search"])) { ran.append("default") }
        try entryPoints.run(bridge()) { ran.append("default") }
        #expect(ran == ["search", "default"])
        let error = #expect(throws: EntryPoints.UnknownEntryPoint.self) {
            try entryPoints.run(self.bridge([:], ["entryPoint": "serch"])) {}
        }
        #expect(error?.description == "unknown entry point \"serch\"; known entry points: search")
    }

    /// A lone argv[1] `UI_TEST_MODE` that no wire-format launch sent is the program's own argument: run by hand, or
    /// under test with no flags (`SUT_EPHEMERAL={}`), it stays in `arguments` (both lost it). sut-launch's own lone
    /// marker (`--flags-in args`, and `both` with no flags, which travels as `args`) comes with `SUT_UNDER_TEST=1` alone.
    @Test func aLoneTestModeArgumentStaysUnlessTheWireSentIt() {
        // The seed toolkit's marker alone (no SUT_ variables) is test mode with no flags, as that toolkit sends it.
        let seedAlone = AutomationBridge(arguments: ["app", "UI_TEST_MODE"], environment: [:])
        #expect(seedAlone.arguments == ["app"] && seedAlone.isUnderTest)
        let empty = ["SUT_UNDER_TEST": "1", "SUT_EPHEMERAL": "{}", "SUT_AUTOMATION": "{}"]
        let noFlags = AutomationBridge(arguments: ["app", "UI_TEST_MODE", "x"], environment: empty)
        #expect(noFlags.arguments == ["app", "UI_TEST_MODE", "x"] && noFlags.isUnderTest)
        let wire = AutomationBridge(arguments: ["app", "UI_TEST_MODE", "x"], environment: ["SUT_UNDER_TEST": "1"])
        #expect(wire.arguments == ["app", "x"] && wire.isUnderTest)
        // The seed toolkit's layout (no SUT_ variables) carries flags after the marker: still the wire.
        let seed = AutomationBridge(arguments: ["app", "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"], environment: [:])
        #expect(seed.arguments == ["app", "x"] && seed.ephemeralConfiguration.int("a") == 1)
    }

    /// R9C-2: the environment's endpoints (`SUT_CONTROL_URL`, `SUT_MOCK_SERVER_URL`) are read only with the launcher's
    /// `SUT_UNDER_TEST=1`: not by a program run by hand, nor in the seed layout, where argv's `mockServerURL` counts alone.
    @Test func endpointsLeftInTheEnvironmentAreReadOnlyWithTheLaunchersMark() {
        let left = ["SUT_CONTROL_URL": "http://127.0.0.1:9/", "SUT_MOCK_SERVER_URL": "http://127.0.0.1:8"]
        let byHand = AutomationBridge(arguments: ["/bin/app", "listen"], environment: left)
        #expect(byHand.mockServerURL == nil && byHand.controlURL == nil && ControlChannel(byHand) == nil)
        let seed = AutomationBridge(arguments: ["/bin/app", "UI_TEST_MODE", "listen"], environment: left)
        #expect(seed.isUnderTest && seed.mockServerURL == nil && seed.controlURL == nil && ControlChannel(seed) == nil)
        let seedURL = AutomationBridge(
            arguments: ["/bin/app"] + WireFormat.launchArguments(ephemeral: [:], automation: ["mockServerURL": "http://127.0.0.1:7"]),
            environment: left)
        #expect(seedURL.mockServerURL?.absoluteString == "http://127.0.0.1:7" && ControlChannel(seedURL)?.port == 7)
        let marked = AutomationBridge(arguments: ["/bin/app"], environment: left.merging(["SUT_UNDER_TEST": "1"]) { a, _ in a })
        #expect(marked.mockServerURL?.absoluteString == "http://127.0.0.1:8" && ControlChannel(marked)?.port == 9)
    }
}
