// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Accord",
    products: [
        .executable(name: "accord", targets: ["accord"]),
        .executable(name: "accord-generate", targets: ["accord-generate"]),
        .plugin(name: "AccordGenerate", targets: ["AccordGenerate"]),
        .plugin(name: "AccordBuild", targets: ["AccordBuild"]),
        .library(name: "AccordContract", targets: ["AccordContract"]),
        .library(name: "AccordJSON", targets: ["AccordJSON"]),
        .library(name: "AccordHTTP", targets: ["AccordHTTP"]),
        // For the libFuzzer targets in Fuzz/, a package of its own (scripts/fuzz).
        .library(name: "AccordYAML", targets: ["AccordYAML"]),
        .library(name: "AccordValidation", targets: ["AccordValidation"]),
        .library(name: "AccordMocksFormat", targets: ["AccordMocksFormat"]),
        .library(name: "AccordMockState", targets: ["AccordMockState"]),
        .library(name: "AccordMock", targets: ["AccordMock"]),
        .library(name: "AccordCapture", targets: ["AccordCapture"]),
        .library(name: "AccordProxy", targets: ["AccordProxy"]),
        .library(name: "AccordImport", targets: ["AccordImport"]),
    ],
    targets: [
        // C libraries from Debian (apt) or Homebrew (brew), reached through pkg-config.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"]), .brew(["hiredis"])]),
        // The C library's own: glibc's malloc_trim, which the Glibc module leaves out.
        .systemLibrary(name: "CMalloc"),

        // Diagnostics shared by every stage: `path:line:col: error: message`.
        .target(name: "AccordDiagnostics"),
        // The lock around shared state, one ThreadSanitizer understands.
        .target(name: "AccordSync"),
        // Files written whole or not at all, through names no planted link can take over.
        .target(name: "AccordFiles"),
        // libyaml events → a node tree with 1-based positions; JSON values → YAML through its emitter.
        .target(name: "AccordYAML", dependencies: ["CYAML", "AccordDiagnostics", "AccordJSON"]),
        // JSON values: a strict reader with positions, a compact writer, pointers.
        .target(name: "AccordJSON", dependencies: ["AccordDiagnostics"]),
        // Digests, HMAC and random bytes (OpenSSL libcrypto).
        .target(name: "AccordCrypto", dependencies: ["CCrypto", "AccordJSON"]),
        // The contract model (its signing rule too), its loader from YAML and the structural checks.
        .target(name: "AccordContract", dependencies: ["AccordYAML", "AccordDiagnostics", "AccordJSON", "AccordSync"]),
        // JSON values checked against contract schemas (examples, later requests).
        .target(name: "AccordValidation", dependencies: ["AccordContract", "AccordJSON", "AccordDiagnostics", "AccordSync"]),
        // X-Sign under the contract's signing rule: sorted params, signing, verification, and requests built
        // from the contract and signed (`accord verify`, the console's "try it"). Nonces are the engine's storage.
        .target(name: "AccordSigning", dependencies: ["AccordContract", "AccordCrypto", "AccordJSON", "AccordValidation"]),
        // What a run did against the contracts: observations, coverage, JUnit and JSON reports.
        // What a client must do after each code's flow, checked over a session's requests.
        .target(name: "AccordFlowConformance", dependencies: ["AccordContract", "AccordJSON"]),
        .target(name: "AccordReport", dependencies: ["AccordContract", "AccordFlowConformance", "AccordJSON", "AccordSync"]),
        // Captured traffic read as exchanges: HAR 1.2 files and `accord serve --record` journals.
        // and judged against the contracts by the mock's own checks (`accord check-requests`).
        .target(name: "AccordCapture", dependencies: ["AccordContract", "AccordFlowConformance", "AccordHTTP", "AccordJSON", "AccordMock", "AccordReport", "AccordSync",
                                                    "AccordValidation"]),
        // The web console at /__accord/ui: plain HTML, CSS and JavaScript in Assets/, embedded by EmbedFiles.
        .target(name: "AccordConsole", exclude: ["Assets"], plugins: ["EmbedFiles"]),
        // The HTTP messages the engine and the transports exchange: requests, answers, headers, bodies, verdicts.
        .target(name: "AccordHTTP", dependencies: ["AccordJSON"]),
        // The mocks/ format read and checked: fixtures, collections, effects, scenarios, templates.
        .target(name: "AccordMocksFormat", dependencies: ["AccordContract", "AccordDiagnostics", "AccordJSON", "AccordSync", "AccordValidation",
                                                          "AccordYAML"]),
        // The mock's state and what acts on it, without the engine: storage (in memory), records and
        // their effects, templates, the journal, uploads, a project loaded and checked, and the answers
        // the generator types as fixtures. No OpenSSL: what signs cursors and upload policies is handed in.
        .target(name: "AccordMockState", dependencies: ["AccordContract", "AccordDiagnostics", "AccordFlowConformance", "AccordHTTP", "AccordJSON",
                                                      "AccordMocksFormat", "AccordReport", "AccordSync", "AccordValidation", "AccordYAML"]),
        // The mock backend as a pure function: routing, validation, signatures, answers, flows, the console.
        .target(name: "AccordMock", dependencies: ["AccordConsole", "AccordContract", "AccordCrypto", "AccordDiagnostics", "AccordFiles", "AccordFlowConformance", "AccordHTTP",
                                                 "AccordJSON", "AccordMockState", "AccordMocksFormat", "AccordReport", "AccordSigning", "AccordSync",
                                                 "AccordValidation", "AccordYAML"]),
        // Redis over hiredis: a pool of pipelining connections, reconnection with backoff, Lua scripts by SHA-1.
        .target(name: "AccordRedis", dependencies: ["CHiredis", "AccordCrypto", "AccordSync"]),
        // The mock's state in Redis (`accord serve --storage redis://…`), shared by replicas: every storage part, atomic.
        .target(name: "AccordRedisStorage", dependencies: ["AccordContract", "AccordCrypto", "AccordHTTP", "AccordJSON", "AccordMock", "AccordMockState",
                                                           "AccordMocksFormat", "AccordRedis", "AccordSync"]),
        // HTTPS identities: a local CA and the server certificates it signs (OpenSSL libcrypto), iOS trust profiles.
        .target(name: "AccordTLS", dependencies: ["CCrypto", "AccordCrypto", "AccordFiles"]),
        // HTTP/1.1 over libmicrohttpd: moves bytes between sockets and a responder (the engine, the proxy).
        .target(name: "AccordServer", dependencies: ["CMicroHTTPD", "AccordHTTP", "AccordJSON", "AccordSync", "AccordTLS"]),
        // HTTP to real backends over libcurl: TLS, HTTP/2, keep-alive, deadlines, size caps.
        .target(name: "AccordHTTPClient", dependencies: ["CCurl"]),
        // `accord proxy`: the mock's checks in front of a real backend, answers checked, recorded as fixtures.
        .target(name: "AccordProxy", dependencies: ["AccordContract", "AccordFiles", "AccordHTTP", "AccordHTTPClient", "AccordJSON", "AccordMock",
                                                    "AccordServer", "AccordSync", "AccordValidation", "AccordYAML", "CMalloc"]),
        // `serve` and `proxy` on a socket: loading, listening, TLS, reloads, the state file, the stop, the report.
        .target(name: "AccordHosting", dependencies: ["AccordContract", "AccordDiagnostics", "AccordFiles", "AccordJSON", "AccordMock", "AccordMockState",
                                                      "AccordMocksFormat", "AccordProxy", "AccordRedis", "AccordRedisStorage", "AccordReport", "AccordServer",
                                                      "AccordTLS"]),
        // Provider verification: the contract's examples and negative checks against a real backend.
        .target(name: "AccordVerification", dependencies: ["AccordContract", "AccordHTTPClient", "AccordJSON", "AccordReport", "AccordSigning",
                                                           "AccordSync", "AccordValidation"]),
        // What changed between two versions of the contracts, and whom it breaks.
        .target(name: "AccordDiff", dependencies: ["AccordContract", "AccordDiagnostics", "AccordJSON"]),
        // An OpenAPI 3.0/3.1 document (YAML or JSON, one file or many) as contracts and fixtures, every loss reported.
        .target(name: "AccordImport", dependencies: ["AccordContract", "AccordDiagnostics", "AccordFiles", "AccordJSON", "AccordValidation", "AccordYAML"]),
        // The contracts as an OpenAPI 3.1 document.
        .target(name: "AccordOpenAPI", dependencies: ["AccordContract", "AccordJSON", "AccordYAML"]),
        // Swift code from contracts: models, typed endpoints, runtime support.
        // Its runtime is AccordClientRuntime's files, embedded at build time by EmbedFiles.
        .target(name: "AccordGenerator", dependencies: ["AccordContract", "AccordDiagnostics", "AccordFiles", "AccordJSON", "AccordMocksFormat", "AccordSync"],
                plugins: ["EmbedFiles"]),
        // The runtime every generated package carries, compiled and tested here on its own
        // (Foundation only): what it needs of a contract comes through AccordContractService,
        // which the generated Service conforms to.
        .target(name: "AccordClientRuntime"),
        // Files embedded in a target as string literals: the generator's runtime, the console's assets.
        .plugin(name: "EmbedFiles", capability: .buildTool()),
        // What every command shares: arguments, their usage errors, the console, the command protocol and its help.
        .target(name: "AccordCommandLine", dependencies: ["AccordContract"]),
        // `generate`, shared by `accord` and `accord-generate`: no server, HTTP client, Redis or OpenSSL below it.
        .target(name: "AccordGenerateCommand", dependencies: ["AccordCommandLine", "AccordContract", "AccordDiagnostics", "AccordFiles", "AccordGenerator", "AccordMockState",
                                                              "AccordMocksFormat"]),
        // The `accord` commands, as a library so tests run them in-process.
        .target(name: "AccordCLI", dependencies: ["AccordCapture", "AccordCommandLine", "AccordContract", "AccordDiagnostics", "AccordDiff", "AccordFiles",
                                                  "AccordGenerateCommand", "AccordImport", "AccordGenerator", "AccordHosting", "AccordHTTP", "AccordJSON", "AccordMock", "AccordMockState", "AccordMocksFormat",
                                                  "AccordOpenAPI", "AccordProxy", "AccordRedis", "AccordReport", "AccordServer", "AccordSigning", "AccordSync", "AccordTLS",
                                                  "AccordValidation", "AccordVerification"]),
        .executableTarget(name: "accord", dependencies: ["AccordCLI"]),
        // `accord generate` alone, for the plugins.
        .executableTarget(name: "accord-generate", dependencies: ["AccordCommandLine", "AccordGenerateCommand"]),
        // `swift package accord-generate --output DIR`: the generator for app packages.
        .plugin(
            name: "AccordGenerate",
            capability: .command(
                intent: .custom(verb: "accord-generate", description: "Generate Swift models, endpoints and a client from contracts/"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift files into the package")]
            ),
            dependencies: ["accord-generate"]
        ),
        // Generation at build time: a target's contracts/ and mocks/ into one Swift file in the build directory.
        .plugin(name: "AccordBuild", capability: .buildTool(), dependencies: ["accord-generate"]),

        // The generated client of the repository's contracts, compiled as a consumer would;
        // AccordGeneratorTests fails when it drifts from what `accord generate` writes.
        .target(name: "TongbanAPI", path: "Tests/TongbanAPI"),
        // The client `accord generate` writes for the plain REST API of Tests/Projects/plain
        // (no envelope, no signing); the plain end-to-end tests drive it, and it must not drift either.
        .target(name: "NotesAPI", path: "Tests/NotesAPI"),
        // That client as a command: the browser tests of the web console (Tests/Browser) make their app calls with it.
        .executableTarget(name: "console-client", dependencies: ["TongbanAPI"], path: "Tests/ConsoleClient"),
        // What the test targets share: the repository's contracts and variants of them, an
        // in-process engine with a signing client, a real server process, raw connections.
        .target(name: "AccordTesting", dependencies: ["AccordContract", "AccordDiagnostics", "AccordHTTP", "AccordJSON", "AccordMock", "AccordMockState",
                                                      "AccordMocksFormat", "AccordRedis", "AccordRedisStorage", "AccordSigning", "AccordSync",
                                                      "AccordValidation"], path: "Tests/AccordTesting"),
        .testTarget(name: "AccordGeneratorTests", dependencies: ["AccordCLI", "AccordContract", "AccordDiagnostics", "AccordGenerator",
                                                                 "AccordHTTP", "AccordJSON", "AccordMock", "AccordMockState", "AccordMocksFormat",
                                                                 "AccordSigning", "AccordTesting", "AccordValidation", "TongbanAPI"]),
        .testTarget(name: "AccordYAMLTests", dependencies: ["AccordYAML"]),
        .testTarget(name: "AccordClientRuntimeTests", dependencies: ["AccordClientRuntime"]),
        .testTarget(name: "AccordSigningTests", dependencies: ["AccordContract", "AccordCrypto", "AccordHTTP", "AccordJSON", "AccordMock", "AccordMockState",
                                                               "AccordSigning", "AccordTesting"]),
        .testTarget(name: "AccordEndToEndTests", dependencies: ["AccordContract", "AccordHTTP", "AccordJSON", "AccordMock", "AccordMockState", "AccordRedis", "AccordServer",
                                                                "AccordSigning", "AccordSync", "AccordTesting", "AccordValidation",
                                                                "NotesAPI", "TongbanAPI", "accord"],
                    exclude: ["Clients"]),
        .testTarget(name: "AccordMockTests", dependencies: ["AccordContract", "AccordCrypto", "AccordFiles", "AccordFlowConformance", "AccordHTTP", "AccordJSON",
                                                            "AccordMock", "AccordMockState", "AccordMocksFormat", "AccordRedis", "AccordRedisStorage", "AccordReport", "AccordSigning",
                                                            "AccordSync", "AccordTesting", "AccordValidation"]),
        .testTarget(
            name: "AccordContractTests",
            dependencies: ["AccordContract", "AccordDiagnostics", "AccordTesting", "AccordValidation"],
            exclude: ["Corpus"]
        ),
        .testTarget(name: "AccordJSONTests", dependencies: ["AccordJSON"]),
        .testTarget(name: "AccordFlowConformanceTests", dependencies: ["AccordContract", "AccordFlowConformance", "AccordJSON", "AccordTesting", "AccordValidation"]),
        .testTarget(name: "AccordTLSTests", dependencies: ["AccordTLS"]),
        .testTarget(name: "AccordImportTests", dependencies: ["AccordContract", "AccordDiagnostics", "AccordHTTP", "AccordImport", "AccordJSON", "AccordMock", "AccordMockState",
                                                              "AccordMocksFormat", "AccordOpenAPI", "AccordSigning", "AccordTesting", "AccordValidation",
                                                              "AccordYAML"],
                    exclude: ["Corpus"]),
        .testTarget(name: "AccordOpenAPITests", dependencies: ["AccordContract", "AccordJSON", "AccordOpenAPI", "AccordTesting", "AccordYAML"]),
        .testTarget(name: "AccordValidationTests", dependencies: ["AccordContract", "AccordDiagnostics", "AccordJSON", "AccordValidation"]),
        .testTarget(name: "AccordProxyTests", dependencies: ["AccordHTTP", "AccordJSON", "AccordMock", "AccordProxy"]),
        .testTarget(name: "AccordCLITests", dependencies: ["AccordCapture", "AccordCLI", "AccordCommandLine", "AccordContract", "AccordImport", "AccordJSON", "AccordMock", "AccordMockState", "AccordMocksFormat", "AccordSync",
                                                           "AccordTesting", "AccordYAML"]),
    ],
    swiftLanguageModes: [.v6]
)
