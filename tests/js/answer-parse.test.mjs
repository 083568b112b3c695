import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  isClose,
  judgeAnswer,
  parseAnswer,
  wrongFactors,
} from "../../static/js/quiz/answer-parse.js";
import { fixture } from "./helpers.mjs";

const value = (text) => {
  const parsed = parseAnswer(text);
  assert.equal(parsed.ok, true, `${JSON.stringify(text)} should parse: ${parsed.message}`);
  return parsed.value;
};
const refusal = (text) => {
  const parsed = parseAnswer(text);
  assert.equal(parsed.ok, false, `${JSON.stringify(text)} should be refused, got ${parsed.value}`);
  return parsed.message;
};

describe("parseAnswer", () => {
  it("reads the notations a learner types", () => {
    const cases = {
      "-1.5": -1.5,
      "\u22121.5": -1.5,
      ".5": 0.5,
      "-.5": -0.5,
      "+2": 2,
      "3.": 3,
      "1/2": 0.5,
      "-3/4": -0.75,
      "1e-3": 0.001,
      "2.5E+2": 250,
      "1e-3/2": 0.0005,
      " - 1 / 2 ": -0.5,
      0: 0,
      "-0": 0,
      "1\u00A0000": 1000,
      "\u20131.5": -1.5,
      "3/-4": -0.75,
    };
    for (const [text, expected] of Object.entries(cases)) assert.equal(value(text), expected, text);
  });
  it("never returns minus zero", () => {
    assert.ok(Object.is(value("-0"), 0));
    assert.ok(Object.is(value("-0/5"), 0));
  });
  it("refuses what is not one number, saying what to type", () => {
    assert.match(refusal(""), /Type a number/);
    assert.match(refusal("   "), /Type a number/);
    assert.match(refusal("abc"), /not a number this quiz reads/);
    for (const text of [
      "1/2/3",
      "0.5*3",
      "1e",
      "--1",
      ".",
      "-",
      "e5",
      "0x10",
      "Infinity",
      "NaN",
      "1_000",
      "2**3",
      "1/",
      "/2",
    ])
      refusal(text);
  });
  it("runs nothing: code is only ever text to it", () => {
    globalThis.__quizRan = false;
    for (const text of [
      "globalThis.__quizRan = true",
      "(() => { globalThis.__quizRan = true })()",
      "alert(1)",
      "${1}",
      "1;2",
    ])
      refusal(text);
    assert.equal(globalThis.__quizRan, false);
  });
  it("refuses a zero denominator and numbers too large to be gradients", () => {
    assert.match(refusal("1/0"), /0 below the line/);
    assert.match(refusal("0/0"), /0 below the line/);
    assert.match(refusal("1e999"), /too large/);
    assert.match(refusal("1e308/1e-308"), /too large/);
  });
  it("asks for a decimal point instead of a comma", () => {
    assert.match(refusal("0,5"), /point/);
  });
  it("refuses very long input without working on it", () => {
    assert.match(refusal("1".repeat(101)), /at most 100/);
    assert.match(refusal("1".repeat(1_000_000)), /at most 100/);
  });
  it("refuses things that are not strings", () => {
    for (const junk of [undefined, null, 5, {}, []])
      assert.equal(parseAnswer(/** @type {any} */ (junk)).ok, false);
  });
});

describe("isClose", () => {
  it("accepts 5e-3 absolute or 1e-2 relative and no more", () => {
    assert.ok(isClose(0.504, 0.5));
    assert.ok(isClose(0.4951, 0.5));
    assert.ok(!isClose(0.51, 0.5));
    assert.ok(isClose(-1.51, -1.5));
    assert.ok(!isClose(-1.52, -1.5));
    assert.ok(isClose(100.9, 100));
    assert.ok(!isClose(101.1, 100));
    assert.ok(isClose(0.004, 0));
    assert.ok(!isClose(0.006, 0));
    assert.ok(!isClose(1.5, -1.5));
  });
});

