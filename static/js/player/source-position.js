/**
 * Where the server's line and column point in the editor's text.
 *
 * The server counts lines the way Python's tokenizer does (`\r\n`, `\r` and `\n`
 * each end a line) and columns in characters (code points), while JavaScript
 * strings index UTF-16 units, in which an emoji is two. These helpers convert, so
 * the caret lands on the character the error is about.
 *
 * Example: in "😀😀x = ?", column 7 (the `?`) is UTF-16 index 9.
 * Every host words the place the same way: placeText({line: 3, column: 5}) -> "Line 3, column 5".
 */

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The source's lines, split as the server splits them.
 * @param {string} source
 * @returns {string[]}
 */
export function sourceLines(source) {
  return source.split(LINE_BREAK);
}

/**
 * UTF-16 index in `lineText` of the 1-based code-point `column` (clamped to the line).
 * @param {string} lineText
 * @param {number} column
 */
export function utf16Index(lineText, column) {
  let index = 0;
  let seen = 0;
  for (const character of lineText) {
    if (seen >= column - 1) break;
    index += character.length;
    seen += 1;
  }
  return index;
}

/**
 * UTF-16 offset in `source` of (line, column), both 1-based; column null = line start.
 * @param {string} source
 * @param {number} line
 * @param {number | null} column
 */
export function sourceOffset(source, line, column) {
  let offset = 0;
  let current = 1;
  const breaks = new RegExp(LINE_BREAK.source, "g");
  while (current < line) {
    const match = breaks.exec(source);
    if (match === null) break;
    offset = match.index + match[0].length;
    current += 1;
  }
  const lineText = sourceLines(source.slice(offset))[0];
  return offset + utf16Index(lineText, column ?? 1);
}

/**
 * Where a problem is in the program, in words: the editor, the embeds and the export say it so.
 * @param {{line: number | null, column: number | null}} place
 * @returns {string}  "Line 3, column 5", "Line 3", or "" when there is no line
 */
export function placeText({ line, column }) {
  if (line === null) return "";
  return column === null ? `Line ${line}` : `Line ${line}, column ${column}`;
}

/**
 * What goes before the `^` under an error's character: a space for each character
 * before the 1-based code-point `column`, but a tab for a tab, so the caret lines up
 * however wide the `<pre>` draws tabs. Example: caretPad("\tx = q", 6) -> "\t    ".
 * @param {string} lineText
 * @param {number} column
 */
export function caretPad(lineText, column) {
  let pad = "";
  for (const character of lineText) {
    if (pad.length >= column - 1) break;
    pad += character === "\t" ? "\t" : " ";
  }
  return pad + " ".repeat(Math.max(0, column - 1 - pad.length));
}
