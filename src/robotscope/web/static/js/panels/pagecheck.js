/* The page panel (server build only): one page checked for each crawler the
 * user names: the robots.txt verdict and its line, the HTTP answer to the
 * crawler's documented User-Agent string, the robots directives aimed at it,
 * the canonical, and the findings, whose texts are the server's in the
 * language asked for (a new language asks again). Above them, once per
 * User-Agent sent: whether a site that verifies crawlers would take the
 * server's fetch for the crawler it claims. */
import { $, clear, el } from "../dom.js";
import { lang, t } from "../i18n.js";

let backend = null;
let asked = null; // the body of the last check
let seq = 0; // a later check wins over a slower earlier one

export function startPageCheck(theBackend) {
  backend = theBackend;
  $("page-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const url = $("page-url").value.trim();
    const agents = $("page-agents").value.split(",").map((a) => a.trim()).filter(Boolean);
    if (url) run({ url, agents });
  });
}

export function relangPageCheck() {
  if (asked) run(asked);
}

async function run(body) {
  asked = body;
  const mine = ++seq;
  const out = clear($("page-result"));
  out.append(el("p", { cls: "hint", text: t("pagecheck.loading") }));
  try {
    const result = await backend.page({ ...body, lang: lang() });
    if (mine === seq) render(result);
  } catch (error) {
    if (mine === seq) clear($("page-result")).append(el("p", { cls: "error", text: t("pagecheck.failed", { message: error.message }) }));
  }
}

function render(result) {
  const out = clear($("page-result"));
  const claims = el("ul", { cls: "fetched-as" }, result.fetched_as.map((f) =>
    el("li", { data: { verify: f.would_verify }, text: `${f.agent}: ${f.text}` })));
  out.append(el("p", { cls: "hint", text: t("pagecheck.fetchedAs") }), claims);
  for (const c of result.crawlers) {
    const v = c.verdict;
    const decided = v.line ? t("pagecheck.line", { line: v.line, rule: v.rule }) : "";
    const facts = el("dl", { cls: "facts" });
    const add = (label, text) => facts.append(el("dt", { text: label }), el("dd", { text }));
    add(t("pagecheck.robots"), (v.allowed ? t("verdict.allowed") : t("verdict.disallowed")) + (decided ? " · " + decided : ""));
    add(t("pagecheck.status"), c.response.status === null ? t("pagecheck.noResponse", { error: c.response.error }) : String(c.response.status));
    if (c.page) {
      add(t("pagecheck.directives"), c.page.directives.length ? c.page.directives.join(", ") : t("pagecheck.none"));
      if (c.page.canonical) add(t("pagecheck.canonical"), c.page.canonical);
    }
    const list = el("ul", { cls: "notes" }, c.findings.map((f) => el("li", { cls: "note", data: { code: f.code }, text: f.message.text })));
    out.append(el("article", { cls: "page-crawler" }, [el("h3", { text: c.agent }), el("p", { cls: "hint", text: c.user_agent }), facts, list]));
  }
}
