/**
 * The page's URL as state (SPEC.md §5): `?source=…&granularity=…&frame=k`, frame 0-based.
 * Reading forgives junk (a bad frame or granularity falls back to a default);
 * writing always emits all three so a copied URL is a complete permalink.
 *
 * `quiz=1` (also `true`, `yes`, `on`) turns on the quiz (SPEC.md §10): readQuiz reads
 * it, and writeUrlState writes it only when on.
 *
 * Example: readUrlState("?source=a%2Ba&frame=2") ->
 *   {source: "a+a", granularity: "packed", frame: 2}
 */

export const GRANULARITIES = ["packed", "expanded"];
const YES = new Set(["1", "true", "yes", "on"]);

/**
 * Whether an option's text means "on" (`1`, `true`, `yes`, `on`); anything else is off.
 * @param {string | null} text
 */
export const isOn = (text) => text !== null && YES.has(text.trim().toLowerCase());

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
 * Whether the address asks for the quiz. Example: readQuiz("?quiz=1") -> true.
 * @param {string | URLSearchParams} search
 */
export const readQuiz = (search) => isOn(new URLSearchParams(search).get("quiz"));

/**
 * @param {{source: string, granularity: string, frame: number, quiz?: boolean}} state
 * @returns {string} a search string starting with "?"
 */
export function writeUrlState({ source, granularity, frame, quiz = false }) {
  if (!GRANULARITIES.includes(granularity)) {
    throw new RangeError(
      `granularity must be "packed" or "expanded", got ${JSON.stringify(granularity)}`,
    );
  }
  const params = new URLSearchParams();
  params.set("source", source);
  params.set("granularity", granularity);
  params.set("frame", String(Math.max(0, Math.trunc(frame))));
  if (quiz) params.set("quiz", "1");
  return `?${params}`;
}
