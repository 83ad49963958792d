#!/usr/bin/env bash
# Benchmarks `accord check-requests` (release) on captured traffic, against the server
# path validating the same requests, in one run:
#   1. `accord serve --record` under wrk -t2 -c32 (signed GET /signals/inbox, then signed
#      POST /auth/login/phone, scripts/bench/sign.lua): the server's requests per second
#      are the reference, and its journal is the capture;
#   2. check-requests on the first JSONL_ENTRIES lines of that journal, and on a HAR of
#      HAR_ENTRIES of them (with the real answers as response bodies): entries per
#      second, the ratio to the server, and peak RSS (/usr/bin/time).
# Every entry must pass (0 violations): the capture is what the server accepted.
#
# usage: scripts/bench/check-requests.sh [JSONL_ENTRIES] [HAR_ENTRIES]   (default: 100000 20000)
#   ACCORD_BENCH_KEEP=DIR keeps the journal and the two captures in DIR, to profile them.
set -euo pipefail
cd "$(dirname "$0")/../.."
jsonl_entries=${1:-100000}
har_entries=${2:-20000}

scripts/setup >/dev/null
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; [ -n "${ACCORD_BENCH_KEEP:-}" ] && cp "$work"/capture.* "$work"/run.jsonl "$ACCORD_BENCH_KEEP"/; rm -rf "$work"' EXIT

python3 - "$accord" "$work" "$jsonl_entries" "$har_entries" <<'PY'
import hashlib, json, os, re, socket, subprocess, sys, time, urllib.request, uuid

accord, work, jsonl_entries, har_entries = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lua = os.path.join(os.getcwd(), "scripts/bench/sign.lua")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
journal = f"{work}/run.jsonl"
server = subprocess.Popen([accord, "serve", "--port", str(port), "--no-reload", "--quiet", "--record", journal],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
open(f"{work}/accord.pid", "w").write(str(server.pid))
base = f"http://127.0.0.1:{port}"
device = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0"}
for _ in range(200):
    try:
        urllib.request.urlopen(urllib.request.Request(base + "/api/v1/app/start-config", headers=device)).read()
        break
    except OSError:
        time.sleep(0.02)

def signed(path, body=b"", sorted_params="", token="none"):
    ts, nonce = str(int(time.time())), uuid.uuid4().hex
    sign = hashlib.md5(f"dev_app_key{ts}{nonce}{sorted_params}dev_app_secret".encode()).hexdigest()
    headers = dict(device, **{"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign,
                              "Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return urllib.request.urlopen(urllib.request.Request(base + path, data=body or None, headers=headers)).read()

login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1",
                    "model": "iPhone", "app_version": "1.2.0"}}, ensure_ascii=False, separators=(",", ":"))
login_sorted = 'code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","model":"iPhone","os":"ios","os_version":"26.1"}&phone=13800138000'
login_answer = signed("/api/v1/auth/login/phone", login.encode(), login_sorted)
token = json.loads(login_answer)["data"]["access_token"]
inbox_answer = signed("/api/v1/signals/inbox?limit=20", sorted_params="limit=20", token=token)

def kept(line):
    return '"verdict":"ok"' in line and ('"path":"/api/v1/signals/inbox"' in line or '"path":"/api/v1/auth/login/phone"' in line)

def lines():
    with open(journal) as f:
        return sum(1 for line in f if kept(line))

# The reference: the server validating (and recording) signed requests, until the journal is long enough.
rates, duration = [], 2
while lines() < jsonl_entries:
    for path, method, body, params in [("/api/v1/signals/inbox?limit=20", "GET", "", "limit=20"),
                                       ("/api/v1/auth/login/phone", "POST", login, login_sorted)]:
        out = subprocess.run(["wrk", "-t2", "-c32", f"-d{duration}s", "-s", lua, base + path, "--", method, path, body, params,
                              uuid.uuid4().hex[:12], token], capture_output=True, text=True, check=True).stdout
        rates.append(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)))
server.terminate()
server.wait()
server_rate = sum(rates) / len(rates)

# The capture: the journal's first lines, and a HAR of the first of those with the real answers.
with open(journal) as f:
    recorded = [line for line in f if kept(line)][:jsonl_entries]
with open(f"{work}/capture.jsonl", "w") as f:
    f.writelines(recorded)
def entry(line):
    e = json.loads(line)
    query = "&".join(f"{k}={v}" for k, v in e.get("query", []))
    answer = inbox_answer if e["method"] == "GET" else login_answer
    post = {"mimeType": "application/json", "text": json.dumps(e["body"], ensure_ascii=False)} if "body" in e else None
    request = {"method": e["method"], "url": f"https://api.example.com{e['path']}" + (f"?{query}" if query else ""), "httpVersion": "HTTP/1.1",
               "headers": [{"name": n, "value": v} for n, v in e["headers"].items()], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": -1}
    if post: request["postData"] = post
    started = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(e["wall"]))
    return {"startedDateTime": started, "time": 1, "request": request,
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [{"name": "Content-Type", "value": "application/json"}],
                         "cookies": [], "content": {"size": len(answer), "mimeType": "application/json", "text": answer.decode()},
                         "redirectURL": "", "headersSize": -1, "bodySize": len(answer)},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
with open(f"{work}/capture.har", "w") as f:
    json.dump({"log": {"version": "1.2", "creator": {"name": "accord bench", "version": "1"}, "entries": [entry(l) for l in recorded[:har_entries]]}}, f,
              ensure_ascii=False)

def check(path, count):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M", accord, "check-requests", path, "--quiet"], capture_output=True, text=True)
    seconds, rss_kib = out.stderr.strip().splitlines()[-1].split()
    assert f"{count} request" in out.stdout and " 0 violations" in out.stdout, out.stdout + out.stderr
    return count / max(float(seconds), 0.01), int(rss_kib) / 1024, float(seconds)

print(f"server path (accord serve --record, wrk -t2 -c32): {server_rate:,.0f} requests/s  (reference)")
for name, path, count in [("JSONL journal", f"{work}/capture.jsonl", len(recorded)), ("HAR", f"{work}/capture.har", min(har_entries, len(recorded)))]:
    rate, rss, seconds = check(path, count)
    size = os.path.getsize(path) / 1048576
    print(f"check-requests {name}: {count:,} entries ({size:.1f} MB) in {seconds:.2f} s = {rate:,.0f} entries/s, "
          f"{rate / server_rate:.2f}x the server path, peak RSS {rss:.0f} MB")
PY
