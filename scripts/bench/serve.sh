#!/usr/bin/env bash
# Benchmarks `accord serve` (release) against nginx serving the same JSON bytes as a
# static file, with wrk -t2 -c32 on loopback, in one run:
#   (a) signed GET /signals/inbox: full X-Sign verification including the nonce cache
#   (b) signed POST /auth/login/phone: signature plus body validation
# then, as ratios to (a) (docs/mocks.md, "Effects"):
#   (d) a stateful list read: the inbox as a page of 20 from a collection of 1,000
#       records (filtered, ordered, counted, with a cursor); (d1) the same, a page of 1
#   (e) a stateful write: POST /signals inserting into the collection, over 64 sessions
# then a soak of stateful writes to 1,000,000 requests in all, a new session every 50
# requests (thousands in all, 256 kept: sessions are evicted), reading the RSS,
# and the time from launch to the first answered request. wrk signs every request
# itself (scripts/bench/sign.lua), for nginx too, so both pay the same client cost.
# The access log stays on (to a file), and every logged verdict must be "ok".
#
# With GET_REQUESTS, run a) is repeated until the server has answered that many signed
# GETs, and the RSS is read after each repeat (the target: RSS after 1 M signed GETs);
# its ratio is the first run's.
#
# usage: scripts/bench/serve.sh [SECONDS_PER_RUN] [TOTAL_REQUESTS] [GET_REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
total=${2:-1000000}
gets=${3:-0}

scripts/setup >/dev/null
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if ((${#missing[@]})); then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 - "$accord" "$work" "$seconds" "$total" "$gets" <<'PY'
import hashlib, json, os, re, signal, socket, subprocess, sys, time, urllib.request, uuid

accord, work, seconds, total, gets = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
repo = os.getcwd()
lua = os.path.join(repo, "scripts/bench/sign.lua")

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

# Fixtures: an inbox envelope of about 350 bytes, and a static login answer.
os.makedirs(f"{work}/mocks"); os.makedirs(f"{work}/www")
open(f"{work}/mocks/bench.yaml", "w").write("""
signal.inbox:
  - name: bench
    default: true
    data:
      items:
        - id: sg_7f3a
          sender: {uid: 20031, nickname: 海边的风, avatar: 'https://cdn.example.com/a/20031.jpg', gender: 1}
          content: 周六一起去西湖边拍日落吗？
          media: []
          tags: [旅行]
          is_flash: false
          status: active
          created_at: '2026-11-30T08:00:00Z'
      next_cursor: c_2
      unread_count: 1
auth.login-phone:
  - name: bench
    default: true
    data:
      is_new_user: false
      access_token: at_bench
      refresh_token: rt_bench
      access_expires_in: 7200
      refresh_expires_in: 2592000
      im_token: im_bench
      user: {uid: 10086, nickname: 林间小鹿, avatar: 'https://cdn.example.com/a/10086.jpg', gender: 2, is_verified: true,
             is_vip: false, bio: 徒步, birth_date: '1998-05-20', mbti: INFP, orientation: 1, attribute: 2,
             is_personalized: true, is_profile_hidden: false, onboarding_completed: true}
""")

# A collection of 1,000 signals for (d) and (e).
os.makedirs(f"{work}/mocks/collections")
with open(f"{work}/mocks/collections/signals.yaml", "w") as seeds:
    seeds.write("type: SignalDetail\nkey: id\nlimit: 1000\nseed:\n")
    for index in range(1000):
        seeds.write(f"  - {{id: sg_seed_{index:04d}, sender: {{uid: {20000 + index % 50}, nickname: 同路人{index % 50}, "
                    f"avatar: 'https://cdn.example.com/a/{20000 + index % 50}.jpg', gender: {1 + index % 2}}}, content: 第 {index} 条信号, "
                    f"media: [], tags: [旅行], is_flash: {'true' if index % 10 == 0 else 'false'}, status: active, "
                    f"created_at: '{{{{now - {index}m}}}}', replies_count: {index % 7}, "
                    f"viewer_state: {{has_replied: false, has_viewed: {'true' if index % 3 else 'false'}, is_mine: false}}}}\n")

# The stateful fixtures for (d) and (e), in a file of their own (scripts/bench/instructions.sh
# reuses bench.yaml alone).
open(f"{work}/mocks/stateful.yaml", "w").write("""
signal.inbox:
  - name: stateful
    when: {query: {filter: all}}
    effect:
      list: signals
      where: {/viewer_state/is_mine: false, /status: active}
      order: -created_at
      page: cursor
      count: {unread_count: {where: {/viewer_state/is_mine: false, /viewer_state/has_viewed: false}}}
signal.publish:
  - name: bench
    default: true
    effect:
      insert: signals
      defaults: {media: [], tags: []}
      record:
        id: 'sg_{{seq}}'
        sender: {uid: '{{user}}', nickname: 林间小鹿, avatar: 'https://cdn.example.com/a/10086.jpg', gender: 2}
        status: active
        created_at: '{{now}}'
        replies_count: 0
        viewer_state: {has_replied: false, has_viewed: true, is_mine: true}
""")

port = free_port()
log = open(f"{work}/access.log", "wb")
launched = time.perf_counter()
server = subprocess.Popen([accord, "serve", "--port", str(port), "--mocks", f"{work}/mocks", "--no-reload"], stdout=log, stderr=subprocess.STDOUT)
open(f"{work}/accord.pid", "w").write(f"{server.pid}\n")
base = f"http://127.0.0.1:{port}"
open_headers = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0"}
while True:
    try:
        urllib.request.urlopen(urllib.request.Request(base + "/api/v1/app/start-config", headers=open_headers)).read()
        break
    except OSError:
        # A server that refused its contracts or fixtures exits: say why instead of waiting forever.
        if server.poll() is not None:
            log.close()
            sys.exit("accord serve exited before answering:\n" + open(f"{work}/access.log").read())
        time.sleep(0.001)
first_response_ms = (time.perf_counter() - launched) * 1000

token = "none"

def signed(path, body=b"", sorted_params=""):
    ts, nonce = str(int(time.time())), uuid.uuid4().hex
    sign = hashlib.md5(f"dev_app_key{ts}{nonce}{sorted_params}dev_app_secret".encode()).hexdigest()
    headers = dict(open_headers, **{"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign,
                                     "Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return urllib.request.urlopen(urllib.request.Request(base + path, data=body or None, headers=headers)).read()

login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1", "model": "iPhone", "app_version": "1.2.0"}},
                   ensure_ascii=False, separators=(",", ":"))
login_sorted = 'code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","model":"iPhone","os":"ios","os_version":"26.1"}&phone=13800138000'
token = json.loads(signed("/api/v1/auth/login/phone", login.encode(), login_sorted))["data"]["access_token"]
inbox = signed("/api/v1/signals/inbox?limit=20", sorted_params="limit=20")
open(f"{work}/www/inbox.json", "wb").write(inbox)
open(f"{work}/www/login.json", "wb").write(signed("/api/v1/auth/login/phone", login.encode(), login_sorted))
assert json.loads(inbox)["code"] == 0, inbox

nginx_port = free_port()
open(f"{work}/nginx.conf", "w").write(f"""
worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    server {{
        listen 127.0.0.1:{nginx_port};
        root {work}/www;
        location / {{ default_type application/json; error_page 405 =200 $uri; }}
    }}
}}
""")
subprocess.run(["nginx", "-c", f"{work}/nginx.conf", "-p", work], check=True)
time.sleep(0.3)

def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

def wrk(url, *args, duration=seconds, sessions=0, span=1):
    out = subprocess.run(["wrk", "-t2", "-c32", f"-d{duration}s", "--latency", "-s", lua, url, "--", *args, uuid.uuid4().hex[:12], token,
                          str(sessions), str(span)],
                         capture_output=True, text=True, check=True).stdout
    def latency(p):
        m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)", out, re.M)
        return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)]
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "p50": latency(50), "p99": latency(99),
            "errors": "Non-2xx" in out or "Socket errors" in out}

