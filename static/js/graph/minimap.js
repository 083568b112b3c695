/**
 * The minimap: a small overview of a big graph (more than MINIMAP_MIN_NODES values)
 * in a corner of the graph frame, with the main view's rectangle and the current
 * value marked on it. Clicking or dragging on it moves the main view there; focused,
 * the arrow keys pan the main view (Shift: bigger steps) and Enter brings the current
 * value into view. A button among the zoom tools hides and shows it (the choice is
 * remembered); graphs of up to MINIMAP_MIN_NODES values have neither.
 *
 * Two canvases: the graph itself, drawn once per layout (again on a theme change,
 * a resize or new folds), and over it the view's rectangle and the current value,
 * redrawn at most once per animation frame when the view moves or the frame
 * changes, which costs a clear and two shapes, so scrubbing does not slow down.
 * The maths (sizes, graph <-> minimap points) is minimap-math.js's.
 */
import {
  MINIMAP_MIN_SIDE,
  minimapSize,
  minimapTransform,
  panByStep,
  toMinimap,
  viewCenteredAt,
  viewOnMinimap,
} from "./minimap-math.js";
import { html } from "../player/svg.js";

const KEY = "backprop-animator.minimap";
/** The theme's custom properties the minimap paints with. */
const COLOURS = ["--edge", "--muted", "--focus", "--ink", "--build", "--active", "--surface"];
/** The largest minimap, in CSS pixels, and the most of the frame's width and height it takes. */
const MOST = { width: 200, height: 150, widthShare: 0.3, heightShare: 0.4 };

/**
 * @param {{
 *   frame: HTMLElement, tools: HTMLElement,
 *   scene: import("./graph-canvas.js").FarScene,
 *   panZoom: ReturnType<typeof import("./pan-zoom.js").attachPanZoom>,
 *   showCurrent: (state: import("../passes/timeline.js").FrameState) => void,
 *   onHandMove: () => void,
 * }} options
 *   scene: graph-canvas.js's farScene (its hidden marks the values folded away, kept
 *   by graph-view.js; they and their edges are left out); showCurrent: bring the
 *   current value into the main view
 */
export function mountMinimap({ frame, tools, scene, panZoom, showCurrent, onHandMove }) {
  const { layout } = scene;
  const { graphCanvas, viewCanvas, box, toggle } = buildMinimap();
  tools.append(toggle);
  frame.append(box);

  /** @type {import("./view-transform.js").Size} */
  let size = { width: 0, height: 0 };
  let transform = { x: 0, y: 0, k: 1 };
  let graphDrawn = false;
  let queued = 0;
  /** @type {import("../passes/timeline.js").FrameState | null} */
  let latest = null;
  // The theme's colours, read when the graph is drawn (a theme change draws it again),
  // so a frame's redraw reads no style.
  /** @type {Record<string, string>} */
  const colours = Object.fromEntries(COLOURS.map((name) => [name, "#888"]));
  let shown = readStored() ?? true;

  /** @param {boolean} value @returns {boolean} value */
  function setShown(value) {
    shown = value;
    box.hidden = !value;
    toggle.setAttribute("aria-pressed", String(value));
    if (value) {
      graphDrawn = false;
      queue();
    }
    return value;
  }

  /** Size both canvases for the frame's size (a change means drawing the graph again). */
  function resize() {
    const next = minimapSize(layout, sizeLimit(panZoom.size));
    if (next.width === size.width && next.height === size.height) return;
    size = next;
    transform = minimapTransform(layout, size);
    sizeCanvases(box, [graphCanvas, viewCanvas], size);
    graphDrawn = false;
  }

  /** The whole graph: every edge a hairline, every value a dot. Once per layout. */
  function drawGraph() {
    graphDrawn = true;
    const context = context2d(graphCanvas);
    if (!context) return;
    const style = getComputedStyle(box);
    for (const name of Object.keys(colours))
      colours[name] = style.getPropertyValue(name).trim() || "#888";
    paintGraph(context, scene, transform, colours);
  }

  function queue() {
    if (!shown || queued) return;
    queued = requestAnimationFrame(() => {
      queued = 0;
      if (!shown) return;
      resize();
      if (!graphDrawn) drawGraph();
      const context = context2d(viewCanvas);
      const rect = viewOnMinimap(panZoom.view, panZoom.size, transform, size);
      if (context) drawView(context, box, { scene, rect, size, transform, colours, latest });
    });
  }

  listenToDrags(box, viewCanvas, (x, y) => {
    onHandMove();
    const point = { x: x * size.width, y: y * size.height };
    panZoom.setView(viewCenteredAt(panZoom.view, panZoom.size, layout, transform, point));
  });
  box.addEventListener("keydown", (event) => {
    const move = arrowMove(event);
    if (move) {
      onHandMove();
      panZoom.setView(panByStep(panZoom.view, panZoom.size, layout, ...move));
    } else if (event.key === "Enter" && latest) showCurrent(latest);
    else return;
    event.preventDefault(); // the player steps on arrows: this press was the minimap's
  });
  toggle.addEventListener("click", () => store(setShown(!shown)));

  setShown(shown);

  return {
    /** @param {import("../passes/timeline.js").FrameState} state */
    update(state) {
      const moved = state.current !== latest?.current || state.phase !== latest?.phase;
      latest = state;
      if (moved) queue();
    },
    /** The main view moved. */
    viewChanged: queue,
    /** The theme or the folds changed: draw the graph again (a resize is checked per draw). */
    redraw() {
      graphDrawn = false;
      queue();
    },
    get shown() {
      return shown;
    },
    destroy() {
      cancelAnimationFrame(queued);
      box.remove();
      toggle.remove();
    },
  };
}

