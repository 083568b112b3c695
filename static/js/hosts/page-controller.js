/**
 * What `/` and `/embed` share: a program (from the address, an example or the editor)
 * traced by the server and shown in the player, errors at their line and column, the
 * bug lab (page-lab.js), and the address kept a permalink of what is on screen
 * (SPEC.md §5). The entry modules page.js (`/`) and embed-page.js (`/embed`) say what
 * differs: the share dialog and Back on `/`; options, height and frame messages on
 * `/embed`. `?quiz=1` on either turns the player into the quiz (quiz.js). Importing
 * this module does nothing: `mountPageController(...).start()` does the work.
 */
import { fetchOptional, fetchTrace } from "./api.js";
import { mountEditor } from "./editor.js";
import { carryFrame } from "../passes/frame-carry.js";
import { mountAndPlay, problemOf, showProblem } from "./host.js";
import { withLabParams } from "../lab/lab-url.js";
import { mountPageLab } from "../lab/page-lab.js";
import { MISSING_PROGRAM, fullSearch, shortAddress } from "./program-store.js";
import { lineOfFrame, mountSourceLine } from "../player/source-line.js";
import { readQuiz, readUrlState, writeUrlState } from "./url-state.js";

const URL_UPDATE_MS = 120;
const LONG_URL_UPDATE_MS = 400;
const LONG_SOURCE_CHARS = 2000;

/**
 * A page before its first run: nothing shown, no run yet.
 * @param {boolean} autoplay  whether the first trace plays at once
 * @returns {RunState}
 */
function newRunState(autoplay) {
  const shown = { source: "", granularity: /** @type {const} */ ("packed") };
  return { player: null, runId: 0, settledRunId: 0, inFlight: null, shown, autoplay };
}
/** The embed's editor fits its program within these many rows. */
export const EDITOR_ROWS = /** @type {const} */ ({ min: 3, max: 12 });

/**
 * Rows that show a program whole, within EDITOR_ROWS.
 * Example: editorRows("a = 1\nb = a + a") -> 3
 * @param {string} source
 */
export function editorRows(source) {
  return Math.min(EDITOR_ROWS.max, Math.max(EDITOR_ROWS.min, source.split("\n").length));
}

/**
 * The address of one frame of what is shown: the address as it stands (program, quiz
 * and every other option) with another frame. The quiz's summary links to frames so.
 * Example: frameAddress("?source=a&frame=2&quiz=1", 5) -> "?source=a&frame=5&quiz=1"
 * @param {string} search
 * @param {number} frame
 */
export function frameAddress(search, frame) {
  const params = new URLSearchParams(search);
  params.set("frame", String(frame));
  return `?${params}`;
}

/**
 * The trace of a program and the engine's rule texts, fetched together: the one place
 * a page host loads a trace (the rules are fetched once and shared).
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {Promise<Record<string, string>>} rules
 * @param {Parameters<typeof fetchTrace>[2]} options
 */
export async function loadTrace(source, granularity, rules, options) {
  const [trace, ruleTexts] = await Promise.all([fetchTrace(source, granularity, options), rules]);
  return { trace, rules: ruleTexts };
}

/**
 * @typedef {{
 *   playerRoot: HTMLElement,
 *   errorBox: HTMLElement,
 *   editorRoot: HTMLElement | null,
 *   openLink?: HTMLAnchorElement | null,
 *   hide?: string[],
 *   speed?: number | null,
 *   autoplay?: boolean,
 *   steady: boolean,
 *   remember: boolean,
 *   fitEditor?: boolean,
 *   address?: (search: string) => string,
 *   shortLinks?: boolean,
 *   onFrame?: (frame: number) => void,
 *   onSettled?: () => void,
 *   quizReport?: (message: import("../quiz/quiz.js").QuizReport) => void,
 *   quizStorage?: import("../quiz/quiz.js").QuizOptions["storage"],
 * }} PageOptions
 * editorRoot: the editor's markup (null: no editor); its error box is then the one used
 * openLink: a link to `/` kept pointing at what is shown
 * remember: Run and examples push a history entry (Back returns to the program before)
 * fitEditor: the editor takes as many rows as the program has (editorRows)
 * address: the address bar's query for a state's query (the embed keeps its options)
 * shortLinks: a long program leaves the address for the browser's storage (program-store.js)
 * onFrame: after each frame is shown; onSettled: once the newest run is shown or failed
 * quizReport: where each closed quiz question is reported (default: quiz.js's
 *   reportToParent; the LTI tool's graded player also sends it to the course)
 * quizStorage: where the quiz's answers survive a reload (default: sessionStorage)
 */

