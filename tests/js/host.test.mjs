import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { SourceError } from "../../static/js/hosts/api.js";
import {
  applyTheme,
  forLearner,
  problemOf,
  problemText,
  showPlayer,
  showProblem,
} from "../../static/js/hosts/host.js";

/** An element with what host.js touches: text, hidden, dataset. */
function fakeBox() {
  return { textContent: "", hidden: true, dataset: /** @type {Record<string, string>} */ ({}) };
}

describe("problemText", () => {
  it("says the line and column before the message", () => {
    const problem = { message: "name 'q' is not defined", line: 3, column: 5 };
    assert.equal(problemText(problem), "Line 3, column 5: name 'q' is not defined");
  });
  it("says the line alone without a column, and nothing without a line", () => {
    assert.equal(problemText({ message: "m", line: 2, column: null }), "Line 2: m");
    assert.equal(problemText({ message: "m", line: null, column: null }), "m");
  });
  it("puts a host's prefix first", () => {
    const problem = { message: "m", line: 1, column: 1 };
    assert.equal(
      problemText(problem, "backprop-animator: "),
      "backprop-animator: Line 1, column 1: m",
    );
  });
});

describe("problemOf", () => {
  it("keeps a server error's line and column", () => {
    assert.deepEqual(problemOf(new SourceError("bad", 4, 7), "ignored"), {
      message: "bad",
      line: 4,
      column: 7,
    });
  });
  it("turns anything else into a sentence after the context, with no place", () => {
    assert.deepEqual(problemOf(new TypeError("x is undefined"), "The trace could not be shown"), {
      message: "The trace could not be shown: TypeError: x is undefined",
      line: null,
      column: null,
    });
    assert.equal(problemOf("plain").message, "plain");
  });
});

describe("showProblem", () => {
  it("shows the text and hides the box again when the problem is gone", () => {
    const box = fakeBox();
    showProblem(/** @type {any} */ (box), { message: "m", line: 2, column: 3 }, "p: ");
    assert.deepEqual([box.hidden, box.textContent], [false, "p: Line 2, column 3: m"]);
    showProblem(/** @type {any} */ (box), null);
    assert.deepEqual([box.hidden, box.textContent], [true, ""]);
  });
});

describe("applyTheme", () => {
  it("pins light and dark and leaves auto (or junk) to the system", () => {
    for (const [theme, expected] of [
      ["dark", "dark"],
      ["light", "light"],
      ["auto", undefined],
      ["purple", undefined],
      [undefined, undefined],
    ]) {
      const element = fakeBox();
      applyTheme(theme, /** @type {any} */ (element));
      assert.equal(element.dataset.theme, expected, String(theme));
    }
  });
});

describe("showPlayer", () => {
  it("answers null and explains in the box when the load fails, without mounting", async () => {
    const box = fakeBox();
    const root = /** @type {any} */ ({});
    const player = await showPlayer(root, {
      load: async () => {
        throw new SourceError("unexpected indent", 2, 1);
      },
      errorBox: /** @type {any} */ (box),
      errorPrefix: "backprop-animator: ",
    });
    assert.equal(player, null);
    assert.equal(box.hidden, false);
    assert.equal(box.textContent, "backprop-animator: Line 2, column 1: unexpected indent");
  });
  it("says which step failed for an unexpected error", async () => {
    const box = fakeBox();
    await showPlayer(/** @type {any} */ ({}), {
      load: async () => {
        throw new SyntaxError("Unexpected token");
      },
      errorBox: /** @type {any} */ (box),
      errorContext: "The player could not start",
    });
    assert.equal(box.textContent, "The player could not start: SyntaxError: Unexpected token");
  });
});

describe("forLearner", () => {
  it("turns the server setting a limit names into this server's limit (issue 23, 9)", () => {
    const message =
      "the program made too many nodes (the limit is 20,000; set BACKPROP_MAX_NODES to change it)";
    const said = forLearner(message);
    assert.doesNotMatch(said, /BACKPROP_/);
    assert.match(said, /the limit is 20,000, set by this server\)\. Make the program smaller/);
    assert.equal(problemOf(new SourceError(message, 2, 1)).message, said);
  });
  it("lets an endless loop's hint say what to do", () => {
    const message =
      "the graph has too many nodes (the limit is 20,000; set BACKPROP_MAX_NODES to change it)" +
      " \u2014 the while True: loop at line 2 has no break, so it never ends";
    assert.equal(
      forLearner(message),
      "the graph has too many nodes (the limit is 20,000, set by this server)" +
        " \u2014 the while True: loop at line 2 has no break, so it never ends",
    );
  });
  it("leaves every other message as it is", () => {
    assert.equal(forLearner("name 'x' is not defined"), "name 'x' is not defined");
  });
});
