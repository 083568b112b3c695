/**
 * Folding by `group` (SPEC.md §11): every node of a schema-2 trace carries the call
 * path it was made in (`MLP.layers[1].neurons[0]`, `""` at top level). A closed
 * group is drawn as one box: the operations and constants made inside it are
 * hidden, the values coming in are its inputs and the values used outside (or the
 * pass's output) its outputs. Leaves made inside (a neuron's `w` and `b`) stay
 * drawn, as inputs of the box, so the parameters a learner follows stay in sight;
 * only when that cannot fit the screen are they folded away too (`hideLeaves`).
 * Pure: which nodes a box hides, the folded graph, the level that fits, and the
 * folded view of a frame's state. Leaves out drawing and layout.
 *
 * Example: nodes of groups ["", "L.n[0]", "L.n[0]", "L.n[1]"] closed at level 2 ->
 *   boxes "L.n[0]" and "L.n[1]", each hiding its operations.
 */

/**
 * The group paths a path lies in, outermost first. Dots inside brackets are not steps.
 * Example: groupPrefixes("MLP.layers[1].neurons[0]") ->
 *   ["MLP", "MLP.layers[1]", "MLP.layers[1].neurons[0]"]; groupPrefixes("") -> []
 * @param {string} path
 * @returns {string[]}
 */
export function groupPrefixes(path) {
  /** @type {string[]} */ const prefixes = [];
  let depth = 0;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    if (ch === "[" || ch === "(") depth++;
    else if ((ch === "]" || ch === ")") && depth > 0) depth--;
    else if (ch === "." && depth === 0 && i > 0) prefixes.push(path.slice(0, i));
  }
  if (path) prefixes.push(path);
  return prefixes;
}

/**
 * A box's label: its path from the program's object down, without the root's class
 * (every box of a model shares it), so boxes in different layers read apart.
 * Example: groupLabel("MLP.layers[1].neurons[0]") -> "layers[1].neurons[0]";
 * groupLabel("Neuron") -> "Neuron"
 * @param {string} path
 */
export function groupLabel(path) {
  const root = groupPrefixes(path)[0] ?? "";
  return root && root !== path ? path.slice(root.length + 1) : path;
}

/**
 * @typedef {{group?: string, kind: string}} FoldNode
 * @typedef {{child: number, parent: number}} FoldEdge
 * @typedef {{group: string, members: number[], inputs: number[], outputs: number[]}} FoldBox
 * @typedef {{boxOf: Int32Array, boxes: FoldBox[]}} Fold
 *   boxOf: per node, the index of the box that hides it, or -1 when it is drawn itself
 */

/** Kinds that a box never hides: values that come from outside any computation. */
const ALWAYS_DRAWN = new Set(["leaf"]);

/**
 * Fold the nodes selected by `member` with the groups in `closed` shut. A node is
 * hidden in the outermost closed group on its path.
 * @param {FoldNode[]} nodes
 * @param {FoldEdge[]} edges
 * @param {Set<string>} closed
 * @param {{member?: Uint8Array, output?: number, hideLeaves?: boolean}} [options]
 *   member: the nodes in play (all by default); hideLeaves: leaves made inside a closed group fold too
 * @returns {Fold}
 */
export function foldGraph(nodes, edges, closed, { member, output = -1, hideLeaves = false } = {}) {
  const boxOf = new Int32Array(nodes.length).fill(-1);
  /** @type {FoldBox[]} */ const boxes = [];
  /** @type {Map<string, number>} */ const boxIndex = new Map();
  if (closed.size === 0) return { boxOf, boxes };
  nodes.forEach((node, i) => {
    if ((member && !member[i]) || (!hideLeaves && ALWAYS_DRAWN.has(node.kind)) || !node.group)
      return;
    const shut = groupPrefixes(node.group).find((prefix) => closed.has(prefix));
    if (shut === undefined) return;
    let b = boxIndex.get(shut);
    if (b === undefined) {
      b = boxes.length;
      boxIndex.set(shut, b);
      boxes.push({ group: shut, members: [], inputs: [], outputs: [] });
    }
    boxOf[i] = b;
    boxes[b].members.push(i);
  });
  const inputSeen = boxes.map(() => new Set());
  const outputSeen = boxes.map(() => new Set());
  for (const { child, parent } of edges) {
    if (member && (!member[child] || !member[parent])) continue;
    const into = boxOf[parent];
    const from = boxOf[child];
    if (into === from) continue;
    if (into >= 0 && !inputSeen[into].has(child)) {
      inputSeen[into].add(child);
      boxes[into].inputs.push(child);
    }
    if (from >= 0 && !outputSeen[from].has(child)) {
      outputSeen[from].add(child);
      boxes[from].outputs.push(child);
    }
  }
  if (output >= 0 && boxOf[output] >= 0 && !outputSeen[boxOf[output]].has(output))
    boxes[boxOf[output]].outputs.push(output);
  return { boxOf, boxes };
}

