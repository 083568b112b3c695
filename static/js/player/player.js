/**
 * mountPlayer: the whole player as one component, for the page, /embed, exported
 * files and notebooks. It takes a trace object (fetching is the host's job), lays
 * the graph out once, and owns playback through one controller; every view is a
 * mount function with an idempotent update(state).
 *
 * Example:
 *   const player = await mountPlayer(document.querySelector("#player"), {trace, frame: 15});
 *   player.seek(5);  // the sort frame
 */
import { mountBugLabView } from "../lab/bug-lab-view.js";
import { mountCodePanel } from "./code-panel.js";
import { mountEngineCheckView } from "../lab/engine-check-view.js";
import { revealIfGone } from "./reveal.js";
import { mountGraph } from "../graph/graph-view.js";
import { recordLabel } from "../layout/layout.js";
import { startLayout } from "../layout/layout-runner.js";
import { mountNarration } from "./narration.js";
import { mountNodeTable } from "./node-table.js";
import { mountPartedMarks } from "../graph/parted-marks.js";
import { partedAt } from "../lab/mistakes.js";
import { mountPassGraph } from "../passes/pass-graph.js";
import { mountPassPanel } from "../passes/pass-panel.js";
import { perPass } from "../passes/pass-views.js";
import { createPlayback } from "../passes/playback.js";
import { mountPrintPanel } from "./print-panel.js";
import { mountQuiz } from "../quiz/quiz.js";
import { mountSortMarks } from "../graph/sort-marks.js";
import { hasSortSteps } from "../lab/sort-steps.js";
import { mountSortStepsView } from "../lab/sort-steps-view.js";
import { reserveTallestFrame, tallestCandidates } from "./stable-height.js";
import { html } from "./svg.js";
import { createTimeline, phaseSpans, stateAt } from "../passes/timeline.js";
import { mountTopoStrip } from "./topo-strip.js";
import { nodeNames } from "../passes/trace.js";
import { mountTransport } from "../passes/transport.js";

/** Frames closer together than this are rapid: the edges' flow waits for them to stop. */
const RAPID_MS = 250;

/**
 * @typedef {{
 *   trace: unknown,
 *   frame?: number,
 *   rules?: Record<string, string>,
 *   onFrame?: (frame: number) => void,
 *   keyboard?: "document" | "root" | "none",
 *   signal?: AbortSignal,
 *   hide?: string[],
 *   speed?: number | null,
 *   steady?: boolean,
 *   quiz?: import("../quiz/quiz.js").QuizOptions | null,
 * }} PlayerOptions
 * keyboard: where ←/→, Home/End and Space listen; "root" suits several players on one page.
 * hide: parts left out ("code", "narration"), for embeds.
 * speed: the starting playback speed, one of playback.js's SPEEDS.
 * steady: keep the height of the tallest frame (stable-height.js), so what follows the
 *   player on a course page holds still; on by default.
 * signal: abort while the layout runs and the player rejects without touching root.
 * quiz: ask the learner for each `+=` before showing it (quiz.js, SPEC.md §10); null: no quiz.
 */

/**
 * @param {HTMLElement} root
 * @param {PlayerOptions} options
 */
