/* The generator panel: build a robots.txt from blocks and sitemaps (or a
 * preset), and show the server's round trip: the text, its warnings, each
 * intended verdict checked on the parsed file, and its lint findings.
 *
 * The form is drawn from `blocks` (textareas hold one path per line), so a
 * new language redraws it without losing what was typed. Warnings and
 * findings are server texts: a new language asks for the last result again.
 */
import { $, clear, el, nonBlankLines } from "../dom.js";
import { setText } from "../editor.js";
import { lang, t } from "../i18n.js";
import { state } from "../state.js";
import { findingItem } from "./findings.js";

const defaultBlocks = () => [{ agent: "*", allow: "", disallow: "/", comment: "", usage: "", signal: "" }];

let backend = null;
const gen = {
  blocks: defaultBlocks(),
  asked: null, // the body of the last request, without lang
  result: null,
  error: null, // () => why the last request failed, in the current language
  busy: false,
  used: false, // the result was put into the editor
  seq: 0,
};
let fieldIds = 0;

export function startGenerator(theBackend) {
  backend = theBackend;
  fillPresets();
  $("gen-preset").addEventListener("change", applyPreset);
  $("gen-only-apply").addEventListener("click", applyPreset);
  $("gen-only").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); applyPreset(); }
  });
  $("gen-add").addEventListener("click", addBlock);
  $("gen-go").addEventListener("click", () => generate({ spec: specFromForm() }, false));
  $("gen-use").addEventListener("click", useInEditor);
}

export function relangGenerator() {
  if (gen.asked) generate(gen.asked, false, { keepUsed: true });
}

export function renderGenerator() {
  renderBlocks();
  renderPresetNote();
  renderResult();
}

function specFromForm() {
  return {
    blocks: gen.blocks.map((b) => ({
      agent: b.agent, allow: nonBlankLines(b.allow), disallow: nonBlankLines(b.disallow), comment: b.comment,
      // The AI usage preferences, only when given: a spec without them stays as it was.
      ...(nonBlankLines(b.usage).length ? { content_usage: nonBlankLines(b.usage) } : {}),
      ...(b.signal.trim() ? { content_signal: b.signal.trim() } : {}),
    })),
    sitemaps: nonBlankLines($("gen-sitemaps").value),
  };
}

function fillFromSpec(spec) {
  gen.blocks = spec.blocks.map((b) => ({
    agent: b.agent, allow: b.allow.join("\n"), disallow: b.disallow.join("\n"), comment: b.comment || "",
    usage: (b.content_usage || []).join("\n"), signal: b.content_signal || "",
  }));
  $("gen-sitemaps").value = spec.sitemaps.join("\n");
  renderBlocks();
}

function addBlock() {
  gen.blocks.push({ agent: "", allow: "", disallow: "", comment: "", usage: "", signal: "" });
  renderBlocks();
  const agents = document.querySelectorAll("#gen-blocks .gen-agent");
  agents[agents.length - 1].focus();
}

function field(label, control) {
  control.id = "gen-f" + (++fieldIds);
  return el("div", { cls: "field" }, [el("label", { attrs: { for: control.id }, text: label }), control]);
}

function renderBlocks() {
  const box = clear($("gen-blocks"));
  gen.blocks.forEach((block, i) => box.append(blockForm(block, i)));
  // The server refuses a spec of more blocks than max_blocks.
  $("gen-add").disabled = gen.blocks.length >= state.info.max_blocks;
}

