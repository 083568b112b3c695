/**
 * The SVG pieces of the near view, one value or edge at a time: a value's record
 * (`label | data | grad` with its topo badge), its op circle and result edge, and an
 * operand edge; and how each looks at a frame. The view mounts these for what is in
 * view and unmounts the rest, so nothing here knows about culling or the camera.
 *
 * nodeLook(state, i) is the one place that decides how value i looks at a frame (its
 * role, finished check, gradient, test hooks): features that mark nodes (bug lab,
 * quiz, passes) extend it and paintNode, and every renderer follows.
 */
import { formatValue } from "../player/format.js";
import {
  SIZES,
  labelIsName,
  opWidth,
  topoBadgeWidth,
  visibleLabel,
} from "../layout/layout-sizes.js";
import { opGlyph } from "../passes/op-facts.js";
import { edgeBow, edgePath, svg } from "../player/svg.js";

/**
 * @typedef {{
 *   visible: boolean, role: import("../passes/timeline.js").NodeRole, final: boolean, grad: number,
 *   result: "hidden" | "shown" | "forward" | "back", data: number
 * }} NodeLook
 * data: NaN when the trace's own data stands (one pass); else the data now (SPEC §11 updates)
 * result: the state of the op -> record edge ("forward"/"back": the current node's)
 */

/**
 * How value i looks at this frame.
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {number} i
 * @returns {NodeLook}
 */
export function nodeLook(state, i) {
  const visible = state.visible[i] === 1;
  const flow = state.phase === "backward" ? "back" : state.phase === "build" ? "forward" : "shown";
  return {
    visible,
    role: state.roles[i],
    final: state.final[i] === 1,
    grad: state.grads[i],
    result: !visible ? "hidden" : i === state.current ? flow : "shown",
    data: state.data ? state.data[i] : Number.NaN,
  };
}

/**
 * The state of the operand edge from `child` into `parent` at this frame. Hidden until
 * both ends are drawn: a closed call's box appears with its first value, and the edges
 * from operands made later (the rest of a neuron's inputs) would hang from nothing.
 * @param {import("../passes/timeline.js").FrameState} state
 * @param {number} parent
 * @param {number} child
 */
export function edgeLook(state, parent, child) {
  if (!state.visible[parent] || !state.visible[child]) return "hidden";
  if (parent !== state.current) return "shown";
  return state.phase === "backward" ? "back" : state.phase === "build" ? "forward" : "shown";
}

/** A label character's width at the label's 13 px bold monospace (about 0.6 em). */
const LABEL_CHAR_PX = 7.9;
/** The least room kept between a label and its cell's sides. */
const LABEL_MARGIN_PX = 5;

/**
 * The length to squeeze a record's label to, or null when it fits as it is. The layout
 * sizes the label cell at SIZES.charWidth (7.3 px) a character, a little under the bold
 * face's width, so a long label ("layers[0].neurons[0]") ran into the cell's border.
 * Example: labelFit(2, 28.6) -> null; labelFit(20, 160) -> 150
 * @param {number} chars  the label's length
 * @param {number} cellWidth  the label cell's width
 */
export function labelFit(chars, cellWidth) {
  const room = cellWidth - 2 * LABEL_MARGIN_PX;
  return chars * LABEL_CHAR_PX > room ? room : null;
}

/**
 * @typedef {{
 *   index: number, group: SVGElement, op: SVGElement | null, result: SVGElement | null,
 *   gradText: SVGElement, gradCaption: SVGElement, dataText: SVGElement, nameWidth: number,
 *   shown: {visible: boolean | null, role: string, final: boolean | null, grad: number, result: string, data: number}
 * }} NodeElements
 * nameWidth: about how wide the name drawn over the record is (0: none), for the labels
 * placed around it
 */

/**
 * @typedef {{trace: import("../passes/trace.js").Trace, layout: import("../layout/layout.js").Layout,
 *   names: string[], labels: string[], topoIndex: Int32Array, resultOf: Int32Array}} SceneGraph
 * resultOf[i]: the index in layout.results of value i's op -> record edge, or -1
 */

/**
 * Which layout.results entry belongs to each value.
 * @param {import("../layout/layout.js").Layout} layout
 */
export function resultIndex(layout) {
  const resultOf = new Int32Array(layout.records.length).fill(-1);
  layout.results.forEach((result, k) => {
    resultOf[result.node] = k;
  });
  return resultOf;
}

/**
 * Build value i's record, op circle and result edge into the given layers.
 * @param {{edges: SVGElement, ops: SVGElement, records: SVGElement}} layers
 * @param {SceneGraph} graph
 * @param {number} i
 * @returns {NodeElements}
 */
