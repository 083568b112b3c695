/**
 * The graph picture: mounts the scene for what is in view and repaints it per frame.
 * update(state) is idempotent and touches only what changed.
 *
 * Small graphs (graph-camera.js's SMALL_GRAPH_NODES) are drawn whole in SVG. Big
 * ones draw only what is in view, at a level of detail that fits the zoom: near,
 * the SVG records of the values in view (graph-scene.js), mounted and unmounted as
 * the view moves (graph-culling.js); far, one canvas of coloured boxes and hairlines
 * (graph-canvas.js). Each value drawn in SVG carries the test hooks of SPEC.md §6
 * (data-testid="node", data-node-id, data-label, data-data, data-grad) while it is
 * visible; the far view has none (the table of values lists the numbers).
 *
 * Where the camera looks is graph-follow.js's job, the `+=` labels delta-labels.js's.
 * setFolds() hides groups of values behind one box each without a new layout (for
 * multi-pass traces). Big graphs get a minimap (minimap.js) in the frame's corner.
 */
import { SMALL_GRAPH_NODES, levelOfDetail } from "./graph-camera.js";
import { drawFar, farScene } from "./graph-canvas.js";
import { edgeCurves, markInView, markLinesInView, nodeBounds } from "./graph-culling.js";
import { mountFitNote } from "./fit-note.js";
import { createFollower } from "./graph-follow.js";
import {
  createEdgeElements,
  createNodeElements,
  edgeLook,
  nodeLook,
  paintEdge,
  paintNode,
  removeNodeElements,
  resultIndex,
} from "./graph-scene.js";
import { drawDeltaLabels } from "./delta-labels.js";
import { wantsMinimap } from "./minimap-math.js";
import { mountMinimap } from "./minimap.js";
import { attachPanZoom } from "./pan-zoom.js";
import { SIZES } from "../layout/layout-sizes.js";
import { html, svg } from "../player/svg.js";

/** Screen pixels around the view that are mounted too, so small pans show no gaps. */
const MOUNT_MARGIN = 160;

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, layout: import("../layout/layout.js").Layout,
 *   names: string[], labels: string[]}} options  labels: text for each record's label cell
 */
