/// Signs what the mock hands out and takes back — page cursors, upload policies — so a
/// client can neither alter one nor make one up. The server signs with HMAC-SHA256
/// under the storage's secret (`HMACSigner`, in AccordMock, over OpenSSL); previews that
/// no server is asked to read back (the generator's typed fixtures) with
/// ``StandInSigner``, so generating needs no cryptography library.
public protocol StateSigner: Sendable {
    /// The tag of `message` under `key`: 32 lowercase hex digits.
    func tag(_ message: [UInt8], key: [UInt8]) -> String
    /// Whether `tag` is `message`'s under `key`, compared in time that does not depend on
    /// where the two differ.
    func verifies(_ tag: String, of message: [UInt8], key: [UInt8]) -> Bool
}

/// The signer of previews: every tag is 32 zeros (as a preview's file ids are), and no
/// tag verifies, so nothing a preview hands out is read back as if a server had signed it.
public struct StandInSigner: StateSigner {
    public init() {}

    public func tag(_ message: [UInt8], key: [UInt8]) -> String {
        String(repeating: "0", count: 32)
    }

    public func verifies(_ tag: String, of message: [UInt8], key: [UInt8]) -> Bool {
        false
    }
}
