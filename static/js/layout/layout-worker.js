/**
 * Lays graphs out off the main thread: receives `{id, input}` (packed by
 * layout-pack.js's packInput), posts `{id, packed}`
 * back, the layout packed into typed arrays (transferred, not copied), or `{id, error}`.
 * Big graphs go from typed arrays to typed arrays (layeredLayoutPacked), making no
 * object per value; dagre is loaded only for the small graphs that use it. One worker
 * serves a page.
 */
import { DAGRE_MAX_NODES, LAYERED_SPACING, layoutGraph } from "./layout.js";
import { layeredLayoutPacked } from "./layered-layout.js";
import { packLayout, transferables, unpackInput } from "./layout-pack.js";

self.addEventListener("message", async (event) => {
  const { id, input } = event.data;
  try {
    const packed =
      input.labelChars.length <= DAGRE_MAX_NODES
        ? packLayout(
            layoutGraph(
              unpackInput(input),
              (await import("../../vendor/dagre/dagre.esm.js")).default,
            ),
          )
        : { ...layeredLayoutPacked(input, LAYERED_SPACING), engine: "layered" };
    self.postMessage({ id, packed }, { transfer: transferables(packed) });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
});
