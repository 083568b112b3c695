import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { tallestCandidates } from "../../static/js/player/stable-height.js";
import { chainTrace, fixture } from "./helpers.mjs";

describe("tallestCandidates", () => {
  it("measures every frame of a short trace", () => {
    const neuron = fixture("neuron.json");
    assert.deepEqual(
      tallestCandidates(neuron),
      neuron.frames.map((_, index) => index),
    );
  });
  it("measures one frame per kind of a long trace, the one with the longest text", () => {
    const trace = chainTrace(400);
    const picked = tallestCandidates(trace, 50);
    assert.ok(picked.length < 10, `${picked.length} frames picked`);
    const kinds = new Set(picked.map((index) => trace.frames[index].phase));
    assert.deepEqual(kinds, new Set(trace.frames.map((frame) => frame.phase)));
    const longestBuild = Math.max(
      ...trace.frames.filter((f) => f.phase === "build").map((f) => f.text.length),
    );
    assert.ok(
      picked.some(
        (index) =>
          trace.frames[index].phase === "build" && trace.frames[index].text.length === longestBuild,
      ),
    );
  });
});

describe("tallestCandidates on texts written when read", () => {
  it("judges them by their names and writes only a few per kind", () => {
    const names = { n0: "a", n1: "b", n2: "a_much_longer_name", n3: "c" };
    let written = 0;
    // As passes/columns.js makes them: the text is the prototype's, written when read.
    class Lazy {
      /**
       * @param {string} node
       * @param {string} to
       */
      constructor(node, to) {
        this.phase = "backward";
        this.node = node;
        this.contributions = [{ to }];
      }
      get text() {
        written += 1;
        const node = /** @type {keyof typeof names} */ (this.node);
        return `${names[node]} (+, grad 1): …`;
      }
    }
    const nodes = Object.entries(names).map(([id, name]) => ({
      id,
      op: id === "n0" ? "" : "+",
      name,
    }));
    const frames = [
      new Lazy("n1", "n0"),
      new Lazy("n3", "n0"),
      new Lazy("n2", "n0"),
      new Lazy("n1", "n0"),
      new Lazy("n3", "n0"),
      new Lazy("n1", "n0"),
    ];
    assert.deepEqual(tallestCandidates({ nodes, frames }, 2), [2]);
    assert.equal(written, 3);
  });
});
