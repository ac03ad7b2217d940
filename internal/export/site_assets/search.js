// Search of a site written by `git context-tree export site`: no network,
// no library. The index (search-index.js) is loaded as a script on first
// use, since pages opened from file:// may load scripts but not fetch.
(function () {
  "use strict";
  var MAX_RESULTS = 20;
  var input, box, root, docs = null, loading = false, wanted = null;

  function start() {
    input = document.getElementById("search-input");
    box = document.getElementById("search-results");
    if (!input || !box) return;
    root = document.body.getAttribute("data-root") || "";
    input.addEventListener("focus", function () { load(null); });
    input.addEventListener("input", function () { query(input.value); });
    input.addEventListener("keydown", onInputKey);
    box.addEventListener("keydown", onResultKey);
  }

  function load(then) {
    if (docs) { if (then) then(); return; }
    if (then) wanted = then;
    if (loading) return;
    loading = true;
    var s = document.createElement("script");
    s.src = root + "_site/search-index.js";
    s.onload = function () {
      prepare(window.GCT_SEARCH_INDEX || []);
      if (wanted) { var w = wanted; wanted = null; w(); }
    };
    s.onerror = function () { status("The search index could not be loaded."); };
    document.head.appendChild(s);
  }

  function prepare(raw) {
    docs = raw.map(function (e, i) {
      return { order: i, page: e[0], title: e[1], desc: e[2], text: e[4], cites: e[5] || "",
        t: e[1].toLowerCase(), d: e[2].toLowerCase(), h: e[3].toLowerCase(), x: e[4].toLowerCase(),
        c: (e[5] || "").toLowerCase() };
    });
  }

  function query(q) {
    load(function () { show(q, input.value === q); });
  }

  // score: every term must occur; a title hit counts most, then headings,
  // the description, the text.
  function search(terms) {
    var hits = [];
    for (var i = 0; i < docs.length; i++) {
      var doc = docs[i], score = 0;
      for (var j = 0; j < terms.length; j++) {
        var term = terms[j], s = 0, at = doc.t.indexOf(term);
        if (at >= 0) s += at === 0 ? 12 : 10;
        if (doc.h.indexOf(term) >= 0) s += 4;
        if (doc.d.indexOf(term) >= 0) s += 3;
        if (doc.x.indexOf(term) >= 0) s += 1;
        if (doc.c.indexOf(term) >= 0) s += 6; // a code path the page cites
        if (s === 0) { score = 0; break; }
        score += s;
      }
      if (score > 0) hits.push({ doc: doc, score: score });
    }
    hits.sort(function (a, b) { return b.score - a.score || a.doc.order - b.doc.order; });
    return hits;
  }

  function show(q, current) {
    if (!current) return;
    var started = performance.now();
    var terms = q.toLowerCase().split(/\s+/).filter(Boolean);
    box.textContent = "";
    if (terms.length === 0) { document.body.removeAttribute("data-search-ms"); return; }
    var hits = search(terms);
    var p = document.createElement("p");
    p.className = "search-count";
    p.textContent = hits.length === 0 ? "No results." :
      hits.length + (hits.length === 1 ? " result" : " results") + (hits.length > MAX_RESULTS ? ", showing the first " + MAX_RESULTS : "");
    box.appendChild(p);
    if (hits.length > 0) {
      var ol = document.createElement("ol");
      for (var i = 0; i < hits.length && i < MAX_RESULTS; i++) ol.appendChild(item(hits[i].doc, terms));
      box.appendChild(ol);
    }
    var ms = performance.now() - started;
    document.body.setAttribute("data-search-ms", ms.toFixed(2));
  }

  function item(doc, terms) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = root + doc.page.split("/").map(encodeURIComponent).join("/");
    a.className = "search-result";
    var t = document.createElement("span");
    t.className = "result-title";
    t.textContent = doc.title;
    a.appendChild(t);
    var snip = snippet(doc, terms);
    if (snip) {
      var s = document.createElement("span");
      s.className = "result-snippet";
      s.textContent = snip;
      a.appendChild(s);
    }
    li.appendChild(a);
    return li;
  }

  function snippet(doc, terms) {
    var cited = doc.cites.split("\n");
    for (var k = 0; k < terms.length; k++) {
      for (var m = 0; m < cited.length; m++) {
        if (cited[m] && cited[m].toLowerCase().indexOf(terms[k]) >= 0 && doc.x.indexOf(terms[k]) < 0) return "Cites " + cited[m];
      }
    }
    for (var i = 0; i < terms.length; i++) {
      var at = doc.x.indexOf(terms[i]);
      if (at >= 0) {
        var from = Math.max(0, at - 50), to = Math.min(doc.text.length, at + 110);
        return (from > 0 ? "…" : "") + doc.text.slice(from, to) + (to < doc.text.length ? "…" : "");
      }
    }
    return doc.desc;
  }

  function links() { return box.querySelectorAll("a.search-result"); }

  function onInputKey(e) {
    var ls = links();
    if (e.key === "ArrowDown" && ls.length) { e.preventDefault(); ls[0].focus(); }
    else if (e.key === "Enter" && ls.length) { e.preventDefault(); ls[0].click(); }
    else if (e.key === "Escape") { input.value = ""; box.textContent = ""; }
  }

  function onResultKey(e) {
    var ls = Array.prototype.slice.call(links());
    var i = ls.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === "ArrowDown" && i + 1 < ls.length) { e.preventDefault(); ls[i + 1].focus(); }
    else if (e.key === "ArrowUp") { e.preventDefault(); (i > 0 ? ls[i - 1] : input).focus(); }
    else if (e.key === "Escape") { e.preventDefault(); input.focus(); }
  }

  function status(text) { box.textContent = text; }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
