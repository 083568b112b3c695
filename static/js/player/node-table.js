/**
 * The node table: the same numbers as the picture, as an accessible table
 * (topo position, name, op, data, grad at this frame). It lists the values built by
 * this frame, in topo order, but only the rows in the scroll box's view (plus a few
 * either side) exist: the table is pushed down by its first row's offset and a
 * spacer below it stands in for the rest, so the scrollbar is the full list's.
 * aria-rowcount and aria-rowindex tell assistive tech where the rows sit in it.
 * Row elements are reused as the window moves, and a repaint writes only the
 * cells whose text changed, so scrubbing a 2,000-value graph with the table open
 * touches a few dozen rows. Leaves out: rows of more than one line (long names are
 * cut with an ellipsis; the full name is the cell's title).
 */
import { formatValue } from "./format.js";
import { visibleRange } from "./row-window.js";
import { html } from "./svg.js";

/** Rows built beyond each edge of the view, so a small scroll never shows a gap. */
const OVERSCAN = 8;
/** Used until the first rows are laid out and measured. */
const GUESSED_ROW_HEIGHT = 28;

/**
 * @typedef {{
 *   row: HTMLTableRowElement, position: HTMLElement, name: HTMLElement, op: HTMLElement,
 *   dataCell: HTMLElement, gradCell: HTMLElement,
 *   node: number, rowIndex: number, positionText: string, role: string,
 *   data: number, grad: number, final: number, current: boolean,
 * }} Slot
 * data, grad, final: the numbers the row's text shows (NaN until it shows one), so a
 * repaint formats a number only when it changed.
 */

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[]}} options
 */
