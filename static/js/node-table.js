/**
 * The node table: the same numbers as the picture, as an accessible table
 * (topo position, name, op, data, grad at this frame). It renders only while
 * open, so big graphs do not pay for it when scrubbing.
 */
import { formatValue } from "./format.js";
import { html } from "./svg.js";

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("./timeline.js").Timeline, names: string[]}} options
 */
export function mountNodeTable(container, { timeline, names }) {
  const { trace } = timeline;
  const body = html("tbody");
  const details = html("details", { class: "node-table" }, [
    html("summary", { text: `Table of values (${trace.nodes.length})` }),
    html("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Table of values" }, [
      html("table", {}, [
        html("caption", { class: "visually-hidden", text: "Every value drawn in the graph at this frame" }),
        html("thead", {}, [html("tr", {}, ["#", "value", "op", "data", "grad"].map((title) => html("th", { scope: "col", text: title })))]),
        body,
      ]),
    ]),
  ]);
  container.replaceChildren(details);
  /** @type {import("./timeline.js").FrameState | null} */
  let latest = null;
  let shownFrame = -1;

  function render() {
    if (!latest || !details.open || latest.index === shownFrame) return;
    const state = latest;
    shownFrame = state.index;
    const rows = [];
    const order = trace.topo.map((id) => /** @type {number} */ (timeline.indexOf.get(id)));
    for (const i of order) {
      if (!state.visible[i]) continue;
      const node = trace.nodes[i];
      rows.push(html("tr", { "data-role": state.roles[i] }, [
        html("td", { text: state.sorted ? String(timeline.topoIndex[i] + 1) : "" }),
        html("th", { scope: "row", text: names[i] }),
        html("td", { text: node.op || node.kind }),
        html("td", { class: "number", text: formatValue(node.data) }),
        html("td", { class: "number", text: formatValue(state.grads[i]) }),
      ]));
    }
    body.replaceChildren(...rows);
  }
  details.addEventListener("toggle", render);

  /** @param {import("./timeline.js").FrameState} state */
  function update(state) {
    latest = state;
    render();
  }
  return { update };
}