function readStored() {
  try {
    const value = localStorage.getItem(KEY);
    return value === "shown" ? true : value === "hidden" ? false : null;
  } catch {
    return null;
  }
}

/** The minimap's elements: its box with the graph's canvas and the view's, and its toggle. */
function buildMinimap() {
  const graphCanvas = html("canvas", {
    class: "minimap-graph",
    "data-testid": "minimap-graph",
    "aria-hidden": "true",
  });
  const viewCanvas = html("canvas", {
    class: "minimap-view",
    "data-testid": "minimap-view",
    "aria-hidden": "true",
  });
  const box = html(
    "div",
    {
      class: "minimap",
      "data-testid": "minimap",
      tabindex: 0,
      role: "group",
      "aria-roledescription": "minimap",
      "aria-label":
        "Minimap of the whole graph: click or drag to move the view there; arrow keys pan, Enter shows the current value",
      "aria-keyshortcuts": "ArrowLeft ArrowRight ArrowUp ArrowDown Enter",
    },
    [graphCanvas, viewCanvas],
  );
  const toggle = html("button", {
    type: "button",
    class: "text-button",
    "data-testid": "minimap-toggle",
    "aria-pressed": "true",
    title: "Show or hide the minimap",
    text: "Map",
  });
  return { graphCanvas, viewCanvas, box, toggle };
}

/** @param {HTMLCanvasElement} canvas */
function context2d(canvas) {
  const context = canvas.getContext("2d");
  if (!context) return null;
  const ratio = globalThis.devicePixelRatio || 1;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return context;
}

/**
 * Paint the graph on the minimap: every edge a hairline, every value a dot.
 * @param {CanvasRenderingContext2D} context
 * @param {import("./graph-canvas.js").FarScene} scene
 * @param {{x: number, y: number, k: number}} transform  graph -> minimap
 * @param {Record<string, string>} colours  the theme's, by custom property
 */
function paintGraph(context, scene, { x, y, k }, colours) {
  const { bounds, edgeEnds, edgeParent, edgeChild, hidden } = scene;
  context.beginPath();
  for (let j = 0; j < edgeParent.length; j++) {
    if (hidden[edgeParent[j]] || hidden[edgeChild[j]]) continue;
    const e = 4 * j;
    context.moveTo(x + edgeEnds[e] * k, y + edgeEnds[e + 1] * k);
    context.lineTo(x + edgeEnds[e + 2] * k, y + edgeEnds[e + 3] * k);
  }
  context.strokeStyle = colours["--edge"];
  context.globalAlpha = 0.35;
  context.lineWidth = 0.5;
  context.stroke();
  context.globalAlpha = 1;
  context.beginPath();
  for (let i = 0; i < hidden.length; i++) {
    if (hidden[i]) continue;
    const left = x + bounds[4 * i] * k;
    const top = y + bounds[4 * i + 1] * k;
    context.rect(
      left,
      top,
      Math.max(1, (bounds[4 * i + 2] - bounds[4 * i]) * k),
      Math.max(1, (bounds[4 * i + 3] - bounds[4 * i + 1]) * k),
    );
  }
  context.fillStyle = colours["--muted"];
  context.globalAlpha = 0.7;
  context.fill();
  context.globalAlpha = 1;
}

/**
 * The main view's rectangle on the minimap; a view that is a speck of the graph gets
 * cross hairs, so the eye finds it.
 * @param {CanvasRenderingContext2D} context
 * @param {{x: number, y: number, width: number, height: number}} rect
 * @param {import("./view-transform.js").Size} size  the minimap's
 * @param {Record<string, string>} colours
 */
function paintView(context, rect, size, colours) {
  context.fillStyle = colours["--focus"];
  context.globalAlpha = 0.16;
  context.fillRect(rect.x, rect.y, rect.width, rect.height);
  context.globalAlpha = 1;
  context.lineWidth = 1.5;
  context.strokeStyle = colours["--ink"];
  context.strokeRect(rect.x + 0.75, rect.y + 0.75, rect.width - 1.5, rect.height - 1.5);
  if (rect.width < 16 || rect.height < 16) {
    const cx = rect.x + rect.width / 2;
    const cy = rect.y + rect.height / 2;
    context.globalAlpha = 0.55;
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(0, cy);
    context.lineTo(rect.x, cy);
    context.moveTo(rect.x + rect.width, cy);
    context.lineTo(size.width, cy);
    context.moveTo(cx, 0);
    context.lineTo(cx, rect.y);
    context.moveTo(cx, rect.y + rect.height);
    context.lineTo(cx, size.height);
    context.stroke();
    context.globalAlpha = 1;
  }
}