/**
 * Every group path at exactly `depth` steps among the nodes in play.
 * Example: groups ["MLP.layers[0].neurons[0]", "MLP.layers[1].neurons[0]"], depth 2 ->
 *   {"MLP.layers[0]", "MLP.layers[1]"}
 * @param {FoldNode[]} nodes
 * @param {number} depth  1 = outermost
 * @param {Uint8Array} [member]
 */
export function groupsAtDepth(nodes, depth, member) {
  const groups = new Set();
  nodes.forEach((node, i) => {
    if (member && !member[i]) return;
    const prefix = groupPrefixes(node.group ?? "")[depth - 1];
    if (prefix !== undefined) groups.add(prefix);
  });
  return groups;
}

/**
 * How many things a fold draws: nodes shown themselves plus boxes.
 * @param {Fold} fold
 * @param {Uint8Array} [member]
 */
export function foldedCount(fold, member) {
  let count = fold.boxes.length;
  for (let i = 0; i < fold.boxOf.length; i++)
    if (fold.boxOf[i] < 0 && (!member || member[i])) count++;
  return count;
}

/**
 * The groups to close so the graph fits `maxItems` drawn things with as much detail
 * as possible: nothing when it fits unfolded; else the deepest level (each group
 * of that many steps one box) that fits; else the outermost level.
 * Example: 2 neurons of 40 nodes each, maxItems 60 -> the two neurons closed.
 * @param {FoldNode[]} nodes
 * @param {FoldEdge[]} edges
 * @param {number} maxItems
 * @param {{member?: Uint8Array, output?: number}} [options]
 * @returns {Set<string>}
 */
export function groupsThatFit(nodes, edges, maxItems, options = {}) {
  const { member } = options;
  let total = 0;
  let deepest = 0;
  nodes.forEach((node, i) => {
    if (member && !member[i]) return;
    total++;
    deepest = Math.max(deepest, groupPrefixes(node.group ?? "").length);
  });
  if (total <= maxItems || deepest === 0) return new Set();
  for (let depth = deepest; depth >= 1; depth--) {
    const closed = groupsAtDepth(nodes, depth, member);
    if (foldedCount(foldGraph(nodes, edges, closed, options), member) <= maxItems) return closed;
  }
  return groupsAtDepth(nodes, 1, member);
}

/**
 * One step more folded than `closed`: the deepest level of calls whose fold draws fewer
 * things than `closed` does, or null when none does (the calls are one box each
 * already). "Fold to fit" pressed where the graph counts as fitting (by its number of
 * records, not the room they take at a readable zoom) folds this far rather than
 * doing nothing.
 * Example: 2 neurons of 40 nodes each, nothing closed -> the two neurons closed;
 *   the two closed -> null
 * @param {FoldNode[]} nodes
 * @param {FoldEdge[]} edges
 * @param {Set<string>} closed
 * @param {{member?: Uint8Array, output?: number, hideLeaves?: boolean}} [options]
 * @returns {Set<string> | null}
 */
export function foldFurther(nodes, edges, closed, options = {}) {
  const { member } = options;
  const drawn = (/** @type {Set<string>} */ shut) =>
    foldedCount(foldGraph(nodes, edges, shut, options), member);
  const now = drawn(closed);
  let deepest = 0;
  nodes.forEach((node, i) => {
    if (!member || member[i]) deepest = Math.max(deepest, groupPrefixes(node.group ?? "").length);
  });
  for (let depth = deepest; depth >= 1; depth--) {
    const shut = groupsAtDepth(nodes, depth, member);
    if (drawn(shut) < now) return shut;
  }
  return null;
}

