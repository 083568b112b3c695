import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  foldFurther,
  foldGraph,
  foldState,
  foldThatFits,
  foldedCount,
  foldedView,
  groupPrefixes,
  groupLabel,
  groupsAtDepth,
  groupsThatFit,
  openGroup,
} from "../../static/js/graph/folding.js";
import { createTimeline, stateAt } from "../../static/js/passes/timeline.js";
import { tinyLayer } from "./multipass.mjs";

/** The trace's graph in folding.js's index form. */
function graphOf(trace) {
  const at = new Map(trace.nodes.map((node, i) => [node.id, i]));
  return {
    nodes: trace.nodes,
    edges: trace.edges.map((e) => ({ child: at.get(e.source), parent: at.get(e.target) })),
    at,
  };
}

describe("group paths", () => {
  it("steps through dots outside brackets only", () => {
    assert.deepEqual(groupPrefixes("MLP.layers[1].neurons[0]"), [
      "MLP",
      "MLP.layers[1]",
      "MLP.layers[1].neurons[0]",
    ]);
    assert.deepEqual(groupPrefixes("f(x.y).g"), ["f(x.y)", "f(x.y).g"]);
    assert.deepEqual(groupPrefixes(""), []);
    assert.deepEqual(groupPrefixes(".weird"), [".weird"]);
  });
  it("names a box by its path below the model", () => {
    // A box is named by its path below the model: boxes of two layers read apart.
    assert.equal(groupLabel("MLP.layers[1].neurons[0]"), "layers[1].neurons[0]");
    assert.equal(groupLabel("MLP.layers[0].neurons[0]"), "layers[0].neurons[0]");
    assert.equal(groupLabel("MLP"), "MLP");
  });
});

describe("one layer of two neurons, first pass", () => {
  const trace = tinyLayer(1);
  const { nodes, edges, at } = graphOf(trace);
  const closed = groupsAtDepth(nodes, 2);
  const output = at.get(trace.passes[0].output);
  const fold = foldGraph(nodes, edges, closed, { output });

  it("closes each neuron at depth 2 and the layer at depth 1", () => {
    assert.deepEqual([...closed].sort(), ["Layer.neurons[0]", "Layer.neurons[1]"]);
    assert.deepEqual([...groupsAtDepth(nodes, 1)], ["Layer"]);
  });

  it("hides a neuron's operations but keeps its w and b as inputs", () => {
    assert.equal(fold.boxes.length, 2);
    const box = fold.boxes[0];
    assert.deepEqual(
      box.members.map((i) => nodes[i].op),
      ["*", "+", "tanh"],
    );
    assert.deepEqual(box.inputs.map((i) => nodes[i].label).sort(), ["b", "w", "x"]);
    assert.deepEqual(
      box.outputs.map((i) => nodes[i].op),
      ["tanh"],
    );
    for (const label of ["w", "b", "x", "loss"]) {
      for (const [i, node] of nodes.entries())
        if (node.label === label) assert.equal(fold.boxOf[i], -1, label);
    }
  });

  it("counts drawn things: 5 leaves, the loss and two boxes", () => {
    assert.equal(foldedCount(fold), 8);
    assert.equal(foldedCount(foldGraph(nodes, edges, new Set())), nodes.length);
  });

  it("draws edges into and out of a box once per pair", () => {
    const view = foldedView(
      fold,
      edges,
      trace.passes[0].topo.map((id) => at.get(id)),
    );
    assert.equal(view.items.length, 8);
    const boxes = view.items.flatMap((item, v) => ("box" in item ? [v] : []));
    for (const b of boxes) {
      const into = view.edges.filter((e) => e.parent === b);
      assert.equal(into.length, 3);
      const out = view.edges.filter((e) => e.child === b);
      assert.equal(out.length, 1);
    }
    // Children first: every edge goes from an earlier to a later item in the order.
    const place = new Map(view.order.map((v, p) => [v, p]));
    for (const e of view.edges) assert.ok(place.get(e.child) < place.get(e.parent));
  });

  it("opens a layer into its neurons, not into every node", () => {
    const outer = groupsAtDepth(nodes, 1);
    assert.deepEqual([...openGroup(outer, "Layer", nodes)].sort(), [
      "Layer.neurons[0]",
      "Layer.neurons[1]",
    ]);
    assert.deepEqual([...openGroup(closed, "Layer.neurons[0]", nodes)], ["Layer.neurons[1]"]);
  });
});

