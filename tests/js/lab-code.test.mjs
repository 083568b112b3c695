import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { mistakeCode, sortStepCode } from "../../static/js/lab/lab-code.js";
import { substitutions } from "../../static/js/player/rule-text.js";
import { fixture } from "./helpers.mjs";

const marked = (block) => [...block.marked].map((i) => block.lines[i].trim());

describe("sortStepCode", () => {
  it("marks the line each step runs in the recursive build(v)", () => {
    assert.match(marked(sortStepCode("visit", { rules: {} })[0]).join(), /visited\.add\(v\)/);
    assert.match(marked(sortStepCode("append", { rules: {} })[0]).join(), /^topo\.append\(v\)/);
    assert.deepEqual(
      marked(sortStepCode("skip", { rules: {} })[0]).map((line) => line.split(" ")[0]),
      ["if", "return"],
    );
    assert.deepEqual(marked(sortStepCode("seed", { rules: {} })[1]), ["output.grad = 1.0"]);
  });

  it("follows the server's text when it has one, append-first included", () => {
    const rules = {
      build:
        "def build(v):\n    if v in visited:\n        return\n    visited.add(v)\n    for c in v._prev:\n        build(c)\n    topo.append(v)\n",
      "mistake:append-first":
        "def build(v):\n    visited.add(v)\n    topo.append(v)  # MISTAKE\n    for c in v._prev:\n        build(c)\n",
    };
    assert.equal(sortStepCode("append", { rules })[0].lines.length, 7);
    const wrong = sortStepCode("append", { rules, appendFirst: true })[0];
    assert.equal(wrong.tone, "mistake");
    assert.deepEqual(marked(wrong), ["topo.append(v)  # MISTAKE"]);
  });
});

describe("mistakeCode", () => {
  it("sets the mistaken line against the right one", () => {
    const [wrong, right] = mistakeCode("assign", {});
    assert.deepEqual(marked(wrong), ["child.grad = local * out.grad"]);
    assert.deepEqual(marked(right), ["child.grad += local * out.grad"]);
    assert.deepEqual([wrong.tone, right.tone], ["mistake", "right"]);
  });

  it("marks the server's mistaken line, not its seed", () => {
    const rules = {
      "mistake:no-sort":
        "def backward(self):\n    self.grad = 1.0\n    v._backward()  # too soon\n",
    };
    assert.deepEqual(marked(mistakeCode("no-sort", rules)[0]), ["v._backward()  # too soon"]);
    const assign = {
      "mistake:assign":
        'def _accumulate(self, local, out):\n    """MISTAKE."""\n    self.grad = local * out.grad\n',
    };
    assert.deepEqual(marked(mistakeCode("assign", assign)[0]), ["self.grad = local * out.grad"]);
  });

  it("sets the server's mistaken code against the engine code it replaces", () => {
    const rules = {
      "mistake:assign": "def _accumulate(self, local, out):\n    self.grad = local * out.grad\n",
      accumulate:
        "def _accumulate(self, local, out):\n    delta = local * out.grad\n    self.grad += delta\n",
    };
    const [wrong, right] = mistakeCode("assign", rules);
    assert.deepEqual(marked(wrong), ["self.grad = local * out.grad"]);
    assert.deepEqual(marked(right), ["self.grad += delta"]);
  });

  it("shows nothing for the right engine", () => {
    assert.deepEqual(mistakeCode(null, {}), []);
    assert.deepEqual(mistakeCode("typo", {}), []);
  });
});

describe("substitutions with the assign mistake", () => {
  it("writes = and says what was lost, never a running sum", () => {
    const contributions = [
      { to: "n0", local: 1, upstream: 1, delta: 1, before: 0, after: 1 },
      { to: "n0", local: 1, upstream: 1, delta: 1, before: 1, after: 1 },
    ];
    const rows = substitutions({
      ops: fixture("a-plus-a.json").ops,
      op: "+",
      name: "b",
      contributions,
      nameOf: () => "a",
      assign: true,
    });
    assert.equal(rows[1].symbolic, "a.grad = 1.0 \u00D7 b.grad");
    assert.equal(rows[1].result, "\u2192 a.grad = 1, overwriting 1");
  });
});
