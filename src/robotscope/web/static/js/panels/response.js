/* The response panel: the status line and headers that carried the file, as the user pasted them
 * (the static page fetches nothing, so this is how it learns how the file was served). What each
 * engine's policy does with them, the notes and the X-Robots-Tag directives for each crawler are
 * the analysis' `response` (reports/response.py); this module only shows them.
 */
import { $, clear, el } from "../dom.js";
import { number, t } from "../i18n.js";
import { state } from "../state.js";
import { decisions } from "./decisions.js";

/* The pasted text sent with the analysis: one character past what the server reads, so it says the rest was cut. */
export function responseText() {
  return $("response").value.slice(0, state.info.max_response + 1);
}

export function renderResponse(r) {
  const box = clear($("response-result"));
  if (!r) return;
  const facts = el("dl", { cls: "facts" });
  const add = (label, value) => facts.append(el("dt", { text: label }), el("dd", {}, [value]));
  if (r.status !== null) add(t("fetch.status"), String(r.status));
  if (r.content_type) add(t("fetch.contentType"), el("code", { text: r.content_type }));
  if (facts.childElementCount) box.append(facts);
  if (r.chain.length > 1) box.append(el("h3", { text: t("fetch.chain") }), chain(r.chain));
  if (r.notes.length) box.append(el("ul", { cls: "response-notes" }, r.notes.map((n) => el("li", { cls: "callout warn", text: n.text }))));
  if (Object.keys(r.decisions).length) box.append(el("h3", { text: t("response.decisions") }), decisions(r.decisions));
  if (r.robots_tags.length) box.append(el("h3", { text: t("response.tags") }), tags(r.robots_tags));
  if (r.problem_count) box.append(problems(r));
}

function chain(hops) {
  return el("ol", { cls: "chain" }, hops.map((hop) => el("li", {}, [
    el("span", { cls: "badge status", text: hop.status }), hop.location ? el("code", { text: hop.location }) : null,
  ])));
}

function tags(rows) {
  const body = rows.map((row) => el("tr", {}, [
    el("th", { attrs: { scope: "row" } }, [row.crawler === null ? t("response.otherCrawlers") : el("code", { text: row.crawler })]),
    el("td", {}, [row.directives.length ? el("code", { text: row.directives.join(", ") }) : t("response.noDirectives")]),
  ]));
  const table = el("table", { cls: "robots-tags" }, [
    el("thead", {}, [el("tr", {}, [el("th", { text: t("col.crawler") }), el("th", { text: t("response.directives") })])]),
    el("tbody", {}, body),
  ]);
  return el("div", { cls: "scroll-x" }, [table]);
}

/* The lines skipped, each with its number (the first ones the server lists). */
function problems(r) {
  return el("details", { cls: "response-problems", attrs: { open: "" } }, [
    el("summary", { text: t("response.problems", { count: number(r.problem_count) }) }),
    el("ul", {}, r.problems.map((p) => el("li", {}, [el("span", { cls: "where", text: t("common.lineN", { line: p.line }) }), " ", p.message.text]))),
  ]);
}