export async function mountPlayer(
  root,
  {
    trace: rawTrace,
    frame = 0,
    rules = {},
    onFrame,
    keyboard = "document",
    signal,
    hide = [],
    speed = null,
    steady = true,
    quiz: quizOptions = null,
  },
) {
  // The layout runs in a worker (or comes from the cache) while the trace is indexed
  // and names are made here. Several passes (SPEC §11): pass-graph.js lays out each
  // pass's own graph instead (startLayout gives null).
  const pendingLayout = startLayout(rawTrace);
  const timeline = createTimeline(rawTrace);
  const { trace } = timeline;
  const names = nodeNames(trace);
  const labels = trace.nodes.map(recordLabel);
  const layout = await pendingLayout;
  signal?.throwIfAborted();

  const stage = html("div", { class: "player-stage" });
  const transportSlot = html("div", { class: "player-transport" });
  const passSlot = html("div", { class: "player-passes", "data-testid": "passes" });
  const printSlot = html("div", { class: "player-prints" });
  const narrationSlot = html("div", { class: "player-narration" });
  const labSlot = html("div", { class: "player-lab" });
  const engineSlot = html("div", { class: "player-engine-check" });
  const sortStepsSlot = html("div", { class: "player-sort-steps" });
  const stripSlot = html("div", { class: "player-strip" });
  const codeSlot = html("div", { class: "player-code" });
  const tableSlot = html("div", { class: "player-table" });
  const quizSlot = html("div", { class: "player-quiz", hidden: !quizOptions });
  const panelsSlot = html("div", { class: "player-panels" }, [
    html("div", { class: "player-explain" }, [
      engineSlot,
      labSlot,
      narrationSlot,
      sortStepsSlot,
      printSlot,
      stripSlot,
    ]),
    codeSlot,
  ]);
  const shell = html("div", { class: "player", "data-testid": "player", "data-phase": "build" }, [
    stage,
    transportSlot,
    quizSlot,
    passSlot,
    panelsSlot,
    tableSlot,
  ]);
  codeSlot.hidden = hide.includes("code");
  narrationSlot.hidden = hide.includes("narration");

  const graph = layout
    ? mountGraph(stage, { timeline, layout, names, labels })
    : await mountPassGraph(stage, {
        timeline,
        startPass: timeline.framePass?.[Math.max(0, Math.min(timeline.frameCount - 1, frame))] ?? 0,
        signal,
      });
  const narration = mountNarration(narrationSlot);
  const strip = perPass(stripSlot, timeline, (t, n = names) =>
    mountTopoStrip(stripSlot, { timeline: t, names: n }),
  );
  const code = perPass(codeSlot, timeline, (t, n = names) =>
    mountCodePanel(codeSlot, { timeline: t, names: n, rules }),
  );
  // With a right engine beside the program's (bug lab, Check your engine), the table
  // marks a gradient that parts from it, as the graph does.
  const judged = trace.nodes.some((node) => typeof node.correct_grad === "number");
  const table = perPass(tableSlot, timeline, (t, n = names) =>
    mountNodeTable(tableSlot, {
      timeline: t,
      names: n,
      partedAt: judged ? (state) => partedAt(timeline, state) : null,
    }),
  );
  const prints = mountPrintPanel(printSlot, { frames: trace.frames });
  const passPanel = mountPassPanel(passSlot, { timeline, names, onSeek: (k) => playback.seek(k) });
  // The bug lab and the step-by-step sort (SPEC §8, §9, §13): for every trace that has
  // them, one pass or several.
  const lab = [
    mountBugLabView(labSlot, { timeline, names }),
    mountPartedMarks(stage, { timeline, layout, names }),
  ];
  // A program's own Value class (SPEC §14): checked against a right engine, every pass.
  // While the quiz waits for an answer, the check hides the numbers that would give it.
  lab.push(
    mountEngineCheckView(engineSlot, {
      timeline,
      names,
      onSeek: (k) => {
        playback.seek(k);
        // "Show frame k" points at a mark on the graph (`= 1.1 (−1.4 lost)`): the panel
        // is below the graph, and on a laptop or a phone the graph had scrolled away.
        revealIfGone(stage);
      },
      gate: () => (quiz ? quiz.limit(Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY),
    }),
  );
  sortStepsSlot.hidden = true;
  if (hasSortSteps(trace))
    lab.push(
      mountSortStepsView(sortStepsSlot, { timeline, names }),
      mountSortMarks(stage, { timeline }),
    );

  const quiz =
    quizOptions &&
    mountQuiz(quizSlot, {
      ...quizOptions,
      timeline,
      names,
      frame,
      stage,
      seek: (k) => playback.seek(k),
      onChange: () => render(playback.state),
    });
  /** The quiz's open question is as far as the player goes. */
  const limit = (/** @type {number} */ k) => {
    const allowed = quiz ? quiz.limit(k) : k;
    if (allowed < k) quiz?.nudge();
    return allowed;
  };
  const playback = createPlayback({
    frameCount: timeline.frameCount,
    frame,
    onChange: render,
    limit,
  });
  const transport = mountTransport(transportSlot, {
    frameCount: timeline.frameCount,
    spans: phaseSpans(timeline),
    // A seek the quiz refuses changes nothing, so the scrubber is put back by hand.
    onSeek: (k) => {
      playback.seek(k);
      transport.update(playback.state);
    },
    onStep: (delta) => playback.step(delta),
    onToggle: () => playback.toggle(),
    onSpeed: (speed) => playback.setSpeed(speed),
  });

  let shownFrame = -1;
  let shownKey = "";
  let lastMove = -Infinity;
  let rapidTimer = 0;
  /**
   * Frames coming faster than the eye follows (arrow key held, scrubbing, fast play):
   * the edges' flow stands still until they stop, since it repaints the graph at every
   * display frame on top of the steps' own drawing.
   */
  function markRapid() {
    const now = performance.now();
    if (now - lastMove < RAPID_MS) shell.dataset.rapid = "true";
    lastMove = now;
    clearTimeout(rapidTimer);
    rapidTimer = setTimeout(() => {
      delete shell.dataset.rapid;
    }, RAPID_MS);
  }

  /** @param {import("../passes/playback.js").PlaybackState} playState */
  function render(playState) {
    transport.update(playState);
    const key = `${playState.frame}:${quiz ? quiz.revision : 0}`;
    if (key === shownKey) return;
    const moved = shownFrame !== -1 && playState.frame !== shownFrame;
    if (moved) markRapid();
    shownKey = key;
    shownFrame = playState.frame;
    const state = quiz
      ? quiz.mask(stateAt(timeline, playState.frame))
      : stateAt(timeline, playState.frame);
    shell.dataset.phase = state.phase;
    const drawn = graph.update(state);
    narration.update(state);
    strip.update(state);
    code.update(state);
    table.update(state);
    prints.update(state);
    passPanel?.update(state);
    for (const view of lab) view.update(state);
    // A trace of several passes draws its graph a moment later, with new records at a
    // new pass: the lab's marks go on them again once they are there.
    drawn?.then((shown) => {
      if (shown && shownKey === key) for (const view of lab) view.update(state);
    });
    if (quiz) {
      quiz.update(state, { focus: moved });
      if (playState.playing && quiz.isOpenAt(state.index)) playback.pause();
    }
    onFrame?.(state.index);
  }

  let waiting = false;

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (waiting || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {HTMLElement} */ (event.target);
    // Leave keys to whatever the learner is typing into or choosing with.
    if (target.closest?.("textarea, select, [contenteditable]")) return;
    if (target instanceof HTMLInputElement && target.type !== "range") {
      const choosing = target.type === "radio" || target.type === "checkbox";
      if (!choosing || event.key.startsWith("Arrow") || event.key === " ") return;
    }
    const isButton = Boolean(target.closest?.("button, a, summary"));
    const actions = {
      ArrowLeft: () => playback.step(-1),
      ArrowRight: () => playback.step(1),
      Home: () => playback.seek(0),
      End: () => playback.seek(timeline.frameCount - 1),
      " ": isButton ? null : () => playback.toggle(),
      PageUp: passPanel?.previous,
      PageDown: passPanel?.next,
    };
    const action = actions[/** @type {keyof typeof actions} */ (event.key)];
    if (!action) return;
    event.preventDefault();
    action();
  }
  const keyTarget =
    keyboard === "document" ? root.ownerDocument : keyboard === "root" ? root : null;
  keyTarget?.addEventListener("keydown", /** @type {EventListener} */ (onKey));

  if (speed !== null) playback.setSpeed(speed);
  root.replaceChildren(shell);
  render(playback.state);
  // The narration keeps the height of its longest text, so the panels under it (on a
  // phone, all of them) hold still while its length changes from frame to frame.
  const steadyNarration = reserveTallestFrame(narration.box, {
    frames: narrationSlot.hidden ? [] : tallestCandidates(trace),
    show: (k) => narration.update(stateAt(timeline, k)),
    restore: () => {
      const state = stateAt(timeline, playback.state.frame);
      narration.update(quiz ? quiz.mask(state) : state);
    },
  });
  const panelViews = [narration, strip, code, ...lab];
  const steadyHeight = reserveTallestFrame(panelsSlot, {
    frames: steady ? tallestCandidates(trace) : [],
    show: (k) => {
      const state = stateAt(timeline, k);
      for (const view of panelViews) view.update(state);
    },
    restore: () => {
      const state = stateAt(timeline, playback.state.frame);
      for (const view of panelViews) view.update(quiz ? quiz.mask(state) : state);
    },
  });
  root.dataset.ready = "true";

  return {
    timeline,
    layout,
    quiz,
    /** @param {number} k */
    seek: (k) => playback.seek(k),
    get frame() {
      return playback.state.frame;
    },
    play: () => playback.play(),
    /** @param {number} value  one of playback.js's SPEEDS */
    setSpeed: (value) => playback.setSpeed(value),
    pause: () => playback.pause(),
    fit: () => graph.fit(),
    /**
     * While the host loads a new trace to replace this one: keys wait, and the counter
     * says so, so nobody (learner or test) mistakes this player for the new one.
     * @param {boolean} value
     */
    setWaiting(value) {
      waiting = value;
      shell.setAttribute("aria-busy", String(value));
      if (!value) return render(playback.state);
      playback.pause();
      transport.showWaiting();
    },
    /** Focus the picture, so Space and arrows drive the player. */
    focus: () => graph.focus(),
    destroy() {
      playback.destroy();
      keyTarget?.removeEventListener("keydown", /** @type {EventListener} */ (onKey));
      graph.destroy();
      table.destroy?.();
      transport.destroy();
      steadyHeight.destroy();
      steadyNarration.destroy();
      clearTimeout(rapidTimer);
      if (shell.parentNode === root) delete root.dataset.ready;
      shell.remove();
    },
  };
}
