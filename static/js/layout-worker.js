/**
 * Lays a graph out off the main thread: receives a layout input, posts the layout
 * back packed into typed arrays (transferred, not copied). Loads dagre only for the
 * small graphs that use it.
 */
import { DAGRE_MAX_NODES, layoutGraph } from "./layout.js";
import { packLayout, transferables } from "./layout-pack.js";

self.addEventListener("message", async (event) => {
  try {
    const dagre = event.data.nodes.length <= DAGRE_MAX_NODES
      ? (await import("../vendor/dagre/dagre.esm.js")).default
      : undefined;
    const packed = packLayout(layoutGraph(event.data, dagre));
    self.postMessage({ packed }, { transfer: transferables(packed) });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
});
