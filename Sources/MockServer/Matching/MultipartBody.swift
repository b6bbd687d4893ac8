import AutomationSupport

/// A request body split into parts as WireMock 2.35 splits it (Apache Commons FileUpload 1.4): the boundary from the
/// `Content-Type` (``boundary(in:)``); before each part, whatever precedes the next `--boundary` is skipped (FileUpload
/// reads every boundary as it reads the first); after it, CR LF or a lone LF starts a part, and `--`, the body's end or
/// anything else ends the parts quietly (`--XyZx` after a part: the parts before it are the body's). A part's headers
/// run to the first CR LF CR LF (found as FileUpload finds it: a CR before it hides it) and are read up to their first
/// empty line; its body to CR LF `--boundary`. Parts without a form-data name (``fieldName(_:)``) are skipped; a part of
/// type `multipart/mixed` holds parts of its own, kept under its name when they name a file (``namesFile(_:)``).
///
/// Bounded: at most ``maxParts`` parts and ``maxHeaderBytes`` of headers per part (FileUpload's own limit);
/// one pass over the body with memmem's two-way search, so its cost is linear in the body, whatever the boundary.
/// Beyond a bound, or where FileUpload throws (headers or a part not ended, a nested boundary of another length), it
/// is ``Parsed/malformed(_:)``: no multipart pattern matches it (WireMock answers 500 there).
enum MultipartBody {
    static let maxParts = 1000
    static let maxHeaderBytes = 10_240

    struct Part: Sendable {
        /// The form-data name (a nested part's is the `multipart/mixed` part's).
        var name: String
        var headers: HTTPHeaders
        var body: [UInt8]
        /// The first byte of the part's header section that is not UTF-8, and its offset there: the headers were read
        /// with U+FFFD in its place, so no pattern matches the part (a request head that is not UTF-8 is a 400).
        var notUTF8: (offset: Int, byte: UInt8)?
    }

    enum Parsed: Sendable {
        case parts([Part])
        /// No `Content-Type` containing `multipart/` (WireMock's test): no multipart pattern matches.
        case notMultipart
        case malformed(String)
    }

    static func parse(contentType: String?, body: [UInt8]) -> Parsed {
        guard let contentType, ByteSearch.contains(contentType, "multipart/") else { return .notMultipart }
        guard contentType.hasASCIIPrefixIgnoringCase("multipart/") else {
            return .malformed("its Content-Type does not start with multipart/")
        }
        let (token, problem) = boundary(in: contentType)
        guard let token else { return .malformed(problem ?? "its Content-Type has no boundary") }
        var reader = Reader(body: body, boundary: Array("--".utf8) + token)
        return reader.parts()
    }

    /// FileUpload's MultipartStream over the whole body: where it is, and the boundary it looks for.
    private struct Reader {
        let body: [UInt8]
        /// `--` and the boundary (a `multipart/mixed` part's own while its parts are read).
        var boundary: [UInt8]
        var position = 0

        mutating func parts() -> Parsed {
            let outer = boundary
            var parts: [Part] = []
            var seen = 0
            var mixed: String? // the name of the multipart/mixed part whose parts are being read
            while true {
                guard nextPart() else {
                    guard mixed != nil else { return .parts(parts) }
                    (mixed, boundary) = (nil, outer)
                    continue
                }
                seen += 1
                guard seen <= maxParts else { return .malformed("it has more than \(maxParts) parts") }
                guard let section = headerSection() else {
                    return .malformed("a part's headers are longer than \(maxHeaderBytes) bytes or not ended by an empty line")
                }
                let headers = parseHeaders(body[section])
                var name: String?
                if let outerName = mixed {
                    if namesFile(headers) { name = outerName }
                } else if let fieldName = fieldName(headers) {
                    if let type = headers["Content-Type"], type.hasASCIIPrefixIgnoringCase("multipart/mixed") {
                        guard let inner = MultipartBody.boundary(in: type).bytes, inner.count + 2 == outer.count else {
                            return .malformed("part \"\(fieldName.prefix(40))\" is multipart/mixed without a boundary of the body's length")
                        }
                        (mixed, boundary) = (fieldName, Array("--".utf8) + inner)
                        continue
                    }
                    name = fieldName
                }
                guard let end = firstIndex(of: [0x0D, 0x0A] + boundary, in: body, from: position) else {
                    return .malformed("a part is not closed by a boundary")
                }
                if let name { parts.append(part(name, headers, section, body: position..<end)) }
                position = end
            }
        }

        /// A kept part, its header section checked for UTF-8.
        private func part(_ name: String, _ headers: HTTPHeaders, _ section: Range<Int>, body range: Range<Int>) -> Part {
            let bytes = body[section]
            // ASCII (the usual part) is valid UTF-8 without decoding it.
            let ascii = !bytes.contains { $0 >= 0x80 }
            let bad = ascii || String(validating: bytes, as: UTF8.self) != nil ? nil : firstInvalidUTF8(bytes)
            return Part(name: name, headers: headers, body: Array(body[range]), notUTF8: bad)
        }

