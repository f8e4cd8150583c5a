#!/usr/bin/env bash
# tests/grader/mutants.sh GRADER CONF WORKDIR [NN] -- the exercise tests tell right from wrong
# (all chapters', or chapter NN's only: make check-mutants CH=NN).
#
# Every line of tests/exercises/NN-slug/mutants.txt is a plausible wrong answer:
#     FILE<TAB>SED-EXPRESSION<TAB>DESCRIPTION
# For each, a copy of solutions/NN-slug/ gets the sed expression applied to FILE
# (which must change it), and the exercises of FILE are graded. The check fails
# if a mutant keeps full marks (the tests cannot tell it from the solution), or
# if a line is broken (no such file, the expression changes nothing or is not
# valid sed, the grader fails). Run from the repository root (make check-mutants).
set -u

grader=$1
conf=$2
work=$3
only=${4:-}
rm -rf "$work"
mkdir -p "$work"

caught=0
survived=0
broken=0
for list in tests/exercises/${only:-[0-9][0-9]}-*/mutants.txt; do
    [ -e "$list" ] || continue
    chdir=$(basename "$(dirname "$list")")
    chapter=${chdir%%-*}
    lineno=0
    n=0
    while IFS=$'\t' read -r file expr desc || [ -n "$file" ]; do
        lineno=$((lineno + 1))
        case $file in '' | '#'*) continue ;; esac
        n=$((n + 1))
        where="$list:$lineno"
        name="$file: ${desc:-(no description)}"
        src=$work/$chdir-$n/src
        if [ -z "$expr" ] || [ ! -f "solutions/$chdir/$file" ]; then
            echo "  BROKEN    $where: expected FILE<TAB>SED-EXPRESSION<TAB>DESCRIPTION with FILE in solutions/$chdir/"
            broken=$((broken + 1))
            continue
        fi
        mkdir -p "$src/$chdir"
        cp -p "solutions/$chdir"/* "$src/$chdir/"
        if ! err=$(sed -i -e "$expr" "$src/$chdir/$file" 2>&1); then
            echo "  BROKEN    $where: sed cannot apply the expression: $err"
            broken=$((broken + 1))
            continue
        fi
        if cmp -s "solutions/$chdir/$file" "$src/$chdir/$file"; then
            echo "  BROKEN    $where: the expression does not change $file (did the solution change?)"
            broken=$((broken + 1))
            continue
        fi
        out=$("$grader" --config "$conf" --src "$src" --solutions solutions \
            --out "$work/$chdir-$n/out" --chapter "$chapter" --file "$file" 2>&1)
        rc=$?
        score=$(printf '%s\n' "$out" | sed -n 's/^Score: //p')
        if [ $rc -ne 0 ] || [ -z "$score" ]; then
            echo "  BROKEN    $where: the grader failed (status $rc):"
            printf '%s\n' "$out" | sed 's/^/              /'
            broken=$((broken + 1))
        elif [ "${score%/*}" = "${score#*/}" ]; then
            echo "  SURVIVED  $name (score $score): the tests cannot tell it from the solution"
            survived=$((survived + 1))
        else
            echo "  caught    $name (score $score)"
            caught=$((caught + 1))
        fi
    done < "$list"
done

echo "mutants: $caught caught, $survived survived, $broken broken"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
