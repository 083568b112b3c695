import assert from "node:assert/strict";
import { describe, it } from "node:test";

import dagre from "../../static/vendor/dagre/dagre.esm.js";
import { SIZES, opWidth, topoBadgeWidth } from "../../static/js/layout/layout-sizes.js";
import {
  DAGRE_MAX_NODES,
  growToEdges,
  layerBundles,
  layoutGraph,
  layoutInput,
  recordLabel,
} from "../../static/js/layout/layout.js";
import { place, sortByTarget } from "../../static/js/layout/layered-layout.js";
import { groupLabel } from "../../static/js/graph/folding.js";
import { edgeBow, edgePolyline } from "../../static/js/player/svg.js";
import { chainTrace, fixture } from "./helpers.mjs";

/** Children left of parents, and no two records overlapping. */
function assertReadable(layout, input) {
  for (const edge of input.edges) {
    assert.ok(
      layout.records[edge.child].x < layout.records[edge.parent].x,
      `edge ${edge.child} -> ${edge.parent} runs left to right`,
    );
  }
  const boxes = layout.records;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const apartX = Math.abs(boxes[i].x - boxes[j].x) >= (boxes[i].width + boxes[j].width) / 2;
      const apartY = Math.abs(boxes[i].y - boxes[j].y) >= SIZES.recordHeight;
      assert.ok(apartX || apartY, `records ${i} and ${j} overlap`);
    }
  }
}

describe("layout", () => {
  it("uses dagre for the neuron, left to right, without overlaps", () => {
    const input = layoutInput(fixture("neuron-expanded.json"));
    const layout = layoutGraph(input, dagre);
    assert.equal(layout.engine, "dagre");
    assertReadable(layout, input);
  });

  it("draws a + a as two edges, the second bowed", () => {
    const input = layoutInput(fixture("a-plus-a.json"));
    const layout = layoutGraph(input, dagre);
    assert.deepEqual(layout.edges.map((e) => e.repeat).sort(), [0, 1]);
  });

  it("keeps a + a's two edges apart from end to end, in both layouts", () => {
    const input = layoutInput(fixture("a-plus-a.json"));
    for (const layout of [layoutGraph(input, dagre), layoutGraph(input)]) {
      const [straight, bowed] = [0, 1].map((repeat) => {
        const edge = layout.edges.find((e) => e.repeat === repeat);
        return edgePolyline(edge.points, edgeBow(edge.repeat), 8);
      });
      // Each drawn point of the repeat lies well below the straight edge at its x: two
      // lines a learner sees as two, not one line with a ripple in it (they crossed).
      const yAt = (x) =>
        straight.reduce((a, b) => (Math.abs(b.x - x) < Math.abs(a.x - x) ? b : a)).y;
      for (const point of bowed.slice(0, -1))
        assert.ok(point.y - yAt(point.x) >= 8, `${layout.engine}: ${JSON.stringify(point)}`);
    }
  });

  it("lays out a + a whose op the program names nowhere (no op shape)", () => {
    // `c = Value(a.data * a.data, (a, a))` built by hand, or a `_children=[]` default
    // every node shares: an op node with op "". dagre's layout threw reading the op
    // shape's y for the repeated edge, and the page never loaded.
    const trace = fixture("a-plus-a.json");
    for (const node of trace.nodes) if (node.kind === "op") node.op = "";
    const input = layoutInput(trace);
    for (const layout of [layoutGraph(input, dagre), layoutGraph(input)])
      assert.deepEqual(layout.edges.map((e) => e.repeat).sort(), [0, 1]);
  });

  it("uses the fast layered layout for big graphs, left to right, without overlaps", () => {
    const input = layoutInput(chainTrace(DAGRE_MAX_NODES));
    const layout = layoutGraph(input, dagre);
    assert.equal(layout.engine, "layered");
    assertReadable(layout, input);
  });

  it("is deterministic", () => {
    const input = layoutInput(fixture("neuron.json"));
    assert.deepEqual(layoutGraph(input, dagre).records, layoutGraph(input, dagre).records);
  });
});

