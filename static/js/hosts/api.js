/**
 * The page's calls to the server: trace a program, check its gradients, list
 * examples, read the engine's rule sources. Errors come back as SourceError with the server's
 * 1-based line and column, or as a sentence when the server cannot be reached.
 */

import { readTrace } from "../passes/columns.js";

export class SourceError extends Error {
  /**
   * @param {string} message
   * @param {number | null} line
   * @param {number | null} column
   */
  constructor(message, line = null, column = null) {
    super(message);
    this.name = "SourceError";
    this.line = line;
    this.column = column;
  }
}

/**
 * The trace of a program, asked for in the columns encoding (a fifth of the bytes; texts
 * written when a frame is shown) and read back into the trace of schema 1 or 2.
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {{base?: string, signal?: AbortSignal, mistake?: string | null, sortSteps?: boolean}} [options]
 *   mistake, sortSteps: the bug lab (SPEC §8, §9), sent only when set
 * @returns {Promise<import("../passes/trace.js").Trace>}
 */
export async function fetchTrace(
  source,
  granularity,
  { base = "/", signal, mistake = null, sortSteps = false } = {},
) {
  const answer = await postJson(
    "api/trace",
    {
      source,
      granularity,
      encoding: "columns",
      ...(mistake ? { mistake } : {}),
      ...(sortSteps ? { sort_steps: true } : {}),
    },
    { base, signal },
  );
  return /** @type {import("../passes/trace.js").Trace} */ (readTrace(answer));
}

/**
 * The gradient check of SPEC §7: per leaf, backprop's gradient and the difference
 * quotients over a sweep of h.
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {{base?: string, signal?: AbortSignal, mistake?: string | null, scheme?: "forward" | "central",
 *   pass?: number, leaves?: string[] | null, h?: number[] | null}} [options]
 *   mistake: check that mistaken engine's gradients (SPEC §8); pass: which backward pass
 *   (SPEC §13, sent when not 0); leaves: the ids, labels or names to check (default every
 *   leaf); h: the h values (default the server's sweep)
 * @returns {Promise<import("../lab/gradcheck.js").GradCheck>}
 */
export async function fetchGradcheck(
  source,
  granularity,
  {
    base = "/",
    signal,
    mistake = null,
    scheme = "forward",
    pass = 0,
    leaves = null,
    h = null,
  } = {},
) {
  return postJson(
    "api/gradcheck",
    {
      source,
      granularity,
      scheme,
      ...(mistake ? { mistake } : {}),
      ...(pass ? { pass } : {}),
      ...(leaves ? { leaves } : {}),
      ...(h ? { h } : {}),
    },
    { base, signal },
  );
}

/**
 * POST a JSON body; the server's 4xx error body becomes a SourceError.
 * @param {string} path
 * @param {Record<string, unknown>} body
 * @param {{base: string, signal?: AbortSignal}} options
 */
async function postJson(path, body, { base, signal }) {
  let response;
  try {
    // A refused program comes back as 200 with an `error`, so the browser logs no failed request.
    response = await fetch(new URL(`${path}?refusal_status=200`, new URL(base, location.href)), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SourceError("The server could not be reached. Check the connection and run again.");
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok || answer?.error) {
    const error = answer?.error;
    if (error && typeof error.message === "string")
      throw new SourceError(error.message, error.line ?? null, error.column ?? null);
    throw new SourceError(`The server answered ${response.status} without an explanation.`);
  }
  return answer;
}

/**
 * GET a JSON resource, or `fallback` when it is unavailable (examples and rules are extras).
 * @template T
 * @param {string} path  relative to base, e.g. "api/examples"
 * @param {T} fallback
 * @param {string} [base]
 * @returns {Promise<T>}
 */
export async function fetchOptional(path, fallback, base = "/") {
  try {
    const response = await fetch(new URL(path, new URL(base, location.href)));
    return response.ok ? await response.json() : fallback;
  } catch {
    return fallback;
  }
}