results, served = {}, 0
rss = [("after start", rss_mb(server.pid))]
for name, path, nginx_path, method, body, sorted_params in [
    ("a) GET /signals/inbox, signed", "/api/v1/signals/inbox?limit=20", "/inbox.json", "GET", "", "limit=20"),
    ("b) POST /auth/login/phone, signed + validated", "/api/v1/auth/login/phone", "/login.json", "POST", login, login_sorted),
]:
    ours = wrk(base + path, method, path, body, sorted_params)
    served += ours["requests"]
    rss.append((f"after {name[:2]} ({served:,} requests)", rss_mb(server.pid)))
    while method == "GET" and served < gets:
        served += wrk(base + path, method, path, body, sorted_params)["requests"]
        rss.append((f"after more of a) ({served:,} requests)", rss_mb(server.pid)))
    reference = wrk(f"http://127.0.0.1:{nginx_port}{nginx_path}", method, nginx_path, body, sorted_params)
    results[name] = (ours, reference)

# (c) the same GET on a second server recording every request to a JSONL file, with 10
# injection rules that every request is checked against (same endpoints, other sessions,
# so none fires and the answers stay comparable).
recorded_port = free_port()
recorded = subprocess.Popen([accord, "serve", "--port", str(recorded_port), "--mocks", f"{work}/mocks", "--no-reload", "--quiet",
                             "--record", f"{work}/journal.jsonl"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
open(f"{work}/recorded.pid", "w").write(f"{recorded.pid}\n")
time.sleep(0.5)
for index in range(10):
    rule = json.dumps({"match": {"endpoint": "signal.*", "session": f"other-{index}"}, "respond": "quota"}).encode()
    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{recorded_port}/__accord/rules", data=rule, method="POST",
                                                  headers={"Content-Type": "application/json"})).read()
