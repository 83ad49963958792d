#!/usr/bin/env bash
# Counts the instructions `accord serve` (release) executes per request, under
# valgrind's callgrind: machine-independent, unlike wall-clock figures.
#
# The server runs with collection off; a client sends warm-up requests, then turns
# collection on for exactly N requests of one kind, off again, and dumps. Per request:
#   (a) signed, authenticated, validated GET /signals/inbox?limit=20
#   (b) signed, validated login POST /auth/login/phone (issues real tokens)
# and each pipeline stage's own cost (without the stages it calls), so the split is in the same run.
# Everything outside the engine (libmicrohttpd, the adapter, the access log) is the
# rest. Prints instructions per request; asserts nothing.
#
# usage: scripts/bench/instructions.sh [REQUESTS_PER_KIND]
#        ACCORD_BENCH_ANNOTATE=DIR keeps each kind's inclusive profile (DIR/a.txt, b.txt) and callgrind data (a.callgrind, b.callgrind)
set -euo pipefail
cd "$(dirname "$0")/../.."
requests=${1:-2000}

scripts/setup >/dev/null
command -v valgrind >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
}
swift build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$accord" "$work" "$requests" <<'PY'
import hashlib, http.client, json, os, re, shutil, socket, subprocess, sys, time, uuid

accord, work, requests = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(f"{work}/mocks")
# The same fixtures as serve.sh: a 350-byte inbox, a static login answer.
serve_script = open("scripts/bench/serve.sh", encoding="utf-8").read()
fixtures = re.search(r'open\(f"\{work\}/mocks/bench.yaml", "w"\).write\("""(.*?)"""\)', serve_script, re.S).group(1)
open(f"{work}/mocks/bench.yaml", "w").write(fixtures)

with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
out = f"{work}/callgrind.out"
# Swift seeds its hashing per process; a fixed seed makes dictionary and set probes, and so the count, repeat run to run.
server = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}.%p",
                           accord, "serve", "--port", str(port), "--mocks", f"{work}/mocks", "--no-reload", "--threads", "1"],
                          stdout=open(f"{work}/server.log", "wb"), stderr=subprocess.STDOUT,
                          env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"))
open(f"{work}/server.pid", "w").write(str(server.pid))

open_headers = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0"}
connection = None
def send(method, path, body=b"", sorted_params="", token=None):
    global connection
    ts, nonce = str(int(time.time())), uuid.uuid4().hex
    sign = hashlib.md5(f"dev_app_key{ts}{nonce}{sorted_params}dev_app_secret".encode()).hexdigest()
    headers = dict(open_headers, **{"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign,
                                     "Content-Type": "application/json"})
    if token: headers["Authorization"] = "Bearer " + token
    connection.request(method, path, body=body or None, headers=headers)
    answer = connection.getresponse().read()
    return json.loads(answer)

deadline = time.time() + 120
while True:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/api/v1/app/start-config", headers=open_headers); connection.getresponse().read()
        break
    except OSError:
        if time.time() > deadline: sys.exit("the server did not start under valgrind")
        time.sleep(0.2)

login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1",
                    "model": "iPhone", "app_version": "1.2.0"}}, ensure_ascii=False, separators=(",", ":")).encode()
login_sorted = 'code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","model":"iPhone","os":"ios","os_version":"26.1"}&phone=13800138000'
token = send("POST", "/api/v1/auth/login/phone", login, login_sorted)["data"]["access_token"]
kinds = [
    ("a) signed, authenticated, validated GET", lambda: send("GET", "/api/v1/signals/inbox?limit=20", sorted_params="limit=20", token=token)),
    ("b) signed, validated login POST", lambda: send("POST", "/api/v1/auth/login/phone", login, login_sorted)),
]

def control(*args):
    subprocess.run(["callgrind_control", *args, str(server.pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

dumps = []
for name, call in kinds:
    for _ in range(50): assert call()["code"] == 0   # warm-up, not counted
    control("-i", "on")
    for _ in range(requests): call()
    control("-i", "off")
    control("-d", name[:2].strip(") "))
    dumps.append(name)
server.terminate(); server.wait(timeout=60)

# Each dump is callgrind.out.PID.N, numbered in the order taken.
files = sorted((f for f in os.listdir(work) if re.fullmatch(r"callgrind\.out\.\d+\.\d+", f)), key=lambda f: int(f.rsplit(".", 1)[1]))
# The mock's stages in the order they call one another: each one's inclusive cost holds
# the stages after it, so its own share is its cost less the next one's.
stages = ["JournalStage", "ReportStage", "StorageGuardStage", "FramingStage", "CORSStage", "SteeringStage", "RouteStage", "BodyLimitStage", "BodyStage",
          "SignatureStage", "AuthenticationStage", "ValidationStage", "InjectionStage", "ChoiceStage", "TokenStage", "FaultStage",
          "UploadStage", "EffectStage", "RenderStage"]
print(f"callgrind, {requests} requests of each kind on one keep-alive connection, one worker thread; instructions per request")
for name, path in zip(dumps, files):
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f"{work}/{path}"],
                          capture_output=True, text=True, check=True).stdout
    text = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True, check=True).stdout
    if os.environ.get("ACCORD_BENCH_ANNOTATE"):
        open(os.path.join(os.environ["ACCORD_BENCH_ANNOTATE"], f"{name[:1]}.txt"), "w").write(text)
        shutil.copy(f"{work}/{path}", os.path.join(os.environ["ACCORD_BENCH_ANNOTATE"], f"{name[:1]}.callgrind"))
    total = int(re.search(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))
    print(f"{name:<44}{total / requests:>10,.0f}")
    inclusive = []
    for stage in stages:
        cost = 0
        for line in text.splitlines():
            match = re.match(r"^\s*([\d,]+) \([^)]*\)\s+[^:\s]*:(.*)$", line)
            if match and re.search(rf"((^|[ :]){stage}\.respond\(|\.respond\(.*\) in conformance {stage}$)", match.group(2).split(" [")[0]):
                cost = max(cost, int(match.group(1).replace(",", "")))
        inclusive.append(cost)
    for index, stage in enumerate(stages):
        if inclusive[index]:
            own = inclusive[index] - next((cost for cost in inclusive[index + 1:] if cost), 0)
            print(f"    {stage:<40}{own / requests:>10,.0f}")
    handle = [int(m.group(1).replace(",", "")) for m in re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+[^:\s]*:(Pipeline\.run|MockEngine\.handle)\(", text, re.M)]
    if handle:
        print(f"    {'engine (MockEngine.handle) in all':<40}{max(handle) / requests:>10,.0f}")
        print(f"    {'outside the engine (HTTP, adapter, log)':<40}{(total - max(handle)) / requests:>10,.0f}")
PY
