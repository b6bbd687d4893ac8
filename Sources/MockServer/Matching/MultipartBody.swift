import AutomationSupport

/// A request body split into parts as WireMock 2.35 splits it (Apache Commons FileUpload): the boundary from the
/// `Content-Type` (quoted or not), a preamble skipped up to the first `--boundary`, each part's header lines up to an
/// empty line, its body up to CRLF `--boundary`, and the body ending at `--boundary--`. Parts without a form-data
/// name (`Content-Disposition: form-data; name="…"`) are skipped, as FileUpload skips them.
///
/// Bounded: at most ``maxParts`` parts and ``maxHeaderBytes`` of headers per part (FileUpload's own limit);
/// one pass over the body with memmem's two-way search, so its cost is linear in the body, whatever the boundary.
/// Beyond a bound, or in a body that breaks the format, it is ``Parsed/malformed(_:)``: no multipart pattern matches
/// it (WireMock answers 500 there).
enum MultipartBody {
    static let maxParts = 1000
    static let maxHeaderBytes = 10_240

    struct Part: Sendable {
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
        guard let boundaryText = parameter("boundary", in: contentType), !boundaryText.isEmpty else {
            return .malformed("its Content-Type has no boundary")
        }
        let boundary = Array(("--" + boundaryText).utf8)
        guard var index = firstIndex(of: boundary, in: body, from: 0) else {
            return .malformed("no --\(boundaryText.prefix(70)) in the body")
        }
        index += boundary.count
        var parts: [Part] = []
        var seen = 0
        let delimiter = Array("\r\n".utf8) + boundary
        while true {
            // After a boundary: "--" ends the body, and so does the body's end (WireMock 2.35 reads the parts before
            // it); CRLF (or a lone LF, as FileUpload allows) starts a part.
            if body[index...].starts(with: [0x2D, 0x2D]) || index >= body.count { return .parts(parts) }
            if body[index...].starts(with: [0x0D, 0x0A]) {
                index += 2
            } else if index < body.count && body[index] == 0x0A {
                index += 1
            } else {
                return .malformed("unexpected characters follow a boundary")
            }
            seen += 1
            guard seen <= maxParts else { return .malformed("it has more than \(maxParts) parts") }
            guard let headerEnd = headersEnd(body, from: index) else {
                return .malformed("a part's headers are longer than \(maxHeaderBytes) bytes or not ended by an empty line")
            }
            let headers = parseHeaders(body[index..<headerEnd.start])
            guard let end = firstIndex(of: delimiter, in: body, from: headerEnd.bodyStart) else {
                return .malformed("a part is not closed by a boundary")
            }
            if fieldName(headers) != nil {
                let section = body[index..<headerEnd.start]
                // ASCII (the usual part) is valid UTF-8 without decoding it.
                let ascii = !section.contains { $0 >= 0x80 }
                let bad = ascii || String(validating: section, as: UTF8.self) != nil ? nil : firstInvalidUTF8(section)
                parts.append(Part(headers: headers, body: Array(body[headerEnd.bodyStart..<end]), notUTF8: bad))
            }
            index = end + delimiter.count
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

    /// Where a part's header section ends (CRLF CRLF; a part may start with CRLF: no headers), within the limit.
    private static func headersEnd(_ body: [UInt8], from start: Int) -> (start: Int, bodyStart: Int)? {
        if body[start...].starts(with: [0x0D, 0x0A]) { return (start, start + 2) }
        let limit = min(body.count, start + maxHeaderBytes)
        guard let end = firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: body, from: start, within: limit) else { return nil }
        return (end, end + 4)
    }

