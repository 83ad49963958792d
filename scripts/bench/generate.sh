#!/usr/bin/env bash
# Times `accord generate` (release) on synthetic contracts of 200 and 2,000 endpoints
# in one run, prints each time and their ratio (target: 2,000 endpoints under 1 s,
# ratio <= 11 for 10x the input), then how long swiftc takes to type-check the
# 2,000-endpoint output.
#
# usage: scripts/bench/generate.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
scripts/setup >/dev/null
swift build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 200 2000; do python3 scripts/bench/synthetic_contracts.py "$size" "$work/c$size"; done

python3 -u - "$accord" "$work" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
accord, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def generate(size):
    start = time.perf_counter()
    subprocess.run([accord, "generate", "--contracts", f"{work}/c{size}", "--output", f"{work}/out{size}-{time.time_ns()}"],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start

small, large = [], []
for _ in range(runs):        # interleaved, so drift hits both alike
    small.append(generate(200))
    large.append(generate(2000))
s, l = statistics.median(small) * 1000, statistics.median(large) * 1000
print(f"accord generate, median of {runs}: 200 endpoints {s:.0f} ms, 2,000 endpoints {l:.0f} ms, ratio {l / s:.1f} (target <= 11; 2,000 under 1,000 ms)")

out = f"{work}/typecheck"
subprocess.run([accord, "generate", "--contracts", f"{work}/c2000", "--output", out], check=True, stdout=subprocess.DEVNULL)
files = [os.path.join(root, name) for root, _, names in os.walk(out) for name in names if name.endswith(".swift")]
lines = sum(1 for path in files for _ in open(path, encoding="utf-8"))
start = time.perf_counter()
subprocess.run(["swiftc", "-typecheck", "-wmo", "-swift-version", "6", "-module-name", "Synthetic", *files], check=True)
print(f"swiftc -typecheck -wmo of the 2,000-endpoint output ({len(files)} files, {lines:,} lines): {time.perf_counter() - start:.1f} s")
PY
