#!/usr/bin/env bash
# Times `accord generate` (release) on synthetic contracts of 200 and 2,000 endpoints
# in one run, prints each time and their ratio (ratio <= 11 for 10x the input) and the
# 2,000 nested in a namespace (--namespace). Creating the output's files is the disk's
# cost, which on this kind of machine ranged widely between runs, so the same
# runs also time a plain program writing the same files (the reference) and print
# accord's time less the reference's (target: 2,000 endpoints within 0.5 s). Then
# how long swiftc takes to type-check the 2,000-endpoint output without the typed
# fixtures, with them, with them nested in the namespace and with them in one file
# (`--output FILE.swift`), and the ratios.
#
# With --baseline REV, the generator of commit REV (built once in
# .build/bench-baseline/REV) is set beside this one in the same run: the public symbol
# lists of the two 2,000-endpoint outputs are diffed (so time is not won by generating
# less; a member of a runtime generic type counts under the output's name for it, as
# `MockTransport.send(_:)` for `typealias MockTransport = AccordMockTransport<Service>`), each output is type-checked twice, alternately, and the repository's own
# contracts and mocks (each generator its own commit's) are generated into an app package
# built clean in debug, three times each (wall-clock and CPU seconds), beside the same package with one small
# model instead (the part of the build no generated code changes); the SMALL outputs' type-checks are counted in
# instructions under callgrind, which a loaded machine does not move;
# the ratios are printed (targets: type-check <= 0.5x, clean build <= 0.6x).
#
# usage: scripts/bench/generate.sh [--baseline REV] [RUNS] [SMALL] [LARGE]   (default: 5 200 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
baseline=""
if [[ ${1:-} == --baseline ]]; then
    baseline=${2:?usage: scripts/bench/generate.sh [--baseline REV] [RUNS] [SMALL] [LARGE]}
    shift 2
fi
runs=${1:-5}
small=${2:-200}
large=${3:-2000}
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
scripts/setup >/dev/null
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in "$small" "$large"; do python3 scripts/bench/synthetic_contracts.py "$size" "$work/c$size"; done

python3 -u - "$accord" "$work" "$runs" "$small" "$large" <<'PY'
import os, statistics, subprocess, sys, time
accord, work, runs, small_size, large_size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])

# The namespace of the nested runs: not the module's name, which a type may not share.
NAMESPACE = ["--namespace", "Synth"]

