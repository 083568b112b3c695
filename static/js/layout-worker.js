/**
 * Lays graphs out off the main thread: receives `{id, input}` (packed by
 * layout-pack.js's packInput), posts `{id, packed}`
 * back, the layout packed into typed arrays (transferred, not copied), or `{id, error}`.
 * Loads dagre only for the small graphs that use it. One worker serves a page.
 */
import { DAGRE_MAX_NODES, layoutGraph } from "./layout.js";
import { packLayout, transferables, unpackInput } from "./layout-pack.js";

self.addEventListener("message", async (event) => {
  const { id } = event.data;
  try {
    const input = unpackInput(event.data.input);
    const dagre =
      input.nodes.length <= DAGRE_MAX_NODES
        ? (await import("../vendor/dagre/dagre.esm.js")).default
        : undefined;
    const packed = packLayout(layoutGraph(input, dagre));
    self.postMessage({ id, packed }, { transfer: transferables(packed) });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
});
