#!/usr/bin/env python3
"""Runs a test command with a time limit, so a hung run fails at once with what hung.

usage: scripts/lib/watchdog.py SECONDS COMMAND [ARGUMENT...]

The command's output (standard output and error, merged) passes through line by line.
While it runs, the Swift Testing lines are followed: which tests started and have not
ended. When the command runs past SECONDS, the watchdog prints those tests, the process
tree under the command, and every thread's backtrace of each test process (gdb, when
the machine has it); then it kills the whole tree and exits 124. Otherwise it exits
with the command's status.
"""
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"^◇ Test (?!case )(.+?) started\.$")
ENDED = re.compile(r"^. Test (?!case )(.+?)(?: with \d+ test cases?)? (?:passed|failed) after [0-9.]+ seconds")
SKIPPED = re.compile(r"^. Test (?!case )(.+?) skipped")


class Progress:
    """The tests that started and have not ended, counted by name (names repeat across suites)."""

    def __init__(self):
        self.running = collections.Counter()
        self.lock = threading.Lock()

    def read(self, line):
        with self.lock:
            if match := STARTED.match(line):
                self.running[match.group(1)] += 1
            elif match := ENDED.match(line) or SKIPPED.match(line):
                if self.running[match.group(1)] > 0:
                    self.running[match.group(1)] -= 1

    def unfinished(self):
        with self.lock:
            return sorted(name for name, count in self.running.items() for _ in range(count))


def relay(stream, progress):
    for raw in iter(stream.readline, b""):
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        progress.read(raw.decode("utf-8", "replace").rstrip("\n"))


def descendants(root):
    """Every process below `root`, from /proc: (pid, command line)."""
    children = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                children[parent].append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                found.append((pid, cmdline.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()))
        except OSError:
            pass
        queue.extend(children.get(pid, []))
    return found


def report(limit, command, progress, root):
    say = lambda text: print(f"watchdog: {text}", flush=True)
    say(f"'{' '.join(command)}' still runs after {limit} s; it is stopped here")
    unfinished = progress.unfinished()
    say(f"{len(unfinished)} test(s) started and not ended:")
    for name in unfinished:
        say(f"  {name}")
    processes = descendants(root)
    say("the processes under it:")
    for pid, line in processes:
        say(f"  {pid} {line[:300]}")
    gdb = shutil.which("gdb")
    for pid, line in processes:
        if ".xctest" not in line and "PackageTests" not in line:
            continue
        if gdb is None:
            say(f"no gdb on this machine: no backtraces of {pid}")
            continue
        say(f"the threads of {pid}:")
        try:
            traces = subprocess.run([gdb, "-p", str(pid), "-batch", "-ex", "thread apply all bt 40"],
                                    capture_output=True, text=True, timeout=120)
            print(traces.stdout, traces.stderr[-2000:], sep="\n", flush=True)
        except subprocess.TimeoutExpired:
            say(f"gdb did not finish with {pid} in 120 s")


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__.strip().splitlines()[2])
    limit, command = int(sys.argv[1]), sys.argv[2:]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    progress = Progress()
    reader = threading.Thread(target=relay, args=(process.stdout, progress), daemon=True)
    reader.start()
    try:
        status = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        report(limit, command, progress, process.pid)
        for pid, _ in descendants(process.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        process.wait()
        sys.exit(124)
    reader.join(timeout=10)
    sys.exit(status)


if __name__ == "__main__":
    main()
