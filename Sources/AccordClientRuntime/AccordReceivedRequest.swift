import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as the transport reads it, parsed once: the path below the base path, the
/// decoded query, headers, and the JSON body.
nonisolated struct ReceivedRequest {
    let request: URLRequest
    let url: URL
    let method: String
    /// The path's segments below the base path, still percent-encoded.
    let segments: [Substring]
    let query: [URLQueryItem]
    let body: CanonicalJSON?

    /// `request` as sent to a service whose paths start at `basePath` (`/api/v1`), which
    /// may follow a prefix of the server URL's own.
    init(_ request: URLRequest, basePath: String) {
        self.request = request
        url = request.url ?? URL(fileURLWithPath: "/")
        method = request.httpMethod ?? "GET"
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? url.path
        let below = path.range(of: basePath).map { path[$0.upperBound...] } ?? path[...]
        segments = below.split(separator: "/")
        query = components?.queryItems ?? []
        let type = request.value(forHTTPHeaderField: "Content-Type") ?? ""
        if let boundary = type.components(separatedBy: "boundary=").dropFirst().first, type.hasPrefix("multipart/form-data") {
            body = request.httpBody.map { Self.formFields($0, boundary: boundary) }
        } else {
            body = request.httpBody.flatMap { try? CanonicalJSON(parsing: Array($0)) }
        }
    }

    /// The text parts of a multipart body as the object of strings the signature covers
    /// (parts with a file name are files, and not signed).
    private static func formFields(_ data: Data, boundary: String) -> CanonicalJSON {
        var fields: [(key: String, value: CanonicalJSON)] = []
        let delimiter = Data("--\(boundary)".utf8), blank = Data("\r\n\r\n".utf8)
        var cursor = data.startIndex
        while let start = data.range(of: delimiter, in: cursor..<data.endIndex) {
            let partStart = start.upperBound + 2
            guard partStart < data.endIndex, let headEnd = data.range(of: blank, in: partStart..<data.endIndex),
                  let next = data.range(of: Data("\r\n".utf8) + delimiter, in: headEnd.upperBound..<data.endIndex) else { break }
            let head = String(decoding: data[partStart..<headEnd.lowerBound], as: UTF8.self)
            if !head.contains("filename="), let name = head.components(separatedBy: "name=\"").dropFirst().first?.prefix(while: { $0 != "\"" }) {
                fields.append((key: String(name), value: .string(String(decoding: data[headEnd.upperBound..<next.lowerBound], as: UTF8.self))))
            }
            cursor = next.lowerBound + 2
        }
        return .object(fields)
    }

    func header(_ name: String) -> String? {
        request.value(forHTTPHeaderField: name)
    }

    /// The path parameters `route`'s template names, decoded.
    func parameters(of route: MockRoute) -> [String: String] {
        var parameters: [String: String] = [:]
        for (pattern, segment) in zip(route.path.split(separator: "/"), segments) where pattern.hasPrefix("{") {
            parameters[String(pattern.dropFirst().dropLast())] = String(segment).removingPercentEncoding ?? String(segment)
        }
        return parameters
    }

    /// Whether a fixture's matcher holds, as `accord serve` tests it.
    func satisfies(_ matcher: MockRoute.Matcher, parameters: [String: String]) -> Bool {
        let value: String? = switch matcher.source {
        case .params: parameters[matcher.key]
        case .query: query.first { $0.name == matcher.key }?.value
        case .headers: header(matcher.key)
        case .body: body?.value(at: matcher.key)?.parameterText
        }
        return matcher.holds(for: value)
    }
}
