// libFuzzer target: the Gherkin parser on arbitrary text. Every input must end in a document or an error
// with a line, never a trap. Built and run by scripts/fuzz.sh.
import AutomationCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? GherkinParser.parse(text, uri: "fuzz.feature")
    return 0
}
