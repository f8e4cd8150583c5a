#!/usr/bin/env bash
# tests/book/run.sh -- the book's test; `make check-book` runs it after `make book`.
#
#   bash tests/book/run.sh [BUILD]        (BUILD defaults to build)
#
# For every chapter (chapters/NN-slug/) it checks the built page BUILD/docs/NN-slug.html:
#   - the chapter has a chapter.md, and its page exists;
#   - every code include (include=FILE marker=NAME) of the chapter.md is in the
#     page: the lines between the markers in FILE, as consecutive lines of the
#     page's text (tags stripped, entities decoded, indentation ignored), under a
#     caption naming the file and the marker;
#   - every figure the chapter.md shows (fig/...) is a non-empty SVG in
#     BUILD/docs/fig and the page has an <img> for it;
#   - if the chapter.md has $...$ math, the page has MathML and no TeX left over;
#   - every citation key is in docs/references.bib and in the page's references;
#   - every output block shows the program's output from the right line;
# that the index links every chapter page; and, with small documents made up
# here, that the filter fails (non-zero exit, a message naming the marker, file
# or step) on an unknown marker, a missing file, a duplicated marker, a marker
# never closed, an unknown output step and a missing figure.
#
# Portable bash with coreutils, sed, awk, grep and pandoc: no python.
# shellcheck disable=SC2016  # backquotes and $ in single quotes are Markdown and messages
set -euo pipefail

BUILD=${1:-build}
cd "$(dirname "${BASH_SOURCE[0]}")/../.."     # the repository root
DOCS=$BUILD/docs
FILTER=docs/filters/include-code.lua
BIB=docs/references.bib

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbd-book-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passes=0
failures=0
pass() { passes=$((passes + 1)); echo "PASS: $*"; }
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

# ---------------------------------------------------------------------------
# Helpers

# normalize: tabs to spaces, runs of spaces to one, no leading/trailing space
normalize() {
    tr '\t' ' ' | sed -e 's/  */ /g' -e 's/^ //' -e 's/ $//'
}

# page_text HTML: the page's text, one line per HTML line: tags stripped,
# the entities pandoc writes decoded, whitespace normalized
page_text() {
    sed -e 's/<[^>]*>//g' \
        -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&#39;/'/g" \
        -e 's/&amp;/\&/g' "$1" | normalize
}

