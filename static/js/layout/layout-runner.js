/**
 * Gets a layout without freezing the page: any graph past a few dozen values is laid
 * out in a module Worker (dagre up to DAGRE_MAX_NODES, the fast layered layout above),
 * so input keeps flowing while a 20,000-value graph is placed; tiny graphs lay out
 * inline (a worker's start-up would cost more). Where Workers are unavailable (old
 * hosts), or this module was not loaded from the page's own origin (the script-tag
 * embed on another site, exported files whose modules are data: URLs), layout runs
 * inline: browsers refuse such workers.
 *
 * Layouts are cached by structure (layout-pack.js's structureKey), so another pass
 * of the same network, or the same program with new numbers, is placed at once.
 */
import { DAGRE_MAX_NODES, layoutGraph, packedLayoutInput } from "./layout.js";
import { isMultiPass } from "../passes/passes.js";
import { validateTrace } from "../passes/trace.js";
import { packInput, structureKey, unpackInput, unpackLayout } from "./layout-pack.js";

const INLINE_MAX_NODES = 30;
/** Layouts kept: enough for a few programs and passes, a few megabytes each at most. */
const CACHE_SIZE = 4;

/** @type {Map<string, import("./layout.js").Layout>} */
const cache = new Map();

/** @returns {Promise<any>} */
const loadDagre = () => import("../../vendor/dagre/dagre.esm.js").then((module) => module.default);

/**
 * Starts laying out a raw trace's graph as soon as it arrives, before the rest of the
 * player indexes it (createTimeline), so that indexing runs while the worker lays
 * out. Null for traces of several passes (pass-graph.js lays out each pass);
 * throws what validateTrace throws for a trace the player cannot use.
 * @param {unknown} rawTrace
 * @returns {Promise<import("./layout.js").Layout> | null}
 */
export function startLayout(rawTrace) {
  const trace = validateTrace(rawTrace);
  return isMultiPass(trace) ? null : layoutPacked(packedLayoutInput(trace));
}

/**
 * @param {import("./layout.js").LayoutInput} input
 * @returns {Promise<import("./layout.js").Layout>}
 */
export function computeLayout(input) {
  return layoutPacked(packInput(input));
}

/**
 * The layout of a packed input (layout-pack.js): from the cache, the worker, or inline.
 * @param {import("./layout-pack.js").PackedInput} input
 * @returns {Promise<import("./layout.js").Layout>}
 */
async function layoutPacked(input) {
  const key = structureKey(input);
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const layout = await freshLayout(input);
  cache.set(key, layout);
  if (cache.size > CACHE_SIZE) cache.delete(/** @type {string} */ (cache.keys().next().value));
  return layout;
}

/** @param {import("./layout-pack.js").PackedInput} input */
async function freshLayout(input) {
  const size = input.labelChars.length;
  const workerUrl = size > INLINE_MAX_NODES ? sameOriginWorkerUrl() : null;
  if (workerUrl) {
    try {
      return await inWorker(input, workerUrl);
    } catch {
      // Fall through: an inline layout blocks the page for a moment but always works.
    }
  }
  // The packed input lays out exactly as the one it was made from.
  return layoutGraph(unpackInput(input), size <= DAGRE_MAX_NODES ? await loadDagre() : undefined);
}

/**
 * Start the layout worker ahead of need, so that the first big graph does not wait
 * for the worker's modules to load (a few hundred milliseconds on a busy machine).
 * `/` calls it once its first program is shown: a learner there may run a big
 * program next. Does nothing where layout runs inline.
 */
export function warmLayoutWorker() {
  const url = sameOriginWorkerUrl();
  if (url) sharedWorker(url);
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
 * One worker, kept between layouts: its module is loaded and its code warmed up once,
 * which saves a tenth of a second per new big graph. A failed worker is dropped, and
 * whatever it was laying out falls back to the main thread.
 * @type {{worker: Worker, pending: Map<number, {resolve: (layout: any) => void, reject: (error: Error) => void}>} | null}
 */
let shared = null;
let nextRequest = 0;

/** @param {URL} url */
function sharedWorker(url) {
  if (shared) return shared;
  const worker = new Worker(url, { type: "module" });
  const current = { worker, pending: new Map() };
  worker.addEventListener("message", (event) => {
    const request = current.pending.get(event.data.id);
    if (!request) return;
    current.pending.delete(event.data.id);
    if (event.data.error) request.reject(new Error(event.data.error));
    else request.resolve(unpackLayout(event.data.packed));
  });
  worker.addEventListener("error", (event) => {
    worker.terminate();
    if (shared === current) shared = null;
    for (const request of current.pending.values())
      request.reject(new Error(event.message || "layout worker failed"));
    current.pending.clear();
  });
  shared = current;
  return current;
}

/**
 * The input is copied to the worker (typed arrays: a copy of their bytes, about a
 * megabyte at 20,000 values), not transferred: the inline fallback still needs it.
 * @param {import("./layout-pack.js").PackedInput} input
 * @param {URL} url
 * @returns {Promise<import("./layout.js").Layout>}
 */
function inWorker(input, url) {
  const { worker, pending } = sharedWorker(url);
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, input });
  });
}
