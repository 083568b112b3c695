import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { formatCode, formatSigned, formatValue } from "../../static/js/format.js";

describe("formatValue", () => {
  const cases = [
    [-1.4999999999999993, "\u22121.5000"],
    [0.7071067811865477, "0.7071"],
    [0, "0.0000"],
    [-0, "0.0000"],
    [22026.465794806718, "22026.4658"],
    [5.184705528587072e21, "5.185e+21"],
    [0.00001234, "1.234e-5"],
  ];
  for (const [input, expected] of cases)
    it(`writes ${input} as ${expected}`, () => assert.equal(formatValue(input), expected));
});

describe("formatSigned", () => {
  it("adds a plus to positive amounts", () =>
    assert.equal(formatSigned(0.1464466094067262), "+0.1464"));
  it("keeps the minus of negative ones", () =>
    assert.equal(formatSigned(-0.10355339059327374), "\u22120.1036"));
});

describe("formatCode", () => {
  const cases = [
    [2, "2.0"],
    [0.4999999999999998, "0.5"],
    [-3, "\u22123.0"],
    [6.881373587019543, "6.881"],
    [0, "0.0"],
  ];
  for (const [input, expected] of cases)
    it(`writes ${input} as ${expected}`, () => assert.equal(formatCode(input), expected));
});
