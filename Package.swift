// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sut-launch",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "sut-launch", targets: ["sut-launch"]),
        .executable(name: "sut-launch-foundation", targets: ["sut-launch-foundation"]),
        .library(name: "AutomationHost", targets: ["AutomationHost"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "AutomationTesting", targets: ["AutomationTesting"]),
    ],
    targets: [
        // The one rule for a number written as text that a flag carries (read as written, or refused): shared by the Host
        // library and the toolbox, so a leaf with no dependency and no Foundation.
        .target(name: "DecimalLiterals"),
        // Linked by the program under test: the wire format and the bridge. Imports nothing of ours but DecimalLiterals.
        .target(name: "AutomationHost", dependencies: ["DecimalLiterals"]),
        // The C calls Swift's Glibc module leaves out (accept4, pipe2, addchdir_np, addclosefrom_np, memmem, pty, pidfd,
        // mallopt, CPU affinity), each a thin wrapper. A leaf.
        .target(name: "CSystemShims"),
        // The process runtime in C: the spawn and the reaper (clone with CLONE_VM; their invariants head process_spawn.c)
        // and the signal forwarding handlers. A leaf; ProcessEngine is its only client.
        .target(name: "_CProcessSpawn"),
        // The package-internal toolbox (no product; never linked into the program under test): JSON with
        // positions, suggestions, text, durations, files, threads, locks, standard streams.
        .target(name: "AutomationSupport", dependencies: ["CSystemShims", "DecimalLiterals"]),
        // XML for WireMock's XML matchers and helpers: the system's libxml2 loaded at run time (like libssl), secure parsing,
        // XPath 1.0, XMLUnit-like comparison. On the toolbox only.
        .target(name: "XMLSupport", dependencies: ["AutomationSupport"]),
        // The mock server: HTTP/1.1 on sockets, stubs, matching, journal, admin API; on the toolbox and the C shims.
        .target(name: "MockServer", dependencies: ["AutomationSupport", "XMLSupport", "CSystemShims"]),
        // Coverage of the program under test: the raw profiles' variables, llvm-profdata and llvm-cov through a runner the
        // process engine gives it, lcov and Cobertura. On the toolbox only.
        .target(name: "Coverage", dependencies: ["AutomationSupport"]),
        // The process engine: flags input, the launcher (own spawn; Foundation.Process is a backend), the watchdog,
        // runs with their mock server, verdicts and run reports.
        .target(
            name: "ProcessEngine",
            dependencies: ["AutomationHost", "AutomationSupport", "Coverage", "MockServer", "CSystemShims", "_CProcessSpawn"]),
        // Scenarios: Gherkin, steps, the runner, and the reports rendered from Cucumber Messages.
        .target(name: "Scenarios", dependencies: ["ProcessEngine", "AutomationHost", "AutomationSupport", "Coverage", "MockServer"]),
        // The command line: typed options per command, usage errors rendered once. Package access only, no product.
        .target(
            name: "SutLaunchCLI",
            dependencies: ["ProcessEngine", "Scenarios", "AutomationHost", "AutomationSupport", "Coverage", "MockServer"]),
        // The Foundation.Process launcher backend: the only module that links all of Foundation, so that
        // sut-launch itself does not (26 MB instead of 76 MB static; faster start, less memory).
        .target(name: "FoundationLauncher", dependencies: ["ProcessEngine", "AutomationSupport"]),
        // XCTest / Swift Testing helpers; the only module that imports XCTest.
        .target(
            name: "AutomationTesting",
            dependencies: [
                "ProcessEngine", "Scenarios", "AutomationHost", "AutomationSupport", "Coverage", "MockServer", "FoundationLauncher",
            ]),
        // The CLI: main.swift decides process-wide tuning, hands argv to SutLaunchCommand and exits with its code.
        .executableTarget(name: "sut-launch", dependencies: ["SutLaunchCLI", "ProcessEngine", "AutomationSupport"]),
        // The same CLI with the Foundation.Process backend linked in: sut-launch runs it for `--launcher foundation`.
        .executableTarget(
            name: "sut-launch-foundation", dependencies: ["SutLaunchCLI", "ProcessEngine", "AutomationSupport", "FoundationLauncher"]),

        // Programs under test used by the README tour, the tests and the benchmarks.
        .executableTarget(name: "MyAppCLI", dependencies: ["AutomationHost"], path: "Fixtures/MyAppCLI"),
        .executableTarget(name: "argv-dump", path: "Fixtures/argv-dump"),

        .testTarget(name: "AutomationHostTests", dependencies: ["AutomationHost", "AutomationSupport"]),
        .testTarget(name: "CoverageTests", dependencies: ["Coverage"]),
        .testTarget(name: "AutomationSupportTests", dependencies: ["AutomationSupport"], exclude: ["Compression/reference_streams.py"]),
        .testTarget(
            name: "ProcessEngineTests",
            dependencies: ["ProcessEngine", "AutomationHost", "AutomationSupport", "MockServer", "FoundationLauncher"]),
        .testTarget(
            name: "ScenariosTests", dependencies: ["Scenarios", "ProcessEngine", "AutomationHost", "AutomationSupport", "MockServer"],
            exclude: [
                "Gherkin/testdata", "Gherkin/official_pickles.py", "Gherkin/reference_parse.py", "Gherkin/reference_messages.py",
                "Runner/reference_tag_expressions.py", "Steps/reference_cucumber_expressions.py",
            ]),
        .testTarget(
            name: "SutLaunchCLITests", dependencies: ["SutLaunchCLI", "ProcessEngine", "Scenarios", "AutomationSupport", "MockServer"]),
        .testTarget(
            name: "AutomationTestingTests",
            dependencies: ["AutomationTesting", "ProcessEngine", "Scenarios", "AutomationSupport", "MockServer", "MyAppCLI"],
            exclude: ["Application/__snapshots__", "Features"]),
        .testTarget(name: "MockServerTests", dependencies: ["MockServer", "AutomationSupport", "XMLSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "XMLSupportTests", dependencies: ["XMLSupport", "AutomationSupport"], exclude: ["reference_xpath.py"]),
        // The fuzz targets scripts/fuzz.sh runs, kept compiled and run on every saved input (seeds and old crashes).
        .testTarget(
            name: "FuzzTargetsTests",
            dependencies: [
                "AutomationSupport", "MockServer", "ProcessEngine", "Scenarios", "SutLaunchCLI", "AutomationHost", "XMLSupport",
            ],
            exclude: ["Inputs"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["AutomationHost", "MockServer", "sut-launch", "sut-launch-foundation", "MyAppCLI", "argv-dump"],
            exclude: ["Schemas", "WireMock"]
        ),
    ]
)

// `.ci/run` sets SUT_LAUNCH_STRICT=1: every warning is an error there, in the one build `swift test` then reuses (passed
// as `-Xswiftc` it would be a second build of everything). Never set for a package that depends on this one.
let strict = Context.environment["SUT_LAUNCH_STRICT"] == "1"

for target in package.targets where target.type != .system && !["CSystemShims", "_CProcessSpawn"].contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    if strict { settings.append(.unsafeFlags(["-warnings-as-errors"])) }
    target.swiftSettings = settings
}
