import AutomationHost
import MockServer
import ProcessEngine
import Testing

/// The launch plan is built once; the mock server's URL reaches the launch only through `request(mockServerURL:)`.
@Suite struct LaunchPlanTests {
    private let caller = ["PATH": "/usr/bin:/bin", "HOME": "/root", "NO_PROXY": "corp.example"]

    @Test func theServersURLJoinsTheRequestNotThePlan() {
        let plan = LaunchPlan(program: "prog", arguments: ["x"], flags: LaunchFlags(featureFlags: ["a": 1]), callerEnvironment: caller)
        let served = plan.request(mockServerURL: "http://127.0.0.1:9")
        #expect(served.arguments == ["UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, #"AUTOMATION_{"mockServerURL":"http://127.0.0.1:9"}"#, "x"])
        #expect(served.environment[WireFormat.mockServerURLVariable] == "http://127.0.0.1:9")
        #expect(served.environment["NO_PROXY"] == "corp.example,127.0.0.1,localhost")
        // One list for both spellings: curl reads no_proxy first.
        #expect(served.environment["no_proxy"] == "corp.example,127.0.0.1,localhost")
        let alone = plan.request(mockServerURL: nil)
        #expect(alone.arguments == ["UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "x"])
        #expect(alone.environment[WireFormat.mockServerURLVariable] == nil)
        #expect(alone.environment["NO_PROXY"] == "corp.example")
    }

    @Test func aUsersMockServerURLFlagIsKept() {
        let flags = LaunchFlags(automationFlags: ["mockServerURL": "http://elsewhere"], entryPoint: "search")
        #expect(
            flags.sentAutomationFlags(mockServerURL: "http://127.0.0.1:9") == ["mockServerURL": "http://elsewhere", "entryPoint": "search"])
        #expect(flags.channel == .both)
        #expect(LaunchFlags().channel == .env)
        #expect(LaunchFlags(flagsFileGiven: true).channel == .both)
    }

    @Test func theRequestCarriesPlacementTerminalAndCapture() {
        let plan = LaunchPlan(
            program: "prog", workingDirectory: "/tmp", standardInput: .pipe, terminal: TerminalSize(columns: 100, rows: 30),
            backend: .foundation, forwardsOutput: false, captureLimit: 1024, spoolDirectory: "/tmp")
        let request = plan.request(mockServerURL: nil)
        #expect(request.workingDirectory == "/tmp" && request.terminal == TerminalSize(columns: 100, rows: 30))
        #expect(
            request.backend == .foundation && !request.forwardsOutput && request.captureLimit == 1024 && request.spoolDirectory == "/tmp")
        #expect(
            request.environment == [
                WireFormat.underTestVariable: "1", WireFormat.ephemeralVariable: "{}", WireFormat.automationVariable: "{}",
            ])
    }

    /// A real run: the server plan's server starts, its URL reaches the program, the report says so.
    @Test func aRunStartsThePlannedServerAndHandsItsURLToTheProgram() {
        let launch = LaunchPlan(program: "/bin/true", callerEnvironment: caller, forwardsOutput: false)
        let plan = RunPlan(launch: launch, server: ServerPlan(stubs: StubSet(), port: 0), settings: RunSettings(quiet: true))
        let outcome = Runner.run(plan)
        #expect(outcome.exitCode == 0)
        let url = outcome.report.mockServer?.url
        #expect(url?.hasPrefix("http://127.0.0.1:") == true)
        #expect(outcome.report.automationFlags[WireFormat.mockServerURLKey] == url.map { .string($0) })
        #expect(outcome.report.environmentKeys.contains(WireFormat.mockServerURLVariable))
    }
}
