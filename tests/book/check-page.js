/* tests/book/check-page.js -- what the book test (tests/book/run.sh) asks of a
 * page once the browser has drawn it.  run.sh puts a copy of every page beside
 * it with this script added at the end of the body, and opens them all in
 * headless Chromium, each in a frame of a test page (as wide as the window
 * the page is checked in).  The verdict is one line per finding,
 *
 *   PASS what was checked
 *   FAIL what is wrong, and where
 *
 * and a last line "DONE"; it goes to the test page (postMessage), and into
 * the page itself as a <pre id="mbd-book-check"> for a page opened alone.
 * It checks, when the page's scripts, style sheets, images and fonts have
 * loaded:
 *   - math: every span.math was drawn by KaTeX (it holds a .katex), no
 *     formula is a KaTeX error (.katex-error: TeX that KaTeX cannot draw),
 *     no MathML is left outside KaTeX's own, no raw TeX ($...$, \(, \[,
 *     \command) is left in the text outside code, and KaTeX's fonts loaded;
 *   - width: nothing is cut off and nothing sticks out of the column.  A box
 *     whose content is wider than the box must scroll (overflow-x auto or
 *     scroll: code and output blocks, wide tables and formulas); no element
 *     sticks out of a box that clips it (overflow hidden or clip) or, outside
 *     any scrolling box, out of the page's column; a box that clips its top
 *     and bottom (a displayed formula) hides no text or line drawn there; and
 *     the page itself does not scroll sideways;
 *   - images: every <img> loaded.
 */
