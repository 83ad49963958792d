#!/usr/bin/env bash
# Benchmarks `accord proxy` (release) in front of nginx, against nginx direct, in one run:
#   1. nginx (2 workers) serves the mock's real answer to GET /api/v1/signals/inbox?limit=20
#      as a static file: wrk -t2 -cCONNECTIONS straight at nginx is the reference;
#   2. the same signed GET (scripts/bench/sign.lua: a fresh nonce per request) through
#      `accord proxy --upstream nginx`: every request routed, its signature, nonce and
#      token shape checked, validated, forwarded over a kept-alive connection, and the
#      answer read whole and validated against the contract;
#   3. the p50 latency at one connection, direct and through the proxy: the added p50;
#   4. the same through a second proxy to nginx over HTTPS (a self-signed CA given with
#      --upstream-ca): the rate, and the protocol nginx logged (HTTP/2.0 when libcurl
#      negotiated it).
#   5. memory: eight answers of 16 MiB of small objects (a JSON tree of about twenty
#      times their size each) through a third proxy at once: its peak and its
#      resident memory after.
# Each proxy but the third must report 0 violations at the end (the checks ran and passed).
#
# usage: scripts/bench/proxy.sh [SECONDS] [CONNECTIONS]   (default: 10 32)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
connections=${2:-32}

scripts/setup >/dev/null
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$accord" "$work" "$seconds" "$connections" <<'PY'
import hashlib, json, os, re, socket, subprocess, sys, threading, time, urllib.error, urllib.request, uuid

accord, work, seconds, connections = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lua = os.path.join(os.getcwd(), "scripts/bench/sign.lua")
path, params = "/api/v1/signals/inbox?limit=20", "limit=20"
device = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0"}

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def wait_for(url, headers=lambda: device):
    for _ in range(300):
        try:
            return urllib.request.urlopen(urllib.request.Request(url, headers=headers())).read()
        except urllib.error.HTTPError as error:
            sys.exit(f"{url}: HTTP {error.code}: {error.read()}")
        except OSError:
            time.sleep(0.02)
    sys.exit(f"nothing answers {url}")

def signed_headers(token):
    ts, nonce = str(int(time.time())), uuid.uuid4().hex
    sign = hashlib.md5(f"dev_app_key{ts}{nonce}{params}dev_app_secret".encode()).hexdigest()
    return dict(device, **{"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign,
                           "Authorization": "Bearer " + token})

def start(name, arguments):
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    open(f"{work}/{name}.pid", "w").write(f"{process.pid}\n")  # one a line: the trap reads them all
    return process

# The answer nginx serves: the mock's own, so the proxy's checks pass.
mock_port = free_port()
mock = start("mock", [accord, "serve", "--port", str(mock_port), "--no-reload", "--quiet", "--no-sign"])
base = f"http://127.0.0.1:{mock_port}"
wait_for(base + "/api/v1/app/start-config")
login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1",
                    "model": "iPhone", "app_version": "1.2.0"}}).encode()
answer = json.loads(urllib.request.urlopen(urllib.request.Request(base + "/api/v1/auth/login/phone", data=login,
                                                                  headers=dict(device, **{"Content-Type": "application/json"}))).read())
token = answer["data"]["access_token"]
inbox = urllib.request.urlopen(urllib.request.Request(base + path, headers=signed_headers(token))).read()
mock.terminate()
mock.wait()

os.makedirs(f"{work}/root/api/v1/signals")
open(f"{work}/root/api/v1/signals/inbox", "wb").write(inbox)
subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", f"{work}/key.pem", "-out", f"{work}/cert.pem"],
               check=True, capture_output=True)
