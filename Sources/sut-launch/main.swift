// sut-launch: parses the command line and calls AutomationCore; nothing else.
import AutomationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

SignalForwarder.blockSignalsInThisProcess()

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current

func printOut(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(1, &bytes, bytes.count)
}

do {
    switch arguments.first {
    case "serve": exit(try ServeCommand.run(Array(arguments.dropFirst())))
    case "check": exit(try CheckCommand.run(Array(arguments.dropFirst())))
    case "test": exit(try TestCommand.run(Array(arguments.dropFirst()), environment: environment))
    default: break
    }
    switch try RunCommand.parse(arguments, environment: environment) {
    case .help:
        printOut(HelpText.main)
        exit(0)
    case .version:
        printOut("sut-launch \(SutLaunch.version)\n")
        exit(0)
    case .run(let configuration):
        let forwarder = SignalForwarder(grace: configuration.killGrace)
        let outcome = Runner.run(configuration, signals: forwarder)
        exit(outcome.exitCode)
    }
} catch let error as UsageError {
    Console.error("\(error.message)")
    exit(ExitCode.usage)
} catch let error as InputError {
    Console.error("\(error)")
    exit(ExitCode.invalidInput)
} catch {
    Console.error("\(error)")
    exit(ExitCode.usage)
}
