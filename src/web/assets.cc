#include "web/assets.h"

namespace errdex::web {

namespace {

// Light by default, dark when the reader's system prefers it; one column that reads on a phone.
constexpr std::string_view kStylesheet = R"css(:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --link: #0969da; --accent: #cf222e; --hit: #fff8c5; --hit-edge: #d4a72c;
  --kw: #cf222e; --st: #0a3069; --cm: #59636e; --nu: #0550ae; --dc: #8250df; --ph: #8250df;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
    --link: #4493f8; --accent: #ff7b72; --hit: #3a2f0b; --hit-edge: #bb8009;
    --kw: #ff7b72; --st: #a5d6ff; --cm: #9198a1; --nu: #79c0ff; --dc: #d2a8ff; --ph: #d2a8ff;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--link); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
header.top, main, footer.site { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
header.top { display: flex; gap: .75rem; align-items: baseline; padding-top: .75rem; padding-bottom: .75rem;
  border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; font-size: 1.15rem; color: var(--fg); }
header.top .tagline { color: var(--muted); font-size: .9rem; }
footer.site { color: var(--muted); font-size: .9rem; padding-top: 1.5rem; padding-bottom: 2rem; }
h1 { font-size: 1.6rem; line-height: 1.3; margin: 1rem 0 .75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .4rem; }
code, pre, textarea { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace; font-size: .9em; }
code { overflow-wrap: anywhere; }
.title-line { color: var(--muted); margin: 1.25rem 0 0; overflow-wrap: anywhere; }
.type { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.template { font-size: 1.1rem; white-space: pre-wrap; overflow-wrap: anywhere;
  border-left: 4px solid var(--accent); padding: .5rem .75rem; background: var(--panel); margin: .5rem 0; }
.ph { color: var(--ph); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.none { color: var(--muted); }
.qualified, .via, .rev, .reason, .where, .score, .input { color: var(--muted); }
.prose { white-space: pre-wrap; overflow-wrap: anywhere; }
blockquote.doc { margin: .5rem 0; padding: .25rem .75rem; border-left: 3px solid var(--line); color: var(--fg);
  white-space: pre-wrap; overflow-wrap: anywhere; }
pre.code { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .5rem 0;
  overflow-x: auto; line-height: 1.45; margin: .5rem 0; }
pre.code code { display: block; min-width: max-content; overflow-wrap: normal; }
pre.code .l { display: inline-block; min-width: 100%; padding-right: 1rem; vertical-align: top; }
pre.code .l.hit { background: var(--hit); box-shadow: inset 3px 0 0 var(--hit-edge); }
pre.code .n { display: inline-block; min-width: 3.5em; padding: 0 .75em 0 .5em; text-align: right; color: var(--muted);
  -webkit-user-select: none; user-select: none; }
pre.code .mark { display: inline-block; width: 1.25em; color: var(--accent); -webkit-user-select: none; user-select: none; }
.kw { color: var(--kw); font-weight: 600; } .st { color: var(--st); } .cm { color: var(--cm); font-style: italic; }
.nu { color: var(--nu); } .dc { color: var(--dc); }
.tag, .kind { display: inline-block; font-size: .75rem; padding: 0 .4rem; border: 1px solid var(--line);
  border-radius: 1rem; color: var(--muted); vertical-align: middle; }
.neg { color: var(--accent); font-size: .9rem; }
.label { color: var(--muted); font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; }
.fact { margin: .25rem 0 .75rem; }
.fact-head { overflow-wrap: anywhere; }
ul.facts, ul.sites, ul.tests, ul.related, ul.errors, ul.why { padding-left: 1.25rem; }
ul.errors li, ul.related li, ul.sites li, ul.tests li { margin: .3rem 0; overflow-wrap: anywhere; }
.error-footer { margin-top: 2.5rem; padding-top: .75rem; border-top: 1px solid var(--line); color: var(--muted);
  font-size: .9rem; overflow-wrap: anywhere; }
form.search { display: flex; flex-direction: column; gap: .5rem; }
form.search label { font-weight: 600; }
textarea { width: 100%; min-height: 10rem; padding: .6rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--bg); color: var(--fg); resize: vertical; }
button, select, input[type=search] { font: inherit; padding: .4rem .8rem; border: 1px solid var(--line);
  border-radius: 6px; background: var(--panel); color: var(--fg); }
button { cursor: pointer; align-self: flex-start; font-weight: 600; }
form.filter { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0 1rem; }
form.filter select { max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top;
  overflow-wrap: anywhere; }
td.num { text-align: right; }
table.bindings { width: auto; margin: .4rem 0; }
table.bindings caption { text-align: left; color: var(--muted); font-size: .85rem; }
ol.matches > li { margin: 0 0 1.25rem; }
.match-head { font-size: 1.05rem; overflow-wrap: anywhere; }
li.closest .match-head { opacity: .85; }
.pager { margin: 1.5rem 0; display: flex; gap: 1rem; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  h1 { font-size: 1.3rem; }
  table.repos th:nth-child(4), table.repos td:nth-child(4) { display: none; }
}
)css";

// Search on a static copy of the site. The form posts to the server when there is one; on a static
// host there is none, so this script searches the exported index in the browser instead. It builds
// every element with textContent: nothing from the index is ever parsed as HTML.
constexpr std::string_view kScript = R"js(// errdex: client-side search for a static copy of the site (docs/web.md).
(function () {
  'use strict';
  var form = document.getElementById('search-form');
  var out = document.getElementById('client-results');
  if (!form || !out || !window.fetch) return;
  var mode = null;
  var index = null;

  // A server answers POST api/match with JSON (400 for an empty paste); a static host does not.
  function probe() {
    if (mode) return Promise.resolve(mode);
    return fetch('api/match', {method: 'POST', body: '', headers: {'Content-Type': 'text/plain'}})
      .then(function (r) {
        var type = r.headers.get('Content-Type') || '';
        return type.indexOf('application/json') === 0 ? 'server' : 'static';
      }, function () { return 'static'; })
      .then(function (m) { mode = m; return m; });
  }

  function loadIndex() {
    if (index) return Promise.resolve(index);
    return fetch('api/search-index.json').then(function (r) {
      if (!r.ok) throw new Error('no search index');
      return r.json();
    }).then(function (j) { index = j; return j; });
  }

  function normalize(s) { return String(s || '').replace(/\s+/g, ' ').trim(); }
  function words(s) { return normalize(s).toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) || []; }

  // The literal pieces of a template: text between {placeholders}; doubled braces are literal.
  function pieces(template) {
    var out = [], cur = '', i = 0, t = String(template || '');
    while (i < t.length) {
      var c = t[i];
      if ((c === '{' || c === '}') && t[i + 1] === c) { cur += c; i += 2; continue; }
      if (c === '{') {
        var depth = 1, j = i + 1;
        while (j < t.length && depth > 0) { if (t[j] === '{') depth++; else if (t[j] === '}') depth--; j++; }
        if (depth === 0) { out.push(cur); cur = ''; i = j; continue; }
      }
      cur += c; i++;
    }
    out.push(cur);
    return out.map(normalize).filter(function (p) { return p.length > 0; });
  }

  function score(entry, text, textWords) {
    var lits = pieces(entry[3]);
    var pos = 0, found = 0, total = 0, all = lits.length > 0;
    lits.forEach(function (p) {
      total += p.length;
      var k = text.indexOf(p, pos);
      if (k >= 0) { found += p.length; pos = k + p.length; } else { all = false; }
    });
    var s = total ? found / total : 0;
    if (all && total >= 4) s += 1;
    var mine = {};
    words((entry[3] || '') + ' ' + (entry[2] || '')).forEach(function (w) { mine[w] = true; });
    var common = 0;
    textWords.forEach(function (w) { if (mine[w]) common++; });
    if (textWords.length) s += 0.5 * common / textWords.length;
    var type = String(entry[2] || '').split('.').pop();
    if (type && text.indexOf(type) >= 0) s += 0.2;
    return s;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function show(results) {
    out.textContent = '';
    out.appendChild(el('h2', '', results.length ? 'Matches in this copy of the catalog'
                                                : 'No error of the catalog matches this input'));
    var list = el('ol', 'matches');
    results.forEach(function (r) {
      var e = r.entry, li = el('li', 'match'), head = el('div', 'match-head');
      var label = (e[2] ? e[2] + ': ' : '') + (e[3] || '(no message)');
      if (/^[0-9a-f]{16}$/.test(String(e[0]))) {
        var a = el('a', '', label);
        a.href = 'errors/' + e[0] + '.html';
        head.appendChild(a);
      } else {
        head.textContent = label;
      }
      li.appendChild(head);
      li.appendChild(el('div', 'where', e[1] + ' · ' + e[4] + ':' + e[5]));
      list.appendChild(li);
    });
    out.appendChild(list);
    out.hidden = false;
  }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var text = normalize(form.elements.q.value);
    probe().then(function (m) {
      if (m === 'server') { form.submit(); return; }
      return loadIndex().then(function (ix) {
        var textWords = words(text);
        var ranked = (ix.errors || []).map(function (entry) {
          return {entry: entry, score: score(entry, text, textWords)};
        }).filter(function (r) { return r.score >= 0.45; });
        ranked.sort(function (a, b) { return b.score - a.score; });
        show(ranked.slice(0, 10));
      });
    }).catch(function () {
      out.textContent = 'Search is not available on this copy of the site.';
      out.hidden = false;
    });
  });
})();
)js";

}  // namespace

std::string_view StylesheetCss() { return kStylesheet; }
std::string_view SearchScriptJs() { return kScript; }

}  // namespace errdex::web
