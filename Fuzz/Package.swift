// swift-tools-version: 6.0
// libFuzzer targets for Accord, kept out of the main build: each links libFuzzer's own
// `main`. Build and run them with `scripts/fuzz TARGET [SECONDS]`.
import PackageDescription

let accord = "Accord"

let package = Package(
    name: "AccordFuzz",
    dependencies: [.package(name: accord, path: "..")],
    targets: [
        // libyaml's events into the node tree, with its limits.
        .executableTarget(name: "FuzzYAML", dependencies: [.product(name: "AccordYAML", package: accord)]),
        // A contract domain file through the loader, the checks and the diagnostic renderer.
        .executableTarget(name: "FuzzContract", dependencies: [.product(name: "AccordValidation", package: accord)]),
        // The JSON reader, and the writer's round trip of what it accepts.
        .executableTarget(name: "FuzzJSON", dependencies: [.product(name: "AccordJSON", package: accord)]),
        // Whole requests (method, target, headers, body) through the mock engine and the proxy's gate.
        .executableTarget(name: "FuzzEngine", dependencies: [.product(name: "AccordHTTP", package: accord),
                                                                  .product(name: "AccordMock", package: accord),
                                                                  .product(name: "AccordMockState", package: accord)]),
        // Template expressions and the JSON templates that hold them, rendered.
        .executableTarget(name: "FuzzTemplate", dependencies: [.product(name: "AccordHTTP", package: accord),
                                                                  .product(name: "AccordMockState", package: accord),
                                                                  .product(name: "AccordMocksFormat", package: accord)]),
        // Captures: HAR files entry by entry and --record journal lines.
        .executableTarget(name: "FuzzCapture", dependencies: [.product(name: "AccordCapture", package: accord)]),
        // The proxy's upstream URL from any request target, and the headers it forwards either way.
        .executableTarget(name: "FuzzProxy", dependencies: [.product(name: "AccordHTTP", package: accord),
                                                                  .product(name: "AccordProxy", package: accord)]),
        // OpenAPI documents through the importer: every problem a diagnostic, never a crash or a hang.
        .executableTarget(name: "FuzzImport", dependencies: [.product(name: "AccordImport", package: accord)]),
        // Durations, injections, command-line and control-API rules.
        .executableTarget(name: "FuzzNumbers", dependencies: [.product(name: "AccordMockState", package: accord),
                                                                 .product(name: "AccordMocksFormat", package: accord)]),
    ],
    swiftLanguageModes: [.v6]
)
