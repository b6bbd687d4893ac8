import AutomationSupport
import Testing

@testable import MockServer

/// Bodies split as Commons FileUpload 1.4 (WireMock 2.35.1's) splits them, corner by corner: each expectation is what
/// FileUpload's `parseRequest` returned for the same body and Content-Type (r9a B4, B5): the parts' names and bodies,
/// or a throw (WireMock's 500: no multipart pattern matches here).
@Suite struct MultipartFileUploadTests {
    static let type = "multipart/form-data; boundary=XyZ"
    static let cd = "Content-Disposition: form-data; name="

    private func split(_ body: String, type: String = Self.type) -> String {
        switch MultipartBody.parse(contentType: type, body: Array(body.utf8)) {
        case .parts(let parts): return parts.map { "[\($0.name)]=[\(String(decoding: $0.body, as: UTF8.self))]" }.joined(separator: " ")
        case .malformed(let reason): return "malformed: \(reason)"
        case .notMultipart: return "not multipart"
        }
    }

    @Test func everyBoundaryIsReadAsTheFirstIs() {
        // Text after a boundary that is not CR LF, LF or "--" ends the parts quietly: those before it are the body's.
        #expect(split("--XyZ\r\n\(Self.cd)\"f\"\r\n\r\nv\r\n--XyZx\r\n\(Self.cd)\"g\"\r\n\r\nw\r\n--XyZ--\r\n") == "[f]=[v]")
        #expect(split("--XyZ  \r\n\(Self.cd)\"f\"\r\n\r\nv\r\n--XyZ--\r\n") == "")
        #expect(split("--XyZ\r\n\(Self.cd)\"f\"\r\n\r\nv\r\n--XyZ  \r\n\(Self.cd)\"g\"\r\n\r\nw\r\n--XyZ--\r\n") == "[f]=[v]")
        #expect(split("--XyZ\n\(Self.cd)\"f\"\r\n\r\nv\r\n--XyZ--\r\n") == "[f]=[v]")
        #expect(split("--XyZ\r\n\(Self.cd)\"f\"\r\n\r\nv\r\n--XyZ") == "[f]=[v]")
        #expect(split("--XyZ\r\n\(Self.cd)\"f\"\r\n\r\nv").hasPrefix("malformed"))
    }

    @Test func headersEndWhereFileUploadFindsTheirEnd() {
        // No headers: FileUpload reads on to the next CR LF CR LF (the second part's), so neither part is kept.
        #expect(split("--XyZ\r\n\r\nv\r\n--XyZ\r\n\(Self.cd)\"g\"\r\n\r\nw\r\n--XyZ--\r\n") == "")
        // A CR before CR LF CR LF hides it from FileUpload's search: the headers run on, and are read to the first empty line.
        #expect(split("--XyZ\r\n\(Self.cd)\"f\"\r\r\n\r\nv\r\n--XyZ\r\n\(Self.cd)\"g\"\r\n\r\nw\r\n--XyZ--\r\n") == "[f]=[w]")
    }

    @Test func namesAreReadAsFileUploadsParameterParserReadsThem() {
        func named(_ disposition: String) -> String {
            split("--XyZ\r\nContent-Disposition: \(disposition)\r\n\r\nv\r\n--XyZ--\r\n")
        }
        #expect(named("form-data; name=\"\"") == "")
        #expect(named("form-data; name=") == "")
        #expect(named("form-data; name=\"a\"; name") == "")
        #expect(named("form-data; name=\" \"") == "[]=[v]")
        #expect(named("form-data; name=\"a\\\";b\"") == "[a\\\";b]=[v]")
        #expect(named("form-data, name=\"a\"") == "")
        #expect(named("form-data name=\"a\"") == "")
        #expect(named("FORM-DATA; NAME=\"a\"") == "[a]=[v]")
        #expect(named("form-data; name=\"a\"; name=\"b\"") == "[b]=[v]")
        #expect(named("form-data; name=\u{1}\"a\"\u{1}") == "[\"a\"]=[v]")
    }

    @Test func contentTypeParametersSplitAtTheFirstSeparatorOnly() {
        let body = "--XyZ\r\n\(Self.cd)\"f\"\r\n\r\nv\r\n--XyZ--\r\n"
        #expect(
            split(body, type: "multipart/mixed; charset=x, boundary=XyZ")
                == "malformed: its Content-Type has no boundary (parameters are split at the first of ';' and ',' only)")
        #expect(split(body, type: "multipart/form-data, boundary=XyZ") == "[f]=[v]")
        #expect(split(body, type: "multipart/form-data, boundary=XyZ; a=b") == "")
        #expect(split(body, type: "multipart/form-data; boundary=\"XyZ\"") == "[f]=[v]")
        #expect(split(body, type: "multipart/form-data; boundary==?UTF-8?B?WHla?=").hasPrefix("malformed"))
    }

    /// A `multipart/mixed` part holds parts of its own: those that name a file are parts under its name; its boundary
    /// must have the body's boundary's length (FileUpload throws otherwise).
    @Test func aMixedPartsFilesArePartsUnderItsName() {
        let inner =
            "--AbC\r\nContent-Disposition: attachment; filename=\"a.txt\"\r\n\r\ninner\r\n--AbC\r\nContent-Disposition: attachment\r\n\r\n"
            + "nofile\r\n--AbC--\r\n"
        let body = { (boundary: String) in
            "--XyZ\r\n\(Self.cd)\"f\"\r\nContent-Type: multipart/mixed; boundary=\(boundary)\r\n\r\n"
                + inner.replacingOccurrences(of: "AbC", with: boundary) + "\r\n--XyZ\r\n\(Self.cd)\"g\"\r\n\r\nw\r\n--XyZ--\r\n"
        }
        #expect(split(body("AbC")) == "[f]=[inner] [g]=[w]")
        #expect(split(body("AbCD")).hasPrefix("malformed"))
    }
}
