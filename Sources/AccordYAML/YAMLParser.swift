import AccordDiagnostics
internal import CYAML

/// Parses YAML with libyaml's event API into a ``Node`` tree.
///
/// ```swift
/// let document = YAMLParser.parse(Array(text.utf8), file: "contracts/auth.yaml")
/// for diagnostic in document.diagnostics { print(diagnostic) }
/// ```
///
/// One document per file. Syntax errors stop the parse (libyaml cannot recover);
/// duplicate keys and bad merge keys are reported and parsing goes on.
public enum YAMLParser {
    /// Parses `bytes` (UTF-8) as the file named `file`.
    public static func parse(_ bytes: [UInt8], file: String, limits: Limits = Limits()) -> YAMLDocument {
        var builder = TreeBuilder(file: file, limits: limits)
        guard !bytes.isEmpty else { return YAMLDocument(file: file, root: nil, diagnostics: []) }
        bytes.withUnsafeBufferPointer { buffer in
            let parser = EventParser(input: buffer)
            builder.consume(parser, bytes: buffer)
        }
        return YAMLDocument(file: file, root: builder.root, diagnostics: builder.diagnostics)
    }
}

/// Owns a `yaml_parser_t` for the lifetime of one parse.
private final class EventParser {
    let parser: UnsafeMutablePointer<yaml_parser_t>

    /// `input` must be non-empty and outlive this object.
    init(input: UnsafeBufferPointer<UInt8>) {
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        if let start = input.baseAddress {
            yaml_parser_set_input_string(parser, start, input.count)
        }
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }
}

/// Turns events into nodes with an explicit stack, so nesting depth costs heap, not stack.
private struct TreeBuilder {
    let file: String
    let limits: Limits
    var root: Node?
    var diagnostics: [Diagnostic] = []

    private var stack: [Frame] = []
    private var anchors: [String: (node: Node, size: Int)] = [:]
    private var nodeCount = 0
    private var documentCount = 0

    typealias Limits = YAMLParser.Limits

    init(file: String, limits: Limits) {
        self.file = file
        self.limits = limits
    }

