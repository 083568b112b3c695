import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  FAR_BELOW_SCALE,
  MIN_TEXT_PX,
  NEAR_MAX_NODES,
  NODE_TEXT_PX,
  READABLE_SCALE,
  clearOfCovers,
  frameHeight,
  framing,
  levelOfDetail,
  slideTo,
  underCovers,
} from "../../static/js/graph/graph-camera.js";

describe("framing", () => {
  it("fits a graph that fits with readable text", () => {
    assert.deepEqual(framing({ fitScale: 1.1, small: true }), { mode: "fit" });
    assert.deepEqual(framing({ fitScale: READABLE_SCALE, small: false }), { mode: "fit" });
  });

  it("follows the action on a small graph rather than shrink its text, even after Fit", () => {
    for (const fitChosen of [false, true]) {
      const choice = framing({ fitScale: 0.5, small: true, fitChosen });
      assert.equal(choice.mode, "follow");
      assert.ok("scale" in choice && choice.scale * NODE_TEXT_PX >= MIN_TEXT_PX);
    }
  });

  it("opens a big graph following the action, and shows it whole when Fit is pressed", () => {
    assert.equal(framing({ fitScale: 0.01, small: false }).mode, "follow");
    assert.equal(framing({ fitScale: 0.01, small: false, fitChosen: true }).mode, "fit");
  });
});

describe("frameHeight", () => {
  it("gives a flat graph a short frame", () => {
    assert.equal(
      frameHeight({ width: 1200, windowHeight: 900, content: { width: 800, height: 200 } }),
      292,
    );
  });

  it("gives a tall graph most of the window, never more", () => {
    assert.equal(
      frameHeight({ width: 1200, windowHeight: 900, content: { width: 800, height: 72000 } }),
      558,
    );
  });

  it("sizes a graph too wide for the frame as it will be shown: at a readable scale", () => {
    const height = frameHeight({
      width: 360,
      windowHeight: 800,
      content: { width: 900, height: 300 },
    });
    assert.equal(height, Math.round(300 * READABLE_SCALE + 72));
  });

  it("never gives less than 260 pixels", () => {
    assert.equal(
      frameHeight({ width: 1200, windowHeight: 900, content: { width: 100, height: 10 } }),
      260,
    );
  });
});

describe("levelOfDetail", () => {
  it("draws far when zoomed out past readable numbers", () => {
    assert.equal(levelOfDetail(FAR_BELOW_SCALE / 2, 10), "far");
  });

  it("draws far when too many records are in view for SVG", () => {
    assert.equal(levelOfDetail(1, NEAR_MAX_NODES + 1), "far");
  });

  it("draws near at a reading zoom with a screenful of records", () => {
    assert.equal(levelOfDetail(READABLE_SCALE, 120), "near");
  });
});

describe("underCovers (issue 23, 11)", () => {
  const tools = [{ left: 800, top: 0, right: 900, bottom: 44 }];
  it("sees a record under the zoom buttons, through the view's pan and zoom", () => {
    // A record at content (850, 20) drawn at scale 1 with no pan sits under the buttons.
    assert.equal(
      underCovers({ x: 0, y: 0, k: 1 }, { x: 850, y: 20, width: 120, height: 36 }, tools),
      true,
    );
    // Panned down by 100 px it is clear of them.
    assert.equal(
      underCovers({ x: 0, y: 100, k: 1 }, { x: 850, y: 20, width: 120, height: 36 }, tools),
      false,
    );
    // Zoomed to 0.5, the same record is drawn at x 395..455: clear.
    assert.equal(
      underCovers({ x: 0, y: 0, k: 0.5 }, { x: 850, y: 20, width: 120, height: 36 }, tools),
      false,
    );
  });
  it("covers nothing without controls", () => {
    assert.equal(
      underCovers({ x: 0, y: 0, k: 1 }, { x: 0, y: 0, width: 10, height: 10 }, []),
      false,
    );
  });
});

describe("slideTo", () => {
  it("keeps the span whole and reaches as far towards the rest as the view allows", () => {
    // A 100-unit span at 50..150 in a 400 px view: the view's left edge 24 px before it.
    assert.equal(slideTo(500, { centre: 100, length: 100 }, 1, 400, 24), 226);
    // Towards the other side, by the same rule.
    assert.equal(slideTo(-500, { centre: 100, length: 100 }, 1, 400, 24), -26);
    // Where the wanted centre shows the span already, it stands.
    assert.equal(slideTo(120, { centre: 100, length: 100 }, 1, 400, 24), 120);
  });
  it("counts in screen pixels at the view's scale", () => {
    // At k 0.5 the 400 px view spans 800 units: 352 of them beside the span's start.
    assert.equal(slideTo(1000, { centre: 100, length: 100 }, 0.5, 400, 24), 50 + 400 - 48);
  });
  it("narrows the margin for a span that only just fits, and centres one too long", () => {
    // 340 of 400 px: 6 px of play each way with 24 px margins.
    assert.equal(slideTo(900, { centre: 100, length: 340 }, 1, 400, 24), 106);
    // 390 px: less than the margins' room, so it is centred (5 px a side).
    assert.equal(slideTo(900, { centre: 100, length: 390 }, 1, 400, 24), 100);
    assert.equal(slideTo(900, { centre: 100, length: 500 }, 1, 400, 24), 100);
  });
});

describe("clearOfCovers", () => {
  const size = { width: 400, height: 300 };
  const tools = [{ left: 250, top: 10, right: 390, bottom: 42 }];
  it("moves a box from under the zoom buttons the shortest way that stays in view", () => {
    const rect = { left: 200, top: 20, right: 300, bottom: 60 };
    assert.deepEqual(clearOfCovers(rect, tools, size, 8), { dx: 0, dy: 26 });
    // Too tall to go below them: it goes left of them.
    const tall = { left: 200, top: 20, right: 300, bottom: 285 };
    assert.deepEqual(clearOfCovers(tall, tools, size, 8), { dx: -54, dy: 0 });
  });
  it("leaves a box that is under nothing, or that no move can clear, where it is", () => {
    assert.deepEqual(clearOfCovers({ left: 0, top: 100, right: 90, bottom: 140 }, tools, size, 8), {
      dx: 0,
      dy: 0,
    });
    const huge = { left: 8, top: 8, right: 392, bottom: 292 };
    assert.deepEqual(clearOfCovers(huge, tools, size, 8), { dx: 0, dy: 0 });
  });
});