(function () {
  'use strict';

  var lines = [];
  function pass(msg) { lines.push('PASS ' + msg); }
  function fail(msg) { lines.push('FAIL ' + msg); }

  // a short description of an element, for messages: tag#id.class "text..."
  function describe(el) {
    var s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.classList && el.classList.length) s += '.' + Array.prototype.join.call(el.classList, '.');
    var text = (el.textContent || '').replace(/\s+/g, ' ').trim();
    if (text.length > 60) text = text.slice(0, 60) + '...';
    return s + (text ? ' "' + text + '"' : '');
  }

  function checkMath() {
    var spans = document.querySelectorAll('span.math');
    var drawn = 0, bad = 0;
    if (spans.length > 0 && typeof window.katex === 'undefined') {
      fail('math: ' + spans.length + ' formulas, but KaTeX did not load (katex/katex.min.js)');
      return;
    }
    spans.forEach(function (span) {
      var err = span.querySelector('.katex-error');
      if (err) {
        bad++;
        fail('math: KaTeX cannot draw "' + err.textContent.slice(0, 80) + '": ' +
             (err.getAttribute('title') || 'error'));
      } else if (!span.querySelector('.katex')) {
        bad++;
        fail('math: not drawn: ' + describe(span));
      } else {
        drawn++;
      }
    });
    // errors outside span.math too
    document.querySelectorAll('.katex-error').forEach(function (err) {
      if (!err.closest('span.math')) {
        bad++;
        fail('math: KaTeX error "' + err.textContent.slice(0, 80) + '": ' + (err.getAttribute('title') || ''));
      }
    });
    document.querySelectorAll('math').forEach(function (m) {
      if (!m.closest('.katex-mathml')) {
        bad++;
        fail('math: MathML that KaTeX did not draw: ' + describe(m));
      }
    });
    // raw TeX in the text, outside code, scripts and KaTeX's output
    var tex = /\$[^$\s][^$]*\$|\$\$|\\[()[\]]|\\[A-Za-z]{2,}/;
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var parent = node.parentElement;
      if (!parent || parent.closest('pre, code, script, style, .katex, #mbd-book-check'))
        continue;
      var m = node.data.match(tex);
      if (m) {
        bad++;
        fail('math: raw TeX "' + m[0].slice(0, 40) + '" in ' + describe(parent));
      }
    }
    // KaTeX's fonts, from katex/fonts beside the page
    if (document.fonts) {
      var mainFont = false;
      document.fonts.forEach(function (face) {
        if (face.status === 'error') {
          bad++;
          fail('math: the font ' + face.family + ' (' + face.style + ', ' + face.weight + ') did not load');
        }
        if (face.family.replace(/["']/g, '') === 'KaTeX_Main' && face.status === 'loaded')
          mainFont = true;
      });
      if (drawn > 0 && !mainFont) {
        bad++;
        fail('math: KaTeX\'s font KaTeX_Main did not load (katex/fonts/)');
      }
    }
    if (bad === 0 && drawn === 0)
      pass('math: none on the page, and no raw TeX');
    else if (bad === 0)
      pass('math: ' + drawn + ' formula' + (drawn === 1 ? '' : 's') + ' drawn by KaTeX in its fonts, ' +
           'no errors, no raw TeX');
  }

  function scrolls(style) {
    return style.overflowX === 'auto' || style.overflowX === 'scroll';
  }
  function clips(style) {
    return style.overflowX === 'hidden' || style.overflowX === 'clip';
  }

  // KaTeX's inner boxes clip and overlap on purpose (stretchy glyphs, struts,
  // the hidden MathML): of a formula, look at the whole and at its pieces
  // (.base, the parts a formula may break into, and .tag, an equation number)
  function katexInner(el) {
    var k = el.closest('.katex');
    if (!k || el === k)
      return false;
    var p = el.parentElement;
    return !(p && p.classList.contains('katex-html') &&
             (el.classList.contains('base') || el.classList.contains('tag')));
  }

  // what an element draws: the boxes of its text and of its pictures and rules
  // (KaTeX draws fraction bars and stretched brackets as borders and SVG)
  function ink(root) {
    var rects = [], range = document.createRange();
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/[^\s\u200b]/.test(node.data) || node.parentElement.closest('.katex-mathml'))
        continue;
      range.selectNodeContents(node);
      Array.prototype.push.apply(rects, Array.prototype.slice.call(range.getClientRects()));
    }
    root.querySelectorAll('svg, img, .frac-line, .hline, .rule, .overline-line, .underline-line')
      .forEach(function (el) {
        if (!el.closest('.katex-mathml'))
          rects.push(el.getBoundingClientRect());
      });
    return rects.filter(function (r) { return r.width > 0 || r.height > 0; });
  }

  function checkWidth() {
    var main = document.querySelector('main') || document.body;
    var mainBox = main.getBoundingClientRect();
    var mainStyle = getComputedStyle(main);
    // the column: main's box inside its border (its padding is margin enough)
    var colLeft = mainBox.left + parseFloat(mainStyle.borderLeftWidth);
    var colRight = mainBox.right - parseFloat(mainStyle.borderRightWidth);
    var bad = 0, scrolling = 0, shown = 0, limit = 10;
    var slack = 1;   // px: rounding of fractional layouts
    function problem(msg) {
      bad++;
      if (shown++ < limit)
        fail('width: ' + msg);
    }

    main.querySelectorAll('*').forEach(function (el) {
      if (katexInner(el))
        return;
      var style = getComputedStyle(el);
      if (style.display === 'none')
        return;
      // inside a box that scrolls sideways, anything may be as wide as it likes
      var a, as;
      for (a = el.parentElement; a && a !== main; a = a.parentElement) {
        if (scrolls(getComputedStyle(a)))
          return;
      }
      // a box too narrow for its content: it must scroll (a piece of a
      // formula is not a box: KaTeX lets subscripts hang 2 px over)
      if (style.display !== 'inline' && el.clientWidth > 0 && !el.closest('.katex-html') &&
          el.scrollWidth > el.clientWidth + slack) {
        if (scrolls(style)) {
          scrolling++;
        } else if (clips(style)) {
          problem('cut off: ' + describe(el) + ' shows ' + el.clientWidth + ' of its ' +
                  el.scrollWidth + ' px (overflow-x: ' + style.overflowX + ')');
          return;
        } else {
          problem(describe(el) + ': its content, ' + el.scrollWidth + ' px wide, spills out of its ' +
                  el.clientWidth + ' px');
          return;
        }
      }
      // a box that clips its top or bottom must not hide anything drawn there
      // (KaTeX's invisible struts may reach beyond it: they are not drawn)
      if ((style.overflowY === 'hidden' || style.overflowY === 'clip') && el.clientHeight > 0 &&
          el.scrollHeight > el.clientHeight + slack) {
        var eb = el.getBoundingClientRect();
        var top = eb.top + parseFloat(style.borderTopWidth);
        var bottom = top + el.clientHeight;
        var over = ink(el).filter(function (r) {
          return r.top < top - slack || r.bottom > bottom + slack;
        });
        if (over.length > 0)
          problem('cut off at the top or bottom: ' + describe(el) + ' shows ' +
                  Math.round(top) + '..' + Math.round(bottom) + ' px, but draws ' +
                  Math.round(over[0].top) + '..' + Math.round(over[0].bottom) + ' px');
      }
      // the element itself: inside the box that clips it, or else the column
      var box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0)
        return;
      for (a = el.parentElement; a && a !== main; a = a.parentElement) {
        as = getComputedStyle(a);
        if (clips(as)) {
          var ab = a.getBoundingClientRect();
          if (box.right > ab.right + slack || box.left < ab.left - slack)
            problem(describe(el) + ' is cut off by ' + describe(a));
          return;
        }
      }
      if (box.right > colRight + slack || box.left < colLeft - slack) {
        problem(describe(el) + ' sticks out of the column (' + Math.round(box.left) + '..' +
                Math.round(box.right) + ' px; the column is ' + Math.round(colLeft) + '..' +
                Math.round(colRight) + ' px)');
      }
    });
    var doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + slack) {
      // what reaches past the window's right edge, outside scrolling boxes
      var culprits = [];
      document.body.querySelectorAll('*').forEach(function (el) {
        if (culprits.length >= 3 || el.getBoundingClientRect().right <= doc.clientWidth + slack)
          return;
        // (a box that scrolls or clips holds its content in, but not what is
        // positioned absolutely against a box outside it)
        var loose = /absolute|fixed/.test(getComputedStyle(el).position);
        for (var a = el.parentElement; a && a !== document.body && !loose; a = a.parentElement) {
          var as = getComputedStyle(a);
          if (scrolls(as) || clips(as))
            return;
        }
        culprits.push(describe(el) + ' (to ' + Math.round(el.getBoundingClientRect().right) + ' px)');
      });
      problem('the page scrolls sideways: it is ' + doc.scrollWidth + ' px wide in a window of ' +
              doc.clientWidth + ' px' + (culprits.length ? ': ' + culprits.join(', ') : ''));
    }
    if (shown > limit)
      fail('width: ... and ' + (shown - limit) + ' more');
    if (bad === 0)
      pass('width: nothing cut off or outside the column in a ' + doc.clientWidth + ' px window (' +
           scrolling + ' wide block' + (scrolling === 1 ? '' : 's') + ' scroll sideways)');
  }

  function checkImages() {
    var bad = 0, n = 0;
    document.querySelectorAll('img').forEach(function (img) {
      n++;
      if (!img.complete || img.naturalWidth === 0) {
        bad++;
        fail('image: ' + img.getAttribute('src') + ' did not load');
      }
    });
    if (bad === 0)
      pass(n === 0 ? 'images: none on the page' : 'images: all ' + n + ' loaded');
  }

  function report() {
    try {
      checkMath();
      checkWidth();
      checkImages();
    } catch (e) {
      fail('the check itself failed: ' + e);
    }
    lines.push('DONE');
    var pre = document.createElement('pre');
    pre.id = 'mbd-book-check';
    pre.textContent = '\n' + lines.join('\n') + '\n';
    document.body.appendChild(pre);
    if (window.parent !== window)
      window.parent.postMessage({mbdBookCheck: location.href, lines: lines}, '*');
  }

  function whenReady() {
    // KaTeX draws on DOMContentLoaded; the layout is final when the fonts are in
    var fonts = document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve();
    fonts.then(function () { setTimeout(report, 0); });
  }
  if (document.readyState === 'complete')
    whenReady();
  else
    window.addEventListener('load', whenReady);
})();
