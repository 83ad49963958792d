import AccordContract
import AccordJSON
import AccordMocksFormat
import AccordValidation

/// The collections' records on disk (`accord serve --state FILE`), so a developer's
/// local mock keeps yesterday's data: written on stop, read at start.
///
/// ```json
/// {"accord_state":1,"collections":{"signals":{"type":"Signal","key":"id","sessions":{"ui-1":[{…}]}}}}
/// ```
///
/// Written deterministically (collections and sessions in name order), so an unchanged
/// state is written back byte for byte. A file that is not JSON, of another version, or
/// whose records no longer fit their collection is refused as a whole with the first
/// problem's position: the server then starts from the seeds.
public enum StateSnapshot {
    /// The format's version.
    package static let version = 1

    /// Why a snapshot was not loaded, with where: a line and column for text that is
    /// not JSON, else the JSON pointer the message starts with.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var line: Int?
        public var column: Int?
        public var message: String

        package init(line: Int? = nil, column: Int? = nil, description message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        public var description: String { message }

        /// The problem as an editor reads it: `FILE:3:7: warning: …` or `FILE: warning: /pointer: …`.
        public func rendered(file: String) -> String {
            if let line, let column { return "\(file):\(line):\(column): warning: \(message)" }
            return "\(file): warning: \(message)"
        }
    }

    /// The state of `store` as the file's bytes.
    public static func encode(_ store: any RecordStorage, collections: [String: CollectionDefinition]) throws(StorageError) -> [UInt8] {
        let exported = try store.export()
        let members: [JSONValue.Member] = exported.keys.sorted().compactMap { name in
            guard let definition = collections[name], let sessions = exported[name] else { return nil }
            return .init(name, .object([
                .init("type", .string(definition.typeName)), .init("key", .string(definition.key)),
                .init("sessions", .object(sessions.keys.sorted().map { .init($0, .array(sessions[$0] ?? [])) })),
            ]))
        }
        return JSONWriter.bytes(.object([.init("accord_state", .int(version)), .init("collections", .object(members))])) + [0x0A]
    }

    /// The records in `bytes`, checked against `collections` and `contract`; by collection, then session.
    public static func decode(_ bytes: [UInt8], collections: [String: CollectionDefinition],
                              contract: Contract) throws(Problem) -> [String: [String: [JSONValue]]] {
        let root: JSONValue
        do {
            root = try JSONReader.read(bytes)
        } catch {
            throw Problem(line: error.line, column: error.column, description: "not JSON: \(error.message)")
        }
        guard root["accord_state"] == .int(version) else {
            throw Problem(description: "/accord_state: expected \(version), found \(root["accord_state"]?.summary ?? "absent"): not a state file of this version")
        }
        guard case .object(let saved)? = root["collections"] else {
            throw Problem(description: "/collections: expected an object of collections")
        }
        let validator = SchemaValidator(contract: contract, unknownMembers: .reject)
        var result: [String: [String: [JSONValue]]] = [:]
        for member in saved {
            let at = "/collections/\(member.key.jsonPointerEscaped)"
            guard let definition = collections[member.key] else {
                throw Problem(description: "\(at): no collection '\(member.key)' in mocks/collections any more")
            }
            guard member.value["type"] == .string(definition.typeName), member.value["key"] == .string(definition.key) else {
                throw Problem(description: "\(at): saved as \(member.value["type"]?.summary ?? "no type") keyed by \(member.value["key"]?.summary ?? "nothing"), "
                              + "now '\(definition.typeName)' keyed by '\(definition.key)'")
            }
            guard case .object(let sessions)? = member.value["sessions"] else {
                throw Problem(description: "\(at)/sessions: expected an object of sessions")
            }
            let schema = Schema(.reference(definition.typeName), location: definition.location)
            for session in sessions {
                let sessionAt = "\(at)/sessions/\(session.key.jsonPointerEscaped)"
                guard case .array(let records) = session.value, records.count <= definition.limit else {
                    throw Problem(description: "\(sessionAt): expected an array of at most \(definition.limit) records")
                }
                for (index, record) in records.enumerated() {
                    if let violation = validator.validate(record, against: schema, at: "\(sessionAt)/\(index)").first {
                        throw Problem(description: "\(violation.pointer): \(violation.message)")
                    }
                }
                result[member.key, default: [:]][session.key] = records
            }
        }
        return result
    }
}
