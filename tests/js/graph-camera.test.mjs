import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  FAR_BELOW_SCALE,
  MIN_TEXT_PX,
  NEAR_MAX_NODES,
  NODE_TEXT_PX,
  READABLE_SCALE,
  frameHeight,
  framing,
  levelOfDetail,
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
