extension YAMLParser {
    /// Bounds that keep hostile input (deep nesting, alias bombs, huge scalars) cheap to refuse.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of sequences and mappings accepted.
        public var maxDepth: Int
        /// The most nodes a document may expand to, counting every alias as a copy.
        public var maxNodes: Int
        /// The longest scalar accepted, in bytes.
        public var maxScalarBytes: Int

        public init(maxDepth: Int = 256, maxNodes: Int = 2_000_000, maxScalarBytes: Int = 1 << 20) {
            self.maxDepth = maxDepth
            self.maxNodes = maxNodes
            self.maxScalarBytes = maxScalarBytes
        }
    }
}
