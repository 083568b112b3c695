import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { READABLE_SCALE } from "../../static/js/graph/graph-camera.js";
import { createFollower } from "../../static/js/graph/graph-follow.js";

/**
 * The expanded neuron's fork on a phone, in three records a row: e (0), the constant −1
 * (1) and num (2), num's rule adding into e (whose gradient holds den's share) and −1.
 * Too wide together for a 364 px view at the readable scale.
 */
const record = (x) => ({ x, y: 100, width: 150, labelWidth: 20, valueWidth: 65 });
const layout = { records: [record(100), record(350), record(600)], width: 700, height: 200 };
const timeline = {
  trace: { output: "n2", mistake: null },
  indexOf: new Map([["n2", 2]]),
  operands: [[], [], [0, 1]],
  appearFrame: new Int32Array(3),
};
const share = (child, before) => ({ child, before, delta: 0.1464, after: before + 0.1464 });
const fork = {
  index: 15,
  current: 2,
  phase: "backward",
  contributions: [share(0, -0.1036), share(1, 0)],
};
const next = { index: 16, current: 0, phase: "backward", contributions: [] };
const build = { index: 14, current: 0, phase: "build", contributions: [] };

/** A pan-zoom that moves at once and remembers where it was sent. */
function fakePanZoom() {
  const moves = [];
  const panZoom = {
    view: { x: 0, y: 0, k: 1 },
    get heading() {
      return panZoom.view;
    },
    size: { width: 364, height: 356 },
    fitScale: () => 0.5,
    fit() {},
    settle() {},
    invalidate() {},
    isInView: () => false,
    centerOn(x, y, k = panZoom.view.k) {
      moves.push({ x, y, k });
      panZoom.view = { x: 182 - x * k, y: 178 - y * k, k };
    },
  };
  return { panZoom, moves };
}

function follower(panZoom) {
  const frame = { querySelectorAll: () => [], clientWidth: 0, style: {} };
  return createFollower({ panZoom, layout, timeline, frame, small: true });
}

describe("the camera at a fork on a phone", () => {
  it("zooms out to show the value whose rule runs with the values it adds into", () => {
    const { panZoom, moves } = fakePanZoom();
    const camera = follower(panZoom);
    camera.follow(build, false);
    assert.equal(panZoom.view.k, READABLE_SCALE);
    camera.follow(fork, false);
    const { k } = moves.at(-1);
    assert.ok(k < READABLE_SCALE && k >= 0.4, `scale ${k}`);
    // e's left edge and num's right edge both on screen.
    const left = panZoom.view.x + (100 - 75) * k;
    const right = panZoom.view.x + (600 + 75) * k;
    assert.ok(left >= 0 && right <= 364, `${left}..${right}`);
  });

  it("comes back to the readable scale at the next step, even if drawn far meanwhile", () => {
    const { panZoom, moves } = fakePanZoom();
    const camera = follower(panZoom);
    camera.follow(build, false);
    camera.follow(fork, false);
    camera.follow(next, true);
    assert.equal(moves.at(-1).k, READABLE_SCALE);
  });

  it("keeps a scale the learner chose by hand after the fork", () => {
    const { panZoom, moves } = fakePanZoom();
    const camera = follower(panZoom);
    camera.follow(build, false);
    camera.follow(fork, false);
    panZoom.view = { ...panZoom.view, k: 0.6 }; // zoomed by hand
    camera.follow(next, false);
    assert.equal(moves.at(-1).k, 0.6);
  });
});
