import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  LAB_DEFAULTS,
  labParams,
  readLabState,
  withLabParams,
} from "../../static/js/lab/lab-url.js";
import { embedUrl, exportUrl, permalink } from "../../static/js/hosts/share-snippets.js";
import { readUrlState } from "../../static/js/hosts/url-state.js";

describe("readLabState", () => {
  it("reads a mistake, sort steps and the gradient check", () => {
    assert.deepEqual(readLabState("?source=a&mistake=append-first&sort_steps=1&gradcheck=true"), {
      mistake: "append-first",
      sortSteps: true,
      gradcheck: true,
      scheme: "forward",
    });
    assert.deepEqual(readLabState("?gradcheck=central"), {
      mistake: null,
      sortSteps: false,
      gradcheck: true,
      scheme: "central",
    });
  });

  it("treats junk and hostile values as off", () => {
    for (const search of [
      "",
      "?mistake=ASSIGN",
      "?mistake=__proto__",
      "?mistake=<script>",
      "?sort_steps=0&gradcheck=no",
      "?sort_steps=2",
    ]) {
      assert.deepEqual(readLabState(search), LAB_DEFAULTS, search);
    }
  });
});

describe("labParams and withLabParams", () => {
  it("write only what is on, and round-trip", () => {
    assert.deepEqual(labParams({}), []);
    for (const scheme of ["forward", "central"]) {
      const state = { mistake: "no-sort", sortSteps: true, gradcheck: true, scheme };
      assert.deepEqual(readLabState(withLabParams("?source=x", state)), state);
    }
    assert.deepEqual(labParams({ gradcheck: false, scheme: "central" }), []);
  });

  it("keep the player's own state and drop stale lab parameters", () => {
    const search = withLabParams(
      "?source=a+%2B+a&granularity=packed&frame=2&mistake=assign&gradcheck=1",
      { sortSteps: true },
    );
    assert.deepEqual(readUrlState(search), { source: "a + a", granularity: "packed", frame: 2 });
    assert.deepEqual(readLabState(search), {
      mistake: null,
      sortSteps: true,
      gradcheck: false,
      scheme: "forward",
    });
  });

  it("refuse to write a mistake the engine does not have", () => {
    assert.deepEqual(labParams({ mistake: /** @type {any} */ ("drop-table") }), []);
  });
});

describe("share links with the lab", () => {
  const state = { origin: "https://ba.example", source: "a + a", granularity: "packed", frame: 3 };
  const lab = { mistake: "assign", sortSteps: true, gradcheck: true, scheme: "central" };

  it("carry the mistake, the sort steps and the check in the permalink and the embed", () => {
    for (const url of [permalink({ ...state, lab }), embedUrl({ ...state, lab })]) {
      assert.deepEqual(readLabState(new URL(url).search), lab);
    }
    assert.equal(permalink(state), "https://ba.example/?source=a+%2B+a&granularity=packed&frame=3");
  });

  it("ask the export for the forward check it can embed", () => {
    const params = new URL(exportUrl({ ...state, lab })).searchParams;
    assert.equal(params.get("gradcheck"), "1");
    assert.equal(params.get("mistake"), "assign");
    assert.equal(params.get("sort_steps"), "1");
  });
});
