import AccordContract
import AccordDiagnostics
import AccordGenerator
import Foundation
import Testing

/// Enum values whose natural Swift names collide with the open enum's own members, with
/// each other or with keywords still give code that compiles, and say so in a warning;
/// fields named as keywords give code that compiles without a warning.
@Suite struct NamingCollisionTests {
    static let domain = """
    domain: jobs
    types:
      Job:
        fields:
          state: unknown | raw_value | in_progress | inProgress | default | init
          media: {enum: [image/png, PUT, application/vnd.api+json, 2x]}
          public: bool
          default: string?
          inout: int?
    endpoints:
      jobs.get:
        route: GET /jobs/{job_id}
        params: {job_id: string}
        response: Job
      jobs.search:
        route: GET /jobs
        query: {query: string, headers: string?, query_list: int?}
        headers: {X-Trace: string?}
        response: Job
    """

    func contract() throws -> Contract {
        let outcome = InlineContract.load(domain: Self.domain, file: "jobs.yaml", refresh: "jobs.get")
        #expect(!outcome.diagnostics.containsErrors, "\(outcome.diagnostics.map(\.description))")
        return try #require(outcome.contract)
    }

    @Test func collidingEnumValuesGetUniqueCasesAndAWarning() throws {
        let generator = SwiftGenerator(contract: try contract())
        let job = try #require(generator.files().first { $0.path == "Models/JobsModels.swift" }).contents
        for line in ["case unknownValue", "case rawValueValue", "case inProgress", "case inProgress2", "case `default`", "case initValue",
                     "case .unknownValue: \"unknown\"", "case .inProgress2: \"inProgress\"", "case unknown(String)",
                     // Values that are no identifiers as written: split at what cannot be in one, capitals lowered.
                     "case imagePNG", "case put", "case applicationVndAPIJSON", "case _2x", "case .imagePNG: \"image/png\""] {
            #expect(job.contains(line), "\(line) in:\n\(job)")
        }
        #expect(generator.diagnostics().map(\.description).filter { $0.contains("enum value") } == [
            "jobs.yaml:5:14: warning: enum value 'unknown' is the case 'unknownValue' in the generated Swift: every open enum has a member 'unknown'",
            "jobs.yaml:5:24: warning: enum value 'raw_value' is the case 'rawValueValue' in the generated Swift: every open enum has a member 'rawValue'",
            "jobs.yaml:5:50: warning: enum value 'inProgress' is the case 'inProgress2' in the generated Swift: 'inProgress' is taken",
            "jobs.yaml:5:73: warning: enum value 'init' is the case 'initValue' in the generated Swift: every open enum has a member 'init'",
        ])
    }

    /// The warnings come from the translation that names the cases, so an enum is warned
    /// of wherever it is declared: here the payload of a business code in the service file.
    @Test func aRenamedValueInACodesPayloadIsWarnedAtTheServiceFile() throws {
        let service = "service:\n  name: s\nauth:\n  refresh: jobs.get\ncodes:\n  1000: {name: invalid, msg: bad, http: 400}\n"
            + "  2001: {name: locked, msg: m, data: unknown | held}\n"
        let outcome = ContractLoader().load([.init(path: "service.yaml", bytes: Array(service.utf8)), .init(path: "jobs.yaml", bytes: Array(Self.domain.utf8))],
                                            directory: "contracts")
        let generator = SwiftGenerator(contract: try #require(outcome.contract))
        #expect(generator.diagnostics().map(\.description).filter { $0.hasPrefix("service.yaml") } == [
            "service.yaml:7:38: warning: enum value 'unknown' is the case 'unknownValue' in the generated Swift: every open enum has a member 'unknown'",
        ])
        let serviceFile = try #require(generator.files().first { $0.path == "Support/Service.swift" }).contents
        #expect(serviceFile.contains("public var lockedData: LockedData? {") && serviceFile.contains("    case unknownValue\n"), "\(serviceFile)")
    }

    /// A tagged union's kinds are cases too: one renamed is said, like an enum value.
    @Test func aRenamedKindOfATaggedUnionIsWarned() throws {
        let domain = """
        domain: feed
        types:
          Card:
            discriminator: kind
            one_of: {unknown: Plain, user_card: Plain, userCard: Plain}
          Plain:
            fields:
              title: string
        endpoints:
          feed.get:
            route: GET /feed
            response: Card
        """
        let outcome = InlineContract.load(domain: domain, file: "feed.yaml", refresh: "feed.get")
        let generator = SwiftGenerator(contract: try #require(outcome.contract))
        #expect(generator.diagnostics().map(\.description).filter { $0.contains("'kind' value") } == [
            "feed.yaml:5:23: warning: 'kind' value 'unknown' is the case 'unknownValue' in the generated Swift: every tagged union has a member 'unknown'",
            "feed.yaml:5:58: warning: 'kind' value 'userCard' is the case 'userCard2' in the generated Swift: 'userCard' is taken",
        ])
        let card = try #require(generator.files().first { $0.path == "Models/FeedModels.swift" }).contents
        #expect(card.contains("case unknownValue(Plain)") && card.contains("case userCard2(Plain)"), "\(card)")
    }

    /// Parameters named as the lists a call builds (`query`, as Discord's member search
    /// has) leave those lists another name: the parameter is what the call sends.
    @Test func parametersNamedAsTheCallsListsKeepTheirMeaning() throws {
        let endpoints = try #require(SwiftGenerator(contract: try contract()).files().first { $0.path == "Endpoints/API+Jobs.swift" }).contents
        for line in ["var queryList2: [QueryItem] = []", "do { let queryValue = query; queryList2.append(QueryItem(name: \"query\", value: queryValue)) }",
                     "if let headersValue = headers { queryList2.append(QueryItem(name: \"headers\", value: headersValue)) }",
                     "var headersList: [QueryItem] = []", "path: \"/jobs\", query: queryList2, headers: headersList,"] {
            #expect(endpoints.contains(line), "\(line) in \(endpoints)")
        }
    }

    @Test func theGeneratedPackageTypeChecks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-naming-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for file in SwiftGenerator(contract: try contract()).files() {
            let url = directory.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let swiftc = Process()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name", "Jobs"] + paths
        let errors = Pipe()
        swiftc.standardError = errors
        try swiftc.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        swiftc.waitUntilExit()
        #expect(swiftc.terminationStatus == 0, "\(output)")
    }
}
