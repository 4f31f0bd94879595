/* The worker of the static build: loads Pyodide and the robotscope package
 * from the site's own folder, then answers calls with robotscope.api.call.
 * Messages in: {id, endpoint, request}; out: {progress}, {ready}, {failed},
 * {id, answer} (the JSON text robotscope.api.call returns) or {id, error}. */
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
  return pyodide.runPython("from robotscope.reports.api import call; call");
}

const started = start();
started.then(() => postMessage({ ready: true }), (error) => postMessage({ failed: String(error && error.message || error) }));

onmessage = async ({ data }) => {
  const call = await started;
  try {
    postMessage({ id: data.id, answer: call(data.endpoint, data.request) });
  } catch (error) {
    postMessage({ id: data.id, error: String(error && error.message || error) });
  }
};
