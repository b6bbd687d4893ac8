// sut-launch-foundation: sut-launch with the Foundation.Process launcher linked in. `sut-launch --launcher
// foundation` execs this binary (found next to its own) with the same arguments.
import ProcessEngine
import SutLaunchCLI
import FoundationLauncher

FoundationLauncher.register()
ProcessStart.prepare()
StandardDescriptors.exitProcess(SutLaunchCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current))