export function mountNodeTable(container, { timeline, names }) {
  const { trace } = timeline;
  const size = trace.nodes.length;
  const head = html("thead", {}, [
    html(
      "tr",
      { "aria-rowindex": 1 },
      ["#", "value", "op", "data", "grad"].map((title) =>
        html("th", { scope: "col", text: title }),
      ),
    ),
  ]);
  const body = html("tbody");
  const table = html("table", { "aria-rowcount": 1 }, [
    html("caption", {
      class: "visually-hidden",
      text: "Every value drawn in the graph at this frame; \u2713 marks a gradient that is final",
    }),
    head,
    body,
  ]);
  const spacer = html("div", { class: "table-spacer", "aria-hidden": "true" });
  const scrollBox = html(
    "div",
    { class: "table-scroll", tabindex: 0, role: "region", "aria-label": "Table of values" },
    [table, spacer],
  );
  const details = html("details", { class: "node-table", "data-testid": "node-table" }, [
    html("summary", { text: `Table of values (${trace.topo.length})` }),
    scrollBox,
  ]);
  container.replaceChildren(details);

  const order = trace.topo.map((id) => /** @type {number} */ (timeline.indexOf.get(id)));
  const positionOf = new Int32Array(size);
  order.forEach((i, position) => {
    positionOf[i] = position + 1;
  });
  // The values built by the shown frame, in topo order: the table's rows.
  const listed = new Int32Array(size);
  let listedCount = 0;
  let listedFrame = -1;
  /** @type {Slot[]} */
  const slots = [];
  let shownOffset = -1;
  let shownRest = -1;
  let isLong = false;
  let rowHeight = GUESSED_ROW_HEIGHT;
  let headerHeight = 0;
  let measured = false;
  // Kept from scroll and resize events, so a frame's repaint never reads layout.
  let scrollTop = 0;
  let viewportHeight = 0;
  // The box's max-height, not its height: a short list makes a short box, and sizing
  // the window by that would grow the box one step per repaint.
  const boxHeight = () => {
    const cap = getComputedStyle(scrollBox).maxHeight;
    return cap.endsWith("px") ? parseFloat(cap) : scrollBox.clientHeight;
  };
  /** @type {import("../passes/timeline.js").FrameState | null} */
  let latest = null;

  /** @returns {Slot} */
  function makeSlot() {
    const cells = {
      position: html("td", { class: "number" }),
      name: html("th", { scope: "row" }),
      op: html("td"),
      dataCell: html("td", { class: "number" }),
      gradCell: html("td", { class: "number" }),
    };
    const row = html("tr", {}, [
      cells.position,
      cells.name,
      cells.op,
      cells.dataCell,
      cells.gradCell,
    ]);
    return {
      row,
      ...cells,
      node: -1,
      rowIndex: -1,
      positionText: "",
      role: "",
      data: Number.NaN,
      grad: Number.NaN,
      final: -1,
      current: false,
    };
  }

  /**
   * Show node i as row `place` (0-based) of the list, writing only what differs.
   * @param {Slot} slot
   * @param {number} i
   * @param {number} place
   * @param {import("../passes/timeline.js").FrameState} state
   */
  function paintSlot(slot, i, place, state) {
    if (slot.node !== i) {
      slot.node = i;
      const node = trace.nodes[i];
      slot.name.textContent = names[i];
      slot.name.title = names[i];
      slot.op.textContent = node.op || node.kind;
    }
    // Data moves between passes (SPEC §11 update frames); state.data has it then.
    // Object.is, so a NaN equals itself; an empty cell has shown nothing yet.
    const data = state.data ? state.data[i] : trace.nodes[i].data;
    if (!Object.is(slot.data, data) || slot.dataCell.firstChild === null) {
      slot.data = data;
      slot.dataCell.textContent = formatValue(data);
    }
    // After the header row, 1-based.
    if (slot.rowIndex !== place + 2) {
      slot.rowIndex = place + 2;
      slot.row.setAttribute("aria-rowindex", String(slot.rowIndex));
    }
    const positionText = state.sorted ? String(positionOf[i]) : "";
    if (slot.positionText !== positionText) {
      slot.positionText = positionText;
      slot.position.textContent = positionText;
    }
    if (slot.role !== state.roles[i]) {
      slot.role = state.roles[i];
      slot.row.dataset.role = slot.role;
    }
    // The value this frame builds or runs, for screen readers as well as by colour.
    const current = state.current === i;
    if (slot.current !== current) {
      slot.current = current;
      if (current) slot.row.setAttribute("aria-current", "true");
      else slot.row.removeAttribute("aria-current");
    }
    const grad = state.grads[i];
    const final = state.final[i] ? 1 : 0;
    if (!Object.is(slot.grad, grad) || slot.final !== final) {
      slot.grad = grad;
      slot.final = final;
      slot.gradCell.textContent = `${formatValue(grad)}${final ? " \u2713" : ""}`;
    }
  }

  /** @param {import("../passes/timeline.js").FrameState} state */
  function listRows(state) {
    listedFrame = state.index;
    const before = listedCount;
    listedCount = 0;
    for (const i of order) if (state.visible[i]) listed[listedCount++] = i;
    if (listedCount !== before) table.setAttribute("aria-rowcount", String(listedCount + 1));
  }

  function render() {
    if (!latest || !details.open) return;
    const state = latest;
    if (state.index !== listedFrame) listRows(state);
    // The sticky header covers the top of the box, so rows show below it.
    const { start, end } = visibleRange(
      scrollTop,
      viewportHeight - headerHeight,
      rowHeight,
      listedCount,
      OVERSCAN,
    );
    const shown = end - start;
    while (slots.length < shown) slots.push(makeSlot());
    while (body.rows.length > shown) body.lastElementChild?.remove();
    for (let place = start; place < end; place++)
      paintSlot(slots[place - start], listed[place], place, state);
    if (body.rows.length < shown)
      body.append(...slots.slice(body.rows.length, shown).map((slot) => slot.row));
    const offset = start * rowHeight;
    const rest = (listedCount - end) * rowHeight;
    if (offset !== shownOffset) {
      shownOffset = offset;
      table.style.marginTop = `${offset}px`;
    }
    if (rest !== shownRest) {
      shownRest = rest;
      spacer.style.height = `${rest}px`;
    }
    // A list taller than the box fills it: then the box's size is fixed, and CSS
    // containment keeps a repaint's new text from laying out anything outside it.
    const long = headerHeight + listedCount * rowHeight > viewportHeight;
    if (long !== isLong) {
      isLong = long;
      scrollBox.classList.toggle("is-long", long);
    }
    if (!measured && shown > 1) measure();
  }

  // Once, when two rows are on screen: the real row pitch (top to top, so collapsed
  // borders count once), the header's height and the box's, then a repaint with them.
  function measure() {
    const first = body.rows[0].getBoundingClientRect();
    const last = /** @type {HTMLTableRowElement} */ (body.lastElementChild).getBoundingClientRect();
    if (last.top <= first.top) return;
    measured = true;
    rowHeight = (last.top - first.top) / (body.rows.length - 1);
    headerHeight = head.getBoundingClientRect().height;
    viewportHeight = boxHeight();
    scrollTop = scrollBox.scrollTop;
    render();
  }

  scrollBox.addEventListener(
    "scroll",
    () => {
      scrollTop = scrollBox.scrollTop;
      render();
    },
    { passive: true },
  );
  /** @type {ResizeObserver | null} */
  const resizeObserver =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver(() => {
          if (!details.open || viewportHeight === boxHeight()) return;
          viewportHeight = boxHeight();
          render();
        });
  resizeObserver?.observe(scrollBox);
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    scrollTop = scrollBox.scrollTop;
    viewportHeight = boxHeight();
    render();
  });

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    latest = state;
    render();
  }
  return { update, destroy: () => resizeObserver?.disconnect() };
}
