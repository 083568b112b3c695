/**
 * The graph picture of a trace with several passes: each pass draws its own graph
 * (the nodes that pass built or sorted), folded by `group` where the whole would
 * not fit, with graph-view.js doing the drawing. Passes with the same shape (a
 * training loop runs the same forward each step) share one layout, so a parameter
 * keeps its place from pass to pass and the learner watches the same `w` move.
 * A closed group is one box: click it, or focus it (Tab) and press Enter, to open it;
 * the buttons above the graph open all or fold back to what fits (a level more at
 * each press where what fits is drawn already).
 */
import {
  foldFurther,
  foldGraph,
  foldState,
  foldThatFits,
  foldedCount,
  foldedView,
  groupLabel,
  groupPrefixes,
  openGroup,
} from "../graph/folding.js";
import { windowHeight } from "../graph/graph-follow.js";
import { mountGraph } from "../graph/graph-view.js";
import { recordLabel, valueChars } from "../layout/layout.js";
import { computeLayout } from "../layout/layout-runner.js";
import { opGlyph } from "./op-facts.js";
import { passNames } from "./pass-views.js";
import { html } from "../player/svg.js";

/** The glyph in a box's operation circle: "this opens". */
export const BOX_OP = "\u229E";

/** About how many records a screen of this size shows at a readable zoom. */
export function itemsThatFit(width = globalThis.innerWidth || 1280, height = windowHeight()) {
  return Math.max(40, Math.round((width * height) / 4500));
}

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("./timeline.js").Timeline, maxItems?: number, startPass?: number,
 *   signal?: AbortSignal}} options
 */
