// sut-launch: process-wide setup, then argv to the command line; exits with the code it returns.
import AutomationSupport
import ProcessEngine
import SutLaunchCLI

let arguments = Array(CommandLine.arguments.dropFirst())
ProcessTuning.forCommandLine(arguments).apply() // malloc and thread placement, by subcommand, before any thread
ProcessStart.prepare()
StandardDescriptors.exitProcess(SutLaunchCommand.main(arguments, environment: ProcessEnvironment.current))