/**
 * The current value's dot.
 * @param {CanvasRenderingContext2D} context
 * @param {{x: number, y: number}} at
 * @param {string} fill
 * @param {string} outline
 */
function paintCurrent(context, at, fill, outline) {
  context.beginPath();
  context.arc(at.x, at.y, 3, 0, 2 * Math.PI);
  context.fillStyle = fill;
  context.fill();
  context.lineWidth = 1;
  context.strokeStyle = outline;
  context.stroke();
}

/**
 * The pan an arrow key asks for, in steps (Shift: three), or null for any other key.
 * @param {KeyboardEvent} event
 * @returns {[number, number] | null}
 */
function arrowMove(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const step = event.shiftKey ? 3 : 1;
  const moves = /** @type {Record<string, [number, number]>} */ ({
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  });
  return moves[event.key] ?? null;
}

/**
 * How big the minimap may be in a frame of this size.
 * @param {import("./view-transform.js").Size} view
 */
function sizeLimit(view) {
  return {
    width: Math.min(MOST.width, Math.max(MINIMAP_MIN_SIDE, view.width * MOST.widthShare)),
    height: Math.min(MOST.height, Math.max(MINIMAP_MIN_SIDE, view.height * MOST.heightShare)),
  };
}

/**
 * Give the box and its canvases the minimap's size (the canvases in device pixels).
 * @param {HTMLElement} box
 * @param {HTMLCanvasElement[]} canvases
 * @param {import("./view-transform.js").Size} size
 */
function sizeCanvases(box, canvases, size) {
  const ratio = globalThis.devicePixelRatio || 1;
  for (const canvas of canvases) {
    canvas.width = Math.round(size.width * ratio);
    canvas.height = Math.round(size.height * ratio);
  }
  box.style.width = `${size.width}px`;
  box.style.height = `${size.height}px`;
}

/**
 * A click or a drag on the minimap: `moveTo(x, y)` with the pointer's place as shares
 * (0-1) of the canvas's width and height, at the press and at each move while pressed.
 * @param {HTMLElement} box
 * @param {HTMLCanvasElement} canvas
 * @param {(x: number, y: number) => void} moveTo
 */
function listenToDrags(box, canvas, moveTo) {
  let dragging = -1;
  /** @param {PointerEvent} event */
  const move = (event) => {
    const rect = canvas.getBoundingClientRect();
    moveTo((event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height);
  };
  box.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    dragging = event.pointerId;
    box.setPointerCapture?.(event.pointerId);
    box.focus({ preventScroll: true });
    move(event);
  });
  box.addEventListener("pointermove", (event) => {
    if (event.pointerId === dragging) move(event);
  });
  const stop = () => {
    dragging = -1;
  };
  box.addEventListener("pointerup", stop);
  box.addEventListener("pointercancel", stop);
}

/** @param {boolean} shown */
function store(shown) {
  try {
    localStorage.setItem(KEY, shown ? "shown" : "hidden");
  } catch {
    // Storage can be off (private windows, sandboxed iframes); the toggle still works.
  }
}

/**
 * The centre of value i's box.
 * @param {Float64Array | number[]} bounds  left, top, right, bottom of each value
 * @param {number} i
 */
function centre(bounds, i) {
  return {
    x: (bounds[4 * i] + bounds[4 * i + 2]) / 2,
    y: (bounds[4 * i + 1] + bounds[4 * i + 3]) / 2,
  };
}

/**
 * The main view's rectangle and the current value, on the view's canvas. Cheap: run
 * per frame. The box's `data-view` and `data-current` say where they are (tests).
 * @param {CanvasRenderingContext2D} context
 * @param {HTMLElement} box
 * @param {{scene: import("./graph-canvas.js").FarScene,
 *   rect: {x: number, y: number, width: number, height: number},
 *   size: import("./view-transform.js").Size, transform: {x: number, y: number, k: number},
 *   colours: Record<string, string>, latest: import("../passes/timeline.js").FrameState | null}} view
 */
function drawView(context, box, { scene, rect, size, transform, colours, latest }) {
  box.dataset.view = [rect.x, rect.y, rect.width, rect.height].map((v) => v.toFixed(1)).join(",");
  paintView(context, rect, size, colours);
  const current = latest?.current ?? -1;
  if (current >= 0 && !scene.hidden[current]) {
    const at = toMinimap(transform, centre(scene.bounds, current));
    const fill = colours[latest?.phase === "backward" ? "--active" : "--build"];
    paintCurrent(context, at, fill, colours["--surface"]);
    box.dataset.current = `${at.x.toFixed(1)},${at.y.toFixed(1)}`;
  } else delete box.dataset.current;
}