        /// FileUpload's `skipPreamble` (which it runs before every part): past the next `--boundary`, whether a part
        /// follows (CR LF or LF), or not (`--`, the end, anything else).
        private mutating func nextPart() -> Bool {
            guard let found = firstIndex(of: boundary, in: body, from: position) else {
                position = body.count
                return false
            }
            position = found + boundary.count
            guard position < body.count else { return false }
            if body[position] == 0x0A {
                position += 1
                return true
            }
            guard position + 1 < body.count else {
                position = body.count
                return false
            }
            position += 2
            return body[position - 2] == 0x0D && body[position - 1] == 0x0A
        }

        /// FileUpload's `readHeaders`: up to and including the first CR LF CR LF, matched byte by byte with the match
        /// restarted (not rechecked) at a byte that breaks it; nil past ``maxHeaderBytes`` or at the body's end.
        private mutating func headerSection() -> Range<Int>? {
            let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
            var matched = 0
            var index = position
            while matched < separator.count {
                guard index < body.count, index - position < maxHeaderBytes else { return nil }
                matched = body[index] == separator[matched] ? matched + 1 : 0
                index += 1
            }
            defer { position = index }
            return position..<index
        }
    }

    /// The first byte of `bytes` that does not begin or continue a valid UTF-8 sequence, with its offset.
    private static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> (offset: Int, byte: UInt8)? {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            // The longest prefix that decodes: one more byte than a valid sequence's length at most (4).
            var end = min(bytes.endIndex, start + 4)
            while end > start, String(validating: bytes[start..<end], as: UTF8.self) == nil { end -= 1 }
            if end == start { return (start - bytes.startIndex, bytes[start]) }
            start = end
        }
        return nil
    }

    /// Header lines as FileUpload reads them (`getParsedHeaders`): lines up to the first empty one, a line starting
    /// with spaces or tabs continuing the one before (joined by a space, from its first other character), a line
    /// without `:` skipped, names and values trimmed of spaces and control characters. A line ends at CR LF (a lone CR
    /// is in the line). Split on the bytes (CR LF, `:` and the trimmed bytes are ASCII, never inside a UTF-8
    /// sequence): String's own split with a "\r\n" separator, and a String per line, took a fifth of a multipart
    /// request's time. `bytes` ends with CR LF CR LF (``Reader/headerSection()``).
    private static func parseHeaders(_ bytes: ArraySlice<UInt8>) -> HTTPHeaders {
        bytes.withUnsafeBufferPointer { buffer in
            var entries: [(name: String, value: String)] = []
            entries.reserveCapacity(2)
            var start = 0
            while let end = lineEnd(buffer, from: start), end > start {
                let line = start..<end
                var joined: [UInt8]? // the line's bytes with its continuation lines, only when it has some
                start = end + 2
                while start < buffer.count {
                    var text = start
                    while text < buffer.count && (buffer[text] == 0x20 || buffer[text] == 0x09) { text += 1 }
                    guard text > start, let continuationEnd = lineEnd(buffer, from: text) else { break }
                    if joined == nil { joined = Array(buffer[line]) }
                    joined?.append(0x20)
                    joined?.append(contentsOf: buffer[text..<continuationEnd])
                    start = continuationEnd + 2
                }
                add(entries: &entries, buffer, line, joined)
            }
            return HTTPHeaders(entries)
        }
    }

    /// Where the line from `start` ends: its CR LF's index (nil without one).
    private static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var end = start
        while end + 1 < buffer.count {
            if buffer[end] == 0x0D && buffer[end + 1] == 0x0A { return end }
            end += 1
        }
        return nil
    }

    /// The logical line `line` (or its `joined` bytes) as a field.
    private static func add(
        entries: inout [(name: String, value: String)], _ buffer: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, _ joined: [UInt8]?
    ) {
        if let joined {
            joined.withUnsafeBufferPointer { add(entries: &entries, $0, 0..<$0.count) }
        } else {
            add(entries: &entries, buffer, line)
        }
    }

    /// One header line (`line` of `bytes`) as FileUpload keeps it: skipped without a `:`, name and value trimmed.
    private static func add(entries: inout [(name: String, value: String)], _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) {
        guard let colon = line.first(where: { bytes[$0] == 0x3A }) else { return }
        let name = trimmed(bytes, line.lowerBound, colon)
        let value = trimmed(bytes, colon + 1, line.upperBound)
        entries.append(
            (
                String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self),
                String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
            ))
    }

    /// Java's `String.trim()` on UTF-8: every byte up to 0x20 (the characters up to U+0020) off both ends.
    static func javaTrimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { $0 > 0x20 }), let last = bytes.lastIndex(where: { $0 > 0x20 }) else { return [] }
        return bytes[first...last]
    }

    /// `javaTrimmed` on a range of a buffer.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var (start, end) = (start, end)
        while start < end && bytes[start] <= 0x20 { start += 1 }
        while end > start && bytes[end - 1] <= 0x20 { end -= 1 }
        return start..<end
    }

    /// The first index of `needle` in `haystack` at or after `start`, wholly before `end` (memmem's two-way
    /// search: linear in both, whatever the boundary and body hold).
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int, within end: Int? = nil) -> Int? {
        let end = min(end ?? haystack.count, haystack.count)
        guard start <= end else { return nil }
        return haystack.withUnsafeBufferPointer { buffer in
            ByteSearch.firstRange(of: needle, in: UnsafeBufferPointer(rebasing: buffer[..<end]), from: start)
        }
    }
}
