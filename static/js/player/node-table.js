/**
 * The node table: the same numbers as the picture, as an accessible table
 * (topo position, name, op, data, grad at this frame). It lists the values built by
 * this frame, in topo order (with no topo, in the order they were made), but only the
 * rows in the scroll box's view (plus a few either side) exist: the table is pushed down
 * by its first row's offset and a spacer below it stands in for the rest, so the
 * scrollbar is the full list's.
 * aria-rowcount and aria-rowindex tell assistive tech where the rows sit in it.
 * Row elements are reused as the window moves, and a repaint writes only the
 * cells whose text changed, so scrubbing a 2,000-value graph with the table open
 * touches a few dozen rows. Leaves out: rows of more than one line (long names are
 * cut with an ellipsis; the full name is the cell's title). A final gradient marked ✓;
 * with a right engine beside the program's (bug lab, Check your engine), one that parts
 * from it is marked ✗ with the right value after it, never ✓.
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
 *   data: number, grad: number, final: number, current: boolean, right: number,
 * }} Slot
 * data, grad, final: the numbers the row's text shows (NaN until it shows one), so a
 * repaint formats a number only when it changed; right: the right engine's gradient
 * shown beside a parted one (NaN: none).
 */

/**
 * @typedef {ReturnType<typeof buildTable>} TableElements
 */

/**
 * @typedef {TableElements & {
 *   trace: import("../passes/trace.js").Trace, names: string[],
 *   order: number[], positionOf: Int32Array, listed: Int32Array,
 *   listedCount: number, listedFrame: number, slots: Slot[],
 *   shownOffset: number, shownRest: number, isLong: boolean,
 *   rowHeight: number, headerHeight: number, measured: boolean,
 *   scrollTop: number, viewportHeight: number,
 *   latest: import("../passes/timeline.js").FrameState | null,
 *   parted: Map<number, number>, partedAt: PartedAt | null,
 *   partedFor: import("../passes/timeline.js").FrameState | null,
 * }} TableView
 * The table's elements and the mutable state its repaints share.
 */

/**
 * @typedef {(state: import("../passes/timeline.js").FrameState) => Array<{node: number, correct: number}>} PartedAt
 * The values whose final gradient parts from the right engine's at a frame (mistakes.js partedAt).
 */

/**
 * The table's elements, empty of rows.
 * @param {number} count  how many values the summary counts
 * @param {boolean} judged  a right engine runs beside the program's: say what ✗ means
 */
function buildTable(count, judged) {
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
      text: `Every value drawn in the graph at this frame; \u2713 marks a gradient that is final${
        judged
          ? ", \u2717 a final gradient that is not the right engine's (the right one is given with it)"
          : ""
      }`,
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
    html("summary", { text: `Table of values (${count})` }),
    scrollBox,
  ]);
  return { head, body, table, spacer, scrollBox, details };
}

/**
 * The box's max-height, not its height: a short list makes a short box, and sizing
 * the window by that would grow the box one step per repaint.
 * @param {HTMLElement} scrollBox
 */
function boxHeight(scrollBox) {
  const cap = getComputedStyle(scrollBox).maxHeight;
  return cap.endsWith("px") ? parseFloat(cap) : scrollBox.clientHeight;
}

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
    right: Number.NaN,
  };
}

/**
 * Show node i as row `place` (0-based) of the list, writing only what differs.
 * @param {TableView} view
 * @param {Slot} slot
 * @param {number} i
 * @param {number} place
 * @param {import("../passes/timeline.js").FrameState} state
 */
function paintSlot(view, slot, i, place, state) {
  const { trace, names, positionOf } = view;
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
  const positionText = state.sorted && positionOf[i] > 0 ? String(positionOf[i]) : "";
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
  const right = view.parted.get(i) ?? Number.NaN;
  if (!Object.is(slot.grad, grad) || slot.final !== final || !Object.is(slot.right, right)) {
    slot.grad = grad;
    slot.final = final;
    slot.right = right;
    if (Number.isNaN(right)) {
      slot.gradCell.textContent = `${formatValue(grad)}${final ? " \u2713" : ""}`;
      slot.gradCell.removeAttribute("title");
    } else {
      // The right value is read out and is the cell's tooltip; a row stays one line.
      const said = `right engine: ${formatValue(right)}`;
      slot.gradCell.replaceChildren(
        `${formatValue(grad)} \u2717`,
        html("span", { class: "visually-hidden", text: ` (${said})` }),
      );
      slot.gradCell.title = said;
    }
    slot.gradCell.toggleAttribute("data-parted", !Number.isNaN(right));
  }
}

/**
 * @param {TableView} view
 * @param {import("../passes/timeline.js").FrameState} state
 */
function listRows(view, state) {
  view.listedFrame = state.index;
  const before = view.listedCount;
  view.listedCount = 0;
  for (const i of view.order) if (state.visible[i]) view.listed[view.listedCount++] = i;
  if (view.listedCount !== before)
    view.table.setAttribute("aria-rowcount", String(view.listedCount + 1));
}

/**
 * Size the table's offset, its spacer and the box's long-list mark to the window.
 * @param {TableView} view
 * @param {number} start
 * @param {number} end
 */
