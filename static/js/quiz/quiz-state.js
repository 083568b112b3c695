/**
 * The quiz's state with no DOM (SPEC.md §10): which questions a trace asks, which
 * are answered, where the player must stop, and what a frame shows while its
 * questions wait. quiz.js draws it; the player asks it where it may go.
 *
 * One question per `+=` of every backward frame, in order: "what is the child's
 * gradient after it?" (the contribution's `after`). The learner answers them in
 * order, so the first unanswered question's frame is the gate: the player may show
 * that frame (with the waiting children's new gradients and the `+=` numbers
 * hidden) but nothing after it. An answer or "Show me" closes a question, right or
 * not. A quiz opened at frame f leaves the questions of frames before f out: they
 * are not asked and do not count.
 *
 * Example (the article's neuron, 16 frames, 9 questions): startQuiz(questions, 0)
 * gates at frame 6 (o's tanh rule, the question about n); limitFrame(..., 15) -> 6.
 * startQuiz(questions, 10) leaves out the 5 questions of frames 6, 7 and 9.
 */

export const STORAGE_PREFIX = "backprop-animator:quiz:";
const STATE_VERSION = 1;

/**
 * @typedef {import("../passes/trace.js").Trace} Trace
 * @typedef {import("./answer-parse.js").Verdict} Verdict
 * @typedef {{index: number, frame: number, node: string, to: string, position: number,
 *   step: {local: number | null, upstream: number, delta: number, before: number, after: number,
 *     write?: "+=" | "-=" | "=", line?: number}}} Question
 *   step.write, step.line: a learner's own rule (SPEC §14), as their code wrote it
 * @typedef {{text: string, value: number | null, right: boolean, revealed: boolean, hinted: boolean,
 *   verdict: Verdict | "revealed"}} Answer
 * @typedef {{version: number, startFrame: number, answers: Array<Answer | null>}} QuizState
 */

/**
 * Every question the trace asks, in the order the frames run.
 * @param {Trace} trace
 * @returns {Question[]}
 */
export function questionsOf(trace) {
  /** @type {Question[]} */
  const questions = [];
  trace.frames.forEach((frame, k) => {
    if (frame.phase !== "backward" || !Array.isArray(frame.contributions)) return;
    frame.contributions.forEach((c, position) => {
      const { local, upstream, delta, before, after, write, line } = c;
      questions.push({
        index: questions.length,
        frame: k,
        node: frame.node,
        to: c.to,
        position,
        step: write
          ? { local, upstream, delta, before, after, write, line }
          : { local, upstream, delta, before, after },
      });
    });
  });
  return questions;
}

/**
 * A fresh quiz that starts at `startFrame`.
 * @param {Question[]} questions
 * @param {number} startFrame
 * @returns {QuizState}
 */
export function startQuiz(questions, startFrame) {
  return {
    version: STATE_VERSION,
    startFrame: Math.max(0, Math.trunc(startFrame) || 0),
    answers: questions.map(() => null),
  };
}

/**
 * @param {QuizState} state
 * @param {Question} question
 */
export const isLeftOut = (state, question) => question.frame < state.startFrame;

/**
 * The first question still waiting for an answer, or null when the quiz is over.
 * @param {Question[]} questions
 * @param {QuizState} state
 */
export function pendingQuestion(questions, state) {
  return questions.find((q) => state.answers[q.index] === null && !isLeftOut(state, q)) ?? null;
}

/**
 * The furthest frame the player may show when asked for frame k.
 * @param {Question[]} questions
 * @param {QuizState} state
 * @param {number} k
 */
export function limitFrame(questions, state, k) {
  const pending = pendingQuestion(questions, state);
  return pending ? Math.min(k, pending.frame) : k;
}

/**
 * The question open at frame k, if the player is at the gate.
 * @param {Question[]} questions
 * @param {QuizState} state
 * @param {number} k
 */
export function openQuestionAt(questions, state, k) {
  const pending = pendingQuestion(questions, state);
  return pending && pending.frame === k ? pending : null;
}

/**
 * The state with one more question closed. Throws if it is not the one waiting:
 * questions are answered in order.
 * @param {Question[]} questions
 * @param {QuizState} state
 * @param {number} index
 * @param {Answer} answer
 * @returns {QuizState}
 */
export function recordAnswer(questions, state, index, answer) {
  const pending = pendingQuestion(questions, state);
  if (!pending || pending.index !== index)
    throw new Error(`question ${index} is not the one waiting for an answer`);
  const answers = state.answers.slice();
  answers[index] = answer;
  return { ...state, answers };
}

/**
 * `right / asked` and the rest of the tally. Asked = answered or shown.
 * @param {Question[]} questions
 * @param {QuizState} state
 */
