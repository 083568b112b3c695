import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { operand } from "../../static/js/player/format.js";
import {
  attribute,
  backwardLines,
  commentStart,
  gradName,
  localSymbol,
  MOST_RULE_LINES,
  programRule,
  withoutDocstring,
  ruleKey,
  ruleSource,
  substitutions,
  writeStatement,
} from "../../static/js/player/rule-text.js";
import { fixture } from "./helpers.mjs";

const OPS = fixture("ops.json"); // the engine's facts about every op (engine/ops.py)

describe("backwardLines", () => {
  it("marks exactly the _backward closure of each engine primitive", () => {
    const rules = fixture("rules.json");
    for (const [op, source] of Object.entries(rules)) {
      const lines = source.split("\n");
      const marked = [...backwardLines(lines)];
      if (!source.includes("def _backward")) continue;
      assert.match(lines[marked[0]], /def _backward/, op);
      assert.ok(
        marked.every((i) => !/out\._backward\s*=/.test(lines[i])),
        `${op} marks the line that stores the rule`,
      );
      assert.notEqual(lines[marked.at(-1)].trim(), "", `${op} ends on a blank line`);
    }
  });
});

describe("substitutions", () => {
  it("writes the multiply rule with the other factor's data", () => {
    const names = { a: "x1", b: "w1" };
    const rows = substitutions({
      ops: OPS,
      op: "*",
      name: "x1*w1",
      nameOf: (id) => names[id],
      contributions: [
        { to: "a", local: -3, upstream: 0.5, delta: -1.5, before: 0, after: -1.5 },
        { to: "b", local: 2, upstream: 0.5, delta: 1, before: 0, after: 1 },
      ],
    });
    assert.equal(rows[0].symbolic, "x1.grad += w1.data \u00D7 (x1*w1).grad");
    assert.equal(rows[1].numeric, "= 2 \u00D7 0.5 = 1");
    assert.equal(rows[1].result, "\u2192 w1.grad = 1");
  });

  it("shows the running sum when the child already had a gradient", () => {
    const [row] = substitutions({
      ops: OPS,
      op: "+",
      name: "den",
      nameOf: () => "e",
      contributions: [
        { to: "e", local: 1, upstream: 0.1464, delta: 0.1464, before: -0.1036, after: 0.0428 },
      ],
    });
    assert.equal(row.result, "\u2192 e.grad = \u22120.1036 + 0.1464 = 0.0428");
  });

  it("brackets names that are not plain identifiers", () => {
    const [row] = substitutions({
      ops: OPS,
      op: "+",
      name: "num",
      nameOf: () => "-1",
      contributions: [
        { to: "c", local: 1, upstream: 0.1464, delta: 0.1464, before: 0, after: 0.1464 },
      ],
    });
    assert.equal(row.symbolic, "(-1).grad += 1.0 \u00D7 num.grad");
  });
});

