/* The worker of the static build: loads Pyodide and the robotscope package
 * from the site's own folder, then answers calls with robotscope.api.call.
 * Messages in: {id, endpoint, request}, or {id, log, payload} for the log
 * audit (log: "start" with the request's JSON text, "feed" with an
 * ArrayBuffer of the log's next slice, "finish", "report" with {"lang"}); out: {progress}, {ready},
 * {failed}, {id, answer} (the JSON text robotscope.api.call or the LogAudit
 * returns) or {id, error}. */
import { loadPyodide } from "../../pyodide/pyodide.mjs";

const SITE = new URL("../../", import.meta.url);

async function start() {
  postMessage({ progress: "runtime" });
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", SITE).href });
  postMessage({ progress: "package" });
  const response = await fetch(new URL("robotscope.zip", SITE));
  if (!response.ok) throw new Error("robotscope.zip: " + response.status);
  pyodide.unpackArchive(new Uint8Array(await response.arrayBuffer()), "zip", { extractDir: "/home/pyodide/site" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/site')");
  const call = pyodide.runPython("from robotscope.reports.api import call; call");
  // One audit at a time, kept between its calls; a slice's bytes copied into Python as bytes.
  const [audit, feed] = pyodide.runPython(
    "from robotscope.reports.audit.stream import LogAudit\n" +
    "audit = LogAudit()\n" +
    "(audit, lambda chunk: audit.feed(chunk.to_bytes()))",
  );
  return { call, audit, feed };
}

function logCall({ audit, feed }, op, payload) {
  if (op === "start") return audit.start(payload);
  if (op === "feed") return feed(new Uint8Array(payload));
  if (op === "finish") return audit.finish();
  if (op === "report") return audit.report(payload);
  throw new Error("unknown log call: " + op);
}

const started = start();
started.then(() => postMessage({ ready: true }), (error) => postMessage({ failed: String(error && error.message || error) }));

onmessage = async ({ data }) => {
  const engine = await started;
  try {
    const answer = data.log ? logCall(engine, data.log, data.payload) : engine.call(data.endpoint, data.request);
    postMessage({ id: data.id, answer });
  } catch (error) {
    postMessage({ id: data.id, error: String(error && error.message || error) });
  }
};
