import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";

import {
  HEIGHT_MESSAGE,
  SEEK_MESSAGE,
  listenForSeek,
} from "../../static/js/hosts/frame-messages.js";

describe("frame messages", () => {
  it("the parent page's listener reads the same message type the player posts", () => {
    const listener = readFileSync(
      new URL("../../static/height-listener.js", import.meta.url),
      "utf8",
    );
    assert.ok(listener.includes(`"${HEIGHT_MESSAGE}"`));
  });
  it("a seek is taken only from the parent, and only as a whole non-negative number", () => {
    /** @type {Array<(event: any) => void>} */
    const handlers = [];
    const parent = {};
    globalThis.addEventListener = (/** @type {string} */ _type, /** @type {any} */ handler) =>
      handlers.push(handler);
    globalThis.removeEventListener = () => {};
    globalThis.window = /** @type {any} */ ({});
    const seen = [];
    listenForSeek((frame) => seen.push(frame), /** @type {any} */ (parent));
    const send = (source, data) => {
      for (const handler of handlers) handler({ source, data });
    };
    send(parent, { type: SEEK_MESSAGE, frame: 4 });
    send({}, { type: SEEK_MESSAGE, frame: 5 });
    send(parent, { type: SEEK_MESSAGE, frame: -1 });
    send(parent, { type: SEEK_MESSAGE, frame: 2.5 });
    send(parent, { type: SEEK_MESSAGE, frame: "3" });
    send(parent, { type: "other", frame: 6 });
    send(parent, null);
    assert.deepEqual(seen, [4]);
  });
});