    /// Header lines as FileUpload reads them: lines starting with a space or tab continue the one before (joined by a
    /// space), a line without `:` is skipped, names and values are trimmed of spaces and control characters. Split on
    /// the bytes (CR LF, `:` and the trimmed bytes are ASCII, never inside a UTF-8 sequence): String's own split with
    /// a "\r\n" separator, and a String per line, took a fifth of a multipart request's time.
    private static func parseHeaders(_ bytes: ArraySlice<UInt8>) -> HTTPHeaders {
        bytes.withUnsafeBufferPointer { buffer in
            var entries: [(name: String, value: String)] = []
            entries.reserveCapacity(2)
            // The logical line so far, and its bytes joined with its continuation lines only when it has some. Plain
            // locals, no nested functions capturing them (those cost a context per part; callgrind).
            var pending: Range<Int>?
            var joined: [UInt8]?
            var start = 0
            while start <= buffer.count {
                var end = start
                while end + 1 < buffer.count && !(buffer[end] == 0x0D && buffer[end + 1] == 0x0A) { end += 1 }
                if end + 1 >= buffer.count { end = buffer.count }
                if start < end, buffer[start] == 0x20 || buffer[start] == 0x09, let current = pending {
                    if joined == nil { joined = Array(buffer[current]) }
                    joined?.append(0x20)
                    joined?.append(contentsOf: buffer[trimmed(buffer, start, end)])
                } else if start < end {
                    add(entries: &entries, buffer, pending, joined)
                    pending = start..<end
                    joined = nil
                }
                start = end + 2
            }
            add(entries: &entries, buffer, pending, joined)
            return HTTPHeaders(entries)
        }
    }

    /// The logical line `pending` (or its `joined` bytes) as a field, when there is one.
    private static func add(
        entries: inout [(name: String, value: String)], _ buffer: UnsafeBufferPointer<UInt8>, _ pending: Range<Int>?, _ joined: [UInt8]?
    ) {
        if let joined {
            joined.withUnsafeBufferPointer { add(entries: &entries, $0, 0..<$0.count) }
        } else if let pending {
            add(entries: &entries, buffer, pending)
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

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The part's form-data name, which FileUpload requires of a part it keeps.
    static func fieldName(_ headers: HTTPHeaders) -> String? {
        guard let disposition = headers["Content-Disposition"], disposition.hasASCIIPrefixIgnoringCase("form-data") else { return nil }
        return parameter("name", in: disposition).map { text(javaTrimmed(Array($0.utf8)[...])) }
    }

    /// The last parameter called `wanted` (ASCII lower case) in `type; name=value; other="quoted; value"`, names
    /// compared as FileUpload's ParameterParser lower-cases them (it also splits at commas in a Content-Type). Read on
    /// the bytes (quotes, separators and trimmed bytes are ASCII) and without a dictionary of every parameter.
    static func parameter(_ wanted: String, in header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes in
            var inQuotes = false
            var start = 0
            var first = true
            var found: String? // the last one given wins, as in Commons FileUpload's ParameterParser (a map)
            for index in 0...bytes.count {
                if index < bytes.count {
                    if bytes[index] == 0x22 { inQuotes.toggle() }
                    guard !inQuotes && (bytes[index] == 0x3B || bytes[index] == 0x2C) else { continue }
                }
                defer { start = index + 1 }
                if first { // the value before the first separator: not a parameter
                    first = false
                    continue
                }
                var equals = start
                while equals < index && bytes[equals] != 0x3D { equals += 1 }
                guard equals < index, isName(bytes[trimmed(bytes, start, equals)], wanted) else { continue }
                var value = trimmed(bytes, equals + 1, index)
                if value.count >= 2, bytes[value.lowerBound] == 0x22, bytes[value.upperBound - 1] == 0x22 {
                    value = (value.lowerBound + 1)..<(value.upperBound - 1)
                }
                found = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
            }
            return found
        }
    }

    /// `javaTrimmed` on a range of a buffer.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var (start, end) = (start, end)
        while start < end && bytes[start] <= 0x20 { start += 1 }
        while end > start && bytes[end - 1] <= 0x20 { end -= 1 }
        return start..<end
    }

    /// Whether a parameter's name is `wanted` (ASCII lower case) once lower-cased: on the bytes while they are ASCII.
    private static func isName(_ name: UnsafeBufferPointer<UInt8>.SubSequence, _ wanted: String) -> Bool {
        var wanted = wanted
        return wanted.withUTF8 { expected in
            guard name.count == expected.count || name.contains(where: { $0 >= 0x80 }) else { return false }
            var index = 0
            for byte in name {
                guard byte < 0x80, index < expected.count else {
                    return String(decoding: name, as: UTF8.self).equalsIgnoringCase(String(decoding: expected, as: UTF8.self))
                }
                let lowered = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                guard lowered == expected[index] else { return false }
                index += 1
            }
            return index == expected.count
        }
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
