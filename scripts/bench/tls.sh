#!/usr/bin/env bash
# Benchmarks `accord serve` (release) over HTTPS and with the web console's event
# stream open, with wrk -t2 -c32 on loopback, every request signed by wrk itself
# (scripts/bench/sign.lua), in one run, each figure a ratio to plain HTTP measured in
# the same run (these machines are noisy), the pairs alternated ROUNDS times:
#   (a) signed GET /signals/quota over plain HTTP, keep-alive
#   (t) the same over HTTPS (TLS 1.3, the local CA's EC P-256 certificate), keep-alive
#   (e) (a) with a live GET /__accord/events stream open and read (curl -N), as the
#       console keeps one: how much the stream slows the server, and whether every
#       request reached it;
#   (a10), (e10) the same two at about 10,000 requests a second (each of wrk's 32
#       connections pausing 3.2 ms before each request): the server's CPU time per
#       request and the latency, with and without the stream.
#
# usage: scripts/bench/tls.sh [SECONDS_PER_RUN] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
rounds=${2:-3}

scripts/setup >/dev/null
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$accord" "$work" "$seconds" "$rounds" <<'PY'
import hashlib, json, os, re, socket, ssl, statistics, subprocess, sys, time, urllib.request, uuid

accord, work, seconds, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lua = os.path.join(os.getcwd(), "scripts/bench/sign.lua")

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def start(name, *arguments):
    port = free_port()
    log = open(f"{work}/{name}.log", "wb")
    server = subprocess.Popen([accord, "serve", "--port", str(port), "--quiet", "--no-reload", *arguments], stdout=log, stderr=subprocess.STDOUT)
    open(f"{work}/{name}.pid", "w").write(f"{server.pid}\n")
    deadline = time.time() + 20
    while b"console: " not in open(f"{work}/{name}.log", "rb").read():
        if server.poll() is not None or time.time() > deadline:
            sys.exit(f"accord serve ({name}) did not start:\n" + open(f"{work}/{name}.log").read())
        time.sleep(0.01)
    return port

plain = start("plain")
secure = start("tls", "--tls", "--tls-dir", f"{work}/tls", "--ca-port", "0")
context = ssl.create_default_context(cafile=f"{work}/tls/ca.pem")
headers = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0", "Content-Type": "application/json"}

def signed(base, path, body=b"", sorted_params="", token=None):
    ts, nonce = str(int(time.time())), uuid.uuid4().hex
    sign = hashlib.md5(f"dev_app_key{ts}{nonce}{sorted_params}dev_app_secret".encode()).hexdigest()
    extra = {"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign}
    if token:
        extra["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=body or None, headers=dict(headers, **extra))
    return json.loads(urllib.request.urlopen(request, context=context if base.startswith("https") else None).read())

login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1",
                                                                              "model": "iPhone", "app_version": "1.2.0"}}, separators=(",", ":"))
login_sorted = 'code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","model":"iPhone","os":"ios","os_version":"26.1"}&phone=13800138000'
tokens = {}
for name, base in [("plain", f"http://127.0.0.1:{plain}"), ("tls", f"https://127.0.0.1:{secure}")]:
    tokens[name] = signed(base, "/api/v1/auth/login/phone", login.encode(), login_sorted)["data"]["access_token"]
    answer = signed(base, "/api/v1/signals/quota", token=tokens[name])
    assert answer["code"] == 0, answer

def cpu_seconds(name):
    """The server's user + system CPU time so far."""
    pid = int(open(f"{work}/{name}.pid").read())
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def wrk(url, token, server="plain", pause_ms=0):
    before = cpu_seconds(server)
    out = subprocess.run(["wrk", "-t2", "-c32", f"-d{seconds}s", "--latency", "-s", lua, url, "--", "GET", "/api/v1/signals/quota", "", "",
                          uuid.uuid4().hex[:12], token, "0", "1", str(pause_ms)], capture_output=True, text=True, check=True).stdout
    def latency(p):
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)", out, re.M)
        return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)]
    if "Non-2xx" in out or "Socket errors" in out:
        sys.exit("wrk saw errors:\n" + out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "requests": requests,
            "p50": latency(50), "p99": latency(99), "cpu_us": (cpu_seconds(server) - before) * 1e6 / requests}

def with_stream(url, token, pause_ms=0):
    """(a) with an event stream open and read; how many events it carried."""
    events = f"{work}/events.txt"
    reader = subprocess.Popen(["curl", "-sN", f"http://127.0.0.1:{plain}/__accord/events?replay=0"], stdout=open(events, "wb"))
    time.sleep(0.3)
    run = wrk(url, token, pause_ms=pause_ms)
    time.sleep(0.5)  # the feed's last flush
    reader.terminate()
    reader.wait()
    data = open(events, "rb").read()
    run["events"] = data.count(b"event: request\n")
    run["dropped"] = sum(int(n) for n in re.findall(rb'"dropped":(\d+)', data))
    return run

plain_url = f"http://127.0.0.1:{plain}/api/v1/signals/quota"
tls_url = f"https://127.0.0.1:{secure}/api/v1/signals/quota"
runs = {"a": [], "t": [], "e": [], "a10": [], "e10": []}
for _ in range(rounds):
    runs["a"].append(wrk(plain_url, tokens["plain"]))
    runs["t"].append(wrk(tls_url, tokens["tls"], server="tls"))
    runs["e"].append(with_stream(plain_url, tokens["plain"]))
    runs["a10"].append(wrk(plain_url, tokens["plain"], pause_ms=3.2))
    runs["e10"].append(with_stream(plain_url, tokens["plain"], pause_ms=3.2))

def median(key, field="rps"):
    return statistics.median(run[field] for run in runs[key])

print(f"wrk -t2 -c32, {seconds} s per run, {rounds} rounds alternated, loopback; 2 cores; signed GET /api/v1/signals/quota, keep-alive")
print("server CPU per request: the server's user + system time over the requests it answered (a cost that does not depend on the rate)")
print(f"{'run':<44}{'rps (median)':>14}{'ratio to a':>12}{'p50 ms':>9}{'p99 ms':>9}{'CPU us/req':>12}{'ratio':>7}   rps per round")
for key, label in [("a", "a) plain HTTP"), ("t", "t) HTTPS, TLS 1.3"), ("e", "e) plain HTTP, event stream open and read"),
                   ("a10", "a10) plain HTTP at ~10k rps"), ("e10", "e10) at ~10k rps, event stream open and read")]:
    rounds_text = ", ".join(f"{run['rps']:,.0f}" for run in runs[key])
    print(f"{label:<44}{median(key):>14,.0f}{median(key) / median('a'):>12.2f}{median(key, 'p50'):>9.2f}{median(key, 'p99'):>9.2f}"
          f"{median(key, 'cpu_us'):>12.1f}{median(key, 'cpu_us') / median('a', 'cpu_us'):>7.2f}   {rounds_text}")
for key in ["e", "e10"]:
    for run in runs[key]:
        print(f"   {key}: event stream: {run['events']:,} events for {run['requests']:,} requests ({run['dropped']:,} dropped, told to the reader)")
print(f"at ~10k rps the stream costs the server {median('e10', 'cpu_us') / median('a10', 'cpu_us') - 1:+.0%} CPU per request; "
      f"p99 {median('a10', 'p99'):.2f} -> {median('e10', 'p99'):.2f} ms")
with socket.create_connection(("127.0.0.1", secure)) as raw, context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
    print(f"TLS: {tls.version()} {tls.cipher()[0]}, certificate verified against the local CA")
PY
