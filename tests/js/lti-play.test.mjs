import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  createScoreQueue,
  frameResizeMessage,
  GradeError,
  gradeErrorText,
  gradeStatusText,
  playSearch,
  postScore,
  readLaunch,
  scoreBody,
  scopedStorage,
} from "../../static/js/hosts/lti-grades.js";

const LAUNCH = {
  id: "L1",
  search: "?source=a&quiz=1",
  grading: true,
  score_url: "/lti/score",
  instructor: false,
  note: null,
};
const RESULT = { right: 3, asked: 4, total: 9, posted: true, message: "" };

/** A fetch that answers each call from a list: a Response-like object or an error to throw. */
function fakeFetch(answers) {
  const calls = [];
  const send = async (url, init) => {
    calls.push({ url, init, body: JSON.parse(init.body) });
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  };
  return { send, calls };
}

const reply = (status, data) => ({
  ok: status >= 200 && status < 300,
  status,
  json: async () => {
    if (data === undefined) throw new SyntaxError("not JSON");
    return data;
  },
});

describe("readLaunch", () => {
  it("reads the server's JSON block", () => {
    assert.deepEqual(readLaunch(JSON.stringify(LAUNCH)), LAUNCH);
  });
  it("fills what is missing and ignores what is not the right type", () => {
    assert.deepEqual(readLaunch('{"id": "x", "grading": "yes", "note": ""}'), {
      id: "x",
      search: "",
      grading: false,
      score_url: "/lti/score",
      instructor: false,
      note: null,
    });
  });
  it("refuses a page without a launch", () => {
    assert.throws(() => readLaunch(""), TypeError);
    assert.throws(() => readLaunch("[1]"), TypeError);
  });
});

describe("playSearch", () => {
  it("keeps the server's options and drops the frame of a graded launch", () => {
    assert.equal(
      playSearch({ search: "?source=a&frame=9&quiz=1&mistake=assign", grading: true }),
      "?source=a&quiz=1&mistake=assign",
    );
  });
  it("leaves an ungraded launch's frame alone", () => {
    assert.equal(playSearch({ search: "?source=a&frame=9", grading: false }), "?source=a&frame=9");
  });
  it("gives an empty query for an empty search", () => {
    assert.equal(playSearch({ search: "", grading: true }), "");
  });
});

describe("scoreBody", () => {
  it("posts the question's index and the number given", () => {
    assert.deepEqual(scoreBody("L1", { question: 2, answer: 0.5, revealed: false }), {
      launch: "L1",
      question: 2,
      answer: 0.5,
    });
  });
  it("posts null for Show me", () => {
    assert.deepEqual(scoreBody("L1", { question: 0, answer: null, revealed: true }), {
      launch: "L1",
      question: 0,
      answer: null,
    });
  });
});

describe("postScore", () => {
  it("posts JSON without credentials and returns the server's answer", async () => {
    const { send, calls } = fakeFetch([reply(200, RESULT)]);
    const result = await postScore(
      "/lti/score",
      { launch: "L1", question: 0, answer: 1 },
      { fetch: send },
    );
    assert.deepEqual(result, RESULT);
    assert.equal(calls[0].url, "/lti/score");
    assert.equal(calls[0].init.method, "POST");
    assert.equal(calls[0].init.credentials, "omit");
    assert.equal(calls[0].init.headers["content-type"], "application/json");
    assert.deepEqual(calls[0].body, { launch: "L1", question: 0, answer: 1 });
  });
  it("turns the app's error shape into the error's message", async () => {
    const { send } = fakeFetch([
      reply(409, { error: { message: "This launch has ended.", line: null, column: null } }),
    ]);
    await assert.rejects(postScore("/lti/score", {}, { fetch: send }), (error) => {
      assert.ok(error instanceof GradeError);
      assert.equal(error.message, "This launch has ended.");
      assert.equal(error.status, 409);
      assert.equal(error.network, false);
      return true;
    });
  });
  it("says the status when an error is not the app's JSON", async () => {
    const { send } = fakeFetch([reply(502)]);
    await assert.rejects(postScore("/lti/score", {}, { fetch: send }), /HTTP 502/);
  });
  it("marks a failed connection as a network error", async () => {
    const { send } = fakeFetch([new TypeError("Failed to fetch")]);
    await assert.rejects(
      postScore("/lti/score", {}, { fetch: send }),
      (error) => error instanceof GradeError && error.network,
    );
  });
});