export function mountGraph(container, { timeline, layout, names, labels }) {
  const { trace } = timeline;
  const size = trace.nodes.length;
  const small = size <= SMALL_GRAPH_NODES;
  const { svgElement, viewport, layers, foldLayer, deltaLayer, canvas, frame, tools } =
    buildFrame(size);
  container.replaceChildren(frame);

  const bounds = nodeBounds(layout);
  const far = farScene(layout, bounds);
  const hidden = far.hidden;

  /** @type {import("../passes/timeline.js").FrameState | null} */
  let latest = null;
  /** @type {Array<{left: number, top: number, right: number, bottom: number, label: string}>} */
  let folds = [];

  const panZoom = attachPanZoom(
    svgElement,
    viewport,
    layout,
    () => {
      view.queueRefresh();
      minimap?.viewChanged();
    },
    () => {
      // A new size re-frames the graph, unless the learner has moved it by hand.
      if (latest && !panZoom.handMoved) follower.frameView(latest);
    },
  );
  const placedLabels = (/** @type {number} */ index) => view.placedLabels(index);
  const follower = createFollower({ panZoom, layout, timeline, frame, small, placedLabels });
  const minimap = wantsMinimap(size)
    ? mountMinimap({
        frame,
        tools,
        scene: far,
        panZoom,
        showCurrent: (state) => centerOnCurrent(panZoom, timeline, layout, state),
        onHandMove: () => follower.cancel(),
      })
    : null;
  // The far view paints theme colours into pixels: repaint when the theme changes.
  const themeWatch = watchTheme(() => {
    if (view.detail === "far") view.queueFar();
    minimap?.redraw();
  });
  const fitNote = mountFitNote(frame);
  const fit = () => {
    if (follower.fit(latest)) fitNote.hide();
    else fitNote.show();
  };
  listenToZoomButtons(tools, panZoom, fit, fitNote.hide);
  revealFocusedRecords({ frame, trace, layout, panZoom });

  const { topoIndex } = timeline;
  const scene = { trace, layout, names, labels, topoIndex, resultOf: resultIndex(layout) };
  const mounter = createMounter(layers, scene, hidden, () => latest);
  const parts = { small, mounter, panZoom, bounds, canvas, deltaLayer, far };
  const view = createViewSwitch(parts, { timeline, latest: () => latest, folds: () => folds });
  const { syncMounted, paint } = mounter;

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    if (latest && latest.index !== state.index) fitNote.hide();
    latest = state;
    const first = !follower.started;
    if (first) {
      // Frame the view first, then mount what it shows, all before the first paint.
      follower.follow(state, false);
      view.refresh();
    }
    paint(state);
    svgElement.classList.toggle("is-sorted", state.sorted);
    if (view.detail === "far") view.queueFar();
    view.drawDeltas(state);
    if (first) follower.labelsDrawn(state, view.detail === "far");
    else follower.follow(state, view.detail === "far");
    minimap?.update(state);
  }

  /**
   * Fold groups of values: each group's values (and edges touching them) are hidden
   * and one labelled box covers where they were. No new layout: positions stay, so
   * unfolding (setFolds([])) puts everything back in place.
   * @param {Array<{nodes: number[], label: string}>} groups  node indices per group
   */
  function setFolds(groups) {
    hidden.fill(0);
    folds = foldBoxes(groups, bounds, hidden);
    drawFolds(/** @type {SVGGElement} */ (foldLayer), folds);
    if (small) syncMounted();
    else view.refresh();
    minimap?.redraw();
    if (latest) update(latest);
  }

  return {
    update,
    fit,
    /** Focus the picture, so Space and arrows drive the player. */
    focus: () => frame.focus(),
    setFolds,
    /** "near" (SVG records) or "far" (canvas), for tests and hosts. */
    get detail() {
      return view.detail;
    },
    destroy() {
      follower.destroy();
      minimap?.destroy();
      themeWatch?.disconnect();
      view.destroy();
      panZoom.destroy();
      frame.remove();
    },
  };
}

/**
 * A record that takes the keyboard's focus (a closed call's box, pass-graph.js) is
 * brought into view: Tab rested on boxes outside the frame, where nothing showed it.
 * The frame's own scroll, which the browser moves to show a focused element, stays at
 * zero (the view transform alone places the picture). The listener is on the frame: an
 * SVG element with a focus listener becomes a tab stop of its own in Chromium.
 * @param {{frame: HTMLElement, trace: {nodes: Array<{id: string}>},
 *   layout: import("../layout/layout.js").Layout,
 *   panZoom: {isInView: (rect: {x: number, y: number, width: number, height: number}) => boolean,
 *     centerOn: (x: number, y: number) => void}}} parts
 */
function revealFocusedRecords({ frame, trace, layout, panZoom }) {
  /** @type {Map<string, number> | null} */
  let indexOf = null;
  frame.addEventListener("focusin", (event) => {
    const id = /** @type {Element} */ (event.target)
      .closest?.(".node")
      ?.getAttribute("data-node-id");
    if (!id) return;
    indexOf ??= new Map(trace.nodes.map((node, i) => [node.id, i]));
    const record = layout.records[indexOf.get(id) ?? -1];
    if (!record) return;
    frame.scrollTop = 0;
    frame.scrollLeft = 0;
    const rect = { x: record.x, y: record.y, width: record.width, height: SIZES.recordHeight };
    if (!panZoom.isInView(rect)) panZoom.centerOn(record.x, record.y);
  });
}

/**
 * The graph's elements: the frame with the canvas (far view), the SVG (near view) and
 * its layers, and the zoom buttons.
 * @param {number} size  values in the graph (for the picture's description)
 */