describe("place", () => {
  it("keeps order and spacing while staying near the targets", () => {
    const y = new Float64Array(3);
    place([0, 1, 2], new Float64Array([0, 0, 100]), y, 40);
    assert.deepEqual([...y], [-20, 20, 100]);
  });
});

describe("sortByTarget", () => {
  it("sorts like a stable Array.prototype.sort by target, ties in their order", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const n of [0, 1, 2, 3, 17, 64, 1000]) {
      // Few distinct targets, so many ties.
      const target = Float64Array.from({ length: n }, () => Math.floor(random() * 7) - 3);
      const layer = Array.from({ length: n }, (_, i) => (i * 31) % Math.max(1, n));
      const expected = [...layer].sort((a, b) => target[a] - target[b]);
      sortByTarget(layer, target, new Int32Array(n));
      assert.deepEqual(layer, expected);
    }
  });
});

describe("room for named ops (issue 23, 12)", () => {
  it("gives a named op's pill its width between the columns", () => {
    assert.equal(opWidth(1), 26);
    assert.ok(opWidth(7) > 60, "sigmoid's pill");
    const graph = (opChars) => ({
      nodes: [
        { label: "x", op: "" },
        { label: "s", op: "sigmoid", opChars },
      ],
      edges: [{ child: 0, parent: 1 }],
      order: [0, 1],
      output: 1,
    });
    const narrow = layoutGraph(graph(1), dagre);
    const wide = layoutGraph(graph(7), dagre);
    assert.ok(wide.width - narrow.width >= opWidth(7) - opWidth(1) - 1);
    // The pill stays clear of both records.
    const pill = wide.ops[1];
    const [leaf, out] = wide.records;
    assert.ok(pill && leaf.x + leaf.width / 2 < pill.x - opWidth(7) / 2);
    assert.ok(pill && pill.x + opWidth(7) / 2 < out.x - out.width / 2);
  });
});

describe("topo badges clear of the op shapes", () => {
  // A chain of `n` values, each made by `op` (drawn as a pill of `chars` characters) from
  // the one before: value i's record wears badge `i + 1` on its top-left corner, and its
  // op sits just left of that corner.
  const chain = (n, op, chars) => ({
    nodes: Array.from({ length: n }, (_, i) => ({
      label: "",
      op: i === 0 ? "" : op,
      opChars: i === 0 ? 0 : chars,
    })),
    edges: Array.from({ length: n - 1 }, (_, i) => ({ child: i, parent: i + 1 })),
    order: Array.from({ length: n }, (_, i) => i),
    output: n - 1,
  });

  /** How far apart (layout units) value i's badge and its op's shape are; < 0: they meet. */
  function badgeToOp(layout, input, i) {
    const record = layout.records[i];
    const op = /** @type {{x: number, y: number}} */ (layout.ops[i]);
    const half = topoBadgeWidth(input.nodes.length) / 2;
    const badge = {
      left: record.x - record.width / 2 - half,
      top: record.y - SIZES.recordHeight / 2 - 9,
    };
    const opRight = op.x + opWidth(input.nodes[i].opChars) / 2;
    // The badge's lower half hangs over the op's upper half (they share rows): only the
    // gap across counts.
    assert.ok(badge.top + 18 > op.y - SIZES.opRadius, "the badge and the op share rows");
    return badge.left - opRight;
  }

  for (const [n, op, chars] of [
    [400, "tanh", 4],
    [400, "+", 1],
    [2500, "sigmoid", 7],
    [12_000, "tanh", 4],
  ])
    it(`keeps a badge of ${String(n).length} digits clear of a ${op} (layered layout, ${n} values)`, () => {
      const input = chain(n, op, chars);
      const layout = layoutGraph(input);
      assert.equal(layout.engine, "layered");
      for (const i of [1, n - 1]) assert.ok(badgeToOp(layout, input, i) >= 2, `value ${i}`);
    });

  it("keeps a three-digit badge clear of a tanh in dagre's layout too", () => {
    const input = chain(120, "tanh", 4);
    const layout = layoutGraph(input, dagre);
    assert.equal(layout.engine, "dagre");
    assert.ok(badgeToOp(layout, input, 119) >= 2);
  });
});

