#!/usr/bin/env bash
# Installs the toolkit into a temporary prefix and builds an outside program
# against it with pkg-config, linked both shared and static.
#   tests/install/run.sh BUILD CC
set -euo pipefail
build=${1:-build}
cc=${2:-cc}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

echo "--- install test (PREFIX=$prefix)"
make -s install PREFIX="$prefix" BUILD="$build" > /dev/null
for f in lib/libmbd.a lib/libmbd.so include/mbd/mbd.h include/mbd/system.h \
         lib/pkgconfig/mbd.pc bin/ch01-static-penalty; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f was not installed"; exit 1; }
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs mbd)
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$prefix/hello" tests/install/hello.c $flags
out=$(LD_LIBRARY_PATH="$prefix/lib" "$prefix/hello")
echo "  shared: $out"
"$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$prefix/hello-static" tests/install/hello.c \
    $(pkg-config --cflags mbd) "$prefix/lib/libmbd.a" $(pkg-config --libs gsl yaml-0.1) -lm
out=$("$prefix/hello-static")
echo "  static: $out"
"$prefix/bin/ch01-static-penalty" --version > /dev/null
echo "  ok    install: library, headers, mbd.pc and programs work from $prefix"
