/**
 * Box sizes shared by the layouts and the graph view. Values and gradients are
 * drawn in a monospace face, so a record's width follows from character counts.
 */

export const SIZES = {
  charWidth: 7.3,
  recordHeight: 36,
  cellPadding: 7,
  valueCellChars: 9,
  // Room for a folded box's path, `layers[1].neurons[0]` (pass-graph.js).
  maxLabelChars: 22,
  opRadius: 13,
  // A named op's text (tanh, exp, ^-1) is drawn at a record's value size, so it reads at
  // the smallest readable zoom (graph-camera.js); each character is about this wide.
  opCharWidth: 7.6,
};

/**
 * The width of an op's shape: a circle for a symbol of one or two characters, else a
 * pill wide enough for its text. The layout leaves this room between the columns.
 * Example: opWidth(1) -> 26; opWidth(4) -> 40.4 ("tanh")
 * @param {number} chars  the length of the op's glyph
 */
export function opWidth(chars) {
  const diameter = 2 * SIZES.opRadius;
  return chars > 2 ? Math.max(diameter, chars * SIZES.opCharWidth + 10) : diameter;
}

/**
 * The width of the topo badge showing this 1-based position, drawn centred on a record's
 * top-left corner (graph-scene.js); the layouts keep op shapes clear of it.
 * Example: topoBadgeWidth(7) -> 18; topoBadgeWidth(134) -> 27.5
 * @param {number} position
 */
export function topoBadgeWidth(position) {
  return Math.max(18, String(position).length * 6.5 + 8);
}

/**
 * The label as drawn: long labels are cut with an ellipsis (the full text stays in
 * the node's tooltip, table row and data-label).
 * Example: visibleLabel("a_very_long_label_indeed_so") -> "a_very_long_label_ind…"
 * @param {string} label
 */
export function visibleLabel(label) {
  return label.length > SIZES.maxLabelChars ? `${label.slice(0, SIZES.maxLabelChars - 1)}…` : label;
}

/**
 * Widths of a record's cells `label | data | grad` for a given label; an empty
 * label gets no cell. Value cells fit `valueChars` characters (the widest number
 * the graph will show; 9 when unknown).
 * Example: recordCells("x1") -> {label: 28.6, value: 79.7, width: 188};
 * recordCells("x1", 7) -> {label: 28.6, value: 65.1, width: 158.8}
 * @param {string} label
 * @param {number} [valueChars]
 */
export function recordCells(label, valueChars = SIZES.valueCellChars) {
  const chars = visibleLabel(label).length;
  const labelWidth = chars === 0 ? 0 : Math.max(2, chars) * SIZES.charWidth + 2 * SIZES.cellPadding;
  const valueWidth = valueChars * SIZES.charWidth + 2 * SIZES.cellPadding;
  return { label: labelWidth, value: valueWidth, width: labelWidth + 2 * valueWidth };
}

/**
 * Whether the trace calls a node by its label (TRACE.md `name`): as it is, or cut with
 * `…`. It does not when another node took the label too, as a running sum's variable:
 * of `loss = Value(0.0)` and `loss = loss + d*d`, only the last sum is `loss`, the leaf
 * `0` and the partial sums `0+d*d`…, so the graph does not draw three `loss` records.
 * Example: labelIsName("loss", "0") -> false; labelIsName("x1", "x1") -> true
 * @param {string} label
 * @param {string} name  "" when the trace gives none
 */
export function labelIsName(label, name) {
  return (
    name === "" ||
    name === label ||
    (name.endsWith("\u2026") && label.startsWith(name.slice(0, -1)))
  );
}
