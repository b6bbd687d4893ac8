import Foundation
import Testing

/// Bytes that are not UTF-8 reach the program as they were given (third hostile review, D3): Swift reads argv and
/// the environment as Strings, and an argument `a\xffb` or a Latin-1 variable reached the program as U+FFFD.
@Suite struct RawBytesEndToEndTests {
    /// Runs a shell that builds the bytes with printf and hands them to sut-launch, which launches `od` on them.
    private func hexSeen(_ script: String) throws -> String {
        let result = try CLI.run(["-q", "/bin/sh", "-c", "SUT='\(CLI.sutLaunch)'; " + script])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func anArgumentThatIsNotUTF8ReachesTheProgramByteForByte() throws {
        let seen = try hexSeen(#"exec "$SUT" -q sh -c 'printf %s "$1" | od -An -tx1' x "$(printf 'a\377b')""#)
        #expect(seen == "61 ff 62")
    }

    @Test func inheritedAndGivenVariablesThatAreNotUTF8KeepTheirBytes() throws {
        let inherited = try hexSeen(#"X="$(printf 'v\376')" exec "$SUT" -q sh -c 'printf %s "$X" | od -An -tx1'"#)
        #expect(inherited == "76 fe")
        let given = try hexSeen(#"exec "$SUT" -q --env "Y=$(printf '\376\375')" sh -c 'printf %s "$Y" | od -An -tx1'"#)
        #expect(given == "fe fd")
        let attached = try hexSeen(#"exec "$SUT" -q --env="Y=$(printf '\376')" sh -c 'printf %s "$Y" | od -An -tx1'"#)
        #expect(attached == "fe")
    }

    /// A real U+FFFD beside an invalid byte that reads the same cannot be told apart: both stay U+FFFD (never
    /// the other's bytes).
    @Test func aRealReplacementCharacterIsNeverTurnedIntoAnotherArgumentsBytes() throws {
        let seen = try hexSeen(#"exec "$SUT" -q sh -c 'printf %s "$1" | od -An -tx1' x "$(printf '\357\277\275')""#)
        #expect(seen == "ef bf bd")
    }
}
