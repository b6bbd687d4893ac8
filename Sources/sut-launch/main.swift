// sut-launch: hands argv to AutomationCore's commands and exits with the code they return.
import AutomationCore

ProcessStart.prepare()
StandardDescriptors.exitProcess(SutLaunchCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current))
