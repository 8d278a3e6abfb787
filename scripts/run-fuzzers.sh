#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan) and runs each one for a bounded
# time on a copy of its seed corpus, then prints one line per target. Exits non-zero when any target
# found a crash, a leak, undefined behaviour, a timeout or an out-of-memory; the input that did it is
# kept under build/fuzz/findings/<target>/ next to the full log.
#
#   scripts/run-fuzzers.sh [SECONDS_PER_TARGET]     (default 60)
#
# Environment:
#   FUZZ_TARGETS="fuzz_a fuzz_b"  run only these (default: every fuzz/fuzz_*.cpp)
#   FUZZ_JOBS=N                   targets run at the same time (default: the number of cores)
#   FUZZ_MERGE=1                  merge the inputs that found new coverage into fuzz/corpus/<target>/
#                                 (without it the repository's corpus is never modified)
# The packages it needs are installed when missing, as scripts/quickstart.sh does.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [SECONDS_PER_TARGET]   (a whole number of seconds, default 60)" >&2
    exit 2
fi

# clang (the compiler), libclang-rt-14-dev (libFuzzer and the sanitizer runtimes; only recommended by
# clang, so --no-install-recommends leaves it out), Qt Core/Network for the engine library.
packages=(cmake ninja-build g++ clang libclang-rt-14-dev pkg-config qt6-base-dev)
missing=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "run-fuzzers: installing ${missing[*]}"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
build_start=$(date +%s)
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
echo "run-fuzzers: built in $(($(date +%s) - build_start)) s"

if [ -n "${FUZZ_TARGETS:-}" ]; then
    read -r -a targets <<<"$FUZZ_TARGETS"
else
    targets=()
    for source in fuzz/fuzz_*.cpp; do
        targets+=("$(basename "$source" .cpp)")
    done
fi

findings="$root/build/fuzz/findings"
work=$(mktemp -d "${TMPDIR:-/tmp}/crawlscope-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One target: a working copy of the seeds, libFuzzer for $seconds, its log and any crash input in
# $findings/<target>/. Single inputs slower than 10 s count as hangs (e.g. quadratic parsing).
run_target() {
    local target=$1
    local binary="$root/build/fuzz/fuzz/$target"
    local out="$findings/$target"
    rm -rf "$out"
    mkdir -p "$out" "$work/$target"
    [ -d "fuzz/corpus/$target" ] && cp -r "fuzz/corpus/$target/." "$work/$target/"
    local options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                   -artifact_prefix="$out/")
    [ -f "fuzz/$target.dict" ] && options+=(-dict="fuzz/$target.dict")
    local status=0
    "$binary" "${options[@]}" "$work/$target" >"$out/log" 2>&1 || status=$?
    echo "$status" >"$out/status"
    if [ "$status" -eq 0 ] && [ "${FUZZ_MERGE:-0}" = 1 ]; then
        mkdir -p "fuzz/corpus/$target"
        "$binary" -merge=1 "fuzz/corpus/$target" "$work/$target" >"$out/merge.log" 2>&1
    fi
}

for target in "${targets[@]}"; do
    if [ ! -x "build/fuzz/fuzz/$target" ]; then
        echo "run-fuzzers: no binary for $target (is it listed in fuzz/CMakeLists.txt?)" >&2
        exit 2
    fi
done

pids=()
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    run_target "$target" &
    pids+=($!)
done
for pid in "${pids[@]}"; do
    wait "$pid" || true
done

# One line per target from libFuzzer's final statistics and its last status line.
failed=0
for target in "${targets[@]}"; do
    out="$findings/$target"
    log="$out/log"
    final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
    found=$(find "$out" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
        -o -name 'oom-*' -o -name 'slow-unit-*' \) | sort)
    status=$(cat "$out/status" 2>/dev/null || echo missing)
    crashes=$(grep -c . <<<"$found" || true)
    printf '%-22s executions %-10s exec/s %-7s cov %-5s ft %-6s corpus %-5s crashes %s\n' "$target" \
        "$(final_stat number_of_executed_units)" "$(final_stat average_exec_per_sec)" "${cov:-?}" "${ft:-?}" \
        "${corpus:-?}" "$crashes"
    if [ "$status" != 0 ] || [ "$crashes" -gt 0 ]; then
        failed=1
        echo "  FAILED (libFuzzer exit $status); log: $log"
        grep -E 'invariant failed|ERROR: |SUMMARY: |runtime error|^    [^# ]' "$log" | head -8 | sed 's/^/  | /'
        while read -r input; do
            [ -n "$input" ] && echo "  input kept: $input (reproduce: build/fuzz/fuzz/$target $input)"
        done <<<"$found"
    fi
done
echo "run-fuzzers: ${#targets[@]} targets, ${seconds} s each, $((SECONDS)) s in all"
exit "$failed"
