/* The page's labels: the `page.*` messages of the core's catalogues, fetched
 * from the back end per language (GET /api/strings). Server texts (verdict
 * explanations, findings, fetch decisions, ...) come rendered in the language
 * of each request, so every request sends lang(). */

const STORAGE_KEY = "robotscope.lang";
let current = null;
let strings = {};

/* The label `key` with its {name} placeholders filled from params; the key itself if unknown. */
export function t(key, params) {
  const template = strings[key];
  if (template === undefined) return key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function lang() {
  return current;
}

/* A number written the way the current language writes it (1,048,576). */
export function number(n) {
  return Number(n).toLocaleString(current || undefined);
}

/* The language to start in: the one saved from the language menu, else the
 * browser's first language the server has, else the server's default (listed first). */
export function initialLanguage(languages) {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (languages.includes(saved)) return saved;
  } catch (e) { /* storage may be disabled */ }
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (languages.includes(base)) return base;
  }
  return languages[0];
}

/* Saves a language the user picked, for the next visit. */
export function remember(code) {
  try { localStorage.setItem(STORAGE_KEY, code); } catch (e) { /* storage may be disabled */ }
}

/* Loads the labels of `code` from the back end and writes the static ones into the page. */
export async function useLanguage(backend, code) {
  const answer = await backend.strings(code);
  strings = answer.strings;
  current = answer.lang;
  // :lang(ko) in app.css wraps Korean by words; screen readers pick their voice from it.
  document.documentElement.lang = current;
  applyStaticStrings();
}

/* Fills every data-i18n* element of index.html. */
function applyStaticStrings() {
  document.title = t("app.title");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of document.querySelectorAll("[data-i18n-aria-label]")) node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
}
