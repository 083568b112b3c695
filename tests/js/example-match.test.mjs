import assert from "node:assert/strict";
import { test } from "node:test";

import { matchingExample } from "../../static/js/hosts/example-match.js";

const NEURON = "o = tanh(x1*w1 + x2*w2 + b)\n";
const TWICE = "a = Value(3.0)\nb = a + a\nb.backward()\n";
const EXAMPLES = [
  { id: "neuron", source: NEURON, granularity: "packed" },
  { id: "neuron-expanded", source: NEURON, granularity: "expanded" },
  { id: "a-plus-a", source: TWICE, granularity: "packed" },
  { id: "sort-steps", source: NEURON, granularity: "packed", sort_steps: true },
  { id: "mistake-assign", source: TWICE, granularity: "packed", mistake: "assign" },
  { id: "mistake-append-first", source: NEURON, granularity: "packed", mistake: "append-first" },
  { id: "mistake-no-sort", source: NEURON, granularity: "expanded", mistake: "no-sort" },
];
const plainLab = { mistake: null, sortSteps: false };

test("a program shared by several examples is named by the engine it runs on", () => {
  const neuron = { source: NEURON, granularity: "packed" };
  assert.equal(matchingExample(EXAMPLES, { ...neuron, ...plainLab }), "neuron");
  assert.equal(
    matchingExample(EXAMPLES, { ...neuron, mistake: "append-first", sortSteps: false }),
    "mistake-append-first",
  );
  assert.equal(
    matchingExample(EXAMPLES, { ...neuron, mistake: null, sortSteps: true }),
    "sort-steps",
  );
  assert.equal(
    matchingExample(EXAMPLES, {
      source: NEURON,
      granularity: "expanded",
      mistake: "no-sort",
      sortSteps: false,
    }),
    "mistake-no-sort",
  );
  assert.equal(
    matchingExample(EXAMPLES, {
      source: TWICE,
      granularity: "packed",
      mistake: "assign",
      sortSteps: false,
    }),
    "mistake-assign",
  );
});

test("with options no example has, the plain example of the program is named", () => {
  assert.equal(
    matchingExample(EXAMPLES, {
      source: TWICE,
      granularity: "packed",
      mistake: "no-sort",
      sortSteps: true,
    }),
    "a-plus-a",
  );
});

test("the learner's own program names no example", () => {
  assert.equal(
    matchingExample(EXAMPLES, { source: "x = 1\n", granularity: "packed", ...plainLab }),
    "",
  );
  assert.equal(matchingExample([], { source: NEURON, granularity: "packed", ...plainLab }), "");
});

test("the example named now stays named while it fits", () => {
  const twins = [
    { id: "first", source: TWICE, granularity: "packed" },
    { id: "second", source: TWICE, granularity: "packed" },
  ];
  const shown = { source: TWICE, granularity: "packed", ...plainLab };
  assert.equal(matchingExample(twins, shown, "second"), "second");
  assert.equal(matchingExample(twins, shown, "neuron"), "first");
});
