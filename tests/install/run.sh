#!/usr/bin/env bash
# tests/install/run.sh BUILD CC -- README.md's "Using the library in your own
# program" works as written.
#
# The commands are that section's first ```sh block, read from README.md (so
# the two cannot drift apart), run as they stand in a fresh directory with
# HOME a temporary one, no LD_LIBRARY_PATH and no PKG_CONFIG_PATH of ours:
# `make` is this repository's (with BUILD), `cc` is CC, and my_model.c is
# tests/install/hello.c (the pipeline README.md shows, on a pendulum). The
# program they build must run, with libmbd.so found where it was installed.
# Then: the installed files are there, the program links statically against
# libmbd.a too, and every installed chapter program starts (libmbd is linked
# into them; they need no libmbd.so).
set -euo pipefail
build=${1:-build}
cc=${2:-cc}
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: install: $1"
    shift
    [ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/        /'
    exit 1
}

recipe=$(awk '
    /^## / { section = ($0 ~ /^## Using the library in your own program/); next }
    section && !block && /^```sh[[:space:]]*$/ { block = 1; next }
    block && /^```/ { exit }
    block { print }' README.md)
[ -n "$recipe" ] || fail "README.md has no \`\`\`sh block under \"## Using the library in your own program\""
grep -q 'my_model' <<< "$recipe" || fail "README.md's recipe does not build my_model" "$recipe"

home=$tmp/home
prefix=$home/.local
mkdir -p "$home" "$tmp/work"
cp tests/install/hello.c "$tmp/work/my_model.c"
echo "--- install test: README.md's commands, with HOME=$home"
if ! out=$(cd "$tmp/work" && env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH -u LIBRARY_PATH \
    HOME="$home" BUILD="$build" MBD_REPO="$repo" MBD_CC="$cc" \
    bash -euo pipefail -c 'make() { command make -C "$MBD_REPO" "$@"; }
        cc() { command $MBD_CC "$@"; }
        '"$recipe" 2>&1); then
    fail "README.md's commands failed" "$recipe" "output:" "$(tail -n 30 <<< "$out")"
fi
grep -q '^libmbd .* works' <<< "$out" \
    || fail "the program README.md's commands build did not run as expected" "$(tail -n 30 <<< "$out")"
echo "  $(grep '^libmbd .* works' <<< "$out")"

for f in lib/libmbd.a lib/libmbd.so include/mbd/mbd.h include/mbd/system.h \
         lib/pkgconfig/mbd.pc bin/ch01-static-penalty; do
    [ -e "$prefix/$f" ] || fail "$f was not installed in $prefix"
done
# the shared library the program runs with is the installed one
if command -v ldd > /dev/null; then
    so=$(env -u LD_LIBRARY_PATH ldd "$tmp/work/my_model" | grep 'libmbd\.so' || true)
    grep -qF "$prefix/lib/libmbd.so" <<< "$so" \
        || fail "my_model does not load libmbd.so from $prefix/lib" "$so"
fi

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# what a static link needs besides libmbd.a, as mbd.pc says it (Requires and
# Requires.private, Libs.private: GSL, libyaml, SuiteSparse's KLU), without
# its -lmbd (which would link libmbd.so)
static_libs=$(pkg-config --static --libs mbd | sed -E 's/(^| )-lmbd( |$)/ /')
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/hello-static" tests/install/hello.c \
    $(pkg-config --cflags mbd) "$prefix/lib/libmbd.a" $static_libs
if command -v ldd > /dev/null && ldd "$tmp/hello-static" | grep -q 'libmbd\.so'; then
    fail "the static link against libmbd.a loads libmbd.so" "$(ldd "$tmp/hello-static")"
fi
echo "  static: $(env -u LD_LIBRARY_PATH "$tmp/hello-static")"

n=0
for p in "$prefix"/bin/ch[0-9][0-9]-*; do
    env -u LD_LIBRARY_PATH "$p" --version > /dev/null 2>&1 || fail "the installed ${p##*/} does not start" \
        "$(env -u LD_LIBRARY_PATH "$p" --version 2>&1 | head -n 5)"
    if command -v ldd > /dev/null && ldd "$p" | grep -q 'libmbd\.so'; then
        fail "the installed ${p##*/} needs libmbd.so (it should have libmbd linked in)"
    fi
    n=$((n + 1))
done
echo "  ok    install: README.md's commands work as written; library, headers, mbd.pc and" \
    "$n chapter programs work from $prefix with no LD_LIBRARY_PATH"