describe("a network drawn as one (issue 23, 1)", () => {
  // Two neurons (closed boxes 6 and 7), each fed by its own three parameters and by
  // both data inputs 0 and 1; parameters of neuron 6 are 2, 3, 4 and of 7 are 5, 8, 9.
  const graph = (clustered) => {
    const leaf = (cluster) => ({ label: "", op: "", ...(clustered ? { cluster } : {}) });
    const box = (v) => ({ label: "neuron", op: "⊞", ...(clustered ? { cluster: v } : {}) });
    const nodes = [leaf(-1), leaf(-1), leaf(6), leaf(6), leaf(6), leaf(7), box(6), box(7)];
    nodes.push(leaf(7), leaf(7));
    const edges = [];
    for (const [params, into] of [
      [[2, 3, 4], 6],
      [[5, 8, 9], 7],
    ])
      for (const child of [0, 1, ...params]) edges.push({ child, parent: into });
    return { nodes, edges, order: [0, 1, 2, 3, 4, 5, 8, 9, 6, 7], output: 7 };
  };

  it("keeps each neuron's parameters together beside it", () => {
    const layout = layoutGraph(graph(true), dagre);
    const ys = (ids) => ids.map((i) => layout.records[i].y);
    const [a, b] = [ys([2, 3, 4]), ys([5, 8, 9])];
    const apart = Math.max(...a) < Math.min(...b) || Math.max(...b) < Math.min(...a);
    assert.ok(apart, `parameters interleave: ${a} / ${b}`);
  });

  it("carries the clusters to the layout worker and back", async () => {
    const { packInput, unpackInput, structureKey } = await import(
      "../../static/js/layout/layout-pack.js"
    );
    const packed = packInput(graph(true));
    assert.deepEqual(
      unpackInput(packed).nodes.map((n) => n.cluster),
      [-1, -1, 6, 6, 6, 7, 6, 7, 7, 7],
    );
    assert.notEqual(structureKey(packed), structureKey(packInput(graph(false))));
    assert.equal(packInput(graph(false)).clusters, undefined);
  });
});

