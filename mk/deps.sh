#!/usr/bin/env bash
# mk/deps.sh -- find mbd's dependencies, and install the missing Debian packages.
#
#   mk/deps.sh check   NEED   report what is missing; exit 2 with the install command
#   mk/deps.sh install NEED   as check, but where apt-get exists and we are root,
#                             install the missing packages first (and say so)
#
# NEED is what the caller is about to do:
#   build  a C compiler, make, pkg-config, GSL, libyaml, SuiteSparse's KLU
#   run    build, plus gnuplot (the stories can draw figures)
#   docs   build, plus pandoc, gnuplot and KaTeX (libjs-katex: the book's math)
#   test   all of the above, plus CUnit, zip, unzip and Chromium (the book
#          test opens every page in headless Chromium)
set -u

mode=${1:-check}
need=${2:-build}

missing_pkgs=()
missing_what=()

want() {  # want PACKAGE DESCRIPTION TEST...
    local pkg=$1 what=$2
    shift 2
    if ! "$@" >/dev/null 2>&1; then
        missing_pkgs+=("$pkg")
        missing_what+=("$what")
    fi
}

have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }

# SuiteSparse's KLU (the sparse linear solver, lib/src/linsolve_klu.c) and
# SuiteSparseQR (the sparse QR of lib/src/spatial_analysis.c): KLU's
# pkg-config file where SuiteSparse ships one (7.x: KLU), else its header
# where Debian's libsuitesparse-dev puts it (5.x has no .pc file); the
# Makefile's KLU_CFLAGS looks in the same places
have_klu() {
    { have_pc KLU && have_pc SPQR; } \
        || { test -f /usr/include/suitesparse/klu.h \
             && test -f /usr/include/suitesparse/SuiteSparseQR_C.h; } \
        || { test -f /usr/include/klu.h && test -f /usr/include/SuiteSparseQR_C.h; }
}

# KaTeX where mk/docs.mk copies it from (its KATEX_DIR)
have_katex() {
    local dir=${KATEX_DIR:-/usr/share/javascript/katex}
    test -f "$dir/katex.min.js" && test -f "$dir/katex.min.css" && test -d "$dir/fonts"
}

# a headless Chromium for the book test (tests/book/run.sh; $CHROMIUM names another)
have_chromium() {
    if [ -n "${CHROMIUM:-}" ]; then
        command -v "$CHROMIUM"
    else
        command -v chromium || command -v chromium-browser || command -v google-chrome
    fi
}

probe() {
    missing_pkgs=()
    missing_what=()
    want gcc "a C compiler (cc)" command -v cc
    want libc6-dev "the C library headers" test -e /usr/include/stdio.h
    want make "make" command -v make
    want pkg-config "pkg-config" command -v pkg-config
    want libgsl-dev "GSL (pkg-config gsl)" have_pc gsl
    want libyaml-dev "libyaml (pkg-config yaml-0.1)" have_pc yaml-0.1
    want libsuitesparse-dev "SuiteSparse's KLU (suitesparse/klu.h)" have_klu
    case $need in
    run)
        want gnuplot-nox "gnuplot" command -v gnuplot ;;
    docs)
        want gnuplot-nox "gnuplot" command -v gnuplot
        want pandoc "pandoc" command -v pandoc
        want libjs-katex "KaTeX (/usr/share/javascript/katex)" have_katex ;;
    test)
        want gnuplot-nox "gnuplot" command -v gnuplot
        want pandoc "pandoc" command -v pandoc
        want libjs-katex "KaTeX (/usr/share/javascript/katex)" have_katex
        want chromium "Chromium (for the book test)" have_chromium
        want libcunit1-dev "CUnit (pkg-config cunit)" have_pc cunit
        want zip "zip" command -v zip
        want unzip "unzip" command -v unzip ;;
    esac
}

probe
[ ${#missing_pkgs[@]} -eq 0 ] && exit 0

if [ "$mode" = install ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "mbd: installing missing Debian packages: ${missing_pkgs[*]}"
    echo "     (for: $(IFS=,; echo "${missing_what[*]}" | sed 's/,/, /g'))"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "${missing_pkgs[@]}" >/tmp/mbd-apt.log 2>&1; then
        apt-get update -q >>/tmp/mbd-apt.log 2>&1
        if ! apt-get install -y -q --no-install-recommends "${missing_pkgs[@]}" >>/tmp/mbd-apt.log 2>&1; then
            echo "mbd: apt-get failed; its log is /tmp/mbd-apt.log:" >&2
            tail -n 5 /tmp/mbd-apt.log >&2
            exit 2
        fi
    fi
    probe
    if [ ${#missing_pkgs[@]} -eq 0 ]; then
        echo "mbd: dependencies installed."
        exit 0
    fi
fi

echo "mbd: missing: $(IFS=,; echo "${missing_what[*]}" | sed 's/,/, /g')" >&2
if command -v apt-get >/dev/null 2>&1; then
    echo "Install them with:" >&2
    echo "    sudo apt-get install ${missing_pkgs[*]}" >&2
else
    echo "Install them with your system's package manager (Debian names: ${missing_pkgs[*]})," >&2
    echo "so that pkg-config finds gsl, yaml-0.1 and cunit, and the compiler finds" >&2
    echo "SuiteSparse's klu.h (pkg-config KLU, or /usr/include/suitesparse)." >&2
fi
exit 2
