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
#   - if the chapter.md has $...$ math, the page hands it to KaTeX (span.math,
#     no MathML);
#   - every citation key is in docs/references.bib and in the page's references;
#   - every output block shows the program's output from the right line;
# every reference page (docs/NAME.md but index.md, built as BUILD/docs/NAME.html)
# the same way, and that the index and at least one chapter page link it;
# that the index links every chapter page, and lists as reproduced exactly the
# documents the chapters reproduce (the document a chapter cites first); that
# every figure in BUILD/docs/fig is at most 300 kB; that every animation the
# chapter.md shows (anim/...) and every one in BUILD/docs/anim is a whole GIF
# (header, screen, trailer) of at most 1 MB, shown by an <img>, and that a
# cut-short or empty GIF is caught; that KaTeX (script, style sheet, fonts)
# is in BUILD/docs/katex and no page loads anything from the network; and,
# with small documents made up here, that the filter fails (non-zero exit, a
# message naming the marker, file or step) on an unknown marker, a missing
# file, a duplicated marker, a marker never closed, an unknown output step and
# a missing figure.
#
# Then it opens every page in headless Chromium (Debian's chromium; $CHROMIUM
# names another) at a desktop and a phone width, and tests/book/check-page.js
# checks what only a browser can tell: that KaTeX drew every formula (no
# .katex-error, no TeX left in the text), that no code, output, table or
# formula is cut off or sticks out of the column (a block wider than the
# column scrolls), that the page does not scroll sideways, and that every
# image loaded.
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

# gif_problem FILE: what is wrong with FILE as one of the book's animations
# (nothing printed when it is fine): missing or empty, larger than ANIM_LIMIT,
# no GIF87a/GIF89a header, an empty logical screen, or no trailer (0x3B) at
# its end -- a file cut short. (tests/lib/test_animation.c and
# tests/cli/test_animation.c read the frames and their delays.)
ANIM_LIMIT=1000000
gif_problem() {
    local f=$1 size head w h tail
    if [ ! -s "$f" ]; then
        echo "missing or empty"
        return
    fi
    size=$(wc -c < "$f")
    head=$(head -c 6 "$f")
    read -r w h < <(od -An -tu2 -j6 -N4 --endian=little "$f")
    tail=$(tail -c 1 "$f" | od -An -tx1 | tr -d ' ')
    if [ "$size" -gt $ANIM_LIMIT ]; then
        echo "$size bytes, more than $ANIM_LIMIT"
    elif [ "$head" != GIF89a ] && [ "$head" != GIF87a ]; then
        echo "not a GIF (it starts '$head')"
    elif [ "${w:-0}" -eq 0 ] || [ "${h:-0}" -eq 0 ]; then
        echo "a logical screen of ${w:-0}x${h:-0} pixels"
    elif [ "$tail" != 3b ]; then
        echo "no GIF trailer at its end (cut short?)"
    fi
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
    check_page "$c" "$md" "$page" "$num"
}

