import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { createPlayback } from "../../static/js/passes/playback.js";

/** A fake clock: schedule() queues, flush() runs the next timer. */
function fakeClock() {
  const queue = [];
  return {
    schedule: (fn, ms) => {
      const handle = { fn, ms };
      queue.push(handle);
      return handle;
    },
    cancel: (handle) => queue.splice(queue.indexOf(handle) >>> 0, 1),
    flush: () => queue.shift()?.fn(),
    get pending() {
      return queue.length;
    },
  };
}

describe("playback", () => {
  it("clamps seeks and steps to the frames that exist", () => {
    const changes = [];
    const p = createPlayback({
      frameCount: 16,
      onChange: (s) => changes.push(s.frame),
      ...fakeClock(),
    });
    p.seek(99);
    p.step(-1);
    p.seek(-5);
    assert.deepEqual(changes, [15, 14, 0]);
  });

  it("plays to the end and stops there", () => {
    const clock = fakeClock();
    const p = createPlayback({ frameCount: 3, onChange: () => {}, ...clock });
    p.play();
    clock.flush();
    clock.flush();
    assert.equal(p.state.frame, 2);
    assert.equal(p.state.playing, false);
    assert.equal(clock.pending, 0);
  });

  it("restarts from the first frame when played at the end", () => {
    const clock = fakeClock();
    const p = createPlayback({ frameCount: 5, frame: 4, onChange: () => {}, ...clock });
    p.play();
    assert.deepEqual([p.state.frame, p.state.playing], [0, true]);
  });

  it("stops playing when the learner seeks", () => {
    const clock = fakeClock();
    const p = createPlayback({ frameCount: 10, onChange: () => {}, ...clock });
    p.toggle();
    p.seek(4);
    assert.deepEqual([p.state.frame, p.state.playing, clock.pending], [4, false, 0]);
  });

  it("plays faster at a higher speed and refuses unknown speeds", () => {
    const clock = fakeClock();
    const p = createPlayback({ frameCount: 10, onChange: () => {}, ...clock });
    const seen = [];
    const schedule = clock.schedule;
    clock.schedule = (fn, ms) => {
      seen.push(ms);
      return schedule(fn, ms);
    };
    const q = createPlayback({ frameCount: 10, onChange: () => {}, ...clock });
    q.setSpeed(2);
    q.play();
    assert.ok(seen[0] < 900);
    assert.throws(() => p.setSpeed(3), /speed must be one of/);
  });

  it("goes no further than its limit by seeking, stepping or playing", () => {
    const clock = fakeClock();
    let gate = 6;
    const p = createPlayback({
      frameCount: 16,
      frame: 12,
      onChange: () => {},
      limit: (k) => Math.min(k, gate),
      ...clock,
    });
    assert.equal(p.state.frame, 6, "a start past the limit stops at it");
    p.seek(15);
    p.step(1);
    assert.equal(p.state.frame, 6);
    p.play();
    assert.deepEqual(
      [p.state.playing, clock.pending],
      [false, 0],
      "nothing to play past the limit",
    );
    p.seek(4);
    p.play();
    clock.flush();
    assert.deepEqual([p.state.frame, p.state.playing], [5, true]);
    clock.flush();
    assert.deepEqual([p.state.frame, p.state.playing], [6, false], "pauses on reaching the limit");
    gate = 16;
    p.step(1);
    assert.equal(p.state.frame, 7, "a lifted limit lets it on");
  });
});
