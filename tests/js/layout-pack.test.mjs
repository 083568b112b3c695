import assert from "node:assert/strict";
import { describe, it } from "node:test";

import dagre from "../../static/vendor/dagre/dagre.esm.js";
import { layoutGraph, layoutInput, packedLayoutInput } from "../../static/js/layout/layout.js";
import {
  packInput,
  packLayout,
  structureKey,
  transferables,
  unpackInput,
  unpackLayout,
} from "../../static/js/layout/layout-pack.js";
import { chainTrace, fixture } from "./helpers.mjs";

describe("packLayout", () => {
  for (const [name, input, withDagre] of [
    [
      "the neuron laid out by dagre (bent edges, leaves without ops)",
      layoutInput(fixture("neuron-expanded.json")),
      true,
    ],
    ["a + a (a repeated edge)", layoutInput(fixture("a-plus-a.json")), true],
    ["a 400-step chain laid out by the layered layout", layoutInput(chainTrace(400)), false],
  ]) {
    it(`round-trips ${name}`, () => {
      const layout = layoutGraph(input, withDagre ? dagre : undefined);
      assert.deepEqual(unpackLayout(packLayout(layout)), layout);
    });
  }

  it("hands over buffers that can be transferred, one per array", () => {
    const packed = packLayout(layoutGraph(layoutInput(chainTrace(20))));
    const buffers = transferables(packed);
    assert.equal(new Set(buffers).size, buffers.length);
    assert.ok(buffers.every((buffer) => buffer instanceof ArrayBuffer));
  });
});

describe("packInput", () => {
  it("lays out exactly as the input it packs, long labels and repeated edges included", () => {
    const trace = fixture("neuron-expanded.json");
    trace.nodes[0].label = "a_label_longer_than_any_drawn_one";
    for (const [input, withDagre] of [
      [layoutInput(trace), true],
      [layoutInput(fixture("a-plus-a.json")), true],
      [layoutInput(chainTrace(400)), false],
    ]) {
      const unpacked = unpackInput(packInput(input));
      const strip = (/** @type {any} */ layout) => ({ ...layout, millis: 0 });
      assert.deepEqual(
        strip(layoutGraph(unpacked, withDagre ? dagre : undefined)),
        strip(layoutGraph(input, withDagre ? dagre : undefined)),
      );
    }
  });
});

describe("packedLayoutInput", () => {
  it("packs a trace as packInput packs its layoutInput", () => {
    for (const trace of [
      fixture("neuron-expanded.json"),
      fixture("a-plus-a.json"),
      chainTrace(400),
    ]) {
      const packed = packedLayoutInput(trace);
      assert.deepEqual(packed, packInput(layoutInput(trace)));
      assert.equal(structureKey(packed), structureKey(packInput(layoutInput(trace))));
    }
  });
});

describe("structureKey", () => {
  /** @param {import("../../static/js/layout/layout.js").LayoutInput} input */
  const keyOf = (input) => structureKey(packInput(input));
  const neuron = layoutInput(fixture("neuron.json"));

  it("is the same for the same structure with other numbers", () => {
    const trace = fixture("neuron.json");
    for (const node of trace.nodes) node.data *= 1.0001;
    assert.equal(keyOf(layoutInput(trace)), keyOf(neuron));
  });

  it("is the same for labels of the same drawn length and other op names, which lay out the same", () => {
    const renamed = {
      ...neuron,
      nodes: neuron.nodes.map((n) => ({
        ...n, // opChars: the glyph's drawn length, as for any other op of that length
        label: n.label.replace(/[a-z]/g, "q"),
        op: n.op === "+" ? "*" : n.op,
      })),
    };
    assert.equal(keyOf(renamed), keyOf(neuron));
  });

  it("changes with a label's length, an op, an edge, the order or the output", () => {
    const key = keyOf(neuron);
    const changed = [
      {
        ...neuron,
        nodes: neuron.nodes.map((n, i) => (i === 0 ? { ...n, label: `${n.label}'` } : n)),
      },
      { ...neuron, nodes: neuron.nodes.map((n) => (n.op === "+" ? { ...n, op: "" } : n)) },
      // A longer glyph takes a wider shape (tanh drawn as "sigmoid").
      { ...neuron, nodes: neuron.nodes.map((n) => (n.op === "tanh" ? { ...n, opChars: 7 } : n)) },
      {
        ...neuron,
        edges: neuron.edges.map((e, k) => (k === 0 ? { ...e, child: e.child + 1 } : e)),
      },
      { ...neuron, order: [...neuron.order].reverse() },
      { ...neuron, output: neuron.output - 1 },
      { ...neuron, valueChars: 30 },
    ];
    for (const input of changed) assert.notEqual(keyOf(input), key);
  });

  it("does not confuse label lengths: ab|c differs from a|bc", () => {
    const two = (/** @type {string} */ a, /** @type {string} */ b) => ({
      nodes: [
        { label: a, op: "" },
        { label: b, op: "" },
      ],
      edges: [],
      order: [0, 1],
      output: 1,
    });
    assert.notEqual(keyOf(two("ab", "c")), keyOf(two("a", "bc")));
  });
});
