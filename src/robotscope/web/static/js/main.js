/* robotscope's tester page: native ES modules, no dependencies, no build step.
 *
 * This module starts the page and runs the analysis: the back end chosen in
 * index.html (backend.js), the language (i18n.js), the editor and one module
 * per panel. Every server text comes in the language of its request, so a
 * new language runs the analysis again and asks the other panels again.
 */
import { createBackend, loadSample } from "./backend.js";
import { $, clear, el } from "./dom.js";
import { clearHighlight, refreshHighlight, setStatus, setText, startEditor, text } from "./editor.js";
import { initialLanguage, lang, number, remember, t, useLanguage } from "./i18n.js";
import { LinkTooLarge, readShareLink, state, writeShareLink } from "./state.js";
import { relangFetch, renderFetch, startFetch } from "./panels/fetch.js";
import { relangHistory, startHistory } from "./panels/history.js";
import { relangLogs, startLogs } from "./panels/logs.js";
import { relangPageCheck, startPageCheck } from "./panels/pagecheck.js";
import { renderFindings } from "./panels/findings.js";
import { relangExport, renderExport, startExport } from "./panels/export.js";
import { relangGenerator, renderGenerator, startGenerator } from "./panels/generator.js";
import { pathsToCheck, renderMatrix } from "./panels/matrix.js";
import { relangSelftest, renderSelftest, startSelftest } from "./panels/selftest.js";
import { renderStatus, renderStructure } from "./panels/structure.js";
import { highlightSelected, renderVerdicts, urlsToCheck } from "./panels/verdicts.js";
import { renderReadings } from "./panels/readings.js";
import { renderResponse, responseText } from "./panels/response.js";
import { renderSwaps } from "./swap.js";

const DEBOUNCE_MS = 300; // typing pauses this long before the file is analysed
const SAMPLE_AGENT = "Googlebot";
const SAMPLE_URLS = "/search/help\n/cart/checkout\n/files/report.pdf";

let backend = null; // set once by start(): the one index.html names

/* The page's JavaScript API for embedding (documented in API.md): `await
 * robotscope.ready`, then analyse(body) and selftest(lang) answer exactly as
 * POST /api/analyse and GET /api/selftest do, from whichever back end the page runs. */
let engineReady;
const ready = new Promise((resolve, reject) => { engineReady = { resolve, reject }; });
ready.catch(() => {}); // reported in the status line; callers see the rejection on their own await
window.robotscope = Object.freeze({
  ready,
  analyse: async (body) => { await ready; return backend.analyse(body); },
  selftest: async (language = "en") => { await ready; return backend.selftest(language); },
});
let timer = null;
let seq = 0; // the newest analysis; older answers are dropped

function schedule(delay = DEBOUNCE_MS) {
  clearTimeout(timer);
  timer = setTimeout(analyse, delay);
}

async function analyse() {
  const mine = ++seq;
  const body = {
    text: text(), agent: $("agent").value, urls: urlsToCheck(), paths: pathsToCheck(), lang: lang(), engine: $("engine").value,
    response: responseText(),
  };
  if (state.origin) body.origin = state.origin;
  const size = new TextEncoder().encode(body.text).length;
  if (size > state.info.max_body) {
    setStatus(t("status.tooLarge", { size: number(size), limit: number(state.info.max_body) }), "error");
    delete document.body.dataset.busy; // an older analysis may still be out; its answer is dropped
    clearResult();
    return;
  }
  document.body.dataset.busy = "1";
  try {
    const result = await backend.analyse(body);
    if (mine !== seq) return;
    state.result = result;
    noteEngine();
    renderResult();
    highlightSelected(result);
    writeShareLink(currentQuery());
  } catch (error) {
    if (mine === seq) {
      setStatus(t("status.error", { message: error.message }), "error");
      clearResult();
    }
  } finally {
    if (mine === seq) delete document.body.dataset.busy;
  }
}

/* The panels' ids drawn from an analysis (the findings' count beside them). */
const RESULT_PANELS = ["verdicts", "readings", "findings", "structure", "matrix", "response-result"];

