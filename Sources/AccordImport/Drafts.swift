import AccordContract
import AccordJSON

/// The service file as the import fills it in.
struct ServiceDraft {
    var name = "api"
    var title: String?
    var version = "1.0.0"
    var description: String?
    var basePath = ""
    /// The `auth:` section, nil for a public API.
    var auth: JSONValue?
    /// The header or query parameter of an API key (not imported as a parameter: the auth section carries it).
    var apiKeyHeader: String?
    var apiKeyQuery: String?
    /// Security scheme names the `auth:` section carries out; operations needing another are public with a warning.
    var carriedSchemes: Set<String> = []
    /// The document-wide requirement (`security:` at the root) says a credential is needed.
    var defaultSecurity: [String] = []
    /// Error statuses in the order first met, with the type of their body (nil: the shared one).
    var errorStatuses: [Int] = []
    var errorBodies: [Int: String] = [:]
    /// How many error responses use each body type, to choose the shared `errors.body`.
    var errorBodyCounts: [String: Int] = [:]
    var errorMediaTypes: [String: Int] = [:]
    /// `accord openapi`'s own record of the service file (`x-accord-service`), read back as written.
    var recorded: JSONValue?
    /// The envelope every answer is wrapped in (`--envelope`, or the record's), nil for a plain API.
    var envelope: Service.Envelope?
    /// The service-wide headers the record names, with the type each was imported as.
    var headerNames: [String] = []
    var headerTypes: [String: JSONValue] = [:]
    /// Headers the signing section implies (`X-Sign`…): not imported as parameters.
    var signingHeaders: Set<String> = []
}

/// One endpoint as the import fills it in, with the examples still to be checked.
struct EndpointDraft {
    var id: String
    var domain: String
    /// The operation in the document.
    var spot: Spot
    /// The endpoint's keys in contract order (`route`, `summary`, … `codes`).
    var members: [JSONValue.Member] = []
    /// Success examples: `{body?, response}` by name, with where the document wrote them.
    var examples: [ExampleDraft] = []
    /// Error examples, fixtures answered with their status.
    var fixtures: [ExampleDraft] = []
    /// The examples are the whole calls `accord openapi` recorded (`x-accord-examples`), written back as they were.
    var examplesAreRecorded = false
}

extension EndpointDraft {
    /// The request example an answer goes with: the one of its name, or the only one when there is one answer.
    static func request(for answer: ExampleDraft, among bodies: [ExampleDraft], answers: Int) -> ExampleDraft? {
        bodies.first { $0.name == answer.name } ?? (bodies.count == 1 && answers == 1 ? bodies.first : nil)
    }
}

/// An example from the document, kept only when it fits its schema.
struct ExampleDraft {
    var name: String
    /// A recorded example's path and query values and business code.
    var parameters: JSONValue?
    var query: JSONValue?
    var code = 0
    var body: JSONValue?
    var response: JSONValue?
    /// The HTTP status of an error example (nil for a success answered as a fixture).
    var status: Int?
    /// A success fixture the mock answers when nothing else matches.
    var isDefault = false
    /// Where the example's value is written, for `[example-invalid]`.
    var spot: Spot
}
