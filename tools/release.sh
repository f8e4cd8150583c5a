#!/usr/bin/env bash
# tools/release.sh -- the student release and the Gradescope autograder (run by make).
#
#   tools/release.sh student BUILD VERSION STUBGEN
#       BUILD/release/mbd-student-VERSION.tar.gz: the toolkit with the exercise
#       stubs and their tests, without solutions/ (nor the grader's own tests and
#       the mutant lists, which show solution code), then checked by
#       tools/release-check.sh: no solution may be in it.
#   tools/release.sh autograder BUILD VERSION STUBGEN [CHAPTER]
#       BUILD/release/autograder.zip: setup.sh, run_autograder and, under mbd/,
#       the same files as the student release (the stubs and their tests; no
#       solutions: grading needs none), checked by tools/release-check.sh like
#       the student release; with CHAPTER, the autograder grades that chapter
#       only.
#
# The toolkit's files are git's (tracked, plus new files git does not ignore)
# in a git work tree, else every file outside BUILD, build/ and .git/.
# Run from the repository root.
set -euo pipefail

kind=${1:?usage: tools/release.sh student|autograder BUILD VERSION ...}
build=${2:?BUILD}
version=${3:?VERSION}
rel=$build/release
mkdir -p "$rel"

toolkit_files() {
    if [ -e .git ] && git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard
    else
        find . \( -path ./build -o -path "./${build#./}" -o -path ./.git \) -prune -o -type f -print \
            | sed 's|^\./||'
    fi | while IFS= read -r f; do
        # deleted but still in git's index: skip; never anything of the build
        [ -f "$f" ] || continue
        case $f in build/* | "${build#./}"/*) continue ;; esac
        printf '%s\n' "$f"
    done | LC_ALL=C sort -u
}

# what a student may see: no solutions/, nor what shows them (the grader's own
# tests, the mutant lists), nor CI
release_files() {
    toolkit_files | grep -Ev '^(solutions/|tests/grader/|\.ci/)|(^|/)mutants\.txt$'
}

# copies the listed files (stdin, one per line) into a directory
stage() {
    mkdir -p "$1"
    tar -cf - -T - | tar -xf - -C "$1"
}

case $kind in
student)
    stubgen=${4:?STUBGEN}
    name=mbd-student-$version
    tmp=$rel/.stage-student
    rm -rf "$tmp"
    release_files > "$rel/.student-files"
    stage "$tmp/$name" < "$rel/.student-files"
    tarball=$rel/$name.tar.gz
    tar -C "$tmp" --owner=0 --group=0 --numeric-owner --sort=name -czf "$tarball.tmp" "$name"
    rm -rf "$tmp"
    if ! bash tools/release-check.sh "$tarball.tmp" "$stubgen"; then
        rm -f "$tarball.tmp"
        echo "student-release: refused: the release would hold solution code (see above)" >&2
        exit 1
    fi
    mv -f "$tarball.tmp" "$tarball"
    echo "wrote $tarball ($(wc -l < "$rel/.student-files") files, no solutions)"
    rm -f "$rel/.student-files"
    ;;
autograder)
    stubgen=${4:?STUBGEN}
    chapter=${5:-}
    tmp=$rel/.stage-autograder
    rm -rf "$tmp"
    release_files | stage "$tmp/mbd"
    cp tools/autograder/setup.sh "$tmp/setup.sh"
    sed "s/@CHAPTER@/$chapter/" tools/autograder/run_autograder > "$tmp/run_autograder"
    chmod +x "$tmp/setup.sh" "$tmp/run_autograder"
    zip=$rel/autograder.zip
    rm -f "$zip" "$zip.tmp"
    (cd "$tmp" && zip -q -r -X ../autograder.zip.tmp setup.sh run_autograder mbd)
    rm -rf "$tmp"
    if ! bash tools/release-check.sh "$zip.tmp" "$stubgen"; then
        rm -f "$zip.tmp"
        echo "autograder: refused: the bundle would hold solution code (see above)" >&2
        exit 1
    fi
    mv -f "$zip.tmp" "$zip"
    graded=${chapter:+chapter $chapter}
    echo "wrote $zip (grades ${graded:-every chapter}; no solutions; unpacked by Gradescope" \
        "into /autograder/source)"
    ;;
*)
    echo "tools/release.sh: unknown kind '$kind' (student or autograder)" >&2
    exit 2
    ;;
esac
