#!/usr/bin/env bash
# Crawlscope quick start for a fresh Debian 12 machine.
#   scripts/quickstart.sh demo   install what is missing, build, start the demo crawl
#                                (in a window when a display is available, headless otherwise)
#   scripts/quickstart.sh test   install what is missing, build with warnings as errors, run every test
# .ci/run calls "scripts/quickstart.sh test".
set -euo pipefail

cd "$(dirname "$0")/.."

# Debian packages: the build, the window, the packaging checks, and the benchmark peers the smoke
# benchmark runs (nginx, aiohttp, httpx, scrapy: optional at run time, but CI proves they install).
# Each find_package(Qt6 COMPONENTS ...) needs the package that ships its CMake config, not just the library:
#   Core Network Gui Widgets Test -> qt6-base-dev; Charts -> qt6-charts-dev, whose config needs Qt6OpenGL
#   and Qt6OpenGLWidgets -> libqt6opengl6-dev (not pulled in with --no-install-recommends).
#   The crawl store: find_package(SQLite3) -> libsqlite3-dev (SQLite's C API, no Qt Sql plugin needed).
#   The cluster client (core/cluster): pkg-config hiredis -> libhiredis-dev. Its tests start their own
#   redis-server on a loopback port (the package's system service is never used by them).
build_packages=(cmake ninja-build g++ pkg-config zlib1g-dev libsqlite3-dev libhiredis-dev qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libqt6svg6)
test_packages=(dpkg-dev file desktop-file-utils appstream groff-base nginx-light redis-server
               python3 python3-aiohttp python3-httpx python3-scrapy)

source scripts/lib/install-missing.sh

jobs=$(nproc 2>/dev/null || echo 2)

case "${1:-}" in
demo)
    install_missing "${build_packages[@]}"
    cmake --preset release
    cmake --build --preset release -j "$jobs" --target crawlscope
    exec build/release/app/crawlscope --demo "${@:2}"
    ;;
test)
    install_missing "${build_packages[@]}" "${test_packages[@]}"
    cmake --preset ci
    cmake --build --preset ci -j "$jobs"
    ctest --preset ci
    ;;
*)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
