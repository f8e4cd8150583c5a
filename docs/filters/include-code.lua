--[[
include-code.lua -- the book's pandoc Lua filter (pandoc 2.17 or later).

It gives chapter.md six things plain Markdown lacks.

1. Code pulled from the C sources by named markers.  An empty code block

       ```{.c include="chapters/01-static-penalty/bar.c" marker="penalty"}
       ```

   becomes the lines of that file strictly between the marker lines
   `/* >> penalty */` and `/* << penalty */`, without their common leading
   indentation, under a small caption naming the file, the marker and the lines.
   The classes (`.c`) are kept, so pandoc highlights the code.  Without
   `marker` the whole file is included.  Paths are relative to the repository
   root (the directory pandoc runs in).  Marker lines (of regions nested in
   the included one, or all of them for a whole file) are left out.
   `// >> name` and `# >> name` are markers too, for sources that are not C.

2. The story's output.  An empty code block

       ```{.output chapter="01" from="Step 7" to="Step 8"}
       ```

   becomes the output of chapter 01's program, as `make book` saved it in
   <docs dir>/out/ch01.txt.  With `from`, it starts at the first line that
   contains that text; with `to`, it stops before the first later line that
   contains that text (plain substrings, not patterns).  `chapter` defaults to
   the page's own chapter.

3. The table of chapters.  A div `::: chapter-list` (empty) in docs/index.md
   becomes the Markdown table that `make book` generates from the chapter.md
   titles (metadata `mbd-chapter-list`), and a div `::: source-list` the list
   of the documents the chapters reproduce, each with its chapters
   (metadata `mbd-source-list`; see docs/book.sh sources).

4. Figures.  Every image with a relative source (`fig/ch01-sweep.svg`) must
   exist in the docs directory: a figure the program did not draw fails the
   build instead of leaving a broken image.

5. A "References" section at the end of a page that cites (see below).

6. Tables get no fixed column widths: the browser sizes them (see below);
   and each sits in a div.table-wrap, which scrolls sideways when the table
   is wider than the column (docs/style.css).

And a chapter's title loses a leading "01 · ": the template prints
"Chapter 01" above it.

Every error stops pandoc with a non-zero exit status and a message naming the
input file (chapter.md), and the source file and marker where there is one.

Metadata the make rules pass (-M key=value):
   mbd-docs-dir       where the pages, fig/ and out/ are (default build/docs)
   mbd-chapter        the page's chapter number, "01"
   mbd-program        the page's chapter program, "ch01-static-penalty"
   mbd-chapter-list   the generated table of chapters (index page only)
   mbd-source-list    the generated list of source documents (index page only)
--]]

local config = {
  docs_dir = 'build/docs',
  chapter = nil,
  program = nil,
  chapter_list = nil,
  source_list = nil,
}

-- ---------------------------------------------------------------------------
-- Errors

-- the document being converted, for error messages
local function input_name()
  local files = PANDOC_STATE and PANDOC_STATE.input_files or {}
  if #files == 0 then
    return '(stdin)'
  end
  return table.concat(files, ', ')
end

-- stop pandoc: the message names the input file first; level 0 keeps Lua's
-- own "file:line:" prefix out of it
local function fail(fmt, ...)
  error(input_name() .. ': error: ' .. string.format(fmt, ...), 0)
end

-- ---------------------------------------------------------------------------
-- Small helpers

