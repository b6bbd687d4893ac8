@_exported public import AutomationHost
@_exported public import MockServer
// `import AutomationTesting` is all a test needs: the launch handle, the server builder, flag literals.
@_exported public import ProcessEngine
@_exported public import Scenarios