export function scoreOf(questions, state) {
  let right = 0;
  let asked = 0;
  let leftOut = 0;
  for (const q of questions) {
    const answer = state.answers[q.index];
    if (answer) {
      asked += 1;
      if (answer.right) right += 1;
    } else if (isLeftOut(state, q)) {
      leftOut += 1;
    }
  }
  return {
    right,
    asked,
    total: questions.length,
    leftOut,
    done: pendingQuestion(questions, state) === null,
  };
}

/**
 * The questions answered wrongly or shown, for the summary.
 * @param {Question[]} questions
 * @param {QuizState} state
 */
export function missedQuestions(questions, state) {
  return questions.filter((q) => {
    const answer = state.answers[q.index];
    return answer !== null && !answer.right;
  });
}

/**
 * What frame k shows while some of its questions wait: the gradients the waiting
 * `+=`s would write keep their value from before, their numbers are left out of the
 * contributions (so the graph, the table and the code panel cannot tell), they are
 * not marked final yet, and the narration gives way to `text`. Any other frame comes
 * back unchanged.
 * @template {{index: number, grads: Float64Array, final: Uint8Array, contributions: Array<{child: number}>, text: string}} S
 * @param {S} frameState
 * @param {Question[]} questions
 * @param {QuizState} state
 * @param {(childIndexOf: string) => number} indexOf
 * @param {string} text
 * @returns {S}
 */
export function maskFrame(frameState, questions, state, indexOf, text) {
  const open = openQuestionAt(questions, state, frameState.index);
  if (!open) return frameState;
  const waiting = questions.filter((q) => q.frame === open.frame && q.position >= open.position);
  const grads = frameState.grads.slice();
  const final = frameState.final.slice();
  for (let j = waiting.length - 1; j >= 0; j--) {
    grads[indexOf(waiting[j].to)] = waiting[j].step.before;
    final[indexOf(waiting[j].to)] = 0;
  }
  return {
    ...frameState,
    grads,
    final,
    contributions: frameState.contributions.slice(0, open.position),
    text,
  };
}

/**
 * The session-storage key of a quiz: one per program and options, so two quizzes
 * in one tab never mix. FNV-1a over what makes the questions what they are.
 * @param {Trace & {mistake?: unknown}} trace
 * @param {Question[]} questions
 */
export function storageKey(trace, questions) {
  const text = JSON.stringify([
    trace.source,
    trace.granularity,
    trace.mistake ?? null,
    trace.frames.length,
    questions.length,
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${STORAGE_PREFIX}${hash.toString(16).padStart(8, "0")}`;
}

const VERDICTS = new Set([
  "right",
  "forgot-before",
  "forgot-upstream",
  "forgot-local",
  "sign",
  "wrong-factor",
  "unchanged",
  "added",
  "other",
  "revealed",
]);

/**
 * A stored state read back, or null when it is missing, damaged or for another quiz
 * (stored text is untrusted: anything odd starts the quiz afresh).
 * @param {string | null} text
 * @param {Question[]} questions
 * @returns {QuizState | null}
 */
export function restoreState(text, questions) {
  if (typeof text !== "string" || text.length > 200_000) return null;
  /** @type {any} */
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (
    !data ||
    data.version !== STATE_VERSION ||
    !Number.isInteger(data.startFrame) ||
    data.startFrame < 0
  )
    return null;
  if (!Array.isArray(data.answers) || data.answers.length !== questions.length) return null;
  /** @type {Array<Answer | null>} */
  const answers = [];
  let closedAfterOpen = false;
  for (const [i, item] of data.answers.entries()) {
    if (item === null) {
      if (questions[i].frame >= data.startFrame) closedAfterOpen = true;
      answers.push(null);
      continue;
    }
    // Questions close in order: an answer after a waiting one means the data was edited.
    if (closedAfterOpen || questions[i].frame < data.startFrame || !validAnswer(item)) return null;
    answers.push({
      text: item.text,
      value: item.value,
      right: item.right,
      revealed: item.revealed,
      hinted: item.hinted,
      verdict: item.verdict,
    });
  }
  return { version: STATE_VERSION, startFrame: data.startFrame, answers };
}

/** @param {any} item */
function validAnswer(item) {
  return (
    typeof item === "object" &&
    typeof item.text === "string" &&
    item.text.length <= 100 &&
    (item.value === null || Number.isFinite(item.value)) &&
    typeof item.right === "boolean" &&
    typeof item.revealed === "boolean" &&
    typeof item.hinted === "boolean" &&
    VERDICTS.has(item.verdict) &&
    !(item.revealed && item.right)
  );
}
