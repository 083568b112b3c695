"""`textwrap` as programs format their output: `dedent`, `indent`, `wrap`, `fill`,
`shorten` and `TextWrapper` with CPython's arguments (`width`, `initial_indent`,
`subsequent_indent`, `expand_tabs`, `tabsize`, `replace_whitespace`,
`fix_sentence_endings`, `break_long_words`, `drop_whitespace`, `break_on_hyphens`,
`max_lines`, `placeholder`).

The source below is CPython 3.11's `textwrap.py` (Python Software Foundation License) in
the interpreter's own language, compiled in library mode when a program imports
`textwrap` (`Compiler.library_module`): the same lines, CPython's ValueErrors, its
errors for text that is no string (`'int' object has no attribute 'expandtabs'`), a
`predicate` of `indent` the program's own function, run by the machine. Each line of it
is charged as the program's are; a long word broken at a narrow width is sliced again
for each line, as CPython slices it, each slice charged by its length.

Native, where CPython uses regular expressions: `_split(text, on_hyphens)`, the chunks
CPython's `wordsep_re` (or `wordsep_simple_re`) splits a text into, and `_dedent(text)`,
CPython's `dedent` itself; both on a string the interpreter's bound keeps within 10,000
characters, with Python's own expressions (whose time is linear in the text), charged a
step per two characters.
"""

from __future__ import annotations

import textwrap
from typing import Any

from backprop_animator.engine.interpreter.objects import Builtin
from backprop_animator.engine.interpreter.runtime import ProgramError, State
from backprop_animator.engine.interpreter.text import cpython_type

_HYPHENATED = textwrap.TextWrapper.wordsep_re
_SIMPLE = textwrap.TextWrapper.wordsep_simple_re


