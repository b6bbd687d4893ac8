#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
/// The program-under-test side of sut-launch: reads the marshalled flags once and exposes them typed.
///
/// ```swift
/// let bridge = AutomationBridge.shared
/// if bridge.ephemeralConfiguration.bool("skipPreActiveCheck") == true { ... }
/// ```
/// Extend it with your own computed flags:
/// ```swift
/// extension AutomationBridge {
///     var simulateUserAlreadyLoggedIn: Bool { automationConfiguration.bool("simulateUserAlreadyLoggedIn") ?? false }
/// }
/// ```
/// A malformed marshalled value never crashes the program: it lands in ``problems`` and one line goes to stderr.
public final class AutomationBridge: Sendable {
    /// The bridge for this process, read from `ProcessInfo` on first use.
    public static let shared = AutomationBridge(
        arguments: ProcessInfo.processInfo.arguments, environment: ProcessInfo.processInfo.environment,
        notUTF8: WireFormat.NotUTF8(
            arguments: RawProcessText.invalidArgumentIndices(),
            variables: RawProcessText.invalidVariables([WireFormat.ephemeralVariable, WireFormat.automationVariable])),
        reportsProblems: true)

    /// True when the program runs under sut-launch (or another launcher using the same wire format).
    public let isUnderTest: Bool
    /// Feature flags (`--flag`, the `EPHEMERAL` kind).
    public let ephemeralConfiguration: FlagConfiguration
    /// Automation flags (`--automation`, the `AUTOMATION` kind).
    public let automationConfiguration: FlagConfiguration
    /// argv without the marshalled entries; `arguments[0]` is the program path.
    public let arguments: [String]
    /// The full argv as received.
    public let launchArguments: [String]
    /// Marshalled values that could not be read. Empty in a healthy run.
    public let problems: [WireFormatProblem]
    /// The environment the bridge was read from.
    public let environment: [String: String]

    /// Reads a bridge from explicit argv and environment (tests, or programs that filter their own).
    /// - Parameter reportsProblems: print one line per problem to stderr, and one per flag read as another type.
    public convenience init(arguments: [String], environment: [String: String], reportsProblems: Bool = false) {
        self.init(arguments: arguments, environment: environment, notUTF8: WireFormat.NotUTF8(), reportsProblems: reportsProblems)
    }

    /// Reads a bridge, `notUTF8` naming the values that were not UTF-8 before Swift repaired them.
    init(arguments: [String], environment: [String: String], notUTF8: WireFormat.NotUTF8, reportsProblems: Bool) {
        let received = WireFormat.decode(arguments: arguments, environment: environment, notUTF8: notUTF8)
        self.isUnderTest = received.isUnderTest
        self.ephemeralConfiguration = FlagConfiguration(received.ephemeral, reportsMistypesAs: reportsProblems ? "feature flag" : nil)
        self.automationConfiguration = FlagConfiguration(received.automation, reportsMistypesAs: reportsProblems ? "automation flag" : nil)
        self.arguments = received.arguments
        self.launchArguments = arguments
        self.problems = received.problems
        self.environment = environment
        if reportsProblems {
            for problem in received.problems {
                HostStandardError.write("AutomationBridge: ignoring \(problem)\n")
            }
        }
    }

    /// True when argv contains exactly this argument.
    public func launchArgumentsContain(_ argument: String) -> Bool { launchArguments.contains(argument) }

    /// The mock server's base URL (`AUTOMATION.mockServerURL`, else `SUT_MOCK_SERVER_URL`), if one runs; nil when not
    /// under test. `SUT_MOCK_SERVER_URL` counts only when the launcher set the environment (`SUT_UNDER_TEST=1`): one left
    /// exported by a shell or CI job must not send a program's requests elsewhere.
    public var mockServerURL: URL? { mockServerURLText.flatMap { URL(string: $0) } }

    /// Where ``ControlChannel`` talks to the test: `SUT_CONTROL_URL`, else the mock server's URL; nil when neither is set
    /// or the program is not under test. `SUT_CONTROL_URL` counts only when the launcher set the environment
    /// (`SUT_UNDER_TEST=1`).
    public var controlURL: URL? { controlURLText.flatMap { URL(string: $0) } }

    /// The text of ``mockServerURL``: the flags' `mockServerURL`, else the launcher's environment's.
    var mockServerURLText: String? {
        guard isUnderTest else { return nil }
        return automationConfiguration.string(WireFormat.mockServerURLKey) ?? launcherEnvironment[WireFormat.mockServerURLVariable]
    }

    /// The text of ``controlURL``.
    var controlURLText: String? { launcherEnvironment[WireFormat.controlURLVariable] ?? mockServerURLText }

    /// The environment's `SUT_*` endpoints are the launcher's only when it set `SUT_UNDER_TEST=1`; otherwise (not under
    /// test, or the seed layout's `UI_TEST_MODE` alone) none is read (R9C-2: a program run by hand polled an exported
    /// SUT_CONTROL_URL and applied `flag set` from it).
    private var launcherEnvironment: [String: String] {
        environment[WireFormat.underTestVariable] == "1" ? environment : [:]
    }

    /// The entry point a test selected with `--entry-point NAME`, if any.
    public var entryPoint: String? { automationConfiguration.string(WireFormat.entryPointKey) }
}
