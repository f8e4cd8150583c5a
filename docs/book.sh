#!/usr/bin/env bash
# docs/book.sh -- helpers for the book's make rules (mk/docs.mk).
#
#   docs/book.sh title FILE             the title of a chapter.md
#   docs/book.sh subtitle FILE          its subtitle (empty if none)
#   docs/book.sh label NN-slug          "NN · title", for navigation links
#   docs/book.sh chapter-list CHAPTER...
#                                       the table of chapters (Markdown) for the
#                                       index page, one row per NN-slug
#   docs/book.sh source FILE            the citation key of the document a
#                                       chapter.md reproduces (empty if none)
#   docs/book.sh sources CHAPTER...     the list (Markdown) of the documents the
#                                       chapters reproduce, for the index page
#
# A title is the `title:` of the YAML metadata block that opens the file, or
# else the first level-1 heading ("# ...") outside code blocks.  The document a
# chapter reproduces is the one its text cites first ("This chapter reproduces
# the static example that opens document 000 [@newhart2019, Sec. 1.2.6]"): a
# document cited only in passing (a pointer to a later chapter) is not listed.
# shellcheck disable=SC2016  # backquotes and $ in single quotes are Markdown and messages
set -euo pipefail

# meta KEY FILE: a scalar value of the leading YAML block ("key: value", quotes
# removed); for KEY=title, fall back to the first "# " heading.
meta() {
    awk -v key="$1" '
        function unquote(v) {
            if (v ~ /^".*"$/) {
                v = substr(v, 2, length(v) - 2)
                gsub(/\\"/, "\"", v); gsub(/\\\\/, "\\", v)
            } else if (v ~ /^\047.*\047$/) {
                v = substr(v, 2, length(v) - 2)
                gsub(/\047\047/, "\047", v)
            }
            return v
        }
        NR == 1 && /^---[ \t]*$/ { yaml = 1; next }
        yaml && /^(---|\.\.\.)[ \t]*$/ { yaml = 0; next }
        yaml && index($0, key ":") == 1 {
            v = substr($0, length(key) + 2)
            sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v)
            print unquote(v); exit
        }
        yaml { next }
        /^(```|~~~)/ { fence = !fence; next }
        !fence && key == "title" && /^# / {
            v = substr($0, 3); sub(/[ \t]*\{[^}]*\}[ \t]*$/, "", v)   # drop {#id .class}
            sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v)
            print v; exit
        }
    ' "$2"
}

# chapter_list CHAPTER...: a pipe table, linking each chapter that has a text
chapter_list() {
    echo "| | Chapter | Program |"
    echo "|--:|:------|:------|"
    local c num md title subtitle
    for c in "$@"; do
        num=${c%%-*}
        md=chapters/$c/chapter.md
        if [ -f "$md" ]; then
            title=$(meta title "$md")
            # the table has a number column: drop a "01 · " the title starts with
            case $title in
            "$num"[[:space:].:·-]*)
                title=$(printf '%s\n' "${title#"$num"}" | sed 's/^[[:space:].:·–-]*//') ;;
            esac
            [ -n "$title" ] || title=$c
            subtitle=$(meta subtitle "$md")
            title=${title//|/\\|}
            subtitle=${subtitle//|/\\|}
            printf '| %s | [%s](%s.html)%s | `ch%s` |\n' "$num" "$title" "$c" \
                "${subtitle:+ — $subtitle}" "$c"
        else
            printf '| %s | %s *(text not written yet)* | `ch%s` |\n' "$num" "$c" "$c"
        fi
    done
}

# source_of FILE: the key of the first citation in a chapter.md's text (not in
# the YAML block, code blocks or inline code; e-mail addresses are no citations)
source_of() {
    awk 'NR == 1 && /^---[ \t]*$/ { yaml = 1; next }
         yaml && /^(---|\.\.\.)[ \t]*$/ { yaml = 0; next }
         yaml { next }
         /^[ \t]*(```|~~~)/ { fence = !fence; next }
         !fence' "$1" |
        sed -E -e 's/`[^`]*`//g' -e 's/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]+//g' |
        { grep -oE '(^|[[ ;-])@[A-Za-z0-9_][A-Za-z0-9_:.-]*' || true; } |
        awk 'NR == 1 { sub(/^[^@]*@/, ""); sub(/[:.-]+$/, ""); print }'
}

# sources CHAPTER...: one list item per document the chapters reproduce, in
# the order of its first chapter: "- @key: chapters [01](01-slug.html) and ..."
sources() {
    local c md key
    for c in "$@"; do
        md=chapters/$c/chapter.md
        [ -f "$md" ] || continue
        key=$(source_of "$md")
        if [ -n "$key" ]; then
            printf '%s %s\n' "$key" "$c"
        fi
    done | awk '
        !($1 in chapters) { order[++n] = $1; chapters[$1] = "" }
        { chapters[$1] = chapters[$1] (chapters[$1] == "" ? "" : " ") $2 }
        END {
            if (n == 0) { print "No chapter reproduces a document yet."; exit }
            for (i = 1; i <= n; i++) {
                m = split(chapters[order[i]], cs, " ")
                links = ""
                for (j = 1; j <= m; j++) {
                    num = cs[j]; sub(/-.*/, "", num)
                    links = links (j == 1 ? "" : j == m ? " and " : ", ") \
                            "[" num "](" cs[j] ".html)"
                }
                printf "- @%s: chapter%s %s\n", order[i], (m > 1 ? "s" : ""), links
            }
        }'
}

# label CHAPTER: "NN · title" for navigation links (the title as it is if it
# already starts with the number)
label() {
    local num=${1%%-*} title
    title=$(meta title "chapters/$1/chapter.md")
    case $title in
    "$num"*) printf '%s\n' "$title" ;;
    *) printf '%s · %s\n' "$num" "${title:-$1}" ;;
    esac
}

case ${1:-} in
title | subtitle)
    [ $# -eq 2 ] || { echo "usage: $0 $1 FILE" >&2; exit 2; }
    meta "$1" "$2" ;;
label)
    [ $# -eq 2 ] || { echo "usage: $0 label NN-slug" >&2; exit 2; }
    label "$2" ;;
chapter-list)
    shift
    chapter_list "$@" ;;
source)
    [ $# -eq 2 ] || { echo "usage: $0 source FILE" >&2; exit 2; }
    source_of "$2" ;;
sources)
    shift
    sources "$@" ;;
*)
    echo "usage: $0 title FILE | subtitle FILE | label NN-slug | chapter-list CHAPTER..." \
         "| source FILE | sources CHAPTER..." >&2
    exit 2 ;;
esac
