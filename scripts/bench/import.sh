#!/usr/bin/env bash
# Times `accord import openapi` (release build) on a synthetic OpenAPI 3.1 document of
# OPERATIONS operations (each with path and query parameters, a JSON body or answer,
# error answers, examples; components with refs, allOf, enums and a tagged union)
# against PyYAML's libyaml-backed CSafeLoader merely parsing the same document, in the
# same run, and prints both with their ratio. The issue's target: 1,000 operations
# import in under a second on this machine.
#
# usage: scripts/bench/import.sh [OPERATIONS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
operations=${1:-1000}
runs=${2:-5}

scripts/setup >/dev/null
python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null || python3 -m pip install --quiet pyyaml
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/bench/synthetic_openapi.py "$operations" "$work/openapi.yaml"
"$accord" import openapi "$work/openapi.yaml" --output "$work/check" 2>/dev/null
"$accord" lint --contracts "$work/check/contracts" --mocks "$work/check/mocks" --quiet \
    || { echo "the imported synthetic document does not lint clean" >&2; exit 1; }

python3 - "$accord" "$work" "$runs" "$operations" <<'PY'
import os, shutil, statistics, subprocess, sys, time

accord, work, runs, operations = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
document = os.path.join(work, "openapi.yaml")
parse = "import yaml\nyaml.load(open(%r, 'rb'), Loader=yaml.CSafeLoader)\n" % document

def wall(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

# Interleaved, so drift on a noisy machine hits both alike.
imports, parses = [], []
for run in range(runs):
    output = os.path.join(work, "out-%d" % run)
    imports.append(wall([accord, "import", "openapi", document, "--output", output]))
    shutil.rmtree(output)
    parses.append(wall([sys.executable, "-c", parse]))

m_import, m_parse = statistics.median(imports) * 1000, statistics.median(parses) * 1000
print(f"synthetic OpenAPI document: {operations} operations, {os.path.getsize(document) / 1e6:.2f} MB; median of {runs} runs")
print(f"accord import openapi (parse, translate, check examples, write), whole process: {m_import:8.1f} ms (target: under 1000 ms)")
print(f"PyYAML CSafeLoader parse only, whole process:                                 {m_parse:8.1f} ms")
print(f"ratio import / python parse: {m_import / m_parse:.2f}")
PY
