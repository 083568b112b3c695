import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  embedParams,
  keepEmbedOptions,
  readEmbedOptions,
} from "../../static/js/hosts/embed-options.js";

describe("readEmbedOptions", () => {
  it("shows the code and narration but no editor, paused, at normal speed, in the system theme by default", () => {
    assert.deepEqual(readEmbedOptions("?source=a"), {
      hide: ["editor"],
      autoplay: false,
      speed: null,
      theme: "auto",
    });
  });
  it("hides the parts controls names with a minus and shows the bare or plus ones", () => {
    assert.deepEqual(readEmbedOptions("?controls=-code,-narration").hide, [
      "editor",
      "code",
      "narration",
    ]);
    assert.deepEqual(readEmbedOptions("?controls=editor,-code").hide, ["code"]);
    assert.deepEqual(readEmbedOptions("?controls=%2Beditor").hide, []);
  });
  it("takes none and all", () => {
    assert.deepEqual(readEmbedOptions("?controls=none").hide, ["editor", "code", "narration"]);
    assert.deepEqual(readEmbedOptions("?controls=all,-narration").hide, ["narration"]);
  });
  it("takes hide= as the same as minus, with aliases and any case", () => {
    assert.deepEqual(readEmbedOptions("?hide=Narration code-panel").hide, [
      "editor",
      "code",
      "narration",
    ]);
  });
  it("reads autoplay, speed and theme, ignoring junk", () => {
    assert.deepEqual(readEmbedOptions("?autoplay=1&speed=2&theme=dark"), {
      hide: ["editor"],
      autoplay: true,
      speed: 2,
      theme: "dark",
    });
    assert.deepEqual(readEmbedOptions("?autoplay=no&speed=3&theme=sepia&controls=-bogus"), {
      hide: ["editor"],
      autoplay: false,
      speed: null,
      theme: "auto",
    });
    assert.equal(readEmbedOptions("?autoplay").autoplay, true);
  });
});

describe("embedParams", () => {
  it("round-trips through readEmbedOptions and leaves out defaults", () => {
    for (const hide of [[], ["code", "narration"], ["editor", "code"]]) {
      const options = { hide, autoplay: true, speed: 0.5, theme: "light" };
      assert.deepEqual(readEmbedOptions(new URLSearchParams(embedParams(options))), options);
    }
    assert.deepEqual(
      embedParams({ hide: ["editor"], autoplay: false, speed: 1, theme: "auto" }),
      [],
    );
    assert.deepEqual(embedParams({ hide: ["narration"] }), [["controls", "editor,-narration"]]);
  });
});

describe("keepEmbedOptions", () => {
  it("writes the state, then the embed's own options from the address it has", () => {
    assert.equal(
      keepEmbedOptions("?source=a&frame=2", "?source=b&frame=0&controls=-code&theme=dark"),
      "?source=a&frame=2&controls=-code&theme=dark",
    );
  });
  it("takes the lab's options from the state only, so one turned off stays off", () => {
    assert.equal(
      keepEmbedOptions("?source=a&frame=0", "?source=a&mistake=assign&sort_steps=1&gradcheck=1"),
      "?source=a&frame=0",
    );
    assert.equal(
      keepEmbedOptions("?source=a&mistake=assign", "?source=a"),
      "?source=a&mistake=assign",
    );
  });
});