function placeWindow(view, start, end) {
  const offset = start * view.rowHeight;
  const rest = (view.listedCount - end) * view.rowHeight;
  if (offset !== view.shownOffset) {
    view.shownOffset = offset;
    view.table.style.marginTop = `${offset}px`;
  }
  if (rest !== view.shownRest) {
    view.shownRest = rest;
    view.spacer.style.height = `${rest}px`;
  }
  // A list taller than the box fills it: then the box's size is fixed, and CSS
  // containment keeps a repaint's new text from laying out anything outside it.
  const long = view.headerHeight + view.listedCount * view.rowHeight > view.viewportHeight;
  if (long !== view.isLong) {
    view.isLong = long;
    view.scrollBox.classList.toggle("is-long", long);
  }
}

/** @param {TableView} view */
function render(view) {
  if (!view.latest || !view.details.open) return;
  const state = view.latest;
  const { body, slots } = view;
  if (state.index !== view.listedFrame) listRows(view, state);
  // Once per frame shown, and only while the table is open.
  if (view.partedAt && view.partedFor !== state) {
    view.partedFor = state;
    view.parted = new Map(view.partedAt(state).map(({ node, correct }) => [node, correct]));
  }
  // The sticky header covers the top of the box, so rows show below it.
  const { start, end } = visibleRange(
    view.scrollTop,
    view.viewportHeight - view.headerHeight,
    view.rowHeight,
    view.listedCount,
    OVERSCAN,
  );
  const shown = end - start;
  while (slots.length < shown) slots.push(makeSlot());
  while (body.rows.length > shown) body.lastElementChild?.remove();
  for (let place = start; place < end; place++)
    paintSlot(view, slots[place - start], view.listed[place], place, state);
  if (body.rows.length < shown)
    body.append(...slots.slice(body.rows.length, shown).map((slot) => slot.row));
  placeWindow(view, start, end);
  if (!view.measured && shown > 1) measure(view);
}

/**
 * Once, when two rows are on screen: the real row pitch (top to top, so collapsed
 * borders count once), the header's height and the box's, then a repaint with them.
 * @param {TableView} view
 */
function measure(view) {
  const { body } = view;
  const first = body.rows[0].getBoundingClientRect();
  const last = /** @type {HTMLTableRowElement} */ (body.lastElementChild).getBoundingClientRect();
  if (last.top <= first.top) return;
  view.measured = true;
  view.rowHeight = (last.top - first.top) / (body.rows.length - 1);
  view.headerHeight = view.head.getBoundingClientRect().height;
  view.viewportHeight = boxHeight(view.scrollBox);
  view.scrollTop = view.scrollBox.scrollTop;
  render(view);
}

/**
 * Repaint on scroll, on a resize of the box and on opening the table.
 * @param {TableView} view
 * @returns {ResizeObserver | null}
 */
function listen(view) {
  const { scrollBox, details } = view;
  scrollBox.addEventListener(
    "scroll",
    () => {
      view.scrollTop = scrollBox.scrollTop;
      render(view);
    },
    { passive: true },
  );
  const resizeObserver =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver(() => {
          if (!details.open || view.viewportHeight === boxHeight(scrollBox)) return;
          view.viewportHeight = boxHeight(scrollBox);
          render(view);
        });
  resizeObserver?.observe(scrollBox);
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    view.scrollTop = scrollBox.scrollTop;
    view.viewportHeight = boxHeight(scrollBox);
    render(view);
  });
  return resizeObserver;
}

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[], partedAt?: PartedAt | null}} options
 *   partedAt: for a trace with a right engine beside it (absent: no row is judged)
 */
export function mountNodeTable(container, { timeline, names, partedAt = null }) {
  const { trace } = timeline;
  const size = trace.nodes.length;
  // A backward() that sorts nothing (it recurses, writing each gradient itself) has no
  // topo: its values are listed in the order they were made, not left out (a table of 0).
  const ids = trace.topo.length ? trace.topo : trace.nodes.map((node) => node.id);
  const elements = buildTable(ids.length, partedAt !== null);
  container.replaceChildren(elements.details);

  const order = ids.map((id) => /** @type {number} */ (timeline.indexOf.get(id)));
  const positionOf = new Int32Array(size); // 0: no place in a topo (none was made)
  if (ids === trace.topo)
    order.forEach((i, position) => {
      positionOf[i] = position + 1;
    });
  /** @type {TableView} */
  const view = {
    ...elements,
    trace,
    names,
    order,
    positionOf,
    // The values built by the shown frame, in topo order: the table's rows.
    listed: new Int32Array(size),
    listedCount: 0,
    listedFrame: -1,
    slots: [],
    shownOffset: -1,
    shownRest: -1,
    isLong: false,
    rowHeight: GUESSED_ROW_HEIGHT,
    headerHeight: 0,
    measured: false,
    // Kept from scroll and resize events, so a frame's repaint never reads layout.
    scrollTop: 0,
    viewportHeight: 0,
    latest: null,
    parted: new Map(),
    partedAt,
    partedFor: null,
  };
  const resizeObserver = listen(view);

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    view.latest = state;
    render(view);
  }
  return { update, destroy: () => resizeObserver?.disconnect() };
}
