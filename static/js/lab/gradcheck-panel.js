/**
 * The gradient-check panel (SPEC.md §7): one row per leaf with backprop's gradient,
 * the difference quotient at a sensible h for the leaf's value (gradcheck.js says which)
 * and whether they agree, then the log–log plot of the whole sweep. Fetching is the
 * host's job; this module draws what it is given.
 *
 * With a bug-lab mistake (SPEC §8) the host asks for the check of that mistaken
 * engine, so "backprop" is what it computed and the check shows the disagreement;
 * the right engine's gradient (the trace's `correct_grad`) is named beside it.
 *
 * A check cut to fit the server's work bound (gradcheck-fit.js) says so in its status
 * ("Checked 5 of 13 leaves…") and unfolds the choice of pass and leaves (gradcheck-pick.js).
 *
 * Test hooks: [data-testid=gradcheck] (data-state: loading | ready | error; data-checked
 * and data-of, the leaves checked and asked for, when the check was cut to fit), rows
 * [data-testid=gradcheck-row] with data-label, data-node-id, data-analytic,
 * data-numeric, data-h, data-agrees; the plot is [data-testid=gradcheck-plot]; the
 * choice's hooks are gradcheck-pick.js's.
 */
import { formatValue } from "../player/format.js";
import { hLabel, summarizeCheck, validateGradCheck } from "./gradcheck.js";
import { DEFAULT_H } from "./gradcheck-fit.js";
import { buildGradcheckPick } from "./gradcheck-pick.js";
import { drawGradcheckPlot } from "./gradcheck-plot.js";
import { mistakeInfo } from "./mistakes.js";
import { html } from "../player/svg.js";

const FORMULAS = {
  forward: "(f(x+h) \u2212 f(x)) / h",
  central: "(f(x+h) \u2212 f(x\u2212h)) / 2h",
};
// Backprop and the difference quotient side by side: 4 digits would hide 14.003 against 14.
const CHECK_DIGITS = 6;
const NUDGES = { forward: "Nudge one leaf by h", central: "Nudge one leaf by +h and by \u2212h" };

/**
 * The panel's elements, unattached: the section and the parts the panel updates.
 * @param {boolean} withScheme  whether to offer the choice of difference
 * @param {((choice: import("./gradcheck-pick.js").CheckChoice) => void) | undefined} onPick
 *   the learner chose another pass or leaves; without it (an export) there is no choice
 */
function buildGradcheckPanel(withScheme, onPick) {
  const pick = buildGradcheckPick((choice) => onPick?.(choice));
  pick.root.hidden = true;
  const status = html("p", { class: "gradcheck-status", role: "status" });
  const body = html("tbody");
  const backpropHead = html("th", { scope: "col", text: "backprop" });
  const table = html("table", { class: "gradcheck-table" }, [
    html("caption", {
      class: "visually-hidden",
      text: "Backprop's gradient of each leaf against the difference quotient",
    }),
    html("thead", {}, [
      html("tr", {}, [
        html("th", { scope: "col", text: "leaf" }),
        backpropHead,
        html("th", { scope: "col", text: "numeric" }),
        html("th", { scope: "col", text: "at h" }),
        html("th", { scope: "col", text: "agree?" }),
      ]),
    ]),
    body,
  ]);
  const plot = html("div", { class: "gradcheck-plot" });
  const nudge = html("span");
  const formula = html("code");
  const schemeMenu = html("select", { "data-testid": "gradcheck-scheme", name: "scheme" }, [
    html("option", { value: "forward", text: "forward difference" }),
    html("option", { value: "central", text: "central difference" }),
  ]);
  const panel = html(
    "section",
    { class: "gradcheck", "data-testid": "gradcheck", "aria-labelledby": "gradcheck-title" },
    [
      html("div", { class: "gradcheck-head" }, [
        html("h2", { class: "panel-title", id: "gradcheck-title", text: "Gradient check" }),
        ...(withScheme
          ? [
              html("label", { class: "gradcheck-scheme" }, [
                html("span", { class: "visually-hidden", text: "Difference" }),
                schemeMenu,
              ]),
            ]
          : []),
      ]),
      html("p", { class: "gradcheck-intro" }, [
        nudge,
        ", run the forward pass again, and take the difference quotient ",
        formula,
        ". Too big an h measures the curve, too small an h measures rounding; the table uses the h where the two balance" +
          " (about \u221A\u03B5\u00B7|x| forward, \u221B\u03B5\u00B7|x| central), the plot every h.",
      ]),
      status,
      ...(onPick ? [pick.root] : []),
      html(
        "div",
        {
          class: "gradcheck-table-wrap",
          tabindex: 0,
          role: "region",
          "aria-label": "Gradient check table",
        },
        [table],
      ),
      plot,
    ],
  );
  return { panel, status, body, backpropHead, plot, nudge, formula, schemeMenu, pick };
}

