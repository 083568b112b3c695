/**
 * The graph picture: one SVG laid out once, then restyled per frame. update(state)
 * is idempotent and touches only what changed since the last call, so scrubbing a
 * 2,000-node graph stays cheap. Each visible value carries the test hooks of
 * SPEC.md §6 (data-testid="node", data-node-id, data-label, data-data, data-grad);
 * hidden ones carry none.
 */
import { SIZES, visibleLabel } from "./layout-sizes.js";
import { formatValue, formatSigned } from "./format.js";
import { attachPanZoom } from "./pan-zoom.js";
import { edgePath, html, svg } from "./svg.js";

/** Above this many values, off-screen parts are hidden and records drawn lazily. */
const CULL_ABOVE_NODES = 300;
/** At or above this fit scale text stays readable, so any graph opens fitted. */
const READABLE_SCALE = 0.55;
/**
 * Small graphs open fitted down to this scale: seeing the whole of a neuron beats
 * reading one box of it. Below it (a phone), they follow the action like big ones.
 */
const SMALL_GRAPH_NODES = 60;
const SMALL_GRAPH_MIN_SCALE = 0.4;
/** The zoom used to follow the action on graphs too big to read whole. */
const FOLLOW_SCALE = 0.75;
const FOLLOW_AFTER_JUMP_MS = 160;
const OP_GLYPHS = /** @type {Record<string, string>} */ ({ "*": "×", sigmoid: "σ" });

/** @param {string} op */
export function opGlyph(op) {
  if (op.startsWith("**")) return `^${Number(op.slice(2))}`;
  return OP_GLYPHS[op] ?? op;
}

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("./timeline.js").Timeline, layout: import("./layout.js").Layout,
 *   names: string[], labels: string[]}} options  labels: text for each record's label cell
 */
