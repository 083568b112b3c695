/**
 * Pan and zoom for an SVG viewport group: drag to pan, wheel, double-click or buttons to zoom,
 * fit to screen, and glide to a point (instantly when the user prefers reduced
 * motion). Remembers whether the learner has moved the view by hand, so the host
 * can re-fit on resize only when that would not undo their choice. Knows nothing
 * about graphs; the maths lives in view-transform.js, this module only listens to
 * events and writes the transform.
 */
import {
  centerView,
  clampScale,
  clampToContent,
  fitScale as fitScaleOf,
  fitView,
  glideStep,
  isInView as rectInView,
  transformAttribute,
  visibleRect as rectOnScreen,
  zoomAround,
} from "./view-transform.js";

/**
 * One pan-zoom view's elements and mutable state, shared by the helpers below.
 * heading: where a glide in progress is going; null when the view is still.
 * @typedef {{
 *   svgElement: SVGSVGElement, viewport: SVGGElement,
 *   content: import("./view-transform.js").Size, onChange: (() => void) | undefined,
 *   view: import("./view-transform.js").View, glide: number,
 *   heading: import("./view-transform.js").View | null, handMoved: boolean,
 *   size: import("./view-transform.js").Size | null, drag: {x: number, y: number, id: number} | null
 * }} PanZoomState
 */

/**
 * @param {SVGSVGElement} svgElement
 * @param {SVGGElement} viewport
 * @param {{width: number, height: number}} content  size of what the viewport holds
 * @param {() => void} [onChange]  called after every change of the view
 * @param {() => void} [onResize]  called when the svg's size changes
 */
export function attachPanZoom(svgElement, viewport, content, onChange, onResize) {
  /** @type {PanZoomState} */
  const state = {
    svgElement,
    viewport,
    content,
    onChange,
    view: { x: 0, y: 0, k: 1 },
    glide: 0,
    heading: null,
    handMoved: false,
    size: null,
    drag: null,
  };
  // Reading the size once (and on resize) keeps per-frame work free of forced layouts.
  const resizeObserver =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver(() => {
          state.size = null;
          onResize?.();
          onChange?.();
        });
  resizeObserver?.observe(svgElement);
  const unlisten = listenToPointer(state);

  return {
    ...viewActions(state),
    get scale() {
      return state.view.k;
    },
    /** The current view {x, y, k} (view-transform.js), for drawing on a canvas. */
    get view() {
      return state.view;
    },
    /** Where the view is going: a glide's end, else the current view. */
    get heading() {
      return state.heading ?? state.view;
    },
    /** The svg's size in screen pixels. */
    get size() {
      return box(state);
    },
    /** Whether the learner has panned or zoomed since the last fit. */
    get handMoved() {
      return state.handMoved;
    },
    /** Forget the measured size (call after changing the svg's size). */
    invalidate() {
      state.size = null;
    },
    /** The content rectangle on screen, grown by `margin` screen pixels each side. */
    visibleRect(margin = 0) {
      return rectOnScreen(state.view, box(state), margin);
    },
    destroy() {
      resizeObserver?.disconnect();
      stopGlide(state);
      unlisten();
    },
  };
}

/**
 * The view's moves: fit, zoom, centre, and a view set by hand.
 * @param {PanZoomState} state
 */
function viewActions(state) {
  return {
    fit() {
      state.handMoved = false;
      stopGlide(state);
      state.view = fitView(state.content, box(state));
      apply(state);
    },
    /** The scale that shows everything. */
    fitScale() {
      return fitScaleOf(state.content, box(state));
    },
    /**
     * @param {number} factor
     * @param {{x: number, y: number}} [around]  screen point inside the svg that stays put
     */
    zoomBy(factor, around) {
      zoomBy(state, factor, around);
    },
    /**
     * Centre a content point, optionally at a new scale, but never so far that the
     * view shows blank space the content could fill (view-transform's clampToContent).
     * @param {number} cx
     * @param {number} cy
     * @param {number} [k]
     * @param {boolean} [instant]
     * @param {number} [reach]  screen pixels it may go past the content's edge (clampToContent)
     */
    centerOn(cx, cy, k = state.view.k, instant = false, reach = 0) {
      const size = box(state);
      const view = centerView(cx, cy, clampScale(k), size);
      const target = clampToContent(view, state.content, size, 16, reach);
      stopGlide(state);
      if (instant || reducedMotion()) {
        state.view = target;
        apply(state);
        return;
      }
      glideTo(state, target);
    },
    /**
     * End a glide in progress where it was heading, at once: steps coming faster than a
     * glide (an arrow key held, after one slower step began one) never glide.
     */
    settle() {
      if (!state.heading) return;
      const target = state.heading;
      stopGlide(state);
      state.view = target;
      apply(state);
    },
    /**
     * Whether a content rectangle is comfortably on screen, or will be when the glide in
     * progress ends (so stepping faster than a glide does not start it again and again,
     * which kept the whole graph moving and redrawn at every step).
     * @param {{x: number, y: number, width: number, height: number}} rect  centre and size
     * @param {number} [margin]  screen pixels it keeps from the edges (view-transform's 24)
     */
    isInView(rect, margin) {
      return rectInView(state.heading ?? state.view, box(state), rect, margin);
    },
    /**
     * Show `next` at once (the minimap's click, drag or arrow keys): a move by hand.
     * @param {import("./view-transform.js").View} next
     */
    setView(next) {
      state.handMoved = true;
      stopGlide(state);
      state.view = next;
      apply(state);
    },
    /** Zoom from the buttons: a choice by hand, like dragging or the wheel. */
    zoomByHand(/** @type {number} */ factor) {
      state.handMoved = true;
      zoomBy(state, factor);
    },
  };
}