function blockForm(block, i) {
  const noRules = el("p", { cls: "hint gen-norules", text: t("gen.noRules") });
  const refresh = () => { noRules.hidden = nonBlankLines(block.allow).length > 0 || nonBlankLines(block.disallow).length > 0; };
  const bind = (node, key) => {
    node.value = block[key];
    node.addEventListener("input", () => { block[key] = node.value; refresh(); });
    return node;
  };
  const agent = bind(el("input", { cls: "gen-agent", attrs: { list: "crawler-list", autocomplete: "off", spellcheck: "false", placeholder: "*" } }), "agent");
  const allow = bind(el("textarea", { cls: "gen-allow", attrs: { rows: 2, wrap: "off", spellcheck: "false", placeholder: "/public/" } }), "allow");
  const disallow = bind(el("textarea", { cls: "gen-disallow", attrs: { rows: 2, wrap: "off", spellcheck: "false", placeholder: "/private/" } }), "disallow");
  const comment = bind(el("input", { cls: "gen-comment", attrs: { autocomplete: "off" } }), "comment");
  const usage = bind(el("textarea", { cls: "gen-usage", attrs: { rows: 1, wrap: "off", spellcheck: "false", placeholder: "/ train-ai=n" } }), "usage");
  const signal = bind(el("input", { cls: "gen-signal", attrs: { autocomplete: "off", spellcheck: "false", placeholder: "search=yes, ai-train=no" } }), "signal");
  const remove = el("button", {
    cls: "gen-remove",
    attrs: { type: "button" },
    text: t("gen.removeBlock"),
    on: { click: () => { gen.blocks.splice(i, 1); renderBlocks(); } },
  });
  remove.disabled = gen.blocks.length < 2;
  refresh();
  return el("fieldset", { cls: "gen-block" }, [
    el("legend", { text: t("gen.block", { n: i + 1 }) }),
    field(t("gen.agent"), agent),
    el("div", { cls: "gen-paths" }, [field(t("gen.allow"), allow), field(t("gen.disallow"), disallow)]),
    noRules,
    field(t("gen.comment"), comment),
    el("div", { cls: "gen-paths" }, [field(t("gen.usage"), usage), field(t("gen.signal"), signal)]),
    remove,
  ]);
}

function renderPresetNote() {
  const name = $("gen-preset").value;
  $("gen-only-field").hidden = name !== "allow-only";
  $("gen-preset-note").textContent = state.info.presets.includes(name) ? t("gen.presetNote." + name) : "";
}

function applyPreset() {
  renderPresetNote();
  const name = $("gen-preset").value;
  if (!name) {
    gen.blocks = defaultBlocks();
    $("gen-sitemaps").value = "";
    renderBlocks();
    generate({ spec: specFromForm() }, false);
    return;
  }
  const agent = $("gen-only").value.trim();
  if (name === "allow-only" && !agent) {
    gen.asked = null; // nothing to ask again in another language
    gen.result = null;
    gen.error = () => t("gen.onlyNeeded");
    renderResult();
    $("gen-only").focus();
    return;
  }
  // A preset's answer holds the spec it expands to: the form is filled from it.
  generate(name === "allow-only" ? { preset: name, agent } : { preset: name }, true);
}

/* POST /api/generate with `body`; `fill` puts the answer's spec into the form. */
async function generate(body, fill, { keepUsed = false } = {}) {
  const mine = ++gen.seq;
  gen.asked = body;
  gen.busy = true;
  gen.used = keepUsed && gen.used;
  $("generator-panel").dataset.busy = "1";
  $("gen-go").disabled = true;
  renderResult();
  try {
    const result = await backend.generate({ ...body, lang: lang() });
    if (mine !== gen.seq) return;
    gen.result = result;
    gen.error = null;
    if (fill) fillFromSpec(result.spec);
  } catch (error) {
    if (mine !== gen.seq) return;
    gen.result = null;
    gen.error = () => error.message;
  }
  gen.busy = false;
  delete $("generator-panel").dataset.busy;
  $("gen-go").disabled = false;
  renderResult();
}

function useInEditor() {
  if (!gen.result) return;
  setText(gen.result.text);
  gen.used = true;
  renderResult();
  $("editor-panel").scrollIntoView({ block: "start" });
}

