import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A JUnit document read back with Foundation's XML parser: the structure Jenkins and
/// GitHub reporters read (suites, cases, failures, skips and the counts they state).
public struct JUnitDocument {
    public struct Case {
        public var className = "", name = ""
        public var failed = false, skipped = false
        public var failureMessage = "", failureText = ""
    }

    public struct Suite {
        public var name = ""
        public var tests = 0, failures = 0, skipped = 0
        public var cases: [Case] = []
    }

    public var root = ""
    public var tests = 0, failures = 0
    public var suites: [Suite] = []

    public struct ParseError: Error { public var description: String }

    fileprivate init() {}

    public init(_ data: Data) throws {
        let delegate = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse() else { throw ParseError(description: parser.parserError.map { "\($0)" } ?? "not XML") }
        self = delegate.document
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var document = JUnitDocument()
        private var inFailure = false

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch element {
            case "testsuites":
                document.root = element
                document.tests = Int(attributes["tests"] ?? "") ?? -1
                document.failures = Int(attributes["failures"] ?? "") ?? -1
            case "testsuite":
                document.suites.append(Suite(name: attributes["name"] ?? "", tests: Int(attributes["tests"] ?? "") ?? -1,
                                             failures: Int(attributes["failures"] ?? "") ?? -1, skipped: Int(attributes["skipped"] ?? "") ?? -1))
            case "testcase":
                document.suites[document.suites.count - 1].cases.append(Case(className: attributes["classname"] ?? "", name: attributes["name"] ?? ""))
            case "failure":
                update { $0.failed = true; $0.failureMessage = attributes["message"] ?? "" }
                inFailure = true
            case "skipped":
                update { $0.skipped = true }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "failure" { inFailure = false }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inFailure { update { $0.failureText += string } }
        }

        private func update(_ change: (inout Case) -> Void) {
            let suite = document.suites.count - 1
            change(&document.suites[suite].cases[document.suites[suite].cases.count - 1])
        }
    }
}
