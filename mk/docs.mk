# mk/docs.mk -- the book (included by the Makefile).
#
#   make docs          check/install pandoc, gnuplot and KaTeX, then `make book`
#   make book          $(BUILD)/docs/index.html, one page per chapter,
#                      $(BUILD)/docs/NN-slug.html from chapters/NN-slug/chapter.md,
#                      and one per reference page, $(BUILD)/docs/NAME.html from
#                      docs/NAME.md (the model format, docs/model-format.md)
#   make check-book    build the book, then test it (tests/book/run.sh)
#   make animations    the book's animations, $(BUILD)/docs/anim/*.gif (make book
#                      makes them; make run never does)
#
# For each chapter the program runs its story once,
#   $(BUILD)/bin/chNN-slug --plot $(BUILD)/docs/fig/chNN --no-timing > $(BUILD)/docs/out/chNN.txt
# which also draws the figures $(BUILD)/docs/fig/chNN-<figure>.svg.  The page
# quotes that output (```{.output}``` blocks), shows the figures, and pulls
# code from the chapter's sources by marker (docs/filters/include-code.lua).
# A page is rebuilt when its chapter.md, the chapter's sources, model files
# (chapter 09's models/, which its page includes) or program, or any part of
# the book's frame changes.
#
# Animations (issue 21): a chapter.md shows an animation as an image,
# ![...](anim/chNN-NAME.gif), and `make animations` draws each one the pages
# show with its chapter's program,
#   $(BUILD)/bin/chNN-slug --animate $(BUILD)/docs/anim/chNN-NAME.gif ARGS --no-timing > /dev/null
# where ARGS is $(BOOK_ANIM_chNN-NAME) (below): empty for the chapter's own
# animation (--animate alone: the story's runs that teach something, the
# story itself sent to /dev/null), or run options for one run's.
#
# A reference page (every docs/*.md but docs/index.md) is a page of its own,
# not a chapter: no chapter number, no story, no program.  It goes through
# the same filter (code from sources by marker, tables, figures, citations),
# and the index and the chapters that need it link it by its file name,
# e.g. [the model format](model-format.html).
#
# Math is drawn by KaTeX in the reader's browser: Debian's libjs-katex
# (KATEX_DIR) is copied to $(BUILD)/docs/katex/ -- script, style sheet and
# fonts -- and the pages load it from there, so the book reads offline, from
# file:// too.  A formula KaTeX cannot draw shows as a red .katex-error, which
# the book test (tests/book/run.sh, in headless Chromium) fails on.

DOCS := $(BUILD)/docs

# the chapters that have a text; the others are listed on the index page as
# "not written yet" (and tests/book fails on them)
BOOK_CHAPTERS := $(foreach c,$(CHAPTERS),$(if $(wildcard chapters/$(c)/chapter.md),$(c)))
BOOK_UNWRITTEN := $(filter-out $(BOOK_CHAPTERS),$(CHAPTERS))
BOOK_PAGES := $(BOOK_CHAPTERS:%=$(DOCS)/%.html)

