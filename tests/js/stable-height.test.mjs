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
