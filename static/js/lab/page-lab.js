/**
 * The bug lab on `/` and `/embed` (SPEC.md §7–9), for page-controller.js: the controls under
 * the editor, the state they and the URL share (`mistake`, `sort_steps`,
 * `gradcheck`), the options a trace is fetched with, and the gradient-check panel
 * under the player, fetched for whatever trace is on screen, for the pass and leaves the
 * learner chose there (every leaf of the first pass until then); a check over the server's
 * work bound is cut to what fits (gradcheck-fit.js). A bug-lab example from /api/examples
 * brings its own options.
 */
import { fetchGradcheck } from "../hosts/api.js";
import { checkWithinBound, leavesThatFit, overBound, passLeaves } from "./gradcheck-fit.js";
import { mountGradcheckPanel } from "./gradcheck-panel.js";
import { revealIfGone } from "../player/reveal.js";
import { forLearner } from "../hosts/host.js";
import { mountLabControls, ownSortNote } from "./lab-controls.js";
import { readLabState } from "./lab-url.js";

/**
 * @typedef {{id: string, mistake?: string | null, sort_steps?: boolean | null, gradcheck?: boolean | null}} LabExample
 */

/**
 * The lab state a bug-lab example brings: all its options, the gradient check's included
 * (keeping the difference the learner chose).
 * @param {LabExample} example
 * @param {"forward" | "central"} scheme  the difference chosen now
 */
function exampleState(example, scheme) {
  return readLabState(
    new URLSearchParams([
      ["mistake", example.mistake ?? ""],
      ["sort_steps", example.sort_steps ? "1" : ""],
      ["gradcheck", example.gradcheck ? (scheme === "central" ? "central" : "1") : ""],
    ]),
  );
}

/**
 * Fetch the gradient check of the trace on screen into the panel, unless aborted meanwhile:
 * the pass and leaves chosen, or what of them fits the work bound. `fits` keeps, by pass and
 * difference, how many leaves fit, once the server has said.
 * @param {ReturnType<typeof mountGradcheckPanel>} panel
 * @param {import("../passes/trace.js").Trace} shown
 * @param {{scheme: "forward" | "central", choice: import("./gradcheck-pick.js").CheckChoice,
 *   fits: Map<string, number>}} check
 * @param {AbortSignal} signal
 */