describe("names of rules", () => {
  it("maps every power to the ** rule", () => assert.equal(ruleKey("**-1.0"), "**"));
  it("brackets operands in attributes", () =>
    assert.equal(attribute("den**-1", "data"), "(den**-1).data"));
  it("brackets a name before .grad as the engine's texts do (sentences.py's operand)", () => {
    // The same cases as tests/engine/test_narrate.py's test of `operand`.
    const cases = {
      x1: "x1",
      "layers[0].neurons[1].w[2]": "layers[0].neurons[1].w[2]",
      "w[i+1]": "w[i+1]",
      αβ: "αβ",
      "x1*w1": "(x1*w1)",
      "\u22121": "(\u22121)",
      2: "(2)",
      "the * node": "(the * node)",
      "tanh(n)": "(tanh(n))",
      "n.w[0]*x[0]": "(n.w[0]*x[0])",
      "b+\u2026+w[2]*3": "(b+\u2026+w[2]*3)",
    };
    for (const [name, written] of Object.entries(cases)) assert.equal(operand(name), written);
    assert.equal(attribute("n.w[0]", "grad"), "n.w[0].grad");
  });
  it("writes the power rule's local derivative", () =>
    assert.equal(
      localSymbol(OPS, "**-1.0", "o", "den", "den"),
      "\u22121 \u00D7 den.data**\u22122",
    ));
  it("writes each op's local derivative from the engine's template", () => {
    const written = Object.fromEntries(
      ["+", "*", "tanh", "exp", "relu", "log", "sigmoid"].map((op) => [
        op,
        localSymbol(OPS, op, "o", "n", "m"),
      ]),
    );
    assert.deepEqual(written, {
      "+": "1.0",
      "*": "m.data",
      tanh: "(1 \u2212 o.data\u00B2)",
      exp: "o.data",
      relu: "(o.data > 0)",
      log: "(1 / n.data)",
      sigmoid: "o.data \u00D7 (1 \u2212 o.data)",
    });
  });
  it("writes 'local' for an op the engine sent nothing about", () => {
    assert.equal(localSymbol(OPS, "ReLU", "o", "n", "n"), "local");
    assert.equal(localSymbol(undefined, "tanh", "o", "n", "n"), "local");
  });
  it("writes 'local' for a program's own op named like an Object property", () => {
    for (const op of ["constructor", "__proto__", "toString"])
      assert.equal(localSymbol({}, op, "o", "n", "n"), "local", op);
  });
});

describe("ruleSource", () => {
  const rules = { "**": "def __pow__(self, other): ...", backward: "def backward(self): ..." };
  it("gives the engine's source of an op it has", () =>
    assert.equal(ruleSource(rules, OPS, "**-1.0"), rules["**"]));
  it("gives none for an op of a program's own class, whatever its name", () => {
    for (const op of ["backward", "constructor", "__proto__", "ReLU"])
      assert.equal(ruleSource(rules, {}, op), null, op);
    assert.equal(ruleSource(rules, OPS, "backward"), null);
  });
  it("gives none when the host has no sources", () =>
    assert.equal(ruleSource({}, OPS, "tanh"), null));
});

describe("withoutDocstring", () => {
  it("drops one-line and multi-line docstrings of the engine's sources", () => {
    const rules = fixture("rules.json");
    const backward = withoutDocstring(rules.backward.trimEnd().split("\n"));
    assert.deepEqual(
      backward.map((line) => line.trim()),
      [
        "def backward(self) -> None:",
        "topo = topological_order(self)",
        "self.grad = 1.0",
        "for node in reversed(topo):",
        "node._backward()",
      ],
    );
    const sort = withoutDocstring(rules.topological_order.split("\n"));
    assert.match(sort[1], /topo: list\[Value\] = \[\]/);
    assert.ok(sort.every((line) => !line.includes('"""')));
  });
  it("leaves code without a docstring alone", () =>
    assert.deepEqual(withoutDocstring(["def f():", "    return 1"]), ["def f():", "    return 1"]));
});

