/* The History panel (a server started with `robotscope serve --store PATH` only):
 * pick an origin the store holds, see its versions oldest first (dates, status,
 * size, hash, agents, the worst alert of each change and its text) and its failed
 * fetches, and click a version to load its text into the editor; the text it
 * replaces is kept (swap.js), as a fetch keeps it. The alerts' texts are the
 * server's in the language asked for, so a new language asks again.
 */
import { $, clear, el } from "../dom.js";
import { lang, number, t } from "../i18n.js";
import { keeper } from "../swap.js";

let backend = null;
let kept = null; // the editor's text a load replaced (swap.js)
let origins = []; // GET /api/history
let shown = ""; // the origin whose timeline is asked for or shown
let answer = null; // {data} or {error: BackendError} of the last timeline
let seq = 0; // a later timeline wins over a slower earlier one
let loads = 0; // a later click on a version wins

export function startHistory(theBackend) {
  backend = theBackend;
  kept = keeper("history-swap", {
    replaced: "history.replaced", restore: "history.restore", restoredNote: "history.restoredNote", reload: "history.reload",
  });
  $("history-origin").addEventListener("change", (event) => show(event.target.value));
  loadOrigins();
}

/* The panel's words in the new language, and the timeline's alerts asked again in it. */
export function relangHistory() {
  renderOrigins();
  if (shown) show(shown);
}

async function loadOrigins() {
  try {
    origins = (await backend.historyOrigins()).origins;
  } catch (error) {
    answer = { error };
    renderTimeline();
    return;
  }
  renderOrigins();
}

function renderOrigins() {
  const select = $("history-origin");
  const value = select.value;
  const first = el("option", { attrs: { value: "" }, text: t(origins.length ? "history.pick" : "history.empty") });
  clear(select).append(first, ...origins.map((origin) => el("option", { attrs: { value: origin }, text: origin })));
  select.value = value;
}

async function show(origin) {
  const mine = ++seq;
  shown = origin;
  answer = null;
  $("history-status").textContent = "";
  if (!origin) {
    renderTimeline();
    return;
  }
  clear($("history-result")).append(el("p", { cls: "hint", text: t("history.loading") }));
  let result;
  try {
    result = { data: await backend.history(origin, lang()) };
  } catch (error) {
    result = { error };
  }
  if (mine !== seq) return;
  answer = result;
  renderTimeline();
}

function renderTimeline() {
  const box = clear($("history-result"));
  if (!answer) return;
  if (answer.error) {
    box.append(el("p", { cls: "error", text: t("history.failed", { message: answer.error.message }) }));
    return;
  }
  const d = answer.data;
  if (d.versions.length < d.count) {
    box.append(el("p", { cls: "hint", text: t("history.newest", { shown: number(d.versions.length), count: number(d.count) }) }));
  }
  box.append(el("ol", { cls: "timeline" }, d.versions.map((v, i) => versionItem(d.origin, v, i === 0 && v.number === 1))));
  if (d.failure_count) {
    box.append(
      el("h3", { text: t("history.failures", { count: number(d.failure_count) }) }),
      el("ul", { cls: "history-failures" }, d.failures.map(failureItem)),
    );
  }
}

function versionItem(origin, v, first) {
  const seen = v.first_seen === v.last_seen ? v.first_seen : t("history.seen", { first: v.first_seen, last: v.last_seen });
  const go = el("button", {
    cls: "history-version",
    attrs: { type: "button", title: t("history.load", { number: v.number }) },
    data: { id: v.id },
    on: { click: () => load(origin, v) },
  }, [el("strong", { text: t("history.number", { number: v.number }) }), " ", el("time", { text: seen })]);
  const facts = el("p", { cls: "history-facts" }, [
    el("span", { cls: "badge status", text: t("history.status", { status: v.status }) }), " ",
    t("history.size", { n: number(v.size) }), " · ", el("code", { attrs: { title: v.sha256 }, text: v.short }), " · ",
    t("history.agents", { agents: v.agents.join(", ") }),
  ]);
  return el("li", { data: { worst: v.worst || "none" } }, [go, facts, alertLine(v, first)]);
}

/* The worst alert of the change to this version, and how many others there are. */
function alertLine(v, first) {
  if (!v.alerts.length) return el("p", { cls: "hint", text: t(first ? "history.first" : "history.noAlert") });
  const [worst, ...others] = v.alerts;
  return el("p", { cls: "history-alert" }, [
    el("span", { cls: "badge sev-" + worst.severity, data: { code: worst.code }, text: t("history.severity." + worst.severity) }), " ",
    el("span", { cls: "history-alert-text", text: worst.text }),
    others.length ? el("span", { cls: "hint", text: " (" + t("history.more", { n: number(others.length) }) + ")" }) : null,
  ]);
}

function failureItem(f) {
  return el("li", {}, [
    el("time", { text: f.at }), " ",
    el("span", { cls: "badge error", text: f.status === null ? f.failure : f.failure + " " + f.status }), " ",
    t("history.failureAs", { agent: f.agent }),
  ]);
}

async function load(origin, v) {
  const mine = ++loads;
  $("history-status").textContent = "";
  try {
    const version = await backend.historyVersion(origin, v.id);
    if (mine === loads) kept.load(version.text, origin + "/robots.txt", { number: v.number });
  } catch (error) {
    if (mine === loads) $("history-status").textContent = t("history.versionFailed", { number: v.number, message: error.message });
  }
}
