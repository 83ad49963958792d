#!/usr/bin/env bash
# Counts the instructions accord (release) executes per request, under valgrind's
# callgrind: machine-independent, unlike wall-clock figures, so CI can hold them to the
# budgets in scripts/bench/budgets.
#
# A server runs with collection off; a client sends warm-up requests, then turns
# collection on for exactly N requests of one kind, off again, and dumps. The kinds:
#   static-get   signed, authenticated, validated GET /signals/inbox?limit=20, answered by
#                a static fixture (the bench fixture of serve.sh)
#   inbox-page   the same GET answered by the repository's own mocks/: a page of 20 from
#                the session's signals collection, with its unread count
#   login        signed, validated login POST /auth/login/phone (issues a real token pair),
#                repository mocks
#   insert       signed POST /signals/draw: a record inserted into the collection
#   proxy-gate   the inbox GET through `accord proxy` (its checks, the upstream client)
#                in front of an accord serve on the repository's mocks
#   check-entry  one captured request judged by `accord check-requests`: the difference
#                between a journal of 2N entries and one of N, over N (N at least 1,000)
# Every serve runs the repository's contracts with its default options but one worker
# thread and no reload, a fresh nonce per request, and a live-feed listener attached to
# GET /__accord/events. For the serve kinds, each pipeline stage's own cost (without the
# stages it calls) is printed too.
#
# usage: scripts/bench/instructions.sh [REQUESTS] [--check] [--save FILE]
#   REQUESTS  per kind (default 2000)
#   --check   exit 1 when a kind passes its budget in scripts/bench/budgets by more than 5%
#   --save    write the measured instructions per request as JSON, for scripts/bench/check-budgets
# With ACCORD_BENCH_ANNOTATE=DIR, each kind's profile is kept for a closer look: DIR/KIND.txt
# (inclusive costs, demangled), DIR/KIND.self.txt (each function's own) and the dump,
# DIR/KIND.callgrind (callgrind_annotate --tree=caller DIR/KIND.callgrind: who calls what).
set -euo pipefail
cd "$(dirname "$0")/../.."
requests=2000
check=""
save=""
while [ $# -gt 0 ]; do
    case "$1" in
        --check) check=1 ;;
        --save) save=$2; shift ;;
        *) requests=$1 ;;
    esac
    shift
done

scripts/setup >/dev/null
command -v valgrind >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
}
scripts/lib/swift-build -c release --product accord >/dev/null
accord=$(swift build -c release --show-bin-path)/accord
work=$(mktemp -d)
trap 'kill $(cat "$work"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT

python3 scripts/bench/instructions.py "$accord" "$work" "$requests" "$work/measured.json"
[ -z "$save" ] || cp "$work/measured.json" "$save"
[ -z "$check" ] || scripts/bench/check-budgets "$work/measured.json" scripts/bench/budgets
