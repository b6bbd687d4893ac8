// sut-launch: process-wide setup, then argv to the command line; exits with the code it returns.
import ProcessEngine
import SutLaunchCLI

ProcessStart.prepare()
StandardDescriptors.exitProcess(SutLaunchCommand.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current))
