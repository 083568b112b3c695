/**
 * Gets a layout without freezing the page: dagre runs in a module Worker for
 * mid-sized graphs, tiny graphs lay out inline (a worker's start-up would cost
 * more), big graphs use the fast layered layout inline (tens of milliseconds).
 * Where Workers are unavailable (file:// pages, old hosts) dagre runs inline.
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
  if (size > INLINE_DAGRE_MAX_NODES && typeof Worker !== "undefined") {
    try {
      return await inWorker(input);
    } catch {
      // Fall through: an inline layout is slower to show but always works.
    }
  }
  return layoutGraph(input, await loadDagre());
}

/** @param {import("./layout.js").LayoutInput} input */
function inWorker(input) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./layout-worker.js", import.meta.url), { type: "module" });
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
