import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  agrees,
  decadeLabel,
  decades,
  hLabel,
  plotData,
  rowNearest,
  sensibleH,
  summarizeCheck,
  validateGradCheck,
} from "../../static/js/lab/gradcheck.js";

const H = Array.from({ length: 14 }, (_, i) => Number(`1e-${i + 1}`)); // as JSON writes them
const f = (x) => 3 * x * x - 4 * x + 5;
/** The article's f at x = 3 with the forward difference, as POST /api/gradcheck answers it. */
const articleCheck = {
  node: "n0",
  label: "x",
  analytic: 14,
  rows: H.map((h) => {
    const numeric = (f(3 + h) - f(3)) / h;
    return { h, numeric, error: Math.abs(numeric - 14) };
  }),
};

describe("summarizeCheck", () => {
  it("shows the article's 14.003 at h = 0.001 and agrees at the sensible h", () => {
    const summary = summarizeCheck(articleCheck, { x: 3 });
    assert.ok(Math.abs(summary.rows[2].numeric - 14.003) < 1e-9);
    assert.equal(summary.agrees, true);
    assert.equal(summary.best.h, 1e-7);
    assert.ok(summary.best.error < 1e-5);
  });

  it("disagrees with a wrong analytic gradient at every h", () => {
    const summary = summarizeCheck(articleCheck, { x: 3, analytic: 7 });
    assert.equal(summary.agrees, false);
    assert.equal(summary.analytic, 7);
    assert.ok(summary.rows.every((row) => row.error > 1));
  });

  it("takes the h nearest the balance of truncation and rounding, for the scheme and x", () => {
    assert.ok(Math.abs(sensibleH("forward", 1) - 1.49e-8) < 1e-10);
    assert.ok(Math.abs(sensibleH("central", -100) - 6.06e-4) < 1e-6);
    assert.equal(sensibleH("forward", 0.001), sensibleH("forward", 1));
    const rows = H.map((h) => ({ h, numeric: 1, error: 0 }));
    assert.equal(rowNearest(rows, sensibleH("forward", 1)).h, 1e-8);
    assert.equal(rowNearest(rows, sensibleH("central", 1)).h, 1e-5);
    assert.equal(
      rowNearest(
        [
          { h: 1e-2, numeric: 1, error: 0 },
          { h: 1e-4, numeric: 1, error: 0 },
        ],
        1e-3,
      ).h,
      1e-2,
    );
    assert.equal(rowNearest([], 1e-3), null);
  });

  it("chooses h without looking at the gradient it checks", () => {
    // a + a with `=`: the engine says 1, the quotients say 2 with rounding noise at small h.
    const rows = H.map((h) => {
      const numeric = (2 * (3 + h) - 6) / h;
      return { h, numeric, error: Math.abs(numeric - 1) };
    });
    const wrong = summarizeCheck({ node: "n0", label: "a", analytic: 1, rows }, { x: 3 });
    const right = summarizeCheck({ node: "n0", label: "a", analytic: 2, rows }, { x: 3 });
    assert.equal(wrong.best.h, right.best.h);
    assert.ok(Math.abs(wrong.best.numeric - 2) < 1e-6);
    assert.equal(wrong.agrees, false);
    assert.equal(right.agrees, true);
  });
});

describe("agrees", () => {
  it("is relative for large gradients and absolute near zero", () => {
    assert.equal(agrees(1e6 + 1, 1e6), true);
    assert.equal(agrees(1e-5, 0), true);
    assert.equal(agrees(2, 1), false);
  });
});

describe("plotData", () => {
  it("spans whole decades of h and of the error: the V of the sweep", () => {
    const data = plotData([summarizeCheck(articleCheck)]);
    assert.deepEqual(data.x, [-14, -1]);
    assert.equal(data.floor, null);
    const ys = data.series[0].points.map((p) => p.y);
    const lowest = ys.indexOf(Math.min(...ys));
    assert.ok(lowest > 0 && lowest < ys.length - 1, "the error falls, then rises again");
    assert.ok(data.y[0] <= Math.min(...ys) && data.y[1] >= Math.max(...ys));
  });

  it("puts exact errors on a floor a decade below the rest, marked as zero", () => {
    const data = plotData([
      summarizeCheck({
        node: "n0",
        label: "a",
        analytic: 2,
        rows: [
          { h: 0.1, numeric: 2, error: 0 },
          { h: 0.01, numeric: 2.5, error: 0.5 },
        ],
      }),
    ]);
    assert.equal(data.floor, -2);
    assert.deepEqual(
      data.series[0].points.map((p) => [p.y, p.zero]),
      [
        [-2, true],
        [Math.log10(0.5), false],
      ],
    );
  });

  it("still has axes when every error is zero", () => {
    const data = plotData([
      summarizeCheck({
        node: "n0",
        label: "a",
        analytic: 1,
        rows: [{ h: 0.1, numeric: 1, error: 0 }],
      }),
    ]);
    assert.ok(data.y[1] > data.y[0] && data.x[1] > data.x[0]);
    assert.ok(data.series[0].points.every((p) => Number.isFinite(p.y)));
  });
});

describe("decades", () => {
  it("thins long ranges and labels them as people write them", () => {
    assert.deepEqual(decades([-14, -1]), [-14, -12, -10, -8, -6, -4, -2]);
    assert.deepEqual(decades([-2, 0]), [-2, -1, 0]);
    assert.deepEqual([0, 1, -3].map(decadeLabel), ["1", "10", "1e\u22123"]);
    assert.deepEqual([1e-5, 1e-14, 0.1, 0.003, 2].map(hLabel), [
      "1e\u22125",
      "1e\u221214",
      "0.1",
      "0.003",
      "2",
    ]);
  });
});

describe("validateGradCheck", () => {
  it("names what does not fit", () => {
    assert.throws(() => validateGradCheck(null), /gradcheck must be an object/);
    assert.throws(
      () => validateGradCheck({ checks: [{ node: "n0", analytic: "1", rows: [] }] }),
      /checks\[0\]\.analytic/,
    );
    assert.throws(
      () =>
        validateGradCheck({ checks: [{ node: "n0", analytic: 1, rows: [{ h: 0, numeric: 1 }] }] }),
      /rows\[0\]/,
    );
    assert.equal(validateGradCheck({ output: "n1", checks: [articleCheck] }).checks.length, 1);
  });
});