def generate(size, *flags):
    start = time.perf_counter()
    subprocess.run([accord, "generate", "--contracts", f"{work}/c{size}", "--output", f"{work}/out{size}-{time.time_ns()}", *flags],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

# The reference: the large output's files, written by plain open/write/close into a new directory.
subprocess.run([accord, "generate", "--contracts", f"{work}/c{large_size}", "--output", f"{work}/written"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
written = {os.path.relpath(os.path.join(root, name), f"{work}/written"): open(os.path.join(root, name), "rb").read()
           for root, _, names in os.walk(f"{work}/written") for name in names}

def write_reference():
    target = f"{work}/reference-{time.time_ns()}"
    start = time.perf_counter()
    for relative, contents in written.items():
        path = os.path.join(target, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(descriptor, contents)
        os.close(descriptor)
    return time.perf_counter() - start

small, large, nested, reference = [], [], [], []
for _ in range(runs):        # interleaved, so drift hits all alike
    small.append(generate(small_size))
    large.append(generate(large_size))
    reference.append(write_reference())
    nested.append(generate(large_size, *NAMESPACE))
s, l, n, r = (statistics.median(times) * 1000 for times in (small, large, nested, reference))
own = statistics.median(a - b for a, b in zip(large, reference)) * 1000
print(f"accord generate, median of {runs}: {small_size:,} endpoints {s:.0f} ms, {large_size:,} endpoints {l:.0f} ms, "
      f"ratio {l / s:.1f} (target <= 11 for 200 and 2,000)")
print(f"writing the {len(written):,} files of the {large_size:,} endpoints with open/write/close (the reference): {r:.0f} ms; "
      f"accord generate less the reference: {own:.0f} ms (target <= 500 ms)")
print(f"accord generate --namespace, median of {runs}: {large_size:,} endpoints {n:.0f} ms, {n / l:.2f}x the run without")

def typecheck(label, *flags, one_file=False):
    out = f"{work}/typecheck-{label}" + (".swift" if one_file else "")
    subprocess.run([accord, "generate", "--contracts", f"{work}/c{large_size}", "--output", out, *flags], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    files = [out] if one_file else [os.path.join(root, name) for root, _, names in os.walk(out) for name in names if name.endswith(".swift")]
    lines = sum(1 for path in files for _ in open(path, encoding="utf-8"))
    start = time.perf_counter()
    subprocess.run(["swiftc", "-typecheck", "-wmo", "-swift-version", "6", "-module-name", "Synthetic", *files], check=True)
    seconds = time.perf_counter() - start
    print(f"swiftc -typecheck -wmo of the {large_size:,}-endpoint output {label} ({len(files)} files, {lines:,} lines): {seconds:.1f} s")
    return seconds

# With and without the typed fixtures (the contracts' examples), one after the other.
without = typecheck("without fixtures", "--no-fixtures")
with_fixtures = typecheck("with fixtures")
namespaced = typecheck("with fixtures, nested in a namespace", *NAMESPACE)
print(f"type-check time with fixtures / without: {with_fixtures / without:.2f} (target <= 1.5)")
print(f"type-check time nested in a namespace / at the top level: {namespaced / with_fixtures:.2f}")
# The same code written to one file (`--output API.swift`), which the type checker pays more for.
one_file = typecheck("with fixtures, in one file", one_file=True)
print(f"type-check time in one file / in the directory's files: {one_file / with_fixtures:.2f}")
PY

[[ -n $baseline ]] || exit 0
revision=$(git rev-parse --short "$baseline^{commit}")
tree=.build/bench-baseline/$revision
[[ -d $tree ]] || git worktree add --detach "$tree" "$revision" >/dev/null
scripts/lib/swift-build --package-path "$tree" -c release --product accord >/dev/null
command -v valgrind >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
}
python3 -u - "$accord" "$(cd "$tree" && swift build -c release --show-bin-path)/accord" "$revision" "$work" "$large" "$tree" "$small" <<'PY'
import glob, json, os, re, resource, shlex, shutil, statistics, subprocess, sys, time
ours, theirs, revision, work, large_size, tree = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
small_size = int(sys.argv[7])
generators = {"this tree": ours, revision: theirs}
# Each generator takes the repository's contracts and mocks of its own commit (the format grew since).
repository = {"this tree": "contracts", revision: f"{tree}/contracts"}

def generate(accord, contracts, out):
    subprocess.run([accord, "generate", "--contracts", contracts, "--output", out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return sorted(os.path.join(root, name) for root, _, names in os.walk(out) for name in names if name.endswith(".swift"))

def public_symbols(files, out):
    """Every public symbol of the output compiled as a module, by its USR, with its path for reading.
    Function bodies are type-checked: with them skipped, a member a type gets from a protocol's
    default implementation (an open enum's `init(from:)`, the standard library's for a raw value)
    is left out of the graph and would be counted missing."""
    graph = f"{out}-symbols"
    subprocess.run(["swiftc", "-emit-module", "-wmo", "-swift-version", "6", "-module-name", "Synthetic",
                    "-emit-module-path", f"{graph}/Synthetic.swiftmodule", "-emit-symbol-graph", "-emit-symbol-graph-dir", graph,
                    *files], check=True)
    symbols = {}
    for path in glob.glob(f"{graph}/*.symbols.json"):
        for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
            symbols[symbol["identifier"]["precise"]] = ".".join(symbol["pathComponents"])
    return symbols

def runtime_names(files):
    """The output's names for the runtime's generic types (`typealias MockTransport = AccordMockTransport<Service>`)."""
    names = {}
    for file in files:
        for line in open(file, encoding="utf-8"):
            match = re.match(r"\s*(?:public )?typealias (\w+) = (Accord\w+)<Service>$", line)
            if match: names[match.group(2)] = match.group(1)
    return names

def under_runtime_names(symbols, names):
    """A member of a runtime generic type counted under the name the output gives the type, as an app
    writes it: `AccordMockTransport.send(_:)` is `MockTransport.send(_:)`."""
    def renamed(path):
        head, _, rest = path.partition(".")
        return names[head] + "." + rest if head in names and rest else path
    return {usr: renamed(path) for usr, path in symbols.items()}

outputs = {name: generate(accord, f"{work}/c{large_size}", f"{work}/base-{i}") for i, (name, accord) in enumerate(generators.items())}
symbols = {name: under_runtime_names(public_symbols(files, f"{work}/base-{i}"), runtime_names(files))
           for i, (name, files) in enumerate(outputs.items())}
mine, old = symbols["this tree"], symbols[revision]
dropped = sorted(old[usr] for usr in old.keys() - mine.keys())
added = sorted(mine[usr] for usr in mine.keys() - old.keys())
# A symbol whose declaration changed (a parameter added, `@Sendable`) has a new USR under the same name.
# One whose name is still listed is kept: an attribute changed (`@Sendable`), or the graph lists a
# protocol's default (an open enum's `init(from:)` from the standard library) beside the type's own,
# which the old output wrote and this one leaves to the default.
base = lambda path: path.split("(")[0]
names = set(mine.values())
kept = [path for path in dropped if path in names]
changed = {path: [other for other in added if base(other) == base(path)] for path in dropped if path not in names}
missing = [path for path, now in changed.items() if not now]
print(f"public symbols of the {large_size:,}-endpoint output: {len(mine):,} here, {len(old):,} at {revision}; "
      f"{len(missing):,} of {revision}'s missing here, {len(changed) - len(missing):,} changed, "
      f"{len(kept):,} under the same name with another USR, {len(added):,} added here")
for path in missing: print(f"  missing here: {path}")
for path, now in changed.items():
    if now: print(f"  changed: {path} -> {', '.join(now)}")
for path in added[:10]: print(f"  added here: {path}")

def typecheck(files):
    start = time.perf_counter()
    subprocess.run(["swiftc", "-typecheck", "-wmo", "-swift-version", "6", "-module-name", "Synthetic", *files], check=True)
    return time.perf_counter() - start

times = {name: [] for name in generators}
for _ in range(2):           # alternately, so drift hits both alike
    for name, files in outputs.items(): times[name].append(typecheck(files))
t_mine, t_old = (statistics.median(times[name]) for name in generators)
print(f"swiftc -typecheck -wmo of the {large_size:,}-endpoint output with fixtures, median of 2: {t_mine:.1f} s here, "
      f"{t_old:.1f} s at {revision}: {t_mine / t_old:.2f}x (target <= 0.5)")

# The same comparison in instructions, which a loaded machine does not move: the small
# output of each generator type-checked once under callgrind, the two side by side.
def counted(files, name):
    frontend = subprocess.run(["swiftc", "-typecheck", "-wmo", "-swift-version", "6", "-module-name", "Synthetic", *files, "-###"],
                              check=True, capture_output=True, text=True).stdout.splitlines()[0]
    return subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={work}/{name}.callgrind", *shlex.split(frontend)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

runs = {name: counted(generate(accord, f"{work}/c{small_size}", f"{work}/counted-{i}"), f"counted-{i}")
        for i, (name, accord) in enumerate(generators.items())}
counts = {}
for name, run in runs.items():
    report = run.communicate()[1]
    counts[name] = int(re.search(r"Collected : (\d+)", report).group(1))
i_mine, i_old = (counts[name] for name in generators)
print(f"instructions of swift-frontend -typecheck -wmo of the {small_size:,}-endpoint output with fixtures (callgrind): "
      f"{i_mine / 1e9:.3f} G here, {i_old / 1e9:.3f} G at {revision}: {i_mine / i_old:.3f}x")

# The repository's own contracts and mocks, generated by each into a library target of an app package, built clean in debug.
def package(name, accord, index):
    root = f"{work}/app-{index}"
    generate(accord, repository[name], f"{root}/Sources/TongbanAPI")
    write_manifest(root)
    return root

def write_manifest(root):
    with open(f"{root}/Package.swift", "w", encoding="utf-8") as manifest:
        manifest.write('// swift-tools-version: 6.1\nimport PackageDescription\n\n'
                       'let package = Package(name: "App", platforms: [.macOS(.v13), .iOS(.v16)], '
                       'targets: [.target(name: "TongbanAPI")])\n')

def clean_build(root):
    """The build's wall-clock seconds and the CPU seconds (user and system) of every process it ran."""
    shutil.rmtree(f"{root}/.build", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["swift", "build", "--package-path", root], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

# The part of a clean build no generated code changes: the same package with one small model in place of the
# client (Foundation's modules cached and indexed, the manifest compiled), built in the same loop.
def floor_package():
    root = f"{work}/app-floor"
    os.makedirs(f"{root}/Sources/TongbanAPI", exist_ok=True)
    write_manifest(root)
    with open(f"{root}/Sources/TongbanAPI/Model.swift", "w", encoding="utf-8") as source:
        source.write("import Foundation\n\npublic struct Model: Codable, Hashable, Sendable {\n    public var id: String\n}\n")
    return root

apps = {name: package(name, accord, i) for i, (name, accord) in enumerate(generators.items())}
apps["floor"] = floor_package()
builds = {name: [] for name in apps}
for _ in range(3):
    for name, root in apps.items(): builds[name].append(clean_build(root))
(b_mine, c_mine), (b_old, c_old), (b_floor, _) = (
    (statistics.median(w for w, _ in builds[name]), statistics.median(c for _, c in builds[name])) for name in apps)
print(f"clean debug build of an app package of the repository's generated client, median of 3: {b_mine:.1f} s here, "
      f"{b_old:.1f} s at {revision}: {b_mine / b_old:.2f}x (target <= 0.6); "
      f"CPU {c_mine:.1f} s here, {c_old:.1f} s at {revision}: {c_mine / c_old:.2f}x")
print(f"the same package with one small model instead (what no generated code changes): {b_floor:.1f} s; "
      f"less that, {b_mine - b_floor:.1f} s here, {b_old - b_floor:.1f} s at {revision}: {(b_mine - b_floor) / (b_old - b_floor):.2f}x")
PY
