// `import AutomationTesting` is all a test needs. The Host's flag types and the mock server are library products,
// re-exported whole. The engine and scenario modules are package-internal: all they make public is the nine
// types the test API's signatures use (ProcessStatus, StandardStream, LauncherBackend, TerminalSize,
// TerminalScreen, TerminalKey; Pickle, ScenarioOptions, StepContext), so re-exporting them re-exports exactly
// those; everything else in them is `package` and free to change (PublicSurfaceTests holds both sides).
@_exported public import AutomationHost
@_exported public import MockServer
@_exported public import ProcessEngine
@_exported public import Scenarios
