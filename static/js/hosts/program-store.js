/**
 * Long programs out of the address bar (issue 24): a program of more than
 * LONG_PROGRAM_CHARS characters is kept in the browser's storage under a key made from
 * its text, and the address names it (`?program=k3x…`) instead of carrying it
 * (`?source=…`, tens of kilobytes that every history entry, every frame's replaceState
 * and the server's URL limit would pay for). The address still says which program it
 * is; Back, Forward and a reload find it again here. Another browser has no copy: the
 * page says so, and the share dialog's snippets (which carry the program) are the way
 * to send it.
 *
 * Example: shortAddress("?source=<5,000 characters>&frame=3") -> "?frame=3&program=<16 hex>"
 * and fullSearch of that -> {search: "?frame=3&source=<the 5,000 characters>", missing: false}.
 */

/** Programs longer than this leave the address. */
export const LONG_PROGRAM_CHARS = 4000;
/** How many long programs the storage keeps (the oldest go first). */
export const KEPT_PROGRAMS = 20;
const PREFIX = "backprop-animator:program:";
const INDEX = `${PREFIX}index`;
/** The programs kept in this page's life, for a storage that refuses (private mode, full). */
const memory = new Map();

/**
 * A short key for a program's text: two 32-bit FNV-1a hashes of its UTF-16 units (the
 * second also over their positions), in hex.
 * Example: programKey("a") -> "e40c292c" followed by eight more hex digits; the same
 * text gives the same key in every browser.
 * @param {string} source
 */
export function programKey(source) {
  let first = 0x811c9dc5;
  let second = 0x9e3779b9;
  for (let i = 0; i < source.length; i++) {
    const unit = source.charCodeAt(i);
    first = Math.imul(first ^ unit, 0x01000193) >>> 0;
    second = Math.imul(second ^ (unit + i), 0x01000193) >>> 0;
  }
  return first.toString(16).padStart(8, "0") + second.toString(16).padStart(8, "0");
}

/** @returns {Storage | null} */
function defaultStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // a sandboxed frame may refuse storage altogether
  }
}

/**
 * Keep a program and return its key.
 * @param {string} source
 * @param {Storage | null} [storage]
 */
export function keepProgram(source, storage = defaultStorage()) {
  const key = programKey(source);
  // Kept already in this page's life: every frame's address names it again, and the
  // storage need not be written each time.
  if (memory.get(key) === source) return key;
  memory.set(key, source);
  if (!storage) return key;
  try {
    const index = /** @type {string[]} */ (JSON.parse(storage.getItem(INDEX) ?? "[]"));
    const kept = index.filter((other) => other !== key);
    kept.push(key);
    for (const old of kept.splice(0, Math.max(0, kept.length - KEPT_PROGRAMS)))
      storage.removeItem(PREFIX + old);
    storage.setItem(PREFIX + key, source);
    storage.setItem(INDEX, JSON.stringify(kept));
  } catch {
    // Full, refused or not JSON: this page's memory still has it.
  }
  return key;
}

/**
 * The program kept under `key`, or null.
 * @param {string} key
 * @param {Storage | null} [storage]
 */
export function findProgram(key, storage = defaultStorage()) {
  const known = memory.get(key);
  if (known !== undefined) return known;
  try {
    const stored = storage?.getItem(PREFIX + key) ?? null;
    // A key is made from the text: a stored text of another key is not this program.
    return stored !== null && programKey(stored) === key ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The address with a long program replaced by its key (and the program kept).
 * @param {string} search  a query string, "?…"
 * @param {Storage | null} [storage]
 */
export function shortAddress(search, storage = defaultStorage()) {
  const params = new URLSearchParams(search);
  const source = params.get("source");
  if (source === null || source.length <= LONG_PROGRAM_CHARS) return search;
  params.delete("source");
  params.set("program", keepProgram(source, storage));
  return `?${params}`;
}

/**
 * The address with a program key replaced by its program, when this browser has it;
 * `missing` is true when the address names a program this browser does not have.
 * @param {string} search
 * @param {Storage | null} [storage]
 * @returns {{search: string, missing: boolean}}
 */
export function fullSearch(search, storage = defaultStorage()) {
  const params = new URLSearchParams(search);
  const key = params.get("program");
  if (key === null || params.has("source")) return { search, missing: false };
  const source = findProgram(key, storage);
  if (source === null) return { search, missing: true };
  params.delete("program");
  params.set("source", source);
  return { search: `?${params}`, missing: false };
}

/** What the page says when an address names a program kept in another browser. */
export const MISSING_PROGRAM =
  "This address names a program too long for a link, kept in the browser that made it, " +
  "and this browser has no copy. Ask for the program itself, or an exported page " +
  "(Share, then Download); here is an example meanwhile.";
