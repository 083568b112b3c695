/**
 * The entry of the LTI tool's graded player (`/lti/play/{id}`, templates/lti_play.html),
 * inside a course's iframe. The launch the server rendered (a JSON block) says the
 * player's options as a query string: it is put in the address, so framed-player.js
 * reads it exactly as `/embed` reads its own. In a graded launch every closed quiz
 * question is posted to the server (lti-grades.js), which passes the score to the
 * course, and the status line says what became of it; the parent window is told too,
 * as on `/embed`.
 */
import { mountFramedPlayer } from "./hosts/framed-player.js";
import {
  createScoreQueue,
  frameResizeMessage,
  gradeErrorText,
  gradeStatusText,
  playSearch,
  postScore,
  readLaunch,
  SENDING_TEXT,
  scoreBody,
  scopedStorage,
} from "./hosts/lti-grades.js";
import { problemOf, showProblem } from "./hosts/host.js";
import { reportToParent } from "./quiz/quiz.js";

const errorBox = /** @type {HTMLElement} */ (document.querySelector("[data-testid=error]"));
try {
  start(readLaunch(document.getElementById("lti-launch")?.textContent));
} catch (error) {
  showProblem(errorBox, problemOf(error, "The activity could not be opened"));
}

/** @param {import("./hosts/lti-grades.js").Launch} launch */
function start(launch) {
  history.replaceState(null, "", location.pathname + playSearch(launch));

  const status = /** @type {HTMLElement | null} */ (
    document.querySelector("[data-testid=lti-grade-status]")
  );
  /** @param {string} text @param {"sending" | "sent" | "kept" | "failed"} state */
  function say(text, state) {
    if (!status) return;
    status.textContent = text;
    status.dataset.state = state;
  }

  const queue = launch.grading
    ? createScoreQueue({
        send: (body) => postScore(launch.score_url, body),
        onSending: () => say(SENDING_TEXT, "sending"),
        onResult: (result) => say(gradeStatusText(result), result.posted ? "sent" : "kept"),
        onError: (error) => say(gradeErrorText(error), "failed"),
      })
    : null;

  const playerRoot = /** @type {HTMLElement} */ (document.getElementById("player"));
  const page = mountFramedPlayer({
    quizReport: (message) => {
      queue?.push(scoreBody(launch.id, message));
      reportToParent(message);
    },
    quizStorage: scopedStorage(sessionStore(), `backprop-animator:lti:${launch.id}:`),
  });
  // A hook for tests and the course's page: the player is there (not an error).
  page.start().then(() => {
    if (page.player) playerRoot.dataset.ready = "true";
  });
}

/** sessionStorage, or null where the page may not use it (sandboxed frames, privacy modes). */
function sessionStore() {
  try {
    const store = globalThis.sessionStorage;
    store.getItem("backprop-animator:lti");
    return store;
  } catch {
    return null;
  }
}

askForHeight(/** @type {HTMLElement} */ (document.querySelector("main")));

/**
 * Ask the course's page to size its iframe to this page, the way Canvas (and the LMSs
 * that copy it) listen for: a `lti.frameResize` message whenever the height changes.
 * @param {HTMLElement} content
 */
function askForHeight(content) {
  if (window.parent === window || typeof ResizeObserver === "undefined") return;
  let sent = -1;
  new ResizeObserver(() => {
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height <= 0 || height === sent) return;
    sent = height;
    window.parent.postMessage(frameResizeMessage(height), "*");
  }).observe(content);
}
