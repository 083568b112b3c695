/**
 * The transport's icons as small inline SVGs (system fonts lack media glyphs).
 */
import { svg } from "./svg.js";

const PATHS = {
  previous: "M6 5h2v14H6zM20 5v14L9 12z",
  next: "M16 5h2v14h-2zM4 5v14l11-7z",
  play: "M7 4.5v15l13-7.5z",
  pause: "M6 5h4v14H6zM14 5h4v14h-4z",
};

/** @param {keyof typeof PATHS} name */
export function icon(name) {
  const element = svg("svg", {
    viewBox: "0 0 24 24",
    width: 18,
    height: 18,
    "aria-hidden": "true",
    class: "icon",
  });
  svg("path", { d: PATHS[name], fill: "currentColor" }, element);
  return element;
}
