/* The "Check URLs" panel: one card per URL, telling whether the agent may fetch it and why.
 *
 * Every sentence on a card is the server's (the explanation, the notes, the
 * operator's documented behaviour), in the language of the analysis; the
 * page adds only labels. The card the user looks at is "selected": the
 * editor's highlight bar sits on its deciding line (and the editor outlines
 * the card). Until the user clicks a card, that is the first verdict with a
 * deciding line.
 */
import { $, clear, el, lineLink, nonBlankLines } from "../dom.js";
import { clearHighlight, lineText, linkTo, showLine } from "../editor.js";
import { t } from "../i18n.js";
import { state } from "../state.js";

let selected = null; // the URL of the card the user clicked, kept across analyses

/* The URLs the analysis checks: the panel's, up to the server's max_urls. */
export function urlsToCheck() {
  return nonBlankLines($("urls").value).slice(0, state.info.max_urls);
}

const isInvalid = (entry) => entry.reason === "invalid-url";

export function renderVerdicts(result) {
  renderAgentNote(result.agent.crawler);
  const box = clear($("verdicts"));
  if (!result.verdicts.length) {
    box.append(el("p", { cls: "hint", text: t("matcher.empty") }));
    return;
  }
  if (nonBlankLines($("urls").value).length > state.info.max_urls) {
    box.append(el("p", { cls: "hint too-many", text: t("matcher.tooMany", { limit: state.info.max_urls }) }));
  }
  const titles = Object.fromEntries(result.engines.map((e) => [e.name, e.title]));
  for (const entry of result.verdicts) box.append(isInvalid(entry) ? invalidCard(entry) : verdictCard(entry, titles));
}

/* Puts the highlight bar on the selected verdict's deciding line (none if it has none). */
export function highlightSelected(result) {
  const verdict = selectedVerdict(result);
  if (verdict && verdict.line) showLine(verdict.line, { decides: verdict.url, scroll: false });
  else clearHighlight();
}

function selectedVerdict(result) {
  const verdicts = result.verdicts.filter((entry) => !isInvalid(entry));
  return verdicts.find((v) => v.url === selected) || verdicts.find((v) => v.line) || null;
}

function select(verdict) {
  selected = verdict.url;
  if (verdict.line) showLine(verdict.line, { decides: verdict.url });
  else clearHighlight();
}

function renderAgentNote(crawler) {
  $("agent-note").textContent = crawler
    ? t("matcher.recognised", { name: crawler.name, operator: crawler.operator, purpose: t("purpose." + crawler.purpose) })
    : "";
}

/* A URL the server would not check (neither a path nor an http(s) URL): its reason, as an error. */
function invalidCard(entry) {
  return el("article", { cls: "verdict invalid-url", data: { url: entry.url } }, [
    el("header", { cls: "verdict-head" }, [
      el("strong", { cls: "verdict-word", text: t("verdict.invalid") }),
      el("code", { cls: "verdict-url", text: entry.url }),
    ]),
    el("p", { cls: "reason error", text: entry.invalid.text }),
  ]);
}

function verdictCard(v, titles) {
  const card = el("article", { cls: "verdict " + (v.allowed ? "allowed" : "disallowed"), data: { url: v.url, line: v.line || "" } }, [
    el("header", { cls: "verdict-head" }, [
      el("strong", { cls: "verdict-word", text: v.allowed ? t("verdict.allowed") : t("verdict.disallowed") }),
      el("code", { cls: "verdict-url", text: v.url }),
    ]),
    el("p", { cls: "reason", text: v.explanation.text }),
  ]);
  if (v.notes.length) card.append(el("ul", { cls: "notes" }, v.notes.map((n) => el("li", { cls: "note", data: { code: n.code }, text: n.text }))));
  card.append(facts(v, titles), candidates(v));
  // A click anywhere on the card but on a line link selects it.
  card.addEventListener("click", (event) => { if (!event.target.closest("button")) select(v); });
  return card;
}

function facts(v, titles) {
  const list = el("dl", { cls: "facts" });
  const add = (label, ...value) => list.append(el("dt", { text: label }), el("dd", {}, value));
  add(t("verdict.engine"), el("span", { cls: "engine", data: { engine: v.engine }, text: titles[v.engine] || v.engine }));
  add(t("verdict.decidingLine"), v.line ? lineLink(v.line, lineText(v.line), () => select(v)) : el("span", { text: t("verdict.noLine") }));
  add(t("verdict.token"), el("code", { text: v.agent_token || "—" }));
  const groups = v.group_lines.length ? v.group_lines.map((n) => linkTo(n)) : [el("span", { text: t("verdict.noGroup") })];
  list.append(el("dt", { text: t("verdict.group") }), el("dd", { cls: "links" }, groups));
  add(t("verdict.target"), el("code", { text: v.target }));
  if (v.usage_text) add(t("verdict.usage"), el("span", { cls: "usage", text: v.usage_text }));
  // When the profile changed the answer, the note above already says what it is.
  const changed = v.notes.some((n) => n.code === "profile.changed");
  if (v.profile && !changed) add(t("verdict.profile"), el("span", { cls: "profile", text: v.profile.text }));
  return list;
}

/* Every rule that matches, best first; the deciding one selects the card, the others only show their line. */
function candidates(v) {
  if (!v.candidates.length) return el("p", { cls: "hint", text: t("verdict.noCandidates") });
  const rows = v.candidates.map((c) => {
    const link = c.line === v.line ? lineLink(c.line, "", () => select(v)) : linkTo(c.line, "");
    return el("tr", { cls: c.line === v.line ? "winner" : "" }, [
      el("td", {}, [link]),
      el("td", {}, [el("code", { text: (c.kind === "allow" ? "Allow: " : "Disallow: ") + c.pattern })]),
      el("td", {}, [el("code", { text: c.normalised })]),
      el("td", { cls: "num", text: c.length }),
    ]);
  });
  const table = el("table", { cls: "candidates" }, [
    el("caption", { text: t("verdict.candidates") }),
    el("thead", {}, [el("tr", {}, [
      el("th", { text: t("col.line") }), el("th", { text: t("col.rule") }),
      el("th", { text: t("col.normalised") }), el("th", { text: t("col.length") }),
    ])]),
    el("tbody", {}, rows),
  ]);
  return el("div", { cls: "scroll-x" }, [table]);
}
