import AccordContract
import AccordJSON

extension OpenAPIDocument {
    /// A multipart body: each text part as its schema, each file part as binary with its
    /// media types (`encoding`), the required ones listed.
    func multipart(_ parts: [MultipartPart]) -> JSONValue {
        var properties: [JSONValue.Member] = []
        var encoding: [JSONValue.Member] = []
        for part in parts {
            switch part.content {
            case .text(let schema):
                properties.append(.init(part.name, schemas.schema(schema)))
            case .file(let rule):
                var file: [JSONValue.Member] = [.init("type", .string("string")), .init("format", .string("binary")),
                                                .init("maxLength", .int(rule.maxSize))]
                if let description = part.description { file.append(.init("description", .string(description))) }
                properties.append(.init(part.name, .object(file)))
                encoding.append(.init(part.name, .object([.init("contentType", .string(rule.contentTypes.joined(separator: ", ")))])))
            }
        }
        let required = parts.filter { !$0.isOptional }.map { JSONValue.string($0.name) }
        var schema: [JSONValue.Member] = [.init("type", .string("object")), .init("properties", .object(properties))]
        if !required.isEmpty { schema.append(.init("required", .array(required))) }
        return .object([.init("schema", .object(schema)), .init("encoding", .object(encoding))])
    }
}
