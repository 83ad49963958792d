import AccordTesting
import AccordYAML
import Foundation
import Testing

/// The deployment files under `deploy/` (the image's command, the compose recipe, the
/// Kubernetes manifest) name only options `accord serve --help` lists, the image this
/// version builds, the paths the image holds, and the token a server listening beyond
/// loopback needs. (scripts/container runs the image's own command; the other two need
/// an engine this machine lacks, so they are checked here, statically.)
@Suite struct DeploymentFilesTests {
    static let deploy = Repository.root.appendingPathComponent("deploy")

    /// One `accord` invocation a file states, and whether the file gives it `ACCORD_ADMIN_TOKEN`.
    struct Invocation: CustomStringConvertible {
        var file: String
        var image: String?
        var arguments: [String]
        var givesToken: Bool
        var description: String { "\(file): \(arguments.joined(separator: " "))" }
    }

    static func accord(_ arguments: [String]) throws -> String {
        try ExternalCommand.run(ServerProcess.executable.path, arguments).text
    }

    static func documents(_ name: String) throws -> [Node] {
        let text = try String(contentsOf: deploy.appendingPathComponent(name), encoding: .utf8)
        return text.components(separatedBy: "\n---\n").compactMap { YAMLParser.parse(Array($0.utf8), file: name).root }
    }

    static func member(_ node: Node?, _ key: String) -> Node? {
        node?.mapping?.first { $0.key.scalar?.value == key }?.value
    }

    static func words(_ node: Node?) -> [String] {
        node?.sequence?.compactMap { $0.scalar?.value } ?? []
    }

    static func invocations() throws -> [Invocation] {
        var found: [Invocation] = []
        let containerfile = try String(contentsOf: deploy.appendingPathComponent("Containerfile"), encoding: .utf8)
        let command = try #require(containerfile.split(separator: "\n").first { $0.hasPrefix("CMD [") })
        let words = try JSONSerialization.jsonObject(with: Data(command.dropFirst(4).utf8)) as? [String] ?? []
        found.append(Invocation(file: "Containerfile", image: nil, arguments: words, givesToken: true))
        for service in try documents("compose.yaml").first.flatMap({ member($0, "services")?.mapping }) ?? [] {
            guard let image = member(service.value, "image")?.scalar?.value, image.contains("accord") else { continue }
            let environment = member(service.value, "environment")?.mapping?.map { $0.key.scalar?.value ?? "" } ?? []
            found.append(Invocation(file: "compose.yaml", image: image, arguments: Self.words(member(service.value, "command")),
                                    givesToken: environment.contains("ACCORD_ADMIN_TOKEN")))
        }
        for document in try documents("kubernetes.yaml") {
            for container in member(member(member(member(document, "spec"), "template"), "spec"), "containers")?.sequence ?? [] {
                guard let image = member(container, "image")?.scalar?.value, image.contains("accord") else { continue }
                let environment = member(container, "env")?.sequence?.compactMap { member($0, "name")?.scalar?.value } ?? []
                found.append(Invocation(file: "kubernetes.yaml", image: image, arguments: Self.words(member(container, "args")),
                                        givesToken: environment.contains("ACCORD_ADMIN_TOKEN")))
            }
        }
        return found
    }

    @Test func everyInvocationIsOneAccordServeTakes() throws {
        let help = try Self.accord(["serve", "--help"])
        let options = Set(help.split(separator: "\n").filter { $0.hasPrefix("  --") }.compactMap { $0.split(separator: " ").first.map(String.init) })
        let version = try Self.accord(["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let invocations = try Self.invocations()
        #expect(invocations.map(\.file) == ["Containerfile", "compose.yaml", "compose.yaml", "kubernetes.yaml"])
        for invocation in invocations {
            #expect(invocation.arguments.first == "serve", "\(invocation)")
            let unknown = invocation.arguments.filter { $0.hasPrefix("--") && !options.contains($0) }
            #expect(unknown == [], "\(invocation)")
            let value = { (name: String) in invocation.arguments.firstIndex(of: name).map { invocation.arguments[$0 + 1] } }
            #expect(value("--contracts") == "/opt/accord/contracts" && value("--mocks") == "/opt/accord/mocks", "\(invocation)")
            if value("--host") == "0.0.0.0" { #expect(invocation.givesToken, "\(invocation) listens beyond loopback without ACCORD_ADMIN_TOKEN") }
            if let image = invocation.image { #expect(image == "localhost/accord:\(version)", "\(invocation)") }
        }
    }

    @Test func theManifestProbesTheHealthCheck() throws {
        let accord = try #require(try Self.documents("kubernetes.yaml").flatMap { document in
            Self.member(Self.member(Self.member(Self.member(document, "spec"), "template"), "spec"), "containers")?.sequence ?? []
        }.first { Self.member($0, "image")?.scalar?.value.contains("accord") == true })
        #expect(Self.member(Self.member(Self.member(accord, "readinessProbe"), "httpGet"), "path")?.scalar?.value == "/__accord/health")
        #expect(Self.member(Self.member(accord, "securityContext"), "readOnlyRootFilesystem")?.scalar?.value == "true")
    }
}