describe("the level that fits", () => {
  const trace = tinyLayer(1);
  const { nodes, edges } = graphOf(trace);
  it("folds nothing when the graph fits", () => {
    assert.equal(groupsThatFit(nodes, edges, nodes.length).size, 0);
  });
  it("closes the neurons when that fits and the whole graph does not", () => {
    assert.deepEqual([...groupsThatFit(nodes, edges, 8)].sort(), [
      "Layer.neurons[0]",
      "Layer.neurons[1]",
    ]);
  });
  it("closes the outermost groups when nothing fits", () => {
    assert.deepEqual([...groupsThatFit(nodes, edges, 3)], ["Layer"]);
  });
  it("keeps the leaves drawn whenever some level fits with them", () => {
    const fit = foldThatFits(nodes, edges, 8);
    assert.equal(fit.hideLeaves, false);
    assert.deepEqual([...fit.closed].sort(), ["Layer.neurons[0]", "Layer.neurons[1]"]);
    assert.deepEqual(foldThatFits(nodes, edges, nodes.length), {
      closed: new Set(),
      hideLeaves: false,
    });
  });
  it("folds the leaves into their boxes when nothing fits with them drawn", () => {
    const fit = foldThatFits(nodes, edges, 4);
    assert.equal(fit.hideLeaves, true);
    assert.deepEqual([...fit.closed].sort(), ["Layer.neurons[0]", "Layer.neurons[1]"]);
    const fold = foldGraph(nodes, edges, fit.closed, { hideLeaves: true });
    assert.equal(foldedCount(fold), 4);
    const w = nodes.findIndex((node) => node.label === "w");
    assert.equal(fold.boxOf[w], 0);
    assert.equal(fold.boxOf[nodes.findIndex((node) => node.label === "x")], -1);
    assert.deepEqual(
      fold.boxes[0].inputs.map((i) => nodes[i].label),
      ["x"],
    );
  });
  it("counts only the nodes of the pass in play", () => {
    const two = tinyLayer(2);
    const graph = graphOf(two);
    const timeline = createTimeline(two);
    const member = timeline.passes[1].member;
    const inPass = member.reduce((sum, m) => sum + m, 0);
    assert.ok(inPass < two.nodes.length);
    assert.equal(groupsThatFit(graph.nodes, graph.edges, inPass, { member }).size, 0);
  });
});

describe("a frame seen through closed boxes", () => {
  const trace = tinyLayer(1);
  const timeline = createTimeline(trace);
  const { nodes, edges, at } = graphOf(trace);
  const output = at.get(trace.passes[0].output);
  const fold = foldGraph(nodes, edges, groupsAtDepth(nodes, 2), { output });
  const view = foldedView(
    fold,
    edges,
    trace.passes[0].topo.map((id) => at.get(id)),
  );
  const boxView = (b) => view.items.findIndex((item) => "box" in item && item.box === b);

  it("marks the box active while a hidden member runs its rule, with the member's += beside it", () => {
    const k = trace.frames.findIndex(
      (f) => f.phase === "backward" && nodes[at.get(f.node)].op === "tanh",
    );
    const state = foldState(view, fold, stateAt(timeline, k));
    const box = fold.boxOf[at.get(trace.frames[k].node)];
    assert.equal(state.current, boxView(box));
    assert.equal(state.roles[boxView(box)], "active");
    assert.ok(state.contributions.length > 0);
    assert.ok(state.contributions.every((c) => c.child === boxView(box)));
    // The box shows the running member's numbers while its rule runs.
    const running = at.get(trace.frames[k].node);
    assert.equal(state.grads[boxView(box)], stateAt(timeline, k).grads[running]);
  });

  it("shows the box's output gradient and its inputs' own numbers", () => {
    const last = stateAt(timeline, timeline.frameCount - 1);
    const state = foldState(view, fold, last);
    const box = fold.boxes[0];
    assert.equal(state.grads[boxView(0)], last.grads[box.outputs[0]]);
    const w = nodes.findIndex((node) => node.label === "w");
    assert.equal(state.grads[view.viewOf[w]], last.grads[w]);
    assert.equal(state.data[view.viewOf[w]], last.data[w]);
    assert.equal(state.final[boxView(0)], 1);
  });

  it("hides a box until one of its members is built", () => {
    const state = foldState(view, fold, stateAt(timeline, 0));
    assert.equal(state.visible[boxView(0)], 1);
    assert.equal(state.roles[boxView(0)], "new");
    assert.equal(state.visible[boxView(1)], 0);
  });
});

describe("a level more folded", () => {
  const { nodes, edges } = graphOf(tinyLayer(1));
  it("closes the neurons of a graph drawn open, then the layer, then nothing more", () => {
    const neurons = foldFurther(nodes, edges, new Set());
    assert.deepEqual([...(neurons ?? [])].sort(), ["Layer.neurons[0]", "Layer.neurons[1]"]);
    assert.deepEqual([...(foldFurther(nodes, edges, neurons ?? new Set()) ?? [])], ["Layer"]);
    assert.equal(foldFurther(nodes, edges, new Set(["Layer"])), null);
  });
});
