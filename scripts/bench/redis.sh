#!/usr/bin/env bash
# Benchmarks `accord serve --storage redis://…` (release) against the same server with
# its state in memory, with wrk on loopback, in one run, as ratios:
#   (a) signed, authenticated GET /users/me (a fixture)   (b) signed POST /auth/login/phone
#   (c) signed, authenticated GET /signals/quota (counts the user's records of a collection)
# each on one replica in memory, on one replica with Redis, and on two replicas sharing
# one Redis (one wrk per replica at once, their rates summed). Then, for each request
# kind, what it sends Redis, from Redis itself: the commands clients sent per request
# (MONITOR, script-internal calls left out), and INFO commandstats' calls per request
# (script-internal calls included). Journal appends are written off the request path
# in batches: their script calls are counted apart.
#
# usage: scripts/bench/redis.sh [SECONDS_PER_RUN] [REQUESTS_COUNTED]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
counted=${2:-200}

scripts/setup >/dev/null
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; sleep 0.3; rm -rf "$work"' EXIT

python3 - "$accord" "$work" "$seconds" "$counted" <<'PY'
import hashlib, json, os, re, socket, subprocess, sys, time, urllib.request, uuid

accord, work, seconds, counted = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lua = os.path.join(os.getcwd(), "scripts/bench/sign.lua")

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

redis_port = free_port()
redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work,
                          "--maxmemory-policy", "noeviction", "--logfile", f"{work}/redis.log"])
open(f"{work}/redis.pid", "w").write(f"{redis.pid}\n")

def redis_command(*args):
    """One command over RESP; returns the raw reply text."""
    with socket.create_connection(("127.0.0.1", redis_port)) as s:
        s.sendall(("*%d\r\n" % len(args) + "".join("$%d\r\n%s\r\n" % (len(a.encode()), a) for a in args)).encode())
        data = b""
        while not data.endswith(b"\r\n") or (data.startswith(b"$") and data.count(b"\r\n") < 2):
            data += s.recv(1 << 20)
        return data.decode()

for _ in range(100):
    try:
        if "PONG" in redis_command("PING"): break
    except OSError: time.sleep(0.02)

open_headers = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0"}
login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1", "model": "iPhone", "app_version": "1.2.0"}},
                   ensure_ascii=False, separators=(",", ":"))
login_sorted = 'code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","model":"iPhone","os":"ios","os_version":"26.1"}&phone=13800138000'

def start(name, *storage):
    port = free_port()
    log = open(f"{work}/{name}.log", "wb")
    server = subprocess.Popen([accord, "serve", "--port", str(port), "--no-reload", "--quiet", *storage], stdout=log, stderr=subprocess.STDOUT)
    open(f"{work}/{name}.pid", "w").write(f"{server.pid}\n")
    base = f"http://127.0.0.1:{port}"
    for _ in range(500):
        try:
            urllib.request.urlopen(urllib.request.Request(base + "/api/v1/app/start-config", headers=open_headers)).read()
            return server, base
        except OSError:
            if server.poll() is not None: sys.exit(f"accord serve {name} exited:\n" + open(f"{work}/{name}.log").read())
            time.sleep(0.01)
    sys.exit(f"accord serve {name} did not answer")

def signed(base, path, token, body=b"", sorted_params=""):
    ts, nonce = str(int(time.time())), uuid.uuid4().hex
    sign = hashlib.md5(f"dev_app_key{ts}{nonce}{sorted_params}dev_app_secret".encode()).hexdigest()
    headers = dict(open_headers, **{"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign,
                                     "Authorization": "Bearer " + token, "Content-Type": "application/json"})
    answer = json.loads(urllib.request.urlopen(urllib.request.Request(base + path, data=body or None, headers=headers)).read())
    assert answer["code"] == 0, answer
    return answer

def token_of(base):
    return signed(base, "/api/v1/auth/login/phone", "none", login.encode(), login_sorted)["data"]["access_token"]

kinds = [("a) GET /users/me, signed + authenticated", "GET", "/api/v1/users/me", "", ""),
         ("b) POST /auth/login/phone, signed + validated", "POST", "/api/v1/auth/login/phone", login, login_sorted),
         ("c) GET /signals/quota, signed + authenticated, counts records", "GET", "/api/v1/signals/quota", "", "")]