/* The editor's text was refused or its analysis failed: what the panels show belongs to an
 * earlier text, so it goes, and each panel says why it is empty. */
function clearResult() {
  state.result = null;
  for (const id of RESULT_PANELS) clear($(id)).append(el(id === "findings" ? "li" : "p", { cls: "hint stale", text: t("result.none") }));
  $("findings-count").textContent = "";
  $("agent-note").textContent = "";
  noteEngine();
  clearHighlight();
}

/* The panels drawn from the analysis. */
function renderResult() {
  const r = state.result;
  if (!r) {
    if (document.querySelector(".stale")) clearResult(); // a new language: the same notice in its words
    return;
  }
  renderStatus(r.structure);
  renderVerdicts(r);
  renderReadings(r);
  renderFindings(r.findings);
  renderStructure(r.structure);
  renderMatrix(r.matrix);
  renderResponse(r.response);
  refreshHighlight(); // the panels' new line links to the highlighted line are marked too
}

/* Switches every text of the page to `code`: labels now, server texts by asking again.
 * `save`: the user picked it (a share link's language is not remembered). */
async function switchLanguage(code, save) {
  await useLanguage(backend, code);
  if (save) remember(lang());
  $("lang").value = lang();
  labelEngineMenu();
  renderResult();
  if (state.info.fetch) renderFetch();
  renderSwaps();
  renderSelftest();
  renderGenerator();
  renderExport();
  schedule(0);
  if (state.info.fetch) { relangFetch(); relangPageCheck(); }
  if (state.info.history) relangHistory();
  if (backend.logs) relangLogs();
  relangSelftest();
  relangGenerator();
  relangExport();
}

function currentQuery() {
  return { t: text(), a: $("agent").value, u: $("urls").value, p: $("paths").value, l: lang(), e: $("engine").value, r: $("response").value };
}

/* Puts a share link's input into the page, and its language if it has one. */
async function openShareLink(link) {
  $("agent").value = link.a;
  $("urls").value = link.u;
  $("paths").value = link.p;
  $("response").value = link.r;
  if (link.e !== null && [...$("engine").options].some((o) => o.value === link.e)) $("engine").value = link.e;
  setText(link.t);
  if (link.l !== null && link.l !== lang() && state.info.languages.includes(link.l)) await switchLanguage(link.l, false);
}

/* The most a share link may unpack to: the editor's limit, with room for JSON's escapes and the other fields. */
function linkLimit() {
  return 2 * state.info.max_body;
}

/* The share link in the address bar: {link} (null when there is none), or {broken: a function giving
 * why in the page's words} (read before the labels are loaded, so the words are looked up when shown). */
async function linkInAddressBar() {
  try {
    return { link: await readShareLink(window.location.hash, linkLimit()) };
  } catch (e) {
    if (e instanceof LinkTooLarge) {
      return { broken: () => t("status.linkTooLarge", { limit: number(e.limit), max: number(state.info.max_body) }) };
    }
    return { broken: () => t("status.badLink") };
  }
}

const OPERATOR = "operator"; // the API's choice "each crawler by its operator's engine"

/* The reading menu: the default reading first (as the server lists it: RFC 9309 with the crawlers'
 * documented profiles), every engine, then "each crawler's own". */
function fillEngineMenu(engines) {
  const select = clear($("engine"));
  for (const e of engines) select.append(el("option", { attrs: { value: e.name }, data: { title: e.title } }));
  select.append(el("option", { attrs: { value: OPERATOR } }));
  select.addEventListener("change", () => { noteEngine(); schedule(0); });
}

/* The menu's words in the current language (engine titles are names: Google, Protego), and the note under it. */
function labelEngineMenu() {
  const options = [...$("engine").options];
  options.forEach((option, i) => {
    if (option.value === OPERATOR) option.textContent = t("matcher.engineOperator");
    else option.textContent = i === 0 ? t("matcher.engineDefault") : option.dataset.title;
  });
  noteEngine();
}

function noteEngine() {
  const chosen = state.result && state.result.engines ? state.result.engines.find((e) => e.name === $("engine").value) : null;
  $("engine-note").textContent = chosen ? chosen.summary : "";
}