function buildFrame(size) {
  const svgElement = /** @type {SVGSVGElement} */ (
    svg("svg", {
      class: "graph-svg",
      role: "img",
      "aria-label": `Computation graph of ${size} values. The node table below lists the same numbers.`,
    })
  );
  const viewport = /** @type {SVGGElement} */ (
    svg("g", { class: "graph-viewport", "data-testid": "graph-viewport" }, svgElement)
  );
  const layers = {
    edges: svg("g", { class: "edges" }, viewport),
    ops: svg("g", { class: "ops" }, viewport),
    records: svg("g", { class: "records" }, viewport),
  };
  const foldLayer = svg("g", { class: "folds" }, viewport);
  const deltaLayer = svg("g", { class: "deltas", "data-testid": "deltas" }, viewport);
  const canvas = html("canvas", {
    class: "graph-canvas",
    "data-testid": "graph-canvas",
    "aria-hidden": "true",
  });
  canvas.hidden = true;

  const frame = /** @type {HTMLElement} */ (
    html("div", {
      class: "graph-frame",
      "data-testid": "graph-frame",
      tabindex: 0,
      "aria-label": "Graph: drag to pan, scroll or double-click to zoom",
    })
  );
  const tools = html("div", { class: "graph-tools" }, [
    html("button", {
      type: "button",
      class: "icon-button",
      "data-zoom": "in",
      "aria-label": "Zoom in",
      text: "+",
    }),
    html("button", {
      type: "button",
      class: "icon-button",
      "data-zoom": "out",
      "aria-label": "Zoom out",
      text: "\u2212",
    }),
    html("button", { type: "button", class: "text-button", "data-zoom": "fit", text: "Fit" }),
  ]);
  frame.append(canvas, svgElement, tools);
  return { svgElement, viewport, layers, foldLayer, deltaLayer, canvas, frame, tools };
}

/**
 * Call `changed` when the page's theme changes; null where there is no MutationObserver.
 * @param {() => void} changed
 */
function watchTheme(changed) {
  if (typeof MutationObserver === "undefined") return null;
  const watch = new MutationObserver(changed);
  watch.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return watch;
}

/**
 * The zoom buttons: in, out, and fit.
 * @param {HTMLElement} tools
 * @param {{zoomByHand: (factor: number) => void}} panZoom
 * @param {() => void} fit
 * @param {() => void} zoomed  a zoom by hand (the fit note goes)
 */
function listenToZoomButtons(tools, panZoom, fit, zoomed) {
  tools.addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("button");
    if (!button) return;
    const action = button.dataset.zoom;
    if (action === "in" || action === "out") zoomed();
    if (action === "in") panZoom.zoomByHand(1.25);
    else if (action === "out") panZoom.zoomByHand(0.8);
    else if (action === "fit") fit();
    // Other buttons here (the minimap's toggle) are not the view's to act on.
  });
}

/**
 * Where each group of folded values was: one box around them, and each marked hidden.
 * @param {Array<{nodes: number[], label: string}>} groups  node indices per group
 * @param {Float64Array | number[]} bounds  left, top, right, bottom of each value
 * @param {Uint8Array} hidden  set to 1 for every folded value
 */
function foldBoxes(groups, bounds, hidden) {
  return groups
    .filter((group) => group.nodes.length > 0)
    .map((group) => {
      let left = Infinity;
      let top = Infinity;
      let right = -Infinity;
      let bottom = -Infinity;
      for (const i of group.nodes) {
        hidden[i] = 1;
        left = Math.min(left, bounds[4 * i]);
        top = Math.min(top, bounds[4 * i + 1]);
        right = Math.max(right, bounds[4 * i + 2]);
        bottom = Math.max(bottom, bounds[4 * i + 3]);
      }
      return { left, top, right, bottom, label: group.label };
    });
}

/**
 * One labelled box for each fold, in place of the values it hides.
 * @param {SVGGElement} foldLayer
 * @param {Array<{left: number, top: number, right: number, bottom: number, label: string}>} folds
 */
