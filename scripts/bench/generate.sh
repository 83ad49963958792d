#!/usr/bin/env bash
# Times `accord generate` (release) on synthetic contracts of 200 and 2,000 endpoints
# in one run, prints each time and their ratio (ratio <= 11 for 10x the input) and the
# 2,000 nested in a namespace (--namespace). Creating the ~5,000 files is the disk's
# cost, which on this kind of machine ranged from 0.1 to 1 s between runs, so the same
# runs also time a plain program writing the same files (the reference) and print
# accord's time less the reference's (target: 2,000 endpoints within 0.5 s). Then
# how long swiftc takes to type-check the 2,000-endpoint output without the typed
# fixtures, with them, and with them nested in the namespace, and the ratios.
#
# usage: scripts/bench/generate.sh [RUNS] [SMALL] [LARGE]   (default: 5 200 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
small=${2:-200}
large=${3:-2000}
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
scripts/setup >/dev/null
swift build -c release --product accord >/dev/null
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

def typecheck(label, *flags):
    out = f"{work}/typecheck-{label}"
    subprocess.run([accord, "generate", "--contracts", f"{work}/c{large_size}", "--output", out, *flags], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    files = [os.path.join(root, name) for root, _, names in os.walk(out) for name in names if name.endswith(".swift")]
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
PY
