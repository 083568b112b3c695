/**
 * The title of a player of a program: its first line of code, shortened. Titles
 * name iframes (for screen readers), exports and notebook outputs. app/export.py
 * reads TITLE_PREFIX and TITLE_MAX_CHARS from here and applies the same rule.
 *
 * Example: programTitle("# neuron\no = tanh(x)") -> "backprop-animator: o = tanh(x)"
 */

export const TITLE_PREFIX = "backprop-animator";
/** Characters of the program's line kept in a title; a longer line ends in "…". */
export const TITLE_MAX_CHARS = 60;

/** @param {string} source */
export function programTitle(source) {
  const line =
    source
      .split(/\r?\n/)
      .map((text) => text.trim())
      .find((text) => text && !text.startsWith("#")) ?? "";
  const short = line.length > TITLE_MAX_CHARS ? `${line.slice(0, TITLE_MAX_CHARS - 1)}…` : line;
  return short ? `${TITLE_PREFIX}: ${short}` : TITLE_PREFIX;
}
