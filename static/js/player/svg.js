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
    const [p0, p1, p2, p3] = bowedBend(first, last, bow);
    return `M${p0.x},${p0.y}C${p1.x},${p1.y} ${p2.x},${p2.y} ${p3.x},${p3.y}`;
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

/** How far a repeated edge's ends sit off the centre line, at most: inside the record
 * (36 px tall) and meeting the op's circle (radius 13). */
const BOW_END_OFFSET = 9;
/** How far past its op's left side a repeated edge ends: under the circle, whose fill
 * hides the end, so an end off the centre line still meets the circle's edge. */
const BOW_END_INSET = 4;

/**
 * The one cubic bend of a straight or repeated edge. A repeat (bow ≠ 0) leaves its
 * record and meets its op off the centre line as well as bulging between them: an op
 * sits close to its operands' records, and a bulge alone over those few pixels read as
 * a ripple on one line rather than as `a` going into `a + a` twice.
 * Example: bowedBend({x: 0, y: 0}, {x: 20, y: 0}, 14) ->
 *   [{x: 0, y: 9}, {x: 10, y: 14}, {x: 10, y: 14}, {x: 24, y: 9}]
 * @param {{x: number, y: number}} first
 * @param {{x: number, y: number}} last
 * @param {number} bow
 */
function bowedBend(first, last, bow) {
  const mx = (first.x + last.x) / 2;
  const off = Math.max(-BOW_END_OFFSET, Math.min(BOW_END_OFFSET, bow));
  const inset = bow === 0 ? 0 : BOW_END_INSET;
  return [
    { x: first.x, y: first.y + off },
    { x: mx, y: first.y + bow },
    { x: mx, y: last.y + bow },
    { x: last.x + inset, y: last.y + off },
  ];
}

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
      ? [bowedBend(first, last, bow)]
      : points.slice(1).map((b, i) => {
          const a = points[i];
          const mx = (a.x + b.x) / 2;
          return [a, { x: mx, y: a.y }, { x: mx, y: b.y }, b];
        });
  const out = [bends[0][0]];
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