/**
 * @param {PageOptions} options
 */
export function mountPageController({
  playerRoot,
  errorBox,
  editorRoot,
  openLink = null,
  hide = [],
  speed = null,
  autoplay: autoplayFirst = false,
  steady,
  remember,
  fitEditor = false,
  address = (search) => search,
  shortLinks = false,
  onFrame,
  onSettled,
  quizReport,
  quizStorage,
}) {
  const quiz = readQuiz(location.search);
  /** The address as the page reads it: a long program's key replaced by the program. */
  const here = () =>
    shortLinks ? fullSearch(location.search) : { search: location.search, missing: false };
  /** The address as the page writes it: a long program replaced by its key. */
  const written = (/** @type {string} */ search) => (shortLinks ? shortAddress(search) : search);
  const state = newRunState(autoplayFirst);

  // The embed's error box sits outside its editor, so it still shows when the editor is hidden.
  const editor =
    editorRoot &&
    mountEditor(editorRoot, {
      onRun: ({ source, granularity, fromButton }) =>
        run(source, granularity, 0, { focusPlayer: fromButton, remember }),
      // Called only on events and after the examples arrive, once `lab` exists.
      labState: () => lab.state,
    });
  const sourceTextarea = /** @type {HTMLTextAreaElement | null} */ (
    editorRoot?.querySelector("[data-testid=source]") ?? null
  );
  const sourceLine = sourceTextarea && mountSourceLine(sourceTextarea);
  // The line an error is about, marked in the editor while it holds that program.
  const errorLine = sourceTextarea && mountSourceLine(sourceTextarea, { kind: "error" });
  // The bug lab: a mistake and sort steps change the trace, the gradient check adds a panel.
  const lab = mountPageLab({
    editorRoot,
    playerRoot,
    search: location.search,
    onChange: (retrace) => labChanged(page, retrace),
  });
  const rulesReady = fetchOptional("api/rules", {});
  // How every run's player looks and behaves.
  const looks = { hide, speed, steady, quiz: quiz ? quizOptions(quizReport, quizStorage) : null };

  /** The program, the frame and the lab's options: the permalink's, and what Share shares. */
  const shareState = () => ({
    ...state.shown,
    frame: state.player?.frame ?? 0,
    lab: lab.state,
    quiz,
  });
  // The address bar kept a permalink, and the link to `/` pointing at what is shown.
  const { syncUrl, writeUrl } = createUrlWriter(
    () => state.shown.source.length > LONG_SOURCE_CHARS,
    () => writePermalink(page, quiz, (search) => address(written(search)), openLink),
  );
  /** @type {Run} what a run, opening the page and Back or Forward use */
  const page = {
    state,
    playerRoot,
    errorBox,
    rulesReady,
    lab,
    editor,
    looks,
    sourceLine,
    here,
    written,
    showError,
    syncUrl,
    writeUrl,
    onFrame,
    onSettled,
    showProgram: (source) => {
      if (fitEditor && sourceTextarea) sourceTextarea.rows = editorRows(source);
    },
  };
  /**
   * Trace a program and show it; the newest request wins.
   * @type {(source: string, granularity: "packed" | "expanded", frame: Frame, how?: RunHow) => Promise<void>}
   */
  const run = (source, granularity, frame, how) =>
    runProgram(page, source, granularity, frame, how);

  /**
   * @param {import("./host.js").Problem | null} problem
   * @param {string} [source]
   */
  function showError(problem, source) {
    playerRoot.classList.toggle("is-stale", Boolean(problem));
    if (editor) editor.showError(problem, source);
    else showProblem(errorBox, problem);
    const about = problem && (source === undefined || source === editor?.source);
    errorLine?.show(about ? problem.line : null);
  }

  return {
    /** The program in the address, or else the first example. */
    start: () => openPage(page),
    /** Back or Forward: show the program and frame of the address the browser went to. */
    restore: () => restorePage(page),
    /** The player on screen, if any. */
    get player() {
      return state.player;
    },
    /** What the share dialog shares: the program, the frame and the lab's options. */
    shareState,
  };
}

/**
 * Keep the address bar a permalink without slowing scrubbing: browsers throttle
 * history updates, and each one costs more the longer the URL (a big program is tens
 * of kilobytes), so long URLs are written only once scrubbing pauses.
 * @param {() => boolean} long  whether the program shown makes a long URL
 * @param {() => void} write  write the address now
 */