export function mountGraph(container, { timeline, layout, names, labels }) {
  const { trace } = timeline;
  const svgElement = /** @type {SVGSVGElement} */ (svg("svg", {
    class: "graph-svg",
    role: "img",
    "aria-label": `Computation graph of ${trace.nodes.length} values. The node table below lists the same numbers.`,
  }));
  const viewport = /** @type {SVGGElement} */ (svg("g", { class: "graph-viewport" }, svgElement));
  const edgeLayer = svg("g", { class: "edges" }, viewport);
  const opLayer = svg("g", { class: "ops" }, viewport);
  const recordLayer = svg("g", { class: "records" }, viewport);
  const deltaLayer = svg("g", { class: "deltas" }, viewport);

  const edgeElements = layout.edges.map((edge) => {
    const bow = edge.repeat === 0 ? 0 : (edge.repeat % 2 ? 1 : -1) * 14 * Math.ceil(edge.repeat / 2);
    return svg("path", { class: "edge", d: edgePath(edge.points, bow) }, edgeLayer);
  });
  /** @type {Array<SVGElement | null>} */
  const resultElements = trace.nodes.map(() => null);
  for (const result of layout.results) {
    resultElements[result.node] = svg("path", { class: "edge edge-result", d: edgePath(result.points) }, edgeLayer);
  }
  const opElements = layout.ops.map((op, i) => {
    if (!op) return null;
    const group = svg("g", { class: "op", transform: `translate(${op.x},${op.y})` }, opLayer);
    const glyph = opGlyph(trace.nodes[i].op);
    const r = SIZES.opRadius;
    // Named ops (tanh, exp, …) get a pill wide enough to read; symbols a circle.
    if (glyph.length > 2) {
      const width = Math.max(2 * r, glyph.length * 6.6 + 10);
      svg("rect", { class: "op-shape", x: -width / 2, y: -r, width, height: 2 * r, rx: r }, group);
    } else {
      svg("circle", { class: "op-shape", r }, group);
    }
    svg("text", { class: glyph.length > 2 ? "op-text op-text-long" : "op-text", dy: "0.35em" }, group).textContent = glyph;
    return group;
  });

  const h = SIZES.recordHeight;
  const nodeElements = trace.nodes.map((node, i) => {
    const box = layout.records[i];
    const group = svg("g", {
      class: "node",
      "data-kind": node.kind,
      transform: `translate(${box.x - box.width / 2},${box.y - h / 2})`,
    }, recordLayer);
    // A float underflowed here: the box is drawn dashed and its tooltip says why.
    if (node.underflow) group.setAttribute("data-underflow", "true");
    return { group, /** @type {SVGElement | null} */ gradText: null, /** @type {SVGElement | null} */ gradCaption: null };
  });

  /** Draw a record's inside; big graphs do it only when the record first comes into view. */
  function build(/** @type {number} */ i) {
    const element = nodeElements[i];
    if (element.gradText) return;
    const { group } = element;
    const node = trace.nodes[i];
    const box = layout.records[i];
    svg("title", {}, group).textContent = node.underflow ? `${names[i]} (a float underflowed here)` : names[i];
    svg("rect", { class: "node-box", width: box.width, height: h, rx: 6 }, group);
    const lw = box.labelWidth;
    const vw = box.valueWidth;
    if (lw > 0) {
      svg("line", { class: "node-divider", x1: lw, x2: lw, y1: 0, y2: h }, group);
      svg("text", { class: node.kind === "const" ? "node-label is-const" : "node-label", x: lw / 2, y: h / 2, dy: "0.35em" }, group)
        .textContent = visibleLabel(labels[i]);
    }
    svg("line", { class: "node-divider", x1: lw + vw, x2: lw + vw, y1: 0, y2: h }, group);
    svg("text", { class: "node-caption", x: lw + vw / 2, y: 11 }, group).textContent = "data";
    svg("text", { class: "node-value", x: lw + vw / 2, y: 27 }, group).textContent = formatValue(node.data);
    element.gradCaption = svg("text", { class: "node-caption node-caption-grad", x: lw + vw * 1.5, y: 11 }, group);
    element.gradCaption.textContent = "grad";
    element.gradText = svg("text", { class: "node-value node-grad", x: lw + vw * 1.5, y: 27 }, group);
    const position = String(timeline.topoIndex[i] + 1);
    const badgeWidth = Math.max(18, position.length * 6.5 + 8);
    const badge = svg("g", { class: "topo-badge" }, group);
    svg("rect", { x: -badgeWidth / 2, y: -9, width: badgeWidth, height: 18, rx: 9 }, badge);
    svg("text", { dy: "0.35em" }, badge).textContent = position;
    writeGrad(i);
    writeFinal(i);
  }

  /** A check as well as the colour: the finished look must not rely on colour alone. */
  function writeFinal(/** @type {number} */ i) {
    const caption = nodeElements[i].gradCaption;
    if (!caption) return;
    shownFinal[i] = wantedFinal[i];
    caption.textContent = wantedFinal[i] ? "grad \u2713" : "grad";
    nodeElements[i].group.toggleAttribute("data-final", wantedFinal[i] === 1);
  }

  function writeGrad(/** @type {number} */ i) {
    const text = nodeElements[i].gradText;
    if (!text) return;
    paintedGrad[i] = shownGrad[i];
    const grad = Number.isNaN(shownGrad[i]) ? 0 : shownGrad[i];
    text.textContent = formatValue(grad);
    text.setAttribute("data-sign", grad > 0 ? "+" : grad < 0 ? "-" : "0");
  }

  const frame = /** @type {HTMLElement} */ (html("div", { class: "graph-frame", tabindex: 0, "aria-label": "Graph: drag to pan, scroll or double-click to zoom" }));
  const tools = html("div", { class: "graph-tools" }, [
    html("button", { type: "button", class: "icon-button", "data-zoom": "in", "aria-label": "Zoom in", text: "+" }),
    html("button", { type: "button", class: "icon-button", "data-zoom": "out", "aria-label": "Zoom out", text: "\u2212" }),
    html("button", { type: "button", class: "text-button", "data-zoom": "fit", text: "Fit" }),
  ]);
  frame.append(svgElement, tools);
  container.replaceChildren(frame);

  const culling = trace.nodes.length > CULL_ABOVE_NODES;
  let cullQueued = 0;
  const panZoom = attachPanZoom(svgElement, viewport, layout, () => {
    if (culling && !cullQueued) cullQueued = requestAnimationFrame(cull);
  }, () => {
    // A new size re-frames the graph, unless the learner has moved it by hand.
    if (latest && !panZoom.handMoved) frameView(latest);
  });
  /** The learner pressed Fit: keep fitting on resize even where we would follow. */
  let fitChosen = false;
  /** @type {import("./timeline.js").FrameState | null} */
  let latest = null;
  tools.addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("button");
    if (!button) return;
    const action = button.dataset.zoom;
    if (action === "in") panZoom.zoomByHand(1.25);
    else if (action === "out") panZoom.zoomByHand(0.8);
    else {
      fitChosen = true;
      panZoom.fit();
    }
  });

  const size = trace.nodes.length;
  const shown = new Int8Array(size).fill(-1);
  const shownGrad = new Float64Array(size).fill(NaN);
  const culled = new Uint8Array(size);
  const edgeCulled = new Uint8Array(layout.edges.length);
  const edgeBoxes = layout.edges.map((edge) => boundsOf(edge.points));

  /**
   * Big graphs: hide what is off screen (SVG paints every element otherwise) and
   * draw records the first time they come into view.
   */
  function cull() {
    cullQueued = 0;
    const view = panZoom.visibleRect(160);
    for (let i = 0; i < size; i++) {
      const box = layout.records[i];
      const out = box.x + box.width / 2 < view.left || box.x - box.width / 2 > view.right
        || box.y + h / 2 < view.top || box.y - h / 2 > view.bottom ? 1 : 0;
      if (!out) build(i);
      if (culled[i] !== out) {
        culled[i] = out;
        nodeElements[i].group.classList.toggle("is-culled", out === 1);
        opElements[i]?.classList.toggle("is-culled", out === 1);
        resultElements[i]?.classList.toggle("is-culled", out === 1);
        if (!out) applyNode(i);
      }
    }
    edgeBoxes.forEach((b, k) => {
      const out = b.right < view.left || b.left > view.right || b.bottom < view.top || b.top > view.bottom ? 1 : 0;
      if (edgeCulled[k] !== out) {
        edgeCulled[k] = out;
        edgeElements[k].classList.toggle("is-culled", out === 1);
        if (!out) applyEdge(k);
      }
    });
  }

  // What each element should show (set every update) and what it shows (set only
  // while on screen: restyling thousands of hidden elements is what made big
  // graphs slow to scrub).
  /** @type {string[]} */ const wantedRole = new Array(size).fill("");
  const wantedFinal = new Uint8Array(size);
  const shownFinal = new Uint8Array(size);
  /** @type {string[]} */ const shownRole = new Array(size).fill("");
  const paintedGrad = new Float64Array(size).fill(NaN);
  /** @type {string[]} */ const wantedEdge = new Array(edgeElements.length).fill("");
  /** @type {string[]} */ const shownEdge = new Array(edgeElements.length).fill("");
  /** @type {string[]} */ const wantedResult = new Array(size).fill("");
  /** @type {string[]} */ const shownResult = new Array(size).fill("");
  let shownSorted = /** @type {boolean | null} */ (null);
  let started = false;
  let lastIndex = 0;
  let followTimer = 0;
  if (!culling) for (let i = 0; i < size; i++) build(i);

  function applyNode(/** @type {number} */ i) {
    if (shownRole[i] !== wantedRole[i]) {
      shownRole[i] = wantedRole[i];
      nodeElements[i].group.setAttribute("data-role", wantedRole[i]);
      opElements[i]?.setAttribute("data-role", wantedRole[i]);
    }
    if (shownFinal[i] !== wantedFinal[i]) writeFinal(i);
    if (!Object.is(paintedGrad[i], shownGrad[i]) && nodeElements[i].gradText) {
      paintedGrad[i] = shownGrad[i];
      writeGrad(i);
    }
    const result = resultElements[i];
    if (result && shownResult[i] !== wantedResult[i]) {
      shownResult[i] = wantedResult[i];
      result.setAttribute("data-state", wantedResult[i]);
    }
  }

  function applyEdge(/** @type {number} */ k) {
    if (shownEdge[k] !== wantedEdge[k]) {
      shownEdge[k] = wantedEdge[k];
      edgeElements[k].setAttribute("data-state", wantedEdge[k]);
    }
  }

  /** @param {import("./timeline.js").FrameState} state */
  function update(state) {
    const flow = state.phase === "backward" ? "back" : state.phase === "build" ? "forward" : "";
    for (let i = 0; i < size; i++) {
      const { group } = nodeElements[i];
      const visible = state.visible[i];
      if (shown[i] !== visible) {
        shown[i] = visible;
        if (visible) {
          const node = trace.nodes[i];
          group.setAttribute("data-testid", "node");
          group.setAttribute("data-node-id", node.id);
          group.setAttribute("data-label", node.label);
          group.setAttribute("data-data", String(node.data));
        } else {
          for (const name of ["data-testid", "data-node-id", "data-label", "data-data", "data-grad"]) group.removeAttribute(name);
          shownGrad[i] = NaN;
        }
      }
      if (visible && !Object.is(shownGrad[i], state.grads[i])) {
        shownGrad[i] = state.grads[i];
        group.setAttribute("data-grad", String(state.grads[i]));
      }
      wantedRole[i] = state.roles[i];
      wantedFinal[i] = state.final[i];
      wantedResult[i] = !visible ? "hidden" : i === state.current ? flow : "shown";
      if (!culled[i]) applyNode(i);
    }
    if (shownSorted !== state.sorted) {
      shownSorted = state.sorted;
      svgElement.classList.toggle("is-sorted", state.sorted);
    }
    layout.edges.forEach((edge, k) => {
      wantedEdge[k] = !state.visible[edge.parent] ? "hidden" : edge.parent === state.current ? flow : "shown";
      if (!edgeCulled[k]) applyEdge(k);
    });
    latest = state;
    drawDeltas(state);
    follow(state);
  }

  /**
   * Each `+=` of this frame, written next to the child that receives it (a fork
   * shows the running sum: `−0.1036 + 0.1464 → 0.0429`), and at the sort frame the
   * output's seed. Labels are opaque and go where they cover the fewest boxes.
   */
  function drawDeltas(/** @type {import("./timeline.js").FrameState} */ state) {
    deltaLayer.replaceChildren();
    /** @type {Map<number, string[]>} */
    const lines = new Map();
    for (const c of state.contributions) {
      // The bug lab's `assign` engine writes `=`: the old value is replaced, not added to.
      const text = trace.mistake === "assign"
        ? `= ${formatValue(c.after)}${c.before === 0 ? "" : ` (${formatValue(c.before)} lost)`}`
        : c.before === 0
        ? `+= ${formatValue(c.delta)} \u2192 ${formatValue(c.after)}`
        : `${formatValue(c.before)} ${formatSigned(c.delta).replace(/^([+\u2212])/, "$1 ")} \u2192 ${formatValue(c.after)}`;
      lines.set(c.child, [...(lines.get(c.child) ?? []), text]);
    }
    /** @type {Array<{x: number, y: number, width: number, height: number}>} */
    const placed = [];
    const label = (/** @type {number} */ child, /** @type {string[]} */ texts, /** @type {string} */ className) => {
      const width = Math.max(...texts.map((t) => t.length)) * 7 + 16;
      const height = texts.length * 16 + 4;
      const spot = labelSpot(child, width, height, placed, state.visible);
      placed.push({ ...spot, width, height });
      const group = svg("g", { class: className, transform: `translate(${spot.x},${spot.y})` }, deltaLayer);
      svg("rect", { width, height, rx: 4 }, group);
      texts.forEach((text, line) => {
        svg("text", { x: width / 2, y: 14 + line * 16 }, group).textContent = text;
      });
    };
    if (state.phase === "sort" && state.sorted) {
      const output = timeline.indexOf.get(trace.output);
      if (output !== undefined) label(output, ["seed: grad = 1"], "delta delta-seed");
    }
    for (const [child, texts] of lines) label(child, texts, "delta");
  }

  /**
   * Where a label of this size goes beside a record: under it, over it, or to its
   * right, whichever covers least of the other visible boxes and labels.
   * @param {number} child
   * @param {number} width
   * @param {number} height
   * @param {Array<{x: number, y: number, width: number, height: number}>} placed
   * @param {Uint8Array} visible
   */
  function labelSpot(child, width, height, placed, visible) {
    const box = layout.records[child];
    const right = box.x + box.width / 2;
    const candidates = [
      { x: right - width, y: box.y + h / 2 + 4 },
      { x: right - width, y: box.y - h / 2 - 4 - height },
      { x: right + 8, y: box.y - height / 2 },
      { x: box.x - box.width / 2, y: box.y + h / 2 + 4 },
    ];
    let best = candidates[0];
    let bestCover = Infinity;
    for (const spot of candidates) {
      let cover = 0;
      const add = (/** @type {number} */ left, /** @type {number} */ top, /** @type {number} */ w, /** @type {number} */ hh) => {
        const dx = Math.min(spot.x + width, left + w) - Math.max(spot.x, left);
        const dy = Math.min(spot.y + height, top + hh) - Math.max(spot.y, top);
        if (dx > 0 && dy > 0) cover += dx * dy;
      };
      for (let i = 0; i < size; i++) {
        if (i === child || !visible[i]) continue;
        const other = layout.records[i];
        add(other.x - other.width / 2 - 2, other.y - h / 2 - 2, other.width + 4, h + 4);
        const op = layout.ops[i];
        if (op) add(op.x - SIZES.opRadius, op.y - SIZES.opRadius, 2 * SIZES.opRadius, 2 * SIZES.opRadius);
      }
      for (const other of placed) add(other.x - 2, other.y - 2, other.width + 4, other.height + 4);
      if (cover === 0) return spot;
      if (cover < bestCover) {
        bestCover = cover;
        best = spot;
      }
    }
    return best;
  }

  /**
   * Whether the graph should be shown whole at this scale rather than followed.
   * @param {number} scale
   */
  const fitsAt = (scale) => scale >= READABLE_SCALE || (size <= SMALL_GRAPH_NODES && scale >= SMALL_GRAPH_MIN_SCALE);

  /** Size the frame, then fit the graph or centre the action at a readable zoom. */
  function frameView(/** @type {import("./timeline.js").FrameState} */ state) {
    sizeFrame();
    if (fitChosen || fitsAt(panZoom.fitScale())) {
      panZoom.fit();
      return;
    }
    const focus = state.current >= 0 ? state.current : timeline.indexOf.get(trace.output) ?? 0;
    const box = layout.records[focus];
    panZoom.centerOn(box.x, box.y, FOLLOW_SCALE, true);
  }

  /** Keep the node being built or run on screen when the view does not show it. */
  function follow(/** @type {import("./timeline.js").FrameState} */ state) {
    if (!started) {
      started = true;
      lastIndex = state.index;
      frameView(state);
      return;
    }
    const jumped = Math.abs(state.index - lastIndex) > 1;
    lastIndex = state.index;
    if (state.current < 0) return;
    const box = layout.records[state.current];
    if (panZoom.isInView({ x: box.x, y: box.y, width: box.width, height: h })) return;
    // Glide while stepping or playing. While the scrubber jumps around, keep still
    // (redrawing a new region per jump is what costs on big graphs) and move once
    // it rests.
    clearTimeout(followTimer);
    if (!jumped) panZoom.centerOn(box.x, box.y);
    else followTimer = setTimeout(() => panZoom.centerOn(box.x, box.y, undefined, true), FOLLOW_AFTER_JUMP_MS);
  }

  /**
   * A flat graph gets a short frame, a tall or big one most of the screen. Depends
   * only on the frame's width and the window's height, so re-running it on resize
   * settles at once.
   */
  function sizeFrame() {
    const width = frame.clientWidth;
    if (!width) return;
    const tallest = Math.max(280, 0.62 * (globalThis.innerHeight || 800));
    const widthScale = Math.min(1.1, (width - 24) / layout.width);
    const scale = fitsAt(widthScale) ? widthScale : FOLLOW_SCALE;
    const wanted = layout.height * scale + 72;
    const height = `${Math.round(Math.max(260, Math.min(tallest, wanted)))}px`;
    if (frame.style.height === height) return;
    frame.style.height = height;
    panZoom.invalidate();
  }

  return {
    update,
    fit: () => panZoom.fit(),
    destroy() {
      clearTimeout(followTimer);
      cancelAnimationFrame(cullQueued);
      panZoom.destroy();
      frame.remove();
    },
  };
}

/** @param {Array<{x: number, y: number}>} points */
function boundsOf(points) {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys) - 20, bottom: Math.max(...ys) + 20 };
}
