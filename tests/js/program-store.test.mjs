import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  KEPT_PROGRAMS,
  LONG_PROGRAM_CHARS,
  findProgram,
  fullSearch,
  keepProgram,
  programKey,
  shortAddress,
} from "../../static/js/hosts/program-store.js";

/** A Storage as the browser's: strings in, strings out. */
function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
    get size() {
      return items.size;
    },
  };
}

const long = (seed) => `# ${seed}\n${"x = Value(1.0)\n".repeat(LONG_PROGRAM_CHARS / 10)}`;

describe("program-store (issue 24: a big program out of the URL)", () => {
  it("keys a program by its text: the same text, the same key; another, another", () => {
    assert.equal(programKey(long("a")), programKey(long("a")));
    assert.notEqual(programKey(long("a")), programKey(long("b")));
    assert.match(programKey("a"), /^[0-9a-f]{16}$/);
  });

  it("takes a long program out of the address and puts it back from storage", () => {
    const storage = memoryStorage();
    const source = long("a");
    const search = `?${new URLSearchParams({ source, granularity: "packed", frame: "3" })}`;
    const short = shortAddress(search, storage);
    assert.ok(short.length < 80, short);
    assert.equal(new URLSearchParams(short).get("frame"), "3");
    const back = fullSearch(short, storage);
    assert.equal(back.missing, false);
    assert.equal(new URLSearchParams(back.search).get("source"), source);
  });

  it("leaves a short program in the address", () => {
    const search = "?source=a+%2B+a&frame=1";
    assert.equal(shortAddress(search, memoryStorage()), search);
    assert.deepEqual(fullSearch(search, memoryStorage()), { search, missing: false });
  });

  it("says when the address names a program this browser does not have", () => {
    const search = "?program=0123456789abcdef&frame=2";
    assert.deepEqual(fullSearch(search, memoryStorage()), { search, missing: true });
  });

  it("refuses a stored text that is not the key's program", () => {
    const storage = memoryStorage();
    storage.setItem("backprop-animator:program:00000000deadbeef", "tampered");
    assert.equal(findProgram("00000000deadbeef", storage), null);
  });

  it("keeps the newest programs only", () => {
    const storage = memoryStorage();
    const keys = Array.from({ length: KEPT_PROGRAMS + 5 }, (_, i) => keepProgram(long(i), storage));
    assert.equal(storage.size, KEPT_PROGRAMS + 1); // the programs and the index
    assert.equal(storage.getItem(`backprop-animator:program:${keys[0]}`), null);
    assert.equal(findProgram(keys.at(-1), storage), long(KEPT_PROGRAMS + 4));
  });

  it("still works in this page when storage refuses", () => {
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
      removeItem: () => {},
    };
    const key = keepProgram(long("z"), refusing);
    assert.equal(findProgram(key, refusing), long("z"));
  });
});
