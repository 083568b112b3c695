/**
 * The one controller that owns playback: which frame is shown, whether it plays,
 * how fast. Every user action (scrubber, keys, buttons, URL) becomes a call here,
 * and every change is reported once through `onChange`. Timers are injected so the
 * logic runs in tests without a browser.
 *
 * Example: const p = createPlayback({frameCount: 16, onChange}); p.seek(99) -> frame 15;
 * p.step(-1) -> frame 14; p.play() at the last frame starts again from frame 0.
 * An optional `limit(k)` caps where the player may go (the quiz's open question):
 * seeks stop at it and playing pauses there.
 */

export const SPEEDS = [0.5, 1, 2, 4];
const BASE_INTERVAL_MS = 900;

/**
 * @typedef {{frame: number, playing: boolean, speed: number, frameCount: number}} PlaybackState
 * @param {{
 *   frameCount: number, frame?: number, onChange: (state: PlaybackState) => void,
 *   schedule?: (fn: () => void, ms: number) => unknown, cancel?: (handle: unknown) => void,
 *   limit?: (k: number) => number
 * }} options
 */
export function createPlayback({
  frameCount,
  frame = 0,
  onChange,
  schedule = (fn, ms) => setTimeout(fn, ms),
  cancel = (handle) => clearTimeout(/** @type {number} */ (handle)),
  limit = (k) => k,
}) {
  /** @type {PlaybackState} */
  let state = { frame: 0, playing: false, speed: 1, frameCount: Math.max(1, frameCount) };
  state.frame = limit(clamp(frame));
  /** @type {unknown} */
  let timer = null;

  /** @param {number} k */
  function clamp(k) {
    if (!Number.isFinite(k)) return 0;
    return Math.max(0, Math.min(state.frameCount - 1, Math.trunc(k)));
  }

  /** @param {Partial<PlaybackState>} change */
  function set(change) {
    const next = { ...state, ...change };
    const changed =
      next.frame !== state.frame || next.playing !== state.playing || next.speed !== state.speed;
    state = next;
    if (changed) onChange({ ...state });
  }

  function tick() {
    timer = null;
    if (!state.playing) return;
    if (state.frame >= state.frameCount - 1) {
      set({ playing: false });
      return;
    }
    const next = limit(state.frame + 1);
    if (next === state.frame) {
      set({ playing: false });
      return;
    }
    set({ frame: next });
    if (state.frame >= state.frameCount - 1 || limit(state.frame + 1) === state.frame)
      set({ playing: false });
    else timer = schedule(tick, BASE_INTERVAL_MS / state.speed);
  }

  function stopTimer() {
    if (timer !== null) cancel(timer);
    timer = null;
  }

  return {
    get state() {
      return { ...state };
    },
    /** @param {number} k */
    seek(k) {
      stopTimer();
      set({ frame: limit(clamp(k)), playing: false });
    },
    /** @param {number} delta */
    step(delta) {
      this.seek(state.frame + delta);
    },
    play() {
      if (state.playing) return;
      const frame = state.frame >= state.frameCount - 1 ? 0 : state.frame;
      if (limit(frame + 1) === frame && frame < state.frameCount - 1) return;
      set({ frame, playing: true });
      stopTimer();
      timer = schedule(tick, BASE_INTERVAL_MS / state.speed);
    },
    pause() {
      stopTimer();
      set({ playing: false });
    },
    toggle() {
      if (state.playing) this.pause();
      else this.play();
    },
    /** @param {number} speed */
    setSpeed(speed) {
      if (!SPEEDS.includes(speed))
        throw new RangeError(`speed must be one of ${SPEEDS.join(", ")}, got ${speed}`);
      set({ speed });
      if (state.playing) {
        stopTimer();
        timer = schedule(tick, BASE_INTERVAL_MS / state.speed);
      }
    },
    destroy() {
      stopTimer();
    },
  };
}