export async function mountPassGraph(
  container,
  { timeline, maxItems = itemsThatFit(), startPass = 0, signal },
) {
  const { trace } = timeline;
  const passes = /** @type {import("./passes.js").PassInfo[]} */ (timeline.passes);
  const nodes = trace.nodes;
  const edges = trace.edges.map((edge) => ({
    child: /** @type {number} */ (timeline.indexOf.get(edge.source)),
    parent: /** @type {number} */ (timeline.indexOf.get(edge.target)),
  }));
  const widest = valueChars(trace);
  const orders = passes.map((pass) => passOrder(pass, timeline));
  const anyGroups = nodes.some((node) => /** @type {any} */ (node).group);
  const first = passes[Math.max(0, Math.min(passes.length - 1, startPass))];
  // A pass with no call in it (the lecture's lone neuron before its MLP trains) folds
  // nothing: the first pass that has calls chooses the folding, which leaves a pass
  // without them as it is.
  /** @param {import("./passes.js").PassInfo} pass */
  const hasCalls = (pass) =>
    nodes.some((node, i) => pass.member[i] && /** @type {any} */ (node).group);
  const basis = !anyGroups || hasCalls(first) ? first : (passes.find(hasCalls) ?? first);
  const fit = foldThatFits(nodes, edges, maxItems, { member: basis.member, output: basis.output });
  let closed = fit.closed;
  // A network too big to show its parameters folds them into their boxes as well.
  let hideLeaves = fit.hideLeaves;
  let closedKey = keyOf(closed, hideLeaves);

  const graphSlot = html("div", { class: "pass-graph" });
  const openAll = html("button", {
    type: "button",
    class: "text-button",
    "data-testid": "open-all-groups",
    text: "Open all",
  });
  const foldFit = html("button", {
    type: "button",
    class: "text-button",
    "data-testid": "fold-groups",
    text: "Fold to fit",
  });
  const foldNote = html("span", { class: "fold-note", "data-testid": "fold-note" });
  const foldBar = html("div", { class: "fold-bar" }, [foldNote, openAll, foldFit]);
  foldBar.hidden = !anyGroups;
  container.replaceChildren(foldBar, graphSlot);

  /** @type {Map<string, Promise<import("../layout/layout.js").Layout>>} */ const layouts =
    new Map();
  /** @type {Map<string, Promise<any>>} */ const views = new Map();

  /** The folded view of pass p with the current closed groups, laid out. */
  function viewOf(/** @type {number} */ p) {
    const key = `${p}|${closedKey}`;
    let view = views.get(key);
    if (!view) {
      view = buildView(p, closed, hideLeaves);
      views.set(key, view);
    }
    return view;
  }

  /**
   * @param {number} p
   * @param {Set<string>} shut
   * @param {boolean} leavesFolded
   */
  async function buildView(p, shut, leavesFolded) {
    const pass = passes[p];
    const fold = foldGraph(nodes, edges, shut, {
      member: pass.member,
      output: pass.output,
      hideLeaves: leavesFolded,
    });
    const view = foldedView(fold, edges, orders[p], pass.member);
    const viewNodes = view.items.map((item) => {
      if ("node" in item) return nodes[item.node];
      const group = fold.boxes[item.box].group;
      /** @type {import("./trace.js").TraceNode & {group: string}} */
      const box = {
        id: `group:${group}`,
        label: groupLabel(group),
        name: group,
        op: BOX_OP,
        kind: "group",
        data: 0,
        grad: 0,
        group,
      };
      return box;
    });
    const names = passNames(timeline, p);
    const viewNames = view.items.map((item) =>
      "node" in item ? names[item.node] : fold.boxes[item.box].group,
    );
    const output = view.viewOf[pass.output];
    // A network drawn as one: each closed box (a neuron) with the parameters made in it
    // (its w's and b) beside it, kept together by the layout.
    /** @type {Map<string, number>} */ const boxItem = new Map();
    view.items.forEach((item, v) => {
      if (!("node" in item)) boxItem.set(fold.boxes[item.box].group, v);
    });
    const clusterOf = (/** @type {number} */ v) => {
      const item = view.items[v];
      if (!("node" in item)) return v;
      const node = nodes[item.node];
      if (node.kind !== "leaf" || !node.group) return -1;
      const box = groupPrefixes(node.group).find((prefix) => boxItem.has(prefix));
      return box === undefined ? -1 : /** @type {number} */ (boxItem.get(box));
    };
    const input = {
      nodes: viewNodes.map((node, v) => ({
        label: recordLabel(node),
        op: node.op,
        // The drawn glyph's length: a tanh's pill is wider than a circle, and laid out as
        // one it met the topo badge of its record (layout.js's layoutInput does the same).
        opChars: node.op ? opGlyph(trace.ops, node.op).length : 0,
        ...(boxItem.size ? { cluster: clusterOf(v) } : {}),
      })),
      edges: view.edges,
      order: view.order,
      output,
      valueChars: widest,
    };
    // Same shape, same layout: parameters stay put from pass to pass.
    const shape = JSON.stringify(input);
    let layout = layouts.get(shape);
    if (!layout) {
      layout = computeLayout(input);
      layouts.set(shape, layout);
    }
    // Numbered along the pass's topo only: a value built but unused, or every value of a
    // backward() that sorts nothing, has no place in an order (no badge; Grokking's Tensor
    // wore 1 to 6 while its topo panel said there was no order).
    const inTopo = new Set(pass.topoIds.map((id) => timeline.indexOf.get(id)));
    const topoIndex = topoPositions(view, fold, inTopo);
    // The view's own operands, parents and first frames, by view index: the camera reads
    // them for the values a step reads (graph-follow.js). Left as the whole trace's, by
    // node index, a backward step's focus took some other node's operands (often none):
    // an MLP's view centred on the current value alone and cut its `+=` operands off.
    /** @type {number[][]} */ const viewOperands = viewNodes.map(() => []);
    /** @type {number[][]} */ const viewParents = viewNodes.map(() => []);
    for (const e of view.edges) {
      viewOperands[e.parent].push(e.child);
      viewParents[e.child].push(e.parent);
    }
    const appearFrame = new Int32Array(viewNodes.length);
    view.items.forEach((item, v) => {
      if ("node" in item) appearFrame[v] = timeline.appearFrame[item.node];
      else {
        let first = timeline.frameCount;
        for (const m of fold.boxes[item.box].members)
          first = Math.min(first, timeline.appearFrame[m]);
        appearFrame[v] = first;
      }
    });
    const viewTimeline = {
      ...timeline,
      operands: viewOperands,
      parents: viewParents,
      appearFrame,
      trace: {
        ...trace,
        nodes: viewNodes,
        edges: view.edges.map((e) => ({
          source: viewNodes[e.child].id,
          target: viewNodes[e.parent].id,
        })),
        output: viewNodes[output]?.id ?? "",
      },
      size: viewNodes.length,
      indexOf: new Map(viewNodes.map((node, v) => [node.id, v])),
      topoIndex,
    };
    return {
      fold,
      view,
      timeline: viewTimeline,
      layout: await layout,
      names: viewNames,
      labels: viewNodes.map(recordLabel),
      boxes: fold.boxes.length,
    };
  }

  /** @type {ReturnType<typeof mountGraph> | null} */ let graph = null;
  /** @type {any} */ let shownView = null;
  /** @type {import("./timeline.js").FrameState | null} */ let latest = null;
  let drawing = 0;

  /**
   * Draw a frame once its pass is laid out; resolves true once drawn (false if a later
   * frame came first), so marks on the records (parted-marks.js) can follow the records a
   * new pass mounts.
   * @param {import("./timeline.js").FrameState} state
   * @returns {Promise<boolean>}
   */
  function update(state) {
    latest = state;
    const wanted = viewOf(state.pass ?? 0);
    const id = ++drawing;
    return wanted.then((view) => {
      if (id !== drawing || !latest) return false;
      show(view, latest);
      return true;
    });
  }

  /**
   * @param {any} view
   * @param {import("./timeline.js").FrameState} state
   */
  function show(view, state) {
    if (view !== shownView) {
      // A new pass or a box opened by Enter mounts a new picture: the focus that was in
      // the old one goes to the new one's frame, not to the page's body (Tab began again
      // at the top of the page).
      const root = /** @type {Document | ShadowRoot} */ (graphSlot.getRootNode());
      const hadFocus = Boolean(root.activeElement && graphSlot.contains(root.activeElement));
      graph?.destroy();
      graph = mountGraph(graphSlot, {
        timeline: view.timeline,
        layout: view.layout,
        names: view.names,
        labels: view.labels,
      });
      if (hadFocus) graph.focus();
      shownView = view;
      foldNote.textContent =
        view.boxes > 0
          ? `${view.boxes} closed ${view.boxes === 1 ? "call" : "calls"}: click a box (or focus it and press Enter) to open it.`
          : "Every call is open.";
      // Nothing to open: a button that did nothing when pressed is shown off instead.
      openAll.disabled = view.boxes === 0;
    }
    graph?.update(foldState(view.view, view.fold, state));
    // Focusable so Enter opens a box (graph-view mounts records as they come into
    // view); the picture is an image to assistive tech, which gets the same control
    // from "Open all" and the same numbers from the table.
    for (const element of graphSlot.querySelectorAll(".node[data-kind=group]:not([tabindex])"))
      element.setAttribute("tabindex", "0");
  }

  /** @param {Set<string>} next */
  function refold(next) {
    closed = next;
    closedKey = keyOf(next, hideLeaves);
    if (latest) update(latest);
  }

  /** @param {Event} event */
  function openFrom(event) {
    let box = /** @type {Element} */ (event.target).closest?.(".node[data-kind=group]");
    // The picture captures the pointer to pan, so a click's target is the picture itself.
    if (!box && event instanceof MouseEvent) {
      const root = /** @type {Document | ShadowRoot} */ (graphSlot.getRootNode());
      box =
        root.elementFromPoint?.(event.clientX, event.clientY)?.closest(".node[data-kind=group]") ??
        null;
    }
    const id = box?.getAttribute("data-node-id");
    if (!id) return false;
    refold(openGroup(closed, id.slice("group:".length), nodes));
    return true;
  }
  /** @type {{x: number, y: number} | null} */ let pressedAt = null;
  graphSlot.addEventListener(
    "pointerdown",
    (event) => {
      pressedAt = { x: event.clientX, y: event.clientY };
    },
    true,
  );
  graphSlot.addEventListener("click", (event) => {
    // A drag that pans the picture ends in a click too: that one opens nothing.
    if (pressedAt && Math.hypot(event.clientX - pressedAt.x, event.clientY - pressedAt.y) > 4)
      return;
    openFrom(event);
  });
  graphSlot.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && openFrom(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  });
  openAll.addEventListener("click", () => refold(new Set()));
  foldFit.addEventListener("click", () => {
    const pass = passes[latest?.pass ?? 0];
    const options = { member: pass.member, output: pass.output };
    const again = foldThatFits(nodes, edges, maxItems, options);
    /** @param {Set<string>} shut @param {boolean} leavesFolded */
    const drawn = (shut, leavesFolded) =>
      foldedCount(
        foldGraph(nodes, edges, shut, { ...options, hideLeaves: leavesFolded }),
        pass.member,
      );
    if (drawn(again.closed, again.hideLeaves) < drawn(closed, hideLeaves)) {
      hideLeaves = again.hideLeaves;
      refold(again.closed);
      return;
    }
    // What counts as fitting is shown already (or less), yet the learner asks for less:
    // fold a level more, so the button never does nothing.
    const further = foldFurther(nodes, edges, closed, { ...options, hideLeaves });
    if (further) refold(further);
    else foldNote.textContent = "Every call is one box already: nothing more to fold.";
  });

  // Lay out every pass before the first frame shows, so scrubbing across passes never waits.
  await Promise.all(passes.map((_, p) => viewOf(p)));
  signal?.throwIfAborted();

  return {
    update,
    /** The groups closed now (for tests and permalinks). */
    get closed() {
      return new Set(closed);
    },
    fit: () => graph?.fit(),
    focus: () => graph?.focus(),
    destroy() {
      drawing++;
      graph?.destroy();
      foldBar.remove();
      graphSlot.remove();
    },
  };
}

