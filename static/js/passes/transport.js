/**
 * Transport controls: play/pause, step, the scrubber with phase markers, the
 * `k / N` counter and speed. It renders playback state and reports user intent
 * through callbacks; it never changes the frame itself.
 */
import { SPEEDS } from "./playback.js";
import { icon } from "../player/icons.js";
import { html } from "../player/svg.js";

const PHASE_NAMES = { build: "Build", sort: "Sort", backward: "Backward", update: "Update" };

/**
 * @param {HTMLElement} container
 * @param {{frameCount: number, spans: Array<{phase: string, start: number, length: number, pass?: number, passStart?: boolean}>,
 *   onSeek: (k: number) => void, onStep: (delta: number) => void, onToggle: () => void,
 *   onSpeed: (speed: number) => void}} options
 */
export function mountTransport(
  container,
  { frameCount, spans, onSeek, onStep, onToggle, onSpeed },
) {
  const back = html(
    "button",
    {
      type: "button",
      class: "icon-button",
      "aria-label": "Previous frame",
      title: "Previous frame (←)",
    },
    [icon("previous")],
  );
  const play = html("button", {
    type: "button",
    class: "play-button",
    "aria-label": "Play",
    title: "Play / pause (Space)",
  });
  const forward = html(
    "button",
    { type: "button", class: "icon-button", "aria-label": "Next frame", title: "Next frame (→)" },
    [icon("next")],
  );
  const scrubber = html("input", {
    type: "range",
    min: 0,
    max: frameCount - 1,
    step: 1,
    value: 0,
    class: "scrubber",
    "data-testid": "scrubber",
    "aria-label": "Frame",
  });
  const markers = html("div", { class: "phase-markers", "aria-hidden": "true" });
  for (const span of spans) {
    // Several passes (SPEC §11): each pass's first run starts with a pass mark.
    const marker = html(
      "div",
      {
        class: `phase-marker phase-${span.phase}${span.passStart ? " pass-start" : ""}`,
        "data-testid": "phase-marker",
        "data-phase": span.phase,
        "data-pass-start": Boolean(span.passStart),
      },
      [html("span", { text: PHASE_NAMES[/** @type {keyof typeof PHASE_NAMES} */ (span.phase)] })],
    );
    marker.style.flexGrow = String(span.length);
    marker.title = `${span.pass !== undefined ? `Pass ${span.pass + 1} \u00B7 ` : ""}${PHASE_NAMES[/** @type {keyof typeof PHASE_NAMES} */ (span.phase)]}: frames ${span.start + 1}–${span.start + span.length}`;
    markers.append(marker);
  }
  const counter = html("output", {
    class: "frame-counter",
    "data-testid": "frame-counter",
    "aria-label": "Frame number",
  });
  const speed = html(
    "select",
    { class: "speed", "data-testid": "speed", "aria-label": "Playback speed" },
    SPEEDS.map((s) => html("option", { value: s, text: `${s}×` })),
  );
  speed.value = "1";
  const track = html("div", { class: "scrub-track" }, [scrubber, markers]);
  const bar = html("div", { class: "transport" }, [
    html("div", { class: "transport-buttons" }, [back, play, forward]),
    track,
    counter,
    speed,
  ]);
  container.replaceChildren(bar);

  back.addEventListener("click", () => onStep(-1));
  forward.addEventListener("click", () => onStep(1));
  play.addEventListener("click", onToggle);
  scrubber.addEventListener("input", () => onSeek(Number(scrubber.value)));
  speed.addEventListener("change", () => onSpeed(Number(speed.value)));

  /** @param {{frame: number, playing: boolean, speed: number, frameCount: number}} state */
  function update(state) {
    const value = String(state.frame);
    if (scrubber.value !== value) scrubber.value = value;
    scrubber.setAttribute("aria-valuetext", `Frame ${state.frame + 1} of ${state.frameCount}`);
    counter.textContent = `${state.frame + 1} / ${state.frameCount}`;
    play.setAttribute("aria-label", state.playing ? "Pause" : "Play");
    play.classList.toggle("is-playing", state.playing);
    if (play.dataset.icon !== String(state.playing)) {
      play.dataset.icon = String(state.playing);
      play.replaceChildren(icon(state.playing ? "pause" : "play"));
    }
    // A step button disabled at either end while it has the focus would drop it to the
    // page's body: the scrubber takes it, where the arrow keys go on stepping.
    const focused = /** @type {Document | ShadowRoot} */ (bar.getRootNode()).activeElement;
    back.disabled = state.frame === 0;
    forward.disabled = state.frame === state.frameCount - 1;
    if ((focused === back && back.disabled) || (focused === forward && forward.disabled))
      scrubber.focus();
    if (speed.value !== String(state.speed)) speed.value = String(state.speed);
  }

  /** While the host loads a new trace: the counter says so, until the next update. */
  function showWaiting() {
    counter.textContent = "… / …";
  }

  return { update, showWaiting, scrubber, destroy: () => bar.remove() };
}
