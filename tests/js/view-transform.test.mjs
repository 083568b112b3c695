import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  MAX_FIT_SCALE,
  MAX_SCALE,
  MIN_SCALE,
  centerView,
  clampScale,
  clampToContent,
  fitScale,
  fitView,
  glideStep,
  isInView,
  transformAttribute,
  visibleRect,
  zoomAround,
} from "../../static/js/graph/view-transform.js";

/** Where a content point lands on screen under a view. */
const toScreen = (view, p) => ({ x: view.x + p.x * view.k, y: view.y + p.y * view.k });

describe("zoomAround", () => {
  it("keeps the content point under the pointer where it was", () => {
    const view = { x: 30, y: -12, k: 0.8 };
    const pointer = { x: 210, y: 95 };
    const content = { x: (pointer.x - view.x) / view.k, y: (pointer.y - view.y) / view.k };
    for (const factor of [2, 0.5, 1.25, 0.8]) {
      const zoomed = zoomAround(view, factor, pointer);
      const back = toScreen(zoomed, content);
      assert.ok(
        Math.abs(back.x - pointer.x) < 1e-9 && Math.abs(back.y - pointer.y) < 1e-9,
        `factor ${factor}`,
      );
      assert.equal(zoomed.k, view.k * factor);
    }
  });

  it("never goes past the scale limits", () => {
    assert.equal(zoomAround({ x: 0, y: 0, k: 2 }, 100, { x: 0, y: 0 }).k, MAX_SCALE);
    assert.equal(zoomAround({ x: 0, y: 0, k: 0.01 }, 0.001, { x: 0, y: 0 }).k, MIN_SCALE);
    assert.equal(clampScale(Number.POSITIVE_INFINITY), MAX_SCALE);
  });
});

describe("fitView", () => {
  it("shows all of the content, centred", () => {
    const content = { width: 1200, height: 300 };
    const box = { width: 600, height: 400 };
    const view = fitView(content, box);
    assert.equal(view.k, 0.5);
    assert.deepEqual(toScreen(view, { x: 0, y: 0 }), { x: 0, y: 125 });
    assert.deepEqual(toScreen(view, { x: 1200, y: 300 }), { x: 600, y: 275 });
  });

  it("does not magnify a tiny graph past MAX_FIT_SCALE", () => {
    assert.equal(fitScale({ width: 10, height: 10 }, { width: 1000, height: 1000 }), MAX_FIT_SCALE);
  });

  it("reaches a 72,000-pixel-tall graph (20,000 values) in a 600-pixel frame", () => {
    const view = fitView({ width: 14000, height: 72000 }, { width: 800, height: 600 });
    assert.ok(view.k * 72000 <= 600 + 1e-9);
  });
});

describe("centerView", () => {
  it("puts the content point in the middle of the box", () => {
    const view = centerView(500, 40, 2, { width: 300, height: 200 });
    assert.deepEqual(toScreen(view, { x: 500, y: 40 }), { x: 150, y: 100 });
  });
});

describe("clampToContent", () => {
  const content = { width: 1000, height: 100 };
  const box = { width: 400, height: 300 };

  it("does not leave blank space left of a node near the graph's left edge", () => {
    const view = clampToContent(centerView(20, 50, 1, box), content, box, 0);
    assert.equal(view.x, 0);
  });

  it("does not leave blank space right of a node near the graph's right edge", () => {
    const view = clampToContent(centerView(990, 50, 1, box), content, box, 0);
    assert.equal(view.x, box.width - content.width);
  });

  it("leaves a node in the middle of a wide graph centred", () => {
    const centred = centerView(500, 50, 1, box);
    assert.equal(clampToContent(centred, content, box).x, centred.x);
  });

  it("centres content smaller than the box", () => {
    const view = clampToContent({ x: -500, y: -500, k: 1 }, content, box);
    assert.equal(view.y, (box.height - content.height) / 2);
  });

  it("keeps the scale", () => {
    assert.equal(clampToContent({ x: 3, y: 4, k: 0.7 }, content, box).k, 0.7);
  });

  it("goes `reach` pixels past the edge, to take a value out from under the buttons", () => {
    const view = clampToContent(centerView(20, 50, 1, box), content, box, 16, 30);
    assert.equal(view.x, 46);
    assert.equal(clampToContent(centerView(20, 50, 1, box), content, box, 16, 10).x, 26);
  });
});

describe("visibleRect and isInView", () => {
  const view = { x: -100, y: 50, k: 2 };
  const box = { width: 400, height: 300 };

  it("maps the box back to content coordinates", () => {
    assert.deepEqual(visibleRect(view, box), { left: 50, top: -25, right: 250, bottom: 125 });
  });

  it("grows by a margin given in screen pixels", () => {
    assert.deepEqual(visibleRect(view, box, 20), { left: 40, top: -35, right: 260, bottom: 135 });
  });

  it("says a rectangle is in view only when it sits inside the margin", () => {
    assert.equal(isInView(view, box, { x: 150, y: 50, width: 20, height: 20 }), true);
    assert.equal(isInView(view, box, { x: 55, y: 50, width: 20, height: 20 }), false);
    assert.equal(isInView(view, box, { x: 55, y: 50, width: 20, height: 20 }, 0), false);
    assert.equal(isInView(view, box, { x: 70, y: 50, width: 20, height: 20 }, 0), true);
  });
});

describe("glideStep and transformAttribute", () => {
  it("starts at the start and ends at the end", () => {
    const from = { x: 0, y: 0, k: 1 };
    const to = { x: 100, y: -50, k: 2 };
    assert.deepEqual(glideStep(from, to, 0), from);
    assert.deepEqual(glideStep(from, to, 1), to);
    assert.ok(glideStep(from, to, 0.5).x > 50, "eases out: more than half way at half time");
  });

  it("writes an SVG transform", () => {
    assert.equal(
      transformAttribute({ x: 1.234, y: -5, k: 0.5 }),
      "translate(1.2,-5.0) scale(0.5000)",
    );
  });
});
