package import AutomationHost

/// The flags of one launch and where they travel: what `-f`, `-a`, `--entry-point`, `--flags-file` and
/// `--flags-in` asked for, marshalled into argv and the environment only when the launch is made, so the mock
/// server's URL (known once it listens) joins the automation flags without changing this value.
package struct LaunchFlags: Sendable {
    /// Feature flags (`--flag`): travel as `EPHEMERAL`.
    package let featureFlags: [String: FlagValue]
    /// Automation flags (`--automation`): travel as `AUTOMATION`.
    package let automationFlags: [String: FlagValue]
    /// Entry point for the program (`AUTOMATION.entryPoint`).
    package let entryPoint: String?
    /// Where flags travel: launch arguments, environment, or both; nil: the automatic choice (``channel``).
    package let flagsIn: WireFormat.Channel?
    /// A flags file was given (even one without flags): flags were asked for.
    package let flagsFileGiven: Bool

    /// Flags as given; no flags by default.
    package init(
        featureFlags: [String: FlagValue] = [:], automationFlags: [String: FlagValue] = [:], entryPoint: String? = nil,
        flagsIn: WireFormat.Channel? = nil, flagsFileGiven: Bool = false
    ) {
        self.featureFlags = featureFlags
        self.automationFlags = automationFlags
        self.entryPoint = entryPoint
        self.flagsIn = flagsIn
        self.flagsFileGiven = flagsFileGiven
    }

    /// Why automation flag `key` cannot be `value`: `entryPoint` and `mockServerURL` are read by the program as
    /// non-empty strings, so any other JSON (`-a entryPoint:=5`, `null`) could never take effect; nil when it can.
    package static func automationProblem(key: String, value: FlagValue) -> String? {
        guard [WireFormat.entryPointKey, WireFormat.mockServerURLKey].contains(key) else { return nil }
        if case .string(let text) = value, !text.isEmpty { return nil }
        return "\(key) must be a non-empty string (the program reads it as one); write \(key)=VALUE"
    }

    /// True when a feature flag, automation flag, flags file or entry point was given.
    package var asked: Bool {
        flagsFileGiven || !featureFlags.isEmpty || !automationFlags.isEmpty || entryPoint != nil
    }

    /// Where flags travel: ``flagsIn``, else both when flags were asked for (``asked``), the environment only
    /// otherwise, so argv reaches the program as written.
    package var channel: WireFormat.Channel {
        flagsIn ?? (asked ? .both : .env)
    }

    /// The automation flags as sent: the given ones plus `entryPoint` and, when a mock server runs and the
    /// flags do not name one, its URL.
    package func sentAutomationFlags(mockServerURL: String?) -> [String: FlagValue] {
        var flags = automationFlags
        if let entryPoint { flags[WireFormat.entryPointKey] = .string(entryPoint) }
        if let mockServerURL, flags[WireFormat.mockServerURLKey] == nil { flags[WireFormat.mockServerURLKey] = .string(mockServerURL) }
        return flags
    }

    /// The launch arguments that go before the program's own `programArguments` (none when flags travel in the
    /// environment only). Where the Host library reads them by position (``sentChannel(mockServerURL:)`` is `args`), a
    /// program's own first argument `EPHEMERAL_…`/`AUTOMATION_…` never stands in an open slot of the block
    /// (``WireFormat/positionalArguments(ephemeral:automation:before:)``, R10C-12).
    package func arguments(mockServerURL: String?, programArguments: [String] = []) -> [String] {
        guard channel != .env else { return [] }
        let automation = sentAutomationFlags(mockServerURL: mockServerURL)
        guard sentChannel(mockServerURL: mockServerURL) == .args else {
            return WireFormat.launchArguments(ephemeral: featureFlags, automation: automation)
        }
        return WireFormat.positionalArguments(ephemeral: featureFlags, automation: automation, before: programArguments.first)
    }

    /// Where the flags travel as sent: ``channel``, but `both` with no flag of either kind travels as `args` (no flag
    /// variables, ``environment(mockServerURL:)``). The report's `flagsIn`.
    package func sentChannel(mockServerURL: String?) -> WireFormat.Channel {
        guard channel == .both, featureFlags.isEmpty, sentAutomationFlags(mockServerURL: mockServerURL).isEmpty else { return channel }
        return .args
    }

    /// The variables that carry the flags (`SUT_UNDER_TEST` alone when they travel in launch arguments only). `both`
    /// with no flag of either kind travels as `args` does: `SUT_EPHEMERAL={}` and `SUT_AUTOMATION={}` beside a lone
    /// `UI_TEST_MODE` would look like an `env` launch whose program was given `UI_TEST_MODE` as its own argument, which
    /// the Host library keeps.
    package func environment(mockServerURL: String?) -> [String: String] {
        guard sentChannel(mockServerURL: mockServerURL) != .args else { return [WireFormat.underTestVariable: "1"] }
        let automation = sentAutomationFlags(mockServerURL: mockServerURL)
        var variables = WireFormat.environment(ephemeral: featureFlags, automation: automation)
        // Flags in the environment only, argv the program's own: said, so the Host library never takes an argv[1…] of
        // the program's that equals the block `both` would make for the block (and drops it from `arguments`).
        if channel == .env, !featureFlags.isEmpty || !automation.isEmpty { variables[WireFormat.flagsInVariable] = "env" }
        return variables
    }
}
