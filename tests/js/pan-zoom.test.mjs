import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { attachPanZoom } from "../../static/js/graph/pan-zoom.js";

/** A stand-in svg and viewport group, and animation frames run by hand. */
function stage() {
  /** @type {Array<(now: number) => void>} */
  let frames = [];
  globalThis.requestAnimationFrame = (callback) => frames.push(callback);
  globalThis.cancelAnimationFrame = () => {
    frames = [];
  };
  const clock = globalThis.performance;
  const element = {
    addEventListener() {},
    removeEventListener() {},
    getBoundingClientRect: () => ({ width: 400, height: 300, left: 0, top: 0 }),
  };
  const transforms = [];
  const viewport = { setAttribute: (_name, value) => transforms.push(value) };
  const panZoom = attachPanZoom(/** @type {any} */ (element), /** @type {any} */ (viewport), {
    width: 4000,
    height: 3000,
  });
  return {
    panZoom,
    transforms,
    /** Run the frames waiting, `ms` later. */
    tick(ms) {
      const waiting = frames;
      frames = [];
      for (const callback of waiting) callback(clock.now() + ms);
    },
  };
}

describe("pan-zoom's glide (issue 23, 11)", () => {
  it("counts a rectangle a glide is heading to as in view, so a step does not glide again", () => {
    const { panZoom, tick } = stage();
    const far = { x: 2000, y: 1500, width: 40, height: 20 };
    assert.equal(panZoom.isInView(far), false);
    panZoom.centerOn(far.x, far.y);
    // The view has not moved yet, but it is on its way there.
    assert.equal(panZoom.isInView(far), true);
    assert.notDeepEqual(panZoom.view, panZoom.heading);
    const heading = { ...panZoom.heading };
    tick(400);
    assert.deepEqual(panZoom.view, heading, "the glide ends where it was heading");
    assert.equal(panZoom.isInView(far), true);
    // Still, a glide's destination is not everything: what it leaves is out of view.
    assert.equal(panZoom.isInView({ x: 0, y: 0, width: 40, height: 20 }), false);
  });

  it("settles a glide where it was heading, at once, and does nothing without one", () => {
    const { panZoom, tick, transforms } = stage();
    const far = { x: 2000, y: 1500, width: 40, height: 20 };
    const before = transforms.length;
    panZoom.settle();
    assert.equal(transforms.length, before, "no glide: the view is not written");
    panZoom.centerOn(far.x, far.y);
    const heading = { ...panZoom.heading };
    tick(16);
    assert.notDeepEqual(panZoom.view, heading, "a sixteenth of the way");
    panZoom.settle();
    assert.deepEqual(panZoom.view, heading);
    assert.deepEqual(panZoom.heading, panZoom.view, "still: heading nowhere else");
    const settled = transforms.length;
    tick(16);
    assert.equal(transforms.length, settled, "the glide's frames are cancelled");
  });

  it("forgets where it was heading when a zoom cuts the glide short", () => {
    const { panZoom } = stage();
    const far = { x: 2000, y: 1500, width: 40, height: 20 };
    panZoom.centerOn(far.x, far.y);
    panZoom.zoomByHand(2);
    assert.deepEqual(panZoom.heading, panZoom.view);
    assert.equal(panZoom.isInView(far), false);
  });

  it("forgets where it was heading when the glide is cut short", () => {
    const { panZoom } = stage();
    const far = { x: 2000, y: 1500, width: 40, height: 20 };
    panZoom.centerOn(far.x, far.y);
    panZoom.setView({ x: 0, y: 0, k: 1 });
    assert.equal(panZoom.isInView(far), false);
    assert.deepEqual(panZoom.heading, { x: 0, y: 0, k: 1 });
  });
});
