"use strict";
(function () {
  const PAGE = 20;
  const STATUS = { m: "match", c: "clip", x: "miss" };
  const LABEL = { match: "matched", clip: "clipped (beyond the reference count)", miss: "not in any reference" };
  const byId = (id) => document.getElementById(id);
  let data = null;
  let rows = [];
  const state = { q: "", sys: -1, sort: "seg", a: 0, b: 1, metric: 0, order: 1, page: 0 };

  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    for (const kid of kids) node.append(kid);
    return node;
  }

  async function unpack() {
    const text = byId("bv-data").textContent.trim();
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function haystack(seg) {
    seg.hay = [seg.src || "", ...seg.refs, String(seg.id), seg.doc || ""].join("\n").toLowerCase();
    seg.hayHyps = seg.hyps.map((h) => h.t.toLowerCase());
  }

  function matches(seg, q) {
    if (!q || seg.hay.includes(q)) return true;
    return state.sys >= 0 ? seg.hayHyps[state.sys].includes(q) : seg.hayHyps.some((h) => h.includes(q));
  }

  function errAttrs(e) {
    return { class: "bv-err", "data-severity": e[3], "data-category": e[4], "data-rater": e[5],
      "data-annotations": data.spans[e[0]] || "", title: `${e[3]} ${e[4]}`.trim() + (e[5] ? ` (${e[5]})` : "") };
  }

  function wrap(text, errs) {
    let node = document.createTextNode(text);
    for (const e of errs) node = el("span", errAttrs(e), node);
    return node;
  }

  function tokenElement(status) {
    return el("span", { class: "bv-tok", "data-status": status, title: LABEL[status] });
  }

  function hypothesisLine(h) {
    const K = data.order;
    const status = (t) => STATUS[h.k[t * K + state.order - 1]] || "miss";
    const line = el("div", { class: "bv-line" });
    if (!h.o) {
      h.w.forEach((tok, t) => {
        if (t) line.append(" ");
        const node = tokenElement(status(t));
        node.textContent = tok;
        line.append(node);
      });
      return line;
    }
    const chars = Array.from(h.t);
    const tokens = [];
    let end = 0;
    for (let i = 0; i < h.o.length; i += 2) {
      const start = end + h.o[i];
      end = start + h.o[i + 1];
      tokens.push([start, end]);
    }
    const errs = (h.e || []).filter((e) => e[6] === "t");
    const clamp = (v) => Math.max(0, Math.min(chars.length, v));
    const cuts = new Set([0, chars.length]);
    for (const [s, e] of tokens) { cuts.add(s); cuts.add(e); }
    for (const e of errs) { cuts.add(clamp(e[1])); cuts.add(clamp(e[2])); }
    const points = Array.from(cuts).sort((x, y) => x - y);
    let t = 0;
    let current = null;
    for (let i = 0; i + 1 < points.length; i++) {
      const a = points[i], b = points[i + 1];
      while (t < tokens.length && tokens[t][1] <= a) { t++; current = null; }
      const inside = t < tokens.length && tokens[t][0] <= a && b <= tokens[t][1];
      const piece = wrap(chars.slice(a, b).join(""), errs.filter((e) => e[1] < b && e[2] > a));
      if (inside) {
        if (!current) { current = tokenElement(status(t)); line.append(current); }
        current.append(piece);
      } else {
        current = null;
        line.append(piece);
      }
    }
    return line;
  }

  function chips(h, seg) {
    const box = el("div", { class: "chips" });
    for (const e of h.e || []) {
      if (e[6] === "o") box.append(el("span", { ...errAttrs(e), class: "bv-err bv-omission" }, "‸ omission"));
      if (e[6] === "s") {
        const words = Array.from(seg.src || "").slice(e[1], e[2]).join("");
        box.append(el("span", errAttrs(e), `source: “${words}”`));
      }
    }
    if (!h.o && h.e) {
      const chars = Array.from(h.t);
      for (const e of h.e.filter((x) => x[6] === "t")) box.append(el("span", errAttrs(e), chars.slice(e[1], e[2]).join("")));
    }
    for (const note of h.notes || []) {
      const marked = note.span ? ` “${Array.from(h.t).slice(note.span[0], note.span[1]).join("")}”` : "";
      const head = [note.author, note.category, note.severity || "comment"].filter(Boolean).join(" · ");
      box.append(el("div", { class: "bv-note", "data-category": note.category, "data-severity": note.severity },
        `note (${head})${marked}: ${note.text}`));
    }
    return box;
  }

  function scoreText(h) {
    return data.metrics.map((m, i) => `${m.label} ${h.sc[i] === null ? "–" : h.sc[i].toFixed(m.digits)}`).join(" · ");
  }

  function segmentElement(seg) {
    const diff = state.sort === "seg" ? null : difference(seg);
    const gap = diff === null ? "" : `${data.systems[state.a]} − ${data.systems[state.b]}: ${diff >= 0 ? "+" : ""}${diff.toFixed(data.metrics[state.metric].digits)} ${data.metrics[state.metric].label}`;
    const meta = [seg.id !== String(seg.n) ? `id ${seg.id}` : "", seg.doc ? `document ${seg.doc}` : "", gap].filter(Boolean).join(" · ");
    const art = el("article", { class: "seg", id: `seg-${seg.n}`, "data-seg": seg.n },
      el("h3", {}, `Segment ${seg.n} `, el("span", { class: "meta" }, meta)));
    if (seg.src !== undefined) art.append(el("div", { class: "src" }, el("span", { class: "lbl" }, "source"), seg.src));
    seg.refs.forEach((r, i) => art.append(el("div", { class: "ref" }, el("span", { class: "lbl" }, `reference ${i + 1}`), r)));
    const table = el("table", { class: "hyps" });
    seg.hyps.forEach((h, s) => {
      if (state.sys >= 0 && s !== state.sys) return;
      const cell = el("td", {}, hypothesisLine(h), chips(h, seg));
      table.append(el("tr", { class: "hyp", "data-system": data.systems[s] },
        el("th", { scope: "row" }, data.systems[s], el("div", { class: "scores" }, scoreText(h))), cell));
    });
    art.append(table);
    return art;
  }

  function difference(seg) {
    const a = seg.hyps[state.a].sc[state.metric], b = seg.hyps[state.b].sc[state.metric];
    return a === null || b === null ? null : a - b;
  }

  function select() {
    const q = state.q.trim().toLowerCase();
    rows = data.segments.filter((seg) => matches(seg, q));
    if (state.sort !== "seg") {
      const sign = state.sort === "ab" ? 1 : -1;
      rows = rows.map((seg) => [seg, difference(seg)]).sort((x, y) => {
        if (x[1] === null || y[1] === null) return (x[1] === null) - (y[1] === null) || x[0].n - y[0].n;
        return sign * (y[1] - x[1]) || x[0].n - y[0].n;
      }).map((pair) => pair[0]);
    }
  }

  function pager(box) {
    box.replaceChildren();
    const pages = Math.max(1, Math.ceil(rows.length / PAGE));
    const prev = el("button", { type: "button" }, "← previous");
    const next = el("button", { type: "button" }, "next →");
    prev.disabled = state.page <= 0;
    next.disabled = state.page >= pages - 1;
    prev.addEventListener("click", () => { state.page--; render(); });
    next.addEventListener("click", () => { state.page++; render(); });
    box.append(prev, el("span", {}, `page ${state.page + 1} of ${pages}`), next);
  }

  function render() {
    const first = state.page * PAGE;
    const shown = rows.slice(first, first + PAGE);
    byId("bv-list").replaceChildren(...shown.map(segmentElement));
    const of = rows.length === data.segments.length ? "" : ` (of ${data.segments.length.toLocaleString("en")} held)`;
    byId("bv-status").textContent = rows.length
      ? `Segments ${first + 1}–${first + shown.length} of ${rows.length.toLocaleString("en")} shown${of}.`
      : "No segment matches.";
    pager(byId("bv-pager-top"));
    pager(byId("bv-pager"));
  }

  function update() { state.page = 0; select(); render(); }

  function openHash() {
    const m = /^#seg-(\d+)$/.exec(location.hash);
    if (!m || !data) return;
    const n = Number(m[1]);
    let at = rows.findIndex((seg) => seg.n === n);
    if (at < 0) {
      state.q = ""; state.sort = "seg"; state.sys = -1;
      byId("bv-search").value = ""; byId("bv-sort").value = "seg"; byId("bv-system").value = "-1";
      select();
      at = rows.findIndex((seg) => seg.n === n);
    }
    if (at < 0) {
      byId("bv-status").textContent = `Segment ${n} is not held in this report (see above).`;
      return;
    }
    state.page = Math.floor(at / PAGE);
    render();
    const target = byId(`seg-${n}`);
    target.classList.add("bv-target");
    target.scrollIntoView();
    // Segments off screen are not laid out (content-visibility): those brought on screen
    // by the scroll take their real height and move the target; scroll again once they have.
    requestAnimationFrame(() => requestAnimationFrame(() => target.scrollIntoView()));
  }

  function bind(id, key, parse) {
    const input = byId(id);
    input.addEventListener(id === "bv-search" ? "input" : "change", () => {
      state[key] = parse(input.value);
      if (key === "order" || (key === "sys" && !state.q.trim())) { state.page = Math.min(state.page, Math.max(0, Math.ceil(rows.length / PAGE) - 1)); render(); }
      else update();
    });
  }

  async function start() {
    data = await unpack();
    for (const seg of data.segments) haystack(seg);
    state.b = Math.min(1, data.systems.length - 1);
    bind("bv-search", "q", String);
    bind("bv-system", "sys", Number);
    bind("bv-sort", "sort", String);
    bind("bv-a", "a", Number);
    bind("bv-b", "b", Number);
    bind("bv-metric", "metric", Number);
    bind("bv-order", "order", Number);
    byId("bv-controls").hidden = false;
    select();
    if (/^#seg-\d+$/.test(location.hash)) openHash(); else render();
    window.addEventListener("hashchange", openHash);
    document.body.dataset.ready = "true";
  }

  start().catch((error) => { byId("bv-status").textContent = `The segments could not be unpacked: ${error}`; });
})();
