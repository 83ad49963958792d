import AccordCommandLine
import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordSigning
import Foundation

/// `accord sign METHOD URL`: the headers a request needs to pass the mock's checks
/// (service headers, the signature, the token), or with `--curl` one curl command line
/// that sends it. The signature is made as the server checks it (docs/signing.md): the
/// query as decoded, a JSON body's top-level members, a form's text parts.
struct SignCommand: Subcommand {
    let name = "sign"
    let abstract = "Print the signing headers of a request, or with --curl a curl command line the mock accepts."
    let positionals: String? = "METHOD URL"
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "body", valueName: "JSON|@FILE", help: "The JSON body, or @FILE to read it from a file."),
        Arguments.Option(name: "form", valueName: "NAME=VALUE|NAME=@FILE", help: "A multipart part: text, or a file to upload; repeatable."),
        Arguments.Option(name: "token", valueName: "TOKEN", help: "The access token, sent as the contract's auth header says."),
        Arguments.Option(name: "header", valueName: "NAME:VALUE", help: "A service header's value over the contract's default; repeatable."),
        Arguments.Option(name: "app-key", valueName: "KEY:SECRET", help: "Sign with this app key (default: the contract's first)."),
        Arguments.Option(name: "timestamp", valueName: "SECONDS", help: "The signing time in Unix seconds (default: now)."),
        Arguments.Option(name: "nonce", valueName: "TEXT", help: "The nonce, 1 to 64 of A-Z a-z 0-9 _ - (default: a random one)."),
        Arguments.Option(name: "curl", valueName: nil, help: "Print one curl command line, quoted for bash, instead of the headers."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let call: SignedCall
        do throws(UsageError) {
            guard arguments.positionals.count == 2 else { throw UsageError("'accord sign' takes METHOD and URL, as in 'accord sign GET http://localhost:8080/api/v1/users/me'") }
            guard let contract = loadContract(arguments, console: console) else { return 1 }
            call = try SignedCall(arguments, contract: contract)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        console.print(arguments.has("curl") ? call.curl : call.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
        return 0
    }
}

/// One request as `accord sign` was asked for it, with every header it needs.
private struct SignedCall {
    var method: String
    /// The URL as curl should send it: anything outside ASCII's printable set percent-encoded.
    var url: String
    var headers: [(name: String, value: String)]
    var body: CurlCommand.Body

    init(_ arguments: Arguments, contract: Contract) throws(UsageError) {
        method = arguments.positionals[0].uppercased()
        let written = arguments.positionals[1]
        guard let schemeEnd = written.range(of: "://"), let slash = written[schemeEnd.upperBound...].firstIndex(of: "/") else {
            throw UsageError("the URL is absolute with a path, as in http://localhost:8080/api/v1/users/me; found '\(written)'")
        }
        url = String(written[..<slash]) + CurlCommand.encodedTarget(String(written[slash...]))
        let request = MockRequest(method: method, target: String(written[slash...]))
        guard case .endpoint(let endpoint, _) = Router(contract: contract).match(method: method, path: request.path) else {
            throw UsageError("no endpoint of the contracts answers \(method) \(request.path)")
        }
        let app = try arguments.colonPairs("app-key", form: "KEY:SECRET").last.map { (key: $0.name, secret: $0.value) }
        let given = Dictionary(try arguments.colonPairs("header"), uniquingKeysWith: { $1 })
        let builder: ContractRequest.Builder
        do {
            builder = try ContractRequest.Builder(contract: contract, app: app, given: given)
        } catch {
            throw UsageError(error.message)
        }
        (body, headers) = try Self.body(arguments, endpoint: endpoint)
        let signed = try Self.signedParameters(body)
        let timestamp = try arguments.integer("timestamp", in: 0...9_999_999_999) ?? Int(Date().timeIntervalSince1970)
        let nonce = arguments["nonce"] ?? Self.randomNonce()
        guard SignatureVerifier.isWellFormedNonce(nonce) else {
            throw UsageError("'--nonce' is 1 to 64 of A-Z a-z 0-9 _ -, found '\(nonce)'")
        }
        let sample = builder.request(to: endpoint, parameters: nil, query: .object(request.query.map { .init($0.name, .string($0.value)) }),
                                     body: signed, accessToken: arguments["token"], timestamp: Int64(timestamp), nonce: nonce)
        // The builder's own query, body and Content-Type are set aside: the URL and body are the ones given.
        headers = sample.headers.filter { $0.name.lowercased() != "content-type" } + headers
    }

    /// The body given and the Content-Type it travels with (curl sets a form's own).
    private static func body(_ arguments: Arguments, endpoint: Endpoint) throws(UsageError) -> (CurlCommand.Body, [(name: String, value: String)]) {
        let forms = arguments.all("form")
        if let text = arguments["body"] {
            guard forms.isEmpty else { throw UsageError("a request has one body: give '--body' or '--form', not both") }
            if text.hasPrefix("@") {
                let path = String(text.dropFirst())
                guard FileManager.default.isReadableFile(atPath: path) else { throw UsageError("cannot read '\(path)' for '--body'") }
                return (.file(path), [("Content-Type", "application/json")])
            }
            return (.data(text), [("Content-Type", "application/json")])
        }
        guard !forms.isEmpty else { return (.none, []) }
        let parts = endpoint.multipart ?? []
        return (.form(try forms.map { (form) throws(UsageError) in
            guard let equals = form.firstIndex(of: "="), equals != form.startIndex else { throw UsageError("'--form' takes NAME=VALUE or NAME=@FILE, found '\(form)'") }
            let name = String(form[..<equals]), value = String(form[form.index(after: equals)...])
            guard value.hasPrefix("@") else { return (name, .text(value)) }
            let path = String(value.dropFirst())
            guard FileManager.default.isReadableFile(atPath: path) else { throw UsageError("cannot read '\(path)' for part '\(name)'") }
            let rule = parts.first { $0.name == name }.flatMap { if case .file(let rule) = $0.content { rule } else { nil } }
            return (name, .file(path: path, contentType: rule.flatMap { Self.contentType(of: path, among: $0.contentTypes) }))
        }), [])
    }

    /// The allowed media type the file's extension names (`.jpg` → `image/jpeg`), else the first allowed.
    private static func contentType(of path: String, among allowed: [String]) -> String? {
        let written = (path as NSString).pathExtension.lowercased()
        let subtype = written == "jpg" ? "jpeg" : written
        return allowed.first { $0.lowercased().hasSuffix("/" + subtype) } ?? allowed.first
    }

    /// What the signature covers of the body: a JSON object's members, a form's text parts.
    private static func signedParameters(_ body: CurlCommand.Body) throws(UsageError) -> JSONValue? {
        switch body {
        case .none: return nil
        case .data(let text):
            do {
                return try JSONReader.read(Array(text.utf8))
            } catch {
                throw UsageError("the body is not JSON: \(error)")
            }
        case .file(let path):
            return try signedParameters(.data(String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)))
        case .form(let parts):
            return .object(parts.compactMap { part in if case .text(let text) = part.value { .init(part.name, .string(text)) } else { nil } })
        }
    }

    private static func randomNonce() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<16).map { _ in alphabet.randomElement()! })
    }

    /// The curl command line, each argument quoted for bash.
    var curl: String { CurlCommand.line(method: method, url: url, headers: headers, body: body) }
}
