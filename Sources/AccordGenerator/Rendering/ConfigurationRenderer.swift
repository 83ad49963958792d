/// Writes `Support/ClientConfiguration.swift` (``ConfigurationDeclaration``) and
/// `ClientConfiguration.preview` for ``MockTransport``.
struct ConfigurationRenderer {
    /// `public ` or the empty string (internal).
    let access: String
    let declaration: ConfigurationDeclaration

    func source() -> String {
        let properties = declaration.properties
        var writer = SwiftWriter()
        writer.line("/// Who the client is, and where it calls.")
        writer.block("\(access)struct ClientConfiguration: AccordClientConfiguration") { writer in
            for property in properties {
                writer.documentation(property.documentation, remark: nil)
                writer.line("\(access)var \(property.name): \(property.type)")
            }
            writer.line()
            let parameters = properties.map { "\($0.name): \($0.type)" + ($0.defaultValue.map { " = \($0)" } ?? "") }
            writer.block("\(access)init(\(parameters.joined(separator: ", ")))") { writer in
                for property in properties { writer.line("self.\(property.name) = \(property.name)") }
            }
            writer.line()
            writer.line("/// The service-wide headers, and the API key when `requiresAuth` and it travels in a header.")
            writer.block("\(access)func headers(requiresAuth: Bool) -> [(String, String)]") { writer in
                let headers = properties.filter { $0.header != nil }
                let optional = headers.filter { $0.type.hasSuffix("?") }
                writer.line("\(optional.isEmpty && declaration.apiKeyHeader == nil ? "let" : "var") headers: [(String, String)] = [\(headers.filter { !$0.type.hasSuffix("?") }.map { "(\($0.header!.swiftLiteral), \($0.name))" }.joined(separator: ", "))]")
                for property in optional { writer.line("if let \(property.name) { headers.append((\(property.header!.swiftLiteral), \(property.name))) }") }
                if let apiKeyHeader = declaration.apiKeyHeader { writer.line("if requiresAuth { headers.append((\(apiKeyHeader.swiftLiteral), apiKey)) }") }
                writer.line("return headers")
            }
            writer.line()
            writer.line("/// The API key when `requiresAuth` and it travels in the query.")
            writer.block("\(access)func queryItems(requiresAuth: Bool) -> [QueryItem]") { writer in
                if let apiKeyQuery = declaration.apiKeyQuery {
                    writer.line("requiresAuth ? [QueryItem(name: \(apiKeyQuery.swiftLiteral), value: apiKey)] : []")
                } else {
                    writer.line("[]")
                }
            }
        }
        writer.line()
        writer.block("extension ClientConfiguration") { writer in
            writer.line("/// For previews and tests over ``MockTransport``: the contract's development credentials and a server that is never called.")
            writer.block("\(access)static var preview: ClientConfiguration") { writer in
                let arguments = properties.filter { $0.defaultValue == nil }.map { "\($0.name): \($0.preview)" }
                writer.line("ClientConfiguration(\(arguments.joined(separator: ", ")))")
            }
        }
        return writer.text
    }
}
