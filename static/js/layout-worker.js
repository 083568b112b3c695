/**
 * Runs dagre off the main thread: receives a layout input, posts the layout back.
 */
import dagre from "../vendor/dagre/dagre.esm.js";
import { layoutGraph } from "./layout.js";

self.addEventListener("message", (event) => {
  try {
    self.postMessage({ layout: layoutGraph(event.data, dagre) });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
});