# check_page LABEL MD PAGE NUM: the built PAGE of the Markdown MD (NUM: the
# chapter whose output its output blocks quote by default; empty for a
# reference page)
check_page() {
    local c=$1 md=$2 page=$3 num=$4
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

    # animations: present, a whole GIF, under the size limit, and shown
    local anim
    while IFS= read -r anim; do
        local why
        why=$(gif_problem "$DOCS/$anim")
        if [ -z "$why" ]; then
            pass "$c: animation $DOCS/$anim is a GIF of $(wc -c < "$DOCS/$anim") bytes (at most $ANIM_LIMIT)"
        else
            fail "$c: animation $DOCS/$anim: $why"
        fi
        if grep -qF "<img src=\"$anim\"" "$page"; then
            pass "$c: the page shows $anim"
        else
            fail "$c: the page has no <img src=\"$anim\">"
        fi
    done < <(prose "$md" | grep -oE '\]\(anim/[^) ]+' | sed 's/^](//' | sort -u)

    # math: handed to KaTeX (the browser check below sees it drawn)
    prose "$md" > "$tmp/prose"
    if grep -qE '\$\$|\$[^ $]([^$]*[^ $])?\$' "$tmp/prose"; then
        if grep -q 'class="math' "$page" && ! grep -q '<math' "$page" &&
           grep -q 'src="katex/katex.min.js"' "$page"; then
            pass "$c: math is left to KaTeX ($(grep -o 'class="math' "$page" | wc -l) formulas)"
        else
            fail "$c: the chapter.md has math but the page does not load KaTeX" \
                 "(katex/katex.min.js) for span.math elements, or has MathML"
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
        if [ -z "$ch" ]; then
            fail "$c: output block without chapter=\"NN\" on a page that is not a chapter's"
            continue
        fi
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
# The reference pages (docs/NAME.md -> NAME.html): checked like a chapter's
# page, and linked from the index and from a chapter

refs=()
for md in docs/*.md; do
    if [ ! -f "$md" ] || [ "$md" = docs/index.md ]; then
        continue
    fi
    name=$(basename "$md" .md)
    refs+=("$name")
    check_page "reference $name" "$md" "$DOCS/$name.html" ""
    if grep -qF "href=\"$name.html\"" "$DOCS/index.html" 2> /dev/null; then
        pass "reference $name: the index links $name.html"
    else
        fail "reference $name: the index ($DOCS/index.html) has no link to $name.html"
    fi
    linked_from=$(grep -lF "href=\"$name.html" "$DOCS"/[0-9][0-9]-*.html 2> /dev/null |
                  xargs -r -n1 basename | tr '\n' ' ')
    if [ -n "$linked_from" ]; then
        pass "reference $name: linked from $linked_from"
    else
        fail "reference $name: no chapter page links $name.html"
    fi
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
        short=$(printf '%s\n' "$title" | sed "s/^${num}[[:space:].:·–-]*//")
        # (grep -q stops reading at the first match; under pipefail a writer
        # still writing would then fail the pipe, so the text goes to a file)
        if grep -qF "href=\"$c.html\"" "$index" &&
           grep -qF -- "$(normalize <<< "$short")" "$tmp/index-text"; then
            pass "index: links $c.html with its title"
        else
            fail "index: no link to $c.html titled '$title'"
        fi
    done
    # the documents listed as reproduced: exactly those the chapters reproduce,
    # the document each chapter cites first
    for md in chapters/[0-9][0-9]-*/chapter.md; do
        [ -f "$md" ] || continue
        prose "$md" | sed -E 's/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]+//g' |
            { grep -oE '(^|[[ ;-])@[A-Za-z0-9_][A-Za-z0-9_:.-]*' || true; } |
            awk 'NR == 1 { sub(/^[^@]*@/, ""); sub(/[:.-]+$/, ""); print }'
    done | sort -u > "$tmp/reproduced"
    sed -n 's/.*id="ref-\([^"]*\)".*/\1/p' "$index" | sort -u > "$tmp/index-refs"
    if cmp -s "$tmp/reproduced" "$tmp/index-refs"; then
        pass "index: lists the documents the chapters reproduce: $(tr '\n' ' ' < "$tmp/reproduced")"
    else
        fail "index: lists the documents $(tr '\n' ' ' < "$tmp/index-refs")but the chapters" \
             "reproduce $(tr '\n' ' ' < "$tmp/reproduced")"
    fi
else
    fail "index: $index was not built"
fi

# ---------------------------------------------------------------------------
# Figures: small enough to load quickly (gnuplot's SVG of a long curve is
# thinned by the library; see mbd_plot_svg)

FIG_LIMIT=300000
n_fig=0
for fig in "$DOCS"/fig/*.svg; do
    [ -f "$fig" ] || continue
    n_fig=$((n_fig + 1))
    size=$(wc -c < "$fig")
    if [ "$size" -gt $FIG_LIMIT ]; then
        fail "figure $fig is $size bytes, more than $FIG_LIMIT"
    fi
done
if [ $n_fig -gt 0 ]; then
    big=$(wc -c "$DOCS"/fig/*.svg | grep -v ' total$' | sort -n | tail -n 1)
    pass "figures: $n_fig SVGs checked against $FIG_LIMIT bytes (the largest: ${big# *})"
fi

# every animation in BUILD/docs/anim (shown or not) is a whole GIF under the limit
n_anim=0
for anim in "$DOCS"/anim/*.gif; do
    [ -f "$anim" ] || continue
    n_anim=$((n_anim + 1))
    why=$(gif_problem "$anim")
    [ -z "$why" ] || fail "animation $anim: $why"
done
[ $n_anim -gt 0 ] && pass "animations: $n_anim GIFs checked against $ANIM_LIMIT bytes"
# the check itself: a GIF cut short, an empty file and an SVG are caught
if [ $n_anim -gt 0 ]; then
    first_anim=$(ls "$DOCS"/anim/*.gif | head -n 1)
    head -c 5000 "$first_anim" > "$tmp/cut.gif"
    : > "$tmp/empty.gif"
    printf '<svg/>\n' > "$tmp/not.gif"
    for bad in cut empty not; do
        if [ -n "$(gif_problem "$tmp/$bad.gif")" ]; then
            pass "animations: a made-up $bad.gif is caught: $(gif_problem "$tmp/$bad.gif")"
        else
            fail "animations: a made-up $bad.gif passes the GIF check"
        fi
    done
fi

# ---------------------------------------------------------------------------
# KaTeX beside the pages, nothing from the network

katex_ok=1
for f in katex/katex.min.js katex/katex.min.css; do
    [ -s "$DOCS/$f" ] || { fail "katex: $DOCS/$f is missing"; katex_ok=0; }
done
while IFS= read -r font; do
    [ -s "$DOCS/katex/$font" ] || { fail "katex: $DOCS/katex/$font is missing"; katex_ok=0; }
done < <(grep -oE 'fonts/[A-Za-z0-9_-]+\.woff2' "$DOCS/katex/katex.min.css" 2>/dev/null | sort -u)
[ $katex_ok -eq 1 ] && pass "katex: script, style sheet and fonts are in $DOCS/katex"
for page in "$DOCS"/*.html; do
    if grep -qiE '<(script|link|img)[^>]*(src|href)="(https?:)?//' "$page"; then
        fail "$(basename "$page"): loads something from the network:" \
             "$(grep -oiE '<(script|link|img)[^>]*(src|href)="(https?:)?//[^"]*"' "$page" | awk 'NR == 1')"
    fi
done

# ---------------------------------------------------------------------------
# Every page in a browser (tests/book/check-page.js)

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
    for b in chromium chromium-browser google-chrome; do
        if command -v "$b" > /dev/null 2>&1; then
            browser=$b
            break
        fi
    done
fi

# A copy of each page beside it (so that katex/, fig/ and style.css resolve
# as they do for a reader), with the check at the end of its body, and a test
# page that shows every copy in a frame as wide as a desktop window and in one
# as wide as a phone, and collects their verdicts; removed when the test ends.
checked=()
cleanup_pages() { rm -f ${checked[@]+"${checked[@]}"}; rm -rf "$tmp"; }
trap cleanup_pages EXIT

if [ -z "$browser" ]; then
    fail "browser: no headless Chromium to open the pages in (install Debian's chromium;" \
         "make test does), or set CHROMIUM"
else
    widths=(1200 400)
    driver=$DOCS/.book-check.html
    cp tests/book/check-page.js "$DOCS/.book-check.js"
    checked+=("$DOCS/.book-check.js" "$driver")
    pages=("$index")
    for dir in chapters/[0-9][0-9]-*/; do
        [ -s "$DOCS/$(basename "$dir").html" ] && pages+=("$DOCS/$(basename "$dir").html")
    done
    for name in ${refs[@]+"${refs[@]}"}; do
        [ -s "$DOCS/$name.html" ] && pages+=("$DOCS/$name.html")
    done
    # and a page made up here, with what the check must catch: TeX that KaTeX
    # cannot draw, TeX left as text, a box that cuts its line off and a block
    # that spills out of the column
    cat > "$tmp/bad.md" <<'EOF'
A formula KaTeX cannot draw: $\notacommand{x}$.

```{=html}
<p>TeX left as text: \alpha.</p>
<div style="overflow: hidden; width: 10rem"><span style="white-space: nowrap">a line
far too long for the box that holds it and cuts it off</span></div>
<pre style="overflow: visible">an output line far wider than the column ......................................................................................</pre>
```
EOF
    bad=$DOCS/.book-check-bad-page.html
    checked+=("$bad")
    pandoc --from=markdown --to=html5 --standalone --template=docs/template.html \
        --katex=katex/ -M pagetitle=bad -o "$tmp/bad.html" "$tmp/bad.md"
    frames=""
    for page in "${pages[@]}" "$tmp/bad.html"; do
        name=$(basename "$page" .html)
        [ "$page" = "$tmp/bad.html" ] && name="bad-page"
        copy=$DOCS/.book-check-$name.html
        sed 's|</body>|<script src=".book-check.js"></script></body>|' "$page" > "$copy"
        checked+=("$copy")
        for width in "${widths[@]}"; do
            frames+="<iframe src=\".book-check-$name.html?width=$width\""
            frames+=" style=\"width: ${width}px; height: 900px\"></iframe>"$'\n'
        done
    done
    # each frame posts its page's verdict; when all have (or the time is up)
    # they are written out, a line "PAGE name width" before each page's lines
    cat > "$driver" <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>book check</title></head>
<body>
<pre id="verdicts"></pre>
<script>
var frames = $(( (${#pages[@]} + 1) * ${#widths[@]} )), out = [], got = 0, written = false;
function write(last) {
  if (written) return;
  written = true;
  out.push(last);
  document.getElementById('verdicts').textContent = '\n' + out.join('\n') + '\n';
}
window.addEventListener('message', function (e) {
  if (!e.data || !e.data.mbdBookCheck) return;
  var m = /book-check-(.*)[.]html[?]width=([0-9]+)/.exec(e.data.mbdBookCheck);
  out.push('PAGE ' + (m ? m[1] + ' ' + m[2] : e.data.mbdBookCheck));
  out = out.concat(e.data.lines);
  if (++got === frames) write('ALL DONE');
});
setTimeout(function () { write('TIME UP'); }, 60000);
</script>
$frames</body></html>
EOF
    "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$tmp/chromium" --window-size=1300,900 --virtual-time-budget=90000 \
        --dump-dom "file://$(cd "$DOCS" && pwd)/.book-check.html" 2> "$tmp/chromium.err" |
        sed -n '/<pre id="verdicts">/,/<\/pre>/p' |
        sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' \
            -e 's/&amp;/\&/g' > "$tmp/verdicts" || true
    if ! grep -q -e '^ALL DONE' -e '^TIME UP' "$tmp/verdicts"; then
        fail "browser: $browser did not run the check ($(grep -v -e dbus -e '^$' "$tmp/chromium.err" |
              tail -n 1))"
    fi
    # every page, at every width, must have reported, and passed
    for page in "${pages[@]}"; do
        name=$(basename "$page" .html)
        for width in "${widths[@]}"; do
            awk -v page="PAGE $name $width" '
                $0 == page { inside = 1; next }
                /^(PAGE |ALL DONE|TIME UP)/ { inside = 0 }
                inside' "$tmp/verdicts" > "$tmp/verdict"
            if ! grep -qx DONE "$tmp/verdict"; then
                fail "$name.html at $width px: the page did not report (did it load?)"
                continue
            fi
            while IFS= read -r line; do
                case $line in
                PASS\ *) pass "$name.html at $width px: ${line#PASS }" ;;
                FAIL\ *) fail "$name.html at $width px: ${line#FAIL }" ;;
                esac
            done < "$tmp/verdict"
        done
    done
    # the made-up page: every fault found
    awk '$0 == "PAGE bad-page 1200" { inside = 1; next }
         /^(PAGE |ALL DONE|TIME UP)/ { inside = 0 }
         inside' "$tmp/verdicts" > "$tmp/verdict"
    for needle in "FAIL math: KaTeX cannot draw \"\\notacommand" "FAIL math: raw TeX \"\\alpha\"" \
                  "FAIL width: cut off: div" "FAIL width: pre" "FAIL width: the page scrolls sideways"; do
        if grep -qF -- "$needle" "$tmp/verdict"; then
            pass "browser check: a made-up page's fault is found: $(grep -F -- "$needle" "$tmp/verdict" |
                  awk 'NR == 1' | cut -c 1-100)"
        else
            fail "browser check: a made-up page has a fault the check does not report" \
                 "('$needle'); it reported: $(tr '\n' ' ' < "$tmp/verdict")"
        fi
    done
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
