/**
 * The page's calls to the server: trace a program, list examples, read the
 * engine's rule sources. Errors come back as SourceError with the server's
 * 1-based line and column, or as a sentence when the server cannot be reached.
 */

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
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {{base?: string, signal?: AbortSignal}} [options]
 * @returns {Promise<import("./trace.js").Trace>}
 */
export async function fetchTrace(source, granularity, { base = "/", signal } = {}) {
  let response;
  try {
    // A refused program comes back as 200 with an `error`, so the browser logs no failed request.
    response = await fetch(new URL("api/trace?refusal_status=200", new URL(base, location.href)), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ source, granularity }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SourceError("The server could not be reached. Check the connection and run again.");
  }
  const body = await response.json().catch(() => null);
  if (!response.ok || body?.error) {
    const error = body?.error;
    if (error && typeof error.message === "string") throw new SourceError(error.message, error.line ?? null, error.column ?? null);
    throw new SourceError(`The server answered ${response.status} without an explanation.`);
  }
  return body;
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
