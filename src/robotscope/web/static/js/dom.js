/* DOM helpers. The page's safety rule lives here: user data (the robots.txt,
 * agents, URLs, server answers) only ever reaches the page as textContent or
 * as attribute values through el(); no module uses innerHTML. (The Logs panel's
 * report, HTML the core escaped, is parsed inert and rebuilt element by element
 * through an allow-list: panels/logs.js.) */
import { t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

/* A new element: opts.cls, .text (textContent), .attrs, .data (dataset), .on
 * (event listeners); children are nodes or strings (appended as text). */
export function el(tag, opts = {}, children = []) {
  const node = document.createElement(tag);
  if (opts.cls) node.className = opts.cls;
  if (opts.text !== undefined && opts.text !== null) node.textContent = String(opts.text);
  for (const [name, value] of Object.entries(opts.attrs || {})) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  for (const [name, value] of Object.entries(opts.data || {})) node.dataset[name] = String(value);
  for (const [name, listener] of Object.entries(opts.on || {})) node.addEventListener(name, listener);
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

/* A button naming editor line n ("n" and the label, e.g. the line's text); onClick shows it.
 * data-line lets the editor mark every link to the highlighted line. */
export function lineLink(n, label, onClick) {
  return el("button", {
    cls: "line-link",
    attrs: { type: "button", title: t("common.showLine", { line: n }) },
    data: { line: n },
    on: { click: onClick },
  }, [el("span", { cls: "ln", text: n }), label === "" ? null : el("code", { text: label })]);
}

/* The lines of a textarea, trimmed, blank ones dropped (as the server reads lists). */
export function nonBlankLines(text) {
  return String(text).split(/\r\n|\r|\n/).map((s) => s.trim()).filter((s) => s.length > 0);
}
