import AccordJSON
internal import CYAML

/// Writes a JSON value as YAML through libyaml's emitter: block style, UTF-8 kept as
/// written, strings quoted whenever a plain scalar would read back as something else
/// (`"true"`, `"1.0"`, `"2026-11-30"`, `""`), multi-line strings as literal blocks.
public enum YAMLEmitter {
    /// libyaml refused an event (a bug here, never the data's fault).
    public struct EmitError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The document for `value`. With `integerKeys`, a mapping key written as a decimal integer (`"404"`) is
    /// written plain (`404:`), so it reads back as the integer a contract's code table is keyed by.
    public static func document(_ value: JSONValue, integerKeys: Bool = false) throws(EmitError) -> String {
        let output = Output()
        let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
        defer {
            yaml_emitter_delete(emitter)
            emitter.deallocate()
        }
        guard yaml_emitter_initialize(emitter) == 1 else { throw EmitError(description: "libyaml could not start an emitter") }
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        let context = Unmanaged.passUnretained(output).toOpaque()
        yaml_emitter_set_output(emitter, { data, buffer, size in
            guard let data, let buffer else { return 0 }
            Unmanaged<Output>.fromOpaque(data).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
            return 1
        }, context)
        let writer = Writer(emitter: emitter, integerKeys: integerKeys)
        try writer.emit { yaml_stream_start_event_initialize(&$0, YAML_UTF8_ENCODING) }
        try writer.emit { yaml_document_start_event_initialize(&$0, nil, nil, nil, 1) }
        try writer.write(value)
        try writer.emit { yaml_document_end_event_initialize(&$0, 1) }
        try writer.emit { yaml_stream_end_event_initialize(&$0) }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Whether a plain scalar `text` would be read as something other than a string.
    static func needsQuotes(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return true }
        let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]
        if reserved.contains(text.lowercased()) { return true }
        return ("0"..."9").contains(first) || first == "." || first == "+" || first == "-" || first == " " || text.last == " "
    }

    private final class Output {
        var bytes: [UInt8] = []
    }

    private struct Writer {
        let emitter: UnsafeMutablePointer<yaml_emitter_t>
        let integerKeys: Bool

        func emit(_ initialize: (inout yaml_event_t) -> Int32) throws(EmitError) {
            var event = yaml_event_t()
            guard initialize(&event) == 1 else { throw EmitError(description: "libyaml refused an event") }
            guard yaml_emitter_emit(emitter, &event) == 1 else {
                throw EmitError(description: "libyaml could not emit: \(emitter.pointee.problem.map { String(cString: $0) } ?? "unknown problem")")
            }
        }

        func write(_ value: JSONValue) throws(EmitError) {
            switch value {
            case .null: try scalar("null", style: YAML_PLAIN_SCALAR_STYLE)
            case .bool(let flag): try scalar(flag ? "true" : "false", style: YAML_PLAIN_SCALAR_STYLE)
            case .int(let number): try scalar(String(number), style: YAML_PLAIN_SCALAR_STYLE)
            case .double(let number): try scalar(JSONWriter.number(number), style: YAML_PLAIN_SCALAR_STYLE)
            case .string(let text):
                let style = text.contains("\n") ? YAML_LITERAL_SCALAR_STYLE : YAMLEmitter.needsQuotes(text) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE
                try scalar(text, style: style)
            case .array(let items):
                try emit { yaml_sequence_start_event_initialize(&$0, nil, nil, 1, YAML_BLOCK_SEQUENCE_STYLE) }
                for item in items { try write(item) }
                try emit { yaml_sequence_end_event_initialize(&$0) }
            case .object(let members):
                try emit { yaml_mapping_start_event_initialize(&$0, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE) }
                for member in members {
                    if integerKeys, Int(member.key).map({ String($0) == member.key }) == true {
                        try scalar(member.key, style: YAML_PLAIN_SCALAR_STYLE)
                    } else {
                        try write(.string(member.key))
                    }
                    try write(member.value)
                }
                try emit { yaml_mapping_end_event_initialize(&$0) }
            }
        }

        private func scalar(_ text: String, style: yaml_scalar_style_t) throws(EmitError) {
            var bytes = Array(text.utf8)
            try emit { event in
                bytes.withUnsafeMutableBufferPointer { buffer in
                    yaml_scalar_event_initialize(&event, nil, nil, buffer.baseAddress, Int32(buffer.count), 1, 1, style)
                }
            }
        }
    }
}