nginx_port, tls_port = free_port(), free_port()
open(f"{work}/nginx.conf", "w").write(f"""
worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {work}/tmp; proxy_temp_path {work}/tmp; fastcgi_temp_path {work}/tmp;
    uwsgi_temp_path {work}/tmp; scgi_temp_path {work}/tmp;
    keepalive_requests 1000000;
    log_format protocol '$server_protocol';
    server {{
        listen 127.0.0.1:{nginx_port};
        location / {{ root {work}/root; default_type "application/json; charset=utf-8"; }}
    }}
    server {{
        listen 127.0.0.1:{tls_port} ssl http2;
        ssl_certificate {work}/cert.pem;
        ssl_certificate_key {work}/key.pem;
        access_log {work}/tls-access.log protocol;
        location / {{ root {work}/root; default_type "application/json; charset=utf-8"; }}
    }}
}}
""")
os.makedirs(f"{work}/tmp")
subprocess.run(["chmod", "-R", "a+rX", work], check=True)
subprocess.Popen(["nginx", "-c", f"{work}/nginx.conf", "-p", work, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
direct = f"http://127.0.0.1:{nginx_port}"
assert wait_for(direct + path) == inbox

proxy_port, tls_proxy_port = free_port(), free_port()
start("proxy", [accord, "proxy", "--upstream", direct, "--port", str(proxy_port), "--quiet"])
start("tls-proxy", [accord, "proxy", "--upstream", f"https://127.0.0.1:{tls_port}", "--upstream-ca", f"{work}/cert.pem",
                    "--port", str(tls_proxy_port), "--quiet"])
proxied, tls_proxied = f"http://127.0.0.1:{proxy_port}", f"http://127.0.0.1:{tls_proxy_port}"
assert wait_for(proxied + path, lambda: signed_headers(token)) == inbox
assert wait_for(tls_proxied + path, lambda: signed_headers(token)) == inbox

def wrk(base, threads, conns, duration):
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{conns}", f"-d{duration}s", "--latency", "-s", lua, base + path, "--", "GET", path, "",
                          params, uuid.uuid4().hex[:12], token], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    value, unit = re.search(r"50%\s+([\d.]+)(us|ms|s)", out).groups()
    p50 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    assert errors is None, out
    return rate, p50

direct_rate, _ = wrk(direct, 2, connections, seconds)
proxied_rate, _ = wrk(proxied, 2, connections, seconds)
_, direct_p50 = wrk(direct, 1, 1, max(1, seconds // 2))
_, proxied_p50 = wrk(proxied, 1, 1, max(1, seconds // 2))
tls_rate, _ = wrk(tls_proxied, 2, connections, seconds)
report = json.loads(urllib.request.urlopen(proxied + "/__accord/report").read())
assert report["summary"]["violations"] == 0, report["summary"]
tls_report = json.loads(urllib.request.urlopen(tls_proxied + "/__accord/report").read())
assert tls_report["summary"]["violations"] == 0, tls_report["summary"]
protocols = {}
for line in open(f"{work}/tls-access.log"):
    protocols[line.strip()] = protocols.get(line.strip(), 0) + 1

big_path = "/api/v1/app/start-config"
os.makedirs(f"{work}/root/api/v1/app")
open(f"{work}/root/api/v1/app/start-config", "wb").write(b'{"code":0,"msg":"ok","data":{"items":[' + b",".join([b'{"a":0}'] * 2_000_000) + b"]}}")
memory_port = free_port()
memory_proxy = start("memory-proxy", [accord, "proxy", "--upstream", direct, "--port", str(memory_port), "--quiet", "--no-sign"])
wait_for(f"http://127.0.0.1:{memory_port}{big_path}")

def memory_kib(field):
    return next(int(line.split()[1]) for line in open(f"/proc/{memory_proxy.pid}/status") if line.startswith(field + ":"))

began, first_peak = memory_kib("VmRSS"), memory_kib("VmHWM")
readers = [threading.Thread(target=lambda: urllib.request.urlopen(f"http://127.0.0.1:{memory_port}{big_path}", timeout=120).read()) for _ in range(8)]
for reader in readers: reader.start()
for reader in readers: reader.join()
peak, after = memory_kib("VmHWM"), memory_kib("VmRSS")

print(f"nginx direct (wrk -t2 -c{connections}, {seconds} s): {direct_rate:,.0f} requests/s  (reference)")
print(f"accord proxy -> nginx: {proxied_rate:,.0f} requests/s = {proxied_rate / direct_rate:.2f}x nginx direct (target >= 0.4); "
      f"{report['summary']['requests']:,} requests checked, 0 violations")
print(f"p50 at one connection: direct {direct_p50:.3f} ms, through the proxy {proxied_p50:.3f} ms, "
      f"added {proxied_p50 - direct_p50:.3f} ms (target <= 0.3 ms)")
print(f"accord proxy -> nginx over HTTPS: {tls_rate:,.0f} requests/s = {tls_rate / proxied_rate:.2f}x the plain-HTTP proxy; "
      f"nginx saw {', '.join(f'{count:,} {protocol}' for protocol, count in sorted(protocols.items()))}")
print(f"eight 16 MiB answers of small objects through the proxy at once: peak {peak / 1024:,.0f} MB, "
      f"{after / 1024:,.0f} MB after them (the first alone: peak {first_peak / 1024:,.0f} MB, {began / 1024:,.0f} MB after it)")
PY
