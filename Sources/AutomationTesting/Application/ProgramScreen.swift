/// A "screen" of a command-line program (a prompt, a mode, a REPL state): how to recognise it in the output
/// and the verbs a test uses there, the page-object idea of Swerkin's `Screen` and AutomationTools'
/// `PageObject`.
///
/// ```swift
/// struct LoginScreen: ProgramScreen {
///     static let marker = "username:"
///     let app: SUTApplication
///     func typeName(_ name: String) throws { try app.type(name + "\n") }
/// }
///
/// try await app.on(LoginScreen.self) { try $0.typeName("ada") }
/// ```
public protocol ProgramScreen {
    /// Text whose appearance on stdout shows the program is on this screen.
    static var marker: String { get }
    /// The screen of a running program.
    init(app: SUTApplication)
}

extension SUTApplication {
    /// Waits until the program shows `screen` (its marker on stdout), then runs `body` with it.
    /// - Throws: ``AutomationError`` with the last output lines when the screen does not appear within
    ///   `timeout` (the application's default when nil); whatever `body` throws.
    @discardableResult
    public func on<Screen: ProgramScreen, Result>(
        _ screen: Screen.Type, timeout: Duration? = nil,
        _ body: (Screen) async throws -> Result
    ) async throws -> Result {
        try await waitForOutput(containing: Screen.marker, timeout: timeout)
        return try await body(Screen(app: self))
    }
}
