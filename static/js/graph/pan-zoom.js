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
 * @param {SVGSVGElement} svgElement
 * @param {SVGGElement} viewport
 * @param {{width: number, height: number}} content  size of what the viewport holds
 * @param {() => void} [onChange]  called after every change of the view
 * @param {() => void} [onResize]  called when the svg's size changes
 */
export function attachPanZoom(svgElement, viewport, content, onChange, onResize) {
  let view = { x: 0, y: 0, k: 1 };
  let glide = 0;
  let handMoved = false;
  /** @type {{width: number, height: number} | null} */
  let size = null;
  // Reading the size once (and on resize) keeps per-frame work free of forced layouts.
  const resizeObserver =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver(() => {
          size = null;
          onResize?.();
          onChange?.();
        });
  resizeObserver?.observe(svgElement);
  const reducedMotion = () =>
    globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

  /** Where a glide in progress is going; null when the view is still. */
  /** @type {import("./view-transform.js").View | null} */
  let heading = null;
  function stopGlide() {
    cancelAnimationFrame(glide);
    heading = null;
  }

  function apply() {
    viewport.setAttribute("transform", transformAttribute(view));
    onChange?.();
  }
  function box() {
    if (!size) {
      const rect = svgElement.getBoundingClientRect();
      if (!rect.width) return { width: 800, height: 400 };
      size = { width: rect.width, height: rect.height };
    }
    return size;
  }
  /**
   * @param {number} factor
   * @param {{x: number, y: number}} [around]  screen point inside the svg that stays put
   */
  function zoomBy(factor, around) {
    stopGlide(); // a glide under way would undo the zoom
    const { width, height } = box();
    view = zoomAround(view, factor, around ?? { x: width / 2, y: height / 2 });
    apply();
  }

  /** The scale that shows everything. */
  function fitScale() {
    return fitScaleOf(content, box());
  }

  function fit() {
    handMoved = false;
    stopGlide();
    view = fitView(content, box());
    apply();
  }

  /**
   * Centre a content point, optionally at a new scale, but never so far that the
   * view shows blank space the content could fill (view-transform's clampToContent).
   * @param {number} cx
   * @param {number} cy
   * @param {number} [k]
   * @param {boolean} [instant]
   */
  function centerOn(cx, cy, k = view.k, instant = false) {
    const target = clampToContent(centerView(cx, cy, clampScale(k), box()), content, box());
    stopGlide();
    if (instant || reducedMotion()) {
      view = target;
      apply();
      return;
    }
    const from = { ...view };
    const started = performance.now();
    heading = target;
    const step = (/** @type {number} */ now) => {
      const t = Math.min(1, (now - started) / 280);
      view = glideStep(from, target, t);
      if (t < 1) glide = requestAnimationFrame(step);
      else heading = null;
      apply();
    };
    glide = requestAnimationFrame(step);
  }

  /**
   * Whether a content rectangle is comfortably on screen, or will be when the glide in
   * progress ends (so stepping faster than a glide does not start it again and again,
   * which kept the whole graph moving and redrawn at every step).
   * @param {{x: number, y: number, width: number, height: number}} rect  centre and size
   */
  function isInView(rect) {
    return rectInView(heading ?? view, box(), rect);
  }

  /** @type {{x: number, y: number, id: number} | null} */
  let drag = null;
  /** @param {PointerEvent} event */
  function onPointerDown(event) {
    if (event.button !== 0) return;
    drag = { x: event.clientX - view.x, y: event.clientY - view.y, id: event.pointerId };
    svgElement.setPointerCapture(event.pointerId);
    svgElement.classList.add("is-panning");
    stopGlide();
  }
  /** @param {PointerEvent} event */
  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    handMoved = true;
    view = { ...view, x: event.clientX - drag.x, y: event.clientY - drag.y };
    apply();
  }
  function onPointerUp() {
    drag = null;
    svgElement.classList.remove("is-panning");
  }
  /** @param {WheelEvent} event */
  function onWheel(event) {
    event.preventDefault();
    const { left, top } = svgElement.getBoundingClientRect();
    handMoved = true;
    zoomBy(Math.exp(-event.deltaY * 0.0015), { x: event.clientX - left, y: event.clientY - top });
  }

  /** Double-click zooms in where it points (shift: out), like most map viewers. @param {MouseEvent} event */
  function onDoubleClick(event) {
    const { left, top } = svgElement.getBoundingClientRect();
    handMoved = true;
    zoomBy(event.shiftKey ? 0.5 : 2, { x: event.clientX - left, y: event.clientY - top });
  }

  svgElement.addEventListener("pointerdown", onPointerDown);
  svgElement.addEventListener("pointermove", onPointerMove);
  svgElement.addEventListener("pointerup", onPointerUp);
  svgElement.addEventListener("pointercancel", onPointerUp);
  svgElement.addEventListener("wheel", onWheel, { passive: false });
  svgElement.addEventListener("dblclick", onDoubleClick);

  return {
    fit,
    fitScale,
    zoomBy,
    centerOn,
    isInView,
    /**
     * Show `next` at once (the minimap's click, drag or arrow keys): a move by hand.
     * @param {import("./view-transform.js").View} next
     */
    setView(next) {
      handMoved = true;
      stopGlide();
      view = next;
      apply();
    },
    /** Zoom from the buttons: a choice by hand, like dragging or the wheel. */
    zoomByHand(/** @type {number} */ factor) {
      handMoved = true;
      zoomBy(factor);
    },
    get scale() {
      return view.k;
    },
    /** The current view {x, y, k} (view-transform.js), for drawing on a canvas. */
    get view() {
      return view;
    },
    /** Where the view is going: a glide's end, else the current view. */
    get heading() {
      return heading ?? view;
    },
    /** The svg's size in screen pixels. */
    get size() {
      return box();
    },
    /** Whether the learner has panned or zoomed since the last fit. */
    get handMoved() {
      return handMoved;
    },
    /** Forget the measured size (call after changing the svg's size). */
    invalidate() {
      size = null;
    },
    /** The content rectangle on screen, grown by `margin` screen pixels each side. */
    visibleRect(margin = 0) {
      return rectOnScreen(view, box(), margin);
    },
    destroy() {
      resizeObserver?.disconnect();
      stopGlide();
      svgElement.removeEventListener("pointerdown", onPointerDown);
      svgElement.removeEventListener("pointermove", onPointerMove);
      svgElement.removeEventListener("pointerup", onPointerUp);
      svgElement.removeEventListener("pointercancel", onPointerUp);
      svgElement.removeEventListener("wheel", onWheel);
      svgElement.removeEventListener("dblclick", onDoubleClick);
    },
  };
}
