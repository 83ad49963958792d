import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordMocksFormat

private let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)

/// A template from bytes: the input as one `{{…}}` expression, and as a JSON document
/// whose strings may hold expressions, rendered against a request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let request = MockRequest(method: "POST", target: "/api/v1/signals/sg_1?limit=20&q=%E4%B8%AD", headers: [("X-OS", "ios")],
                              body: Array(#"{"content":"你好","n":[1,2.5,null]}"#.utf8))
    let context = TemplateContext(request: request, parameters: ["signal_id": "sg_1"], body: try? JSONReader.read(request.body),
                                  now: 1_796_025_600, state: state)
    let text = String(decoding: bytes, as: UTF8.self)
    if let expression = try? TemplateExpression(parsing: text) { _ = try? context.value(of: expression) }
    let document = (try? JSONReader.read(bytes)) ?? .string("{{\(text)}}")
    if let template = try? CompiledJSON(document) { _ = try? template.render(context) }
    return 0
}
