# Sourced by scripts/release and scripts/container: runs accord in a root filesystem they
# made, by chroot as an unprivileged user, and checks what it serves. Before use, set
#   root          the root's path
#   user          UID:GID to run as
#   home          the directory accord runs in (and its HOME)
#   environment   extra VAR=value words for its environment (may be empty)
# then call mount_proc; stop_root undoes it (call it from the script's EXIT trap).

server=""

# The Swift runtime reads its arguments from /proc/self/cmdline: a chroot needs /proc.
mount_proc() { mount -t proc proc "$root/proc"; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Runs the shell words "$*" in the root, in $home, as $user, with nothing of this environment but $environment.
# shellcheck disable=SC2086  # $environment is words on purpose
in_root() { chroot --userspec="$user" "$root" env -i HOME="$home" $environment sh -c "cd $home && $*"; }

# Starts "$*" (an accord serve) in the root, in the background, as in_root does; $server is the
# server's own pid (chroot, env and sh exec into it), so stop_root stops it.
# shellcheck disable=SC2086
serve_in_root() {
    chroot --userspec="$user" "$root" env -i HOME="$home" $environment sh -c "cd $home && exec $*" &
    server=$!
}

# Waits for the health check on port $1, prints its answer, and runs the independent signed client against it.
check_serving() {
    for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$1/__accord/health" >/dev/null 2>&1 && break; sleep 0.1; done
    curl -fsS "http://127.0.0.1:$1/__accord/health"
    echo
    python3 Tests/AccordEndToEndTests/Clients/signed_client.py "$1"
}

stop_root() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    wait 2>/dev/null || true
    umount "$root/proc" 2>/dev/null || true
}