function createUrlWriter(long, write) {
  let urlTimer = 0;
  let urlPending = false;
  function syncUrl() {
    const isLong = long();
    if (urlTimer || isLong) {
      urlPending = true;
      if (isLong) window.clearTimeout(urlTimer);
      else return;
    } else {
      write();
    }
    urlTimer = window.setTimeout(
      () => {
        urlTimer = 0;
        if (urlPending) {
          urlPending = false;
          write();
        }
      },
      isLong ? LONG_URL_UPDATE_MS : URL_UPDATE_MS,
    );
  }
  return { syncUrl, writeUrl: write };
}

/**
 * The quiz's options in a page: a question links to its frame, reports where it is
 * told to, and keeps its answers where it is told to.
 * @param {PageOptions["quizReport"]} report
 * @param {PageOptions["quizStorage"]} storage
 */
function quizOptions(report, storage) {
  return {
    frameLink: (/** @type {number} */ k) => frameAddress(location.search, k),
    ...(report && { report }),
    ...(storage !== undefined && { storage }),
  };
}

/**
 * Open the page: the program in the address, or else the first example.
 * @param {Run} page
 */
async function openPage(page) {
  const { editor, lab } = page;
  const address = page.here();
  const fromUrl = readUrlState(address.search);
  if (fromUrl.source !== null) {
    editor?.setProgram(fromUrl.source, fromUrl.granularity);
    page.showProgram(fromUrl.source);
    const examples = fetchOptional("api/examples", []);
    examples.then((list) => {
      lab.setExamples(list);
      editor?.setExamples(list);
    });
    await runProgram(page, fromUrl.source, fromUrl.granularity, fromUrl.frame ?? 0);
    return;
  }
  const examples = await fetchOptional(
    "api/examples",
    /** @type {import("./editor.js").Example[]} */ ([]),
  );
  lab.setExamples(examples);
  editor?.setExamples(examples);
  if (page.state.runId > 0) return; // the learner already pressed Run
  const first = examples[0];
  if (!first) {
    const message = "No example program is available; type one and press Run.";
    page.showError({ message, line: null, column: null });
    return;
  }
  editor?.setProgram(first.source, first.granularity);
  page.showProgram(first.source);
  await runProgram(page, first.source, first.granularity, 0);
  if (address.missing) {
    // Said once the example is up; the graph is the example's, so it is not stale.
    const problem = { message: MISSING_PROGRAM, line: null, column: null };
    if (editor) editor.showError(problem, first.source);
    else showProblem(page.errorBox, problem);
  }
}

/**
 * Back or Forward: show the program and frame of the address the browser went to.
 * @param {Run} page
 */
async function restorePage(page) {
  const state = readUrlState(page.here().search);
  // The lab's options first: the examples menu names the example by them.
  const retrace = page.lab.restore(location.search);
  const source = state.source ?? page.editor?.source ?? "";
  page.editor?.setProgram(source, state.granularity);
  const { player, runId, settledRunId, shown } = page.state;
  const showing =
    runId === settledRunId && source === shown.source && state.granularity === shown.granularity;
  if (!retrace && showing && player) {
    player.seek(state.frame ?? 0);
    return;
  }
  await runProgram(page, source, state.granularity, state.frame ?? 0);
}

/**
 * The address of a program about to be run, at its frame (0 when the frame depends on
 * the trace), with the lab's options.
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {number | Function} frame
 * @param {ReturnType<typeof mountPageLab>["state"]} labState
 */
function entryOf(source, granularity, frame, labState) {
  const at = typeof frame === "function" ? 0 : frame;
  return withLabParams(writeUrlState({ source, granularity, frame: at }), labState);
}

/** @param {string} entry  a new history entry, unless the address is that already */
function pushEntry(entry) {
  if (location.search !== entry) history.pushState(null, "", entry);
}

/**
 * @typedef {{
 *   player: Awaited<ReturnType<typeof mountAndPlay>> | null,
 *   runId: number, settledRunId: number, inFlight: AbortController | null,
 *   shown: {source: string, granularity: "packed" | "expanded"}, autoplay: boolean,
 * }} RunState  the newest run's id and the last settled one's; what is shown
 * @typedef {number | ((trace: import("../passes/trace.js").Trace) => number)} Frame
 * @typedef {{focusPlayer?: boolean, remember?: boolean}} RunHow
 * @typedef {{
 *   state: RunState, playerRoot: HTMLElement, rulesReady: Promise<Record<string, string>>,
 *   lab: ReturnType<typeof mountPageLab>, editor: ReturnType<typeof mountEditor> | null,
 *   looks: Record<string, unknown>, sourceLine: ReturnType<typeof mountSourceLine> | null,
 *   written: (search: string) => string,
 *   showError: (problem: import("./host.js").Problem | null, source?: string) => void,
 *   syncUrl: () => void, writeUrl: () => void,
 *   onFrame?: (frame: number) => void, onSettled?: () => void,
 *   errorBox: HTMLElement, here: () => {search: string, missing: boolean},
 *   showProgram: (source: string) => void,
 * }} Run  a page controller's state, and what a run and opening the page use of it
 */

