/**
 * Box sizes shared by the layouts and the graph view. Values and gradients are
 * drawn in a monospace face, so a record's width follows from character counts.
 */

export const SIZES = {
  charWidth: 7.3,
  recordHeight: 36,
  cellPadding: 7,
  valueCellChars: 9,
  maxLabelChars: 14,
  opRadius: 13,
};

/**
 * The label as drawn: long labels are cut with an ellipsis (the full text stays in
 * the node's tooltip, table row and data-label).
 * Example: visibleLabel("a_very_long_label_indeed") -> "a_very_long_l…"
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
