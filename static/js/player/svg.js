/**
 * Tiny helpers for building SVG and HTML without innerHTML: user text (labels,
 * sources) only ever becomes a text node.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {SVGElement | null} [parent]
 */
export function svg(tag, attributes = {}, parent = null) {
  const element = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (parent) parent.append(element);
  return element;
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean>} [attributes]  "text" sets textContent
 * @param {Array<Node | string>} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function html(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") element.textContent = String(value);
    else if (value === true) element.setAttribute(name, "");
    else if (value !== false) element.setAttribute(name, String(value));
  }
  element.append(...children);
  return element;
}

/**
 * A smooth left-to-right path through layout points: straight ends, cubic bends
 * with horizontal tangents so edges read like the article's figures.
 * @param {Array<{x: number, y: number}>} points
 * @param {number} [bow]  sideways bulge for repeated edges (a + a)
 */
export function edgePath(points, bow = 0) {
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length <= 2 || bow !== 0) {
    const mx = (first.x + last.x) / 2;
    return `M${first.x},${first.y}C${mx},${first.y + bow} ${mx},${last.y + bow} ${last.x},${last.y}`;
  }
  let d = `M${first.x},${first.y}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    const mx = (a.x + b.x) / 2;
    d += `C${mx},${a.y} ${mx},${b.y} ${b.x},${b.y}`;
  }
  return d;
}

/**
 * The sideways bulge of the n-th repeat of an edge (`a + a` draws two).
 * Example: edgeBow(0) -> 0, edgeBow(1) -> 14, edgeBow(2) -> -14, edgeBow(3) -> 28
 * @param {number} repeat
 */
export const edgeBow = (repeat) =>
  repeat === 0 ? 0 : (repeat % 2 ? 1 : -1) * 14 * Math.ceil(repeat / 2);

/**
 * The curve edgePath draws, as straight pieces (`steps` per bend), for tests of what
 * is on screen. Example: edgePolyline([{x: 0, y: 0}, {x: 10, y: 10}], 0, 2) ->
 * [{x: 0, y: 0}, {x: 5, y: 5}, {x: 10, y: 10}]
 * @param {Array<{x: number, y: number}>} points
 * @param {number} [bow]
 * @param {number} [steps]
 */
export function edgePolyline(points, bow = 0, steps = 6) {
  const first = points[0];
  const last = points[points.length - 1];
  const bends =
    points.length <= 2 || bow !== 0
      ? [
          [
            first,
            { x: (first.x + last.x) / 2, y: first.y + bow },
            { x: (first.x + last.x) / 2, y: last.y + bow },
            last,
          ],
        ]
      : points.slice(1).map((b, i) => {
          const a = points[i];
          const mx = (a.x + b.x) / 2;
          return [a, { x: mx, y: a.y }, { x: mx, y: b.y }, b];
        });
  const out = [first];
  for (const [p0, p1, p2, p3] of bends) {
    for (let s = 1; s <= steps; s++) {
      const t = s / steps;
      const u = 1 - t;
      out.push({
        x: u * u * u * p0.x + 3 * u * u * t * p1.x + 3 * u * t * t * p2.x + t * t * t * p3.x,
        y: u * u * u * p0.y + 3 * u * u * t * p1.y + 3 * u * t * t * p2.y + t * t * t * p3.y,
      });
    }
  }
  return out;
}