describe("edges between layers, bundled (issue 23, 1)", () => {
  // Layer A: boxes 0 and 1, fed by their own parameters 4..7; layer B: boxes 2 and 3,
  // fed by both of A's boxes and by their own parameters 8..11.
  const network = ({ complete = true } = {}) => {
    const nodes = [0, 1, 2, 3].map((v) => ({ label: "neuron", op: "⊞", cluster: v }));
    for (const owner of [0, 0, 1, 1, 2, 2, 3, 3])
      nodes.push({ label: "w", op: "", cluster: owner });
    const edges = [];
    [0, 1, 2, 3].forEach((box) => {
      edges.push({ child: 4 + 2 * box, parent: box }, { child: 5 + 2 * box, parent: box });
    });
    for (const [child, parent] of [
      [0, 2],
      [1, 2],
      [0, 3],
      [1, 3],
    ])
      if (complete || parent === 2 || child === 0) edges.push({ child, parent });
    const order = [4, 5, 6, 7, 0, 1, 8, 9, 10, 11, 2, 3];
    return { nodes, edges, order, output: 3 };
  };

  it("finds the complete set of edges from one layer into the next", () => {
    const bundles = layerBundles(network());
    assert.equal(bundles.length, 1);
    assert.deepEqual(bundles[0].sources, [0, 1]);
    assert.deepEqual(bundles[0].targets, [2, 3]);
    assert.deepEqual(bundles[0].edges.map((k) => network().edges[k].parent).sort(), [2, 2, 3, 3]);
  });

  it("never bundles edges that are not every source into every target", () => {
    assert.deepEqual(layerBundles(network({ complete: false })), []);
    const twice = network();
    twice.edges.push({ child: 0, parent: 2 }, { child: 0, parent: 3 });
    assert.deepEqual(layerBundles(twice), [], "a value used twice by each box is no bundle");
  });

  it("draws every bundled edge through one junction and stands the layers in columns", () => {
    const graph = network();
    const layout = layoutGraph(graph, dagre);
    const bundled = layout.edges.filter(
      (edge) => edge.parent >= 2 && edge.parent <= 3 && edge.child <= 1,
    );
    assert.equal(bundled.length, 4);
    const key = (/** @type {{x: number, y: number}} */ p) => `${p.x},${p.y}`;
    const [first, ...rest] = bundled.map((edge) => new Set(edge.points.slice(1, -1).map(key)));
    const shared = [...first].filter((p) => rest.every((points) => points.has(p)));
    assert.equal(shared.length, 1, "one junction every bundled edge passes");
    const x = (v) => layout.records[v].x;
    assert.equal(x(0), x(1));
    assert.equal(x(2), x(3));
    assert.ok(x(2) > x(0));
    const junction = Number(shared[0].split(",")[0]);
    // The junction stands between the layers, in the column of layer B's parameters.
    assert.ok(x(0) < junction && junction < x(2));
    assert.ok(Math.abs(x(8) - junction) < Math.abs(x(0) - junction));
  });
});

describe("recordLabel", () => {
  it("labels a kept parameter by its path's last step, not a number or an op", () => {
    const leaf = (name) => ({ id: "n0", label: "", name, op: "", kind: "leaf", data: 1, grad: 0 });
    assert.equal(recordLabel(leaf("layers[0].neurons[1].w[2]")), "w[2]");
    assert.equal(recordLabel(leaf("box.w")), "w");
    assert.equal(recordLabel(leaf("ps[0]")), "ps[0]");
    assert.equal(recordLabel(leaf("0.5914")), "");
    assert.equal(recordLabel(leaf("-1.5e-05")), "");
    // The trace writes a negative number with U+2212 (a leaf `Value(-y)`, y = 0.5).
    assert.equal(recordLabel(leaf("\u22120.5")), "");
    assert.equal(recordLabel(leaf("\u22121.5e\u221205")), "");
    assert.equal(recordLabel({ ...leaf("x1"), label: "x1" }), "x1");
  });

  it("keeps a label the texts call the node by, and drops one a running sum passed on", () => {
    const node = (label, name, kind = "op") => ({
      id: "n0",
      label,
      name,
      op: "",
      kind,
      data: 0,
      grad: 0,
    });
    // `loss = Value(0.0)`, then `loss = loss + d*d` twice: the texts call them 0, 0+d*d, loss.
    assert.equal(recordLabel(node("loss", "0", "leaf")), "");
    assert.equal(recordLabel(node("loss", "0+d*d")), "");
    assert.equal(recordLabel(node("loss", "loss")), "loss");
    const long = "a_label_longer_than_forty_characters_in_all_of_it";
    assert.equal(recordLabel(node(long, `${long.slice(0, 39)}\u2026`)), long);
    assert.equal(recordLabel(node("x1", "")), "x1");
  });

  it("labels every closed box, a layer's and a neuron's as much as the model's", () => {
    // Named by their paths below the model (folding.js's groupLabel), not as the texts
    // name a value: drawn unlabelled, a network's opened MLP showed three blank boxes.
    const box = (group) => ({
      id: `group:${group}`,
      label: groupLabel(group),
      name: group,
      op: "",
      kind: "group",
      data: 0,
      grad: 0,
    });
    assert.equal(recordLabel(box("MLP")), "MLP");
    assert.equal(recordLabel(box("MLP.layers[1]")), "layers[1]");
    assert.equal(recordLabel(box("MLP.layers[0].neurons[2]")), "layers[0].neurons[2]");
  });
});

