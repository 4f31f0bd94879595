/* robotscope web tester: plain JavaScript, no dependencies, no build step.
 *
 * Safety rule of this file: user data (the robots.txt, agents, URLs, server
 * answers) is only ever put into the page with textContent or as attribute
 * values through el(); innerHTML is never used. Every user-facing string
 * comes from static/i18n/<lang>.json through t().
 */
"use strict";

(function () {
  const LINE_HEIGHT = 20; // px, must match .editor textarea/.gutter in app.css
  const PAD_TOP = 8; // px, the editor's top padding in app.css
  const DEBOUNCE_MS = 300;
  const MAX_TEXT_BYTES = 1000 * 1000; // keep the JSON body under the server's 1 MiB cap
  const LANGS = ["en", "ko"];

  const $ = (id) => document.getElementById(id);
  const state = {
    lang: "en",
    strings: {},
    fallback: {},
    result: null,
    highlight: null,
    seq: 0,
    timer: null,
    crawlers: [],
    selftest: null,
    fetched: null,
    gen: { blocks: null, result: null, error: null, busy: false, used: false, seq: 0 },
  };

  // ---------- i18n ----------
  function t(key, params) {
    let s = state.strings[key];
    if (s === undefined) s = state.fallback[key];
    if (s === undefined) return key;
    if (params) {
      s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
    }
    return s;
  }

  async function loadStrings(lang) {
    const response = await fetch("/static/i18n/" + lang + ".json", { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error("i18n " + lang + ": " + response.status);
    return response.json();
  }

  async function setLanguage(lang) {
    if (!LANGS.includes(lang)) lang = "en";
    state.strings = lang === "en" ? state.fallback : await loadStrings(lang);
    state.lang = lang;
    document.documentElement.lang = lang;
    $("lang").value = lang;
    try { localStorage.setItem("robotscope.lang", lang); } catch (e) { /* storage may be disabled */ }
    applyStaticStrings();
    renderAll();
  }

  function applyStaticStrings() {
    document.title = t("app.title");
    for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
    for (const node of document.querySelectorAll("[data-i18n-aria-label]")) node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
    for (const node of document.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  }

  function initialLanguage() {
    try {
      const saved = localStorage.getItem("robotscope.lang");
      if (LANGS.includes(saved)) return saved;
    } catch (e) { /* ignore */ }
    const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    for (const l of langs) {
      const base = String(l).toLowerCase().split("-")[0];
      if (LANGS.includes(base)) return base;
    }
    return "en";
  }

  // ---------- DOM helper: text only ----------
  function el(tag, opts, children) {
    const node = document.createElement(tag);
    if (opts) {
      if (opts.cls) node.className = opts.cls;
      if (opts.text !== undefined && opts.text !== null) node.textContent = String(opts.text);
      if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
      if (opts.data) for (const [k, v] of Object.entries(opts.data)) node.dataset[k] = String(v);
      if (opts.on) for (const [k, v] of Object.entries(opts.on)) node.addEventListener(k, v);
    }
    for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function clear(node) { node.replaceChildren(); return node; }

  function lineText(n) {
    const lines = editorLines();
    return n >= 1 && n <= lines.length ? lines[n - 1] : "";
  }

  let cachedLines = null;
  function editorLines() {
    if (cachedLines === null) cachedLines = $("robots").value.split(/\r\n|\r|\n/);
    return cachedLines;
  }

  // A button that highlights line n in the editor, labelled "n: raw text".
  function lineLink(n, label) {
    const raw = label !== undefined ? label : lineText(n);
    return el("button", {
      cls: "line-link",
      attrs: { type: "button", title: t("common.showLine", { line: n }) },
      data: { line: n },
      on: { click: () => highlightLine(n, true) },
    }, [el("span", { cls: "ln", text: n }), raw === "" ? null : el("code", { text: raw })]);
  }

  // ---------- editor ----------
  function updateGutter() {
    const count = editorLines().length;
    const gutter = $("gutter");
    if (Number(gutter.dataset.count) !== count) {
      const numbers = [];
      for (let i = 1; i <= count; i++) numbers.push(i);
      gutter.textContent = numbers.join("\n") + "\n";
      gutter.dataset.count = String(count);
    }
    syncScroll();
  }

  function syncScroll() {
    const area = $("robots");
    $("gutter").scrollTop = area.scrollTop;
    positionBar();
  }

  function positionBar() {
    const bar = $("hl-bar");
    const n = state.highlight;
    if (!n) { bar.hidden = true; return; }
    const area = $("robots");
    bar.hidden = false;
    bar.style.top = (PAD_TOP + (n - 1) * LINE_HEIGHT - area.scrollTop) + "px";
  }

  function highlightLine(n, scroll) {
    const editor = $("editor");
    state.highlight = n || null;
    if (n) {
      editor.dataset.highlight = String(n);
      $("hl-bar").dataset.line = String(n);
      $("hl-bar").setAttribute("title", t("common.lineN", { line: n }));
    } else {
      delete editor.dataset.highlight;
      delete $("hl-bar").dataset.line;
    }
    for (const node of document.querySelectorAll(".line-link.active")) node.classList.remove("active");
    if (n) for (const node of document.querySelectorAll('.line-link[data-line="' + Number(n) + '"]')) node.classList.add("active");
    if (n && scroll) {
      const area = $("robots");
      const top = (n - 1) * LINE_HEIGHT;
      if (top < area.scrollTop || top > area.scrollTop + area.clientHeight - 2 * LINE_HEIGHT) {
        area.scrollTop = Math.max(0, top - area.clientHeight / 3);
      }
      editor.scrollIntoView({ block: "nearest" });
    }
    syncScroll();
  }

  function setText(text) {
    $("robots").value = text;
    cachedLines = null;
    state.highlight = null;
    highlightLine(null, false);
    updateGutter();
    schedule(0);
  }

  function readFile(file) {
    if (!file) return;
    if (file.size > MAX_TEXT_BYTES) { setStatus(t("status.tooLarge", { size: file.size }), "error"); return; }
    const reader = new FileReader();
    reader.onload = () => setText(String(reader.result));
    reader.onerror = () => setStatus(t("status.readError"), "error");
    reader.readAsText(file);
  }

  function setStatus(text, kind) {
    const status = $("status");
    status.textContent = text;
    status.className = "status" + (kind ? " " + kind : "");
  }

  // ---------- sharing through the URL hash ----------
  function b64urlEncode(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function b64urlDecode(text) {
    const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
    return bytes;
  }

  async function pipe(bytes, stream) {
    const out = new Blob([bytes]).stream().pipeThrough(stream);
    return new Uint8Array(await new Response(out).arrayBuffer());
  }

  function currentQuery() {
    return { t: $("robots").value, a: $("agent").value, u: $("urls").value, p: $("paths").value };
  }

  async function encodeState() {
    const json = new TextEncoder().encode(JSON.stringify(currentQuery()));
    if (typeof CompressionStream === "function") {
      try { return "z=" + b64urlEncode(await pipe(json, new CompressionStream("deflate-raw"))); } catch (e) { /* fall through */ }
    }
    return "j=" + b64urlEncode(json);
  }

  async function decodeState(hash) {
    const params = new URLSearchParams(hash.replace(/^#/, ""));
    let bytes = null;
    if (params.has("z") && typeof DecompressionStream === "function") bytes = await pipe(b64urlDecode(params.get("z")), new DecompressionStream("deflate-raw"));
    else if (params.has("j")) bytes = b64urlDecode(params.get("j"));
    if (!bytes) return null;
    const data = JSON.parse(new TextDecoder().decode(bytes));
    return data && typeof data === "object" ? data : null;
  }

  let hashSeq = 0;
  async function updateHash() {
    const mine = ++hashSeq;
    const encoded = await encodeState();
    if (mine !== hashSeq) return;
    const url = new URL(window.location.href);
    url.hash = encoded;
    history.replaceState(null, "", url.toString());
  }

  // ---------- API ----------
  async function api(path, body) {
    const init = body === undefined ? { method: "GET" } : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    };
    const response = await fetch(path, init);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const err = new Error((data && data.error && data.error.message) || response.statusText);
      err.code = data && data.error ? data.error.code : "http-" + response.status;
      err.detail = data && data.error ? data.error : null;
      throw err;
    }
    return data;
  }

  function linesOf(id) {
    return $(id).value.split(/\r\n|\r|\n/).map((s) => s.trim()).filter((s) => s.length > 0);
  }

  function schedule(delay) {
    clearTimeout(state.timer);
    state.timer = setTimeout(analyse, delay === undefined ? DEBOUNCE_MS : delay);
  }

  async function analyse() {
    const text = $("robots").value;
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > MAX_TEXT_BYTES) { setStatus(t("status.tooLarge", { size: bytes }), "error"); return; }
    const mine = ++state.seq;
    document.body.dataset.busy = "1";
    try {
      const result = await api("/api/analyse", {
        text, agent: $("agent").value, urls: linesOf("urls").slice(0, 100), paths: linesOf("paths").slice(0, 20),
      });
      if (mine !== state.seq) return;
      state.result = result;
      renderAll();
      const first = result.verdicts.find((v) => v.line);
      if (first) highlightLine(first.line, false);
      else if (state.highlight && state.highlight > result.structure.line_count) highlightLine(null, false);
      updateHash();
    } catch (err) {
      if (mine === state.seq) setStatus(t("status.error", { message: err.message }), "error");
    } finally {
      if (mine === state.seq) delete document.body.dataset.busy;
    }
  }

  // ---------- rendering ----------
  function renderAll() {
    renderStatus();
    renderAgentNote();
    renderVerdicts();
    renderFindings();
    renderStructure();
    renderMatrix();
    renderFetch();
    renderSelftest();
    renderGenerator();
    fillPolicies();
    highlightLine(state.highlight, false);
  }

  function renderStatus() {
    const r = state.result;
    if (!r) { setStatus(""); return; }
    const s = r.structure;
    let text = t("status.summary", { lines: s.line_count, groups: s.groups.length, rules: s.groups.reduce((n, g) => n + g.rules.length, 0), bytes: s.size });
    if (s.truncated) text += " " + t("status.truncated");
    setStatus(text, s.truncated ? "warn" : "");
  }

  function renderAgentNote() {
    const note = $("agent-note");
    const r = state.result;
    const crawler = r && r.agent ? r.agent.crawler : null;
    note.textContent = crawler ? t("matcher.recognised", { name: crawler.name, operator: crawler.operator, purpose: t("purpose." + crawler.purpose) }) : "";
  }

  function reasonText(v) {
    const params = { line: v.line, length: v.rule ? v.rule.length : "", count: v.candidates.length, token: v.agent_token };
    return t("reason." + v.reason, params);
  }

  function renderVerdicts() {
    const box = clear($("verdicts"));
    const r = state.result;
    if (!r) return;
    if (!$("agent").value.trim() || !linesOf("urls").length) {
      box.append(el("p", { cls: "hint", text: t("matcher.empty") }));
      return;
    }
    for (const v of r.verdicts) {
      const card = el("article", { cls: "verdict " + (v.allowed ? "allowed" : "disallowed"), data: { line: v.line || "" } });
      card.append(el("header", { cls: "verdict-head" }, [
        el("strong", { cls: "verdict-word", text: v.allowed ? t("verdict.allowed") : t("verdict.disallowed") }),
        el("code", { cls: "verdict-url", text: v.url }),
      ]));
      card.append(el("p", { cls: "reason", text: reasonText(v) }));
      const facts = el("dl", { cls: "facts" });
      facts.append(el("dt", { text: t("verdict.decidingLine") }),
        el("dd", {}, [v.line ? lineLink(v.line) : el("span", { text: t("verdict.noLine") })]));
      facts.append(el("dt", { text: t("verdict.token") }), el("dd", {}, [el("code", { text: v.agent_token || "—" })]));
      const groupDd = el("dd", { cls: "links" });
      if (v.group_lines.length) for (const n of v.group_lines) groupDd.append(lineLink(n));
      else groupDd.append(el("span", { text: t("verdict.noGroup") }));
      facts.append(el("dt", { text: t("verdict.group") }), groupDd);
      facts.append(el("dt", { text: t("verdict.target") }), el("dd", {}, [el("code", { text: v.target })]));
      card.append(facts);
      if (v.candidates.length) {
        const table = el("table", { cls: "candidates" });
        table.append(el("caption", { text: t("verdict.candidates") }));
        table.append(el("thead", {}, [el("tr", {}, [
          el("th", { text: t("col.line") }), el("th", { text: t("col.rule") }), el("th", { text: t("col.normalised") }), el("th", { text: t("col.length") }),
        ])]));
        const body = el("tbody");
        v.candidates.forEach((c, i) => {
          body.append(el("tr", { cls: i === 0 ? "winner" : "" }, [
            el("td", {}, [lineLink(c.line, "")]),
            el("td", {}, [el("code", { text: (c.kind === "allow" ? "Allow: " : "Disallow: ") + c.pattern })]),
            el("td", {}, [el("code", { text: c.normalised })]),
            el("td", { cls: "num", text: c.length }),
          ]));
        });
        table.append(body);
        card.append(el("div", { cls: "scroll-x" }, [table]));
      } else {
        card.append(el("p", { cls: "hint", text: t("verdict.noCandidates") }));
      }
      card.addEventListener("click", (e) => { if (v.line && !e.target.closest("button")) highlightLine(v.line, true); });
      box.append(card);
    }
  }

  function renderFindings() {
    const list = clear($("findings"));
    const r = state.result;
    $("findings-count").textContent = r ? "(" + r.findings.length + ")" : "";
    if (!r) return;
    if (!r.findings.length) { list.append(el("li", { cls: "hint", text: t("findings.none") })); return; }
    for (const f of r.findings) {
      const item = el("li", { cls: "finding sev-" + f.severity });
      const head = el("button", {
        cls: "finding-head line-link",
        attrs: { type: "button" },
        data: { line: f.line || "" },
        on: { click: () => { if (f.line) highlightLine(f.line, true); } },
      }, [
        el("span", { cls: "badge " + f.severity, text: t("severity." + f.severity) }),
        el("span", { cls: "where", text: f.line ? t("common.lineN", { line: f.line }) : t("findings.wholeFile") }),
        el("code", { cls: "code", text: f.code }),
      ]);
      item.append(head, el("p", { cls: "message", text: f.message }), el("p", { cls: "fix" }, [el("span", { cls: "fix-label", text: t("findings.fix") + " " }), el("span", { text: f.fix })]));
      list.append(item);
    }
  }

  function renderStructure() {
    const box = clear($("structure"));
    const r = state.result;
    if (!r) return;
    const s = r.structure;
    if (!s.groups.length) box.append(el("p", { cls: "hint", text: t("structure.noGroups") }));
    for (const g of s.groups) {
      const agents = g.agents.length ? g.agents.join(", ") : t("structure.noToken");
      const section = el("details", { cls: "group", attrs: { open: "" } });
      section.append(el("summary", { text: t("structure.group", { n: g.position + 1, agents }) }));
      const items = el("ul", { cls: "links" });
      for (const n of g.agent_lines) items.append(el("li", { cls: "k-agent" }, [lineLink(n)]));
      for (const rule of g.rules) items.append(el("li", { cls: "k-" + rule.kind }, [lineLink(rule.line)]));
      for (const rec of g.records) items.append(el("li", { cls: "k-other" }, [lineLink(rec.line)]));
      if (!g.rules.length) items.append(el("li", { cls: "hint", text: t("structure.noRules") }));
      section.append(items);
      box.append(section);
    }
    const block = (title, entries, cls) => {
      if (!entries.length) return;
      box.append(el("h3", { text: title + " (" + entries.length + ")" }));
      const list = el("ul", { cls: "links " + (cls || "") });
      for (const e of entries.slice(0, 500)) list.append(el("li", {}, [lineLink(e.line), e.note ? el("span", { cls: "note", text: e.note }) : null]));
      box.append(list);
    };
    block(t("structure.sitemaps"), s.sitemaps.map((x) => ({ line: x.line })));
    block(t("structure.records"), s.records.filter((x) => x.group === null).map((x) => ({ line: x.line })));
    block(t("structure.ignored"), s.ignored.map((x) => ({ line: x.line, note: t("ignored." + x.reason) })), "ignored");
  }

  function renderMatrix() {
    const box = clear($("matrix"));
    const r = state.result;
    if (!r) return;
    const m = r.matrix;
    if (!m.paths.length) { box.append(el("p", { cls: "hint", text: t("matrix.empty") })); return; }
    const table = el("table", { cls: "matrix" });
    const headRow = el("tr", {}, [el("th", { text: t("col.crawler") })]);
    for (const p of m.paths) headRow.append(el("th", {}, [el("code", { text: p })]));
    table.append(el("thead", {}, [headRow]));
    for (const group of m.purposes) {
      const body = el("tbody");
      body.append(el("tr", { cls: "purpose" }, [el("th", { attrs: { colspan: m.paths.length + 1, scope: "rowgroup" }, text: t("purpose." + group.purpose) })]));
      for (const row of group.rows) {
        const c = row.crawler;
        const tr = el("tr", {}, [el("th", { attrs: { scope: "row" } }, [el("span", { cls: "token", text: c.token }), el("small", { text: c.operator })])]);
        for (const cell of row.cells) {
          const word = cell.allowed ? t("matrix.allowed") : t("matrix.blocked");
          const td = el("td", { cls: "cell " + (cell.allowed ? "allowed" : "disallowed") + (cell.changed ? " changed" : "") });
          if (cell.line) td.append(lineLink(cell.line, word));
          else td.append(el("span", { text: word }));
          if (cell.profile) { td.append(el("span", { cls: "profile", text: "*", attrs: { title: cell.profile } })); td.title = cell.profile; }
          tr.append(td);
        }
        body.append(tr);
      }
      table.append(body);
    }
    box.append(table);
  }

  // ---------- fetch panel ----------
  let policiesFilled = "";
  async function loadPolicies() {
    try {
      const data = await api("/api/policies");
      state.policies = data.policies;
      fillPolicies();
    } catch (e) { /* the select stays empty; the server default applies */ }
  }

  function fillPolicies() {
    const select = $("fetch-policy");
    if (!state.policies || policiesFilled === state.lang) return;
    const value = select.value || "rfc9309";
    clear(select);
    for (const p of state.policies) select.append(el("option", { attrs: { value: p.name }, text: t("policy." + p.name) }));
    select.value = value;
    policiesFilled = state.lang;
  }

  async function runFetch(event) {
    event.preventDefault();
    const url = $("fetch-url").value.trim();
    if (!url) return;
    const box = clear($("fetch-result"));
    box.append(el("p", { cls: "hint", text: t("fetch.loading") }));
    $("fetch-go").disabled = true;
    try {
      state.fetched = { ok: true, data: await api("/api/fetch", { url, policy: $("fetch-policy").value || "rfc9309" }) };
      if (state.fetched.data.text) setText(state.fetched.data.text);
    } catch (err) {
      state.fetched = { ok: false, error: err };
    } finally {
      $("fetch-go").disabled = false;
    }
    renderFetch();
  }

  function renderFetch() {
    const box = $("fetch-result");
    const f = state.fetched;
    if (!f) return;
    clear(box);
    if (!f.ok) {
      const err = f.error;
      const key = err.code === "refused-target" ? "fetch.refused" : "fetch.failed";
      box.append(el("p", { cls: "error", text: t(key, { message: err.message, address: err.detail ? err.detail.address : "" }) }));
      return;
    }
    const d = f.data;
    const facts = el("dl", { cls: "facts" });
    facts.append(el("dt", { text: t("fetch.robotsUrl") }), el("dd", {}, [el("code", { text: d.robots_url })]));
    facts.append(el("dt", { text: t("fetch.status") }), el("dd", { text: d.status === null ? t("fetch.noResponse") : d.status }));
    if (d.content_type) facts.append(el("dt", { text: t("fetch.contentType") }), el("dd", {}, [el("code", { text: d.content_type })]));
    facts.append(el("dt", { text: t("fetch.bytes") }), el("dd", { text: t(d.truncated ? "fetch.bytesTruncated" : "fetch.bytesN", { n: d.bytes_received }) }));
    if (d.error) facts.append(el("dt", { text: t("fetch.error") }), el("dd", { cls: "error", text: d.error.kind + ": " + d.error.message }));
    box.append(facts);
    box.append(el("h3", { text: t("fetch.chain") }));
    const chain = el("ol", { cls: "chain" });
    for (const hop of d.hops) chain.append(el("li", {}, [el("span", { cls: "badge status", text: hop.status }), el("code", { text: hop.url })]));
    if (!d.hops.length) chain.append(el("li", { cls: "hint", text: t("fetch.noHops") }));
    box.append(chain);
    box.append(el("h3", { text: t("fetch.decisions") }));
    const table = el("table", { cls: "decisions" });
    table.append(el("thead", {}, [el("tr", {}, [el("th", { text: t("col.policy") }), el("th", { text: t("col.decision") }), el("th", { text: t("col.why") })])]));
    const body = el("tbody");
    for (const [name, dec] of Object.entries(d.decisions)) {
      body.append(el("tr", { cls: "action-" + dec.action }, [
        el("th", { attrs: { scope: "row" }, text: t("policy." + name) }),
        el("td", {}, [el("span", { cls: "badge action", text: t("action." + dec.action) })]),
        el("td", { text: dec.explanation }),
      ]));
    }
    table.append(body);
    box.append(el("div", { cls: "scroll-x" }, [table]));
    box.append(el("p", { cls: "hint", text: d.text ? t("fetch.loaded") : t("fetch.notLoaded") }));
  }

  // ---------- self-test ----------
  async function runSelftest() {
    $("selftest-run").disabled = true;
    $("selftest-summary").textContent = t("selftest.running");
    try { state.selftest = await api("/api/selftest"); } catch (err) { state.selftest = { error: err.message }; }
    $("selftest-run").disabled = false;
    renderSelftest();
  }

  function renderSelftest() {
    const s = state.selftest;
    if (!s) return;
    const list = clear($("selftest"));
    if (s.error) { $("selftest-summary").textContent = t("status.error", { message: s.error }); return; }
    $("selftest-summary").textContent = t("selftest.summary", { passed: s.passed, total: s.total, failed: s.failed });
    $("selftest-summary").className = "summary " + (s.failed ? "bad" : "good");
    for (const c of s.cases) {
      const fmt = (x) => (x.allowed ? t("verdict.allowed") : t("verdict.disallowed")) + (x.line ? " · " + t("common.lineN", { line: x.line }) : "") + " · " + x.reason;
      list.append(el("li", { cls: "case " + (c.passed ? "pass" : "fail") }, [
        el("span", { cls: "badge " + (c.passed ? "pass" : "fail"), text: c.passed ? t("selftest.pass") : t("selftest.fail") }),
        el("code", { cls: "case-id", text: c.id }),
        el("span", { cls: "section", text: c.section }),
        el("p", { cls: "desc", text: c.description }),
        el("p", { cls: "detail", text: t("selftest.detail", { agent: c.agent, url: c.url, expected: fmt(c.expected), got: fmt(c.got) }) }),
      ]));
    }
  }

  // ---------- generator ----------
  // The form is drawn from state.gen.blocks (textareas hold one path per line),
  // so a language change redraws it without losing what was typed.
  const DEFAULT_BLOCKS = () => [{ agent: "*", allow: "", disallow: "/", comment: "" }];
  const PRESET_NOTES = ["block-ai-training", "allow-only", "root-only", "staging", "allow-all"];
  let genIds = 0;

  function splitLines(text) {
    return String(text).split(/\r\n|\r|\n/).map((s) => s.trim()).filter((s) => s.length > 0);
  }

  function specFromForm() {
    return {
      blocks: state.gen.blocks.map((b) => ({ agent: b.agent, allow: splitLines(b.allow), disallow: splitLines(b.disallow), comment: b.comment })),
      sitemaps: linesOf("gen-sitemaps"),
    };
  }

  function fillFromSpec(spec) {
    state.gen.blocks = spec.blocks.map((b) => ({ agent: b.agent, allow: b.allow.join("\n"), disallow: b.disallow.join("\n"), comment: b.comment || "" }));
    $("gen-sitemaps").value = spec.sitemaps.join("\n");
    renderGenBlocks();
  }

  function genField(labelKey, control) {
    const id = "gen-f" + (++genIds);
    control.id = id;
    return el("div", { cls: "field" }, [el("label", { attrs: { for: id }, text: t(labelKey) }), control]);
  }

  function renderGenBlocks() {
    const box = clear($("gen-blocks"));
    state.gen.blocks.forEach((block, i) => {
      const noRules = el("p", { cls: "hint gen-norules", text: t("gen.noRules") });
      const refresh = () => { noRules.hidden = splitLines(block.allow).length > 0 || splitLines(block.disallow).length > 0; };
      const bind = (node, key) => { node.value = block[key]; node.addEventListener("input", () => { block[key] = node.value; refresh(); }); return node; };
      const agent = bind(el("input", { cls: "gen-agent", attrs: { list: "crawler-list", autocomplete: "off", spellcheck: "false", placeholder: "*" } }), "agent");
      const allow = bind(el("textarea", { cls: "gen-allow", attrs: { rows: 2, wrap: "off", spellcheck: "false", placeholder: "/public/" } }), "allow");
      const disallow = bind(el("textarea", { cls: "gen-disallow", attrs: { rows: 2, wrap: "off", spellcheck: "false", placeholder: "/private/" } }), "disallow");
      const comment = bind(el("input", { cls: "gen-comment", attrs: { autocomplete: "off" } }), "comment");
      const remove = el("button", {
        cls: "gen-remove",
        attrs: { type: "button" },
        text: t("gen.removeBlock"),
        on: { click: () => { state.gen.blocks.splice(i, 1); renderGenBlocks(); } },
      });
      remove.disabled = state.gen.blocks.length < 2;
      const fieldset = el("fieldset", { cls: "gen-block" }, [
        el("legend", { text: t("gen.block", { n: i + 1 }) }),
        genField("gen.agent", agent),
        el("div", { cls: "gen-paths" }, [genField("gen.allow", allow), genField("gen.disallow", disallow)]),
        noRules,
        genField("gen.comment", comment),
        remove,
      ]);
      refresh();
      box.append(fieldset);
    });
  }

  function renderPresetNote() {
    const name = $("gen-preset").value;
    $("gen-only-field").hidden = name !== "allow-only";
    $("gen-preset-note").textContent = PRESET_NOTES.includes(name) ? t("gen.presetNote." + name) : "";
  }

  async function requestGenerate(body) {
    const mine = ++state.gen.seq;
    state.gen.busy = true;
    state.gen.used = false;
    $("generator-panel").dataset.busy = "1";
    $("gen-go").disabled = true;
    renderGenResult();
    try {
      const result = await api("/api/generate", body);
      if (mine !== state.gen.seq) return;
      state.gen.result = result;
      state.gen.error = null;
      if (body.preset !== undefined) fillFromSpec(result.spec);
    } catch (err) {
      if (mine !== state.gen.seq) return;
      state.gen.result = null;
      state.gen.error = err.message;
    } finally {
      if (mine === state.gen.seq) {
        state.gen.busy = false;
        delete $("generator-panel").dataset.busy;
        $("gen-go").disabled = false;
      }
    }
    renderGenResult();
  }

  function applyPreset() {
    renderPresetNote();
    const name = $("gen-preset").value;
    if (!name) {
      state.gen.blocks = DEFAULT_BLOCKS();
      $("gen-sitemaps").value = "";
      renderGenBlocks();
      requestGenerate({ spec: specFromForm() });
      return;
    }
    const agent = $("gen-only").value.trim();
    if (name === "allow-only" && !agent) {
      state.gen.result = null;
      state.gen.error = t("gen.onlyNeeded");
      renderGenResult();
      $("gen-only").focus();
      return;
    }
    requestGenerate(name === "allow-only" ? { preset: name, agent } : { preset: name });
  }

  function useInEditor() {
    const r = state.gen.result;
    if (!r) return;
    setText(r.text);
    state.gen.used = true;
    renderGenResult();
    $("editor-panel").scrollIntoView({ block: "start" });
  }

  function renderGenResult() {
    const box = clear($("gen-result"));
    const g = state.gen;
    $("gen-use").disabled = !g.result || g.busy;
    if (g.busy) { box.append(el("p", { cls: "hint", text: t("gen.working") })); return; }
    if (g.error) { box.append(el("p", { cls: "error", text: t("gen.failed", { message: g.error }) })); return; }
    const r = g.result;
    if (!r) return;
    for (const w of r.warnings) {
      const text = w.code === "other" ? w.message : t("gen.warning." + w.code);
      box.append(el("div", { cls: "callout danger gen-warning", attrs: { role: "alert" }, data: { code: w.code } }, [
        el("strong", { text: t("gen.warningLabel") + " " }), el("span", { text }),
      ]));
    }
    const failed = r.checks.filter((c) => !c.ok).length;
    box.append(el("p", { cls: "summary gen-verified " + (r.verified ? "good" : "bad"), text: r.verified ? t("gen.verified") : t("gen.notVerified", { count: failed }) }));
    box.append(el("h3", { text: t("gen.output") }));
    box.append(el("pre", { cls: "gen-text" }, [el("code", { text: r.text })]));
    if (g.used) box.append(el("p", { cls: "hint gen-used", text: t("gen.used") }));

    box.append(el("h3", { text: t("gen.roundTrip") }));
    const table = el("table", { cls: "gen-checks" });
    table.append(el("thead", {}, [el("tr", {}, [
      el("th", { text: t("col.crawler") }), el("th", { text: t("gen.url") }), el("th", { text: t("gen.intended") }),
      el("th", { text: t("gen.parsed") }), el("th", { text: t("col.line") }), el("th", { text: t("gen.holds") }),
    ])]));
    const word = (allowed) => (allowed ? t("matrix.allowed") : t("matrix.blocked"));
    for (const [kind, title] of [["rule", t("gen.rulesGroup")], ["crawler", t("gen.crawlersGroup")]]) {
      const rows = r.checks.filter((c) => c.kind === kind);
      if (!rows.length) continue;
      const body = el("tbody");
      body.append(el("tr", { cls: "purpose" }, [el("th", { attrs: { colspan: 6, scope: "rowgroup" }, text: title })]));
      for (const c of rows) {
        body.append(el("tr", { cls: "check " + (c.ok ? "ok" : "fail"), data: { agent: c.agent, allowed: c.allowed ? "1" : "0" } }, [
          el("th", { attrs: { scope: "row" } }, [el("code", { text: c.agent })]),
          el("td", {}, [el("code", { text: c.url })]),
          el("td", { cls: "cell " + (c.intended ? "allowed" : "disallowed"), text: word(c.intended) }),
          el("td", { cls: "cell parsed " + (c.allowed ? "allowed" : "disallowed"), text: word(c.allowed) }),
          el("td", { cls: "num", text: c.line || "—" }),
          el("td", {}, [el("span", { cls: "badge " + (c.ok ? "pass" : "fail"), text: c.ok ? t("gen.yes") : t("gen.no") })]),
        ]));
      }
      table.append(body);
    }
    box.append(el("div", { cls: "scroll-x" }, [table]));

    box.append(el("h3", { text: t("gen.findings", { count: r.findings.length }) }));
    const list = el("ul", { cls: "findings gen-findings" });
    if (!r.findings.length) list.append(el("li", { cls: "hint", text: t("gen.noFindings") }));
    for (const f of r.findings) {
      list.append(el("li", { cls: "finding sev-" + f.severity }, [
        el("div", { cls: "finding-head" }, [
          el("span", { cls: "badge " + f.severity, text: t("severity." + f.severity) }), " ",
          el("span", { cls: "where", text: f.line ? t("common.lineN", { line: f.line }) : t("findings.wholeFile") }), " ",
          el("code", { cls: "code", text: f.code }),
        ]),
        el("p", { cls: "message", text: f.message }),
        el("p", { cls: "fix" }, [el("span", { cls: "fix-label", text: t("findings.fix") + " " }), el("span", { text: f.fix })]),
      ]));
    }
    box.append(list);
  }

  function renderGenerator() {
    if (!state.gen.blocks) state.gen.blocks = DEFAULT_BLOCKS();
    renderGenBlocks();
    renderPresetNote();
    renderGenResult();
  }

  function startGenerator() {
    $("gen-preset").addEventListener("change", applyPreset);
    $("gen-only-apply").addEventListener("click", applyPreset);
    $("gen-only").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); applyPreset(); } });
    $("gen-add").addEventListener("click", () => {
      state.gen.blocks.push({ agent: "", allow: "", disallow: "", comment: "" });
      renderGenBlocks();
      const agents = document.querySelectorAll("#gen-blocks .gen-agent");
      agents[agents.length - 1].focus();
    });
    $("gen-go").addEventListener("click", () => requestGenerate({ spec: specFromForm() }));
    $("gen-use").addEventListener("click", useInEditor);
  }

  // ---------- crawlers ----------
  async function loadCrawlers() {
    try {
      const data = await api("/api/crawlers");
      const list = clear($("crawler-list"));
      for (const c of data.crawlers) {
        list.append(el("option", { attrs: { value: c.token, label: c.name + " — " + c.operator } }));
        if (c.user_agent && c.user_agent !== c.token) list.append(el("option", { attrs: { value: c.user_agent, label: c.token } }));
      }
    } catch (e) { /* the datalist stays empty */ }
  }

  // ---------- start ----------
  async function start() {
    state.fallback = await loadStrings("en");
    const area = $("robots");
    area.addEventListener("input", () => { cachedLines = null; updateGutter(); schedule(); });
    area.addEventListener("scroll", syncScroll);
    for (const id of ["agent", "urls", "paths"]) $(id).addEventListener("input", () => schedule());
    $("lang").addEventListener("change", (e) => setLanguage(e.target.value));
    $("load-sample").addEventListener("click", async () => {
      const response = await fetch("/static/sample.txt");
      setText(await response.text());
      if (!$("agent").value) $("agent").value = "Googlebot";
      if (!$("urls").value) $("urls").value = "/search/help\n/cart/checkout\n/files/report.pdf";
      schedule(0);
    });
    $("file-input").addEventListener("change", (e) => { readFile(e.target.files[0]); e.target.value = ""; });
    $("clear").addEventListener("click", () => setText(""));
    $("share").addEventListener("click", async () => {
      await updateHash();
      try { await navigator.clipboard.writeText(window.location.href); setStatus(t("status.copied")); } catch (e) { setStatus(t("status.shareInAddressBar")); }
    });
    const editor = $("editor");
    editor.addEventListener("dragover", (e) => { e.preventDefault(); editor.classList.add("drop"); });
    editor.addEventListener("dragleave", () => editor.classList.remove("drop"));
    editor.addEventListener("drop", (e) => {
      e.preventDefault();
      editor.classList.remove("drop");
      if (e.dataTransfer && e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
    });
    $("fetch-form").addEventListener("submit", runFetch);
    $("selftest-run").addEventListener("click", runSelftest);
    startGenerator();
    window.addEventListener("hashchange", restoreFromHash);
    if (typeof ResizeObserver === "function") new ResizeObserver(syncScroll).observe(area);

    await setLanguage(initialLanguage());
    loadCrawlers();
    loadPolicies();
    const restored = await restoreFromHash();
    if (!restored) {
      if (!$("paths").value) $("paths").value = "/";
      updateGutter();
      schedule(0);
    }
    document.body.dataset.ready = "1";
  }

  async function restoreFromHash() {
    if (!window.location.hash || window.location.hash.length < 3) return false;
    try {
      const data = await decodeState(window.location.hash);
      if (!data) return false;
      if (data.t === currentQuery().t && data.a === $("agent").value && data.u === $("urls").value && data.p === $("paths").value) return true;
      $("agent").value = typeof data.a === "string" ? data.a : "";
      $("urls").value = typeof data.u === "string" ? data.u : "";
      $("paths").value = typeof data.p === "string" ? data.p : "";
      setText(typeof data.t === "string" ? data.t : "");
      return true;
    } catch (e) {
      setStatus(t("status.badLink"), "error");
      return false;
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
