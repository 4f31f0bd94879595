/* The parsed structure panel (groups, sitemaps, other records, ignored lines) and the editor's status line. */
import { $, clear, el } from "../dom.js";
import { linkTo, setStatus } from "../editor.js";
import { number, t } from "../i18n.js";

const MAX_LISTED = 500; // entries per list: a huge file must not build a huge page

export function renderStructure(s) {
  const box = clear($("structure"));
  if (!s.groups.length) box.append(el("p", { cls: "hint", text: t("structure.noGroups") }));
  for (const g of s.groups) box.append(group(g));
  list(box, t("structure.sitemaps"), s.sitemaps.map((x) => ({ line: x.line })));
  list(box, t("structure.records"), s.records.filter((x) => x.group === null).map((x) => ({ line: x.line })));
  list(box, t("structure.ignored"), s.ignored.map((x) => ({ line: x.line, note: t("ignored." + x.reason) })));
}

function group(g) {
  const agents = g.agents.length ? g.agents.join(", ") : t("structure.noToken");
  const items = el("ul", { cls: "links" }, [
    ...g.agent_lines.map((n) => el("li", { cls: "k-agent" }, [linkTo(n)])),
    ...g.rules.map((rule) => el("li", { cls: "k-" + rule.kind }, [linkTo(rule.line)])),
    ...g.records.map((record) => el("li", { cls: "k-other" }, [linkTo(record.line)])),
  ]);
  if (!g.rules.length) items.append(el("li", { cls: "hint", text: t("structure.noRules") }));
  return el("details", { cls: "group", attrs: { open: "" } }, [
    el("summary", { text: t("structure.group", { n: g.position + 1, agents }) }),
    items,
  ]);
}

function list(box, title, entries) {
  if (!entries.length) return;
  box.append(el("h3", { text: title + " (" + entries.length + ")" }));
  box.append(el("ul", { cls: "links" }, entries.slice(0, MAX_LISTED).map((e) => el("li", {}, [
    linkTo(e.line),
    e.note ? el("span", { cls: "note", text: e.note }) : null,
  ]))));
}

/* The status line under the editor: size and counts, and what crawlers will not read as written. */
export function renderStatus(s) {
  const rules = s.groups.reduce((n, g) => n + g.rules.length, 0);
  const parts = [t("status.summary", { lines: number(s.line_count), groups: number(s.groups.length), rules: number(rules), bytes: number(s.size) })];
  if (s.encoding) parts.push(t("status.encoding", { encoding: s.encoding.toUpperCase() }));
  if (s.truncated) parts.push(t("status.truncated", { count: number(s.overflow_line_count) }));
  setStatus(parts.join(" "), s.encoding || s.truncated ? "warn" : "");
}