function drawFolds(foldLayer, folds) {
  foldLayer.replaceChildren();
  for (const fold of folds) {
    const group = svg(
      "g",
      { class: "fold", transform: `translate(${fold.left},${fold.top})` },
      foldLayer,
    );
    svg("rect", { width: fold.right - fold.left, height: fold.bottom - fold.top, rx: 8 }, group);
    svg("text", { x: 10, y: 20 }, group).textContent = fold.label;
  }
}

/**
 * The SVG elements of the values and edges in view: `nodeInView` and `edgeInView` say
 * which are wanted, `syncMounted` mounts those (unless folded) and unmounts the rest,
 * `paint` repaints what is mounted.
 * @param {{edges: SVGElement, ops: SVGElement, records: SVGElement}} layers
 * @param {import("./graph-scene.js").SceneGraph} scene
 * @param {Uint8Array} hidden  1 for each folded value
 * @param {() => import("../passes/timeline.js").FrameState | null} latest  the state shown
 */
function createMounter(layers, scene, hidden, latest) {
  const { trace, layout } = scene;
  const size = trace.nodes.length;
  /** @type {Map<number, import("./graph-scene.js").NodeElements>} */
  const mounted = new Map();
  /** @type {Map<number, import("./graph-scene.js").EdgeElements>} */
  const mountedEdges = new Map();
  const nodeInView = new Uint8Array(size);
  const edgeInView = new Uint8Array(layout.edges.length);

  /** @param {number} i */
  function mountNode(i) {
    const elements = createNodeElements(layers, scene, i);
    mounted.set(i, elements);
    const state = latest();
    if (state) paintNode(elements, nodeLook(state, i), trace.nodes[i]);
  }

  /** @param {number} k */
  function mountEdge(k) {
    const elements = createEdgeElements(layers.edges, layout.edges[k], k);
    mountedEdges.set(k, elements);
    const state = latest();
    if (state) paintEdge(elements, edgeLook(state, layout.edges[k].parent, layout.edges[k].child));
  }

  /** @param {number} k */
  const isEdgeHidden = (k) =>
    hidden[layout.edges[k].child] === 1 || hidden[layout.edges[k].parent] === 1;

  /** Mount what nodeInView and edgeInView mark (and is not folded); unmount the rest. */
  function syncMounted() {
    for (const [i, elements] of mounted) {
      if (!nodeInView[i] || hidden[i]) {
        removeNodeElements(elements);
        mounted.delete(i);
      }
    }
    for (const [k, elements] of mountedEdges) {
      if (!edgeInView[k] || isEdgeHidden(k)) {
        elements.path.remove();
        mountedEdges.delete(k);
      }
    }
    for (let i = 0; i < size; i++) if (nodeInView[i] && !hidden[i] && !mounted.has(i)) mountNode(i);
    for (let k = 0; k < edgeInView.length; k++)
      if (edgeInView[k] && !isEdgeHidden(k) && !mountedEdges.has(k)) mountEdge(k);
  }

  /** @param {import("../passes/timeline.js").FrameState} state */
  function paint(state) {
    for (const [i, elements] of mounted) paintNode(elements, nodeLook(state, i), trace.nodes[i]);
    for (const [k, elements] of mountedEdges)
      paintEdge(elements, edgeLook(state, layout.edges[k].parent, layout.edges[k].child));
  }

  return { layout, mounted, nodeInView, edgeInView, syncMounted, paint };
}

/**
 * The near and the far view, and the switch between them as the zoom asks: near, the
 * SVG elements of what is in view (and the `+=` labels); far, one canvas.
 * @param {{small: boolean, mounter: ReturnType<typeof createMounter>,
 *   panZoom: ReturnType<typeof attachPanZoom>, bounds: Float64Array, canvas: HTMLCanvasElement,
 *   deltaLayer: SVGElement, far: ReturnType<typeof farScene>}} parts
 * @param {{timeline: import("../passes/timeline.js").Timeline,
 *   latest: () => import("../passes/timeline.js").FrameState | null,
 *   folds: () => Array<{left: number, top: number, right: number, bottom: number, label: string}>}} state
 *   what the view shows: the state shown and the folds
 */
