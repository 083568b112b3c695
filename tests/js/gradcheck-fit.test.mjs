import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  DEFAULT_H,
  checkWithinBound,
  fitWithin,
  leavesThatFit,
  overBound,
  passLeaves,
  spread,
} from "../../static/js/lab/gradcheck-fit.js";

// The server's words for a 3-pass MLP(2, [3, 1]) training program (engine/lab/program_gradcheck.py).
const MLP_OVER =
  "this check would run about 1,139,358 interpreter steps (13 leaves \u00D7 14 runs \u00D7 6,226 " +
  "steps a run); check fewer leaves or h values, or an earlier pass (the limit is 500,000; set " +
  "BACKPROP_MAX_GRADCHECK_WORK to change it)";
// A straight-line graph's (engine/lab/gradcheck.py).
const GRAPH_OVER =
  "this check would evaluate 600,000 nodes (5 leaves \u00D7 14 h values \u00D7 8,571 nodes); " +
  "check fewer leaves or h values (the limit is 500,000; set BACKPROP_MAX_GRADCHECK_WORK to change it)";
const IDS = Array.from({ length: 13 }, (_, i) => `n${i}`);

describe("overBound", () => {
  it("reads the sum of a program's check", () => {
    assert.deepEqual(overBound(MLP_OVER), {
      total: 1139358,
      leaves: 13,
      perLeaf: 14 * 6226,
      overhead: 6226,
      limit: 500000,
      hValues: null,
    });
  });
  it("reads a straight-line graph's, with its h values", () => {
    const over = overBound(GRAPH_OVER);
    assert.equal(over?.perLeaf, 14 * 8571);
    assert.equal(over?.hValues, 14);
    assert.equal(over?.limit, 500000);
  });
  it("is null for any other error, or one the page has reworded without the limit", () => {
    assert.equal(overBound("no leaf of this pass is called 'q'; its leaves are 'a'"), null);
    assert.equal(overBound(MLP_OVER.replace(/\(the limit.*$/, "")), null);
  });
});

describe("leavesThatFit and spread", () => {
  it("fits 5 of the MLP's 13 leaves with the whole sweep", () => {
    const over = /** @type {NonNullable<ReturnType<typeof overBound>>} */ (overBound(MLP_OVER));
    assert.equal(leavesThatFit(over), 5);
    assert.ok(over.overhead + 5 * over.perLeaf <= over.limit);
    assert.ok(over.overhead + 6 * over.perLeaf > over.limit);
  });
  it("spreads picks from the first to the last, in order", () => {
    assert.deepEqual(spread(IDS, 5), ["n0", "n3", "n6", "n9", "n12"]);
    assert.deepEqual(spread(["a", "b", "c", "d", "e"], 3), ["a", "c", "e"]);
    assert.deepEqual(spread(["a", "b", "c"], 1), ["b"]);
    assert.deepEqual(spread(["a", "b"], 5), ["a", "b"]);
    assert.deepEqual(spread(["a", "b"], 0), []);
  });
});

describe("fitWithin", () => {
  const over = /** @type {NonNullable<ReturnType<typeof overBound>>} */ (overBound(MLP_OVER));
  it("checks fewer leaves with the whole sweep when some fit", () => {
    assert.deepEqual(fitWithin(over, IDS), { leaves: spread(IDS, 5), h: null, of: 13 });
  });
  it("takes fewer h values, spread over the sweep, when not one leaf fits", () => {
    const big = { ...over, perLeaf: 14 * 50000, overhead: 50000 };
    const fitted = fitWithin(big, IDS);
    assert.deepEqual(fitted?.leaves, ["n6"]);
    assert.equal(fitted?.h?.length, 9); // (500,000 − 50,000) / 50,000 runs
    assert.equal(fitted?.h?.[0], DEFAULT_H[0]);
    assert.equal(fitted?.h?.at(-1), DEFAULT_H.at(-1));
  });
  it("gives up when not even two h values of one leaf fit, or nothing was cut", () => {
    assert.equal(fitWithin({ ...over, perLeaf: 14 * 400000, overhead: 0 }, IDS), null);
    assert.equal(fitWithin(over, ["n0", "n1"]), null); // 2 leaves fit already: over for another reason
  });
});

describe("passLeaves", () => {
  const trace = /** @type {any} */ ({
    nodes: [
      { id: "n10", kind: "leaf", label: "", name: "w[1]" },
      { id: "n2", kind: "leaf", label: "x", name: "x" },
      { id: "n3", kind: "const", label: "", name: "" },
      { id: "n4", kind: "leaf", label: "", name: "" },
      { id: "n5", kind: "leaf", label: "", name: "later" },
      // `loss = Value(0.0)` summed into: the texts call this leaf 0, not loss.
      { id: "n6", kind: "leaf", label: "loss", name: "0" },
    ],
    passes: [{ topo: ["n2", "n3", "n4", "n10"] }, { topo: ["n5", "n6"] }],
  });
  it("lists a pass's leaves in node-id order, by name, label or id", () => {
    assert.deepEqual(passLeaves(trace, 0), [
      { id: "n2", name: "x" },
      { id: "n4", name: "n4" },
      { id: "n10", name: "w[1]" },
    ]);
    assert.deepEqual(passLeaves(trace, 1), [
      { id: "n5", name: "later" },
      { id: "n6", name: "0" },
    ]);
  });
});

describe("checkWithinBound", () => {
  it("asks once for a check that fits", async () => {
    const asked = [];
    const answer = await checkWithinBound(
      async (choice) => {
        asked.push(choice);
        return { output: "n1", checks: [] };
      },
      { asked: IDS, all: true },
    );
    assert.deepEqual(asked, [{ leaves: null, h: null }]);
    assert.equal(answer.fitted, null);
  });
  it("asks again for what fits when the whole check is over the bound", async () => {
    const asked = [];
    const answer = await checkWithinBound(
      async (choice) => {
        asked.push(choice);
        if (asked.length === 1) throw new Error(MLP_OVER);
        return { output: "n1", checks: [] };
      },
      { asked: IDS, all: true },
    );
    assert.deepEqual(asked[1], { leaves: ["n0", "n3", "n6", "n9", "n12"], h: null });
    assert.equal(answer.fitted?.of, 13);
    assert.equal(answer.over?.limit, 500000);
  });
  it("sends the learner's own choice and cuts it when it is over", async () => {
    const asked = [];
    const mine = ["n1", "n2", "n4", "n5", "n7", "n8", "n11"];
    const answer = await checkWithinBound(
      async (choice) => {
        asked.push(choice);
        if (asked.length === 1) throw new Error(MLP_OVER);
        return {};
      },
      { asked: mine, all: false },
    );
    assert.deepEqual(asked[0].leaves, mine);
    assert.equal(asked[1].leaves.length, 5);
    assert.ok(asked[1].leaves.every((id) => mine.includes(id)));
    assert.equal(answer.fitted?.of, 7);
  });
  it("throws any other error as it came", async () => {
    const failing = async () => {
      throw new Error("the program has an error");
    };
    await assert.rejects(checkWithinBound(failing, { asked: IDS, all: true }), /has an error/);
  });
});
