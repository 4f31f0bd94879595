/* The back end: the only module that talks to the server.
 *
 * Every back end is one object with these methods, each returning a promise
 * of the answer as API.md describes it, or rejecting with a BackendError:
 *
 *   analyse(body)   POST /api/analyse  {text, agent, urls, paths, lang, engine, origin?}
 *   generate(body)  POST /api/generate {preset | spec, agent, lang}
 *   exportRules(body) POST /api/export {text, target, agents, lang}
 *   fetch(body)     POST /api/fetch    {url, policy, lang}
 *   page(body)      POST /api/page     {url, agents, lang}  (server build only)
 *   historyOrigins()              GET /api/history                        (a server with a store only)
 *   history(origin, lang)         GET /api/history?origin=&lang=          (the same)
 *   historyVersion(origin, id)    GET /api/history/version?origin=&id=    (the same)
 *   selftest(lang)  GET  /api/selftest
 *   crawlers()      GET  /api/crawlers
 *   policies(lang)  GET  /api/policies
 *   info()          GET  /api/info     (version, languages, limits, fetch)
 *   strings(lang)   GET  /api/strings  (the page's labels)
 *   logs            {start, feed, finish, report}: the Logs panel's audit   (the Pyodide back end only)
 *
 * The server back end below calls the local API. A Pyodide back end, running
 * the same Python core in the browser, implements the same interface in
 * pyodide-backend.js; index.html's <meta name="robotscope-backend"
 * content="server|pyodide"> picks one, and createBackend() is the only place
 * that reads it.
 */

/* A failed request: `code` is the API's error code ("too-large", "bad-url",
 * ...), "network" when no answer came, or "http-<status>" for a non-JSON
 * answer; `detail` is the API's whole error object, if any. */
export class BackendError extends Error {
  constructor(message, code, detail = null) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

async function request(path, body) {
  const init = body === undefined
    ? { method: "GET", headers: { Accept: "application/json" } }
    : { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new BackendError(error.message, "network");
  }
  let data = null;
  try { data = await response.json(); } catch (e) { /* not JSON: reported by status below */ }
  if (!response.ok || data === null) {
    const detail = data && data.error ? data.error : null;
    throw new BackendError(detail ? detail.message : response.statusText, detail ? detail.code : "http-" + response.status, detail);
  }
  return data;
}

function withLang(path, lang) {
  return path + "?" + new URLSearchParams({ lang });
}

function withParams(path, params) {
  return path + "?" + new URLSearchParams(params);
}

function serverBackend() {
  return {
    analyse: (body) => request("/api/analyse", body),
    generate: (body) => request("/api/generate", body),
    exportRules: (body) => request("/api/export", body),
    fetch: (body) => request("/api/fetch", body),
    page: (body) => request("/api/page", body),
    historyOrigins: () => request("/api/history"),
    history: (origin, lang) => request(withParams("/api/history", { origin, lang })),
    historyVersion: (origin, id) => request(withParams("/api/history/version", { origin, id })),
    selftest: (lang) => request(withLang("/api/selftest", lang)),
    crawlers: () => request("/api/crawlers"),
    policies: (lang) => request(withLang("/api/policies", lang)),
    info: () => request("/api/info"),
    strings: (lang) => request(withLang("/api/strings", lang)),
  };
}

// Imported only when chosen, so the server page never loads Pyodide.
const BACKENDS = {
  server: async () => serverBackend(),
  pyodide: async () => (await import("./pyodide-backend.js")).createBackend(),
};

/* The back end index.html names (server when it names none or an unknown one). */
export function createBackend() {
  const meta = document.querySelector('meta[name="robotscope-backend"]');
  const name = meta && Object.hasOwn(BACKENDS, meta.content) ? meta.content : "server";
  return BACKENDS[name]();
}

/* The sample robots.txt: a static file beside the page, so the same for every back end. */
export async function loadSample() {
  const response = await fetch(new URL("../sample.txt", import.meta.url));
  if (!response.ok) throw new BackendError(response.statusText, "http-" + response.status);
  return response.text();
}
