/// The text of `sut-launch --help`.
public enum HelpText {
    public static var main: String {
        var text = """
        sut-launch \(SutLaunch.version): put a program under test into a known state, run it, tell CI what happened.

        USAGE:
          sut-launch [options] PROGRAM [ARGS...]
          sut-launch serve [options] STUBS...    the mock server alone, until Ctrl-C (see serve --help)
          sut-launch check FILES...              validate stub files, WireMock mappings and feature files
          sut-launch test [options] FEATURES...  run Gherkin scenarios (see test --help)

        The program receives its flags as launch arguments
          PROGRAM UI_TEST_MODE EPHEMERAL_{json} AUTOMATION_{json} ARGS...
        and as environment variables SUT_EPHEMERAL, SUT_AUTOMATION and SUT_UNDER_TEST=1.

        OPTIONS:

        """
        text += OptionSpec.helpLines(RunCommand.options)
        text += """

        VALUES:
          key=value    true/false become booleans, 42 an integer, 1.5 a number, anything else a string
          key:=JSON    any JSON literal: retries:=3  name:='"007"'  ids:='[1,2]'

        EXIT CODES:
          the program's own code when it ran; 2 usage error; 3 invalid flags/env/stub file (nothing launched);
          4 mock-server checks failed; 124 timeout; 125 could not launch; 126 not executable; 127 not found;
          128+N the program died of signal N

        EXAMPLES:
          sut-launch --flag skipPreActiveCheck=true --automation simulateUserAlreadyLoggedIn=true ./MyAppCLI login
          sut-launch -f greeting=hi -a 'ids:=[1,2]' --timeout 30s --report run.json ./MyAppCLI flags
          sut-launch --flags-in env --env-file .env.test --clear-env ./MyAppCLI greet

        """
        return text
    }
}