def native_names(state: State) -> dict[str, Any]:
    def text_of(value: Any) -> str:
        if type(value) is not str:
            words = f"expected string or bytes-like object, got '{cpython_type(value)}'"
            raise ProgramError(words, kind="TypeError")
        state.charge(len(value) // 2 + 1)
        return value

    def split(args: list[Any], kwargs: dict[str, Any]) -> list[str]:
        text, on_hyphens = args
        pattern = _HYPHENATED if on_hyphens is True else _SIMPLE
        chunks = [chunk for chunk in pattern.split(text_of(text)) if chunk]
        state.charge(len(chunks))
        return chunks

    def dedent(args: list[Any], kwargs: dict[str, Any]) -> str:
        text = text_of(args[0])
        state.charge(text.count("\n"))
        return textwrap.dedent(text)

    return {"_split": Builtin("_split", split), "_dedent": Builtin("_dedent", dedent)}


TEXTWRAP_SOURCE = """
_whitespace = '\\t\\n\\x0b\\x0c\\r '


class TextWrapper:
    unicode_whitespace_trans = dict.fromkeys(map(ord, _whitespace), ord(' '))

    def __init__(self,
                 width=70,
                 initial_indent="",
                 subsequent_indent="",
                 expand_tabs=True,
                 replace_whitespace=True,
                 fix_sentence_endings=False,
                 break_long_words=True,
                 drop_whitespace=True,
                 break_on_hyphens=True,
                 tabsize=8,
                 *,
                 max_lines=None,
                 placeholder=' [...]'):
        self.width = width
        self.initial_indent = initial_indent
        self.subsequent_indent = subsequent_indent
        self.expand_tabs = expand_tabs
        self.replace_whitespace = replace_whitespace
        self.fix_sentence_endings = fix_sentence_endings
        self.break_long_words = break_long_words
        self.drop_whitespace = drop_whitespace
        self.break_on_hyphens = break_on_hyphens
        self.tabsize = tabsize
        self.max_lines = max_lines
        self.placeholder = placeholder

    def _munge_whitespace(self, text):
        if self.expand_tabs:
            text = text.expandtabs(self.tabsize)
        if self.replace_whitespace:
            text = text.translate(self.unicode_whitespace_trans)
        return text

    def _split(self, text):
        return _split(text, self.break_on_hyphens)

    def _fix_sentence_endings(self, chunks):
        i = 0
        while i < len(chunks)-1:
            if chunks[i+1] == " " and _sentence_end(chunks[i]):
                chunks[i+1] = "  "
                i += 2
            else:
                i += 1

    def _handle_long_word(self, reversed_chunks, cur_line, cur_len, width):
        if width < 1:
            space_left = 1
        else:
            space_left = width - cur_len

        if self.break_long_words:
            end = space_left
            chunk = reversed_chunks[-1]
            if self.break_on_hyphens and len(chunk) > space_left:
                hyphen = chunk.rfind('-', 0, space_left)
                if hyphen > 0 and any(c != '-' for c in chunk[:hyphen]):
                    end = hyphen + 1
            cur_line.append(chunk[:end])
            reversed_chunks[-1] = chunk[end:]

        elif not cur_line:
            cur_line.append(reversed_chunks.pop())

    def _wrap_chunks(self, chunks):
        lines = []
        if self.width <= 0:
            raise ValueError("invalid width %r (must be > 0)" % self.width)
        if self.max_lines is not None:
            if self.max_lines > 1:
                indent = self.subsequent_indent
            else:
                indent = self.initial_indent
            if len(indent) + len(self.placeholder.lstrip()) > self.width:
                raise ValueError("placeholder too large for max width")

        chunks.reverse()

        while chunks:
            cur_line = []
            cur_len = 0

            if lines:
                indent = self.subsequent_indent
            else:
                indent = self.initial_indent

            width = self.width - len(indent)

            if self.drop_whitespace and chunks[-1].strip() == '' and lines:
                del chunks[-1]

            while chunks:
                l = len(chunks[-1])
                if cur_len + l <= width:
                    cur_line.append(chunks.pop())
                    cur_len += l
                else:
                    break

            if chunks and len(chunks[-1]) > width:
                self._handle_long_word(chunks, cur_line, cur_len, width)
                cur_len = sum(map(len, cur_line))

            if self.drop_whitespace and cur_line and cur_line[-1].strip() == '':
                cur_len -= len(cur_line[-1])
                del cur_line[-1]

            if cur_line:
                if (self.max_lines is None or
                    len(lines) + 1 < self.max_lines or
                    (not chunks or
                     self.drop_whitespace and
                     len(chunks) == 1 and
                     not chunks[0].strip()) and cur_len <= width):
                    lines.append(indent + ''.join(cur_line))
                else:
                    while cur_line:
                        if (cur_line[-1].strip() and
                            cur_len + len(self.placeholder) <= width):
                            cur_line.append(self.placeholder)
                            lines.append(indent + ''.join(cur_line))
                            break
                        cur_len -= len(cur_line[-1])
                        del cur_line[-1]
                    else:
                        if lines:
                            prev_line = lines[-1].rstrip()
                            if (len(prev_line) + len(self.placeholder) <=
                                    self.width):
                                lines[-1] = prev_line + self.placeholder
                                break
                        lines.append(indent + self.placeholder.lstrip())
                    break

        return lines

    def _split_chunks(self, text):
        text = self._munge_whitespace(text)
        return self._split(text)

    def wrap(self, text):
        chunks = self._split_chunks(text)
        if self.fix_sentence_endings:
            self._fix_sentence_endings(chunks)
        return self._wrap_chunks(chunks)

    def fill(self, text):
        return "\\n".join(self.wrap(text))


def _sentence_end(chunk):
    if chunk[-1:] == '"' or chunk[-1:] == "'":
        chunk = chunk[:-1]
    return len(chunk) >= 2 and chunk[-1] in '.!?' and 'a' <= chunk[-2] <= 'z'


def wrap(text, width=70, **kwargs):
    w = TextWrapper(width=width, **kwargs)
    return w.wrap(text)


def fill(text, width=70, **kwargs):
    w = TextWrapper(width=width, **kwargs)
    return w.fill(text)


def shorten(text, width, **kwargs):
    w = TextWrapper(width=width, max_lines=1, **kwargs)
    return w.fill(' '.join(text.strip().split()))


def dedent(text):
    return _dedent(text)


def indent(text, prefix, predicate=None):
    if predicate is None:
        def predicate(line):
            return line.strip()

    def prefixed_lines():
        for line in text.splitlines(True):
            yield (prefix + line if predicate(line) else line)
    return ''.join(prefixed_lines())
"""
TEXTWRAP_NAMES = frozenset({"TextWrapper", "wrap", "fill", "shorten", "dedent", "indent"})
