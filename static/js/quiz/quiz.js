/**
 * The quiz panel ("Predict, then see", SPEC.md §10): at every backward frame with
 * `+=`s, before the numbers show, the learner types each child's gradient after its
 * `+=`, one question at a time. The player asks `limit(k)` before it moves and draws
 * `mask(state)` instead of the frame's state, so nothing on screen gives the answer
 * away; this module draws the question, the feedback, the score and, at the end,
 * the summary. Pure logic lives in quiz-state.js and answer-parse.js.
 *
 * Test hooks: quiz-prompt (with data-node-id, visible while a question waits),
 * quiz-answer, quiz-submit, quiz-reveal, quiz-feedback (data-correct), quiz-score
 * (`right / asked`). Each closed question is reported as
 * `{type: "backprop-animator:quiz", right, asked, total, question, answer, revealed}`
 * through `report`: the score so far, then which question closed (its 0-based index in
 * the trace's questions) and what was given (the number, or null for Show me).
 * State is kept in session storage per program and options, so a reload resumes.
 */
import { isClose, judgeAnswer, parseAnswer, wrongFactors } from "./answer-parse.js";
import { formatValue } from "../player/format.js";
import {
  isLeftOut,
  limitFrame,
  maskFrame,
  missedQuestions,
  openQuestionAt,
  pendingQuestion,
  questionsOf,
  recordAnswer,
  restoreState,
  scoreOf,
  startQuiz,
  storageKey,
} from "./quiz-state.js";
import { attribute, gradName, localSymbol } from "../player/rule-text.js";
import { html, svg } from "../player/svg.js";
import { sourceLines as splitSourceLines } from "../player/source-position.js";

export const MESSAGE_TYPE = "backprop-animator:quiz";
/** The summary lists this many steps to revisit; it says how many more there are. */
const MOST_MISSED_LISTED = 8;
let serial = 0;

/**
 * @typedef {import("./quiz-state.js").Question} Question
 * @typedef {import("./quiz-state.js").QuizState} QuizState
 * @typedef {{type: string, right: number, asked: number, total: number, question: number,
 *   answer: number | null, revealed: boolean}} QuizReport
 * question: the closed question's index (Question.index); answer: the number the learner
 * gave (null when they pressed Show me, revealed true).
 * @typedef {{
 *   frameLink?: (frame: number) => string,
 *   report?: (message: QuizReport) => void,
 *   storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null,
 * }} QuizOptions
 * frameLink: a permalink of a frame, for the summary's links (absent: buttons that seek).
 * report: where scores go (default: the parent window, when the player is framed).
 * storage: where the state survives a reload (default: sessionStorage, when allowed).
 */

/** Post a score to the page that frames this one, if any (LMS wrappers listen). */
export function reportToParent(/** @type {QuizReport} */ message) {
  if (globalThis.parent && globalThis.parent !== globalThis.window)
    globalThis.parent.postMessage(message, "*");
}

/** sessionStorage, or null where the page may not use it (sandboxed frames, privacy modes). */
function sessionStore() {
  try {
    const store = globalThis.sessionStorage;
    store.getItem(MESSAGE_TYPE);
    return store;
  } catch {
    return null;
  }
}

/**
 * @param {HTMLElement} container
 * @param {QuizOptions & {
 *   timeline: import("../passes/timeline.js").Timeline, names: string[], frame: number, stage: HTMLElement,
 *   seek: (frame: number) => void, onChange: () => void,
 * }} options  frame: where the player opens; stage: the graph, for pointing at nodes
 */
