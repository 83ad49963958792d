extension JSONReader {
    /// Why a document is not JSON, and where.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        /// 0-based byte offset of the problem.
        public var offset: Int
        /// 1-based line and column (in characters) of the problem.
        public var line: Int
        public var column: Int
        /// For a duplicate member: where its first occurrence is (1-based line and column).
        public var firstOccurrence: Position?

        /// A 1-based line and column.
        public struct Position: Sendable, Hashable {
            public var line: Int
            public var column: Int
        }

        public init(message: String, offset: Int, line: Int, column: Int, firstOccurrence: Position? = nil) {
            self.message = message
            self.offset = offset
            self.line = line
            self.column = column
            self.firstOccurrence = firstOccurrence
        }

        public var description: String { "\(message) at line \(line), column \(column) (byte \(offset))" }
    }
}