describe("programRule", () => {
  const source = [
    "class V:",
    "    def __mul__(self, other):",
    "        def _backward():",
    "            self.grad += other.data * out.grad",
    "",
    "            other.grad = self.data * out.grad  # the article's bug",
    "        out._backward = _backward",
  ];

  it("shows the program's own lines, unindented, numbered from the first", () => {
    const rule = programRule(source, { line: 3, end_line: 6 });
    assert.deepEqual(rule?.lines, [
      "def _backward():",
      "    self.grad += other.data * out.grad",
      "",
      "    other.grad = self.data * out.grad  # the article's bug",
    ]);
    assert.equal(rule?.first, 3);
  });

  it("marks every line that writes a grad, with = as much as +=, and no comparison", () => {
    assert.deepEqual([...(programRule(source, { line: 3, end_line: 6 })?.writes ?? [])], [1, 3]);
    const lines = ["f = lambda: x.grad == 0", "g = lambda: x.grad -= 1", "y.grad *= 2"];
    assert.deepEqual([...(programRule(lines, { line: 1, end_line: 3 })?.writes ?? [])], [1, 2]);
  });

  it("marks the writes of a gradient kept under another name, by that name", () => {
    const renamed = source.map((line) => line.replaceAll(".grad", ".gradient"));
    const rule = programRule(renamed, { line: 3, end_line: 6 }, "gradient");
    assert.deepEqual([...(rule?.writes ?? [])], [1, 3]);
    assert.deepEqual([...(programRule(renamed, { line: 3, end_line: 6 })?.writes ?? [])], []);
    const lines = ["x._grad += 1", "x.grad = 2", "x.gradient == 3"];
    const writes = programRule(lines, { line: 1, end_line: 3 }, "_grad")?.writes;
    assert.deepEqual([...(writes ?? [])], [0]);
  });

  it("refuses lines the source does not have", () => {
    for (const rule of [
      { line: 0, end_line: 2 },
      { line: 3, end_line: 2 },
      { line: 6, end_line: 8 },
      { line: 1.5, end_line: 2 },
      { line: Number.NaN, end_line: 2 },
    ])
      assert.equal(programRule(source, rule), null, JSON.stringify(rule));
  });

  it("cuts a very long rule and says so", () => {
    const long = ["def _backward():", ...Array.from({ length: 100 }, (_, i) => `  a.grad += ${i}`)];
    const rule = programRule(long, { line: 1, end_line: long.length });
    assert.equal(rule?.lines.length, MOST_RULE_LINES + 1);
    assert.equal(rule?.lines.at(-1), "\u2026");
  });
});

describe("substitutions of a learner's own rule (SPEC §14)", () => {
  const nameOf = (id) => ({ n0: "a", n1: "b" })[id];
  const sourceLines = ["class Value:", "            other.grad = self.data * out.grad"];
  it("quotes the learner's line and says what an = throws away", () => {
    const [row] = substitutions({
      op: "*",
      name: "b",
      contributions: [
        { to: "n0", local: 3, upstream: 1, delta: 0, before: 3, after: 3, write: "=", line: 2 },
      ],
      nameOf,
      ops: undefined,
      sourceLines,
    });
    assert.equal(row.symbolic, "other.grad = self.data * out.grad");
    assert.equal(row.numeric, "= 3 \u00D7 1 = 3");
    assert.equal(row.result, "\u2192 a.grad = 3, overwriting 3");
  });
  it("shows the amount alone where the factor is not in the code", () => {
    const [row] = substitutions({
      op: "*",
      name: "b",
      contributions: [
        { to: "n0", local: null, upstream: 2, delta: 4, before: 1, after: 5, write: "+=", line: 2 },
      ],
      nameOf,
      ops: undefined,
      sourceLines,
    });
    assert.equal(row.numeric, "= 4");
    assert.equal(row.result, "\u2192 a.grad = 1 + 4 = 5");
  });
  it("says the gradient by the name the learner's class gives it", () => {
    const [row] = substitutions({
      op: "*",
      name: "b",
      contributions: [
        { to: "n0", local: 3, upstream: 1, delta: 3, before: 1, after: 4, write: "+=", line: 2 },
      ],
      nameOf,
      ops: undefined,
      sourceLines: ["class Value:", "            other.gradient += self.data * out.gradient"],
      grad: "gradient",
    });
    assert.equal(row.symbolic, "other.gradient += self.data * out.gradient");
    assert.equal(row.result, "\u2192 a.gradient = 1 + 3 = 4");
  });
  it("says a -= with the factor the code subtracts (its local is minus that factor)", () => {
    const [row] = substitutions({
      op: "-",
      name: "b",
      contributions: [
        { to: "n0", local: -1, upstream: 2, delta: -2, before: 5, after: 3, write: "-=", line: 2 },
      ],
      nameOf,
      ops: undefined,
      sourceLines: ["class Value:", "            other.grad -= out.grad"],
    });
    assert.equal(row.symbolic, "other.grad -= out.grad");
    assert.equal(row.numeric, "= 1 \u00D7 2 = 2");
    assert.equal(row.result, "\u2192 a.grad = 5 \u2212 2 = 3");
  });
});

