import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
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
} from "../../static/js/quiz/quiz-state.js";
import { judgeAnswer } from "../../static/js/quiz/answer-parse.js";
import { stateAt, createTimeline } from "../../static/js/passes/timeline.js";
import { fixture } from "./helpers.mjs";

const neuron = fixture("neuron.json");
const right = {
  text: "1",
  value: 1,
  right: true,
  revealed: false,
  hinted: false,
  verdict: "right",
};
const wrong = {
  text: "7",
  value: 7,
  right: false,
  revealed: false,
  hinted: false,
  verdict: "other",
};
const shown = {
  text: "",
  value: null,
  right: false,
  revealed: true,
  hinted: false,
  verdict: "revealed",
};

/** Answer the next `count` questions with `answer`. */
function answerNext(questions, state, count, answer = right) {
  for (let i = 0; i < count; i++)
    state = recordAnswer(questions, state, pendingQuestion(questions, state).index, answer);
  return state;
}

describe("questionsOf", () => {
  it("asks the article's neuron 9 questions, one per +=, for the contribution's after", () => {
    const questions = questionsOf(neuron);
    assert.equal(questions.length, 9);
    assert.deepEqual(
      questions.map((q) => q.frame),
      [6, 7, 7, 9, 9, 10, 10, 13, 13],
    );
    assert.deepEqual(
      questions.map((q) => q.to),
      ["n8", "n7", "n4", "n5", "n6", "n1", "n3", "n0", "n2"],
    );
    assert.equal(questions[7].step.after, -1.4999999999999993);
    assert.equal(questions[8].node, "n5");
  });
  it("asks the expanded neuron 18 questions and a + a two about the same child", () => {
    assert.equal(questionsOf(fixture("neuron-expanded.json")).length, 18);
    const twice = questionsOf(fixture("a-plus-a.json"));
    assert.deepEqual(
      twice.map((q) => [q.to, q.step.after]),
      [
        ["n0", 1],
        ["n0", 2],
      ],
    );
  });
});

describe("a quiz on a mistaken engine (the bug lab)", () => {
  it("asks for what that engine computed: with assign, a + a ends at 1, not 2", () => {
    const trace = structuredClone(fixture("a-plus-a.json"));
    // SPEC §8: under `assign` every rule writes local × upstream, so after = delta.
    for (const frame of trace.frames) for (const c of frame.contributions ?? []) c.after = c.delta;
    trace.mistake = "assign";
    const [, second] = questionsOf(trace);
    assert.equal(second.step.after, 1);
    assert.equal(judgeAnswer(1, second.step).verdict, "right");
    assert.notEqual(judgeAnswer(2, second.step).verdict, "right");
    assert.notEqual(
      storageKey(trace, questionsOf(trace)),
      storageKey(fixture("a-plus-a.json"), questionsOf(trace)),
    );
  });
});

describe("the gate", () => {
  const questions = questionsOf(neuron);
  it("stops the player at the first frame with a question still waiting", () => {
    let state = startQuiz(questions, 0);
    assert.equal(limitFrame(questions, state, 15), 6);
    assert.equal(limitFrame(questions, state, 3), 3);
    assert.equal(openQuestionAt(questions, state, 6)?.to, "n8");
    assert.equal(openQuestionAt(questions, state, 5), null);
    state = answerNext(questions, state, 2);
    assert.equal(limitFrame(questions, state, 15), 7, "frame 7 still has b's question");
    assert.equal(openQuestionAt(questions, state, 7)?.to, "n4");
    state = answerNext(questions, state, 1);
    assert.equal(limitFrame(questions, state, 15), 9, "frame 8 is a leaf: nothing to ask");
  });
  it("lets the player go anywhere once every question is closed", () => {
    const state = answerNext(questions, startQuiz(questions, 0), 9, shown);
    assert.equal(pendingQuestion(questions, state), null);
    assert.equal(limitFrame(questions, state, 15), 15);
  });
  it("only takes the answer to the question that waits", () => {
    const state = startQuiz(questions, 0);
    assert.throws(
      () => recordAnswer(questions, state, 3, right),
      /question 3 is not the one waiting/,
    );
    const done = answerNext(questions, state, 9);
    assert.throws(() => recordAnswer(questions, done, 8, right), /not the one waiting/);
  });
  it("leaves out the questions before the frame a quiz opens at", () => {
    const state = startQuiz(questions, 10);
    assert.equal(limitFrame(questions, state, 15), 10);
    assert.equal(openQuestionAt(questions, state, 10)?.to, "n1");
    assert.deepEqual(scoreOf(questions, state), {
      right: 0,
      asked: 0,
      total: 9,
      leftOut: 5,
      done: false,
    });
  });
});

describe("scoreOf and missedQuestions", () => {
  it("counts right over asked, with Show me counted as asked and not right", () => {
    const questions = questionsOf(neuron);
    let state = startQuiz(questions, 0);
    assert.deepEqual(scoreOf(questions, state), {
      right: 0,
      asked: 0,
      total: 9,
      leftOut: 0,
      done: false,
    });
    state = answerNext(questions, state, 1, right);
    state = answerNext(questions, state, 1, wrong);
    state = answerNext(questions, state, 1, shown);
    assert.deepEqual(scoreOf(questions, state), {
      right: 1,
      asked: 3,
      total: 9,
      leftOut: 0,
      done: false,
    });
    assert.deepEqual(
      missedQuestions(questions, state).map((q) => q.to),
      ["n7", "n4"],
    );
    state = answerNext(questions, state, 6);
    assert.deepEqual(scoreOf(questions, state), {
      right: 7,
      asked: 9,
      total: 9,
      leftOut: 0,
      done: true,
    });
  });
});

