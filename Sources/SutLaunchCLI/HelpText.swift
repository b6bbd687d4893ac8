import ProcessEngine
import Scenarios

/// The text of `sut-launch --help`.
package enum HelpText {
    /// `help record`: recording a real backend into a WireMock root, then replaying it strictly.
    package static var record: String {
        """
        USAGE:
          sut-launch --record-from URL --into DIR [options] PROGRAM [ARGS...]
          sut-launch --proxy-unmatched URL [--record-missing --into DIR] --stub STUBS [options] PROGRAM [ARGS...]
          sut-launch record --target URL --into DIR [serve options]

        Requests no stub matches go to the backend at URL; its answers reach the program and are written to DIR as
        a WireMock root (mappings/, __files/) that --stub DIR, serve DIR and WireMock load unchanged. A backend that
        fails answers the program 502/504 and fails the run (exit 4). Replay strictly: sut-launch --stub DIR --strict.
        `record` is a recorder without a program (serve --proxy-all URL --record-mappings --root-dir DIR), until Ctrl-C;
        it takes serve's options and --keep-secrets, --capture-header, --record-insecure below.

        OPTIONS:

        """ + RunOption.helpLines(topic: "record")
    }

    /// `help coverage`: code coverage of the program under test across every launch of a run or a suite.
    package static var coverage: String {
        """
        USAGE:
          sut-launch --coverage DIR [--coverage-threshold PCT] [options] PROGRAM [ARGS...]
          sut-launch test --coverage DIR [--coverage-threshold PCT] [options] FEATURES...

        Every launch (and every process it starts) writes a raw profile: LLVM_PROFILE_FILE=DIR/raw/%p-%m.profraw
        (test: DIR/raw/SCENARIO/), GOCOVERDIR=DIR/go. At the end the toolchain's llvm-profdata merges them into
        DIR/merged.profdata and llvm-cov exports DIR/lcov.info and Cobertura DIR/coverage.xml; DIR/summary.txt holds
        the per-file table. test puts what each scenario reached in --report and --messages. Build the program with
        swift build -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping (clang: -fprofile-instr-generate
        -fcoverage-mapping). Exit 6 when the run passed but no profile could be merged, or line coverage < PCT.

        OPTIONS:

        """ + RunOption.helpLines(topic: "coverage")
    }

    /// `--help`: usage, options, values, exit codes and an example.
    package static var main: String {
        var text = """
            sut-launch \(SutLaunch.version): put a program under test into a known state, run it, tell CI what happened.

            USAGE:
              sut-launch [options] PROGRAM [ARGS...]   (-- PROGRAM when it is named like a subcommand)
              sut-launch serve|record|check|test|init|completions|manpage ...   help SUBCOMMAND; help steps|record|coverage|admin

            Flags travel as PROGRAM UI_TEST_MODE EPHEMERAL_{json} AUTOMATION_{json} ARGS... when any is given
            (argv untouched otherwise), as SUT_EPHEMERAL, SUT_AUTOMATION ({} if none; not for --flags-in args).

            OPTIONS:

            """
        text += RunOption.helpLines
        text += """

            VALUES: key=value reads true, 42, 1.5 as JSON, else a string; key:=JSON any literal: name:='"007"' ids:='[1,2]'

            EXIT CODES: the program's own; 2 usage error; 3 invalid file; 4 mock-server checks failed; 6 coverage
            failed or below --coverage-threshold; 74 a report could not be written; 124 timeout; 125 could not launch; 126 not executable; 127 not found; 128+N signal N

            EXAMPLE:
              sut-launch --flag skipPreActiveCheck=true --stub ./routes.json ./MyAppCLI

            """
        return text
    }
}
