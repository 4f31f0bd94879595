/* The Logs panel (the static build only: its back end has `logs`): choose or
 * drop an access log and it is audited here, in the page's worker, against
 * one robots.txt (typed, dropped, or the editor's) applied to every origin.
 * The file is read a slice at a time (File.slice) and each slice handed to
 * the worker, which cuts it into lines and audits them
 * (robotscope.reports.audit.stream); nothing is sent anywhere. Claims are
 * checked by the IP lists shipped in the package: a page asks no DNS.
 *
 * The answer is the summary view and the HTML report's body, the same as
 * `robotscope logs --html` draws. The report is parsed inert (DOMParser runs
 * and loads nothing) and rebuilt element by element through an allow-list
 * of its elements and attributes: no markup reaches the page as such, and
 * text from the log stays text.
 */
import { $, clear, el } from "../dom.js";
import { lang, number, t } from "../i18n.js";
import { text as editorText } from "../editor.js";
import { state } from "../state.js";

const MB = 2 ** 20; // bytes in a MiB, for what the panel shows
const SLICE = 2 ** 21; // bytes read and handed to the worker at a time: a chunk size, no limit
const MOST_MB = 512; // "a few hundred MB at most": larger logs are for `robotscope logs`
const SVG = "http://www.w3.org/2000/svg";
// The report's elements (reports/audit/html.py ELEMENTS, the document's own aside) and attributes.
const ELEMENTS = new Set([
  "div", "section", "h1", "h2", "p", "ul", "li", "b", "table", "thead", "tbody", "tr", "th", "td", "bdi", "code",
  "footer", "svg", "rect", "line", "text", "g", "title",
]);
const ATTRIBUTES = new Set([
  "class", "lang", "dir", "role", "aria-label", "aria-hidden", "viewBox", "width", "height", "x", "y", "x1", "x2",
  "y1", "y2", "fill", "stroke", "stroke-dasharray", "text-anchor",
]);

let backend = null;
let file = null; // the log chosen
let running = null; // {stop: false} while an audit runs
let finished = false; // a report is shown: a new language asks the worker to draw it again

export function startLogs(theBackend) {
  backend = theBackend;
  $("logs-panel").hidden = false;
  $("logs-hint").textContent = t("logs.hint", { limit: number(MOST_MB) });
  $("logs-file-input").addEventListener("change", (event) => {
    choose(event.target.files[0]);
    event.target.value = "";
  });
  dropTarget($("logs-drop"), (dropped) => choose(dropped));
  dropTarget($("logs-robots"), readRobots);
  $("logs-use-editor").addEventListener("click", () => { $("logs-robots").value = editorText(); });
  $("logs-go").addEventListener("click", run);
  $("logs-stop").addEventListener("click", () => { if (running) running.stop = true; });
  const formats = $("logs-format");
  // The formats a page can read: `common` logs no User-Agent, `jsonl` needs the command line's --map.
  for (const name of ["combined", "nginx", "apache", "caddy", "cloudfront", "alb", "cloudflare", "w3c", "fastly"]) {
    formats.append(el("option", { attrs: { value: name }, text: name }));
  }
}

/* The panel's words in the new language, and the report drawn again in it (the audit is not run again). */
export async function relangLogs() {
  $("logs-hint").textContent = t("logs.hint", { limit: number(MOST_MB) });
  showFile();
  if (!finished || running) return;
  try {
    draw(await backend.logs.report(lang()));
  } catch (error) {
    say(t("logs.failed", { message: error.message }), "error");
  }
}

function dropTarget(node, onFile) {
  node.addEventListener("dragover", (event) => { event.preventDefault(); node.classList.add("drop"); });
  node.addEventListener("dragleave", () => node.classList.remove("drop"));
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    node.classList.remove("drop");
    if (event.dataTransfer && event.dataTransfer.files.length) onFile(event.dataTransfer.files[0]);
  });
}

function choose(chosen) {
  if (!chosen) return;
  file = chosen;
  showFile();
  say("");
}

