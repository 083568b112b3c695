/**
 * The bug lab on `/` and `/embed` (SPEC.md §7–9), for page-controller.js: the controls under
 * the editor, the state they and the URL share (`mistake`, `sort_steps`,
 * `gradcheck`), the options a trace is fetched with, and the gradient-check panel
 * under the player, fetched for whatever trace is on screen. A bug-lab example
 * from /api/examples brings its own options.
 */
import { fetchGradcheck } from "../hosts/api.js";
import { mountGradcheckPanel } from "./gradcheck-panel.js";
import { forLearner } from "../hosts/host.js";
import { mountLabControls } from "./lab-controls.js";
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
 * Fetch the gradient check of the trace on screen into the panel, unless aborted meanwhile.
 * @param {ReturnType<typeof mountGradcheckPanel>} panel
 * @param {import("../passes/trace.js").Trace} shown
 * @param {"forward" | "central"} scheme
 * @param {AbortSignal} signal
 */
async function loadGradcheck(panel, shown, scheme, signal) {
  panel.loading();
  try {
    const options = { signal, mistake: shown.mistake ?? null, scheme };
    const result = await fetchGradcheck(shown.source, shown.granularity, options);
    if (!signal.aborted) panel.show(result, shown, scheme);
  } catch (error) {
    if (!signal.aborted)
      panel.showError(error instanceof Error ? forLearner(error.message) : String(error));
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
  const panel = mountGradcheckPanel(panelRoot, {
    onScheme: (scheme) => {
      state = { ...state, scheme };
      controls?.set(state);
      refresh();
      onChange(false);
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
    state = next;
    if (!retrace) refresh();
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
    await loadGradcheck(panel, trace, state.scheme, controller.signal);
  }

  return {
    get state() {
      return state;
    },
    /** The options to fetch a trace with. */
    traceOptions: () => ({ mistake: state.mistake, sortSteps: state.sortSteps }),
    /** @param {import("../passes/trace.js").Trace} shownTrace  the trace now on screen */
    shown(shownTrace) {
      trace = shownTrace;
      // A program's own Value class sorts in its own backward(): no steps to show.
      controls?.setOwnEngine(Boolean(shownTrace.engine_check));
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
