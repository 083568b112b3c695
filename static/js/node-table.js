/**
 * The node table: the same numbers as the picture, as an accessible table
 * (topo position, name, op, data, grad at this frame). Rows are made once, the
 * first time the table opens; after that a frame repaints only the rows in view
 * (the rest catch up as they scroll in) and only the cells that changed; values
 * not yet built are hidden rows; and the columns have fixed widths, so a changed
 * number never re-measures the whole table. That keeps scrubbing a 2,000-value
 * graph with the table open cheap.
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
        html("caption", { class: "visually-hidden", text: "Every value drawn in the graph at this frame; \u2713 marks a gradient that is final" }),
        html("thead", {}, [html("tr", {}, ["#", "value", "op", "data", "grad"].map((title) => html("th", { scope: "col", text: title })))]),
        body,
      ]),
    ]),
  ]);
  container.replaceChildren(details);
  const scrollBox = /** @type {HTMLElement} */ (details.querySelector(".table-scroll"));
  const size = trace.nodes.length;
  const order = trace.topo.map((id) => /** @type {number} */ (timeline.indexOf.get(id)));
  const positionOf = new Int32Array(size);
  order.forEach((i, position) => (positionOf[i] = position + 1));
  /** @type {Array<{row: HTMLTableRowElement, position: HTMLElement, grad: HTMLElement}> | null} */
  let rows = null;
  const shownGrad = new Float64Array(size).fill(NaN);
  /** @type {string[]} */ const shownRole = new Array(size).fill("");
  const shownFinal = new Uint8Array(size);
  const shownSorted = new Int8Array(size).fill(-1);
  const shownVisible = new Int8Array(size).fill(-1);
  // Rows in (or near) the scroll box's view: only they are repainted per frame; the
  // others catch up when they scroll into view.
  const onScreen = new Uint8Array(size);
  /** @type {IntersectionObserver | null} */
  let observer = null;
  /** @type {import("./timeline.js").FrameState | null} */
  let latest = null;
  let shownFrame = -1;

  function makeRows() {
    return trace.nodes.map((node, i) => {
      const position = html("td", { class: "number" });
      const grad = html("td", { class: "number" });
      const row = html("tr", { hidden: true, "data-index": i }, [
        position,
        html("th", { scope: "row", text: names[i] }),
        html("td", { text: node.op || node.kind }),
        html("td", { class: "number", text: formatValue(node.data) }),
        grad,
      ]);
      return { row, position, grad };
    });
  }

  /**
   * @param {number} i
   * @param {import("./timeline.js").FrameState} state
   */
  function paintRow(i, state) {
    const cells = /** @type {NonNullable<typeof rows>} */ (rows)[i];
    const sorted = state.sorted ? 1 : 0;
    if (shownSorted[i] !== sorted) {
      shownSorted[i] = sorted;
      cells.position.textContent = sorted ? String(positionOf[i]) : "";
    }
    if (shownRole[i] !== state.roles[i]) {
      shownRole[i] = state.roles[i];
      cells.row.dataset.role = state.roles[i];
    }
    if (!Object.is(shownGrad[i], state.grads[i]) || shownFinal[i] !== state.final[i]) {
      shownGrad[i] = state.grads[i];
      shownFinal[i] = state.final[i];
      cells.grad.textContent = `${formatValue(state.grads[i])}${state.final[i] ? " \u2713" : ""}`;
    }
  }

  function render() {
    if (!latest || !details.open || latest.index === shownFrame) return;
    const state = latest;
    shownFrame = state.index;
    if (!rows) {
      const made = makeRows();
      body.replaceChildren(...order.map((i) => made[i].row));
      rows = made;
      if (typeof IntersectionObserver === "undefined") onScreen.fill(1);
      else {
        observer = new IntersectionObserver((entries) => {
          for (const entry of entries) {
            const i = Number(/** @type {HTMLElement} */ (entry.target).dataset.index);
            onScreen[i] = entry.isIntersecting ? 1 : 0;
            if (entry.isIntersecting && latest && latest.visible[i]) paintRow(i, latest);
          }
        }, { root: scrollBox, rootMargin: "240px 0px" });
        for (const { row } of made) observer.observe(row);
      }
    }
    for (let i = 0; i < size; i++) {
      if (shownVisible[i] !== state.visible[i]) {
        shownVisible[i] = state.visible[i];
        rows[i].row.hidden = !state.visible[i];
      }
      if (state.visible[i] && onScreen[i]) paintRow(i, state);
    }
  }
  details.addEventListener("toggle", render);

  /** @param {import("./timeline.js").FrameState} state */
  function update(state) {
    latest = state;
    render();
  }
  return { update, destroy: () => observer?.disconnect() };
}