/**
 * groupsThatFit, and when no level fits with the leaves drawn (a big network has
 * more parameters than a screen has room for), the level that fits with the leaves
 * folded into their boxes as well.
 * Example: one layer of two neurons, maxItems 4 -> {closed: the two neurons, hideLeaves: true}
 * @param {FoldNode[]} nodes
 * @param {FoldEdge[]} edges
 * @param {number} maxItems
 * @param {{member?: Uint8Array, output?: number}} [options]
 * @returns {{closed: Set<string>, hideLeaves: boolean}}
 */
export function foldThatFits(nodes, edges, maxItems, options = {}) {
  const closed = groupsThatFit(nodes, edges, maxItems, options);
  if (
    closed.size === 0 ||
    foldedCount(foldGraph(nodes, edges, closed, options), options.member) <= maxItems
  ) {
    return { closed, hideLeaves: false };
  }
  const hidden = { ...options, hideLeaves: true };
  let deepest = 0;
  nodes.forEach((node, i) => {
    if (!options.member || options.member[i])
      deepest = Math.max(deepest, groupPrefixes(node.group ?? "").length);
  });
  for (let depth = deepest; depth >= 1; depth--) {
    const shut = groupsAtDepth(nodes, depth, options.member);
    if (foldedCount(foldGraph(nodes, edges, shut, hidden), options.member) <= maxItems)
      return { closed: shut, hideLeaves: true };
  }
  return { closed: groupsAtDepth(nodes, 1, options.member), hideLeaves: true };
}

/**
 * Open one box: its group stops being closed, and the groups one step inside it
 * close instead, so a layer opens into its neurons rather than into every node.
 * Example: closed {"MLP.layers[0]"} opened at "MLP.layers[0]" ->
 *   {"MLP.layers[0].neurons[0]", "MLP.layers[0].neurons[1]", …}
 * @param {Set<string>} closed
 * @param {string} group
 * @param {FoldNode[]} nodes
 */
export function openGroup(closed, group, nodes) {
  const next = new Set(closed);
  next.delete(group);
  const depth = groupPrefixes(group).length + 1;
  for (const node of nodes) {
    const prefixes = groupPrefixes(node.group ?? "");
    if (prefixes[depth - 2] === group && prefixes[depth - 1] !== undefined)
      next.add(prefixes[depth - 1]);
  }
  return next;
}

/**
 * The folded graph in its own indices: view index -> what it draws (a node or a
 * box), each node -> its view index, and the edges between drawn things. An edge
 * into or out of a box is kept once per (child, parent) pair; edges between two
 * drawn nodes keep their multiplicity (`a + a` keeps both).
 * @param {Fold} fold
 * @param {FoldEdge[]} edges
 * @param {number[]} order  the pass's node indices, children first (its topo)
 * @param {Uint8Array} [member]
 */
