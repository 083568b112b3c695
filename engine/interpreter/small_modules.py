"""`bisect` and `string`, as learners' programs import them: modules whose source is in
the interpreter's own language, compiled in library mode when a program imports them
(`Compiler.library_module`), as `graphlib` is.

`bisect` is CPython 3.11's `bisect.py` (Python Software Foundation License), the pure
Python CPython falls back to without its `_bisect` accelerator: the same comparisons (`<`
alone, so a program's `__lt__` decides), the same `key=`, `lo`/`hi` and ValueError, so
an index and a list it inserts into are CPython's. `string` is its constants and
`capwords` (no `Template`, no `Formatter`).
"""

from __future__ import annotations

BISECT_SOURCE = """
def insort_right(a, x, lo=0, hi=None, *, key=None):
    if key is None:
        lo = bisect_right(a, x, lo, hi)
    else:
        lo = bisect_right(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


def bisect_right(a, x, lo=0, hi=None, *, key=None):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < a[mid]:
                hi = mid
            else:
                lo = mid + 1
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < key(a[mid]):
                hi = mid
            else:
                lo = mid + 1
    return lo


def insort_left(a, x, lo=0, hi=None, *, key=None):
    if key is None:
        lo = bisect_left(a, x, lo, hi)
    else:
        lo = bisect_left(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


def bisect_left(a, x, lo=0, hi=None, *, key=None):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if key(a[mid]) < x:
                lo = mid + 1
            else:
                hi = mid
    return lo


bisect = bisect_right
insort = insort_right
"""
BISECT_NAMES = frozenset(
    {"bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right"}
)

STRING_SOURCE = """
whitespace = ' \\t\\n\\r\\v\\f'
ascii_lowercase = 'abcdefghijklmnopqrstuvwxyz'
ascii_uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
ascii_letters = ascii_lowercase + ascii_uppercase
digits = '0123456789'
hexdigits = digits + 'abcdef' + 'ABCDEF'
octdigits = '01234567'
punctuation = r\"\"\"!"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\"\"\"
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or ' ').join([x.capitalize() for x in s.split(sep)])
"""
STRING_NAMES = frozenset(
    {
        "whitespace", "ascii_lowercase", "ascii_uppercase", "ascii_letters", "digits",
        "hexdigits", "octdigits", "punctuation", "printable", "capwords",
    }
)  # fmt: skip
