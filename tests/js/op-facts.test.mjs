import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  evaluate,
  exponentOf,
  factsOf,
  fill,
  opGlyph,
  opKey,
} from "../../static/js/passes/op-facts.js";
import { fixture } from "./helpers.mjs";

const OPS = fixture("ops.json"); // the engine's facts about every op (engine/ops.py)

describe("opGlyph", () => {
  it("draws what the engine says, with a power's exponent filled in", () => {
    assert.equal(opGlyph(OPS, "*"), "\u00D7");
    assert.equal(opGlyph(OPS, "sigmoid"), "\u03C3");
    assert.equal(opGlyph(OPS, "tanh"), "tanh");
    assert.equal(opGlyph(OPS, "**2"), "^2");
    assert.equal(opGlyph(OPS, "**-1.0"), "^-1");
  });
  it("draws an op the engine sent nothing about as itself", () => {
    assert.equal(opGlyph(OPS, "ReLU"), "ReLU");
    assert.equal(opGlyph(undefined, "*"), "*");
  });
  it("draws a program's own op named like an Object property as itself", () => {
    // A program's own class sets `_op` to any string; the trace's `ops` is then `{}`.
    for (const op of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      assert.equal(opGlyph({}, op), op);
  });
});

describe("factsOf", () => {
  it("finds only the table's own entries", () => {
    assert.equal(factsOf(OPS, "**3"), OPS["**"]);
    for (const op of ["constructor", "__proto__", "valueOf"]) {
      assert.equal(factsOf(OPS, op), null, op);
      assert.equal(factsOf({}, op), null, op);
    }
  });
});

describe("fill", () => {
  it("replaces the names it has and leaves the others", () =>
    assert.equal(
      fill("{k} \u00D7 {child}**{k-1} {x}", { k: "2", "k-1": "1", child: "a.data" }),
      "2 \u00D7 a.data**1 {x}",
    ));
});

describe("evaluate", () => {
  it("computes with Python's precedence and grouping", () => {
    assert.equal(evaluate("1 - out**2", { out: 0.5 }), 0.75);
    assert.equal(evaluate("-x**2", { x: 3 }), -9);
    assert.equal(evaluate("2**3**2", {}), 512);
    assert.equal(evaluate("2**-1", {}), 0.5);
    assert.equal(evaluate("k * child**(k - 1)", { k: -1, child: 2 }), -0.25);
    assert.equal(evaluate("8 / 2 / 2", {}), 2);
    assert.equal(evaluate("1e-3 * 2", {}), 0.002);
    assert.equal(evaluate("child > 0", { child: -1 }), 0);
    assert.equal(evaluate("child > 0", { child: 2 }), 1);
    assert.equal(evaluate("cos(child) * 2", { child: 0 }), 2);
    assert.equal(evaluate("-exp(0)**2", {}), -1);
  });
  it("computes every slip the engine lists", () => {
    for (const [op, facts] of Object.entries(OPS)) {
      for (const slip of facts.slips) {
        const value = evaluate(slip.value, { out: 0.5, child: 0.25, other: 2, k: 3 });
        assert.ok(Number.isFinite(value), `${op}: ${slip.value}`);
      }
    }
  });
  it("refuses anything outside the formulas' syntax", () => {
    assert.throws(() => evaluate("out + ", { out: 1 }), SyntaxError);
    assert.throws(() => evaluate("alert(1)", {}), SyntaxError);
    assert.throws(() => evaluate("constructor", {}), SyntaxError);
    assert.throws(() => evaluate("1 ; 2", {}), SyntaxError);
    assert.throws(() => evaluate("(1", {}), SyntaxError);
    assert.throws(() => evaluate("max(1)", {}), SyntaxError);
    assert.throws(() => evaluate("cos", {}), SyntaxError);
  });
});

describe("opKey and exponentOf", () => {
  it("file every power under **", () => {
    assert.equal(opKey("**0.5"), "**");
    assert.equal(exponentOf("**0.5"), 0.5);
    assert.ok(Number.isNaN(exponentOf("tanh")));
  });
});
