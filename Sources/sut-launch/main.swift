// sut-launch: hands argv to AutomationCore's commands and exits with the code they return.
import AutomationCore

SignalForwarder.blockSignalsInThisProcess()
StandardDescriptors.openClosedOnes()
StandardDescriptors.exitProcess(SutLaunchCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current))
