import Foundation

/// The names a device on the network may use for this machine: its host name and its
/// addresses, which the server certificate lists and the DNS-rebinding guard accepts.
public enum MachineNames {
    /// The loopback names every server certificate carries.
    public static let loopback = ["localhost", "127.0.0.1", "::1"]

    /// The host name (`gethostname`), when it is one a certificate can carry.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return isDNSName(name) && name != "localhost" ? name : nil
    }

    /// The IPv4 and IPv6 addresses of the interfaces that are up, loopback and
    /// link-local (`fe80::`, which needs a zone no URL names) left out, sorted.
    public static var networkAddresses: [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: Set<String> = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, (Int32(entry.pointee.ifa_flags) & Int32(IFF_UP)) != 0,
                  (Int32(entry.pointee.ifa_flags) & Int32(IFF_LOOPBACK)) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                guard inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil else { continue }
            case AF_INET6:
                var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let isLinkLocal = v6.__in6_u.__u6_addr8.0 == 0xFE && (v6.__in6_u.__u6_addr8.1 & 0xC0) == 0x80
                guard !isLinkLocal, inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil else { continue }
            default:
                continue
            }
            addresses.insert(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return addresses.sorted()
    }

    /// The loopback names, the host name, the network addresses and `extra`, each once, in that order.
    public static func all(adding extra: [String] = []) -> [String] {
        var seen: Set<String> = []
        return (loopback + [hostName].compactMap { $0 } + networkAddresses + extra.map { $0.lowercased() }).filter { seen.insert($0).inserted }
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    public static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Whether `text` is a DNS name a certificate may carry: labels of letters, digits
    /// and hyphens (a `*.` wildcard first), 253 characters at most.
    public static func isDNSName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.enumerated().allSatisfy { index, label in
            if index == 0 && label == "*" && labels.count > 2 { return true }
            return (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        }
    }
}
