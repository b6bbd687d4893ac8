// sut-launch-foundation: sut-launch with the Foundation.Process launcher linked in. `sut-launch --launcher
// foundation` execs this binary (found next to its own) with the same arguments.
import AutomationSupport
import FoundationLauncher
import ProcessEngine
import SutLaunchCLI

let arguments = Array(CommandLine.arguments.dropFirst())
ProcessTuning.forCommandLine(arguments).apply() // malloc and thread placement, by subcommand, before any thread
FoundationLauncher.register()
ProcessStart.prepare()
StandardDescriptors.exitProcess(SutLaunchCommand.main(arguments, environment: ProcessEnvironment.current))
