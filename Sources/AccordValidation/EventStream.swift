/// The events of a `text/event-stream` body as the contracts use them: one `data:`
/// line each, ended by `data: [DONE]`.
public enum EventStream {
    /// The payload of each `data:` line (one leading space and a trailing CR dropped),
    /// up to `[DONE]`.
    public static func payloads(in body: [UInt8]) -> [ArraySlice<UInt8>] {
        var payloads: [ArraySlice<UInt8>] = []
        for line in body.split(separator: 0x0A) where line.starts(with: "data:".utf8) {
            var payload = line.dropFirst(5)
            if payload.first == 0x20 { payload = payload.dropFirst() }
            if payload.last == 0x0D { payload = payload.dropLast() }
            if payload.elementsEqual("[DONE]".utf8) { break }
            payloads.append(payload)
        }
        return payloads
    }
}