def wrk(bases, tokens, method, path, body, sorted_params):
    """wrk on each base at once (the connections split between them); the summed rate."""
    runs = [subprocess.Popen(["wrk", f"-t{max(1, 2 // len(bases))}", f"-c{32 // len(bases)}", f"-d{seconds}s", "-s", lua, base + path, "--",
                              method, path, body, sorted_params, uuid.uuid4().hex[:12], token], stdout=subprocess.PIPE, text=True)
            for base, token in zip(bases, tokens)]
    outs = [run.communicate()[0] for run in runs]
    for out in outs:
        if "Non-2xx" in out or "Socket errors" in out: sys.exit("wrk saw errors:\n" + out)
    return sum(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)) for out in outs)

memory, memory_base = start("memory")
url = f"redis://127.0.0.1:{redis_port}/0?prefix=bench"
one, one_base = start("redis-a", "--storage", url, "--replica", "a")
two, two_base = start("redis-b", "--storage", url, "--replica", "b")
tokens = {base: token_of(base) for base in (memory_base, one_base, two_base)}

rates = {}
for name, method, path, body, sorted_params in kinds:
    rates[name] = (wrk([memory_base], [tokens[memory_base]], method, path, body, sorted_params),
                   wrk([one_base], [tokens[one_base]], method, path, body, sorted_params),
                   wrk([one_base, two_base], [tokens[one_base], tokens[two_base]], method, path, body, sorted_params))

def stats():
    calls = {}
    for line in redis_command("INFO", "commandstats").splitlines():
        match = re.match(r"cmdstat_([a-z|]+):calls=(\d+)", line)
        if match: calls[match.group(1)] = int(match.group(2))
    return calls

def monitored(count, send):
    """The commands clients sent while `count` requests ran (MONITOR), script calls left out."""
    monitor = socket.create_connection(("127.0.0.1", redis_port))
    monitor.sendall(b"MONITOR\r\n")
    data = b""
    while b"+OK\r\n" not in data: data += monitor.recv(65536)
    time.sleep(1.2)  # the journal writer and the feed's reader fall idle first
    before = stats()
    for _ in range(count): send()
    after = stats()
    marker = uuid.uuid4().hex
    redis_command("ECHO", marker)
    while marker.encode() not in data: data += monitor.recv(1 << 20)
    monitor.close()
    lines = [line for line in data.decode(errors="replace").split("\r\n") if "] \"" in line and "[0 lua]" not in line]
    by_name = {}
    for line in lines:
        name = line.split("] \"", 1)[1].split("\"", 1)[0].upper()
        if name in ("ECHO", "INFO"): continue
        if '"bench:journal"' in line: name += " (journal batch)"
        by_name[name] = by_name.get(name, 0) + 1
    delta = {name: after.get(name, 0) - before.get(name, 0) for name in after if after.get(name, 0) != before.get(name, 0) and name != "info"}
    return by_name, delta

# The logins above pushed the first tokens out of the 10,000 kept: log in again.
tokens = {base: token_of(base) for base in (memory_base, one_base, two_base)}
trips = {}
for name, method, path, body, sorted_params in kinds:
    send = lambda: signed(one_base, path, tokens[one_base], body.encode(), sorted_params)
    trips[name] = monitored(counted, send)

print(f"accord serve with its state in Redis vs in memory, wrk -c32 on loopback, {seconds} s per run, one run:")
for name, (in_memory, one_redis, two_redis) in rates.items():
    print(f"  {name}")
    print(f"    in memory, one replica       {in_memory:10.0f} req/s  1.00")
    print(f"    Redis, one replica           {one_redis:10.0f} req/s  {one_redis / in_memory:.2f}")
    print(f"    Redis, two replicas          {two_redis:10.0f} req/s  {two_redis / in_memory:.2f}   (both on this machine's 2 cores)")
print(f"what one request sends Redis ({counted} requests on one replica, one at a time):")
for name, (sent, delta) in trips.items():
    total = sum(count for command, count in sent.items() if "journal" not in command)
    print(f"  {name}")
    print(f"    commands clients sent (MONITOR): {total / counted:.2f} per request besides the journal's: "
          + ", ".join(f"{command} {count / counted:.2f}" for command, count in sorted(sent.items())))
    print(f"    INFO commandstats calls (script calls included): "
          + ", ".join(f"{command} {count / counted:.2f}" for command, count in sorted(delta.items())))
PY
