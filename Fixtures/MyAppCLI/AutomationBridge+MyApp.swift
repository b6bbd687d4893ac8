import AutomationHost

/// MyAppCLI's own computed flags, built on the bridge (the pattern the README teaches).
extension AutomationBridge {
    /// Feature flag: skip the pre-active check before login.
    var skipPreActiveCheck: Bool { ephemeralConfiguration.bool("skipPreActiveCheck") ?? false }

    /// Feature flag: the greeting word, "hello" unless told otherwise.
    var greeting: String { ephemeralConfiguration.string("greeting") ?? "hello" }

    /// Automation flag: start as if a user had logged in already.
    var simulateUserAlreadyLoggedIn: Bool { automationConfiguration.bool("simulateUserAlreadyLoggedIn") ?? false }

    /// Automation flag: the user name to use when simulating a logged-in user.
    var simulatedUserName: String { automationConfiguration.string("userName") ?? "test-user" }
}
