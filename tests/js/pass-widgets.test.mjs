import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { chartGeometry, loopRun } from "../../static/js/passes/loss-chart.js";
import { createTimeline } from "../../static/js/passes/timeline.js";
import { nextPassStart, previousPassStart } from "../../static/js/passes/pass-navigator.js";
import { printIndex } from "../../static/js/player/print-panel.js";
import { lineOfFrame } from "../../static/js/player/source-line.js";
import { forgotZeroGrad, mlpTraining, optimizerSteps, recorder } from "./multipass.mjs";
import {
  changeName,
  changeText,
  programExcerpt,
  updateNote,
} from "../../static/js/player/update-code.js";

describe("the loss chart's geometry", () => {
  it("spreads passes across the width and puts the highest value at the top", () => {
    const { points, low, high } = chartGeometry([1, 0.64], 320, 100);
    assert.deepEqual(
      points.map((p) => [p.x, p.y]),
      [
        [50, 12],
        [308, 78],
      ],
    );
    assert.deepEqual([low, high], [0.64, 1]);
  });
  it("keeps a flat series in the middle and one pass in the centre", () => {
    const flat = chartGeometry([-4, -4], 320, 100);
    assert.equal(flat.points[0].y, flat.points[1].y);
    assert.equal(flat.points[0].y, 12 + (100 - 12 - 22) / 2);
    assert.equal(chartGeometry([3], 320, 100).points[0].x, 50 + (320 - 50 - 12) / 2);
  });
});

describe("which passes the loss chart plots", () => {
  const runOf = (trace) =>
    loopRun(
      createTimeline(trace),
      trace.nodes.map((node) => node.label || node.id),
    );
  /** Tests that each build their own graph and call backward() on it. */
  const testFile = (sizes) => {
    const r = recorder("test file");
    sizes.forEach((size, t) => {
      let out = r.leaf(`x${t}`, t + 1);
      for (let k = 1; k < size; k++) out = r.tanh(out);
      r.backward(out);
    });
    return r;
  };
  it("plots every step of a training loop", () => {
    assert.deepEqual(runOf(mlpTraining(3)), [0, 2]);
    assert.deepEqual(runOf(optimizerSteps()), [0, 1]);
  });
  it("plots nothing for tests whose graphs are unrelated, even of one size", () => {
    assert.equal(runOf(testFile([3, 2, 2, 2, 4]).trace()), null);
  });
  it("plots nothing for the same graph's backward() run twice", () => {
    assert.equal(runOf(forgotZeroGrad()), null);
  });
  it("plots nothing for one test's graphs rebuilt alike, named by their expression", () => {
    const r = recorder("repeated backward");
    const x = r.leaf("x", 3);
    for (let k = 0; k < 3; k++) r.backward(r.mul(x, x, { label: "x*x" }));
    assert.equal(runOf(r.trace()), null);
  });
  it("plots only the loop's passes after passes that are not its steps", () => {
    const r = testFile([3, 2]);
    const w = r.leaf("w", 0.5);
    for (let step = 0; step < 3; step++) {
      const loss = r.mul(w, w, { label: "loss" });
      r.backward(loss);
    }
    assert.deepEqual(runOf(r.trace()), [2, 4]);
  });
  it("plots a loop that makes its parameter anew each step, by its output's name", () => {
    const r = recorder("rebinding loop");
    let w = r.leaf("w", 1);
    for (let step = 0; step < 3; step++) {
      r.backward(r.mul(w, w, { label: "loss" }));
      w = r.leaf("w", w.data - 0.1 * w.grad);
    }
    assert.deepEqual(runOf(r.trace()), [0, 2]);
  });
});

describe("the pass navigator", () => {
  const starts = [0, 7, 12];
  it("goes back to the start of this pass, then to the pass before", () => {
    assert.equal(previousPassStart(starts, 9), 7);
    assert.equal(previousPassStart(starts, 7), 0);
    assert.equal(previousPassStart(starts, 3), 0);
    assert.equal(previousPassStart(starts, 0), 0);
  });
  it("goes forward to the next pass's start, and nowhere from the last", () => {
    assert.equal(nextPassStart(starts, 3), 7);
    assert.equal(nextPassStart(starts, 7), 12);
    assert.equal(nextPassStart(starts, 13), null);
  });
});

describe("printed lines", () => {
  it("counts the lines printed up to each frame", () => {
    const { lines, upTo } = printIndex([{ prints: ["a"] }, {}, { prints: ["b", "c"] }]);
    assert.deepEqual(lines, ["a", "b", "c"]);
    assert.deepEqual([...upTo], [1, 1, 3]);
  });
  it("ignores prints that are not a list and turns lines into text", () => {
    const { lines } = printIndex([{ prints: "oops" }, { prints: [1, null] }]);
    assert.deepEqual(lines, ["1", "null"]);
  });
});

describe("the frame's line", () => {
  it("is a positive integer or nothing", () => {
    const trace = { frames: [{ line: 3 }, {}, { line: 0 }, { line: 2.5 }, { line: "4" }] };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 9].map((k) => lineOfFrame(trace, k)),
      [3, null, null, null, null, null],
    );
  });
});

