/**
 * The bug lab's note in the player (SPEC.md §8): which mistake this engine has,
 * what it breaks, and, as the frames go by, each gradient that has parted from
 * the right engine's with both values. Absent for a trace of the right engine.
 *
 * Test hooks: [data-testid=bug-lab] with data-mistake; inside it one
 * [data-testid=bug-lab-parted] per parted node (data-node-id, data-grad,
 * data-correct-grad), and [data-testid=bug-lab-early] while a rule runs with a
 * gradient the right engine would not have given it (no-sort's fork at e).
 */
import { formatValue, operand } from "../player/format.js";
import { countPartedAtEnds, differs, mistakeInfo, partedAt, rightGrads } from "./mistakes.js";
import { html } from "../player/svg.js";

/** Past this many, the list says how many more. */
const MOST_LISTED = 5;

/**
 * @param {HTMLElement} container
 * @param {{timeline: import("../passes/timeline.js").Timeline, names: string[]}} options
 */
export function mountBugLabView(container, { timeline, names }) {
  const { trace } = timeline;
  const info = mistakeInfo(trace.mistake);
  container.hidden = !info;
  if (!info) {
    container.replaceChildren();
    return { update: () => {} };
  }
  const total = countPartedAtEnds(timeline);
  const list = html("ul", { class: "bug-lab-parted" });
  const status = html("p", { class: "bug-lab-status" });
  const early = html("p", { class: "bug-lab-early", "data-testid": "bug-lab-early" });
  container.replaceChildren(
    html(
      "section",
      {
        class: "bug-lab",
        "data-testid": "bug-lab",
        "data-mistake": info.id,
        "aria-label": "Bug lab",
      },
      [
        html("p", { class: "bug-lab-title" }, [
          html("span", { class: "bug-lab-badge", text: "Bug lab" }),
          " This engine has a mistake: ",
          html("strong", { text: info.title }),
          ".",
        ]),
        html("p", { class: "bug-lab-lesson", text: info.lesson }),
        early,
        status,
        list,
      ],
    ),
  );
  let shownKey = "";

  /** @param {import("../passes/timeline.js").FrameState} state */
  function update(state) {
    // A rule that runs with a gradient the right engine would not have given it yet.
    const upstream = state.phase === "backward" ? state.contributions[0]?.upstream : undefined;
    const right =
      state.current >= 0 ? rightGrads(trace, state.pass ?? 0)[state.current] : undefined;
    const wrongNow =
      upstream !== undefined &&
      typeof right === "number" &&
      !Number.isNaN(right) &&
      differs(upstream, right);
    early.hidden = !wrongNow;
    early.textContent = wrongNow
      ? `${names[state.current]}'s rule runs with grad ${formatValue(/** @type {number} */ (upstream))}; ` +
        `the right engine runs it with ${formatValue(/** @type {number} */ (right))}.`
      : "";
    // Leaves first: their gradients are what training would use.
    // After a backward, the program's own writes (`p.grad = 0`) are not the engine's.
    const parted = partedAt(timeline, state)
      .slice()
      .sort(
        (a, b) =>
          Number(trace.nodes[b.node].kind === "leaf") -
            Number(trace.nodes[a.node].kind === "leaf") || a.node - b.node,
      );
    const atEnd = state.index === state.frameCount - 1;
    const key = parted.map((p) => `${p.node}:${p.grad}`).join(",");
    status.textContent =
      total === 0
        ? (info?.harmless ?? "")
        : parted.length === 0
          ? `By the end, ${total} ${total === 1 ? "gradient differs" : "gradients differ"} from the right engine's.`
          : atEnd
            ? `${total} ${total === 1 ? "gradient ends" : "gradients end"} wrong:`
            : `${parted.length} of ${total} wrong ${total === 1 ? "gradient is" : "gradients are"} final so far:`;
    if (key === shownKey) return;
    shownKey = key;
    const items = parted.slice(0, MOST_LISTED).map(({ node, grad, correct }) =>
      html(
        "li",
        {
          "data-testid": "bug-lab-parted",
          "data-node-id": trace.nodes[node].id,
          "data-grad": String(grad),
          "data-correct-grad": String(correct),
        },
        [
          html("code", { text: `${operand(names[node])}.grad` }),
          " is ",
          html("strong", { class: "bug-lab-wrong", text: formatValue(grad) }),
          "; the right engine gives ",
          html("strong", { class: "bug-lab-right", text: formatValue(correct) }),
        ],
      ),
    );
    if (parted.length > MOST_LISTED)
      items.push(html("li", { text: `and ${parted.length - MOST_LISTED} more` }));
    list.replaceChildren(...items);
  }
  return { update };
}