function createViewSwitch(parts, { timeline, latest, folds }) {
  const { small, mounter, panZoom, bounds, canvas, deltaLayer, far } = parts;
  const { layout } = mounter;
  const curves = edgeCurves(layout);
  const { mounted, nodeInView, edgeInView, syncMounted } = mounter;
  const size = nodeInView.length;
  /** @type {"near" | "far"} */
  let detail = "near";
  let farQueued = 0;
  let viewQueued = 0;
  /** Where the last frame's `+=` labels went, by value, and that frame's index. */
  let placed = { index: -1, spots: new Map() };

  /**
   * Mount what is in view and unmount the rest (small graphs: everything, once), and
   * switch between the near and the far view as the zoom asks.
   */
  function refresh() {
    cancelAnimationFrame(viewQueued);
    viewQueued = 0;
    if (small) {
      if (mounted.size === 0 && size > 0) {
        nodeInView.fill(1);
        edgeInView.fill(1);
        syncMounted();
        const state = latest();
        if (state) drawDeltas(state);
      }
      return;
    }
    const rect = panZoom.visibleRect(MOUNT_MARGIN);
    const wanted = levelOfDetail(panZoom.scale, markInView(bounds, rect, nodeInView));
    if (wanted === "far") {
      if (detail !== "far") {
        detail = "far";
        nodeInView.fill(0);
        edgeInView.fill(0);
        syncMounted();
        deltaLayer.replaceChildren();
        canvas.hidden = false;
      }
      queueFar();
      return;
    }
    if (detail === "far") {
      detail = "near";
      canvas.hidden = true;
    }
    markLinesInView(curves.start, curves.points, rect, edgeInView);
    const before = mounted.size;
    syncMounted();
    const state = latest();
    if (state && mounted.size !== before) drawDeltas(state);
  }

  function queueFar() {
    if (farQueued) return;
    farQueued = requestAnimationFrame(() => {
      farQueued = 0;
      const state = latest();
      if (detail === "far" && state)
        drawFar(canvas, far, state, panZoom.view, panZoom.size, folds());
    });
  }

  /** @param {import("../passes/timeline.js").FrameState} state */
  function drawDeltas(state) {
    if (detail === "far") {
      deltaLayer.replaceChildren();
      placed = { index: -1, spots: new Map() };
      return;
    }
    const spots = drawDeltaLabels(deltaLayer, state, {
      timeline,
      layout,
      drawn: mounted.keys(),
      isDrawn: (i) => mounted.has(i),
      nameWidth: (i) => mounted.get(i)?.nameWidth ?? 0,
    });
    placed = { index: state.index, spots: new Map(spots.map((spot) => [spot.child, spot])) };
  }

  return {
    refresh,
    /** Refresh at the next animation frame (the view moved). */
    queueRefresh() {
      if (!viewQueued) viewQueued = requestAnimationFrame(refresh);
    },
    queueFar,
    drawDeltas,
    /** Where frame `index`'s `+=` labels were drawn, by value; null if not drawn. @param {number} index */
    placedLabels(index) {
      return placed.index === index ? placed.spots : null;
    },
    get detail() {
      return detail;
    },
    destroy() {
      cancelAnimationFrame(viewQueued);
      cancelAnimationFrame(farQueued);
    },
  };
}

/**
 * Center the view on the value the frame is about (the output's before the sort).
 * @param {{centerOn: (x: number, y: number) => void}} panZoom
 * @param {import("../passes/timeline.js").Timeline} timeline
 * @param {import("../layout/layout.js").Layout} layout
 * @param {import("../passes/timeline.js").FrameState} state
 */
function centerOnCurrent(panZoom, timeline, layout, state) {
  const focus =
    state.current >= 0 ? state.current : (timeline.indexOf.get(timeline.trace.output) ?? 0);
  const box = layout.records[focus];
  panZoom.centerOn(box.x, box.y);
}
