"""The measuring half of scripts/bench/instructions.sh: runs accord under callgrind and
prints, per kind, the instructions per request (and each pipeline stage's own share);
writes the figures as JSON for scripts/bench/check-budgets."""
import hashlib, http.client, json, os, re, shutil, socket, subprocess, sys, threading, time, uuid

accord, work, requests, measured_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
# Swift seeds its hashing per process; a fixed seed makes dictionary and set probes, and so the count, repeat run to run.
environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
device = {"X-Device-Id": "bench", "X-OS": "ios", "X-App-Version": "1.2.0"}
login = json.dumps({"phone": "13800138000", "code": "123456", "device_info": {"device_id": "D-1", "os": "ios", "os_version": "26.1",
                    "model": "iPhone", "app_version": "1.2.0"}}, ensure_ascii=False, separators=(",", ":")).encode()
login_sorted = 'code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","model":"iPhone","os":"ios","os_version":"26.1"}&phone=13800138000'
# The mock's stages in the order they call one another: each one's inclusive cost holds
# the stages after it, so its own share is its cost less the next one's.
stages = ["JournalStage", "ReportStage", "StorageGuardStage", "FramingStage", "CORSStage", "SteeringStage", "RouteStage", "BodyLimitStage",
          "BodyStage", "SignatureStage", "AuthenticationStage", "ValidationStage", "InjectionStage", "ChoiceStage", "TokenStage",
          "FaultStage", "UploadStage", "EffectStage", "RenderStage"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_mocks():
    """The static fixtures of serve.sh, in a mocks directory of their own."""
    os.makedirs(f"{work}/bench-mocks", exist_ok=True)
    serve_script = open("scripts/bench/serve.sh", encoding="utf-8").read()
    fixtures = re.search(r'open\(f"\{work\}/mocks/bench.yaml", "w"\).write\("""(.*?)"""\)', serve_script, re.S).group(1)
    open(f"{work}/bench-mocks/bench.yaml", "w").write(fixtures)
    return f"{work}/bench-mocks"


class Process:
    """accord under callgrind (collection off until asked), or plain."""

    def __init__(self, name, arguments, measured=True):
        self.name, self.out = name, f"{work}/{name}.callgrind"
        command = [accord, *arguments]
        if measured:
            command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={self.out}.%p", *command]
        self.process = subprocess.Popen(command, stdout=open(f"{work}/{name}.log", "wb"), stderr=subprocess.STDOUT, env=environment)
        open(f"{work}/{name}.pid", "w").write(str(self.process.pid))

    def control(self, *args):
        subprocess.run(["callgrind_control", *args, str(self.process.pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=120)

    def dumps(self):
        """callgrind.out.PID.N in the order taken."""
        names = [f for f in os.listdir(work) if re.fullmatch(rf"{re.escape(self.name)}\.callgrind\.\d+\.\d+", f)]
        return [f"{work}/{f}" for f in sorted(names, key=lambda f: int(f.rsplit(".", 1)[1]))]


class Client:
    """One keep-alive connection that signs every request with a fresh nonce."""

    def __init__(self, port):
        deadline = time.time() + 180
        while True:
            try:
                self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                self.connection.request("GET", "/api/v1/app/start-config", headers=device)
                self.connection.getresponse().read()
                return
            except OSError:
                if time.time() > deadline: sys.exit(f"nothing listened on {port} under valgrind")
                time.sleep(0.2)

    def send(self, method, path, body=b"", sorted_params="", token=None):
        ts, nonce = str(int(time.time())), uuid.uuid4().hex
        sign = hashlib.md5(f"dev_app_key{ts}{nonce}{sorted_params}dev_app_secret".encode()).hexdigest()
        headers = dict(device, **{"X-App-Key": "dev_app_key", "X-Timestamp": ts, "X-Nonce": nonce, "X-Sign": sign,
                                  "Content-Type": "application/json"})
        if token: headers["Authorization"] = "Bearer " + token
        self.connection.request(method, path, body=body or None, headers=headers)
        return json.loads(self.connection.getresponse().read())

    def token(self):
        return self.send("POST", "/api/v1/auth/login/phone", login, login_sorted)["data"]["access_token"]


def listen_to_feed(port):
    """A live-feed listener on GET /__accord/events for the whole run, reading everything
    sent; returns once the stream has begun, so that every counted request is fed to it."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=120)
    connection.sendall(b"GET /__accord/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = connection.recv(65536)
        if not chunk: sys.exit("the live feed closed before it began")
        head += chunk
    if not head.startswith(b"HTTP/1.1 200"): sys.exit(f"the live feed answered {head.splitlines()[0]!r}")
    def read():
        while connection.recv(65536): pass
    threading.Thread(target=read, daemon=True).start()


def measure(process, kinds):
    """Each kind: 50 warm-up requests, then `requests` counted and dumped."""
    for _, call in kinds:
        for _ in range(50): assert call()["code"] == 0   # warm-up, not counted
        process.control("-i", "on")
        for _ in range(requests): call()
        process.control("-i", "off")
        process.control("-d")


def annotate(path, kind=None):
    """The dump's inclusive costs, demangled. With ACCORD_BENCH_ANNOTATE=DIR, also writes
    DIR/KIND.txt (inclusive), DIR/KIND.self.txt (each function's own cost) and the dump
    itself, DIR/KIND.callgrind (for callgrind_annotate --tree=caller), for profiling."""
    def run(inclusive):
        text = subprocess.run(["callgrind_annotate", f"--inclusive={inclusive}", "--threshold=100", path], capture_output=True, text=True, check=True).stdout
        return subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True, check=True).stdout
    text = run("yes")
    folder = os.environ.get("ACCORD_BENCH_ANNOTATE")
    if folder and kind:
        os.makedirs(folder, exist_ok=True)
        open(os.path.join(folder, f"{kind}.txt"), "w").write(text)
        open(os.path.join(folder, f"{kind}.self.txt"), "w").write(run("no"))
        shutil.copy(path, os.path.join(folder, f"{kind}.callgrind"))
    return text


def total(text):
    return int(re.search(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))


def report(kind, title, text, count, shares=True):
    figure = total(text) / count
    print(f"{kind:<12} {title:<64}{figure:>10,.0f}")
    if shares:
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
                print(f"    {stage:<73}{own / count:>10,.0f}")
        handle = [int(m.group(1).replace(",", "")) for m in re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+[^:\s]*:(Pipeline\.run|MockEngine\.handle)\(", text, re.M)]
        if handle:
            print(f"    {'engine (MockEngine.handle) in all':<73}{max(handle) / count:>10,.0f}")
            print(f"    {'outside the engine (HTTP, adapter, log)':<73}{(total(text) - max(handle)) / count:>10,.0f}")
    return round(figure)


measured = {}
print(f"callgrind, {requests} requests of each kind on one keep-alive connection, one worker thread; instructions per request")

# The static fixture.
port = free_port()
static = Process("static", ["serve", "--port", str(port), "--mocks", bench_mocks(), "--no-reload", "--threads", "1"])
client = Client(port)
listen_to_feed(port)
token = client.token()
measure(static, [("static-get", lambda: client.send("GET", "/api/v1/signals/inbox?limit=20", sorted_params="limit=20", token=token))])
static.stop()
measured["static-get"] = report("static-get", "signed, authenticated, validated GET (static fixture)", annotate(static.dumps()[0], "static-get"), requests)

# The repository's mocks: the collection-backed inbox, login, an insert.
port = free_port()
repository = Process("repository", ["serve", "--port", str(port), "--no-reload", "--threads", "1"])
client = Client(port)
listen_to_feed(port)
token = client.token()
kinds = [
    ("inbox-page", "signed GET of the repository's inbox page of 20 (collection)",
     lambda: client.send("GET", "/api/v1/signals/inbox?limit=20", sorted_params="limit=20", token=token)),
    ("login", "signed, validated login POST issuing a token pair", lambda: client.send("POST", "/api/v1/auth/login/phone", login, login_sorted)),
    ("insert", "signed POST inserting a record (signal.draw)", lambda: client.send("POST", "/api/v1/signals/draw", token=token)),
]
measure(repository, [(kind, call) for kind, _, call in kinds])
repository.stop()
for (kind, title, _), dump in zip(kinds, repository.dumps()):
    measured[kind] = report(kind, title, annotate(dump, kind), requests)

# The proxy in front of an accord serve (not measured) on the repository's mocks.
upstream_port, port = free_port(), free_port()
upstream = Process("upstream", ["serve", "--port", str(upstream_port), "--no-reload", "--quiet"], measured=False)
Client(upstream_port)
proxy = Process("proxy", ["proxy", "--upstream", f"http://127.0.0.1:{upstream_port}", "--port", str(port), "--threads", "1"])
client = Client(port)
token = client.token()
measure(proxy, [("proxy-gate", lambda: client.send("GET", "/api/v1/signals/inbox?limit=20", sorted_params="limit=20", token=token))])
proxy.stop()
upstream.stop()
measured["proxy-gate"] = report("proxy-gate", "the inbox GET through accord proxy (gate and upstream)", annotate(proxy.dumps()[0], "proxy-gate"), requests,
                                shares=False)

# check-requests: a journal recorded by a plain serve, judged at N and at 2N entries. N is
# at least 1,000 whatever REQUESTS says: the two runs' fixed costs (the contract's load,
# the worker threads' start) differ by some thousands of instructions from run to run,
# which over 100 entries moved the figure by ±2%.
entries = max(requests, 2000)
port = free_port()
recorder = Process("recorder", ["serve", "--port", str(port), "--no-reload", "--quiet", "--record", f"{work}/journal.jsonl"], measured=False)
client = Client(port)
token = client.token()
for index in range(entries):
    if index % 2: client.send("GET", "/api/v1/signals/inbox?limit=20", sorted_params="limit=20", token=token)
    else: client.send("POST", "/api/v1/auth/login/phone", login, login_sorted)
recorder.stop()
lines = [line for line in open(f"{work}/journal.jsonl", encoding="utf-8") if '"/api/v1/signals/inbox' in line or '"/api/v1/auth/login/phone' in line]
lines = lines[-entries:]
half = len(lines) // 2
counts = []
for name, entries in (("check-half", lines[:half]), ("check-whole", lines[:2 * half])):
    open(f"{work}/{name}.jsonl", "w", encoding="utf-8").writelines(entries)
    out = f"{work}/{name}.out"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", accord, "check-requests", f"{work}/{name}.jsonl",
                    "--app-secret", "dev_app_key:dev_app_secret", "--quiet"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    counts.append(total(annotate(out, name)))
figure = (counts[1] - counts[0]) / half
print(f"{'check-entry':<12} {'one journal entry judged by accord check-requests':<64}{figure:>10,.0f}")
measured["check-entry"] = round(figure)

json.dump(measured, open(measured_path, "w"), indent=2, sort_keys=True)
