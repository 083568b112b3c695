import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  MINIMAP_MIN_NODES,
  MINIMAP_MIN_SIDE,
  MINIMAP_MIN_VIEW,
  minimapSize,
  minimapTransform,
  panByStep,
  toGraph,
  toMinimap,
  viewCenteredAt,
  viewOnMinimap,
  wantsMinimap,
} from "../../static/js/graph/minimap-math.js";

const close = (a, b, message) => assert.ok(Math.abs(a - b) < 1e-9, `${message}: ${a} vs ${b}`);

describe("wantsMinimap", () => {
  it("is for graphs of more values than a small graph holds", () => {
    assert.equal(wantsMinimap(MINIMAP_MIN_NODES), false);
    assert.equal(wantsMinimap(MINIMAP_MIN_NODES + 1), true);
    assert.equal(wantsMinimap(20000), true);
  });
});

describe("minimapSize", () => {
  it("keeps the graph's shape inside the limit", () => {
    assert.deepEqual(minimapSize({ width: 1000, height: 500 }, { width: 200, height: 160 }), {
      width: 200,
      height: 100,
    });
    assert.deepEqual(minimapSize({ width: 300, height: 3000 }, { width: 200, height: 150 }), {
      width: MINIMAP_MIN_SIDE, // 15 px would be too thin to click
      height: 150,
    });
  });

  it("never exceeds the limit, even when the limit is under the thinnest side", () => {
    const size = minimapSize({ width: 10, height: 100000 }, { width: 30, height: 90 });
    assert.deepEqual(size, { width: 30, height: 90 });
  });
});

describe("minimapTransform and toMinimap / toGraph", () => {
  const content = { width: 4000, height: 24000 };
  const size = minimapSize(content, { width: 200, height: 150 });
  const transform = minimapTransform(content, size, 4);

  it("fits the whole graph inside the padding, centred", () => {
    const topLeft = toMinimap(transform, { x: 0, y: 0 });
    const bottomRight = toMinimap(transform, { x: content.width, y: content.height });
    assert.ok(topLeft.x >= 4 - 1e-9 && topLeft.y >= 4 - 1e-9, JSON.stringify(topLeft));
    assert.ok(bottomRight.x <= size.width - 4 + 1e-9, JSON.stringify(bottomRight));
    assert.ok(bottomRight.y <= size.height - 4 + 1e-9, JSON.stringify(bottomRight));
    close(topLeft.x + bottomRight.x, size.width, "centred across");
    close(topLeft.y + bottomRight.y, size.height, "centred down");
    // The tighter axis touches the padding.
    close(topLeft.y, 4, "top padding");
  });

  it("maps there and back to the same point", () => {
    for (const point of [
      { x: 0, y: 0 },
      { x: 1234.5, y: 20000 },
      { x: -50, y: 30000 },
    ]) {
      const back = toGraph(transform, toMinimap(transform, point));
      close(back.x, point.x, "x");
      close(back.y, point.y, "y");
    }
  });

  it("survives a graph with no extent", () => {
    const flat = minimapTransform({ width: 0, height: 0 }, { width: 48, height: 48 });
    assert.ok(Number.isFinite(flat.k) && Number.isFinite(flat.x) && Number.isFinite(flat.y));
  });
});

describe("viewOnMinimap", () => {
  const content = { width: 1000, height: 500 };
  const size = { width: 200, height: 100 };
  const transform = minimapTransform(content, size, 0);

  it("is the visible part of the graph, scaled down", () => {
    // At scale 1, a 400 x 200 box showing graph x 100..500, y 50..250.
    const rect = viewOnMinimap(
      { x: -100, y: -50, k: 1 },
      { width: 400, height: 200 },
      transform,
      size,
    );
    close(rect.x, 20, "x");
    close(rect.y, 10, "y");
    close(rect.width, 80, "width");
    close(rect.height, 40, "height");
  });

  it("is cut to the minimap when the view shows more than the graph", () => {
    const rect = viewOnMinimap(
      { x: 50, y: 50, k: 0.2 },
      { width: 400, height: 400 },
      transform,
      size,
    );
    assert.deepEqual(rect, { x: 0, y: 0, width: 200, height: 100 });
  });

  it("stays at least MINIMAP_MIN_VIEW pixels a side when the view is a speck of a huge graph", () => {
    const rect = viewOnMinimap(
      { x: -500, y: -250, k: 3 },
      { width: 3, height: 3 },
      transform,
      size,
    );
    assert.ok(rect.width >= MINIMAP_MIN_VIEW - 1e-9, JSON.stringify(rect));
    assert.ok(rect.height >= MINIMAP_MIN_VIEW - 1e-9, JSON.stringify(rect));
    assert.ok(rect.x >= 0 && rect.x + rect.width <= size.width, JSON.stringify(rect));
  });
});

describe("viewCenteredAt", () => {
  const content = { width: 10000, height: 6000 };
  const size = minimapSize(content, { width: 200, height: 150 });
  const transform = minimapTransform(content, size);
  const box = { width: 800, height: 500 };

  it("centres the main view on the graph point under the click, at the same scale", () => {
    const view = { x: 0, y: 0, k: 0.5 };
    const click = toMinimap(transform, { x: 5000, y: 3000 });
    const next = viewCenteredAt(view, box, content, transform, click);
    assert.equal(next.k, 0.5);
    close((box.width / 2 - next.x) / next.k, 5000, "centre x");
    close((box.height / 2 - next.y) / next.k, 3000, "centre y");
  });

  it("does not pan past the graph's edge into blank space", () => {
    const view = { x: 0, y: 0, k: 1 };
    const corner = toMinimap(transform, { x: 0, y: 0 });
    const next = viewCenteredAt(view, box, content, transform, corner);
    // The graph's top-left corner sits at the margin, not in the middle of the screen.
    assert.ok(next.x <= 16 && next.y <= 16, JSON.stringify(next));
  });
});

describe("panByStep", () => {
  const content = { width: 5000, height: 5000 };
  const box = { width: 500, height: 400 };

  it("moves the view a fifth of the screen per step, in the asked direction", () => {
    const view = { x: -1000, y: -1000, k: 1 };
    assert.deepEqual(panByStep(view, box, content, 1, 0), { k: 1, x: -1100, y: -1000 });
    assert.deepEqual(panByStep(view, box, content, 0, -1), { k: 1, x: -1000, y: -920 });
    assert.deepEqual(panByStep(view, box, content, -3, 0), { k: 1, x: -700, y: -1000 });
  });

  it("stops at the graph's edge", () => {
    const view = { x: 0, y: 0, k: 1 };
    const next = panByStep(view, box, content, -1, -1);
    assert.ok(next.x <= 16 && next.y <= 16, JSON.stringify(next));
  });
});
