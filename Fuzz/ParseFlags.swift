// libFuzzer target: what carries flags. The wire format as the program under test decodes it (launch
// argument and environment), and the CLI's flag assignments, flags files, .env files and durations. Every
// input must end in values or a problem/error, never a trap. Built and run by scripts/fuzz.sh.
import AutomationCore
import AutomationHost

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = WireFormat.decode(arguments: ["app", "UI_TEST_MODE", "EPHEMERAL_" + text, "AUTOMATION_" + text],
                          environment: ["SUT_EPHEMERAL": text, "SUT_AUTOMATION": text])
    _ = try? FlagAssignment.parse(text)
    _ = try? FlagsFile.parse(text, file: "fuzz.json")
    _ = try? DotEnv.parse(text, file: "fuzz.env")
    _ = DurationParser.parse(text)
    return 0
}
