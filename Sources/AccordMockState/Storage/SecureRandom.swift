import AccordJSON

/// The unguessable values the mock's state makes (tokens, upload ids, the secret that
/// signs page cursors and upload policies): bytes from the system's secure generator,
/// which the standard library reads (`getrandom` on Linux, `arc4random_buf` on Apple
/// platforms). Not the seeded generator of `{{random}}` and `percent` rules, which
/// repeats by design.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// `count` random bytes in lowercase hex (`hex(16)`: 32 digits), as ids and tokens are written.
    package static func hex(_ count: Int) -> String {
        Hex.lowercase(bytes(count))
    }
}
