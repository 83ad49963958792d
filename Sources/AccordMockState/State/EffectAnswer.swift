import AccordHTTP
import AccordJSON

/// What effects answer: the `data`, and for a list the page's items already written as
/// JSON (kept in ``ListMemo``), which the envelope's bytes copy instead of writing again.
package struct EffectAnswer: Sendable {
    /// The answer's `data`; with a ``page``, the ``marker`` where the page's items go.
    package var data: JSONValue
    /// Where `data` holds the marker, and each of the page's items as JSON.
    package var page: (pointer: JSONPointer, items: [[UInt8]])?

    /// Stands in for the items while the rest is written: text no answer holds (NUL characters
    /// around a random number), found once in the written bytes and replaced.
    package static let marker = "\u{0}accord-page-\(UInt64.random(in: 0 ... .max))\u{0}"
    /// The marker as it is written in JSON.
    private static let markerBytes = JSONWriter.bytes(.string(marker))

    /// `data` with the page's items in place, read back from their JSON: for a fixture's
    /// sample (`accord generate`, `accord lint`), not for answers, which ``bytes(_:)`` writes.
    package var value: JSONValue {
        guard let page else { return data }
        var whole = data
        page.pointer.set(.array(page.items.compactMap { try? JSONReader.read($0) }), in: &whole)
        return whole
    }

    /// `envelope(data)` as bytes, the page's items copied in.
    package func bytes(_ envelope: (JSONValue) -> JSONValue) -> [UInt8] {
        let written = JSONWriter.bytes(envelope(data))
        guard let items = page?.items, let range = ByteSearch.firstRange(of: Self.markerBytes, in: written) else { return written }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(written.count + items.reduce(items.count + 1) { $0 + $1.count })
        bytes += written[..<range.lowerBound]
        bytes.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += item
        }
        bytes.append(UInt8(ascii: "]"))
        bytes += written[range.upperBound...]
        return bytes
    }
}
