/* The export panel: the server rules the robots.txt in the editor implies (`robotscope export`), for a
 * server and the crawlers chosen, with what the server cannot express said above the files, and each
 * file to copy or download.
 *
 * Every text is the back end's (`POST /api/export`, the same in both builds): the files with their
 * per-rule comments, and the messages (left to robots.txt, collateral warnings, skipped names, notes)
 * in the language asked. A new language asks for the last export again.
 */
import { $, clear, el } from "../dom.js";
import { text } from "../editor.js";
import { lang, t } from "../i18n.js";
import { state } from "../state.js";

const LIST = "list"; // the crawler choice "these tokens" (the others are the API's own values: ai, all-named)

let backend = null;
const exp = { asked: null, result: null, error: null, busy: false, seq: 0 };

export function startExport(theBackend) {
  backend = theBackend;
  const target = $("export-target");
  // The servers are the back end's (`/api/info`): the page keeps no list of its own.
  for (const name of state.info.export_targets) target.append(el("option", { attrs: { value: name }, text: name }));
  $("export-choice").addEventListener("change", () => { $("export-list").hidden = $("export-choice").value !== LIST; });
  $("export-go").addEventListener("click", () => run(body()));
  $("export-list").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); run(body()); }
  });
}

export function relangExport() {
  if (exp.asked) run(exp.asked); // the same file and choice, in the new language
}

export function renderExport() {
  renderResult();
}

function body() {
  const choice = $("export-choice").value;
  return { text: text(), target: $("export-target").value, agents: choice === LIST ? $("export-list").value : choice };
}

async function run(asked) {
  const mine = ++exp.seq;
  exp.asked = asked;
  exp.busy = true;
  $("export-panel").dataset.busy = "1";
  $("export-go").disabled = true;
  renderResult();
  try {
    const result = await backend.exportRules({ ...asked, lang: lang() });
    if (mine !== exp.seq) return;
    exp.result = result;
    exp.error = null;
  } catch (error) {
    if (mine !== exp.seq) return;
    exp.result = null;
    exp.error = error.message;
  }
  exp.busy = false;
  delete $("export-panel").dataset.busy;
  $("export-go").disabled = false;
  renderResult();
}

function renderResult() {
  const box = clear($("export-result"));
  if (exp.busy) {
    box.append(el("p", { cls: "hint", text: t("export.working") }));
    return;
  }
  if (exp.error !== null) {
    box.append(el("p", { cls: "error", text: t("export.failed", { message: exp.error }) }));
    return;
  }
  const r = exp.result;
  if (!r) return;
  box.append(el("p", {
    cls: "summary export-complete " + (r.complete ? "good" : "bad"),
    text: r.complete ? t("export.complete") : t("export.incomplete", { count: r.left.length }),
  }));
  // What the server cannot express, and names that also hit innocent agents: in view before the files.
  for (const item of [...r.left, ...r.warnings]) {
    box.append(el("div", { cls: "callout warn export-warning", data: { code: item.code } }, [el("span", { text: item.text })]));
  }
  const said = [...r.skipped, ...r.notes];
  if (said.length) {
    box.append(el("ul", { cls: "hint export-notes" }, said.map((item) => el("li", { data: { code: item.code }, text: item.text }))));
  }
  for (const file of r.files) box.append(fileView(file));
}

function fileView(file) {
  const status = el("span", { cls: "hint export-copied", attrs: { role: "status" } });
  const copy = el("button", {
    cls: "export-copy",
    attrs: { type: "button" },
    text: t("export.copy"),
    on: { click: () => copyText(file.text, status) },
  });
  const download = el("button", {
    cls: "export-download",
    attrs: { type: "button" },
    text: t("export.download"),
    on: { click: () => save(file) },
  });
  return el("section", { cls: "export-file", data: { name: file.name } }, [
    el("h3", {}, [el("code", { text: file.name })]),
    el("div", { cls: "toolbar" }, [copy, download, status]),
    el("pre", { cls: "export-text" }, [el("code", { text: file.text })]),
  ]);
}

async function copyText(value, status) {
  try {
    await navigator.clipboard.writeText(value);
    status.textContent = t("export.copiedNote");
  } catch (e) {
    status.textContent = t("export.copyFailed");
  }
}

/* The file as a download named as export writes it (a blob of this page: nothing leaves it). */
function save(file) {
  const url = URL.createObjectURL(new Blob([file.text], { type: "text/plain;charset=utf-8" }));
  const link = el("a", { attrs: { href: url, download: file.name } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
