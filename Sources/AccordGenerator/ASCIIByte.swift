/// Tests and case changes of one ASCII byte, for names read and made on their UTF-8
/// (``Naming``, ``Acronyms``, ``SwiftIdentifiers``).
enum ASCIIByte {
    static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    static func isUppercase(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte)
    }

    static func isLowercase(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte)
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        isUppercase(byte) || isLowercase(byte)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte)
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        isUppercase(byte) ? byte + 0x20 : byte
    }

    static func uppercased(_ byte: UInt8) -> UInt8 {
        isLowercase(byte) ? byte - 0x20 : byte
    }
}