describe("maskFrame", () => {
  const timeline = createTimeline(neuron);
  const questions = questionsOf(neuron);
  const indexOf = (id) => timeline.indexOf.get(id);
  it("hides the waiting children's new gradients and the frame's numbers", () => {
    const state = answerNext(questions, startQuiz(questions, 0), 1);
    const frame = stateAt(timeline, 7);
    const masked = maskFrame(frame, questions, state, indexOf, "your turn");
    assert.equal(masked.grads[indexOf("n7")], 0);
    assert.equal(masked.grads[indexOf("n4")], 0);
    assert.equal(
      masked.grads[indexOf("n8")],
      0.4999999999999998,
      "the upstream gradient stays shown",
    );
    assert.deepEqual(masked.contributions, []);
    assert.equal(masked.text, "your turn");
    assert.equal(frame.final[indexOf("n4")], 1, "b's grad is final at frame 7…");
    assert.equal(masked.final[indexOf("n4")], 0, "…but not shown as final while asked about");
    assert.equal(
      frame.grads[indexOf("n7")],
      0.4999999999999998,
      "the frame's own state is left alone",
    );
  });
  it("shows each += as soon as its question is closed", () => {
    let state = answerNext(questions, startQuiz(questions, 0), 2);
    const masked = maskFrame(stateAt(timeline, 7), questions, state, indexOf, "your turn");
    assert.equal(masked.grads[indexOf("n7")], 0.4999999999999998);
    assert.equal(masked.grads[indexOf("n4")], 0);
    assert.deepEqual(
      masked.contributions.map((c) => c.to),
      ["n7"],
    );
    state = answerNext(questions, state, 1);
    const open = stateAt(timeline, 7);
    assert.equal(maskFrame(open, questions, state, indexOf, "your turn"), open);
  });
  it("keeps a child's earlier += in the same frame when it gets two (a + a)", () => {
    const trace = fixture("a-plus-a.json");
    const t = createTimeline(trace);
    const qs = questionsOf(trace);
    const state = answerNext(qs, startQuiz(qs, 0), 1);
    const masked = maskFrame(stateAt(t, 2), qs, state, (id) => t.indexOf.get(id), "");
    assert.equal(masked.grads[t.indexOf.get("n0")], 1, "after the first += and before the second");
    const fresh = maskFrame(stateAt(t, 2), qs, startQuiz(qs, 0), (id) => t.indexOf.get(id), "");
    assert.equal(fresh.grads[t.indexOf.get("n0")], 0);
  });
  it("leaves frames other than the open question's alone", () => {
    const state = startQuiz(questions, 0);
    const before = stateAt(timeline, 5);
    assert.equal(maskFrame(before, questions, state, indexOf, "x"), before);
  });
});

describe("storage", () => {
  const questions = questionsOf(neuron);
  it("gives one key per program and options", () => {
    const key = storageKey(neuron, questions);
    assert.match(key, /^backprop-animator:quiz:[0-9a-f]{8}$/);
    assert.equal(storageKey(structuredClone(neuron), questions), key);
    assert.notEqual(storageKey({ ...neuron, source: `${neuron.source} ` }, questions), key);
    assert.notEqual(storageKey({ ...neuron, granularity: "expanded" }, questions), key);
    assert.notEqual(storageKey({ ...neuron, mistake: "assign" }, questions), key);
  });
  it("round-trips a state through JSON", () => {
    const state = answerNext(
      questions,
      answerNext(questions, startQuiz(questions, 0), 2, wrong),
      1,
      shown,
    );
    assert.deepEqual(restoreState(JSON.stringify(state), questions), state);
  });
  it("starts afresh from missing, damaged or edited data", () => {
    const good = JSON.parse(JSON.stringify(answerNext(questions, startQuiz(questions, 0), 2)));
    const variants = [
      null,
      "",
      "{",
      "null",
      "[]",
      "5",
      JSON.stringify({ ...good, version: 2 }),
      JSON.stringify({ ...good, answers: good.answers.slice(1) }),
      JSON.stringify({ ...good, startFrame: -1 }),
      JSON.stringify({ ...good, startFrame: "0" }),
      JSON.stringify({
        ...good,
        answers: [null, ...good.answers.slice(1, 2), null, right, ...good.answers.slice(4)],
      }),
      JSON.stringify({ ...good, answers: [{ ...right, right: "yes" }, ...good.answers.slice(1)] }),
      JSON.stringify({
        ...good,
        answers: [{ ...right, verdict: "<img>" }, ...good.answers.slice(1)],
      }),
      JSON.stringify({
        ...good,
        answers: [{ ...right, text: "x".repeat(101) }, ...good.answers.slice(1)],
      }),
      JSON.stringify({ ...good, answers: [{ ...shown, right: true }, ...good.answers.slice(1)] }),
      JSON.stringify({ ...good, startFrame: 7 }),
      "x".repeat(300_000),
    ];
    for (const text of variants)
      assert.equal(restoreState(text, questions), null, String(text).slice(0, 80));
    assert.notEqual(restoreState(JSON.stringify(good), questions), null);
  });
});
