/* The fetch panel: fetch a site's /robots.txt through the server, show the
 * redirect chain and what each search engine concludes, and load the body
 * into the editor. The text it replaced is kept (swap.js): one button puts it
 * back (and then the fetched text again), so a fetch never loses the user's work.
 *
 * The decisions' explanations, the findings about how the file was served
 * and the policies' notes are the server's
 * texts in the language asked for, so a new language asks again: the
 * policies, and the last fetch (without loading its body a second time,
 * which would undo the user's edits).
 */
import { $, clear, el } from "../dom.js";
import { lang, number, t } from "../i18n.js";
import { keeper, renderSwaps } from "../swap.js";
import { decisions } from "./decisions.js";
import { findingItem } from "./findings.js";

let backend = null;
let policies = []; // GET /api/policies, in lang()
let asked = null; // {url, policy} of the last fetch
let answer = null; // {data} or {error: BackendError} of the last fetch
let seq = 0; // a later fetch wins over a slower earlier one
let kept = null; // the editor's text a load replaced (swap.js)

export function startFetch(theBackend) {
  backend = theBackend;
  $("fetch-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const url = $("fetch-url").value.trim();
    if (url) run({ url, policy: $("fetch-policy").value || "rfc9309" }, true);
  });
  $("fetch-policy").addEventListener("change", renderPolicyNotes);
  kept = keeper("fetch-swap", { replaced: "fetch.replaced", restore: "fetch.restore", restoredNote: "fetch.restoredNote", reload: "fetch.reload" });
  loadPolicies();
}

/* Asks again for every server text of this panel, in the new language. */
export function relangFetch() {
  loadPolicies();
  if (asked) run(asked, false);
}

async function loadPolicies() {
  try {
    policies = (await backend.policies(lang())).policies;
  } catch (e) {
    return; // the select stays as it was; the server's default policy applies
  }
  renderPolicies();
}

async function run(request, load) {
  const mine = ++seq;
  asked = request;
  clear($("fetch-result")).append(el("p", { cls: "hint", text: t("fetch.loading") }));
  $("fetch-go").disabled = true;
  let result;
  try {
    result = { data: await backend.fetch({ ...request, lang: lang() }) };
  } catch (error) {
    result = { error };
  }
  if (mine !== seq) return;
  $("fetch-go").disabled = false;
  answer = result;
  if (load && result.data && result.data.text) kept.load(result.data.text, result.data.robots_url);
  renderFetch();
}

export function renderFetch() {
  renderPolicies();
  renderSwaps();
  if (!answer) return;
  const box = clear($("fetch-result"));
  if (answer.error) {
    const error = answer.error;
    const params = { message: error.message };
    box.append(el("p", { cls: "error", text: error.code === "refused-target" ? t("fetch.refused", params) : t("fetch.failed", params) }));
    return;
  }
  const d = answer.data;
  box.append(facts(d), el("h3", { text: t("fetch.chain") }), chain(d.hops));
  // What the response's headers say about the file (a Content-Type not text/plain, a charset not UTF-8):
  // the server's findings, which the editor's analysis cannot see.
  if (d.served.length) {
    box.append(el("h3", { text: t("fetch.served") }), el("ul", { cls: "findings served" }, d.served.map((f) => findingItem(f, false))));
  }
  box.append(el("h3", { text: t("fetch.decisions") }), decisions(d.decisions));
  box.append(el("p", { cls: "hint", text: d.text ? t("fetch.loaded") : t("fetch.notLoaded") }));
}

function renderPolicies() {
  const select = $("fetch-policy");
  const value = select.value || "rfc9309";
  clear(select).append(...policies.map((p) => el("option", { attrs: { value: p.name }, text: t("policy." + p.name) })));
  select.value = value;
  renderPolicyNotes();
}

/* What is known and unknown about the chosen policy's documentation. */
function renderPolicyNotes() {
  const policy = policies.find((p) => p.name === $("fetch-policy").value);
  clear($("policy-notes")).append(...(policy ? policy.notes.map((note) => el("li", { text: note })) : []));
}

function facts(d) {
  const list = el("dl", { cls: "facts" });
  const add = (label, value, cls) => list.append(el("dt", { text: label }), el("dd", { cls }, [value]));
  add(t("fetch.robotsUrl"), el("code", { text: d.robots_url }));
  add(t("fetch.status"), d.status === null ? t("fetch.noResponse") : String(d.status));
  if (d.content_type) add(t("fetch.contentType"), el("code", { text: d.content_type }));
  const bytes = { n: number(d.bytes_received) };
  add(t("fetch.bytes"), d.truncated ? t("fetch.bytesTruncated", bytes) : t("fetch.bytesN", bytes));
  if (d.error) add(t("fetch.error"), d.error.kind + ": " + d.error.message, "error");
  return list;
}

function chain(hops) {
  const list = el("ol", { cls: "chain" }, hops.map((hop) => el("li", {}, [
    el("span", { cls: "badge status", text: hop.status }), el("code", { text: hop.url }),
  ])));
  if (!hops.length) list.append(el("li", { cls: "hint", text: t("fetch.noHops") }));
  return list;
}