/**
 * Trace a program and show it; the newest request wins.
 * @param {Run} run  the controller's state and what a run uses of it
 * @param {string} source
 * @param {"packed" | "expanded"} granularity
 * @param {number | ((trace: import("../passes/trace.js").Trace) => number)} frame  or where to open, given the trace
 * @param {{focusPlayer?: boolean, remember?: boolean}} [how]
 *   remember: a new history entry for this program (a Run or an example, not a restore)
 */
async function runProgram(
  run,
  source,
  granularity,
  frame,
  { focusPlayer = false, remember = false } = {},
) {
  const { state, lab, editor, written, showError } = run;
  const id = ++state.runId;
  state.inFlight?.abort();
  const controller = new AbortController();
  state.inFlight = controller;
  try {
    // The request leaves first: a big program's address takes the browser tens of
    // milliseconds (and a layout) to write, which the server's tracing now covers.
    const loading = loadTrace(source, granularity, run.rulesReady, {
      signal: controller.signal,
      ...lab.traceOptions(),
    });
    // The new entry is still made at once, so Back during a slow trace returns to what
    // was shown.
    if (remember) pushEntry(written(entryOf(source, granularity, frame, lab.state)));
    editor?.setBusy(true);
    state.player?.setWaiting(true);
    // The last run's error is about the last program: it goes as this one is traced.
    showError(null);
    const { trace, rules } = await loading;
    if (id !== state.runId) return;
    const previous = state.player;
    // The editor marks the frame's line while it still holds the traced program.
    const onPlayerFrame = (/** @type {number} */ k) => {
      run.syncUrl();
      run.onFrame?.(k);
      run.sourceLine?.show(editor?.source === source ? lineOfFrame(trace, k) : null);
    };
    state.player = await mountAndPlay(run.playerRoot, {
      trace,
      rules,
      frame: typeof frame === "function" ? frame(trace) : frame,
      onFrame: onPlayerFrame,
      signal: controller.signal,
      ...run.looks,
      autoplay: state.autoplay,
    });
    previous?.destroy();
    state.autoplay = false;
    showError(null);
    state.shown = { source, granularity };
    run.writeUrl();
    lab.shown(trace);
    if (focusPlayer) state.player.focus();
  } catch (error) {
    if (id !== state.runId || (error instanceof DOMException && error.name === "AbortError"))
      return;
    state.player?.setWaiting(false);
    showError(problemOf(error, "The trace could not be shown"), source);
    lab.failed();
    state.shown = { source, granularity };
    run.writeUrl();
  } finally {
    if (id === state.runId) {
      editor?.setBusy(false);
      state.settledRunId = id;
      run.onSettled?.();
    }
  }
}

/**
 * The lab's options changed: name the example they make, trace again when they change
 * the trace (opening the new trace where the old one was), and keep the address.
 * @param {Run} page
 * @param {boolean} retrace
 */
function labChanged(page, retrace) {
  const { player, shown } = page.state;
  page.editor?.showMatchingExample();
  const from = player && { trace: player.timeline.trace, frame: player.frame };
  if (retrace && shown.source)
    runProgram(page, shown.source, shown.granularity, (trace) =>
      from ? carryFrame(from.trace, from.frame, trace) : 0,
    );
  page.writeUrl();
}

/**
 * Write the address bar's permalink of what is shown (program, frame, quiz, lab), and
 * point the link to `/` at it.
 * @param {Run} page
 * @param {boolean} quiz
 * @param {(search: string) => string} address  the address bar's query for a state's
 * @param {HTMLAnchorElement | null} openLink
 */
function writePermalink(page, quiz, address, openLink) {
  const { shown, player } = page.state;
  const state = writeUrlState({ ...shown, frame: player?.frame ?? 0, quiz });
  const search = withLabParams(state, page.lab.state);
  const next = address(search);
  if (location.search !== next) history.replaceState(null, "", next);
  if (openLink) openLink.href = `/${search}`;
}
