import Foundation
import Testing

/// R4a-23: `POST /__admin/mappings/import` honours WireMock's `deleteAllNotInImport` and refuses unknown options and
/// keys by name (422); they were accepted with 200 and ignored, leaving every old mapping in place.
@Suite struct ImportOptionsEndToEndTests {
    static let script = #"""
        U=$SUT_MOCK_SERVER_URL; J='Content-Type: application/json'
        code() { curl -s -o /dev/null -w "%{http_code} " -H "$J" "$@"; }
        code -X POST "$U/__admin/mappings" -d '{"request":{"urlPath":"/keep"},"response":{"status":200}}'
        code -X POST "$U/__admin/mappings/import" -d '{"mappings":[],"importOptions":{"bogus":1}}'
        code -X POST "$U/__admin/mappings/import" -d '{"mappings":[],"bogusTop":1}'
        code -X POST "$U/__admin/mappings/import" -d '{"mappings":[],"importOptions":{"deleteAllNotInImport":"yes"}}'
        code "$U/keep"
        code -X POST "$U/__admin/mappings/import" -d '{"mappings":[{"id":"11111111-2222-3333-4444-555555555555","request":{"urlPath":"/new"},"response":{"status":201}}],"importOptions":{"duplicatePolicy":"IGNORE","deleteAllNotInImport":true}}'
        code "$U/keep"; code "$U/new"; code "$U/from-file"
        curl -s -H "$J" -X POST "$U/__admin/mappings/import" -d '{"mappings":[],"importOptions":{"bogus":1}}'
        """#

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func deleteAllNotInImportIsHonouredAndUnknownOptionsAreRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"{"routes":[{"method":"GET","path":"/from-file","body":"f","expect":{"atLeast":1}}]}"#, "f.json", in: directory)
        let result = try CLI.run(["--admin-writes", "trust", "--port", "0", "--stub", stubs, "sh", "-c", Self.script]) // a WireMock client
        #expect(result.stdout.hasPrefix("201 422 422 422 200 200 404 201 404 importOptions.bogus is not supported"), "\(result.stdout)")
        // The file's route went with the import, and its unmet expect is still checked.
        #expect(result.status == 4 && result.stderr.contains("deleted while expected"), "\(result.stderr)")
    }
}