describe("judgeAnswer", () => {
  // The expanded neuron's fork: e gets -0.1036 first, then +0.1464, ending at 0.0429.
  const fork = {
    local: 0.29289,
    upstream: 0.5,
    delta: 0.146446,
    before: -0.103553,
    after: 0.042893,
  };
  // The neuron's x1 (x1*w1's rule): local w1 = -3, upstream 0.5.
  const x1 = { local: -3, upstream: 0.5, delta: -1.5, before: 0, after: -1.5 };
  // The neuron's b (the + rule): local 1, upstream 0.5.
  const b = { local: 1, upstream: 0.5, delta: 0.5, before: 0, after: 0.5 };

  it("calls an answer within tolerance right", () => {
    assert.equal(judgeAnswer(-1.5, x1).verdict, "right");
    assert.equal(judgeAnswer(0.0429, fork).verdict, "right");
    assert.equal(judgeAnswer(0.043, fork).verdict, "right");
  });
  it("names the earlier contribution left out of the +=", () => {
    assert.equal(judgeAnswer(0.1464, fork).verdict, "forgot-before");
  });
  it("names the upstream gradient left out", () => {
    assert.equal(judgeAnswer(-3, x1).verdict, "forgot-upstream");
    assert.equal(judgeAnswer(0.29289 - 0.103553, fork).verdict, "forgot-upstream");
  });
  it("names a local derivative left out", () => {
    assert.equal(judgeAnswer(0.5, x1).verdict, "forgot-local");
  });
  it("names a flipped sign", () => {
    assert.equal(judgeAnswer(1.5, x1).verdict, "sign");
    assert.equal(judgeAnswer(-0.0429, fork).verdict, "sign");
  });
  it("names a wrong factor among the ones offered", () => {
    // x1's own data (2) instead of w1's (-3): the classic mix-up of the * rule.
    assert.deepEqual(judgeAnswer(1, x1, [-6, 2, -3]), { verdict: "wrong-factor", factor: 2 });
  });
  it("names an answer that did not move the gradient", () => {
    assert.equal(judgeAnswer(-0.1036, fork).verdict, "unchanged");
  });
  it("names an answer that added where the engine overwrites (the bug lab's assign)", () => {
    const assigned = { local: 1, upstream: 1, delta: 1, before: 1, after: 1 };
    assert.equal(judgeAnswer(2, assigned).verdict, "added");
    assert.equal(judgeAnswer(1, assigned).verdict, "right");
  });
  it("says nothing specific when it cannot tell", () => {
    assert.equal(judgeAnswer(42, x1, [-6, 2, -3]).verdict, "other");
  });
  it("never names a mistake whose number is the right one", () => {
    // For b, before + local = 1 is wrong, but local × 1 = 0.5 equals the truth: right wins.
    assert.equal(judgeAnswer(0.5, b).verdict, "right");
    // before is 0, so "forgot the earlier contribution" cannot apply to x1.
    assert.notEqual(judgeAnswer(-1.5, x1).verdict, "forgot-before");
    // A factor equal to the local derivative is no mistake.
    assert.equal(judgeAnswer(-1.5, x1, [-3]).verdict, "right");
  });
});

describe("wrongFactors", () => {
  const OPS = fixture("ops.json"); // the engine's facts about every op (engine/ops.py)
  const what = (factors, value) => factors.find((f) => Math.abs(f.value - value) < 1e-12)?.what;
  it("offers the child's own factor in a * rule, named as code", () => {
    const factors = wrongFactors(
      OPS,
      "*",
      { name: "x1", data: 2 },
      { name: "x1*w1", data: -6 },
      { name: "w1", data: -3 },
    );
    assert.equal(what(factors, 2), "x1.data");
    assert.equal(what(factors, -6), "(x1*w1).data");
    // x1's gradient with its own data: 0 + 2 × 0.5 = 1, judged as that wrong factor.
    const judged = judgeAnswer(
      1,
      { local: -3, upstream: 0.5, delta: -1.5, before: 0, after: -1.5 },
      factors.map((f) => f.value),
    );
    assert.deepEqual(judged, { verdict: "wrong-factor", factor: 2 });
  });
  it("offers 1 − input² for tanh, and the forgotten k or − 1 for powers", () => {
    const n = { name: "n", data: 0.8814 };
    assert.equal(
      what(wrongFactors(OPS, "tanh", n, { name: "o", data: 0.7071 }), 1 - 0.8814 ** 2),
      "1 \u2212 n.data\u00B2",
    );
    const x = { name: "x", data: 2 };
    const power = wrongFactors(OPS, "**-1", x, { name: "q", data: 0.5 });
    assert.equal(what(power, -1 * 2 ** -1), "-1 \u00D7 x.data**-1");
    assert.equal(what(power, 2 ** -2), "x.data**-2");
  });
  it("offers 1 − s for sigmoid, and nothing beyond the data for an op the engine did not describe", () => {
    const x = { name: "x", data: 0.5 };
    const s = { name: "s", data: 0.6225 };
    assert.equal(what(wrongFactors(OPS, "sigmoid", x, s), 1 - 0.6225), "1 \u2212 s.data");
    assert.deepEqual(
      wrongFactors(OPS, "ReLU", x, s).map((f) => f.what),
      ["x.data", "s.data"],
    );
  });
  it("leaves out factors that are not finite", () => {
    const factors = wrongFactors(OPS, "**-1", { name: "x", data: 0 }, { name: "q", data: 1 });
    assert.ok(factors.every((f) => Number.isFinite(f.value)));
  });
});

describe("judgeAnswer on a learner's own rule (SPEC §14)", () => {
  it("judges against the numbers the rule really wrote when its factor is unknown", () => {
    // `self.grad = 2.0 * out.grad + 0` written as `=` over a 3: the 3 is lost.
    const step = { local: null, upstream: 1, delta: -1, before: 3, after: 2 };
    assert.equal(judgeAnswer(2, step).verdict, "right");
    assert.equal(judgeAnswer(3, step).verdict, "unchanged");
    assert.equal(judgeAnswer(-2, step).verdict, "sign");
  });
});