export function createNodeElements(
  layers,
  { trace, layout, names, labels, topoIndex, resultOf },
  i,
) {
  const node = trace.nodes[i];
  const box = layout.records[i];
  const h = SIZES.recordHeight;
  const op = layout.ops[i];
  const result =
    resultOf[i] < 0
      ? null
      : svg(
          "path",
          {
            class: "edge edge-result",
            "data-testid": "edge",
            d: edgePath(layout.results[resultOf[i]].points),
          },
          layers.edges,
        );
  const opGroup = op ? createOp(layers.ops, op, opGlyph(trace.ops, node.op)) : null;
  const group = svg(
    "g",
    {
      class: "node",
      "data-kind": node.kind,
      transform: `translate(${box.x - box.width / 2},${box.y - h / 2})`,
    },
    layers.records,
  );
  // A float underflowed here: the box is drawn dashed and its tooltip says why.
  if (node.underflow) group.setAttribute("data-underflow", "true");
  svg("title", {}, group).textContent = node.underflow
    ? `${names[i]} (a float underflowed here)`
    : names[i];
  svg("rect", { class: "node-box", width: box.width, height: h, rx: 6 }, group);
  const lw = box.labelWidth;
  const vw = box.valueWidth;
  if (lw > 0) {
    svg("line", { class: "node-divider", x1: lw, x2: lw, y1: 0, y2: h }, group);
    const text = visibleLabel(labels[i]);
    const fit = labelFit(text.length, lw);
    svg(
      "text",
      {
        class: node.kind === "const" ? "node-label is-const" : "node-label",
        "data-testid": "node-label",
        x: lw / 2,
        y: h / 2,
        dy: "0.35em",
        ...(fit === null ? {} : { textLength: fit, lengthAdjust: "spacingAndGlyphs" }),
      },
      group,
    ).textContent = text;
  }
  svg("line", { class: "node-divider", x1: lw + vw, x2: lw + vw, y1: 0, y2: h }, group);
  svg("text", { class: "node-caption", x: lw + vw / 2, y: 11 }, group).textContent = "data";
  const dataText = svg(
    "text",
    { class: "node-value", "data-testid": "node-value", x: lw + vw / 2, y: 27 },
    group,
  );
  dataText.textContent = formatValue(node.data);
  const gradCaption = svg(
    "text",
    { class: "node-caption node-caption-grad", x: lw + vw * 1.5, y: 11 },
    group,
  );
  gradCaption.textContent = "grad";
  const gradText = svg(
    "text",
    { class: "node-value node-grad", "data-testid": "node-value", x: lw + vw * 1.5, y: 27 },
    group,
  );
  const name = opName(node, names[i], box.width);
  if (name)
    svg(
      "text",
      { class: "node-name", "data-testid": "node-name", x: NAME_INSET, y: -NAME_LIFT },
      group,
    ).textContent = name;
  // A value the pass's order leaves out (a learner's sort that misses it, leaves whose
  // rules no loop calls) has no place in it: no badge, where one read "0".
  if (topoIndex[i] >= 0) {
    const badgeWidth = topoBadgeWidth(topoIndex[i] + 1);
    const badge = svg("g", { class: "topo-badge", "data-testid": "topo-badge" }, group);
    svg("rect", { x: -badgeWidth / 2, y: -9, width: badgeWidth, height: 18, rx: 9 }, badge);
    svg("text", { dy: "0.35em" }, badge).textContent = String(topoIndex[i] + 1);
  }
  return {
    index: i,
    group,
    op: opGroup,
    result,
    gradText,
    gradCaption,
    dataText,
    nameWidth: name.length * NAME_CHAR_WIDTH,
    shown: { visible: null, role: "", final: null, grad: NaN, result: "", data: node.data },
  };
}

/** Where an op record's name sits: above its top edge, clear of the topo badge. */
const NAME_INSET = 14;
const NAME_LIFT = 4;
/** `.node-name` is 11px monospace: about this wide a character. */
const NAME_CHAR_WIDTH = 6.7;

/**
 * The name drawn above a record with no label cell (an intermediate value): the engine's
 * name (`x1*w1`, `a-b`, `2*n`), cut to the record's width; nothing for a value the
 * engine only calls "the * node". Example: opName({kind: "op"}, "a-b", 150) -> "a-b".
 * @param {import("../passes/trace.js").TraceNode} node
 * @param {string} name
 * @param {number} width  the record's
 */
export function opName(node, name, width) {
  // A label the texts do not call it by (a running sum's) is not drawn: its name is.
  const labelled = Boolean(node.label) && labelIsName(node.label, name);
  if (node.kind !== "op" || labelled || !name || /^the .* node$/.test(name)) return "";
  const room = Math.max(4, Math.floor((width - NAME_INSET) / NAME_CHAR_WIDTH));
  return name.length > room ? `${name.slice(0, room - 1)}…` : name;
}

