import AccordContract
import Testing

/// JSON media types as request bodies and plain APIs' errors name them (RFC 6839 `+json` included).
@Suite struct MediaTypesTests {
    @Test(arguments: [
        ("application/json", true), ("Application/JSON; charset=utf-8", true), (" \tapplication/json \t;q=1", true),
        ("application/problem+json", true), ("application/vnd.api+JSON", true), ("application/json;", true),
        ("application/+json", false), ("application/jsonx", false), ("application/json5", false), ("text/json", false),
        ("application/", false), ("", false), ("json", false), ("application/problem+json5", false), ("xapplication/json", false),
    ])
    func jsonIsTold(_ type: String, _ isJSON: Bool) {
        #expect(MediaTypes.isJSON(type) == isJSON)
    }
}
