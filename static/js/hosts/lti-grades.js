/**
 * The graded player's talk with the LTI tool's server, with no DOM: the player's options
 * for a launch, the score posts (one at a time, in order, one retry when the network
 * fails) and the sentence the status line shows for each. lti-play.js puts them on the
 * page.
 *
 * Each closed quiz question is posted to the launch's `score_url` as
 * `{launch, question, answer}` (answer: the number given, null for Show me); the server
 * answers `{right, asked, total, posted, message}`, or an error `{error: {message}}`.
 *
 * Example: gradeStatusText({right: 3, asked: 4, total: 9, posted: true, message: ""})
 *   -> "Score sent to the course: 3 / 9"
 */

/**
 * @typedef {{id: string, search: string, grading: boolean, score_url: string,
 *   instructor: boolean, note: string | null}} Launch
 * @typedef {{launch: string, question: number, answer: number | null}} ScoreBody
 * @typedef {{right: number, asked: number, total: number, posted: boolean, message: string}} ScoreResult
 */

export const SENDING_TEXT = "Sending your answer to the course…";
/** How long one post may take before it counts as a network failure. */
export const POST_TIMEOUT_MS = 20_000;
const RETRY_DELAY_MS = 1_000;

/** A post that failed: `network` when no answer came (then it is worth one more try). */
export class GradeError extends Error {
  /**
   * @param {string} message
   * @param {{network?: boolean, status?: number | null}} [details]
   */
  constructor(message, { network = false, status = null } = {}) {
    super(message);
    this.name = "GradeError";
    this.network = network;
    this.status = status;
  }
}

/**
 * The launch the server put in the page, checked enough to use.
 * @param {string | null | undefined} text  the JSON block's text
 * @returns {Launch}
 */
export function readLaunch(text) {
  const data = JSON.parse(text || "null");
  if (!data || typeof data !== "object" || typeof data.id !== "string")
    throw new TypeError("The page holds no launch.");
  return {
    id: data.id,
    search: typeof data.search === "string" ? data.search : "",
    grading: data.grading === true,
    score_url: typeof data.score_url === "string" ? data.score_url : "/lti/score",
    instructor: data.instructor === true,
    note: typeof data.note === "string" && data.note ? data.note : null,
  };
}

/**
 * The player's address for a launch: the server's options, and in a graded launch no
 * `frame`, so the quiz always opens at the start and every question is asked.
 * Example: playSearch({search: "?source=a&frame=9&quiz=1", grading: true}) -> "?source=a&quiz=1"
 * @param {Pick<Launch, "search" | "grading">} launch
 */
export function playSearch({ search, grading }) {
  const params = new URLSearchParams(search);
  if (grading) params.delete("frame");
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The body posted for one closed question.
 * @param {string} launch
 * @param {{question: number, answer: number | null, revealed?: boolean}} report  quiz.js's report
 * @returns {ScoreBody}
 */
export function scoreBody(launch, { question, answer, revealed = false }) {
  return {
    launch,
    question,
    answer: revealed || typeof answer !== "number" || !Number.isFinite(answer) ? null : answer,
  };
}

/**
 * Post one closed question and read the server's answer.
 * @param {string} url
 * @param {ScoreBody} body
 * @param {{fetch?: typeof fetch, timeoutMs?: number}} [options]
 * @returns {Promise<ScoreResult>}
 * @throws {GradeError}
 */
export async function postScore(
  url,
  body,
  { fetch: send = fetch, timeoutMs = POST_TIMEOUT_MS } = {},
) {
  /** @type {Response} */
  let response;
  try {
    response = await send(url, {
      method: "POST",
      credentials: "omit",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout?.(timeoutMs),
    });
  } catch (error) {
    throw new GradeError(
      `the connection failed (${error instanceof Error ? error.message : error})`,
      {
        network: true,
      },
    );
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const message = data?.error?.message;
    throw new GradeError(
      typeof message === "string" && message
        ? message
        : `The server did not take the answer (HTTP ${response.status}).`,
      { status: response.status },
    );
  }
  if (!data || typeof data !== "object")
    throw new GradeError("The server's answer could not be read.", { status: response.status });
  return /** @type {ScoreResult} */ (data);
}

/**
 * Posts that go one at a time, in the order pushed; a network failure is tried once more
 * (after `retryDelayMs`), an error the server gave is not.
 * @param {{
 *   send: (body: ScoreBody) => Promise<ScoreResult>,
 *   onSending?: (body: ScoreBody) => void,
 *   onResult: (result: ScoreResult, body: ScoreBody) => void,
 *   onError: (error: unknown, body: ScoreBody) => void,
 *   retries?: number,
 *   retryDelayMs?: number,
 * }} options
 */
export function createScoreQueue({
  send,
  onSending,
  onResult,
  onError,
  retries = 1,
  retryDelayMs = RETRY_DELAY_MS,
}) {
  /** @type {Promise<void>} */
  let tail = Promise.resolve();
  let waiting = 0;

  /** @param {ScoreBody} body */
  async function deliver(body) {
    onSending?.(body);
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await send(body);
        onResult(result, body);
        return;
      } catch (error) {
        if (error instanceof GradeError && error.network && attempt < retries) {
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
          continue;
        }
        onError(error, body);
        return;
      }
    }
  }

  return {
    /**
     * Queue a post; the promise settles once it (and every post before it) is done.
     * @param {ScoreBody} body
     * @returns {Promise<void>}
     */
    push(body) {
      waiting += 1;
      const done = tail
        .then(() => deliver(body))
        .finally(() => {
          waiting -= 1;
        });
      tail = done.catch(() => {});
      return done;
    },
    /** Posts queued or on their way. */
    get pending() {
      return waiting;
    },
  };
}

/**
 * What the status line says after a post.
 * @param {ScoreResult} result
 */
export function gradeStatusText(result) {
  if (result.posted) return `Score sent to the course: ${result.right} / ${result.total}`;
  return typeof result.message === "string" && result.message
    ? result.message
    : "Your answer was recorded, but no score went to the course.";
}

/**
 * What the status line says when a post failed.
 * @param {unknown} error
 */
export function gradeErrorText(error) {
  if (error instanceof GradeError && error.network)
    return `This answer did not reach the course: ${error.message}. Check your connection; the next answer is sent as usual.`;
  if (error instanceof Error && error.message) return error.message;
  return "This answer did not reach the course.";
}

/**
 * A store whose keys are kept apart under a prefix: the graded quiz keeps its answers per
 * launch, so a quiz of the same program answered elsewhere on this site (an `/embed` on
 * a course page, an earlier launch) is not taken for answers the course never got.
 * Example: scopedStorage(sessionStorage, "lti:L1:").setItem("k", "v") sets "lti:L1:k".
 * @param {Pick<Storage, "getItem" | "setItem" | "removeItem"> | null} store
 * @param {string} prefix
 * @returns {Pick<Storage, "getItem" | "setItem" | "removeItem"> | null}
 */
export function scopedStorage(store, prefix) {
  if (!store) return null;
  return {
    getItem: (key) => store.getItem(prefix + key),
    setItem: (key, value) => store.setItem(prefix + key, value),
    removeItem: (key) => store.removeItem(prefix + key),
  };
}

/**
 * The message that asks an LMS (Canvas and others that follow it) to make its iframe
 * as tall as the page.
 * @param {number} height  CSS pixels
 */
export const frameResizeMessage = (height) =>
  JSON.stringify({ subject: "lti.frameResize", height: Math.ceil(height) });
