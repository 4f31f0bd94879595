/* The crawler matrix: every catalogue crawler by the paths, grouped by purpose.
 *
 * A cell is a verdict view. When an operator's documented behaviour (its
 * profile) gives another answer than RFC 9309 alone, the cell carries the
 * note `profile.changed` and is outlined; its tooltip is the profile's text.
 */
import { $, clear, el, nonBlankLines } from "../dom.js";
import { linkTo } from "../editor.js";
import { t } from "../i18n.js";
import { state } from "../state.js";

/* The paths the analysis checks: the panel's, up to the server's max_paths. */
export function pathsToCheck() {
  return nonBlankLines($("paths").value).slice(0, state.info.max_paths);
}

export function renderMatrix(m) {
  const box = clear($("matrix"));
  if (nonBlankLines($("paths").value).length > state.info.max_paths) {
    box.append(el("p", { cls: "hint too-many", text: t("matrix.tooMany", { limit: state.info.max_paths }) }));
  }
  if (m.paths.length) box.append(table(m));
  else box.append(el("p", { cls: "hint", text: t("matrix.empty") }));
  if (m.invalid_paths.length) {
    box.append(el("div", { cls: "invalid-paths error" }, [
      el("p", { text: t("matrix.invalidPaths") }),
      el("ul", {}, m.invalid_paths.map((p) => el("li", {}, [el("code", { text: p })]))),
    ]));
  }
}

function table(m) {
  const head = el("tr", {}, [el("th", { text: t("col.crawler") }), ...m.paths.map((p) => el("th", {}, [el("code", { text: p })]))]);
  return el("table", { cls: "matrix" }, [
    el("thead", {}, [head]),
    ...m.purposes.map((group) => el("tbody", {}, [
      el("tr", { cls: "purpose" }, [el("th", { attrs: { colspan: m.paths.length + 1, scope: "rowgroup" }, text: t("purpose." + group.purpose) })]),
      ...group.rows.map(row),
    ])),
  ]);
}

function row(r) {
  const crawler = el("th", { attrs: { scope: "row" } }, [el("span", { cls: "token", text: r.crawler.token }), el("small", { text: r.crawler.operator })]);
  return el("tr", {}, [crawler, ...r.cells.map(cell)]);
}

function cell(c) {
  const word = c.allowed ? t("matrix.allowed") : t("matrix.blocked");
  const changed = c.notes.some((n) => n.code === "profile.changed");
  const td = el("td", { cls: "cell " + (c.allowed ? "allowed" : "disallowed") + (changed ? " changed" : "") }, [
    c.line ? linkTo(c.line, word) : el("span", { text: word }),
  ]);
  if (c.profile) {
    td.append(el("span", { cls: "profile", text: "*", attrs: { title: c.profile.text } }));
    td.title = c.profile.text;
  }
  return td;
}