describe("edges kept near their ends (dagre's detours)", () => {
  /**
   * A network's forward pass as micrograd builds it: per neuron `act = b`, then
   * `act = act + w[i]*x[i]` for each input, then `tanh(act)`.
   * @param {number[]} inputs
   * @param {number[]} sizes
   */
  const network = (inputs, sizes) => {
    const nodes = [];
    const edges = [];
    const add = (label, op, ...children) => {
      nodes.push({ label, op, opChars: op.length });
      for (const child of children) edges.push({ child, parent: nodes.length - 1 });
      return nodes.length - 1;
    };
    let xs = inputs.map((v) => add(String(v), ""));
    for (const size of sizes) {
      xs = Array.from({ length: size }, () => {
        let act = add("b", "");
        xs.forEach((x, i) => {
          act = add("", "+", act, add("", "*", add(`w[${i}]`, ""), x));
        });
        return add("", "tanh", act);
      });
    }
    return { nodes, edges, order: nodes.map((_, i) => i), output: nodes.length - 1 };
  };

  /** How far the drawn edge goes above or below both its ends. */
  const stray = (edge) => {
    const curve = edgePolyline(edge.points, edgeBow(edge.repeat), 8);
    const ys = curve.map((p) => p.y);
    const [a, b] = [curve[0].y, curve[curve.length - 1].y];
    return Math.max(Math.min(a, b) - Math.min(...ys), Math.max(...ys) - Math.max(a, b), 0);
  };

  it("draws no operand edge far above or below both its ends (an MLP's first pass)", () => {
    // dagre routed x[1]'s edge into the first neuron's `×` hundreds of units up and back:
    // on the page it climbed out of the view at the first frame.
    for (const sizes of [
      [3, 1],
      [4, 1],
      [4, 4, 1],
    ]) {
      const layout = layoutGraph(network([2, 3, -1], sizes), dagre);
      assert.equal(layout.engine, "dagre");
      const worst = Math.max(...layout.edges.map(stray));
      assert.ok(worst <= SIZES.recordHeight / 2, `${sizes}: an edge strays ${worst} units`);
    }
  });

  it("lays every edge inside the layout's size", () => {
    for (const sizes of [
      [3, 1],
      [4, 4, 1],
    ]) {
      const layout = layoutGraph(network([2, 3, -1], sizes), dagre);
      for (const edge of [...layout.edges, ...layout.results])
        for (const p of edge.points) {
          assert.ok(p.x >= 0 && p.x <= layout.width, `x ${p.x} of ${layout.width}`);
          assert.ok(p.y >= 0 && p.y <= layout.height, `y ${p.y} of ${layout.height}`);
        }
    }
  });

  it("grows a layout whose edge passes outside its nodes, and moves everything with it", () => {
    const layout = {
      width: 200,
      height: 100,
      records: [{ x: 50, y: 50, width: 40, labelWidth: 0, valueWidth: 20 }],
      ops: [{ x: 120, y: 50 }],
      edges: [
        {
          child: 0,
          parent: 0,
          repeat: 0,
          points: [
            { x: 70, y: 50 },
            { x: 90, y: -30 },
            { x: 107, y: 50 },
          ],
        },
      ],
      results: [],
      millis: 0,
    };
    growToEdges(layout, { x: 12, y: 28 });
    assert.deepEqual(layout.edges[0].points[1], { x: 90, y: 28 });
    assert.equal(layout.height, 158);
    assert.equal(layout.width, 200);
    assert.deepEqual([layout.records[0].y, layout.ops[0].y], [108, 108]);
  });
});
