#!/usr/bin/env bash
# tests/grader/release.sh BUILD VERSION CC OPT SAN -- the releases work (make check-release).
#
#   1. the student tarball passes tools/release-check.sh, and the check does
#      catch a solution line pasted into a stub and a solution file copied
#      under another name;
#   2. the unpacked student release builds and grades on its own (make grade:
#      score 0, results.json), and its `make check-exercises` skips what needs
#      solutions/ with a note instead of failing;
#   3. the autograder bundle holds no solution (tools/release-check.sh, which
#      does catch one added to a zip) and, unpacked into a stand-in for
#      /autograder, grades a prepared submission (files at the top level, under
#      exercises/NN-slug/, nested deeper, one missing) and writes
#      results/results.json;
#   4. as root (as on Gradescope, and in CI), 3. runs the submission's code as
#      an unprivileged user (a free numeric uid), and a hostile submission
#      (tests/grader/hostile/) that prints the course's files at run time,
#      reads them at compile time (.incbin, #include), hunts for a solution
#      line under the autograder root, forges results.json, kills the grader
#      and leaves a daemon behind gets nothing of it: results.json is the
#      grader's, with the denials and none of the files' text, and no process
#      of the user is left. Not root: skipped, with a note.
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
# a line of a solution file's exercise regions that is nowhere else (not a
# public line, nor in another solution file)
secret_line() {
    local l t
    while IFS= read -r l; do
        t=$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<< "$l")
        if [ ${#t} -ge 12 ] && ! grep -rqF -- "$t" lib chapters exercises tests/exercises tests/support tools \
            && [ "$(grep -rlF -- "$t" solutions | wc -l)" -eq 1 ]; then
            printf '%s\n' "$t"
            return
        fi
    done < <("$stubgen" --regions "$1" | cut -d: -f3-)
}
secret=$(secret_line solutions/$ch01/rigid_bar.c)
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
if out=$(bash tools/release-check.sh "$zip" "$stubgen" 2>&1); then
    ok "autograder content: $out"
else
    bad "content check of $zip" "$out"
fi
if unzip -Z1 "$zip" | grep -Eq '(^|/)(solutions|tests/grader)(/|$)|(^|/)mutants\.txt$'; then
    bad "paths: solutions/, tests/grader/ or mutants.txt in autograder.zip"
else
    ok "autograder paths: no solutions/, tests/grader/ or mutants.txt"
fi
mkdir -p "$work/zipleak/mbd/solutions/$ch01"
cp solutions/$ch01/penalty.c "$work/zipleak/mbd/solutions/$ch01/"
cp "$zip" "$work/leak3.zip"
(cd "$work/zipleak" && zip -q "../leak3.zip" "mbd/solutions/$ch01/penalty.c")
if out=$(bash tools/release-check.sh "$work/leak3.zip" "$stubgen" 2>&1); then
    bad "a solution added to the autograder bundle was not caught" "$out"
elif grep -q "mbd/solutions/$ch01/penalty.c: must not be in a release" <<< "$out"; then
    ok "a solution added to the autograder bundle is caught"
else
    bad "a solution added to the autograder bundle: unexpected message" "$out"
fi

# as root, the stand-in for /autograder must be reachable by the sandbox user
uid=
if [ "$(id -u)" -eq 0 ]; then
    # a uid and gid that nobody uses (no account, no process), starting at a
    # place of our own, so that two such tests at once do not share one (the
    # grader kills every process of its uid)
    for i in $(seq 0 999); do
        u=$((61000 + ($$ + i) % 1000))
        getent passwd "$u" > /dev/null || getent group "$u" > /dev/null \
            || grep -qsE "^Uid:[[:space:]]+$u[[:space:]]" /proc/[0-9]*/status || { uid=$u; break; }
    done
    [ -n "$uid" ] || bad "no free uid in 61000-61999 for the sandbox"
fi
if [ -n "$uid" ]; then
    ag=$(mktemp -d /tmp/mbd-autograder.XXXXXX)
    trap 'rm -rf "$ag"' EXIT
else
    ag=$abs_work/autograder
fi
abs_zip=$(cd "${zip%/*}" && pwd)/${zip##*/}
mkdir -p "$ag/source"
(cd "$ag/source" && unzip -q "$abs_zip") || bad "cannot unzip $zip"
for f in setup.sh run_autograder mbd/Makefile mbd/exercises/$ch01/penalty.c mbd/tests/exercises/$ch01/test_penalty.c; do
    [ -e "$ag/source/$f" ] || bad "autograder.zip has no $f"
done
[ -e "$ag/source/mbd/solutions" ] && bad "autograder.zip has solutions/"

# runs run_autograder on the files of directory $1 (as Gradescope would: as
# root, with the sandbox user, when we are root), on the bundle's own stubs
# (Gradescope grades every submission in a fresh copy)
autograde() {
    rm -rf "$ag/submission" "$ag/results" "$ag/source/mbd/exercises"
    (cd "$ag/source" && unzip -q "$abs_zip" 'mbd/exercises/*')
    mkdir -p "$ag/submission"
    cp -R "$1/." "$ag/submission/"
    "${clean_env[@]}" MBD_AUTOGRADER_ROOT="$ag" ${uid:+MBD_AUTOGRADER_USER="$uid"} \
        bash "$ag/source/run_autograder" 2>&1
}
json=$ag/results/results.json
as=${uid:+", the submission's code as uid $uid"}

# lagrange.c at the top level, penalty.c under exercises/NN-slug/, sweep.c
# nested deeper (with a wrong kbest: 7.5 of 10), rigid_bar.c missing, and a
# bare baumgarte.c, a name that chapters 03 and 06 both have: not taken
good=$work/submission-good
mkdir -p "$good/exercises/$ch01" "$good/my work/$ch01"
cp solutions/$ch01/lagrange.c "$good/"
cp solutions/$ch01/penalty.c "$good/exercises/$ch01/"
cp solutions/06-embedding/baumgarte.c "$good/"
sed 's/if (error\[i\] < error\[\*kbest - kmin\])/if (error[i] > error[*kbest - kmin])/' \
    solutions/$ch01/sweep.c > "$good/my work/$ch01/sweep.c"
if out=$(autograde "$good"); then
    if [ ! -s "$json" ]; then
        bad "run_autograder wrote no results.json" "$out"
    elif grep -q '"score": 27.5,' "$json" \
        && grep -q 'exercises/01-static-penalty/rigid_bar.c: not in the submission' "$json" \
        && grep -q 'exercises/01-static-penalty/sweep.c  <-  my work/01-static-penalty/sweep.c' "$json" \
        && grep -q 'exercises/01-static-penalty/lagrange.c  <-  lagrange.c' "$json" \
        && grep -q 'exercises/06-embedding/baumgarte.c: the submission has a baumgarte.c, but 2 chapters' "$json" \
        && grep -q 'exercises/03-pendulum/baumgarte.c: the submission has a baumgarte.c' "$json"; then
        ok "run_autograder graded the submission: score 27.5 (penalty 10, lagrange 10, sweep 7.5, rigid_bar missing, a bare baumgarte.c of two chapters left out$as)"
    else
        bad "run_autograder: unexpected results.json" "$(head -c 3000 "$json")"
    fi
else
    bad "run_autograder failed" "$out"
fi

# --- 4. a hostile submission, in the sandbox --------------------------------
json_text() {   # text as it appears in a JSON string
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' <<< "$1"
}
if [ -z "$uid" ]; then
    echo "  skip  release / the sandbox: not root, so the hostile submission is not graded" \
        "(as root, as on Gradescope and in CI, run_autograder runs the submission's code as an" \
        "unprivileged user, and this test checks that it gets nothing of the course's files)"
else
    hostile=$work/submission-hostile
    mkdir -p "$hostile/exercises/02-integrators"
    # a line of penalty.c's solution (the hostile penalty.c replaces it), as hex
    wanted=$(secret_line solutions/$ch01/penalty.c)
    hex=$(printf '%s' "$wanted" | od -An -tx1 -v | tr -d ' \n')
    # in the chapter's folder: penalty.c and sweep.c are also chapter 03's
    # names, and a bare file of a name two chapters share is not taken
    mkdir -p "$hostile/$ch01"
    for f in penalty lagrange sweep; do
        sed -e "s|@ROOT@|$ag|g" -e "s|@WANTED_HEX@|$hex|g" tests/grader/hostile/$f.c.in \
            > "$hostile/$ch01/$f.c"
    done
    sed -e "s|@ROOT@|$ag|g" tests/grader/hostile/rk4_step.c.in \
        > "$hostile/exercises/02-integrators/rk4_step.c"
    cp solutions/$ch01/rigid_bar.c "$hostile/"
    out=$(autograde "$hostile")
    left=$(grep -lsE "^Uid:[[:space:]]+$uid[[:space:]]" /proc/[0-9]*/status)
    t=$ag/source/mbd/tests/exercises/$ch01
    problems=()
    if [ ! -s "$json" ]; then
        problems+=("no results.json")
    else
        grep -q '"score": 5,' "$json" || problems+=("the score is not 5 (rigid_bar.c alone)")
        grep -q 'Files taken from the submission' "$json" || problems+=("results.json is not the grader's")
        for denied in "cannot read $t/test_penalty.c: Permission denied" \
            "cannot read $ag/source/mbd/build/tools/grade.conf: Permission denied" \
            "cannot read $ag/source/mbd/exercises/manifest.yaml: Permission denied" \
            "cannot read $ag/source/setup.sh: Permission denied" \
            "cannot write results.json: Permission denied" \
            "cannot kill the grader: Operation not permitted" \
            "lagrange.c does not compile" "rk4_step.c does not compile" \
            "cannot read $ag/source/mbd/solutions/$ch01/sweep.c: No such file or directory"; do
            grep -qF -- "$denied" "$json" || problems+=("no '$denied'")
        done
        grep -qE 'searched [1-9][0-9]* files in [0-9]+ directories: 0 with a solution line' "$json" \
            || problems+=("the solution hunt did not run, or found one")
        grep -q 'LEAK' "$json" && problems+=("leaked: $(grep -o 'LEAK[^\\]*' "$json" | head -n 5)")
        grep -q 'forged' "$json" && problems+=("results.json was forged")
        # the course's files: none of their text (the first lines, which the
        # hostile code prints), nor the solution lines
        for f in "$t/test_penalty.c" "$t/test_lagrange.c" "$ag/source/mbd/build/tools/grade.conf" \
            "$ag/source/mbd/exercises/manifest.yaml"; do
            first=$(head -n 1 "$f")
            grep -qF -- "$(json_text "$first")" "$json" && problems+=("holds the first line of $f")
        done
        for l in "$secret" "$wanted"; do
            grep -qF -- "$(json_text "$l")" "$json" && problems+=("holds the solution line '$l'")
        done
    fi
    [ -n "$left" ] && problems+=("processes of uid $uid are left: $left")
    # and the grader would not have started had one of the course's files been readable
    chmod o+r "$ag/source/mbd/exercises/manifest.yaml"
    if refusal=$(cd "$ag/source/mbd" && build/tools/mbd-grade --config build/tools/grade.conf \
        --user "$uid" --chapter 01 --out build/grade-refusal 2>&1); then
        problems+=("mbd-grade --user ran although uid $uid can read the manifest")
    else
        grep -q "can read exercises/manifest.yaml" <<< "$refusal" \
            || problems+=("mbd-grade --user with a readable manifest: $refusal")
    fi
    chmod o-r "$ag/source/mbd/exercises/manifest.yaml"
    if [ ${#problems[@]} -eq 0 ]; then
        ok "a hostile submission, run as uid $uid, gets none of the course's files" \
            "(tests, settings, manifest, setup.sh, solutions), cannot forge results.json, kill" \
            "the grader or outlive it; score 5 for its one honest file; a readable manifest" \
            "stops mbd-grade --user"
    else
        bad "a hostile submission in the sandbox" "${problems[@]}" "results.json:" \
            "$(head -c 4000 "$json" 2> /dev/null)" "run_autograder's output:" "$(tail -n 20 <<< "$out")"
    fi
fi

[ $fails -eq 0 ] && echo "release: all checks passed" || echo "release: $fails check(s) failed"
[ $fails -eq 0 ]
