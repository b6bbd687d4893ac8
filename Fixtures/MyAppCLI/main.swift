// MyAppCLI: the example program under test. It links AutomationHost, reads its flags through
// AutomationBridge, and prints what it saw, so the README tour and the tests can check it.
import AutomationHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let bridge = AutomationBridge.shared


func say(_ line: String) {
    print(line)
    fflush(nil)  // line by line, so a test sees each line as it is printed
}

func login() {
    if bridge.skipPreActiveCheck {
        say("pre-active check: skipped")
    } else {
        say("pre-active check: ok")
    }
    if bridge.simulateUserAlreadyLoggedIn {
        say("already logged in as \(bridge.simulatedUserName)")
        return
    }
    say("username:")
    guard let name = readLine(), !name.isEmpty else {
        say("login cancelled")
        exit(1)
    }
    say("logged in as \(name)")
}

func showFlags() {
    say("feature flags: \(FlagValue.object(bridge.ephemeralConfiguration.values))")
    say("automation flags: \(FlagValue.object(bridge.automationConfiguration.values))")
    say("arguments: \(bridge.arguments.dropFirst().joined(separator: " "))")
}

var entryPoints = EntryPoints()
entryPoints.register("search") { say("screen: search") }
entryPoints.register("albums") { say("screen: albums") }

let command = bridge.arguments.dropFirst().first ?? "greet"
say("MyAppCLI (under test: \(bridge.isUnderTest ? "yes" : "no"))")
switch command {
case "greet":
    say("\(bridge.greeting), world")
case "login":
    login()
case "flags":
    showFlags()
case "start":
    do {
        try entryPoints.run(bridge) { say("screen: main menu") }
    } catch {
        say("error: \(error)")
        exit(2)
    }
case "exit":
    exit(Int32(bridge.arguments.dropFirst(2).first ?? "0") ?? 0)
default:
    say("unknown command \(command); commands: greet, login, flags, start, exit N")
    exit(64)
}
