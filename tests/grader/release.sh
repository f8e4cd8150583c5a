#!/usr/bin/env bash
# tests/grader/release.sh BUILD VERSION CC OPT SAN -- the releases work (make check-release).
#
#   1. the student tarball passes tools/release-check.sh, and the check does
#      catch a solution line pasted into a stub and a solution file copied
#      under another name;
#   2. the unpacked student release builds and grades on its own (make grade:
#      score 0, results.json), and its `make check-exercises` skips what needs
#      solutions/ with a note instead of failing;
#   3. the autograder bundle, unpacked into a stand-in for /autograder, grades a
#      prepared submission (files at the top level, under exercises/NN-slug/,
#      nested deeper, one missing) and writes results/results.json.
# The make runs inside get CC, OPT and SAN from this build, and nothing else of
# its make flags. Run from the repository root after make student-release autograder.
set -u

build=$1
version=$2
cc=$3
opt=$4
san=$5
tarball=$build/release/mbd-student-$version.tar.gz
zip=$build/release/autograder.zip
stubgen=$build/tools/mbd-stubs
work=$build/tests/release
ch01=01-static-penalty
fails=0
ok() { echo "  ok    release / $*"; }
bad() {
    echo "  FAIL  release / $1"
    shift
    [ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/        /'
    fails=$((fails + 1))
}
# make in another tree, without this make's variables (a command-line
# variable such as BUILD=build/memcheck is also in the environment) and jobserver
clean_env=(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u MAKEOVERRIDES -u BUILD -u CH -u EX
    -u TIMEOUT -u JOBS -u GRADE_ARGS -u CC -u OPT -u SAN -u CFLAGS -u LDFLAGS)
submake() {
    "${clean_env[@]}" make "$@" BUILD=build CC="$cc" OPT="$opt" SAN="$san"
}

rm -rf "$work"
mkdir -p "$work"
abs_work=$(cd "$work" && pwd)

# --- 1. no solutions in the tarball, and the check would notice -----------
if out=$(bash tools/release-check.sh "$tarball" "$stubgen" 2>&1); then
    ok "content: $out"
else
    bad "content check of $tarball" "$out"
fi
if tar -tzf "$tarball" | grep -Eq '/(solutions|tests/grader)/|mutants\.txt$'; then
    bad "paths: solutions/, tests/grader/ or mutants.txt in the tarball"
else
    ok "paths: no solutions/, tests/grader/ or mutants.txt"
fi

mkdir -p "$work/leak"
tar -xzf "$tarball" -C "$work/leak"
top=$work/leak/mbd-student-$version
# a line of rigid_bar.c's solution that is nowhere else (not a public line)
secret=
while IFS= read -r l; do
    t=$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<< "$l")
    if [ ${#t} -ge 12 ] && ! grep -rqF -- "$t" lib chapters tests/exercises tests/support tools; then
        secret=$t
        break
    fi
done < <("$stubgen" --regions solutions/$ch01/rigid_bar.c | cut -d: -f3-)
printf '    %s\n' "$secret" >> "$top/exercises/$ch01/penalty.c"
tar -C "$work/leak" -czf "$work/leak1.tar.gz" "mbd-student-$version"
if out=$(bash tools/release-check.sh "$work/leak1.tar.gz" "$stubgen" 2>&1); then
    bad "a solution line pasted into a stub was not caught" "$out"
elif grep -q "exercises/$ch01/penalty.c:[0-9]*: holds line solutions/$ch01/rigid_bar.c:" <<< "$out"; then
    ok "a solution line pasted into a stub is caught"
else
    bad "a solution line pasted into a stub: unexpected message" "$out"
fi
tar -xzf "$tarball" -C "$work/leak"      # undo the paste
mkdir -p "$top/docs"
cp solutions/$ch01/lagrange.c "$top/docs/notes.txt"
tar -C "$work/leak" -czf "$work/leak2.tar.gz" "mbd-student-$version"
if out=$(bash tools/release-check.sh "$work/leak2.tar.gz" "$stubgen" 2>&1); then
    bad "a copy of a solution file was not caught" "$out"
elif grep -q "docs/notes.txt: a copy of solutions/$ch01/lagrange.c" <<< "$out"; then
    ok "a copy of a solution file under another name is caught"
else
    bad "a copy of a solution file: unexpected message" "$out"
fi

# --- 2. the student release on its own ------------------------------------
mkdir -p "$work/student"
tar -xzf "$tarball" -C "$work/student"
rel=$work/student/mbd-student-$version
if [ -e "$rel/solutions" ]; then
    bad "the unpacked release has solutions/"
fi
if out=$(cd "$rel" && submake grade 2>&1); then
    score=$(sed -n 's/^Score: //p' <<< "$out")
    if [ "${score%/*}" = 0 ] && grep -q '"score": 0,' "$rel/build/grade/results.json"; then
        ok "the release builds on its own and its stubs grade $score"
    else
        bad "make grade in the release: expected a score of 0, got '$score'" "$out"
    fi
else
    bad "make grade in the release failed" "$(tail -n 30 <<< "$out")"
fi
if out=$(cd "$rel" && submake check-exercises 2>&1) && grep -q "no solutions/" <<< "$out"; then
    ok "make check-exercises in the release skips with a note"
else
    bad "make check-exercises in the release" "$out"
fi
if out=$(cd "$rel" && submake verify-solutions 2>&1); then
    bad "make verify-solutions in the release should refuse (no solutions/)" "$out"
else
    ok "make verify-solutions in the release refuses: $(head -n 1 <<< "$out")"
fi

# --- 3. the autograder ----------------------------------------------------
ag=$abs_work/autograder
mkdir -p "$ag/source" "$ag/submission/exercises/$ch01" "$ag/submission/my work/$ch01"
(cd "$ag/source" && unzip -q "$OLDPWD/$zip") || bad "cannot unzip $zip"
for f in setup.sh run_autograder mbd/Makefile mbd/solutions/$ch01/penalty.c mbd/tests/exercises/$ch01/test_penalty.c; do
    [ -e "$ag/source/$f" ] || bad "autograder.zip has no $f"
done
# penalty.c at the top level, lagrange.c under exercises/NN-slug/, sweep.c
# nested deeper (with a wrong kbest: 7.5 of 10), rigid_bar.c missing
cp solutions/$ch01/penalty.c "$ag/submission/"
cp solutions/$ch01/lagrange.c "$ag/submission/exercises/$ch01/"
sed 's/if (error\[i\] < error\[\*kbest - kmin\])/if (error[i] > error[*kbest - kmin])/' \
    solutions/$ch01/sweep.c > "$ag/submission/my work/$ch01/sweep.c"
if out=$("${clean_env[@]}" MBD_AUTOGRADER_ROOT="$ag" bash "$ag/source/run_autograder" 2>&1); then
    json=$ag/results/results.json
    if [ ! -s "$json" ]; then
        bad "run_autograder wrote no results.json" "$out"
    elif grep -q '"score": 27.5,' "$json" \
        && grep -q 'exercises/01-static-penalty/rigid_bar.c: not in the submission' "$json" \
        && grep -q 'exercises/01-static-penalty/sweep.c  <-  my work/01-static-penalty/sweep.c' "$json"; then
        ok "run_autograder graded the submission: score 27.5 (penalty 10, lagrange 10, sweep 7.5, rigid_bar missing)"
    else
        bad "run_autograder: unexpected results.json" "$(head -c 3000 "$json")"
    fi
else
    bad "run_autograder failed" "$out"
fi

[ $fails -eq 0 ] && echo "release: all checks passed" || echo "release: $fails check(s) failed"
[ $fails -eq 0 ]