/**
 * The status line once a check is in.
 * @param {import("./gradcheck.js").CheckSummary[]} summaries
 * @param {ReturnType<typeof mistakeInfo>} mistake
 */
function checkStatus(summaries, mistake) {
  const wrong = summaries.filter((s) => !s.agrees).length;
  return summaries.length === 0
    ? "This program has no leaves to check (only constants)."
    : wrong === 0
      ? `${summaries.length === 1 ? "The leaf agrees" : `All ${summaries.length} leaves agree`}: backprop and the difference quotient give the same gradients.`
      : `${wrong} of ${summaries.length} ${summaries.length === 1 ? "leaf disagrees" : "leaves disagree"}${mistake ? `: the ${mistake.title} mistake shows` : ""}.`;
}

/**
 * What a check cut to fit the work bound left out, said before its verdict.
 * @param {import("./gradcheck-fit.js").Fitted} fitted
 */
function fittedStatus(fitted) {
  const h = fitted.h ? ` at ${fitted.h.length} of the ${DEFAULT_H.length} h values` : "";
  return (
    `Checked ${fitted.leaves.length} of ${fitted.of} leaves${h}, spread over the pass: all ${fitted.of}` +
    ` at every h would be over the server's work bound. Choose others below. `
  );
}

/**
 * One leaf's table row.
 * @param {import("./gradcheck.js").CheckSummary} s
 * @param {number} right  the right engine's gradient of the leaf
 * @param {boolean} mistaken  whether backprop ran a bug-lab mistake
 * @param {string} name  what the texts call the leaf: its name (its label, or `layers[0].neurons[0].w[0]`), else its label, else its id
 */
function checkRow(s, right, mistaken, name) {
  return html(
    "tr",
    {
      "data-testid": "gradcheck-row",
      "data-node-id": s.node,
      "data-label": s.label,
      "data-analytic": String(s.analytic),
      "data-numeric": String(s.best ? s.best.numeric : NaN),
      "data-h": String(s.best ? s.best.h : NaN),
      "data-agrees": String(s.agrees),
      ...(mistaken ? { "data-right-analytic": String(right) } : {}),
      class: s.agrees ? "agrees" : "differs",
    },
    [
      html("th", { scope: "row", text: name }),
      html("td", { class: "number", text: formatValue(s.analytic, CHECK_DIGITS) }),
      html("td", {
        class: "number",
        text: s.best ? formatValue(s.best.numeric, CHECK_DIGITS) : "\u2014",
      }),
      html("td", { class: "number", text: s.best ? hLabel(s.best.h) : "\u2014" }),
      html("td", { class: "verdict" }, [
        html("span", { "aria-hidden": "true", text: s.agrees ? "\u2713 " : "\u2717 " }),
        s.agrees ? "agree" : "differ",
        ...(mistaken && !s.agrees
          ? [
              html("span", {
                class: "verdict-right",
                text: ` (right: ${formatValue(right, CHECK_DIGITS)})`,
              }),
            ]
          : []),
      ]),
    ],
  );
}

/**
 * Summarizes a validated check against the trace on screen and fills the table.
 * @param {ReturnType<typeof buildGradcheckPanel>} parts
 * @param {import("./gradcheck.js").GradCheck} check
 * @param {import("../passes/trace.js").Trace} trace
 * @param {"forward" | "central"} checkedScheme
 * @param {import("./gradcheck-fit.js").Fitted | null} fitted  what was checked when cut to fit
 * @param {number | null} of  the pass's leaves, when the learner chose some of them
 * @returns {import("./gradcheck.js").CheckSummary[]}
 */
function showCheck(parts, check, trace, checkedScheme, fitted, of) {
  const mistake = mistakeInfo(trace.mistake);
  const rightOf = new Map(trace.nodes.map((node) => [node.id, node.correct_grad ?? node.grad]));
  const dataOf = new Map(trace.nodes.map((node) => [node.id, node.data]));
  // What the texts call each leaf: its label, unless a running sum took it on (the leaf
  // of `loss = Value(0.0)` is `0`, not a second `loss`).
  const nameOf = new Map(trace.nodes.map((node) => [node.id, node.name || node.label]));
  const summaries = check.checks.map((c) => ({
    ...summarizeCheck(c, { scheme: checkedScheme, x: dataOf.get(c.node) ?? 1 }),
    name: nameOf.get(c.node) || c.label || c.node,
  }));
  parts.backpropHead.textContent = mistake ? "backprop (mistaken)" : "backprop";
  parts.panel.dataset.state = "ready";
  const scope = fitted
    ? fittedStatus(fitted)
    : of !== null && of > check.checks.length
      ? `Checked the ${check.checks.length} chosen of the pass's ${of} leaves. `
      : "";
  parts.status.textContent = scope + checkStatus(summaries, mistake);
  showFitted(parts.panel, fitted);
  parts.body.replaceChildren(
    ...summaries.map((s) =>
      checkRow(s, rightOf.get(s.node) ?? s.analytic, Boolean(mistake), s.name ?? s.node),
    ),
  );
  return summaries;
}

