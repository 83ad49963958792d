/// Lines and columns counted the way ``SourceLocation`` does, from a byte offset into
/// UTF-8 text: for parsers (libyaml's reader, the JSON reader) that only know bytes.
public enum TextPosition {
    /// The 1-based line and column (in characters: UTF-8 continuation bytes do not
    /// count) of the byte at `offset` in `bytes`.
    public static func lineAndColumn(ofByte offset: Int, in bytes: some Sequence<UInt8>) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