const reducedMotion = () =>
  globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** @param {PanZoomState} state */
function stopGlide(state) {
  cancelAnimationFrame(state.glide);
  state.heading = null;
}

/** @param {PanZoomState} state */
function apply(state) {
  state.viewport.setAttribute("transform", transformAttribute(state.view));
  state.onChange?.();
}

/** @param {PanZoomState} state */
function box(state) {
  if (!state.size) {
    const rect = state.svgElement.getBoundingClientRect();
    if (!rect.width) return { width: 800, height: 400 };
    state.size = { width: rect.width, height: rect.height };
  }
  return state.size;
}

/**
 * @param {PanZoomState} state
 * @param {number} factor
 * @param {{x: number, y: number}} [around]  screen point inside the svg that stays put
 */
function zoomBy(state, factor, around) {
  stopGlide(state); // a glide under way would undo the zoom
  const { width, height } = box(state);
  state.view = zoomAround(state.view, factor, around ?? { x: width / 2, y: height / 2 });
  apply(state);
}

/**
 * Glide from the current view to `target`, a frame at a time.
 * @param {PanZoomState} state
 * @param {import("./view-transform.js").View} target
 */
function glideTo(state, target) {
  const from = { ...state.view };
  const started = performance.now();
  state.heading = target;
  const step = (/** @type {number} */ now) => {
    const t = Math.min(1, (now - started) / 280);
    state.view = glideStep(from, target, t);
    if (t < 1) state.glide = requestAnimationFrame(step);
    else state.heading = null;
    apply(state);
  };
  state.glide = requestAnimationFrame(step);
}

/**
 * Drag to pan, wheel and double-click to zoom. Returns a function that stops listening.
 * @param {PanZoomState} state
 */
function listenToPointer(state) {
  const { svgElement } = state;
  /** @param {PointerEvent} event */
  function onPointerDown(event) {
    if (event.button !== 0) return;
    const { view } = state;
    state.drag = { x: event.clientX - view.x, y: event.clientY - view.y, id: event.pointerId };
    svgElement.setPointerCapture(event.pointerId);
    svgElement.classList.add("is-panning");
    stopGlide(state);
  }
  /** @param {PointerEvent} event */
  function onPointerMove(event) {
    const { drag } = state;
    if (!drag || event.pointerId !== drag.id) return;
    state.handMoved = true;
    state.view = { ...state.view, x: event.clientX - drag.x, y: event.clientY - drag.y };
    apply(state);
  }
  function onPointerUp() {
    state.drag = null;
    svgElement.classList.remove("is-panning");
  }
  /** @param {WheelEvent} event */
  function onWheel(event) {
    event.preventDefault();
    const { left, top } = svgElement.getBoundingClientRect();
    state.handMoved = true;
    zoomBy(state, Math.exp(-event.deltaY * 0.0015), {
      x: event.clientX - left,
      y: event.clientY - top,
    });
  }

  /** Double-click zooms in where it points (shift: out), like most map viewers. @param {MouseEvent} event */
  function onDoubleClick(event) {
    const { left, top } = svgElement.getBoundingClientRect();
    state.handMoved = true;
    zoomBy(state, event.shiftKey ? 0.5 : 2, { x: event.clientX - left, y: event.clientY - top });
  }

  svgElement.addEventListener("pointerdown", onPointerDown);
  svgElement.addEventListener("pointermove", onPointerMove);
  svgElement.addEventListener("pointerup", onPointerUp);
  svgElement.addEventListener("pointercancel", onPointerUp);
  svgElement.addEventListener("wheel", onWheel, { passive: false });
  svgElement.addEventListener("dblclick", onDoubleClick);
  return () => {
    svgElement.removeEventListener("pointerdown", onPointerDown);
    svgElement.removeEventListener("pointermove", onPointerMove);
    svgElement.removeEventListener("pointerup", onPointerUp);
    svgElement.removeEventListener("pointercancel", onPointerUp);
    svgElement.removeEventListener("wheel", onWheel);
    svgElement.removeEventListener("dblclick", onDoubleClick);
  };
}