/**
 * A pass's nodes children first: its topo, then nodes its build frames made that
 * its output does not use (in creation order, which is also children first).
 * @param {import("./passes.js").PassInfo} pass
 * @param {import("./timeline.js").Timeline} timeline
 */
function passOrder(pass, timeline) {
  const order = pass.topoIds.map((id) => /** @type {number} */ (timeline.indexOf.get(id)));
  const inTopo = new Uint8Array(timeline.size);
  for (const i of order) inTopo[i] = 1;
  const extra = [];
  for (let i = 0; i < timeline.size; i++) if (pass.member[i] && !inTopo[i]) extra.push(i);
  extra.sort((a, b) => timeline.appearFrame[a] - timeline.appearFrame[b]);
  return [...order, ...extra];
}

/**
 * @param {Set<string>} groups
 * @param {boolean} leavesFolded
 */
const keyOf = (groups, leavesFolded) =>
  `${leavesFolded ? "leaves folded" : "leaves drawn"}\n${[...groups].sort().join("\n")}`;

/**
 * Each view item's place along the pass's topo (a box's: its first member's there), -1
 * for an item none of whose nodes the topo holds.
 * @param {ReturnType<typeof foldedView>} view
 * @param {ReturnType<typeof foldGraph>} fold
 * @param {Set<number | undefined>} inTopo the node indices the topo holds
 */
function topoPositions(view, fold, inTopo) {
  const topoIndex = new Int32Array(view.items.length).fill(-1);
  let position = 0;
  for (const v of view.order) {
    const item = view.items[v];
    const members = "node" in item ? [item.node] : fold.boxes[item.box].members;
    if (members.some((m) => inTopo.has(m))) topoIndex[v] = position++;
  }
  return topoIndex;
}