function fillLanguageMenu(languages) {
  const select = clear($("lang"));
  for (const code of languages) select.append(el("option", { attrs: { value: code }, data: { i18n: "lang." + code } }));
  select.addEventListener("change", (event) => {
    switchLanguage(event.target.value, true).catch((error) => setStatus(t("status.error", { message: error.message }), "error"));
  });
}

async function loadCrawlers() {
  try {
    const { crawlers } = await backend.crawlers();
    const list = clear($("crawler-list"));
    for (const c of crawlers) {
      list.append(el("option", { attrs: { value: c.token, label: c.name + " — " + c.operator } }));
      if (c.user_agent && c.user_agent !== c.token) list.append(el("option", { attrs: { value: c.user_agent, label: c.token } }));
    }
  } catch (e) { /* the agent field works without suggestions */ }
}

async function useSample() {
  const sample = await loadSample();
  if (!$("agent").value) $("agent").value = SAMPLE_AGENT;
  if (!$("urls").value) $("urls").value = SAMPLE_URLS;
  setText(sample);
}

async function share() {
  await writeShareLink(currentQuery());
  try {
    await navigator.clipboard.writeText(window.location.href);
    setStatus(t("status.copied"));
  } catch (e) {
    setStatus(t("status.shareInAddressBar"));
  }
}

/* The static build's engine starting in a worker: its stages in the status line until it is ready. */
function showLoading(loading) {
  const stage = (event) => {
    if (!loading.done) setStatus(event.detail === "package" ? t("status.loading.package") : t("status.loading.runtime"));
  };
  loading.progress.addEventListener("progress", stage);
  stage({ detail: "runtime" });
  loading.ready.then(
    () => { loading.done = true; },
    (error) => setStatus(t("status.loading.failed", { message: error.message }), "error"),
  );
}

async function start() {
  backend = await createBackend();
  (backend.ready || Promise.resolve()).then(engineReady.resolve, engineReady.reject);
  state.info = await backend.info();
  fillLanguageMenu(state.info.languages);
  fillEngineMenu(state.info.engines);
  const { link, broken } = await linkInAddressBar();
  const linkLang = link && state.info.languages.includes(link.l) ? link.l : null;
  await useLanguage(backend, linkLang || initialLanguage(state.info.languages));
  $("lang").value = lang();
  labelEngineMenu();

  startEditor(schedule);
  for (const id of ["agent", "urls", "paths", "response"]) $(id).addEventListener("input", () => schedule());
  $("load-sample").addEventListener("click", useSample);
  $("clear").addEventListener("click", () => setText(""));
  $("share").addEventListener("click", share);
  // A back end without a network fetch (the static build) says so, with the command to fetch by hand.
  $("fetch-form").hidden = $("policy-notes").hidden = !state.info.fetch;
  $("fetch-offline").hidden = state.info.fetch;
  if (state.info.fetch) startFetch(backend);
  $("page-panel").hidden = !state.info.fetch; // the static build fetches nothing, pages included
  if (state.info.fetch) startPageCheck(backend);
  // Only a server given a history store (`serve --store`) shows one; the static build never does.
  $("history-panel").hidden = !state.info.history;
  if (state.info.history) startHistory(backend);
  // Only the static build audits logs: in the page, with the core in its worker (the served page has no such API).
  if (backend.logs) startLogs(backend);
  if (backend.ready) showLoading(backend);
  startSelftest(backend);
  startGenerator(backend);
  renderGenerator();
  startExport(backend);
  loadCrawlers();
  window.addEventListener("hashchange", async () => {
    const opened = await linkInAddressBar();
    if (opened.link) openShareLink(opened.link);
    if (opened.broken) setStatus(opened.broken(), "error");
  });

  if (link) {
    await openShareLink(link);
  } else if (broken) {
    setStatus(broken(), "error"); // kept in view: nothing is analysed until the user types
  } else {
    if (!$("paths").value) $("paths").value = "/"; // a reload may have kept the paths typed before
    schedule(0);
  }
  document.body.dataset.ready = "1";
}

start().catch((error) => setStatus(String(error.message || error), "error"));
