#!/usr/bin/env bash
# Proves the README's two commands on a pristine minimal Debian 12: bootstraps a root with
# `debootstrap --variant=minbase bookworm` (once; cached as a tarball), clones the committed HEAD into a
# fresh copy of it, and runs there, as a newcomer would:
#   scripts/quickstart.sh test                                  (installs, builds, passes every test)
#   CRAWLSCOPE_DEMO_SCALE=0.1 scripts/quickstart.sh demo --headless   (installs, builds, crawls the demo)
# .ci/run calls it after the normal test run. Needs root (chroot, mounts) and network access to the
# Debian mirror this machine's apt already uses; the mirror is read from its sources, never written here.
#
#   scripts/check-fresh-debian.sh [test|demo|both]      default: both
# Environment: CRAWLSCOPE_FRESH_CACHE   folder for the cached root tarball (default /var/cache/crawlscope-fresh)
#              CRAWLSCOPE_FRESH_DEADLINE  seconds each command may take (default 1500 for test, 600 for demo)
set -euo pipefail

what=${1:-both}
case "$what" in test | demo | both) ;; *)
    echo "usage: $0 [test|demo|both]" >&2
    exit 2
    ;;
esac

project=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
cache=${CRAWLSCOPE_FRESH_CACHE:-/var/cache/crawlscope-fresh}
tarball=$cache/bookworm-minbase.tgz
work=$(mktemp -d /var/tmp/crawlscope-fresh.XXXXXX)
root=$work/root

log() { echo "check-fresh-debian: $*" >&2; }

[ "$(id -u)" -eq 0 ] || {
    log "needs root (debootstrap, chroot and mounts)"
    exit 2
}

# Unmount before deleting, and never delete across a mount point: $root/dev must not take the host's
# /dev with it if an unmount failed.
cleanup() {
    for m in dev/shm dev/pts dev proc; do
        mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" 2>/dev/null
    done
    if findmnt -rno TARGET | grep -q "^$root"; then
        log "mounts remain under $root; not deleting it"
    else
        rm -rf --one-file-system "$work"
    fi
}
trap cleanup EXIT

mirror() {
    local uri=""
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
    fi
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || {
        log "no Debian mirror found in /etc/apt/sources.list{,.d}"
        exit 2
    }
    echo "$uri"
}

if [ ! -f "$tarball" ]; then
    command -v debootstrap >/dev/null || {
        log "installing debootstrap"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    }
    log "bootstrapping a minimal Debian 12 root (once; cached in $tarball)"
    mkdir -p "$cache" "$root"
    debootstrap --variant=minbase bookworm "$root" "$(mirror)" >"$work/debootstrap.log" 2>&1 || {
        tail -20 "$work/debootstrap.log" >&2
        log "debootstrap failed"
        exit 1
    }
    # The machine's own apt sources (mirror and security), so the root installs what the host can.
    rm -f "$root/etc/apt/sources.list"
    cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || true
    [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/sources.list"
    tar -C "$root" -czf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf --one-file-system "$root"
fi

mkdir -p "$root"
tar -C "$root" -xzf "$tarball"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
# A private /dev with just the nodes builds and tests use (tests write to /dev/full and /dev/null).
mount -t tmpfs -o mode=755,nosuid devtmp "$root/dev"
for node in "null c 1 3" "zero c 1 5" "full c 1 7" "random c 1 8" "urandom c 1 9" "tty c 5 0"; do
    set -- $node
    mknod -m 666 "$root/dev/$1" "$2" "$3" "$4"
done
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mkdir -p "$root/dev/shm" "$root/dev/pts"
mount -t tmpfs -o mode=1777,nosuid shm "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=666 devpts "$root/dev/pts" 2>/dev/null || true
[ -e "$root/dev/pts/ptmx" ] && ln -s pts/ptmx "$root/dev/ptmx"

mkdir -p "$root/root/newcomer"
git clone -q "$project" "$root/root/newcomer/crawlscope"
log "fresh root ready; project at $(git -C "$project" rev-parse --short HEAD)"

run_in_root() {
    local deadline=$1 command=$2
    log "running: $command (deadline ${deadline}s)"
    local started=$SECONDS rc=0
    # env -i: a newcomer's shell, not CI's environment (no display, no build variables).
    timeout --kill-after=30 "$deadline" chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        /bin/bash -c "cd /root/newcomer/crawlscope && $command" || rc=$?
    log "'$command' exited $rc after $((SECONDS - started)) s"
    return $rc
}

status=0
if [ "$what" = test ] || [ "$what" = both ]; then
    run_in_root "${CRAWLSCOPE_FRESH_DEADLINE:-1500}" "scripts/quickstart.sh test" || status=1
fi
if [ "$what" = demo ] || [ "$what" = both ]; then
    # Scaled down and headless: the point is that the command installs, builds and crawls.
    if run_in_root "${CRAWLSCOPE_FRESH_DEADLINE:-600}" \
        "CRAWLSCOPE_DEMO_SCALE=0.1 scripts/quickstart.sh demo --headless --quiet"; then
        rows=$(($(wc -l <"$root/root/newcomer/crawlscope/crawlscope-demo.csv") - 1))
        log "demo wrote crawlscope-demo.csv with $rows rows"
        [ "$rows" -gt 0 ] || status=1
    else
        status=1
    fi
fi
[ $status -eq 0 ] && log "PASS: the README's commands work on a fresh Debian 12" ||
    log "FAIL: see the output above"
exit $status