export function mountQuiz(
  container,
  {
    timeline,
    names,
    frame,
    stage,
    seek,
    onChange,
    frameLink,
    report = reportToParent,
    storage = sessionStore(),
  },
) {
  const { trace } = timeline;
  // The gradient's attribute as a learner's own class names it (`gradient`), else `grad`.
  const grad = gradName(trace);
  // The bug lab's assign engine writes each gradient with = where += belongs: ask about that.
  const write = trace.mistake === "assign" ? "=" : "+=";
  const sourceLines = splitSourceLines(trace.source);
  const questions = questionsOf(trace);
  const key = storageKey(trace, questions);
  /** @type {QuizState} */
  let state = restoreState(read(), questions) ?? startQuiz(questions, frame);
  let revision = 0;
  let hinted = false;
  /** @type {Question | null} */
  let shownQuestion = null;
  let feedbackFrame = -1; // the frame of the question the feedback is about
  let summaryKey = ""; // what the summary holds now: "reserved", or "done:" and a revision
  const id = `quiz-${++serial}`;
  const nameOf = (/** @type {string} */ nodeId) =>
    names[/** @type {number} */ (timeline.indexOf.get(nodeId))];

  const score = html("span", { class: "quiz-score", "data-testid": "quiz-score" });
  const outOf = html("span", { class: "quiz-total" });
  const question = html("p", { class: "quiz-question", id: `${id}-question` });
  const answerLabel = html("label", { for: `${id}-answer`, class: "quiz-answer-label" });
  const answer = html("input", {
    id: `${id}-answer`,
    type: "text",
    class: "quiz-answer",
    "data-testid": "quiz-answer",
    autocomplete: "off",
    spellcheck: "false",
    autocapitalize: "off",
    enterkeyhint: "done",
    // The question, and any complaint about the input; never the hint, which would give it away.
    "aria-describedby": `${id}-question ${id}-error`,
    placeholder: "e.g. -1.5, .5 or 1/2",
  });
  const submit = html("button", {
    type: "submit",
    class: "text-button quiz-submit",
    "data-testid": "quiz-submit",
    text: "Check",
  });
  const hintButton = html("button", {
    type: "button",
    class: "text-button quiz-hint-button",
    "aria-expanded": "false",
    "aria-controls": `${id}-hint`,
    text: "Hint",
  });
  const reveal = html("button", {
    type: "button",
    class: "text-button quiz-reveal",
    "data-testid": "quiz-reveal",
    text: "Show me",
  });
  const inputError = html("p", {
    class: "quiz-input-error",
    "data-testid": "quiz-input-error",
    id: `${id}-error`,
    role: "alert",
  });
  const hint = html("div", {
    class: "quiz-hint",
    "data-testid": "quiz-hint",
    id: `${id}-hint`,
    hidden: true,
  });
  const waitNote = html("p", {
    class: "quiz-wait",
    text: "The player waits here until you answer or press Show me.",
  });
  const prompt = html(
    "form",
    {
      class: "quiz-prompt",
      "data-testid": "quiz-prompt",
      "aria-labelledby": `${id}-question`,
      hidden: true,
      novalidate: true,
    },
    [
      question,
      html("div", { class: "quiz-row" }, [answerLabel, answer, submit]),
      inputError,
      html("div", { class: "quiz-row quiz-help" }, [hintButton, reveal]),
      hint,
      waitNote,
    ],
  );
  const feedback = html("div", {
    class: "quiz-feedback",
    "data-testid": "quiz-feedback",
    role: "status",
    tabindex: -1,
    hidden: true,
  });
  const review = html("div", { class: "quiz-review", "data-testid": "quiz-review", hidden: true });
  const summary = html("div", { class: "quiz-summary is-reserved", "data-testid": "quiz-summary" });
  // Between questions (and before the first, all the build long) the panel held only its
  // reserved room, empty: say where the next question is.
  const upNext = html("p", { class: "quiz-next", "data-testid": "quiz-next", hidden: true });
  // The prompt and the summary share one place: while questions remain, the summary is
  // laid out unseen with the longest it can be, so that the page (a course page's iframe
  // most of all) does not grow when the quiz ends.
  const section = html("section", { class: "quiz", "aria-labelledby": `${id}-title` }, [
    html("div", { class: "quiz-head" }, [
      html("h2", { class: "panel-title", id: `${id}-title`, text: "Predict, then see" }),
      html("p", { class: "quiz-tally" }, ["Right ", score, outOf]),
    ]),
    feedback,
    review,
    html("div", { class: "quiz-stack" }, [prompt, summary, upNext]),
  ]);
  section.dataset.testid = "quiz";
  container.replaceChildren(section);

  prompt.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!shownQuestion) return;
    const parsed = parseAnswer(answer.value);
    if ("message" in parsed) {
      answer.setAttribute("aria-invalid", "true");
      inputError.textContent = parsed.message;
      answer.focus();
      return;
    }
    const factors = factorsOf(shownQuestion);
    const judged = judgeAnswer(
      parsed.value,
      shownQuestion.step,
      factors.map((f) => f.value),
    );
    close(
      shownQuestion,
      {
        text: answer.value.trim().slice(0, 100),
        value: parsed.value,
        right: judged.verdict === "right",
        revealed: false,
        hinted,
        verdict: judged.verdict,
      },
      factors.find((f) => f.value === judged.factor),
    );
  });
  reveal.addEventListener("click", () => {
    if (shownQuestion)
      close(shownQuestion, {
        text: "",
        value: null,
        right: false,
        revealed: true,
        hinted,
        verdict: "revealed",
      });
  });
  hintButton.addEventListener("click", () => {
    hint.hidden = !hint.hidden;
    hintButton.setAttribute("aria-expanded", String(!hint.hidden));
    if (!hint.hidden) hinted = true;
  });
  answer.addEventListener("input", () => {
    answer.removeAttribute("aria-invalid");
    inputError.textContent = "";
  });

  /**
   * @param {Question} q
   * @param {import("./quiz-state.js").Answer} given
   * @param {{value: number, what: string}} [factor]
   */
  function close(q, given, factor) {
    state = recordAnswer(questions, state, q.index, given);
    save();
    const tally = scoreOf(questions, state);
    feedbackFrame = q.frame;
    feedback.hidden = false;
    feedback.dataset.correct = String(given.right);
    feedback.textContent = feedbackText(q, given, factor);
    answer.value = "";
    hinted = false;
    revision += 1;
    onChange();
    report({
      type: MESSAGE_TYPE,
      right: tally.right,
      asked: tally.asked,
      total: tally.total,
      question: q.index,
      answer: given.revealed ? null : given.value,
      revealed: given.revealed,
    });
  }

  /** The numbers a learner may have multiplied by instead of the local derivative. */
  function factorsOf(/** @type {Question} */ q) {
    const node = /** @type {number} */ (timeline.indexOf.get(q.node));
    const value = (/** @type {number} */ i) => ({ name: names[i], data: trace.nodes[i].data });
    const child = /** @type {number} */ (timeline.indexOf.get(q.to));
    const other = timeline.operands[node].find((i) => i !== child);
    return wrongFactors(
      trace.ops,
      trace.nodes[node].op,
      value(child),
      value(node),
      other === undefined ? null : value(other),
    );
  }

  /**
   * @param {Question} q
   * @param {import("./quiz-state.js").Answer} given
   * @param {{value: number, what: string}} [factor]
   */
  function feedbackText(q, given, factor) {
    const { local, upstream, delta, before, after } = q.step;
    const child = attribute(nameOf(q.to), grad);
    const parent = attribute(nameOf(q.node), grad);
    // An engine that overwrites instead of adding (the bug lab's assign, or a learner's
    // own rule that writes `=`, SPEC §14) drops `before`; a `-=` adds its delta (its
    // local is minus the factor it subtracts).
    const adds = q.step.write
      ? q.step.write !== "="
      : isClose(before + delta, after) || before === 0;
    // A learner's write whose factor cannot be read off their code shows its amount.
    const term =
      local === null
        ? formatValue(adds ? delta : after)
        : `${formatValue(local)} × ${formatValue(upstream)}`;
    const sum =
      adds && before !== 0
        ? `${formatValue(before)} + ${term} = ${formatValue(after)}`
        : `${term} = ${formatValue(after)}${adds || before === 0 ? "" : ` (this engine writes = instead of +=, so the ${formatValue(before)} it held is lost)`}`;
    if (given.revealed) return `Shown: ${child} becomes ${sum}. This one counts as not right.`;
    if (given.right) return `Right: ${child} becomes ${sum}.`;
    const why =
      {
        "forgot-before": `That is this += alone (${formatValue(delta)}): ${child} already held ${formatValue(before)}, and += adds to it.`,
        "forgot-upstream": `That leaves out the upstream gradient: the chain rule multiplies the local derivative by ${parent} = ${formatValue(upstream)}.`,
        "forgot-local": `That passes ${parent} on unchanged; this rule first multiplies it by ${local === null ? "a factor" : `the local derivative ${formatValue(local)}`}.`,
        sign: "The sign is flipped.",
        "wrong-factor": `That multiplies by ${factor ? `${factor.what} = ${formatValue(factor.value)}` : "another number"}; ${local === null ? "this rule multiplies by another factor" : `the local derivative here is ${formatValue(local)}`}.`,
        unchanged: `That is ${child} before this +=, which adds ${formatValue(delta)} to it.`,
        added: "You added, as a correct engine would.",
        other: "",
      }[/** @type {string} */ (given.verdict)] ?? "";
    return `Not quite: you said ${given.text}, and ${child} becomes ${sum}. ${why}`.trim();
  }

  function read() {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  function save() {
    try {
      storage?.setItem(key, JSON.stringify(state));
    } catch {
      // A full or refused store only costs the resume after a reload.
    }
  }

  function restart() {
    state = startQuiz(questions, 0);
    save();
    feedback.hidden = true;
    delete feedback.dataset.correct;
    feedback.textContent = "";
    revision += 1;
    seek(0);
    onChange();
  }

  /** @param {Question} q */
  function askText(q) {
    const node = trace.nodes[/** @type {number} */ (timeline.indexOf.get(q.node))];
    const position = questions.filter(
      (other) => other.index <= q.index && other.frame >= state.startFrame,
    ).length;
    const count = questions.filter((other) => other.frame >= state.startFrame).length;
    return `Question ${position} of ${count}: ${nameOf(q.node)} (${node.op}) runs its rule. What is ${attribute(nameOf(q.to), grad)} after its ${q.step.write ?? write}?`;
  }

  /** @param {Question} q */
  function hintText(q) {
    const node = trace.nodes[/** @type {number} */ (timeline.indexOf.get(q.node))];
    const siblings = questions.filter((other) => other.frame === q.frame);
    const other = siblings.length === 2 ? nameOf(siblings[1 - q.position].to) : nameOf(q.to);
    const child = attribute(nameOf(q.to), grad);
    // A learner's own rule (SPEC §14) is quoted from their code, with their `=` or `+=`.
    const own = q.step.line ? (sourceLines[q.step.line - 1] ?? "").trim() : "";
    const written = q.step.write ?? write;
    const local = q.step.local === null ? "not read off the code" : formatValue(q.step.local);
    return [
      html("p", {}, [
        own ? `The rule, line ${q.step.line}: ` : "The rule: ",
        html("code", {
          text:
            own ||
            `${child} ${written} ${localSymbol(trace.ops, node.op, nameOf(q.node), nameOf(q.to), other)} × ${attribute(nameOf(q.node), grad)}`,
        }),
      ]),
      html("p", {
        text: `Local derivative: ${local}. Upstream gradient ${attribute(nameOf(q.node), grad)}: ${formatValue(q.step.upstream)}. ${child} before this ${written}: ${formatValue(q.step.before)}.`,
      }),
    ];
  }

  /** Point at the child asked about in the picture (the rule's node is already marked active). */
  function point(/** @type {Question | null} */ q) {
    for (const marked of stage.querySelectorAll("[data-quiz]")) marked.removeAttribute("data-quiz");
    for (const marker of stage.querySelectorAll(".quiz-marker")) marker.remove();
    if (!q) return;
    const target = stage.querySelector(`[data-node-id="${CSS.escape(q.to)}"]`);
    if (!target) return;
    target.setAttribute("data-quiz", "asked");
    const width = Number(target.querySelector(".node-box")?.getAttribute("width") ?? 0);
    const marker = svg(
      "g",
      { class: "quiz-marker", transform: `translate(${width},0)`, "aria-hidden": "true" },
      /** @type {SVGElement} */ (target),
    );
    svg("circle", { r: 10 }, marker);
    svg("text", { dy: "0.35em" }, marker).textContent = "?";
  }

  /** @param {number} k */
  function drawReview(k) {
    const closed = questions.filter((q) => q.frame === k && state.answers[q.index] !== null);
    review.hidden = closed.length === 0;
    review.replaceChildren(
      ...closed.map((q) => {
        const given = /** @type {import("./quiz-state.js").Answer} */ (state.answers[q.index]);
        const child = attribute(nameOf(q.to), grad);
        const said = given.revealed ? "you pressed Show me" : `you said ${given.text}`;
        return html(
          "p",
          { class: given.right ? "quiz-review-item is-right" : "quiz-review-item is-wrong" },
          [
            html("span", {
              class: "quiz-mark",
              "aria-hidden": "true",
              text: given.right ? "✓" : "✗",
            }),
            `${child}: ${said}; it is ${formatValue(q.step.after)}${given.right ? " (right)" : ""}${given.hinted ? ", with the hint" : ""}.`,
          ],
        );
      }),
    );
  }

  function drawSummary() {
    const done = scoreOf(questions, state).done;
    summary.classList.toggle("is-reserved", !done);
    summary.toggleAttribute("inert", !done);
    if (done) summary.removeAttribute("aria-hidden");
    else summary.setAttribute("aria-hidden", "true");
    const key = done ? `done:${revision}` : `reserved:${state.startFrame}`;
    if (key === summaryKey) return;
    summaryKey = key;
    // Until the end: the summary of every question missed, the longest there is.
    const worst = {
      ...state,
      answers: questions.map((q) =>
        isLeftOut(state, q)
          ? null
          : {
              text: "\u22120.0000",
              value: 0,
              right: false,
              revealed: false,
              hinted: false,
              verdict: /** @type {const} */ ("revealed"),
            },
      ),
    };
    summary.replaceChildren(...summaryParts(done ? state : worst));
  }

  /** @param {import("./quiz-state.js").QuizState} shownState */
  function summaryParts(shownState) {
    const tally = scoreOf(questions, shownState);
    const missed = missedQuestions(questions, shownState);
    /** @type {HTMLElement[]} */
    const parts = [
      html("h3", { text: questions.length === 0 ? "Nothing to predict" : "Quiz done" }),
    ];
    if (questions.length === 0) {
      parts.push(
        html("p", {
          text: "No rule in this program adds to a gradient, so there is nothing to ask.",
        }),
      );
    } else {
      const leftOut = tally.leftOut
        ? ` The ${tally.leftOut} question${tally.leftOut === 1 ? "" : "s"} before frame ${state.startFrame + 1}, where the quiz opened, were not asked.`
        : "";
      parts.push(html("p", { text: `You got ${tally.right} of ${tally.asked} right.${leftOut}` }));
      if (missed.length) {
        parts.push(html("p", { text: "Steps to revisit:" }));
        const more = missed.length - MOST_MISSED_LISTED;
        // In a box that scrolls: the card keeps the summary's room all along, and a
        // phone kept some 650 px of blank under every question for the full list.
        parts.push(
          html("div", { class: "quiz-missed-box" }, [
            html(
              "ul",
              { class: "quiz-missed" },
              missed.slice(0, MOST_MISSED_LISTED).map((q) => {
                const given = /** @type {import("./quiz-state.js").Answer} */ (
                  shownState.answers[q.index]
                );
                const what = `Frame ${q.frame + 1}: ${attribute(nameOf(q.to), grad)} after ${nameOf(q.node)}'s rule is ${formatValue(q.step.after)}`;
                const said = given.revealed ? " (shown)" : ` (you said ${given.text})`;
                const go = frameLink
                  ? html("a", { href: frameLink(q.frame), text: what })
                  : html("button", { type: "button", class: "link-button", text: what });
                go.addEventListener("click", (event) => {
                  event.preventDefault();
                  seek(q.frame);
                });
                return html("li", {}, [go, said]);
              }),
            ),
          ]),
        );
        if (more > 0)
          parts.push(
            html("p", {
              text: `and ${more} more: the steps after frame ${missed[MOST_MISSED_LISTED - 1].frame + 1}.`,
            }),
          );
      }
      const again = html("button", {
        type: "button",
        class: "text-button",
        text: "Start the quiz again",
      });
      again.addEventListener("click", restart);
      parts.push(again);
    }
    return parts;
  }

  return {
    questions,
    get state() {
      return state;
    },
    /** A number that changes whenever what the player must draw changes. */
    get revision() {
      return revision;
    },
    /** @param {number} k */
    limit: (k) => limitFrame(questions, state, k),
    /** @param {number} k */
    isOpenAt: (k) => openQuestionAt(questions, state, k) !== null,
    /**
     * @template {import("../passes/timeline.js").FrameState} S
     * @param {S} frameState
     * @returns {S}
     */
    mask(frameState) {
      const open = openQuestionAt(questions, state, frameState.index);
      if (!open) return frameState;
      const text = `${nameOf(open.node)} runs its rule. Predict each gradient it adds to before the numbers show.`;
      return maskFrame(
        frameState,
        questions,
        state,
        (to) => /** @type {number} */ (timeline.indexOf.get(to)),
        text,
      );
    },
    /**
     * Draw the quiz for the frame on screen.
     * @param {import("../passes/timeline.js").FrameState} frameState
     * @param {{focus?: boolean}} [options]  focus: move focus to a question that has just opened
     */
    update(frameState, { focus = false } = {}) {
      const tally = scoreOf(questions, state);
      score.textContent = `${tally.right} / ${tally.asked}`;
      outOf.textContent = ` · ${tally.total} question${tally.total === 1 ? "" : "s"}`;
      const open = openQuestionAt(questions, state, frameState.index);
      const opened = open !== null && open !== shownQuestion;
      const hadQuestion = shownQuestion !== null;
      shownQuestion = open;
      // The feedback on the last rule's question goes when the next rule's opens.
      if (opened && open.frame !== feedbackFrame) {
        feedback.hidden = true;
        delete feedback.dataset.correct;
        feedback.textContent = "";
      }
      prompt.hidden = !open;
      if (open) {
        prompt.dataset.nodeId = open.to;
        if (opened) {
          question.textContent = askText(open);
          answerLabel.textContent = `${attribute(nameOf(open.to), grad)} =`;
          hint.replaceChildren(...hintText(open));
          hint.hidden = true;
          hintButton.setAttribute("aria-expanded", "false");
          inputError.textContent = "";
          answer.removeAttribute("aria-invalid");
          if (focus || hadQuestion) answer.focus();
        }
      } else {
        delete prompt.dataset.nodeId;
        // Focus was on the prompt, now hidden: keep it in the quiz (a shadow root has its own).
        const active = /** @type {Document | ShadowRoot} */ (section.getRootNode()).activeElement;
        if (
          hadQuestion &&
          (active === null || active === document.body || section.contains(active))
        )
          feedback.focus();
      }
      const next = open ? null : pendingQuestion(questions, state);
      upNext.hidden = !next;
      if (next)
        upNext.textContent = `${tally.asked ? "The next question" : "The first question"} is at frame ${next.frame + 1}: press \u2192 or Play to go on.`;
      point(open);
      drawReview(frameState.index);
      drawSummary();
    },
    /** The learner tried to go past the open question: bring it into view and focus. */
    nudge() {
      if (!shownQuestion) return;
      answer.focus();
      prompt.classList.remove("is-nudged");
      void prompt.offsetWidth;
      prompt.classList.add("is-nudged");
    },
  };
}
