/* The self-test panel: the bundled RFC 9309 reference cases run through the engine.
 * Case descriptions and sections are the server's, in the language asked
 * for; once run, a new language asks again. */
import { $, clear, el } from "../dom.js";
import { lang, t } from "../i18n.js";

let backend = null;
let answer = null; // {data} or {error} of the last run
let seq = 0;

export function startSelftest(theBackend) {
  backend = theBackend;
  $("selftest-run").addEventListener("click", run);
}

export function relangSelftest() {
  if (answer) run();
}

async function run() {
  const mine = ++seq;
  $("selftest-run").disabled = true;
  $("selftest-summary").textContent = t("selftest.running");
  let result;
  try {
    result = { data: await backend.selftest(lang()) };
  } catch (error) {
    result = { error };
  }
  if (mine !== seq) return;
  $("selftest-run").disabled = false;
  answer = result;
  renderSelftest();
}

export function renderSelftest() {
  if (!answer) return;
  const summary = $("selftest-summary");
  const list = clear($("selftest"));
  if (answer.error) {
    summary.textContent = t("status.error", { message: answer.error.message });
    summary.className = "summary bad";
    return;
  }
  const s = answer.data;
  summary.textContent = t("selftest.summary", { passed: s.passed, total: s.total, failed: s.failed });
  summary.className = "summary " + (s.failed ? "bad" : "good");
  list.append(...s.cases.map(caseItem));
}

function outcome(x) {
  const word = x.allowed ? t("verdict.allowed") : t("verdict.disallowed");
  return word + (x.line ? " · " + t("common.lineN", { line: x.line }) : "") + " · " + x.reason;
}

function caseItem(c) {
  return el("li", { cls: "case " + (c.passed ? "pass" : "fail") }, [
    el("span", { cls: "badge " + (c.passed ? "pass" : "fail"), text: c.passed ? t("selftest.pass") : t("selftest.fail") }),
    el("code", { cls: "case-id", text: c.id }),
    el("span", { cls: "section", text: c.section }),
    el("p", { cls: "desc", text: c.description }),
    el("p", { cls: "detail", text: t("selftest.detail", { agent: c.agent, url: c.url, expected: outcome(c.expected), got: outcome(c.got) }) }),
  ]);
}
