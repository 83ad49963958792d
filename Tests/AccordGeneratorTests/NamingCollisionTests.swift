import AccordContract
import AccordDiagnostics
import AccordGenerator
import AccordMockState
import AccordMocksFormat
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
          self: string?
          in_progress: bool?
          inProgress: {enum: [a, b], optional: true}
          In-Progress: {enum: [c], optional: true}
          init: string?
          hashValue: int?
          string: {enum: [x, y], optional: true}
      Owner:
        fields:
          job: {fields: {note: string?}}
          current: Job?
    endpoints:
      jobs.get:
        route: GET /jobs/{job_id}
        params: {job_id: string}
        response: Job
      jobs.search:
        route: GET /jobs
        query: {query: string, headers: string?, query_list: int?}
        headers: {X-Trace: string?}
        response: Owner
      jobs.put:
        route: PUT /jobs/{self}
        params: {self: string}
        query: {body: string?, job_id: int?, jobID: int?}
        body: Job
        response: Job
        examples:
          default:
            response: {state: init, media: PUT, public: true, default: d, self: s, in_progress: true, inProgress: b, In-Progress: c}
      jobs.Search:
        route: GET /jobs/search
        response: Job
      jobs.fixtures:
        route: GET /jobs/fixtures
        response: Job
    """

    func contract() throws -> Contract {
        let outcome = InlineContract.load(domain: Self.domain, file: "jobs.yaml", refresh: "jobs.get")
        #expect(!outcome.diagnostics.containsErrors, "\(outcome.diagnostics.map(\.description))")
        return try #require(outcome.contract)
    }

    /// The generator of ``contract()`` with its examples as fixtures.
    func generator() throws -> SwiftGenerator {
        let contract = try contract()
        return SwiftGenerator(contract: contract, samples: FixtureSamples(contract: contract, fixtures: FixtureSet()).byEndpoint)
    }

    @Test func collidingEnumValuesGetUniqueCasesAndAWarning() throws {
        let generator = SwiftGenerator(contract: try contract())
        let job = try #require(generator.files().first { $0.path == "Models/JobsModels.swift" }).contents
        for line in ["case unknownValue", "case rawValueValue", "case inProgress", "case inProgress2", "case `default`", "case initValue",
                     "case .unknownValue: return \"unknown\"", "case .inProgress2: return \"inProgress\"", "case unknown(String)",
                     // Values that are no identifiers as written: split at what cannot be in one, capitals lowered.
                     "case imagePNG", "case put", "case applicationVndAPIJSON", "case _2x", "case .imagePNG: return \"image/png\""] {
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

    /// Fields, parameters and endpoint functions whose Swift names would clash, or be
    /// reserved (`self`, `init`, `fixtures`), get other names and a warning each; the inline
    /// types of renamed members take the new names too, and fixture values use them (the
    /// package type-checks: ``theGeneratedPackageTypeChecks()``).
    @Test func clashingNamesAreRenamedWithAWarning() throws {
        let generator = try generator()
        #expect(generator.diagnostics().map(\.description).filter { $0.contains(" is the property ") || $0.contains(" is the parameter ") } == [
            "jobs.yaml:10:7: warning: field 'self' is the property 'selfValue' in the generated Swift: Swift reserves the member name 'self'",
            "jobs.yaml:12:7: warning: field 'inProgress' is the property 'inProgress2' in the generated Swift: 'inProgress' is taken",
            "jobs.yaml:13:7: warning: field 'In-Progress' is the property 'inProgress3' in the generated Swift: 'inProgress' is taken",
            "jobs.yaml:14:7: warning: field 'init' is the property 'initValue' in the generated Swift: Swift reserves the member name 'init'",
            "jobs.yaml:15:7: warning: field 'hashValue' is the property 'hashValueValue' in the generated Swift: Swift reserves the member name 'hashValue'",
            "jobs.yaml:33:14: warning: path parameter 'self' of 'jobs.put' is the parameter 'selfValue' in the generated Swift: Swift reserves the parameter name 'self'",
            "jobs.yaml:34:13: warning: query parameter 'body' of 'jobs.put' is the parameter 'body2' in the generated Swift: 'body' is taken",
            "jobs.yaml:34:42: warning: query parameter 'jobID' of 'jobs.put' is the parameter 'jobID2' in the generated Swift: 'jobID' is taken",
        ])
        // Endpoints of one domain whose functions would have one name, or the name of the domain's typed fixtures.
        #expect(generator.diagnostics().map(\.description).filter { $0.contains(" is the function ") } == [
            "jobs.yaml:40:3: warning: endpoint 'jobs.Search' is the function 'search2' in the generated Swift: 'search' is taken",
            "jobs.yaml:43:3: warning: endpoint 'jobs.fixtures' is the function 'fixturesValue' in the generated Swift: each domain has a member 'fixtures'",
        ])
        let files = generator.files()
        let models = try #require(files.first { $0.path == "Models/JobsModels.swift" }).contents
        for line in ["public var selfValue: String?", "public var inProgress: Bool?", "public var inProgress2: InProgress2?", "public var inProgress3: InProgress3?",
                     "        selfValue: members.lenient(\"self\"),", "        inProgress3: members.lenient(\"In-Progress\")",
                     "try members.optional(self.inProgress2, \"inProgress\")", "public enum InProgress3: AccordOpenEnum {",
                     "public var initValue: String?", "try members.optional(self.hashValueValue, \"hashValue\")",
                     // An inline type that would hide a name the model uses, or a contract type, takes its owner's name first.
                     "public var string: JobString?", "public enum JobString: AccordOpenEnum {", "public var job: OwnerJob",
                     "public struct OwnerJob: Codable, Hashable, Sendable {", "public var current: Job?"] {
            #expect(models.contains(line), "\(line) in:\n\(models)")
        }
        let endpoints = try #require(files.first { $0.path == "Endpoints/API+Jobs.swift" }).contents
        for line in ["public func put(selfValue: String, body: Job, body2: String? = nil, jobID: Int? = nil, jobID2: Int? = nil) -> Endpoint<Job> {",
                     "if let body2Value = body2 { query.append(QueryItem(name: \"body\", value: body2Value)) }",
                     "if let jobID2Value = jobID2 { query.append(QueryItem(name: \"jobID\", value: jobID2Value.description)) }",
                     "Endpoint<Job>.segment(selfValue)", "public func search2() -> Endpoint<Job> {", "public func fixturesValue() -> Endpoint<Job> {"] {
            #expect(endpoints.contains(line), "\(line) in:\n\(endpoints)")
        }
        let fixtures = try #require(files.first { $0.path == "Fixtures/API+JobsFixtures.swift" }).contents
        #expect(fixtures.contains("public: true, default: \"d\", selfValue: \"s\", inProgress: true, inProgress2: Job.InProgress2.b, inProgress3: Job.InProgress3.c)"),
                "\(fixtures)")
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

    /// Domains whose properties on `API` would have one name (`ai-chat`, `ai_chat`), or a
    /// name the generated code has (`catalog`, whose file would be the catalog's), get
    /// other names and a warning at their `domain:`, as do endpoints whose inline types
    /// would have one name; no file is written over another.
    @Test func clashingDomainsAreRenamedWithAWarning() throws {
        func domain(_ name: String, _ path: String) -> String {
            "domain: \(name)\nendpoints:\n  \(name).get:\n    route: GET /\(path)\n    response: {x: int}\n"
        }
        let outcome = InlineContract.load(domains: [("contracts/a.yaml", domain("ai-chat", "a")), ("contracts/b.yaml", domain("ai_chat", "b")),
                                                    ("contracts/c.yaml", domain("catalog", "c"))])
        let generator = SwiftGenerator(contract: try #require(outcome.contract, "\(outcome.diagnostics)"))
        #expect(generator.diagnostics().map(\.description) == [
            "contracts/b.yaml:1:9: warning: domain 'ai_chat' is the property 'aiChat2' in the generated Swift: 'aiChat' is taken",
            "contracts/b.yaml:3:3: warning: endpoint 'ai_chat.get' names its inline types 'AIChatGet2…' in the generated Swift: 'AIChatGet' is taken",
            "contracts/c.yaml:1:9: warning: domain 'catalog' is the property 'catalogValue' in the generated Swift: the generated code has its own 'catalog'",
        ])
        let files = generator.files()
        #expect(Set(files.map(\.path)).count == files.count)
        let endpoints = files.filter { $0.path.hasPrefix("Endpoints/") }.map(\.path).sorted()
        #expect(endpoints == ["Endpoints/API+AIChat.swift", "Endpoints/API+AIChat2.swift", "Endpoints/API+Catalog.swift", "Endpoints/API+CatalogValue.swift"])
        let second = try #require(files.first { $0.path == "Endpoints/API+AIChat2.swift" }).contents
        #expect(second.contains("public static let aiChat2 = AIChat2Endpoints()") && second.contains("-> Endpoint<AIChatGet2Response>"), "\(second)")
        let errors = try Self.typeCheck(files)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func theGeneratedPackageTypeChecks() throws {
        let errors = try Self.typeCheck(try generator().files())
        #expect(errors.isEmpty, "\(errors)")
    }

    /// What `swiftc -typecheck` (Swift 6, warnings as errors) says of `files`: nothing when they compile.
    static func typeCheck(_ files: [SwiftGenerator.File]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-naming-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for file in files {
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
        return swiftc.terminationStatus == 0 ? "" : output + "(exit \(swiftc.terminationStatus))"
    }
}
