#!/usr/bin/env bash
# Times `accord lint` (release build) on a synthetic 2,000-endpoint contract set
# against PyYAML's libyaml-backed CSafeLoader merely parsing the same files, in the
# same run, and prints the ratio (target: <= 1.0).
#
# usage: scripts/bench/lint.sh [ENDPOINTS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
endpoints=${1:-2000}
runs=${2:-7}

scripts/setup >/dev/null
python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null || python3 -m pip install --quiet pyyaml
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/bench/synthetic_contracts.py "$endpoints" "$work/contracts"
# No fixtures: the repository's mocks/ belong to its own contracts, not to these.
mkdir "$work/mocks"
files=$(ls "$work/contracts" | wc -l)
bytes=$(cat "$work/contracts"/*.yaml | wc -c)

"$accord" lint --contracts "$work/contracts" --mocks "$work/mocks" --quiet || { echo "lint found problems in the synthetic set" >&2; exit 1; }

python3 - "$accord" "$work/contracts" "$runs" "$endpoints" "$files" "$bytes" "$work/mocks" <<'PY'
import glob, statistics, subprocess, sys, time
import yaml

accord, directory, runs, endpoints, files, size, mocks = sys.argv[1], sys.argv[2], int(sys.argv[3]), *sys.argv[4:]
paths = sorted(glob.glob(directory + "/*.yaml"))
parse = "import glob, yaml\nfor p in sorted(glob.glob(%r)):\n    yaml.load(open(p, 'rb'), Loader=yaml.CSafeLoader)\n" % (directory + "/*.yaml")

def wall(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start

def in_process():
    start = time.perf_counter()
    for p in paths:
        with open(p, "rb") as f:
            yaml.load(f, Loader=yaml.CSafeLoader)
    return time.perf_counter() - start

# Interleave the three measurements so drift on a noisy machine hits them alike.
lint, python_process, python_parse = [], [], []
for _ in range(runs):
    lint.append(wall([accord, "lint", "--contracts", directory, "--mocks", mocks, "--quiet"]))
    python_process.append(wall([sys.executable, "-c", parse]))
    python_parse.append(in_process())

m = {name: statistics.median(v) * 1000 for name, v in
     [("lint", lint), ("python_process", python_process), ("python_parse", python_parse)]}
print(f"synthetic contracts: {endpoints} endpoints, {files} files, {int(size) / 1e6:.2f} MB; median of {runs} runs")
print(f"accord lint (parse + load + check + examples), whole process: {m['lint']:8.1f} ms")
print(f"PyYAML CSafeLoader parse only, whole process:                 {m['python_process']:8.1f} ms")
print(f"PyYAML CSafeLoader parse only, in process (no start-up):      {m['python_parse']:8.1f} ms")
print(f"ratio lint / python process:  {m['lint'] / m['python_process']:.2f}")
print(f"ratio lint / python parse:    {m['lint'] / m['python_parse']:.2f}   (target <= 1.0)")
PY
