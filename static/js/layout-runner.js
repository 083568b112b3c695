/**
 * Gets a layout without freezing the page: dagre runs in a module Worker for
 * mid-sized graphs, tiny graphs lay out inline (a worker's start-up would cost
 * more), big graphs use the fast layered layout inline (tens of milliseconds).
 * Where Workers are unavailable (old hosts), or this module was not loaded from the
 * page's own origin (the script-tag embed on another site, exported files whose
 * modules are data: URLs), dagre runs inline: browsers refuse such workers.
 */
import { DAGRE_MAX_NODES, layoutGraph } from "./layout.js";

const INLINE_DAGRE_MAX_NODES = 30;

/** @returns {Promise<any>} */
const loadDagre = () => import("../vendor/dagre/dagre.esm.js").then((module) => module.default);

/**
 * @param {import("./layout.js").LayoutInput} input
 * @returns {Promise<import("./layout.js").Layout>}
 */
export async function computeLayout(input) {
  const size = input.nodes.length;
  if (size > DAGRE_MAX_NODES) return layoutGraph(input);
  const workerUrl = size > INLINE_DAGRE_MAX_NODES ? sameOriginWorkerUrl() : null;
  if (workerUrl) {
    try {
      return await inWorker(input, workerUrl);
    } catch {
      // Fall through: an inline layout is slower to show but always works.
    }
  }
  return layoutGraph(input, await loadDagre());
}

/** The worker's URL when this page may start it, else null. */
function sameOriginWorkerUrl() {
  if (typeof Worker === "undefined") return null;
  try {
    const url = new URL("./layout-worker.js", import.meta.url);
    return url.origin === globalThis.location?.origin && url.origin !== "null" ? url : null;
  } catch {
    return null; // a data: or blob: module has no base for relative URLs
  }
}

/**
 * @param {import("./layout.js").LayoutInput} input
 * @param {URL} url
 */
function inWorker(input, url) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { type: "module" });
    worker.addEventListener("message", (event) => {
      worker.terminate();
      if (event.data.error) reject(new Error(event.data.error));
      else resolve(event.data.layout);
    });
    worker.addEventListener("error", (event) => {
      worker.terminate();
      reject(new Error(event.message || "layout worker failed"));
    });
    worker.postMessage(input);
  });
}
