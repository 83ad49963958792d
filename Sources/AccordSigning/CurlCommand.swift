/// A curl command line for a request, each argument quoted for bash: what `accord sign
/// --curl` prints and the console's "copy as cURL" copies.
public enum CurlCommand {
    /// What the request sends.
    public enum Body: Sendable {
        case none
        /// Bytes sent as they are (`--data-binary`).
        case data(String)
        /// A file's bytes (`--data-binary @FILE`).
        case file(String)
        /// A multipart form, each part text or a file with its media type.
        case form([(name: String, value: FormValue)])
    }

    public enum FormValue: Sendable {
        case text(String)
        case file(path: String, contentType: String?)
    }

    /// `curl -sS [-X METHOD] URL -H 'Name: value'… [body]`.
    public static func line(method: String, url: String, headers: [(name: String, value: String)], body: Body) -> String {
        var words = ["curl", "-sS"]
        if method != "GET" { words += ["-X", method] }
        words.append(url)
        for header in headers { words += ["-H", "\(header.name): \(header.value)"] }
        switch body {
        case .none: break
        case .data(let text): words += ["--data-binary", text]
        case .file(let path): words += ["--data-binary", "@" + path]
        case .form(let parts):
            for part in parts {
                switch part.value {
                case .text(let text): words += ["--form-string", "\(part.name)=\(text)"]
                case .file(let path, let type): words += ["-F", "\(part.name)=@\(path)" + (type.map { ";type=\($0)" } ?? "")]
                }
            }
        }
        return words.map(quoted).joined(separator: " ")
    }

    /// `word` as bash reads it back: bare when it is only safe characters, else in single quotes.
    public static func quoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_./:=@%+,".unicodeScalars.contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `/api/v1/search?q=Swift+并发` as `/api/v1/search?q=Swift+%E5%B9%B6%E5%8F%91`: the
    /// bytes a request line may not hold raw are percent-encoded; `%`, `+` and the rest stay.
    public static func encodedTarget(_ target: String) -> String {
        var encoded = ""
        for byte in target.utf8 {
            if byte > 0x20, byte < 0x7F, !Array("\"<>\\^`{|}".utf8).contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
