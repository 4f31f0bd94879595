/* The in-browser back end of the static build (`robotscope build-site`): the
 * same interface as the server back end in backend.js, answered by the same
 * Python core running in Pyodide, in a worker so the page stays responsive.
 *
 * What never changes for a build is written by build-site as files beside the
 * page (api/info.json, api/strings-<lang>.json, api/crawlers.json,
 * api/policies-<lang>.json), so the labels show at once; analyse, generate, export and
 * selftest call robotscope.api.call in the worker. Each call has the server's
 * time budget (info.time_budget): past it the worker is stopped, which really
 * stops the work, and restarted, and the call fails with the server's 422
 * too-complex. Nothing is fetched from anywhere but this page's own folder.
 *
 * Only here: `logs`, the log audit of the Logs panel (start, feed each
 * slice's ArrayBuffer, finish, then the report again in another language), run by robotscope.reports.audit.stream in
 * the same worker: the file never leaves the page.
 */
import { BackendError } from "./backend.js";

const HERE = new URL("../../", import.meta.url); // the site's folder: static/js/ is two levels down

async function file(name) {
  let response;
  try {
    response = await fetch(new URL(name, HERE));
  } catch (error) {
    throw new BackendError(error.message, "network");
  }
  if (!response.ok) throw new BackendError(response.statusText, "http-" + response.status);
  return response.json();
}

/* The worker running Python, started at once and again after a call ran out of time. */
class Engine {
  constructor(onProgress) {
    this.onProgress = onProgress;
    this.calls = new Map();
    this.next = 0;
    this.start();
  }

  start() {
    this.worker = new Worker(new URL("./pyodide-worker.js", import.meta.url), { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = ({ data }) => {
        if (data.progress) this.onProgress(data.progress);
        else if (data.ready) resolve();
        else if (data.failed) reject(new BackendError(data.failed, "engine-failed"));
        else this.settle(data);
      };
      this.worker.onerror = (event) => reject(new BackendError(event.message || "the worker failed", "engine-failed"));
    });
  }

  settle({ id, answer, error }) {
    const pending = this.calls.get(id);
    if (!pending) return;
    this.calls.delete(id);
    clearTimeout(pending.timer);
    if (error !== undefined) {
      pending.reject(new BackendError(error, "internal"));
      return;
    }
    const { status, body } = JSON.parse(answer);
    if (status === 200) pending.resolve(body);
    else pending.reject(new BackendError(body.error.message, body.error.code, body.error));
  }

  /* POST-like call: `endpoint` with the request object, within `budget` seconds of work. */
  call(endpoint, request, budget) {
    return this.post({ endpoint, request: JSON.stringify(request) }, budget);
  }

  /* A call of the log audit: `op` with its payload (an ArrayBuffer is handed over, not copied). */
  log(op, payload, budget) {
    return this.post({ log: op, payload }, budget, payload instanceof ArrayBuffer ? [payload] : []);
  }

  async post(message, budget, transfer = []) {
    await this.ready;
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.overrun(id, budget), budget * 1000);
      this.calls.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, ...message }, transfer);
    });
  }

  /* A call past its budget: stop the worker (and every call queued in it), start a new one. */
  overrun(id, budget) {
    this.worker.terminate();
    const message = `the analysis took longer than ${budget} seconds and was stopped`;
    for (const [other, pending] of this.calls) {
      clearTimeout(pending.timer);
      const limit = other === id ? { limit: "time" } : { limit: "time", stopped: true };
      pending.reject(new BackendError(message, "too-complex", { code: "too-complex", message, ...limit }));
    }
    this.calls.clear();
    this.start();
  }
}

/* The static build has no history store (its info says "history": false, so no panel asks). */
async function noStore() {
  throw new BackendError("this page has no history store", "no-store");
}

export async function createBackend() {
  const progress = new EventTarget();
  const engine = new Engine((stage) => progress.dispatchEvent(new CustomEvent("progress", { detail: stage })));
  const info = await file("api/info.json");
  const budget = info.time_budget;
  const backend = {
    analyse: (body) => engine.call("analyse", body, budget),
    generate: (body) => engine.call("generate", body, budget),
    exportRules: (body) => engine.call("export", body, budget),
    fetch: async () => { throw new BackendError("this page fetches nothing; paste the file instead", "no-fetch"); },
    page: async () => { throw new BackendError("this page fetches nothing", "no-fetch"); },
    historyOrigins: noStore,
    history: noStore,
    historyVersion: noStore,
    selftest: (lang) => engine.call("selftest", { lang }, budget),
    logs: {
      start: (request) => engine.log("start", JSON.stringify(request), budget),
      feed: (bytes) => engine.log("feed", bytes, budget),
      finish: () => engine.log("finish", null, budget),
      report: (language) => engine.log("report", JSON.stringify({ lang: language }), budget),
    },
    crawlers: () => file("api/crawlers.json"),
    policies: (lang) => file(`api/policies-${lang}.json`),
    info: async () => info,
    strings: (lang) => file(`api/strings-${lang}.json`),
    // Only here: the engine loading (`ready`), its stages ("runtime", "package") as events.
    ready: engine.ready.then(() => undefined),
    progress,
  };
  return backend;
}