    /// Reads every event; returns when the stream ends or on the first fatal problem.
    mutating func consume(_ events: EventParser, bytes: UnsafeBufferPointer<UInt8>) {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(events.parser, &event) == 1 else {
                diagnostics.append(syntaxError(events.parser.pointee, bytes: bytes))
                root = nil
                return
            }
            defer { yaml_event_delete(&event) }
            let mark = Mark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            let keepGoing: Bool
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return
            case YAML_DOCUMENT_START_EVENT:
                documentCount += 1
                keepGoing = documentCount == 1
                if !keepGoing {
                    fail("a contract file holds one YAML document; a second one starts here", at: mark)
                }
            case YAML_SCALAR_EVENT:
                keepGoing = scalar(event.data.scalar, at: mark)
            case YAML_ALIAS_EVENT:
                keepGoing = alias(string(event.data.alias.anchor), at: mark)
            case YAML_SEQUENCE_START_EVENT:
                keepGoing = open(.sequence, anchor: string(event.data.sequence_start.anchor), at: mark)
            case YAML_MAPPING_START_EVENT:
                keepGoing = open(.mapping, anchor: string(event.data.mapping_start.anchor), at: mark)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                keepGoing = close()
            default:
                keepGoing = true
            }
            if !keepGoing { return }
        }
    }

    // MARK: Events

    private mutating func scalar(_ data: yaml_event_t.__Unnamed_union_data.__Unnamed_struct_scalar, at mark: Mark) -> Bool {
        let length = Int(data.length)
        guard length <= limits.maxScalarBytes else {
            fail("scalar of \(length) bytes exceeds the limit of \(limits.maxScalarBytes) bytes", at: mark)
            return false
        }
        let value = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
        let style: Node.Scalar.Style
        switch data.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        let node = Node(.scalar(Node.Scalar(value, style: style, tag: string(data.tag))), at: mark)
        return add(node, size: 1, cost: 1, anchor: string(data.anchor))
    }

    private mutating func alias(_ name: String?, at mark: Mark) -> Bool {
        guard let name, let anchored = anchors[name] else {
            fail("unknown alias '*\(name ?? "")': no anchor '&\(name ?? "")' before it", at: mark)
            return false
        }
        var node = anchored.node
        node.mark = mark
        return add(node, size: anchored.size, cost: anchored.size, anchor: nil)
    }

    private mutating func open(_ kind: Frame.Kind, anchor: String?, at mark: Mark) -> Bool {
        guard stack.count < limits.maxDepth else {
            fail("nesting deeper than \(limits.maxDepth) levels", at: mark)
            return false
        }
        stack.append(Frame(kind: kind, mark: mark, anchor: anchor))
        return true
    }

    private mutating func close() -> Bool {
        guard let frame = stack.popLast() else { return true }
        let content: Node.Content = switch frame.kind {
        case .sequence: .sequence(frame.items)
        case .mapping: .mapping(frame.mapping.finish())
        }
        return add(Node(content, at: frame.mark), size: frame.size + 1, cost: 1, anchor: frame.anchor)
    }

    // MARK: Assembly

    /// Attaches a finished node to its parent (or makes it the root).
    ///
    /// - Parameters:
    ///   - size: the nodes inside `node`, aliases counted in full.
    ///   - cost: the nodes this event adds to the document: 1, or an alias's full size.
    private mutating func add(_ node: Node, size: Int, cost: Int, anchor: String?) -> Bool {
        nodeCount += cost
        guard nodeCount <= limits.maxNodes else {
            fail("document expands to more than \(limits.maxNodes) nodes (aliases count once per use); refusing it", at: node.mark)
            return false
        }
        if let anchor { anchors[anchor] = (node, size) }
        guard !stack.isEmpty else {
            root = node
            return true
        }
        let top = stack.count - 1
        stack[top].size += size
        switch stack[top].kind {
        case .sequence:
            stack[top].items.append(node)
        case .mapping:
            if let problem = stack[top].mapping.add(node) {
                diagnostics.append(.error(problem.message, at: location(problem.mark)))
            }
        }
        return true
    }

    private mutating func fail(_ message: String, at mark: Mark) {
        diagnostics.append(.error(message, at: location(mark)))
        root = nil
    }

    private func location(_ mark: Mark) -> SourceLocation {
        SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    // MARK: Errors

    private func syntaxError(_ parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_READER_ERROR:
            let offset = Int(parser.problem_offset)
            let value = parser.problem_value == -1 ? "" : " 0x" + String(UInt32(bitPattern: parser.problem_value), radix: 16, uppercase: true)
            return .error("invalid UTF-8: \(problem)\(value) at byte \(offset)", at: location(mark(ofByte: offset, in: bytes)))
        case YAML_MEMORY_ERROR:
            return .error("out of memory while parsing", at: SourceLocation(file: file))
        default:
            let mark = Mark(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
            let index = Int(parser.problem_mark.index)
            if index < bytes.count, bytes[index] == UInt8(ascii: "\t") {
                return .error("tab character where YAML expects indentation or a token; indent with spaces", at: location(mark))
            }
            var message = problem
            if let context = parser.context.map({ String(cString: $0) }) {
                let started = Mark(line: Int(parser.context_mark.line) + 1, column: Int(parser.context_mark.column) + 1)
                message += " (\(context) started at \(started))"
            }
            return .error(message, at: location(mark))
        }
    }

    /// Line and column (in characters) of a byte offset; used for reader errors,
    /// where libyaml gives only the offset.
    private func mark(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Mark {
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
        return Mark(line: line, column: column)
    }
}

/// A sequence or mapping whose end event has not come yet.
private struct Frame {
    enum Kind {
        case sequence, mapping
    }

    var kind: Kind
    var mark: Mark
    var anchor: String?
    /// A sequence's items so far.
    var items: [Node] = []
    /// A mapping's pairs so far.
    var mapping = MappingBuilder()
    /// Nodes inside so far, aliases counted in full.
    var size = 0
}