function renderResult() {
  const box = clear($("gen-result"));
  $("gen-use").disabled = !gen.result || gen.busy;
  if (gen.busy) {
    box.append(el("p", { cls: "hint", text: t("gen.working") }));
    return;
  }
  if (gen.error) {
    box.append(el("p", { cls: "error", text: t("gen.failed", { message: gen.error() }) }));
    return;
  }
  const r = gen.result;
  if (!r) return;
  for (const w of r.warnings) {
    box.append(el("div", { cls: "callout danger gen-warning", attrs: { role: "alert" }, data: { code: w.code } }, [
      el("strong", { text: t("gen.warningLabel") + " " }), el("span", { text: w.text }),
    ]));
  }
  const failed = r.checks.filter((c) => !c.ok).length;
  box.append(el("p", { cls: "summary gen-verified " + (r.verified ? "good" : "bad"), text: r.verified ? t("gen.verified") : t("gen.notVerified", { count: failed }) }));
  box.append(el("h3", { text: t("gen.output") }), el("pre", { cls: "gen-text" }, [el("code", { text: r.text })]));
  if (gen.used) box.append(el("p", { cls: "hint gen-used", text: t("gen.used") }));
  box.append(el("h3", { text: t("gen.roundTrip") }), el("div", { cls: "scroll-x" }, [checksTable(r.checks)]));
  box.append(el("h3", { text: t("gen.findings", { count: r.findings.length }) }));
  const list = el("ul", { cls: "findings gen-findings" }, r.findings.map((f) => findingItem(f, false)));
  if (!r.findings.length) list.append(el("li", { cls: "hint", text: t("gen.noFindings") }));
  box.append(list);
}

function checksTable(checks) {
  const table = el("table", { cls: "gen-checks" }, [el("thead", {}, [el("tr", {}, [
    el("th", { text: t("col.crawler") }), el("th", { text: t("gen.url") }), el("th", { text: t("gen.intended") }),
    el("th", { text: t("gen.parsed") }), el("th", { text: t("col.line") }), el("th", { text: t("gen.holds") }),
  ])])]);
  for (const [kind, title] of [["rule", t("gen.rulesGroup")], ["crawler", t("gen.crawlersGroup")]]) {
    const rows = checks.filter((c) => c.kind === kind);
    if (!rows.length) continue;
    table.append(el("tbody", {}, [
      el("tr", { cls: "purpose" }, [el("th", { attrs: { colspan: 6, scope: "rowgroup" }, text: title })]),
      ...rows.map(checkRow),
    ]));
  }
  return table;
}

function checkRow(c) {
  const word = (allowed) => (allowed ? t("matrix.allowed") : t("matrix.blocked"));
  // effective is false for a rule whose pattern can match no URL (it starts with neither / nor *).
  const url = el("td", {}, [el("code", { text: c.url })]);
  if (c.effective === false) url.append(el("span", { cls: "ineffective", text: t("gen.ineffective") }));
  return el("tr", { cls: "check " + (c.ok ? "ok" : "fail"), data: { agent: c.agent, allowed: c.allowed ? "1" : "0" } }, [
    el("th", { attrs: { scope: "row" } }, [el("code", { text: c.agent })]),
    url,
    el("td", { cls: "cell " + (c.intended ? "allowed" : "disallowed"), text: word(c.intended) }),
    el("td", { cls: "cell parsed " + (c.allowed ? "allowed" : "disallowed"), text: word(c.allowed) }),
    el("td", { cls: "num", text: c.line || "—" }),
    el("td", {}, [el("span", { cls: "badge " + (c.ok ? "pass" : "fail"), text: c.ok ? t("gen.yes") : t("gen.no") })]),
  ]);
}

// The presets are the server's (`/api/info`): the page keeps no list of its own.
function fillPresets() {
  const select = $("gen-preset");
  for (const name of state.info.presets) {
    // data-i18n relabels it on a language change; the text is set now, the labels being loaded already.
    select.append(el("option", { attrs: { value: name }, data: { i18n: "gen.preset." + name }, text: t("gen.preset." + name) }));
  }
}
