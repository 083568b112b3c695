/**
 * The page's URL as state (SPEC.md §5): `?source=…&granularity=…&frame=k`, frame 0-based.
 * Reading forgives junk (a bad frame or granularity falls back to a default);
 * writing always emits all three so a copied URL is a complete permalink.
 *
 * Example: readUrlState("?source=a%2Ba&frame=2") ->
 *   {source: "a+a", granularity: "packed", frame: 2}
 */

export const GRANULARITIES = ["packed", "expanded"];

/**
 * @typedef {{source: string | null, granularity: "packed" | "expanded", frame: number | null}} UrlState
 */

/**
 * @param {string} search  location.search, with or without the leading "?"
 * @returns {UrlState}
 */
export function readUrlState(search) {
  const params = new URLSearchParams(search);
  const granularity = params.get("granularity");
  const frameText = params.get("frame");
  const frame = frameText !== null && /^\s*\d+\s*$/.test(frameText) ? Number(frameText) : null;
  return {
    source: params.get("source"),
    granularity: granularity === "expanded" ? "expanded" : "packed",
    frame,
  };
}

/**
 * @param {{source: string, granularity: string, frame: number}} state
 * @returns {string} a search string starting with "?"
 */
export function writeUrlState({ source, granularity, frame }) {
  if (!GRANULARITIES.includes(granularity)) {
    throw new RangeError(`granularity must be "packed" or "expanded", got ${JSON.stringify(granularity)}`);
  }
  const params = new URLSearchParams();
  params.set("source", source);
  params.set("granularity", granularity);
  params.set("frame", String(Math.max(0, Math.trunc(frame))));
  return `?${params}`;
}