-- the lines of a file (without line ends; a CR of a CRLF line end is dropped),
-- or nil when it cannot be read
local function read_lines(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local lines = {}
  for line in f:lines() do
    lines[#lines + 1] = line:gsub('\r$', '')
  end
  f:close()
  return lines
end

local function is_blank(line)
  return line:match('^%s*$') ~= nil
end

-- drop blank lines at both ends of a list of lines (in place)
local function trim_blank_ends(lines)
  while #lines > 0 and is_blank(lines[1]) do
    table.remove(lines, 1)
  end
  while #lines > 0 and is_blank(lines[#lines]) do
    table.remove(lines)
  end
  return lines
end

-- remove the indentation all non-blank lines share (in place)
local function dedent(lines)
  local common = nil
  for _, line in ipairs(lines) do
    if not is_blank(line) then
      local indent = #line:match('^[ \t]*')
      if common == nil or indent < common then
        common = indent
      end
    end
  end
  if common and common > 0 then
    for i, line in ipairs(lines) do
      lines[i] = line:sub(common + 1)
    end
  end
  return lines
end

-- copy an element's key/value attributes, leaving out the given keys
local function attributes_without(el, drop)
  local kept = {}
  for k, v in pairs(el.attributes) do
    if not drop[k] then
      kept[#kept + 1] = {k, v}
    end
  end
  return kept
end

-- the caption line above an included listing
local function caption(inlines)
  return pandoc.Div({pandoc.Plain(inlines)}, pandoc.Attr('', {'listing-source'}))
end

-- ---------------------------------------------------------------------------
-- 1. Code includes

-- If a line is a marker line, return its kind ('>>' opens, '<<' closes) and
-- its name.  Accepted forms: /* >> name */, // >> name, # >> name.
local function marker_of(line)
  local s = line:match('^%s*(.-)%s*$')
  local body = s:match('^/%*%s*(.-)%s*%*/$') or s:match('^//%s*(.*)$') or s:match('^#%s*(.*)$')
  if not body then
    return nil
  end
  local kind, name = body:match('^([<>][<>])%s*(%S+)$')
  if kind == '>>' or kind == '<<' then
    return kind, name
  end
  return nil
end

-- the lines strictly between `>> marker` and `<< marker` in path, and the
-- line numbers of the first and last of them
local function extract_marker(path, marker)
  local lines = read_lines(path)
  if not lines then
    fail('code include: cannot read file "%s" (marker "%s")', path, marker)
  end
  local open_at, close_at
  local known, seen = {}, {}
  for i, line in ipairs(lines) do
    local kind, name = marker_of(line)
    if kind == '>>' and not seen[name] then
      seen[name] = true
      known[#known + 1] = name
    end
    if name == marker then
      if kind == '>>' then
        if open_at then
          fail('code include: marker "%s" is opened twice in %s (lines %d and %d)',
               marker, path, open_at, i)
        end
        open_at = i
      else
        if not open_at then
          fail('code include: marker "%s" is closed at %s:%d before it is opened',
               marker, path, i)
        end
        if close_at then
          fail('code include: marker "%s" is closed twice in %s (lines %d and %d)',
               marker, path, close_at, i)
        end
        close_at = i
      end
    end
  end
  if not open_at then
    fail('code include: unknown marker "%s" in %s (its markers: %s)', marker, path,
         #known > 0 and table.concat(known, ', ') or 'none')
  end
  if not close_at then
    fail('code include: marker "%s" opened at %s:%d is never closed (no "<< %s" line)',
         marker, path, open_at, marker)
  end

  local body = {}
  local first, last
  for i = open_at + 1, close_at - 1 do
    if not marker_of(lines[i]) then       -- nested regions' marker lines
      body[#body + 1] = lines[i]
      if not is_blank(lines[i]) then
        first = first or i
        last = i
      end
    end
  end
  if not first then
    fail('code include: marker "%s" in %s encloses no code', marker, path)
  end
  return dedent(trim_blank_ends(body)), first, last
end

local function include_code(el)
  local path = el.attributes.include
  local marker = el.attributes.marker
  if path == nil or path == '' then
    fail('code block with marker="%s" but no include="FILE"', marker)
  end
  if not is_blank(el.text) then
    fail('code include of %s (marker "%s"): the block must be empty', path, marker or '')
  end

  local lines, first, last
  if marker and marker ~= '' then
    lines, first, last = extract_marker(path, marker)
  else
    lines = read_lines(path)
    if not lines then
      fail('code include: cannot read file "%s"', path)
    end
    first, last = 1, #lines
    local kept = {}
    for _, line in ipairs(lines) do
      if not marker_of(line) then          -- the marker lines are not code
        kept[#kept + 1] = line
      end
    end
    lines = trim_blank_ends(kept)
  end

  local code = pandoc.CodeBlock(table.concat(lines, '\n'),
                                pandoc.Attr(el.identifier, el.classes,
                                            attributes_without(el, {include = true, marker = true})))
  local label = {pandoc.Code(path)}
  if marker and marker ~= '' then
    label[#label + 1] = pandoc.Str(' \u{b7} ')
    label[#label + 1] = pandoc.Span({pandoc.Str(marker)}, pandoc.Attr('', {'marker'}))
  end
  if first == last then
    label[#label + 1] = pandoc.Str(string.format(' \u{b7} line %d', first))
  else
    label[#label + 1] = pandoc.Str(string.format(' \u{b7} lines %d\u{2013}%d', first, last))
  end
  local attrs = {{'file', path}}
  if marker and marker ~= '' then
    attrs[2] = {'marker', marker}
  end
  return pandoc.Div({caption(label), code}, pandoc.Attr('', {'listing'}, attrs))
end

-- ---------------------------------------------------------------------------
-- 2. The story's output

local function include_output(el)
  if not is_blank(el.text) then
    return nil                              -- a hand-written output block: leave it
  end
  local chapter = el.attributes.chapter or config.chapter
  if chapter == nil or chapter == '' then
    fail('output block without chapter="NN" (and the page is not a chapter)')
  end
  local path = config.docs_dir .. '/out/ch' .. chapter .. '.txt'
  local lines = read_lines(path)
  if not lines then
    fail('output block: cannot read "%s" (the output of chapter %s\'s program)', path, chapter)
  end

  local from, to = el.attributes.from, el.attributes.to
  local first, last = 1, #lines
  if from then
    first = nil
    for i, line in ipairs(lines) do
      if line:find(from, 1, true) then
        first = i
        break
      end
    end
    if not first then
      fail('output block: no line of chapter %s\'s output (%s) contains from="%s"',
           chapter, path, from)
    end
  end
  if to then
    last = nil
    for i = first + 1, #lines do
      if lines[i]:find(to, 1, true) then
        last = i - 1
        break
      end
    end
    if not last then
      fail('output block: no line of chapter %s\'s output (%s) after "%s" contains to="%s"',
           chapter, path, from or '(start)', to)
    end
  end
  local excerpt = {}
  for i = first, last do
    excerpt[#excerpt + 1] = lines[i]
  end
  excerpt = trim_blank_ends(excerpt)

  local program = (chapter == config.chapter and config.program) or ('ch' .. chapter)
  local label = {pandoc.Str('Output of '), pandoc.Code(program)}
  if from or to then
    label[#label + 1] = pandoc.Str(string.format(' (%s%s)', from and ('from \u{201c}' .. from .. '\u{201d}') or 'start',
                                                 to and (' to \u{201c}' .. to .. '\u{201d}') or ' to the end'))
  end
  local code = pandoc.CodeBlock(table.concat(excerpt, '\n'),
                                pandoc.Attr(el.identifier, {'output'}))
  return pandoc.Div({caption(label), code},
                    pandoc.Attr('', {'listing', 'story-output'}, {{'chapter', chapter}}))
end

local function CodeBlock(el)
  if el.attributes.include or el.attributes.marker then
    return include_code(el)
  end
  if el.classes:includes('output') then
    return include_output(el)
  end
  return nil
end

-- ---------------------------------------------------------------------------
-- 3. The table of chapters and the list of source documents (index page)

local has_citations = false     -- (5. below)

-- the div's class, and the metadata key naming the file make book generates
local generated_divs = {
  {'chapter-list', 'mbd-chapter-list', 'chapter_list'},
  {'source-list', 'mbd-source-list', 'source_list'},
}

local function Div(div)
  for _, d in ipairs(generated_divs) do
    local class, key, field = d[1], d[2], d[3]
    if div.classes:includes(class) then
      local path = config[field]
      if not path then
        fail('a %s div needs the metadata %s (make book passes it)', class, key)
      end
      local f = io.open(path, 'r')
      if not f then
        fail('%s: cannot read "%s"', class, path)
      end
      local text = f:read('a')
      f:close()
      div.content = pandoc.read(text, 'markdown').blocks
      -- count the citations read here (the Cite function of this pass does
      -- not visit what a Div function returns)
      pandoc.walk_block(div, {Cite = function() has_citations = true end})
      return div
    end
  end
  return nil
end

-- A pipe table with a row longer than pandoc's line width gets relative column
-- widths from the dashes of its separator line, equal widths as a rule; that
-- makes a short first column ("Where") as wide as a column of sentences.  Let
-- the browser size the columns to their contents instead.  This runs in a
-- pass of its own, after the last, so it also sees the chapter list.
local function Table(tbl)
  for i, spec in ipairs(tbl.colspecs) do
    tbl.colspecs[i] = {spec[1], nil}
  end
  return pandoc.Div({tbl}, pandoc.Attr('', {'table-wrap'}))
end

-- ---------------------------------------------------------------------------
-- 4. Figures

local function Image(img)
  local src = img.src
  -- absolute URLs, absolute paths and data: URIs are not ours to check
  if src:match('^%a[%w+.-]*:') or src:match('^/') then
    return nil
  end
  local path = config.docs_dir .. '/' .. src:gsub('[?#].*$', '')
  local f = io.open(path, 'r')
  if not f then
    fail('figure "%s" does not exist (looked for %s): does the program draw it?', src, path)
  end
  local size = f:seek('end')
  f:close()
  if size == 0 then
    fail('figure "%s" is empty (%s)', src, path)
  end
  return nil
end

-- ---------------------------------------------------------------------------
-- 5. The bibliography.  A page that cites gets a "References" section at the
-- end, its heading at the level of the page's top sections (## when the page
-- has none), unless the text places a `::: {#refs}` div itself.  Citeproc,
-- which runs after this filter, fills the div.

local function Cite(cite)
  has_citations = true
  return nil
end

local function Pandoc(doc)
  if not has_citations then
    return nil
  end
  local top, has_refs = nil, false
  for _, block in ipairs(doc.blocks) do
    if block.t == 'Header' and (top == nil or block.level < top) then
      top = block.level
    end
    if block.t == 'Div' and block.identifier == 'refs' then
      has_refs = true
    end
  end
  if has_refs then
    return nil
  end
  doc.blocks:insert(pandoc.Header(top or 2, {pandoc.Str('References')},
                                  pandoc.Attr('references', {'unnumbered'})))
  doc.blocks:insert(pandoc.Div({}, pandoc.Attr('refs')))
  return doc
end

-- ---------------------------------------------------------------------------
-- The metadata is read in a first pass, before the blocks are visited.

local function Meta(meta)
  local function get(key)
    local v = meta[key]
    if v == nil then
      return nil
    end
    local s = pandoc.utils.stringify(v)
    return s ~= '' and s or nil
  end
  config.docs_dir = get('mbd-docs-dir') or config.docs_dir
  config.chapter = get('mbd-chapter')
  config.program = get('mbd-program')
  config.chapter_list = get('mbd-chapter-list')
  config.source_list = get('mbd-source-list')

  -- The template prints "Chapter 01" above the title, so a title that starts
  -- with its own number ("01 · The static penalty approach") loses it there.
  local title = meta.title
  -- (pandoc 2.17 gives MetaInlines as a plain list of inlines)
  if config.chapter and type(title) == 'table' and title[1] and
      title[1].t == 'Str' and title[1].text:gsub('[.:]$', '') == config.chapter then
    local rest = pandoc.List()
    for i = 2, #title do
      rest:insert(title[i])
    end
    -- drop the separator after the number: spaces and one of · - – — : .
    while #rest > 0 and (rest[1].t == 'Space' or
        (rest[1].t == 'Str' and rest[1].text:match('^[\u{b7}\u{2013}\u{2014}:.-]+$'))) do
      rest:remove(1)
    end
    if #rest > 0 then
      meta.title = pandoc.MetaInlines(rest)
      return meta
    end
  end
  return nil
end

return {
  {Meta = Meta},
  {CodeBlock = CodeBlock, Div = Div, Image = Image, Cite = Cite, Pandoc = Pandoc},
  {Table = Table},
}