describe("createScoreQueue", () => {
  it("sends one post at a time, in the order pushed", async () => {
    const log = [];
    const releases = [];
    let active = 0;
    const queue = createScoreQueue({
      send: (body) =>
        new Promise((resolve) => {
          active += 1;
          assert.equal(active, 1, "two posts on their way at once");
          log.push(`send ${body.question}`);
          releases.push(() => {
            active -= 1;
            resolve({ ...RESULT, asked: body.question + 1 });
          });
        }),
      onSending: (body) => log.push(`sending ${body.question}`),
      onResult: (result) => log.push(`result ${result.asked}`),
      onError: () => log.push("error"),
      retryDelayMs: 0,
    });
    const done = [0, 1, 2].map((question) => queue.push({ launch: "L1", question, answer: 1 }));
    assert.equal(queue.pending, 3);
    for (let i = 0; i < 3; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      releases[i]();
    }
    await Promise.all(done);
    assert.equal(queue.pending, 0);
    assert.deepEqual(log, [
      "sending 0",
      "send 0",
      "result 1",
      "sending 1",
      "send 1",
      "result 2",
      "sending 2",
      "send 2",
      "result 3",
    ]);
  });

  it("tries once more after a network error, and then gives up", async () => {
    const { send, calls } = fakeFetch([
      new TypeError("offline"),
      reply(200, RESULT),
      new TypeError("offline"),
      new TypeError("still offline"),
      reply(200, { ...RESULT, asked: 5 }),
    ]);
    const results = [];
    const errors = [];
    const queue = createScoreQueue({
      send: (body) => postScore("/lti/score", body, { fetch: send }),
      onResult: (result) => results.push(result.asked),
      onError: (error) => errors.push(error),
      retryDelayMs: 0,
    });
    queue.push({ launch: "L1", question: 0, answer: 1 });
    queue.push({ launch: "L1", question: 1, answer: 2 });
    await queue.push({ launch: "L1", question: 2, answer: 3 });
    assert.deepEqual(
      calls.map((call) => call.body.question),
      [0, 0, 1, 1, 2],
    );
    assert.deepEqual(results, [4, 5]);
    assert.equal(errors.length, 1);
    assert.ok(errors[0].network);
  });

  it("does not retry an error the server gave", async () => {
    const { send, calls } = fakeFetch([reply(400, { error: { message: "No such question." } })]);
    const errors = [];
    const queue = createScoreQueue({
      send: (body) => postScore("/lti/score", body, { fetch: send }),
      onResult: () => assert.fail("no result"),
      onError: (error) => errors.push(error.message),
      retryDelayMs: 0,
    });
    await queue.push({ launch: "L1", question: 7, answer: 1 });
    assert.equal(calls.length, 1);
    assert.deepEqual(errors, ["No such question."]);
  });

  it("keeps going after a callback throws", async () => {
    const seen = [];
    const queue = createScoreQueue({
      send: async (body) => ({ ...RESULT, asked: body.question }),
      onResult: (result) => {
        seen.push(result.asked);
        if (result.asked === 0) throw new Error("boom");
      },
      onError: () => {},
      retryDelayMs: 0,
    });
    await queue.push({ launch: "L1", question: 0, answer: 1 }).catch(() => {});
    await queue.push({ launch: "L1", question: 1, answer: 1 });
    assert.deepEqual(seen, [0, 1]);
  });
});

describe("the status line", () => {
  it("says the score sent to the course", () => {
    assert.equal(gradeStatusText(RESULT), "Score sent to the course: 3 / 9");
  });
  it("says the server's message when nothing was posted", () => {
    assert.equal(
      gradeStatusText({ ...RESULT, posted: false, message: "Instructors are not graded." }),
      "Instructors are not graded.",
    );
    assert.match(gradeStatusText({ ...RESULT, posted: false, message: "" }), /no score/);
  });
  it("says the server's error, or that the connection failed", () => {
    assert.equal(
      gradeErrorText(new GradeError("This launch has ended.")),
      "This launch has ended.",
    );
    assert.match(
      gradeErrorText(new GradeError("the connection failed (offline)", { network: true })),
      /did not reach the course: the connection failed/,
    );
  });
});

describe("frameResizeMessage", () => {
  it("asks the LMS for a height the way Canvas listens", () => {
    assert.deepEqual(JSON.parse(frameResizeMessage(812.2)), {
      subject: "lti.frameResize",
      height: 813,
    });
  });
});

describe("scopedStorage", () => {
  it("keeps the quiz's keys under the launch's prefix", () => {
    const map = new Map();
    const store = {
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => map.set(key, value),
      removeItem: (key) => map.delete(key),
    };
    const scoped = scopedStorage(store, "lti:L1:");
    scoped.setItem("quiz", "1");
    assert.deepEqual([...map], [["lti:L1:quiz", "1"]]);
    assert.equal(scoped.getItem("quiz"), "1");
    assert.equal(store.getItem("quiz"), null);
    scoped.removeItem("quiz");
    assert.equal(map.size, 0);
  });
  it("is no store where there is none", () => {
    assert.equal(scopedStorage(null, "x"), null);
  });
});
