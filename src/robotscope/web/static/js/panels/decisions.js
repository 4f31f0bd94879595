/* The table of what each engine's fetch policy concludes: the fetch panel's and the response panel's.
 * `byPolicy` is {policy name: {action, explanation}} as the server sends it; `follow` is a
 * redirect the crawlers follow (the response panel's only). */
import { el } from "../dom.js";
import { t } from "../i18n.js";

export function decisions(byPolicy) {
  const rows = Object.entries(byPolicy).map(([name, decision]) => el("tr", { cls: "action-" + decision.action }, [
    el("th", { attrs: { scope: "row" }, text: t("policy." + name) }),
    el("td", {}, [el("span", { cls: "badge action", text: decision.action === "follow" ? t("response.follow") : t("action." + decision.action) })]),
    el("td", { cls: "why", text: decision.explanation }),
  ]));
  const table = el("table", { cls: "decisions" }, [
    el("thead", {}, [el("tr", {}, [el("th", { text: t("col.policy") }), el("th", { text: t("col.decision") }), el("th", { cls: "why", text: t("col.why") })])]),
    el("tbody", {}, rows),
  ]);
  return el("div", { cls: "scroll-x" }, [table]);
}