async function loadGradcheck(panel, shown, { scheme, choice, fits }, signal) {
  const leaves = passLeaves(shown, choice.pass);
  const asked = choice.leaves ?? leaves.map((leaf) => leaf.id);
  const key = `${choice.pass} ${scheme}`;
  /** @param {string[]} checked */
  const pick = (checked) =>
    panel.setPick({
      leaves,
      checked,
      passes: shown.passes.length,
      pass: choice.pass,
      max: fits.get(key) ?? null,
    });
  pick(asked);
  panel.loading(choice.leaves ? choice.leaves.length : null);
  try {
    const options = { signal, mistake: shown.mistake ?? null, scheme, pass: choice.pass };
    const fetchCheck = (/** @type {{leaves: string[] | null, h: number[] | null}} */ cut) =>
      fetchGradcheck(shown.source, shown.granularity, { ...options, ...cut });
    const { result, fitted, over } = await checkWithinBound(fetchCheck, {
      asked,
      all: choice.leaves === null,
    });
    if (signal.aborted) return;
    if (over) fits.set(key, leavesThatFit(over));
    if (fitted) pick(fitted.leaves);
    panel.show(result, shown, scheme, fitted, choice.leaves ? leaves.length : null);
  } catch (error) {
    if (signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    const over = overBound(message);
    if (over) {
      fits.set(key, leavesThatFit(over));
      pick(asked);
    }
    panel.showError(forLearner(message));
  }
}

/**
 * @param {{editorRoot: HTMLElement | null, playerRoot: HTMLElement, search: string,
 *   onChange: (retrace: boolean) => void}} options
 *   onChange: the state changed; retrace says the trace must be fetched again
 */
export function mountPageLab({ editorRoot, playerRoot, search, onChange }) {
  let state = readLabState(search);
  const slot = document.createElement("div");
  editorRoot?.querySelector(".editor-actions")?.after(slot);
  const controls = editorRoot ? mountLabControls(slot, { onChange: change }) : null;
  controls?.set(state);
  const panelRoot = document.createElement("div");
  panelRoot.className = "gradcheck-host";
  playerRoot.after(panelRoot);
  /** @type {import("./gradcheck-pick.js").CheckChoice} the pass and leaves to check */
  let choice = { pass: 0, leaves: null };
  /** How many leaves fit the work bound, by pass and difference, for the program on screen. */
  const fits = new Map();
  const panel = mountGradcheckPanel(panelRoot, {
    onScheme: (scheme) => {
      state = { ...state, scheme };
      controls?.set(state);
      refresh();
      onChange(false);
    },
    onPick: (picked) => {
      choice = picked;
      refresh();
    },
  });
  /** @type {AbortController | null} */
  let inFlight = null;
  /** @type {import("../passes/trace.js").Trace | null} */
  let trace = null;
  /** @type {LabExample[]} */
  let examples = [];

  /** @param {import("./lab-url.js").LabState} next */
  function change(next) {
    const retrace = next.mistake !== state.mistake || next.sortSteps !== state.sortSteps;
    const opened = next.gradcheck && !state.gradcheck;
    state = next;
    if (!retrace) refresh();
    // The panel opens under the player, below the fold of a laptop or a phone.
    if (opened) revealIfGone(panelRoot, "start");
    onChange(retrace);
  }

  // Heard in the capture phase, so the options are set before the editor runs the example.
  // An example brings all its options, the gradient check's included.
  editorRoot?.addEventListener(
    "change",
    (event) => {
      const target = /** @type {HTMLElement} */ (event.target);
      if (!(target instanceof HTMLSelectElement) || target.name !== "example") return;
      const example = examples.find((e) => e.id === target.value);
      if (!example) return;
      state = exampleState(example, state.scheme);
      controls?.set(state);
    },
    { capture: true },
  );

  /** Open, close or refresh the gradient-check panel for the trace on screen. */
  async function refresh() {
    panel.setOpen(state.gradcheck);
    panel.setScheme(state.scheme);
    inFlight?.abort();
    if (!state.gradcheck || !trace) return;
    const controller = new AbortController();
    inFlight = controller;
    await loadGradcheck(panel, trace, { scheme: state.scheme, choice, fits }, controller.signal);
  }

  return {
    get state() {
      return state;
    },
    /** The options to fetch a trace with. */
    traceOptions: () => ({ mistake: state.mistake, sortSteps: state.sortSteps }),
    /** @param {import("../passes/trace.js").Trace} shownTrace  the trace now on screen */
    shown(shownTrace) {
      // Another program (or another pass count) starts again from every leaf of the first pass.
      if (shownTrace.source !== trace?.source || choice.pass >= shownTrace.passes.length) {
        choice = { pass: 0, leaves: null };
        fits.clear();
      }
      trace = shownTrace;
      // A program's own Value class sorts in its own backward(): the note says what the steps are.
      const note = ownSortNote(shownTrace);
      controls?.setOwnEngine(note !== null, note ?? undefined);
      refresh();
    },
    /** The program on screen has an error: the check has nothing to check. */
    failed() {
      trace = null;
      inFlight?.abort();
      if (state.gradcheck) panel.showError("the program has an error (see above).");
    },
    /**
     * Back or Forward: take the options of the address the browser went to.
     * @param {string} search
     * @returns {boolean}  whether the trace must be fetched again (a mistake or the sort steps changed)
     */
    restore(search) {
      const next = readLabState(search);
      const retrace = next.mistake !== state.mistake || next.sortSteps !== state.sortSteps;
      state = next;
      controls?.set(state);
      if (!retrace) refresh();
      return retrace;
    },
    /** @param {LabExample[]} list */
    setExamples(list) {
      examples = list;
    },
  };
}
