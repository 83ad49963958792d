import AccordContract
import AccordHTTP
import AccordJSON
import AccordMocksFormat

/// Evaluates fixture matchers against one request.
package struct MatchContext {
    package let request: MockRequest
    package let parameters: [String: String]
    package let body: JSONValue?

    package init(request: MockRequest, parameters: [String: String], body: JSONValue?) {
        self.request = request
        self.parameters = parameters
        self.body = body
    }

    package func matches(_ matchers: [Matcher]) -> Bool {
        matchers.allSatisfy(matches)
    }

    private func matches(_ matcher: Matcher) -> Bool {
        let value: String? = switch matcher.source {
        case .params: parameters[matcher.key]
        case .query: request.query.first { $0.name == matcher.key }?.value
        case .headers: request.header(matcher.key)
        case .body: matcher.pointer.flatMap { body.flatMap($0.value) }.map(InterpolatedText.text)
        }
        switch matcher.condition {
        case .present(let expected): return (value != nil) == expected
        case .equals(let expected): return value == expected
        case .regex(let pattern): return value.map(pattern.matches) ?? false
        }
    }
}