/**
 * @param {HTMLElement} panel
 * @param {import("./gradcheck-fit.js").Fitted | null} fitted
 */
function showFitted(panel, fitted) {
  if (fitted) {
    panel.dataset.checked = String(fitted.leaves.length);
    panel.dataset.of = String(fitted.of);
  } else {
    delete panel.dataset.checked;
    delete panel.dataset.of;
  }
}

/**
 * @param {HTMLElement} container  emptied and filled with the panel (hidden until opened)
 * @param {{onScheme?: (scheme: "forward" | "central") => void,
 *   onPick?: (choice: import("./gradcheck-pick.js").CheckChoice) => void}} [options]
 *   onScheme: the learner chose another difference; onPick: another pass or leaves;
 *   without them (an export) there is no choice
 */
export function mountGradcheckPanel(container, { onScheme, onPick } = {}) {
  const parts = buildGradcheckPanel(Boolean(onScheme), onPick);
  const { panel, status, body, plot, nudge, formula, schemeMenu } = parts;
  schemeMenu.addEventListener("change", () =>
    onScheme?.(schemeMenu.value === "central" ? "central" : "forward"),
  );
  container.replaceChildren(panel);
  container.hidden = true;
  /** @type {import("./gradcheck.js").CheckSummary[]} */
  let summaries = [];
  /** @type {"forward" | "central"} */
  let scheme = "forward";
  /** @param {string} value */
  const showScheme = (value) => {
    scheme = value === "central" ? "central" : "forward";
    schemeMenu.value = scheme;
    nudge.textContent = NUDGES[scheme];
    formula.textContent = FORMULAS[scheme];
  };
  showScheme("forward");

  const redraw = () => {
    if (!container.hidden && summaries.length) drawGradcheckPlot(plot, summaries, { scheme });
  };
  const resize =
    typeof ResizeObserver === "function"
      ? new ResizeObserver(() => {
          const width = plot.clientWidth;
          const drawn = Number(plot.querySelector("svg")?.getAttribute("width") ?? 0);
          if (width && Math.abs(Math.min(720, width) - drawn) > 8) redraw();
        })
      : null;
  resize?.observe(plot);

  return {
    get open() {
      return !container.hidden;
    },
    /** @param {boolean} value */
    setOpen(value) {
      container.hidden = !value;
      redraw();
    },
    /** @param {"forward" | "central"} value  the difference the next check uses */
    setScheme(value) {
      showScheme(value);
    },
    /** @param {number | null} [count]  the leaves asked for, when not every leaf */
    loading(count = null) {
      panel.dataset.state = "loading";
      status.textContent =
        count === null
          ? "Checking every leaf over the sweep of h\u2026"
          : `Checking ${count === 1 ? "1 leaf" : `${count} leaves`} over the sweep of h\u2026`;
    },
    /**
     * What the learner may choose: the pass's leaves, those checked, how many fit.
     * @param {import("./gradcheck-pick.js").PickState} state
     */
    setPick(state) {
      parts.pick.set(state);
    },
    /** @param {string} message */
    showError(message) {
      panel.dataset.state = "error";
      showFitted(panel, null);
      status.textContent = `The gradient check could not run: ${message}`;
      body.replaceChildren();
      plot.replaceChildren();
      summaries = [];
    },
    /**
     * @param {unknown} response  the body of POST /api/gradcheck
     * @param {import("../passes/trace.js").Trace} trace  the trace on screen (leaf values, the right engine's gradients)
     * @param {"forward" | "central"} [checkedScheme]  the difference the response used
     * @param {import("./gradcheck-fit.js").Fitted | null} [fitted]  what was checked, when cut to fit
     * @param {number | null} [of]  the pass's leaves, when the learner chose some of them
     */
    show(response, trace, checkedScheme = "forward", fitted = null, of = null) {
      const check = validateGradCheck(response);
      showScheme(checkedScheme);
      summaries = showCheck(parts, check, trace, checkedScheme, fitted, of);
      if (fitted) parts.pick.open();
      redraw();
    },
    destroy() {
      resize?.disconnect();
    },
  };
}
