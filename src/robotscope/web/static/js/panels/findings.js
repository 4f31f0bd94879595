/* The lint findings panel, and the finding list the generator panel shows too.
 * Message and fix are the server's texts, in the language of the request. */
import { $, clear, el } from "../dom.js";
import { showLine } from "../editor.js";
import { t } from "../i18n.js";

/* One finding. `linked`: its head is a button that shows its line in the
 * editor (the editor holds the analysed file; the generator's output is elsewhere). */
export function findingItem(f, linked) {
  const parts = [
    el("span", { cls: "badge " + f.severity, text: t("severity." + f.severity) }), " ",
    el("span", { cls: "where", text: f.line ? t("common.lineN", { line: f.line }) : t("findings.wholeFile") }), " ",
    el("code", { cls: "code", text: f.code }),
  ];
  const head = linked
    ? el("button", {
      cls: "finding-head line-link",
      attrs: { type: "button" },
      data: { line: f.line || "" },
      on: { click: () => { if (f.line) showLine(f.line); } },
    }, parts)
    : el("div", { cls: "finding-head" }, parts);
  return el("li", { cls: "finding sev-" + f.severity, data: { code: f.code } }, [
    head,
    el("p", { cls: "message", text: f.message.text }),
    el("p", { cls: "fix" }, [el("span", { cls: "fix-label", text: t("findings.fix") + " " }), el("span", { text: f.fix.text })]),
  ]);
}

export function renderFindings(findings) {
  const list = clear($("findings"));
  $("findings-count").textContent = "(" + findings.length + ")";
  if (!findings.length) list.append(el("li", { cls: "hint", text: t("findings.none") }));
  for (const f of findings) list.append(findingItem(f, true));
}
