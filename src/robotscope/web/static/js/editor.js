/* The robots.txt editor: a textarea over a gutter of line numbers and a highlight bar.
 *
 * The bar marks one line. Shown for a verdict, it marks that verdict's
 * deciding line and says so ("line 13 decides /drafts/x"); shown from a
 * finding or a structure link it only names the line, because that line
 * decides nothing in particular.
 */
import { $, lineLink } from "./dom.js";
import { number, t } from "./i18n.js";
import { state } from "./state.js";

const LINE_HEIGHT = 20; // px, must match .editor textarea/.gutter in app.css
const PAD_TOP = 8; // px, the editor's top padding in app.css

let cachedLines = null; // the textarea's lines, split once per change
let highlight = null; // {line, decides: the verdict's URL, or null}
let changed = () => {}; // set by startEditor: the text changed (delay in ms before analysing)

function lines() {
  if (cachedLines === null) cachedLines = $("robots").value.split(/\r\n|\r|\n/);
  return cachedLines;
}

/* The raw text of line n, "" past the end. */
export function lineText(n) {
  const all = lines();
  return n >= 1 && n <= all.length ? all[n - 1] : "";
}

export function text() {
  return $("robots").value;
}

/* Replaces the whole text (sample, file, fetch, generator, share link) and analyses it at once.
 * The old highlight goes: its line is not in the new text. (Typing keeps it until
 * the analysis comes back and puts the bar on the new deciding line.) */
export function setText(value) {
  $("robots").value = value;
  highlight = null;
  refreshHighlight();
  textChanged(0);
}

function textChanged(delay) {
  cachedLines = null;
  updateGutter();
  changed(delay);
}

export function setStatus(message, kind = "") {
  const status = $("status");
  status.textContent = message;
  status.className = "status" + (kind ? " " + kind : "");
}

function updateGutter() {
  const count = lines().length;
  const gutter = $("gutter");
  if (Number(gutter.dataset.count) !== count) {
    gutter.textContent = Array.from({ length: count }, (_, i) => i + 1).join("\n") + "\n";
    gutter.dataset.count = String(count);
  }
  syncScroll();
}

function syncScroll() {
  $("gutter").scrollTop = $("robots").scrollTop;
  positionBar();
}

function positionBar() {
  const bar = $("hl-bar");
  bar.hidden = highlight === null;
  if (highlight) bar.style.top = (PAD_TOP + (highlight.line - 1) * LINE_HEIGHT - $("robots").scrollTop) + "px";
}

/* Highlights line n. `decides` is the URL of the verdict n decides, or null
 * for a line shown for another reason; `scroll` brings it into view. */
export function showLine(n, { decides = null, scroll = true } = {}) {
  highlight = { line: n, decides };
  refreshHighlight();
  if (scroll) scrollTo(n);
}

export function clearHighlight() {
  highlight = null;
  refreshHighlight();
}

/* Redraws the bar's label and marks what points at it: the line links to
 * its line, and the verdict card (data-url) whose deciding line it is.
 * Called after a highlight, a new language, or panels drawn anew. */
export function refreshHighlight() {
  const editor = $("editor");
  const bar = $("hl-bar");
  const note = $("hl-note");
  for (const node of document.querySelectorAll(".line-link.active")) node.classList.remove("active");
  markVerdict(highlight && highlight.decides);
  if (highlight === null) {
    delete editor.dataset.highlight;
    delete bar.dataset.line;
    delete bar.dataset.decides;
    bar.removeAttribute("title");
    note.textContent = "";
  } else {
    const { line, decides } = highlight;
    const label = decides === null ? t("common.lineN", { line }) : t("editor.decides", { line, url: decides });
    editor.dataset.highlight = String(line);
    bar.dataset.line = String(line);
    if (decides === null) delete bar.dataset.decides;
    else bar.dataset.decides = decides;
    bar.title = label;
    note.textContent = label;
    for (const node of document.querySelectorAll(`.line-link[data-line="${line}"]`)) node.classList.add("active");
  }
  positionBar();
}

function markVerdict(url) {
  for (const card of document.querySelectorAll(".verdict[data-url]")) {
    const on = url !== null && card.dataset.url === url && card.dataset.line === String(highlight.line);
    card.classList.toggle("selected", on);
    if (on) card.setAttribute("aria-current", "true");
    else card.removeAttribute("aria-current");
  }
}

function scrollTo(n) {
  const area = $("robots");
  const top = (n - 1) * LINE_HEIGHT;
  if (top < area.scrollTop || top > area.scrollTop + area.clientHeight - 2 * LINE_HEIGHT) {
    area.scrollTop = Math.max(0, top - area.clientHeight / 3);
  }
  $("editor").scrollIntoView({ block: "nearest" });
  syncScroll();
}

/* A link to line n, labelled with its text unless told otherwise, that highlights it (deciding nothing). */
export function linkTo(n, label = lineText(n)) {
  return lineLink(n, label, () => showLine(n));
}

/* A dropped or opened file, as its bytes read as UTF-8, the way crawlers and
 * the server read robots.txt: nothing is converted, so a UTF-16 file keeps
 * its NULs (and its BOM shows as U+FFFD) and the core reports its encoding. */
async function readFile(file) {
  if (!file) return;
  const limit = state.info.max_body;
  if (file.size > limit) {
    setStatus(t("status.tooLarge", { size: number(file.size), limit: number(limit) }), "error");
    return;
  }
  try {
    const bytes = await file.arrayBuffer();
    state.origin = null; // a file of the user's: no site it came from
    setText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
  } catch (e) {
    setStatus(t("status.readError"), "error");
  }
}

/* Wires typing, scrolling, the file input and drag and drop; onChange(delay) analyses the text. */
export function startEditor(onChange) {
  changed = onChange;
  const area = $("robots");
  area.addEventListener("input", () => textChanged());
  area.addEventListener("scroll", syncScroll);
  if (typeof ResizeObserver === "function") new ResizeObserver(syncScroll).observe(area);
  $("file-input").addEventListener("change", (event) => {
    readFile(event.target.files[0]);
    event.target.value = ""; // the same file again is a new change
  });
  const editor = $("editor");
  editor.addEventListener("dragover", (event) => { event.preventDefault(); editor.classList.add("drop"); });
  editor.addEventListener("dragleave", () => editor.classList.remove("drop"));
  editor.addEventListener("drop", (event) => {
    event.preventDefault();
    editor.classList.remove("drop");
    if (event.dataTransfer && event.dataTransfer.files.length) readFile(event.dataTransfer.files[0]);
  });
  updateGutter();
}
