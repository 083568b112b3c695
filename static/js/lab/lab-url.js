/**
 * The bug lab's part of the page's URL (SPEC.md §7–9): `mistake=assign|append-first|no-sort`,
 * `sort_steps=1` and `gradcheck=1` (`gradcheck=central` for central differences), read
 * forgivingly (junk means off) and written only when on, so permalinks of the plain
 * player stay as they were.
 *
 * Example: readLabState("?source=a%2Ba&mistake=assign&sort_steps=1") ->
 *   {mistake: "assign", sortSteps: true, gradcheck: false, scheme: "forward"};
 *   labParams({mistake: "assign", sortSteps: true, gradcheck: false}) ->
 *   [["mistake", "assign"], ["sort_steps", "1"]]
 */
import { MISTAKE_IDS } from "./mistakes.js";

/** The query parameters this module owns. */
export const LAB_PARAM_NAMES = ["mistake", "sort_steps", "gradcheck"];
const YES = new Set(["1", "true", "yes", "on"]);

/**
 * @typedef {{mistake: import("./mistakes.js").Mistake | null, sortSteps: boolean, gradcheck: boolean,
 *   scheme: "forward" | "central"}} LabState
 */

/** @type {LabState} */
export const LAB_DEFAULTS = Object.freeze({
  mistake: null,
  sortSteps: false,
  gradcheck: false,
  scheme: "forward",
});

/**
 * @param {string | URLSearchParams} search
 * @returns {LabState}
 */
export function readLabState(search) {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const mistake = params.get("mistake");
  const yes = (/** @type {string} */ name) =>
    YES.has((params.get(name) ?? "").trim().toLowerCase());
  const central = (params.get("gradcheck") ?? "").trim().toLowerCase() === "central";
  return {
    mistake: MISTAKE_IDS.includes(/** @type {any} */ (mistake))
      ? /** @type {LabState["mistake"]} */ (mistake)
      : null,
    sortSteps: yes("sort_steps"),
    gradcheck: central || yes("gradcheck"),
    scheme: central ? "central" : "forward",
  };
}

/**
 * The query parameters of a lab state, leaving out what is off.
 * @param {Partial<LabState>} [state]
 * @returns {Array<[string, string]>}
 */
export function labParams({
  mistake = null,
  sortSteps = false,
  gradcheck = false,
  scheme = "forward",
} = {}) {
  /** @type {Array<[string, string]>} */
  const params = [];
  if (mistake !== null && MISTAKE_IDS.includes(mistake)) params.push(["mistake", mistake]);
  if (sortSteps) params.push(["sort_steps", "1"]);
  if (gradcheck) params.push(["gradcheck", scheme === "central" ? "central" : "1"]);
  return params;
}

/**
 * A search string with the lab's parameters set (and stale ones removed).
 * Example: withLabParams("?source=x&frame=0", {mistake: "no-sort"}) -> "?source=x&frame=0&mistake=no-sort"
 * @param {string} search
 * @param {Partial<LabState>} [state]
 */
export function withLabParams(search, state) {
  const params = new URLSearchParams(search);
  for (const name of LAB_PARAM_NAMES) params.delete(name);
  for (const [name, value] of labParams(state)) params.append(name, value);
  return `?${params}`;
}