# region FILE MARKER: the lines strictly between `>> MARKER` and `<< MARKER`
# (C, // or # comments), leaving out nested marker lines; status 1 if there
# is no such region.  With MARKER empty: the whole file without marker lines.
region() {
    awk -v name="$2" '
        function marker(line,   s) {   # "open", "close" or "" for this line
            s = line
            gsub(/^[ \t]*(\/\*|\/\/|#)[ \t]*/, "", s)
            if (s == line) return ""
            gsub(/[ \t]*(\*\/)?[ \t]*$/, "", s)
            if (s ~ /^>>[ \t]*[^ \t]+$/) return "open"
            if (s ~ /^<<[ \t]*[^ \t]+$/) return "close"
            return ""
        }
        function name_of(line,   s) {
            s = line
            sub(/^[ \t]*(\/\*|\/\/|#)[ \t]*(>>|<<)[ \t]*/, "", s)
            sub(/[ \t]*(\*\/)?[ \t]*$/, "", s)
            return s
        }
        name == "" { if (marker($0) == "") print; found = closed = 1; next }
        {
            m = marker($0)
            if (m == "open" && name_of($0) == name) { inside = 1; found = 1; next }
            if (m == "close" && name_of($0) == name) { inside = 0; closed = 1; next }
            if (inside && m == "") print
        }
        END { exit !(found && closed) }
    ' "$1"
}

# strip blank lines at both ends of stdin
trim_blank_ends() {
    awk '{ line[NR] = $0 }
         END {
             first = 1; while (first <= NR && line[first] ~ /^[ \t]*$/) first++
             last = NR; while (last >= first && line[last] ~ /^[ \t]*$/) last--
             for (i = first; i <= last; i++) print line[i]
         }'
}

# contiguous NEEDLE HAYSTACK: NEEDLE's lines occur as consecutive lines of HAYSTACK
contiguous() {
    awk 'FNR == NR { need[++n] = $0; next }
         { hay[++m] = $0 }
         END {
             if (n == 0) exit 1
             for (i = 1; i + n - 1 <= m; i++) {
                 for (j = 1; j <= n && hay[i + j - 1] == need[j]; j++) ;
                 if (j > n) exit 0
             }
             exit 1
         }' "$1" "$2"
}

# prose MD: the chapter.md without its YAML block, fenced code and inline code
prose() {
    awk 'NR == 1 && /^---[ \t]*$/ { yaml = 1; next }
         yaml && /^(---|\.\.\.)[ \t]*$/ { yaml = 0; next }
         yaml { next }
         /^[ \t]*(```|~~~)/ { fence = !fence; next }
         !fence' "$1" | sed -e 's/`[^`]*`//g'
}

# attr NAME < fence line: the value of NAME="..." (or NAME=word)
attr() {
    sed -n -e "s/.*[{ ]$1=\"\\([^\"]*\\)\".*/\\1/p" -e "t" \
           -e "s/.*[{ ]$1=\\([^ }\"]*\\).*/\\1/p"
}

# ---------------------------------------------------------------------------
# Each chapter's page

check_chapter() {
    local c=$1 num=${1%%-*}
    local md=chapters/$c/chapter.md page=$DOCS/$c.html
    if [ ! -f "$md" ]; then
        fail "$c: $md is missing (every chapter has a text)"
        return
    fi
    if [ ! -s "$page" ]; then
        fail "$c: the page $page was not built"
        return
    fi
    pass "$c: page $page exists"
    page_text "$page" > "$tmp/text"
    if grep -q 'href="index.html"' "$page"; then
        pass "$c: the page links the index"
    else
        fail "$c: the page has no link to index.html"
    fi

    # code includes
    local fence src marker label n_inc=0
    while IFS= read -r fence; do
        n_inc=$((n_inc + 1))
        src=$(attr include <<< "$fence")
        marker=$(attr marker <<< "$fence")
        label="$c: include $src${marker:+ marker $marker}"
        if [ ! -f "$src" ]; then
            fail "$label: no such file"
            continue
        fi
        if ! region "$src" "$marker" > "$tmp/region.raw"; then
            fail "$label: no region /* >> $marker */ ... /* << $marker */ in $src"
            continue
        fi
        trim_blank_ends < "$tmp/region.raw" | normalize > "$tmp/region"
        if ! grep -q '[^[:space:]]' "$tmp/region"; then
            fail "$label: the region is empty"
            continue
        fi
        if contiguous "$tmp/region" "$tmp/text"; then
            pass "$label: all $(wc -l < "$tmp/region") lines are in the page"
        else
            local first missing
            first=$(grep -m1 '[^[:space:]]' "$tmp/region")
            missing=$(while IFS= read -r line; do
                          grep -qxF -- "$line" "$tmp/text" || { printf '%s' "$line"; break; }
                      done < "$tmp/region")
            fail "$label: the code is not in the page (first line: '$first'${missing:+; not found: '$missing'})"
        fi
        if grep -qF "data-file=\"$src\"" "$page" &&
           { [ -z "$marker" ] || grep -qF "data-marker=\"$marker\"" "$page"; }; then
            pass "$label: the listing's caption names the file and marker"
        else
            fail "$label: no listing captioned with the file and marker"
        fi
    done < <(grep -E '^[[:space:]]*(```|~~~)' "$md" | grep -E '[{ ]include=' || true)

    # figures
    local fig
    while IFS= read -r fig; do
        if [ -s "$DOCS/$fig" ] && grep -q '<svg' "$DOCS/$fig"; then
            pass "$c: figure $DOCS/$fig is a non-empty SVG"
        else
            fail "$c: figure $DOCS/$fig is missing, empty or not SVG"
        fi
        if grep -qF "<img src=\"$fig\"" "$page"; then
            pass "$c: the page shows $fig"
        else
            fail "$c: the page has no <img src=\"$fig\">"
        fi
    done < <(prose "$md" | grep -oE '\]\(fig/[^) ]+' | sed 's/^](//' | sort -u)

    # math
    prose "$md" > "$tmp/prose"
    if grep -qE '\$\$|\$[^ $]([^$]*[^ $])?\$' "$tmp/prose"; then
        if grep -q '<math' "$page" && ! grep -q 'class="math' "$page"; then
            pass "$c: math is rendered as MathML ($(grep -o '<math' "$page" | wc -l) formulas)"
        else
            fail "$c: the chapter.md has math but the page has no MathML, or TeX left over"
        fi
    fi

    # citations: [@key], [-@key], @key in the text (not e-mail addresses)
    local key
    while IFS= read -r key; do
        if grep -qE "^@[a-zA-Z]+\{$key," "$BIB" && grep -qF "id=\"ref-$key\"" "$page"; then
            pass "$c: citation $key is in $BIB and in the page's references"
        else
            fail "$c: citation $key is not in $BIB or not in the page's references"
        fi
    done < <(sed -E 's/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]+//g' "$tmp/prose" |
             grep -oE '(^|[[ ;-])@[A-Za-z0-9_][A-Za-z0-9_:.-]*' |
             sed -E 's/^[^@]*@//; s/[:.-]+$//' | sort -u)

    # output blocks
    local ch from out expect
    while IFS= read -r fence; do
        ch=$(attr chapter <<< "$fence")
        ch=${ch:-$num}
        from=$(attr from <<< "$fence")
        out=$DOCS/out/ch$ch.txt
        if [ ! -s "$out" ]; then
            fail "$c: output block: $out is missing or empty"
            continue
        fi
        if [ -n "$from" ]; then
            expect=$(grep -m1 -F -- "$from" "$out" | normalize || true)
        else
            expect=$(grep -m1 '[^[:space:]]' "$out" | normalize || true)
        fi
        if [ -n "$expect" ] && grep -qxF -- "$expect" "$tmp/text"; then
            pass "$c: output block of chapter $ch${from:+ from '$from'} is in the page"
        else
            fail "$c: output block of chapter $ch${from:+ from '$from'}: '$expect' is not in the page"
        fi
    done < <(grep -E '^[[:space:]]*(```|~~~)[[:space:]]*\{[^}]*\.output' "$md" || true)
}

for dir in chapters/[0-9][0-9]-*/; do
    [ -d "$dir" ] || continue
    check_chapter "$(basename "$dir")"
done

# ---------------------------------------------------------------------------
# The index

index=$DOCS/index.html
if [ -s "$index" ]; then
    pass "index: $index exists"
    page_text "$index" > "$tmp/index-text"
    for md in chapters/[0-9][0-9]-*/chapter.md; do
        [ -f "$md" ] || continue
        c=$(basename "$(dirname "$md")")
        title=$(bash docs/book.sh title "$md")
        # the index's table has a number column and drops a leading "NN · " from
        # the title (docs/book.sh chapter-list); look for the title without it
        num=${c%%-*}
        short=$(printf '%s\n' "$title" | sed "s/^$num[[:space:].:·–-]*//")
        # (grep -q stops reading at the first match; under pipefail a writer
        # still writing would then fail the pipe, so the text goes to a file)
        if grep -qF "href=\"$c.html\"" "$index" &&
           grep -qF -- "$(normalize <<< "$short")" "$tmp/index-text"; then
            pass "index: links $c.html with its title"
        else
            fail "index: no link to $c.html titled '$title'"
        fi
    done
else
    fail "index: $index was not built"
fi

# ---------------------------------------------------------------------------
# The filter must fail the build on every kind of broken reference.

mkdir -p "$tmp/neg/out"
cat > "$tmp/neg/source.c" <<'EOF'
/* >> good */
int good_marker_code(void) { return 42; }
/* << good */

/* >> twice */
int first_copy;
/* << twice */
/* >> twice */
int second_copy;
/* << twice */

/* >> unclosed */
int never_closed;
EOF
printf 'Step 1. first\n  one\nStep 2. second\n  two\n' > "$tmp/neg/out/ch99.txt"

# filter_case NAME EXPECT(ok|fail) MARKDOWN NEEDLE...: run pandoc with the
# filter on MARKDOWN; on fail, the message must contain every NEEDLE
filter_case() {
    local name=$1 expect=$2 text=$3
    shift 3
    local md=$tmp/neg/$name.md status=0
    printf '%s\n' "$text" > "$md"
    pandoc --from=markdown --to=html5 --lua-filter="$FILTER" \
        -M mbd-docs-dir="$tmp/neg" -M mbd-chapter=99 \
        -o "$tmp/neg/$name.html" "$md" 2> "$tmp/neg/$name.err" || status=$?
    if [ "$expect" = ok ]; then
        if [ $status -eq 0 ] && grep -q 'good_marker_code' "$tmp/neg/$name.html" &&
           grep -q 'Step 1. first' "$tmp/neg/$name.html" &&
           ! grep -q -e 'Step 2. second' -e '&gt;&gt; good' "$tmp/neg/$name.html"; then
            pass "filter: $name builds"
        else
            fail "filter: $name should build (exit $status): $(tr '\n' ' ' < "$tmp/neg/$name.err")"
        fi
        return
    fi
    if [ $status -eq 0 ]; then
        fail "filter: $name should fail the build, but pandoc exited 0"
        return
    fi
    local needle
    for needle in "$md" "$@"; do
        if ! grep -qF -- "$needle" "$tmp/neg/$name.err"; then
            fail "filter: $name fails (exit $status) but the message does not name '$needle': $(tr '\n' ' ' < "$tmp/neg/$name.err")"
            return
        fi
    done
    pass "filter: $name fails the build (exit $status) naming $*"
}

src=$tmp/neg/source.c
fence='```'
filter_case control ok "$fence{.c include=\"$src\" marker=\"good\"}
$fence

$fence{.output from=\"Step 1\" to=\"Step 2\"}
$fence"
filter_case unknown-marker fail "$fence{.c include=\"$src\" marker=\"nosuchmarker\"}
$fence" nosuchmarker "$src"
filter_case missing-file fail "$fence{.c include=\"$tmp/neg/no-such-file.c\" marker=\"good\"}
$fence" "$tmp/neg/no-such-file.c" good
filter_case duplicated-marker fail "$fence{.c include=\"$src\" marker=\"twice\"}
$fence" twice "$src"
filter_case unclosed-marker fail "$fence{.c include=\"$src\" marker=\"unclosed\"}
$fence" unclosed "$src"
filter_case unknown-step fail "$fence{.output chapter=\"99\" from=\"Step 9\"}
$fence" "Step 9"
filter_case unknown-end-step fail "$fence{.output chapter=\"99\" from=\"Step 1\" to=\"Step 7\"}
$fence" "Step 7"
filter_case missing-figure fail "![a figure nobody drew](fig/ch99-nothing.svg)" "fig/ch99-nothing.svg"

# ---------------------------------------------------------------------------

echo
if [ $failures -gt 0 ]; then
    echo "book: $failures FAILED, $passes passed"
    exit 1
fi
echo "book: all $passes checks passed"