export function foldedView(fold, edges, order, member) {
  /** @type {Array<{node: number} | {box: number}>} */ const items = [];
  const viewOf = new Int32Array(fold.boxOf.length).fill(-1);
  const boxView = fold.boxes.map(() => -1);
  /** @type {number[]} */ const viewOrder = [];
  // A box takes the place of its last member in the order, after all its inputs.
  const position = new Int32Array(fold.boxOf.length).fill(-1);
  order.forEach((i, p) => {
    position[i] = p;
  });
  const placeBox = (/** @type {number} */ b) => {
    if (boxView[b] >= 0) return;
    boxView[b] = items.length;
    items.push({ box: b });
    for (const m of fold.boxes[b].members) viewOf[m] = boxView[b];
  };
  /** @type {Map<number, number[]>} */ const boxesAt = new Map();
  fold.boxes.forEach((box, b) => {
    let last = -1;
    for (const m of box.members) last = Math.max(last, position[m]);
    boxesAt.set(last, [...(boxesAt.get(last) ?? []), b]);
  });
  order.forEach((i, p) => {
    if (member && !member[i]) return;
    if (fold.boxOf[i] < 0 && viewOf[i] < 0) {
      viewOf[i] = items.length;
      items.push({ node: i });
      viewOrder.push(viewOf[i]);
    }
    for (const b of boxesAt.get(p) ?? []) {
      placeBox(b);
      viewOrder.push(boxView[b]);
    }
  });
  // Members that are not in the order (built but unused) still map to their box.
  fold.boxes.forEach((_, b) => {
    if (boxView[b] < 0) {
      placeBox(b);
      viewOrder.push(boxView[b]);
    }
  });
  /** @type {FoldEdge[]} */ const viewEdges = [];
  const seen = new Set();
  for (const { child, parent } of edges) {
    if (member && (!member[child] || !member[parent])) continue;
    const from = viewOf[child];
    const into = viewOf[parent];
    if (from < 0 || into < 0 || from === into) continue;
    const viaBox = fold.boxOf[child] >= 0 || fold.boxOf[parent] >= 0;
    const key = `${from}>${into}`;
    if (viaBox && seen.has(key)) continue;
    seen.add(key);
    viewEdges.push({ child: from, parent: into });
  }
  return { items, viewOf, edges: viewEdges, order: viewOrder };
}

/**
 * A frame's state (timeline.js FrameState, by node index) as the folded view draws
 * it (by view index). A box is visible when any member is; it is `active` while a
 * member runs its rule, `new` while one is built, `receiving` or `updated` while a
 * member is, `done` when all its visible members' gradients are final. It shows the
 * data and grad of the member the frame is about (else of its first output), and
 * the `+=` of its members are written beside it,
 * so the backward animation still runs through a closed box.
 * @param {ReturnType<typeof foldedView>} view
 * @param {Fold} fold
 * @param {import("../passes/timeline.js").FrameState} state
 */
export function foldState(view, fold, state) {
  const size = view.items.length;
  const visible = new Uint8Array(size);
  const final = new Uint8Array(size);
  const grads = new Float64Array(size);
  const data = new Float64Array(size);
  /** @type {import("../passes/timeline.js").NodeRole[]} */ const roles = new Array(size);
  const rank = {
    hidden: 0,
    idle: 1,
    done: 1,
    operand: 2,
    receiving: 3,
    updated: 3,
    new: 4,
    active: 5,
  };
  view.items.forEach((item, v) => {
    if ("node" in item) {
      const i = item.node;
      visible[v] = state.visible[i];
      final[v] = state.final[i];
      grads[v] = state.grads[i];
      data[v] = state.data ? state.data[i] : Number.NaN;
      roles[v] = state.roles[i];
      return;
    }
    const box = fold.boxes[item.box];
    let allFinal = true;
    /** @type {import("../passes/timeline.js").NodeRole} */ let role = "hidden";
    // The box shows the member the frame is about, else its first output.
    let shown = box.outputs[0] ?? box.members[box.members.length - 1];
    for (const m of box.members) {
      if (!state.visible[m]) continue;
      visible[v] = 1;
      if (!state.final[m]) allFinal = false;
      const r = state.roles[m];
      if (rank[r] > rank[role] && r !== "done" && r !== "idle") {
        role = r;
        shown = m;
      }
    }
    final[v] = visible[v] && allFinal ? 1 : 0;
    grads[v] = state.grads[shown];
    data[v] = state.data ? state.data[shown] : Number.NaN;
    roles[v] = !visible[v] ? "hidden" : role !== "hidden" ? role : final[v] ? "done" : "idle";
  });
  /**
   * @template {{child: number}} T
   * @param {T} c
   * @returns {T}
   */
  const mapChild = (c) => ({ ...c, child: view.viewOf[c.child] });
  return {
    ...state,
    current: state.current >= 0 ? view.viewOf[state.current] : -1,
    visible,
    final,
    grads,
    data,
    roles,
    contributions: state.contributions.map(mapChild).filter((c) => c.child >= 0),
    changes: state.changes?.map(mapChild).filter((c) => c.child >= 0),
  };
}
