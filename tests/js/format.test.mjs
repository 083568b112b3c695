import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { formatSigned, formatValue } from "../../static/js/player/format.js";

// The engine's trace/number_format.py gives the same texts (tests/engine/test_number_format.py
// compares the two on ten thousand values).
describe("formatValue", () => {
  const cases = [
    [-1.4999999999999993, "\u22121.5"],
    [0.7071067811865477, "0.7071"],
    [0, "0"],
    [-0, "0"],
    [2, "2"],
    [-3, "\u22123"],
    [0.4999999999999998, "0.5"],
    [6.881373587019543, "6.881"],
    [22026.465794806718, "22026.5"],
    [5.184705528587072e21, "5.185e+21"],
    [0.00001234, "1.234e\u22125"],
    [1.0625, "1.062"],
    [1.1875, "1.188"],
    [99995000, "1e+8"],
    [Number.NaN, "nan"],
    [Number.NEGATIVE_INFINITY, "\u2212inf"],
  ];
  for (const [input, expected] of cases)
    it(`writes ${input} as ${expected}`, () => assert.equal(formatValue(input), expected));
  it("gives more digits where asked", () =>
    assert.equal(formatValue(14.003000000000483, 6), "14.003"));
});

describe("formatSigned", () => {
  it("adds a plus to positive amounts", () =>
    assert.equal(formatSigned(0.1464466094067262), "+0.1464"));
  it("keeps the minus of negative ones", () =>
    assert.equal(formatSigned(-0.10355339059327374), "\u22120.1036"));
});