base_recorded = f"http://127.0.0.1:{recorded_port}"
saved = base, token
base = base_recorded
token = json.loads(signed("/api/v1/auth/login/phone", login.encode(), login_sorted))["data"]["access_token"]
with_rules = wrk(base_recorded + "/api/v1/signals/inbox?limit=20", "GET", "/api/v1/signals/inbox?limit=20", "", "limit=20")
base, token = saved
recorded.send_signal(signal.SIGTERM); recorded.wait(timeout=5)
recorded_lines = sum(1 for _ in open(f"{work}/journal.jsonl"))

# (d) and (e): the logins of b) have pushed the first token out of the server's bounded
# token store, so log in again first.
token = json.loads(signed("/api/v1/auth/login/phone", login.encode(), login_sorted))["data"]["access_token"]
page = json.loads(signed("/api/v1/signals/inbox?limit=20&filter=all", sorted_params="filter=all&limit=20"))
assert page["code"] == 0 and len(page["data"]["items"]) == 20 and page["data"].get("next_cursor"), page
stateful_read = wrk(base + "/api/v1/signals/inbox?limit=20&filter=all", "GET", "/api/v1/signals/inbox?limit=20&filter=all", "",
                    "filter=all&limit=20")
served += stateful_read["requests"]
# The same read with a page of one: an answer of (a)'s size, so the ratio shows the collection's cost alone.
single_read = wrk(base + "/api/v1/signals/inbox?limit=1&filter=all", "GET", "/api/v1/signals/inbox?limit=1&filter=all", "",
                  "filter=all&limit=1")
served += single_read["requests"]
publish = json.dumps({"content": "bench", "is_flash": False}, separators=(",", ":"))
publish_sorted = "content=bench&is_flash=false"
stateful_write = wrk(base + "/api/v1/signals", "POST", "/api/v1/signals", publish, publish_sorted, sessions=32)
served += stateful_write["requests"]
rss.append((f"after d), e) ({served:,} requests)", rss_mb(server.pid)))

# Soak: stateful writes to `total` requests, a new session every 50 requests, watching the RSS.
while served < total:
    soak = wrk(base + "/api/v1/signals", "POST", "/api/v1/signals", publish, publish_sorted, sessions=10**9, span=50)
    served += soak["requests"]
    rss.append((f"soak ({served:,} requests)", rss_mb(server.pid)))
kept = json.loads(urllib.request.urlopen(base + "/__accord/state/signals?session=bench-probe").read())["sessions"]

server.send_signal(signal.SIGTERM); server.wait(timeout=5)
subprocess.run(["nginx", "-c", f"{work}/nginx.conf", "-p", work, "-s", "stop"], check=False)
log.close()
verdicts = {}
for line in open(f"{work}/access.log", encoding="utf-8", errors="replace"):
    parts = line.split()
    if len(parts) >= 6 and parts[0] in ("GET", "POST"):
        verdicts[parts[5]] = verdicts.get(parts[5], 0) + 1

print(f"wrk -t2 -c32, {seconds} s per run, loopback; 2 cores; accord access log on (to a file), nginx access log off")
print(f"response body: {len(inbox)} bytes (the same bytes for nginx)")
print(f"{'run':<48}{'accord rps':>12}{'nginx rps':>12}{'ratio':>8}{'p50 ms':>9}{'p99 ms':>9}{'nginx p99':>11}")
for name, (ours, reference) in results.items():
    print(f"{name:<48}{ours['rps']:>12,.0f}{reference['rps']:>12,.0f}{ours['rps'] / reference['rps']:>8.2f}"
          f"{ours['p50']:>9.2f}{ours['p99']:>9.2f}{reference['p99']:>11.2f}")
plain = results["a) GET /signals/inbox, signed"][0]
print(f"{'c) as a), 10 injection rules, --record journal':<48}{with_rules['rps']:>12,.0f}{'':>12}{with_rules['rps'] / plain['rps']:>8.2f}"
      f"{with_rules['p50']:>9.2f}{with_rules['p99']:>9.2f}   (ratio to a); {recorded_lines:,} journal lines for {with_rules['requests'] + 1:,} requests)")
for label, run in [("d) stateful read: inbox page of 1,000 records", stateful_read), ("d1) as d), a page of 1 (a)'s answer size)", single_read),
                   ("e) stateful write: POST /signals, 64 sessions", stateful_write)]:
    print(f"{label:<48}{run['rps']:>12,.0f}{'':>12}{run['rps'] / plain['rps']:>8.2f}{run['p50']:>9.2f}{run['p99']:>9.2f}   (ratio to a))")
print(f"first response after launch: {first_response_ms:.1f} ms")
print("RSS: " + ", ".join(f"{label} {mb:.1f} MB" for label, mb in rss))
print(f"collection sessions: {kept['kept']} kept (limit {kept['limit']}), {kept['evicted']:,} evicted")
print(f"access log verdicts: {verdicts}")
bad = sum(count for verdict, count in verdicts.items() if verdict != "ok")
if bad or any(ours["errors"] for ours, _ in results.values()) or any(run["errors"] for run in (stateful_read, single_read, stateful_write)):
    print(f"FAILED: {bad} requests were not answered ok")
    sys.exit(1)
PY