function showFile() {
  $("logs-file").textContent = file ? `${file.name} (${number((file.size / MB).toFixed(1))} MB)` : "";
}

async function readRobots(dropped) {
  if (dropped.size > state.info.max_body) {
    say(t("status.tooLarge", { size: number(dropped.size), limit: number(state.info.max_body) }), "error");
    return;
  }
  $("logs-robots").value = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await dropped.arrayBuffer());
}

function say(message, kind = "") {
  const status = $("logs-status");
  status.textContent = message;
  status.className = kind;
}

function progress(read, size, lines, requests) {
  const bar = $("logs-progress");
  bar.max = size || 1;
  bar.value = read;
  const mb = (n) => number((n / MB).toFixed(1));
  say(t("logs.progress", { read: mb(read), size: mb(size), lines: number(lines), requests: number(requests) }));
}

async function run() {
  if (running) return;
  if (!file) { say(t("logs.noFile"), "error"); return; }
  const robots = $("logs-robots").value;
  if (!robots.trim()) { say(t("logs.noRobots"), "error"); return; }
  if (file.size > MOST_MB * MB) {
    const size = number(Math.ceil(file.size / MB));
    say(t("logs.tooLarge", { name: file.name, size, limit: number(MOST_MB) }), "error");
    return;
  }
  const mine = running = { stop: false };
  const started = performance.now();
  const request = {
    robots, robots_name: "robots.txt", site: $("logs-site").value.trim() || null, format: $("logs-format").value,
    log_format: $("logs-log-format").value, name: file.name, lang: lang(),
  };
  document.body.dataset.logsBusy = "1";
  $("logs-go").disabled = true;
  $("logs-stop").hidden = false;
  $("logs-progress").hidden = false;
  clear($("logs-result"));
  finished = false;
  try {
    await backend.logs.start(request);
    let read = 0;
    let counts = { lines: 0, requests: 0 };
    progress(0, file.size, 0, 0);
    while (read < file.size && !mine.stop) {
      const slice = await file.slice(read, read + SLICE).arrayBuffer();
      counts = await backend.logs.feed(slice);
      read = Math.min(read + SLICE, file.size);
      progress(read, file.size, counts.lines, counts.requests);
    }
    const answer = await backend.logs.finish();
    const seconds = number(((performance.now() - started) / 1000).toFixed(1));
    const format = answer.format === "auto" ? "-" : answer.format; // no line to tell it from
    const done = t("logs.done", { name: file.name, lines: number(answer.lines), format, seconds });
    say(mine.stop ? `${done} ${t("logs.stopped")}` : done);
    draw(answer);
    finished = true;
  } catch (error) {
    say(t("logs.failed", { message: error.message }), "error");
  } finally {
    running = null;
    delete document.body.dataset.logsBusy;
    $("logs-go").disabled = false;
    $("logs-stop").hidden = true;
  }
}

/* The report, rebuilt from its inert parse through the allow-list; its counts as data for tests and tools. */
function draw(answer) {
  const parsed = new DOMParser().parseFromString(answer.html, "text/html");
  const result = clear($("logs-result"));
  for (const node of parsed.body.childNodes) {
    const made = rebuilt(node);
    if (made) result.append(made);
  }
  result.dataset.requests = answer.view.requests;
  result.dataset.audited = answer.view.audited;
  for (const [kind, count] of Object.entries(answer.view.classes)) result.dataset[kind] = count;
}

function rebuilt(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const name = node.localName;
  if (!ELEMENTS.has(name)) return null;
  const made = node.namespaceURI === SVG ? document.createElementNS(SVG, name) : document.createElement(name);
  for (const { name: attribute, value } of node.attributes) {
    if (ATTRIBUTES.has(attribute) || attribute.startsWith("data-")) made.setAttribute(attribute, value);
  }
  for (const child of node.childNodes) {
    const built = rebuilt(child);
    if (built) made.append(built);
  }
  return made;
}
