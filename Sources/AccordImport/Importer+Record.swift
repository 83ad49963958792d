import AccordContract
import AccordJSON

/// `x-accord-service`, the record `accord openapi` keeps of the service file, read back: the envelope,
/// signing, auth, service headers, validation and code table come back as they were written.
extension Importer {
    mutating func readRecord(_ root: Spot) {
        guard let record = root["x-accord-service"] else { return }
        let value = record.json
        service.recorded = value
        if let name = value["name"], case .string(let text) = name { service.name = text }
        if let envelope = value["envelope"], case .string(let code)? = envelope["code"], case .string(let message)? = envelope["msg"],
           case .string(let data)? = envelope["data"] {
            service.envelope = Service.Envelope(code: code, message: message, data: data)
        }
        if case .array(let names)? = value["headers"] { service.headerNames = names.compactMap { if case .string(let name) = $0 { name } else { nil } } }
        if case .object(let headers)? = value["signing"]?["headers"] {
            service.signingHeaders = Set(headers.compactMap { if case .string(let name) = $0.value { name.lowercased() } else { nil } })
        }
    }

    /// The types the record names (codes' `data`, the errors' `body`), declared from the components of that name.
    mutating func declareRecordedTypes(_ root: Spot) {
        guard let record = service.recorded else { return }
        var names: [String] = []
        if case .array(let entries)? = record["codes"] {
            names += entries.compactMap { if case .string(let name)? = $0["data"] { name } else { nil } }
        }
        if case .string(let body)? = record["errors"]?["body"] { names.append(body) }
        for name in names { _ = recordedType(name, root) }
    }

    /// The named type of the component `name` (as `accord openapi` names a type's component).
    mutating func recordedType(_ name: String, _ root: Spot) -> String? {
        guard let component = root["components"]?["schemas"]?[name] else { return nil }
        return namedType(component, target: SpecFiles.normalized(component.file) + "#" + component.pointer, domain: nil)
    }

    /// `stream: {toggle, event}` from the operation's `x-accord-stream`.
    mutating func recordedStream(_ operation: Spot) -> JSONValue? {
        guard let record = operation["x-accord-stream"], let toggle = record["toggle"]?.text, let event = record["event"]?.text,
              let root = references.files.root(), let name = recordedType(event, root) else { return nil }
        return .object([.init("toggle", .string(toggle)), .init("event", .string(name))])
    }

    /// The service file's sections from the record (nil when the document has none).
    var recordedSections: [JSONValue.Member]? {
        guard let record = service.recorded else { return nil }
        var members: [JSONValue.Member] = []
        if let errors = record["errors"] { members.append(.init("errors", errors)) }
        for key in ["signing", "auth"] { if let section = record[key] { members.append(.init(key, section)) } }
        if !service.headerNames.isEmpty {
            members.append(.init("headers", .object(service.headerNames.map { .init($0, service.headerTypes[$0] ?? .string("string")) })))
        }
        for key in ["validation", "swift"] { if let section = record[key] { members.append(.init(key, section)) } }
        members.append(.init("codes", .object(Self.table(record["codes"]))))
        return members
    }

    /// The recorded code table keyed by code (a code with several entries as a list).
    private static func table(_ entries: JSONValue?) -> [JSONValue.Member] {
        guard case .array(let entries)? = entries else { return [] }
        var order: [Int] = []
        var byCode: [Int: [JSONValue]] = [:]
        for entry in entries {
            guard case .int(let code)? = entry["code"], case .object(let members) = entry else { continue }
            if byCode[code] == nil { order.append(code) }
            byCode[code, default: []].append(.object(members.filter { $0.key != "code" }))
        }
        return order.sorted().map { code in
            let entries = byCode[code] ?? []
            return .init(String(code), entries.count == 1 ? entries[0] : .array(entries))
        }
    }

    /// The schema of an envelope's `data` in a success answer: the member of the object (or of the `oneOf`/`allOf`
    /// branch) whose code is 0, or whichever branch has a `data`; nil when the answer is not an envelope.
    mutating func envelopeData(_ schema: Spot, _ envelope: Service.Envelope) -> Spot? {
        var target = schema
        if case .found(let found) = references.resolve(schema) { target = found }
        // An envelope whose code is never 0 carries business codes only: no success's data.
        if let code = target["properties"]?[envelope.code] {
            let values = code["const"].map { [$0.int] } ?? code["enum"]?.items.map(\.int)
            if let values, !values.contains(0) { return nil }
        }
        if let data = target["properties"]?[envelope.data] { return data }
        for keyword in ["oneOf", "anyOf", "allOf"] {
            let branches = target[keyword]?.items ?? []
            var success: Spot?
            for branch in branches where success == nil {
                let resolved: Spot = if case .found(let found) = references.resolve(branch) { found } else { branch }
                let code = resolved["properties"]?[envelope.code]
                if code?["const"]?.int == 0 || code?["enum"]?.items.map(\.int) == [0] { success = branch }
            }
            // Later branches of an `allOf` refine earlier ones (`data: {}` in a shared envelope, then `data: User`).
            let ordered = (success.map { [$0] } ?? []) + (keyword == "allOf" ? branches.reversed() : branches)
            for branch in ordered {
                if let data = envelopeData(branch, envelope), !(data.isMapping && data.members.isEmpty) { return data }
            }
            for branch in ordered { if let data = envelopeData(branch, envelope) { return data } }
        }
        return nil
    }

    /// An example of a whole envelope as its business code and `data` (an example that is no envelope is the data itself).
    func unwrapped(_ value: JSONValue, _ envelope: Service.Envelope) -> (code: Int, data: JSONValue?) {
        guard case .object = value, value[envelope.code] != nil || value[envelope.data] != nil else { return (0, value) }
        guard case .int(let code)? = value[envelope.code] else { return (0, value[envelope.data]) }
        return (code, value[envelope.data])
    }
}