/**
 * @param {SVGElement} layer
 * @param {{x: number, y: number}} at
 * @param {string} glyph  what the engine says the op looks like (op-facts.js)
 */
function createOp(layer, at, glyph) {
  const group = svg("g", { class: "op", transform: `translate(${at.x},${at.y})` }, layer);
  const r = SIZES.opRadius;
  // Named ops (tanh, exp, …) get a pill wide enough to read; symbols a circle.
  if (glyph.length > 2) {
    const width = opWidth(glyph.length);
    svg("rect", { class: "op-shape", x: -width / 2, y: -r, width, height: 2 * r, rx: r }, group);
  } else {
    svg("circle", { class: "op-shape", r }, group);
  }
  svg(
    "text",
    { class: glyph.length > 2 ? "op-text op-text-long" : "op-text", dy: "0.35em" },
    group,
  ).textContent = glyph;
  return group;
}

/** @param {NodeElements} elements */
export function removeNodeElements(elements) {
  elements.group.remove();
  elements.op?.remove();
  elements.result?.remove();
}

/**
 * The caption over a record's gradient: `grad`, then `grad ✓` once it is final. A final
 * gradient that parts from the right engine's (parted-marks.js) is `grad ✗`: a check
 * there would read as "right".
 * @param {boolean} final
 * @param {boolean} [parted]
 */
export function gradCaptionText(final, parted = false) {
  return parted ? "grad \u2717" : final ? "grad \u2713" : "grad";
}

const HOOKS = ["data-testid", "data-node-id", "data-label", "data-data", "data-grad"];

/**
 * Bring value i's elements to a look, touching only what changed. Visible values carry
 * SPEC §6's test hooks (data-testid="node", data-node-id, data-label, data-data,
 * data-grad); hidden ones none. A check as well as the colour marks a finished
 * gradient: the look must not rely on colour alone.
 * @param {NodeElements} elements
 * @param {NodeLook} look
 * @param {import("../passes/trace.js").TraceNode} node
 */
export function paintNode(elements, look, node) {
  const { group, shown } = elements;
  if (shown.visible !== look.visible) {
    shown.visible = look.visible;
    shown.grad = NaN;
    if (look.visible) {
      // A closed group (pass-graph.js) is not a value: it has its own test id.
      group.setAttribute("data-testid", node.kind === "group" ? "group" : "node");
      group.setAttribute("data-node-id", node.id);
      group.setAttribute("data-label", node.label);
      group.setAttribute("data-data", String(shown.data));
    } else {
      for (const name of HOOKS) group.removeAttribute(name);
    }
  }
  // Data moves only between passes (update frames); look.data is NaN otherwise.
  const data = Number.isNaN(look.data) ? node.data : look.data;
  if (!Object.is(shown.data, data)) {
    shown.data = data;
    if (look.visible) group.setAttribute("data-data", String(data));
    elements.dataText.textContent = formatValue(data);
  }
  if (shown.role !== look.role) {
    shown.role = look.role;
    group.setAttribute("data-role", look.role);
    elements.op?.setAttribute("data-role", look.role);
  }
  if (shown.final !== look.final) {
    shown.final = look.final;
    elements.gradCaption.textContent = gradCaptionText(look.final);
    group.toggleAttribute("data-final", look.final);
  }
  const grad = look.visible ? look.grad : 0;
  if (!Object.is(shown.grad, grad)) {
    shown.grad = grad;
    if (look.visible) group.setAttribute("data-grad", String(grad));
    elements.gradText.textContent = formatValue(grad);
    elements.gradText.setAttribute("data-sign", grad > 0 ? "+" : grad < 0 ? "-" : "0");
  }
  if (elements.result && shown.result !== look.result) {
    shown.result = look.result;
    elements.result.setAttribute("data-state", look.result);
  }
}

/**
 * @typedef {{index: number, path: SVGElement, shown: string}} EdgeElements
 */

/**
 * @param {SVGElement} layer
 * @param {import("../layout/layout.js").Layout["edges"][number]} edge
 * @param {number} index
 * @returns {EdgeElements}
 */
export function createEdgeElements(layer, edge, index) {
  const path = svg(
    "path",
    { class: "edge", "data-testid": "edge", d: edgePath(edge.points, edgeBow(edge.repeat)) },
    layer,
  );
  return { index, path, shown: "" };
}

/**
 * @param {EdgeElements} elements
 * @param {string} look  edgeLook's answer
 */
export function paintEdge(elements, look) {
  if (elements.shown === look) return;
  elements.shown = look;
  elements.path.setAttribute("data-state", look);
}
