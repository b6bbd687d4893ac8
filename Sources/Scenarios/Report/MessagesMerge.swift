import AutomationSupport

/// The Messages of several shards of one run written as one run (`sut-launch report --messages`): one `meta`, one
/// `testRunStarted`, each document and pickle once (a shard's copies point at the first's ids), each shard's ids
/// otherwise kept apart (`shard2-…`), every result's place after the previous shards', and one `testRunFinished`
/// (success when every shard's was, at the latest timestamp; none when a shard has none: the merged run is cut short
/// as that shard was). Read back, it gives what the shards give, the number of
/// shards included: it is written as the run's attachment `sut-launch-merge.json` (`{"shards":N}`), which a merge of
/// merged files adds up.
package enum MessagesMerge {
    package static func merge(_ files: [[UInt8]]) -> [UInt8] {
        var merger = Merger()
        for (index, bytes) in files.enumerated() { merger.add(bytes, shard: index) }
        return merger.finish()
    }

    private struct Merger {
        var lines: [String] = []
        var ids: [String: String] = [:]
        var seen: [String: String] = [:] // a document, pickle or definition's key → its first id (a source: its text)
        /// The feature files the shard being read ran another text of than an earlier shard.
        var otherText: Set<String> = []
        var runId: String?
        var success = true
        var finished: JSONNode?
        var prefix = ""
        var indexOffset = 0
        /// The shards merged so far, and those the file being read says it holds (a merged file: more than one).
        var shards = 0
        var shardsInFile: Int?
        /// Every file so far had its `testRunFinished`; the file being read has one.
        var allFinished = true
        var fileFinished = false

        mutating func add(_ bytes: [UInt8], shard: Int) {
            // Numbered by the shards before it (a merged file counts all of its own): no id twice in a merge of merges.
            prefix = shards == 0 ? "" : "shard\(shards + 1)-"
            ids = [:]
            otherText = []
            var largest = -1
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                guard let node = try? JSONParser.parse(Array(line)), let member = node.members?.first else { continue }
                largest = max(largest, self.envelope(member.key, member.value, shard: shard))
            }
            indexOffset += largest + 1
            shards += shardsInFile ?? 1
            shardsInFile = nil
            allFinished = allFinished && fileFinished
            fileFinished = false
        }

        /// Adds one envelope; returns the result index it carried (-1 when none).
        mutating func envelope(_ key: String, _ value: JSONNode, shard: Int) -> Int {
            switch key {
            case "meta": if shard > 0 { return -1 }
            case "testRunStarted":
                if shard > 0 { return -1 }
                runId = value["id"]?.string
            case "testRunFinished":
                fileFinished = true
                success = success && (value["success"]?.bool ?? false)
                if finished == nil
                    || (MessagesReader.milliseconds(value["timestamp"]) ?? 0) > (MessagesReader.milliseconds(finished?["timestamp"]) ?? 0)
                {
                    finished = value
                }
                return -1
            case "source":
                // Another text of a feature file (a shard of another checkout): kept with its document beside the first's.
                let uri = value["uri"]?.string ?? ""
                let data = value["data"]?.string ?? ""
                if let first = seen["source:" + uri] {
                    guard first != data else { return -1 }
                    otherText.insert(uri)
                } else {
                    seen["source:" + uri] = data
                }
            case "gherkinDocument":
                let uri = value["uri"]?.string ?? ""
                guard otherText.contains(uri) || seen.updateValue("", forKey: key + ":" + uri) == nil else { return -1 }
            case "pickle", "stepDefinition", "hook":
                if deduplicated(key, value) { return -1 }
            case "attachment" where value["fileName"]?.string == ReportRecord.mergeFile:
                shardsInFile = (shardsInFile ?? 0) + (ReportRecord.shards(value) ?? 1)
                return -1
            default: break
            }
            var index = -1
            var renamed = rename(value)
            if key == "attachment", let shifted = shiftIndex(renamed) { (renamed, index) = shifted }
            lines.append("{" + JSONWriter.quoted(key) + ":" + JSONWriter.write(renamed) + "}")
            return index
        }

        /// A pickle (same place, same text) or definition (same pattern or name) seen in an earlier shard: its ids map to
        /// the first's. A pickle of another text at the same place (a shard of another checkout, which `report` names) is
        /// kept as its own: its test steps mapped onto the first's steps by position named steps no pickle held (R10B-3).
        mutating func deduplicated(_ key: String, _ value: JSONNode) -> Bool {
            guard let id = value["id"]?.string else { return false }
            let identity =
                key == "pickle"
                ? "\(value["uri"]?.string ?? ""):\(value["location"]?["line"]?.int ?? 0)"
                : JSONWriter.write(value["pattern"] ?? value["name"] ?? JSONNode(.null)) + (value["type"]?.string ?? "")
            guard let first = seen[key + ":" + identity], key != "pickle" || seen["text:" + first] == Self.text(of: value) else {
                guard seen[key + ":" + identity] == nil else { return false }
                seen[key + ":" + identity] = prefix + id
                if key == "pickle" {
                    seen["steps:" + prefix + id] = (value["steps"]?.elements ?? []).compactMap { $0["id"]?.string }.map { prefix + $0 }
                        .joined(separator: "\n")
                    seen["text:" + prefix + id] = Self.text(of: value)
                }
                return false
            }
            ids[id] = first
            let firstSteps = seen["steps:" + first]?.split(separator: "\n").map(String.init) ?? []
            for (position, step) in (value["steps"]?.elements ?? []).enumerated() where position < firstSteps.count {
                if let stepId = step["id"]?.string { ids[stepId] = firstSteps[position] }
            }
            return true
        }

        /// A pickle's text without its ids: name, tags, and each step's text and argument.
        static func text(of pickle: JSONNode) -> String {
            let steps = (pickle["steps"]?.elements ?? []).map { step in
                JSONNode(.array([step["text"] ?? JSONNode(.null), step["argument"] ?? JSONNode(.null)]))
            }
            let tags = (pickle["tags"]?.elements ?? []).map { $0["name"] ?? JSONNode(.null) }
            return JSONWriter.write(JSONNode(.array([pickle["name"] ?? JSONNode(.null), JSONNode(.array(tags)), JSONNode(.array(steps))])))
        }

        func rename(_ node: JSONNode) -> JSONNode {
            switch node.value {
            case .object(let members):
                return JSONNode(
                    .object(
                        members.map { member in
                            var member = member
                            if member.key == "testRunStartedId", let runId {
                                member.value = JSONNode(.string(runId))
                            } else if member.key == "id" || member.key.hasSuffix("Id"), let id = member.value.string {
                                member.value = JSONNode(.string(ids[id] ?? prefix + id))
                            } else if member.key.hasSuffix("Ids"), let list = member.value.elements {
                                member.value = JSONNode(
                                    .array(list.map { JSONNode(.string($0.string.map { ids[$0] ?? prefix + $0 } ?? "")) }))
                            } else {
                                member.value = rename(member.value)
                            }
                            return member
                        }), at: node.position)
            case .array(let elements): return JSONNode(.array(elements.map(rename)), at: node.position)
            default: return node
            }
        }

        /// A sut-launch result record's index moved after the earlier shards' results, so the merged run keeps their order.
        func shiftIndex(_ attachment: JSONNode) -> (JSONNode, Int)? {
            guard attachment["fileName"]?.string == ReportRecord.resultFile, let body = attachment["body"]?.string,
                let record = try? JSONParser.parse(body), let index = record["index"]?.int.map({ min(max($0, 0), 1 << 36) }),
                var members = record.members,
                var outer = attachment.members
            else { return nil }
            if let at = members.firstIndex(where: { $0.key == "index" }) { members[at].value = JSONNode(.int(index + indexOffset)) }
            if let at = outer.firstIndex(where: { $0.key == "body" }) {
                outer[at].value = JSONNode(.string(JSONWriter.write(JSONNode(.object(members)))))
            }
            return (JSONNode(.object(outer)), index)
        }

        mutating func finish() -> [UInt8] {
            let merge = "{\"shards\":\(min(shards, ReportRecord.maxShards))}"
            lines.append(ReportRecord.attachment(merge, fileName: ReportRecord.mergeFile, testRunStartedId: runId))
            // A shard cut short (no testRunFinished) leaves the merged run cut short too: read back, it says so.
            if allFinished, let finished, var members = finished.members {
                if let at = members.firstIndex(where: { $0.key == "success" }) { members[at].value = JSONNode(.bool(success)) }
                lines.append("{\"testRunFinished\":" + JSONWriter.write(JSONNode(.object(members))) + "}")
            }
            return Array((lines.joined(separator: "\n") + "\n").utf8)
        }
    }
}