# the reference pages: docs/NAME.md -> $(DOCS)/NAME.html
BOOK_REFS := $(sort $(basename $(notdir $(filter-out docs/index.md,$(wildcard docs/*.md)))))
BOOK_REF_PAGES := $(BOOK_REFS:%=$(DOCS)/%.html)

# the book's frame: every page depends on it
BOOK_FRAME := docs/template.html docs/style.css docs/references.bib \
    docs/filters/include-code.lua docs/book.sh mk/docs.mk

PANDOC ?= pandoc
KATEX_DIR ?= /usr/share/javascript/katex
# The filter runs before citeproc, so included text could cite too.
# --fail-if-warnings: an unknown citation key fails the build, like an unknown
# marker does.  --katex: pandoc leaves each formula's TeX in a span.math, for
# KaTeX to draw (docs/template.html loads it from katex/ beside the page).
PANDOC_FLAGS = --from=markdown --to=html5 --standalone \
    --template=docs/template.html \
    --lua-filter=docs/filters/include-code.lua \
    --citeproc --bibliography=docs/references.bib \
    --katex=katex/ --highlight-style=tango \
    --fail-if-warnings --wrap=none \
    -M link-citations=true \
    -M mbd-version=$(VERSION) -M mbd-docs-dir=$(DOCS)

docs: deps-docs
	@$(MAKE) book

book: $(DOCS)/index.html $(BOOK_PAGES) $(BOOK_REF_PAGES) $(DOCS)/katex/katex.min.js animations
	@echo "make book: wrote $(DOCS)/index.html, $(words $(BOOK_PAGES)) chapter page(s)" \
	    "and $(words $(BOOK_REF_PAGES)) reference page(s)."
	$(if $(BOOK_UNWRITTEN),@echo "make book: warning: no chapter.md yet for $(BOOK_UNWRITTEN)" >&2)

check-book: book
	@bash tests/book/run.sh $(BUILD)

.PHONY: docs book check-book animations

# ---------------------------------------------------------------------------
# Animations: the ones the chapter pages show (anim/chNN-NAME.gif), each drawn
# by its chapter's program with the arguments below.

# empty: the chapter's own animation (--animate alone); else a run's options
BOOK_ANIM_ch03-baumgarte :=
BOOK_ANIM_ch05-fold :=
BOOK_ANIM_ch06-dead-centre :=
BOOK_ANIM_ch07-continuation :=
BOOK_ANIM_ch08-drift :=
BOOK_ANIM_ch09-governor :=
BOOK_ANIM_ch09-a02 := --model chapters/09-spatial-engine/models/a02-n2.yaml --t-end 8 --fps 20

BOOK_ANIMS := $(sort $(foreach c,$(BOOK_CHAPTERS),\
    $(shell grep -oE 'anim/ch[0-9][0-9]-[A-Za-z0-9_-]+[.]gif' chapters/$(c)/chapter.md \
            | sed 's|^anim/||; s|[.]gif$$||')))
BOOK_ANIM_FILES := $(BOOK_ANIMS:%=$(DOCS)/anim/%.gif)

animations: $(BOOK_ANIM_FILES)
	@echo "make animations: $(words $(BOOK_ANIM_FILES)) animation(s) in $(DOCS)/anim"

# $(1) chNN-NAME, $(2) the chapter NN-slug
define book_anim_rules
$(DOCS)/anim/$(1).gif: $(BUILD)/bin/ch$(2)
	@mkdir -p $$(@D)
	$(BUILD)/bin/ch$(2) --animate $$@ $$(BOOK_ANIM_$(1)) --no-timing > /dev/null
endef
$(foreach a,$(BOOK_ANIMS),$(eval $(call book_anim_rules,$(a),$(filter $(patsubst ch%,%,$(firstword $(subst -, ,$(a))))-%,$(CHAPTERS)))))

# ---------------------------------------------------------------------------
# Navigation: each chapter's previous and next chapter ("-" for none), as the
# words "chapter:prev:next".

_book_prev := $(wordlist 1,$(words $(BOOK_CHAPTERS)),- $(BOOK_CHAPTERS))
_book_next := $(wordlist 2,$(words $(BOOK_CHAPTERS)),$(BOOK_CHAPTERS)) -
BOOK_NAV := $(join $(join $(BOOK_CHAPTERS),$(addprefix :,$(_book_prev))),$(addprefix :,$(_book_next)))

# chapter number: 01-static-penalty -> 01
book_num = $(firstword $(subst -, ,$(1)))

# pandoc options for one navigation link: $(call book_nav,prev|next,CHAPTER|-)
# (the title is read from the neighbour's chapter.md when the page is built)
book_nav = $(if $(filter-out -,$(2)),-M nav-$(1)=$(2).html \
    -M "nav-$(1)-title=$$(bash docs/book.sh label $(2))")

# ---------------------------------------------------------------------------
# One chapter: its story output and figures, and its page.

# $(1) chapter (NN-slug), $(2) NN, $(3) previous chapter or -, $(4) next or -
define book_chapter_rules
$(DOCS)/out/ch$(2).txt: $(BUILD)/bin/ch$(1)
$(DOCS)/out/ch$(2).txt: BOOK_PROGRAM := $(BUILD)/bin/ch$(1)

$(DOCS)/$(1).html: chapters/$(1)/chapter.md $(DOCS)/out/ch$(2).txt $(BUILD)/bin/ch$(1) \
    $(wildcard chapters/$(1)/*.c chapters/$(1)/*.h chapters/$(1)/models/*.yaml) \
    $(filter-out chapters/-/chapter.md,chapters/$(3)/chapter.md chapters/$(4)/chapter.md) \
    $(BOOK_FRAME) $(DOCS)/style.css
$(DOCS)/$(1).html: BOOK_NUM := $(2)
$(DOCS)/$(1).html: BOOK_PREV := $(3)
$(DOCS)/$(1).html: BOOK_NEXT := $(4)
endef
# $(call book_nav_word,N,chapter:prev:next): word N of the triple
book_nav_word = $(word $(1),$(subst :, ,$(2)))
$(foreach t,$(BOOK_NAV),$(eval $(call book_chapter_rules,$(call book_nav_word,1,$(t)),$(call book_num,$(t)),$(call book_nav_word,2,$(t)),$(call book_nav_word,3,$(t)))))

# The story, run once: its output for the page, and its figures (old figures
# of the chapter are removed first, so a figure the program no longer draws
# cannot linger).  .DELETE_ON_ERROR removes the output if the program fails.
$(DOCS)/out/ch%.txt:
	@mkdir -p $(@D) $(DOCS)/fig
	@rm -f $(DOCS)/fig/ch$*-*.svg
	$(BOOK_PROGRAM) --plot $(DOCS)/fig/ch$* --no-timing > $@

$(DOCS)/%.html: chapters/%/chapter.md
	@mkdir -p $(@D)
	@echo "pandoc $< -> $@"
	@$(PANDOC) $(PANDOC_FLAGS) --toc --toc-depth=2 \
	    -M mbd-chapter=$(BOOK_NUM) -M mbd-program=ch$* \
	    -M "pagetitle=$$(bash docs/book.sh title $<)" \
	    $(call book_nav,prev,$(BOOK_PREV)) $(call book_nav,next,$(BOOK_NEXT)) \
	    -o $@ $<

# ---------------------------------------------------------------------------
# A reference page: the frame's template and filter, a table of contents,
# no chapter number and no program (so no "Run it" line and no story).

# (the model format includes chapter 09's joint models whole)
$(BOOK_REF_PAGES): $(DOCS)/%.html: docs/%.md $(BOOK_FRAME) $(DOCS)/style.css \
    $(wildcard chapters/09-spatial-engine/models/*.yaml)
	@mkdir -p $(@D)
	@echo "pandoc $< -> $@"
	@$(PANDOC) $(PANDOC_FLAGS) --toc --toc-depth=2 \
	    -M "pagetitle=$$(bash docs/book.sh title $<)" \
	    -o $@ $<

# ---------------------------------------------------------------------------
# The index page, with the table of chapters generated from their titles.

# Regenerated on every run, but replaced only when it changes, so the index
# is rebuilt only when a title (or the list of chapters) changes.
$(DOCS)/chapters.md: FORCE
	@mkdir -p $(@D)
	@bash docs/book.sh chapter-list $(CHAPTERS) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

# The list of source documents, the same way: a document is listed when a
# chapter cites it first (docs/book.sh sources).
$(DOCS)/sources.md: FORCE
	@mkdir -p $(@D)
	@bash docs/book.sh sources $(CHAPTERS) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(DOCS)/index.html: docs/index.md $(DOCS)/chapters.md $(DOCS)/sources.md $(BOOK_FRAME) \
    $(DOCS)/style.css $(if $(BOOK_CHAPTERS),chapters/$(firstword $(BOOK_CHAPTERS))/chapter.md)
	@mkdir -p $(@D)
	@echo "pandoc $< -> $@"
	@$(PANDOC) $(PANDOC_FLAGS) -M mbd-chapter-list=$(DOCS)/chapters.md \
	    -M mbd-source-list=$(DOCS)/sources.md \
	    -M "pagetitle=$$(bash docs/book.sh title $<)" \
	    $(call book_nav,next,$(or $(firstword $(BOOK_CHAPTERS)),-)) \
	    -o $@ $<

$(DOCS)/style.css: docs/style.css
	@mkdir -p $(@D)
	cp $< $@

# KaTeX beside the pages (katex.min.js may be a symbolic link to katex.js,
# and fonts/ one to fonts-katex's directory: copy what they point to).
$(DOCS)/katex/katex.min.js: $(wildcard $(KATEX_DIR)/katex.min.js $(KATEX_DIR)/katex.min.css)
	@if [ ! -f $(KATEX_DIR)/katex.min.js ] || [ ! -f $(KATEX_DIR)/katex.min.css ] || \
	    [ ! -d $(KATEX_DIR)/fonts ]; then \
	    echo "make book: KaTeX is not in $(KATEX_DIR): install Debian's libjs-katex" \
	         "(make docs does), or set KATEX_DIR" >&2; \
	    exit 2; \
	fi
	@rm -rf $(DOCS)/katex
	@mkdir -p $(DOCS)/katex
	cp -L $(KATEX_DIR)/katex.min.css $(KATEX_DIR)/katex.min.js $(DOCS)/katex/
	cp -RL $(KATEX_DIR)/fonts $(DOCS)/katex/fonts

FORCE:
.PHONY: FORCE