describe("gradName", () => {
  it("is the learner's class's name for the gradient, else grad", () => {
    assert.equal(gradName({ engine_check: { grad: "gradient" } }), "gradient");
    assert.equal(gradName({ engine_check: { grad: "_grad" } }), "_grad");
    assert.equal(gradName({}), "grad");
    assert.equal(gradName({ engine_check: {} }), "grad");
    assert.equal(gradName({ engine_check: { grad: "x) |(" } }), "grad"); // a name only
  });
});

describe("writeStatement: the statement of a line that writes a gradient", () => {
  it("is the line itself where it holds one statement, without its comment", () => {
    assert.equal(writeStatement("        child.grad += g", "+="), "child.grad += g");
    assert.equal(writeStatement("  a.grad += 1  # the seed", "+="), "a.grad += 1");
    const bug = "    other.grad += out.grad  # should be -= : d(a-b)/db = -1";
    assert.equal(writeStatement(bug, "+="), "other.grad += out.grad");
    assert.equal(writeStatement("s = '# no'; a.grad += 1  # one", "+="), "a.grad += 1");
    assert.equal(writeStatement("a.grad = '#' + b  # c", "="), "a.grad = '#' + b");
  });
  it("is the write of a loop written on one line, not its header", () => {
    const line = "            for p, g in zip(node.parents, node.grad_fn(node.grad)): p.grad += g";
    assert.equal(writeStatement(line, "+="), "p.grad += g");
    assert.equal(writeStatement(line, "+=", 1), "p.grad += g");
    assert.equal(writeStatement("if n := len(xs): xs[0].grad = n", "="), "xs[0].grad = n");
  });
  it("skips colons and semicolons in brackets, strings and comments", () => {
    assert.equal(
      writeStatement("for c, g in zip(v.prev, (lambda u: (u, u))(v.grad)): c.grad += g", "+="),
      "c.grad += g",
    );
    assert.equal(writeStatement("if d[1:2] == ';': a.grad -= 1  # x: y", "-="), "a.grad -= 1");
  });
  it("takes the k-th of several writes on one line", () => {
    const line = "self.grad += out.grad; other.grad += out.grad";
    assert.equal(writeStatement(line, "+=", 0), "self.grad += out.grad");
    assert.equal(writeStatement(line, "+=", 1), "other.grad += out.grad");
    assert.equal(writeStatement("x = 1; a.grad == 2; b.grad = 3", "=", 1), "b.grad = 3");
  });
  it("quotes the write in a row of the code panel", () => {
    const rows = substitutions({
      op: "*",
      name: "b",
      contributions: [
        { to: "n0", local: null, upstream: 1, delta: 2, before: 0, after: 2, write: "+=", line: 1 },
        { to: "n1", local: null, upstream: 1, delta: 3, before: 0, after: 3, write: "+=", line: 1 },
      ],
      nameOf: (id) => ({ n0: "a", n1: "c" })[id],
      ops: undefined,
      sourceLines: ["    for p, g in zip(v.parents, v.grad_fn(v.grad)): p.grad += g"],
    });
    assert.deepEqual(
      rows.map((row) => [row.symbolic, row.numeric, row.result]),
      [
        ["p.grad += g", "= 2", "\u2192 a.grad = 2"],
        ["p.grad += g", "= 3", "\u2192 c.grad = 3"],
      ],
    );
  });
});

describe("commentStart", () => {
  it("finds the # that starts a line's comment, outside strings", () => {
    assert.equal(commentStart("        return              # skip: already placed"), 28);
    assert.equal(commentStart("# a whole-line comment"), 0);
    assert.equal(commentStart("x = a * b"), -1);
    assert.equal(commentStart('print("# of nodes", n)  # count'), 24);
    assert.equal(commentStart("label = 'a#b'"), -1);
    assert.equal(commentStart('s = "it\\"s # not"'), -1);
  });
});
