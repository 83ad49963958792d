#!/usr/bin/env bash
# Times `accord generate` (release) on synthetic contracts of 200 and 2,000 endpoints
# in one run, prints each time and their ratio (target: 2,000 endpoints under 1 s,
# ratio <= 11 for 10x the input), then how long swiftc takes to type-check the
# 2,000-endpoint output with and without the typed fixtures, and their ratio.
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

def generate(size):
    start = time.perf_counter()
    subprocess.run([accord, "generate", "--contracts", f"{work}/c{size}", "--output", f"{work}/out{size}-{time.time_ns()}"],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start

small, large = [], []
for _ in range(runs):        # interleaved, so drift hits both alike
    small.append(generate(small_size))
    large.append(generate(large_size))
s, l = statistics.median(small) * 1000, statistics.median(large) * 1000
print(f"accord generate, median of {runs}: {small_size:,} endpoints {s:.0f} ms, {large_size:,} endpoints {l:.0f} ms, "
      f"ratio {l / s:.1f} (target <= 11 for 200 and 2,000; 2,000 under 1,000 ms)")

def typecheck(label, *flags):
    out = f"{work}/typecheck-{label}"
    subprocess.run([accord, "generate", "--contracts", f"{work}/c{large_size}", "--output", out, *flags], check=True, stdout=subprocess.DEVNULL)
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
print(f"type-check time with fixtures / without: {with_fixtures / without:.2f} (target <= 1.5)")
PY
