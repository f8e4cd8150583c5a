#!/usr/bin/env bash
# tools/release-check.sh ARCHIVE STUBGEN -- a release holds no solution.
#
# ARCHIVE is the student release (.tar.gz: one top directory, the toolkit) or
# the autograder bundle (.zip: the toolkit under mbd/, beside setup.sh and
# run_autograder). Fails (naming what it found) when the archive has
#   1. a path under solutions/ or tests/grader/, or a mutants.txt (they show
#      solution code);
#   2. a file identical to a solution file that has exercise regions, under any
#      name;
#   3. a line of a solution's exercise region (BEGIN .. STUB, as
#      `STUBGEN --regions` prints them; compared without leading and trailing
#      blanks; lines under 12 characters are too generic to tell) in any file.
#      Lines that also occur in the code students are meant to read - the
#      toolkit's lib/, chapters/, tests/ and tools/, and the stubs' own text
#      outside their regions - are not secrets: a
#      solution calls the library where the library has the piece, and tests
#      share generic lines such as "gsl_matrix_free(Kc);".
# Run from the repository root (it reads solutions/).
set -u

tarball=${1:?usage: tools/release-check.sh TARBALL|ZIP STUBGEN}
stubgen=${2:?STUBGEN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=0
problem() {
    echo "release-check: $*"
    problems=$((problems + 1))
}

# the archive unpacked in $all; $root is its toolkit (the one top directory)
all=$tmp/unpacked
mkdir -p "$all"
case $tarball in
*.zip | *.zip.tmp) unpack=(unzip -q "$tarball" -d "$all") ;;
*) unpack=(tar -xzf "$tarball" -C "$all") ;;
esac
if ! "${unpack[@]}"; then
    echo "release-check: cannot unpack $tarball" >&2
    exit 2
fi
root=$(find "$all" -mindepth 1 -maxdepth 1 -type d)
[ -n "$root" ] && [ "$(grep -c . <<< "$root")" -eq 1 ] \
    || { echo "release-check: $tarball must have one top directory" >&2; exit 2; }

# 1. paths
while IFS= read -r p; do
    problem "$p: must not be in a release"
done < <(cd "$all" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort \
    | grep -E '^[^/]+/(solutions|tests/grader)(/|$)|(^|/)mutants\.txt$')

# 2. copies of solution files that have exercise regions
: > "$tmp/.secret"
: > "$tmp/.stubtext"
for f in solutions/[0-9][0-9]-*/*; do
    [ -f "$f" ] || continue
    "$stubgen" --regions "$f" > "$tmp/.regions" 2> /dev/null || {
        problem "$f: its exercise markers are malformed (run make check-stubs)"
        continue
    }
    [ -s "$tmp/.regions" ] || continue
    cat "$tmp/.regions" >> "$tmp/.secret"
    # the solution's lines outside its regions are the stub's own text: public
    awk -v regions="$tmp/.regions" '
        BEGIN { while ((getline l < regions) > 0) { split(l, a, ":"); inreg[a[2]] = 1 } }
        !(FNR in inreg)' "$f" >> "$tmp/.stubtext"
    sum=$(sha256sum < "$f" | cut -d' ' -f1)
    while IFS= read -r -d '' g; do
        [ "$(sha256sum < "$g" | cut -d' ' -f1)" = "$sum" ] && problem "${g#"$all"/}: a copy of $f"
    done < <(find "$all" -type f -size "$(wc -c < "$f")c" -print0)
done

# 3. lines of the exercise regions
find "$root/lib" "$root/chapters" "$root/tests" "$root/tools" -type f -print0 2> /dev/null \
    | xargs -0 -r cat > "$tmp/.public"
cat "$tmp/.stubtext" >> "$tmp/.public"
find "$all" \( -path "$root/lib" -o -path "$root/chapters" -o -path "$root/tests" \
    -o -path "$root/tools" \) -prune -o -type f -print0 > "$tmp/.scan"
# the secrets: "TEXT<TAB>path:line", region lines minus the public ones
awk -v public="$tmp/.public" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
    BEGIN { while ((getline l < public) > 0) pub[trim(l)] = 1 }
    {   # "path:line:text" from mbd-stubs --regions
        p = index($0, ":"); rest = substr($0, p + 1); q = index(rest, ":")
        t = trim(substr(rest, q + 1))
        if (length(t) >= 12 && !(t in pub) && !(t in seen)) {
            seen[t] = 1
            print t "\t" substr($0, 1, p - 1) ":" substr(rest, 1, q - 1)
        }
    }' "$tmp/.secret" > "$tmp/.effective"
found=$(xargs -0 -r awk -v secret="$tmp/.effective" -v strip="$all/" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
    BEGIN {
        while ((getline l < secret) > 0) {
            i = index(l, "\t")
            where[substr(l, 1, i - 1)] = substr(l, i + 1)
        }
    }
    { t = trim($0) }
    t in where {
        f = FILENAME
        if (index(f, strip) == 1) f = substr(f, length(strip) + 1)
        print f ":" FNR ": holds line " where[t] ": " t
    }' < "$tmp/.scan")
if [ -n "$found" ]; then
    while IFS= read -r l; do problem "$l"; done <<< "$found"
fi

if [ $problems -gt 0 ]; then
    echo "release-check: $tarball: $problems problem(s): solution code in a release"
    exit 1
fi
echo "release-check: $tarball holds no solution (checked: paths; copies of" \
    "$(cut -d: -f1 "$tmp/.secret" | sort -u | grep -c .) solution files; $(grep -c . "$tmp/.effective") of" \
    "$(grep -c . "$tmp/.secret") solution lines, the others too short or also in lib/, chapters/, tests/, tools/ or the stubs' own text)"
