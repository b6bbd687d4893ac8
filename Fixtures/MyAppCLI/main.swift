// MyAppCLI: the example program under test. It links AutomationHost, reads its flags through
// AutomationBridge, and prints what it saw, so the README tour and the tests can check it.
import AutomationHost
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let bridge = AutomationBridge.shared

func say(_ line: String) {
    print(line)
    fflush(nil) // line by line, so a test sees each line as it is printed
}

func preActiveCheck() {
    if bridge.skipPreActiveCheck {
        say("pre-active check: skipped")
    } else {
        say("pre-active check: ok")
    }
}

/// The default command: the pre-active check, then (with a backend) the city search the bundled
/// Fixtures/stubs/routes.json expects once, then the greeting.
func home() {
    preActiveCheck()
    if bridge.mockServerURL != nil {
        do {
            let answer = try Backend.request(
                "cities", method: "GET", body: nil, query: [URLQueryItem(name: "q", value: "Milano")],
                headers: ["egon-route": "true"])
            say("cities: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            if answer.status != 200 { exit(1) }
        } catch {
            say("backend error: \(error)")
            exit(3)
        }
    }
    say("\(bridge.greeting), world")
}

func login() {
    preActiveCheck()
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

/// The seed toolkit's demo: fetch /message (text) and /image (bytes) from the backend and print them.
func fetch() {
    do {
        let message = try Backend.get("message")
        say("message: \(message.status) \(String(decoding: message.body, as: UTF8.self))")
        let image = try Backend.get("image")
        let head = image.body.prefix(4).map { String(format: "%02x", $0) }.joined()
        say("image: \(image.status) \(image.body.count) bytes, starts \(head)")
        if message.status != 200 || image.status != 200 { exit(1) }
    } catch {
        say("backend error: \(error)")
        exit(3)
    }
}

/// Logs in against the backend: POST /login with the user name read from stdin (or the simulated user).
func backendLogin() {
    let name = bridge.simulateUserAlreadyLoggedIn ? bridge.simulatedUserName : (readLine() ?? "")
    do {
        let body = Data("{\"user\":\"\(name)\"}".utf8)
        var answer = try Backend.request("login", method: "POST", body: body)
        var attempts = 1
        while answer.status >= 500 && attempts < 3 {
            say("login: server error \(answer.status), retrying")
            answer = try Backend.request("login", method: "POST", body: body)
            attempts += 1
        }
        say("login: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        exit(answer.status == 200 ? 0 : 1)
    } catch {
        say("backend error: \(error)")
        exit(3)
    }
}

/// Waits for control messages from the test, handles the built-in ones (switch screen, set or clear a flag
/// at run time), prints each and acknowledges it with a reply; "quit" ends the program.
func listen() {
    guard let channel = ControlChannel(bridge) else {
        say("no control channel")
        exit(2)
    }
    say("listening for control messages")
    // Long polls of 10 s each, for an hour at most, and only while the process that started it lives: a test whose
    // task waits behind a busy runner still reaches the program (the suite's own: a Swift Testing continuation resumed
    // behind hundreds of queued tests on a 2-CPU runner only after 370 s, when a five-minute cap had ended the
    // program), and a test process that is gone leaves no poller behind.
    let deadline = Date().addingTimeInterval(3_600)
    let parent = getppid()
    while Date() < deadline && getppid() == parent {
        let asked = Date()
        guard let message = channel.receive(timeoutMs: 10_000) else {
            if Date().timeIntervalSince(asked) < 1 { usleep(100_000) } // the endpoint is not there: do not spin
            continue
        }
        var reply = "ok"
        switch ControlCommand(message.text) {
        case .entryPoint(let name)?:
            say("screen: \(name)")
            reply = "on \(name)"
        case let command?:
            RuntimeFlags.shared.apply(command)
            let flags = FlagStack([.runtime(), .configuration("ephemeral", bridge.ephemeralConfiguration)])
            let greeting = flags.string("greeting") ?? "hello"
            say("greeting is now \(greeting)")
            reply = greeting
        case nil:
            if let problem = ControlCommand.problem(message.text) {
                FileHandle.standardError.write(Data("control: malformed: \(problem)\n".utf8))
                reply = "error: \(problem)"
            } else {
                say("control: \(message.text)")
            }
        }
        channel.acknowledge(message, reply: reply)
        if message.text == "quit" { exit(0) }
    }
    say(getppid() == parent ? "no control message within an hour" : "the process that started this one has ended")
    exit(1)
}

var entryPoints = EntryPoints()
entryPoints.register("search") { say("screen: search") }
entryPoints.register("albums") { say("screen: albums") }

let command = bridge.arguments.dropFirst().first ?? "home"
say("MyAppCLI (under test: \(bridge.isUnderTest ? "yes" : "no"))")
switch command {
case "home":
    home()
case "greet":
    say("\(bridge.greeting), world")
case "login":
    login()
case "flags":
    showFlags()
case "listen":
    listen()
case "fetch":
    fetch()
case "backend-login":
    backendLogin()
case "start":
    do {
        try entryPoints.run(bridge) { say("screen: main menu") }
    } catch {
        say("error: \(error)")
        exit(2)
    }
case "exit":
    // An exit status is 0...255; anything else is a usage error, never a silent 0 (Int32("9999999999") is nil).
    let text = bridge.arguments.dropFirst(2).first ?? "0"
    guard let status = Int32(text), (0...255).contains(status) else {
        say("exit: '\(text)' is not an exit status 0...255")
        exit(64)
    }
    exit(status)
default:
    say("unknown command \(command); commands: home, greet, login, flags, start, fetch, backend-login, listen, exit N")
    exit(64)
}