describe("an update frame's sentences", () => {
  it("works an optimizer step out from the gradient", () => {
    assert.equal(
      changeText({ child: 0, field: "data", before: 1, after: 0.8 }, "w", 2),
      "w.data: 1 \u2192 0.8 (moved by \u22120.2 = \u22120.1 \u00D7 grad 2)",
    );
  });
  it("says when zero_grad empties a gradient", () => {
    assert.equal(
      changeText({ child: 0, field: "grad", before: 2, after: 0 }, "w", 0),
      "w.grad: 2 \u2192 0 (emptied for the next pass)",
    );
  });
  it("writes a step up the gradient with its own sign", () => {
    assert.equal(
      changeText({ child: 0, field: "data", before: 1, after: 1.2 }, "w", 2),
      "w.data: 1 \u2192 1.2 (moved by 0.2 = 0.1 \u00D7 grad 2)",
    );
  });
  it("calls a value without a label by the call that made it, not by its old number", () => {
    assert.equal(
      changeText(
        { child: 0, field: "data", before: 0.5, after: 0.4 },
        null,
        2,
        "MLP.layers[0].neurons[1]",
      ),
      "in MLP.layers[0].neurons[1]: data 0.5 \u2192 0.4 (moved by \u22120.1 = \u22120.05 \u00D7 grad 2)",
    );
    assert.equal(
      changeText({ child: 0, field: "grad", before: 2, after: 0 }, null, 0),
      "grad 2 \u2192 0 (emptied for the next pass)",
    );
  });
  it("calls a value the program keeps by where it keeps it, not by the call that made it", () => {
    const leaf = { kind: "leaf", label: "" };
    assert.equal(changeName(leaf, "layers[0][0].w[0]"), "layers[0][0].w[0]");
    assert.equal(changeName(leaf, "w"), "w");
    assert.equal(changeName(leaf, "\u22120.4482"), null);
    assert.equal(changeName(leaf, "0.5"), null);
    assert.equal(changeName(leaf, "1e-07"), null);
    assert.equal(changeName({ kind: "leaf", label: "0.5" }, "0.5"), "0.5");
    assert.equal(changeName({ kind: "op", label: "" }, "2*w"), "2*w");
  });
  it("does not divide by a zero gradient", () => {
    assert.equal(
      changeText({ child: 0, field: "data", before: 1, after: 3 }, "w", 0),
      "w.data: 1 \u2192 3 (moved by 2)",
    );
  });
});

describe("the program's own line in the code panel", () => {
  /** @type {(lines: string[], marked: Set<number>, options?: object) => any} */
  const block = (lines, marked, options) => ({ lines, marked: [...marked], ...options });
  const source = ["a = Value(1.0)", "b = a * a", "c = b + a", "c.backward()"];

  it("shows the line with one line either side, the line itself marked", () => {
    assert.deepEqual(programExcerpt(3, source, block), [
      {
        lines: ["b = a * a", "c = b + a", "c.backward()"],
        marked: [1],
        first: 2,
        label: "Your program",
      },
    ]);
  });
  it("stops at the program's first and last lines", () => {
    assert.deepEqual(programExcerpt(1, source, block)[0].lines, source.slice(0, 2));
    assert.deepEqual(programExcerpt(1, source, block)[0].marked, [0]);
    assert.deepEqual(programExcerpt(4, source, block)[0].lines, source.slice(2));
  });
  it("leaves out a blank neighbour, so the excerpt ends on code", () => {
    const spaced = ["for node in reversed(order):", "    node._backward()", "", "  ", "x = 1"];
    assert.deepEqual(programExcerpt(2, spaced, block), [
      {
        lines: ["for node in reversed(order):", "    node._backward()"],
        marked: [1],
        first: 1,
        label: "Your program",
      },
    ]);
    assert.deepEqual(programExcerpt(5, spaced, block)[0].lines, ["x = 1"]);
    assert.deepEqual(programExcerpt(5, spaced, block)[0].first, 5);
  });
  it("shows nothing for a frame without a line in the source", () => {
    assert.deepEqual(programExcerpt(null, source, block), []);
    assert.deepEqual(programExcerpt(9, source, block), []);
  });
});

describe("an update frame's note", () => {
  it("says a zero_grad, a step between passes, or writes of the program's own backward()", () => {
    assert.match(updateNote([{ field: "grad", after: 0 }], false), /^Gradients set back to zero/);
    assert.equal(
      updateNote(
        [
          { field: "data", after: 1.5 },
          { field: "data", after: 2 },
        ],
        false,
      ),
      "Between passes, the program changes 2 values:",
    );
    assert.equal(
      updateNote([{ field: "grad", after: 0.9 }], true),
      "Your backward() writes a gradient itself:",
    );
    assert.equal(
      updateNote(
        [
          { field: "grad", after: 0 },
          { field: "grad", after: 0.3 },
        ],
        true,
      ),
      "Your backward() writes 2 gradients itself:",
    );
    assert.equal(
      updateNote([{ field: "data", after: 1 }], true),
      "Inside your backward(), the program changes a value:",
    );
  });
});
