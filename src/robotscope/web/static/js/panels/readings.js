/* The "Readings" panel: every engine's verdict on each URL, side by side, and the lines they read differently.
 *
 * One table per URL of the matcher panel, a row per engine. A URL whose
 * verdicts split is marked; a row that answers otherwise than the reading
 * the verdict cards show (the engine chosen in the matcher panel) is
 * highlighted. Each engine's deciding line is a line link. Every sentence is
 * the server's (the explanations), in the language of the analysis.
 */
import { $, clear, el, lineLink } from "../dom.js";
import { lineText, linkTo, showLine } from "../editor.js";
import { t } from "../i18n.js";

export function renderReadings(result) {
  const box = clear($("readings"));
  const engines = Object.fromEntries(result.engines.map((e) => [e.name, e]));
  const { urls, lines } = result.readings;
  if (!urls.length) box.append(el("p", { cls: "hint", text: t("readings.empty") }));
  for (const view of urls) box.append(urlTable(view, engines, view.shown));
  box.append(linesList(lines, engines));
}

function urlTable(view, engines, shownEngine) {
  // The verdict the cards show (its reading is one of these rows, unless a crawler profile chose its groups).
  const reference = view.shown_allowed === undefined ? undefined : { allowed: view.shown_allowed };
  // Two rows an engine: its verdict and deciding line, then why (the server's explanation).
  const rows = Object.entries(view.readings).flatMap(([name, r]) => {
    const differs = reference !== undefined && r.allowed !== reference.allowed;
    const cls = [r.allowed ? "allowed" : "disallowed", differs ? "differs" : "", name === shownEngine ? "shown" : ""].filter(Boolean).join(" ");
    const engine = engines[name];
    const line = r.line ? lineLink(r.line, lineText(r.line), () => showLine(r.line, { decides: view.url })) : el("span", { text: "—" });
    return [
      el("tr", { cls, data: { engine: name } }, [
        el("th", { attrs: { scope: "row", rowspan: 2, title: engine ? engine.summary : "" } }, [
          el("span", { text: engine ? engine.title : name }),
          name === shownEngine ? el("small", { cls: "shown-mark", text: t("readings.shown") }) : null,
        ]),
        el("td", { cls: "verdict-word", text: r.allowed ? t("verdict.allowed") : t("verdict.disallowed") }),
        el("td", { cls: "line" }, [line]),
      ]),
      el("tr", { cls: cls + " why-row", data: { why: name } }, [el("td", { cls: "why", attrs: { colspan: 2 }, text: r.explanation.text })]),
    ];
  });
  return el("section", { cls: "reading" + (view.split ? " split" : ""), data: { url: view.url } }, [
    el("header", { cls: "reading-head" }, [
      el("code", { cls: "verdict-url", text: view.url }),
      el("strong", { cls: "reading-state", text: view.split ? t("readings.split") : t("readings.agree") }),
    ]),
    el("div", { cls: "scroll-x" }, [el("table", { cls: "readings" }, [
      el("thead", {}, [el("tr", {}, [
        el("th", { text: t("col.engine") }), el("th", { text: t("col.verdict") }), el("th", { text: t("col.line") }),
      ])]),
      el("tbody", {}, rows),
    ])]),
  ]);
}

/* The lines engines read differently: the line, then each reading of it with the engines that make it. */
function linesList(lines, engines) {
  const head = el("h3", { text: t("readings.lines") });
  if (!lines.length) return el("div", { cls: "reading-lines" }, [head, el("p", { cls: "hint", text: t("readings.noLines") })]);
  const items = lines.map((line) => {
    const byReading = new Map();
    for (const [name, seen] of Object.entries(line.engines)) {
      if (!byReading.has(seen)) byReading.set(seen, []);
      byReading.get(seen).push(engines[name] ? engines[name].title : name);
    }
    const parts = [...byReading.entries()].map(([seen, titles]) => el("li", {}, [
      el("span", { cls: "engines", text: titles.join(", ") + ": " }),
      seen === "-" ? el("em", { text: t("readings.ignored") })
        : seen === "user-agent" ? el("em", { text: t("readings.agentLine") })
        : el("code", { text: seen }),
    ]));
    return el("li", { data: { line: line.line } }, [linkTo(line.line), el("ul", { cls: "read-as" }, parts)]);
  });
  return el("div", { cls: "reading-lines" }, [head, el("ol", { cls: "line-readings" }, items)]);
}
