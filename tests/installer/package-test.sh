#!/bin/bash
# Packaging tests, run by CTest (see CMakeLists.txt here). One script, one step per call:
#   package-test.sh build WORKDIR CPACK CPACK_CONFIG   make the .deb and .tar.gz in WORKDIR with cpack
#   package-test.sh deb   WORKDIR VERSION GUI           check the .deb's fields, Depends and file list
#   package-test.sh run   WORKDIR VERSION               unpack the .deb, run --version and a demo crawl
#   package-test.sh tgz   WORKDIR VERSION               check the .tar.gz's file list
# `build` packs what the build tree has installed-ready (it does not build): run it after a build.
set -euo pipefail

step=${1:?step}
work=${2:?work dir}
shift 2

fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }

icon_sizes="16 22 24 32 48 64 128 256"

# Files every package must hold, relative to the install prefix.
expected_files() {
    echo bin/crawlscope
    echo share/applications/crawlscope.desktop
    echo share/metainfo/io.crawlscope.Crawlscope.metainfo.xml
    echo share/icons/hicolor/scalable/apps/crawlscope.svg
    for n in $icon_sizes; do echo "share/icons/hicolor/${n}x${n}/apps/crawlscope.png"; done
    echo share/man/man1/crawlscope.1.gz
    echo share/doc/crawlscope/copyright
    echo share/doc/crawlscope/changelog.gz
}

find_deb() {
    local debs=("$work"/crawlscope_"$1"_*.deb)
    [ -f "${debs[0]}" ] || fail "no crawlscope_$1_*.deb in $work (did the installer_package test pass?)"
    echo "${debs[0]}"
}

case "$step" in
build)
    cpack=${1:?cpack}; config=${2:?CPackConfig.cmake}
    [ -f "$config" ] || fail "$config not found: configure the project first"
    rm -rf "$work"
    mkdir -p "$work"
    note "cpack -G 'TGZ;DEB' into $work"
    "$cpack" --config "$config" -G "TGZ;DEB" -B "$work" || fail "cpack failed"
    ls -l "$work"/*.deb "$work"/*.tar.gz
    ;;

deb)
    version=${1:?version}; gui=${2:?gui}
    deb=$(find_deb "$version")
    note "checking $deb"
    field() { dpkg-deb --field "$deb" "$1"; }
    [ "$(field Package)" = crawlscope ] || fail "Package is '$(field Package)'"
    [ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
    [ "$(field Section)" = net ] || fail "Section is '$(field Section)'"
    [ -n "$(field Maintainer)" ] || fail "no Maintainer"
    [ -n "$(field Homepage)" ] || fail "no Homepage"
    [ -n "$(field Description)" ] || fail "no Description"
    depends=$(field Depends)
    note "Depends: $depends"
    for lib in libc6 libqt6core6 libqt6network6; do
        grep -Eq "(^|, )$lib( |,|$)" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps did not run?)"
    done
    if [ "$gui" = ON ]; then
        for lib in libqt6widgets6 libqt6charts6 libqt6svg6; do
            grep -Eq "(^|, )$lib( |,|$)" <<<"$depends" || fail "Depends lacks $lib"
        done
    fi
    listing=$(dpkg-deb --contents "$deb" | awk '{print $6}')
    while read -r f; do
        grep -qx "./usr/$f" <<<"$listing" || fail "the .deb lacks /usr/$f"
    done < <(expected_files)
    # Nothing outside /usr, and the program is executable and stripped of nothing it needs.
    if grep -v -e '^\./$' -e '^\./usr/' <<<"$listing" | grep -q .; then
        fail "the .deb installs outside /usr: $(grep -v -e '^\./$' -e '^\./usr/' <<<"$listing" | head -3)"
    fi
    perms=$(dpkg-deb --contents "$deb" | awk '$6 == "./usr/bin/crawlscope" {print $1}')
    [ "$perms" = "-rwxr-xr-x" ] || fail "/usr/bin/crawlscope has mode $perms"
    note "the .deb has every expected file ($(wc -l <<<"$listing") entries)"
    ;;

run)
    version=${1:?version}
    deb=$(find_deb "$version")
    root="$work/unpacked"
    rm -rf "$root"
    dpkg-deb -x "$deb" "$root"
    exe="$root/usr/bin/crawlscope"
    [ -x "$exe" ] || fail "$exe missing after dpkg-deb -x"
    export QT_QPA_PLATFORM=offscreen

    note "$exe --version"
    out=$("$exe" --version 2>&1) || fail "--version exited $?: $out"
    echo "$out"
    grep -q "$version" <<<"$out" || fail "--version does not print $version"

    note "the unpacked man page renders without warnings"
    warnings=$(gzip -dc "$root/usr/share/man/man1/crawlscope.1.gz" | groff -man -ww -z 2>&1) \
        || fail "groff failed: $warnings"
    [ -z "$warnings" ] || fail "groff warnings: $warnings"

    # The headless demo writes crawlscope-demo.csv into the current folder: run it in the work folder.
    note "CRAWLSCOPE_DEMO_SCALE=0.05 $exe --demo --headless (in $work)"
    rm -f "$work/crawlscope-demo.csv"
    rc=0
    (cd "$work" && CRAWLSCOPE_DEMO_SCALE=0.05 timeout 240 "$exe" --demo --headless \
        >"$work/demo.out" 2>"$work/demo.err") || rc=$?
    echo "exit code $rc; standard error (last lines):"
    tail -n 5 "$work/demo.err" || true
    [ "$rc" -eq 0 ] || fail "the headless demo exited $rc"
    csv="$work/crawlscope-demo.csv"
    [ -s "$csv" ] || fail "the headless demo wrote no $csv"
    header="url,final_url,host,status,outcome,attempts,redirects,bytes,content_type,latency_ms,ttfb_ms,error,started_at,finished_at,warning,accepted,reject_reason,title"
    [ "$(head -n 1 "$csv" | tr -d '\r')" = "$header" ] || fail "$csv does not start with the CSV header"
    rows=$(($(wc -l <"$csv") - 1))
    [ "$rows" -ge 10 ] || fail "the headless demo wrote only $rows result rows"
    for outcome in ok http_error; do
        grep -q ",$outcome," "$csv" || fail "no row of the demo crawl is $outcome"
    done
    note "the demo crawl wrote $rows rows"
    ;;

tgz)
    version=${1:?version}
    tgz="$work/crawlscope-$version-Linux.tar.gz"
    [ -f "$tgz" ] || fail "$tgz missing"
    listing=$(tar -tzf "$tgz")
    while read -r f; do
        grep -qx "crawlscope-$version-Linux/$f" <<<"$listing" || fail "the .tar.gz lacks $f"
    done < <(expected_files)
    note "the .tar.gz has every expected file"
    ;;

*)
    fail "unknown step $step"
    ;;
esac
