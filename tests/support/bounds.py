"""Programs that try to crash, hang or flood the process they run in (SPEC §16), each
with what it must come to: a trace, or a refusal naming the bound it hit.

Shared by the in-process, CLI and HTTP tests, so every host is tried with the same
inputs. Each must end within `SECONDS` under `MEMORY_BYTES` (checked where the host
runs in a process of its own).
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple

SECONDS = 3.0
MEMORY_BYTES = 700 * 1024 * 1024

# A backward pass at the end, so that a program that gets that far is a valid trace.
PASS = "\nv = Value(1.0)\nw = v * 2\nw.backward()\n"


class Case(NamedTuple):
    name: str
    source: str
    # None: the program must be traced; else a phrase its refusal must contain.
    refusal: str | None

    def refused_as_expected(self, message: str) -> bool:
        """Whether `message` names this case's bound, or the time limit: on a loaded
        machine a program that reaches a step or size bound in a second may meet the
        time limit first, and that is a clean end too (SPEC §16)."""
        assert self.refusal is not None
        return self.refusal in message or "BACKPROP_TRACE_TIME_LIMIT" in message


def case(name: str, body: str, refusal: str | None) -> Case:
    return Case(name, textwrap.dedent(body).lstrip("\n") + PASS, refusal)


NESTED = "nested too deeply"
STEPS = "BACKPROP_MAX_STEPS"

CASES = [
    # A loop of exceptions raised and caught: charged the steps of its work (`RAISE_STEPS`),
    # it meets the step bound in about the time a plain loop does, not the clock 4x later.
    case(
        "a loop that raises and catches forever",
        """
        i = 0
        while True:
            i = i + 1
            try:
                raise ValueError(i)
            except ValueError:
                pass
        """,
        STEPS,
    ),
    # A program's `__hash__` hashing a nested tuple that holds itself: C recursion under
    # every call, where CPython's own C stack ran out (a segfault) before the bound.
    case(
        "a __hash__ that hashes a nested tuple holding it",
        """
        class B:
            def __init__(self):
                self.n = 990
            def __hash__(self):
                self.n -= 1
                return hash(T) if self.n > 0 else 0
        t = B()
        for i in range(190):
            t = (t,)
        T = t
        h = hash(T)
        """,
        "nests too deeply",
    ),
    # A class's own `__hash__` runs when its objects go into a set (SPEC §14): bounded
    # like any call, with no worker to kill in the CLI or a notebook.
    case(
        "a __hash__ that never returns, called by a set",
        """
        class V:
            def __hash__(self):
                n = 0
                while True:
                    n += 1
        s = {V()}
        """,
        STEPS,
    ),
    # Hashing a deep tuple recursed in C with no guard: a segfault.
    case(
        "a 150,000-deep tuple put in a set",
        """
        t = ()
        for i in range(150000):
            t = (t,)
        s = {t}
        """,
        NESTED,
    ),
    case(
        "a deep tuple made through zip, then hashed",
        """
        t = ()
        for i in range(5000):
            t = list(zip([t]))[0]
        d = {t: 1}
        """,
        NESTED,
    ),
    case(
        "a tuple that shares itself, hashed (2**60 visits for CPython)",
        """
        t = ()
        for i in range(60):
            t = (t, t)
        s = {t}
        """,
        STEPS,
    ),
    case(
        "a list nested 100,000 deep from the top down, printed",
        """
        lists = [[] for i in range(100000)]
        for i in range(99999):
            lists[i].append(lists[i + 1])
        print(lists[0])
        """,
        NESTED,
    ),
    case("a float looked for in a huge range", "x = 0.5 in range(2**62)\n", STEPS),
    case(
        "two 8,000-deep tuples compared 20,000 times",
        """
        a = ()
        b = ()
        for i in range(8000):
            a = (a,)
            b = (b,)
        for i in range(20000):
            c = a == b
        """,
        NESTED,
    ),
    case(
        "wide tuples hashed over and over",
        """
        t = tuple(range(100000))
        s = set()
        for i in range(3000):
            s.add((t, i))
        """,
        STEPS,
    ),
    case(
        "wide lists compared over and over",
        """
        a = [0] * 1000000
        b = [0] * 1000000
        for i in range(1000):
            c = a == b
        """,
        STEPS,
    ),
    case(
        "wide lists of tuples sorted over and over",
        """
        rows = [(i % 7, (i, i)) for i in range(20000)]
        for i in range(100):
            rows.sort()
        """,
        STEPS,
    ),
    case(
        "objects holding a million-item list, named at the end of the run",
        """
        big = [0] * 1000000
        class Holder:
            def __init__(self, kids):
                self.items = big
                self.kids = kids
        root = Holder([Holder([]) for i in range(20)])
        """,
        None,
    ),
    case(
        "a node class whose operands are a million-item list",
        """
        class V:
            def __init__(self, data, prev):
                self.data = data
                self.grad = 0.0
                self._prev = prev
                self._backward = lambda: None
        many = [0] * 1000000
        for i in range(200):
            n = V(1.0, many)
        """,
        STEPS,
    ),
    case(
        "any() over a 500,000-item set, 2,000 times",
        """
        s = set(range(500000))
        for i in range(2000):
            any(s)
        """,
        None,
    ),
    case(
        "a set changed while it is iterated",
        """
        s = {1, 2, 3}
        for x in s:
            s.add(x + 10)
        """,
        "changed size during iteration",
    ),
    case(
        "print of 50,000 strings of 10,000 characters",
        """
        s = 'x' * 10000
        print(*([s] * 50000), sep=s)
        """,
        "printed more than",
    ),
    case("a slice given 10**8 items", "x = [1]\nx[0:1] = range(10**8)\n", "1,000,000"),
    case(
        "a string joined into a huge one",
        """
        parts = ['y' * 10000] * 1000
        s = ''.join(parts)
        """,
        "10,000",
    ),
    case(
        "a lone surrogate printed and used as a label",
        """
        print('\\ud800')
        for i in range(2):
            pass
        u = Value(2.0, label='\\udc80')
        """,
        None,
    ),
    # Valid programs the old cost model refused (n**2 / 20 steps for a dict of n keys).
    case(
        "a dict of 4,500 keys",
        """
        d = {}
        for i in range(4500):
            d[i] = i
        """,
        None,
    ),
    case("dict(zip(...)) of 20,000 pairs", "d = dict(zip(range(20000), range(20000)))\n", None),
    case(
        "list.insert at the front, 5,000 times",
        """
        x = []
        for i in range(5000):
            x.insert(0, i)
        """,
        None,
    ),
    # An islice of an islice of ... read in C, one level per islice: a segfault.
    case(
        "an islice of an islice 60,000 deep, read",
        """
        import itertools
        x = itertools.count()
        for i in range(60000):
            x = itertools.islice(x, 0, None)
        print(next(x))
        """,
        NESTED,
    ),
    # The naming walk after the run kept a path per object, each one step longer than
    # its parent's: 100,000 objects in a chain made gigabytes of paths.
    case(
        "100,000 objects in a chain, each holding the next",
        """
        class Link:
            pass
        x = None
        for i in range(100000):
            link = Link()
            link.next = x
            x = link
        """,
        None,
    ),
    # `f(**d)` copied 100,000 keywords for a few steps: the clock was read once a second.
    case(
        "100,000 keywords passed by ** over and over",
        """
        def f(**k):
            return k
        d = {str(i): i for i in range(100000)}
        while True:
            f(**d)
        """,
        STEPS,
    ),
    # Each class of a chain made its MRO in time the square of its length, for no steps.
    case(
        "a class of a class of a class ..., 5,000 deep",
        """
        class A:
            pass
        for i in range(5000):
            class A(A):
                pass
        """,
        "BACKPROP_MAX_DEPTH",
    ),
    # Every new Counter looked at all the live ones again: 60,000 took minutes.
    case(
        "60,000 Counters kept alive, each in the next",
        """
        from collections import Counter
        x = None
        for i in range(60000):
            x = Counter({1: x})
        """,
        None,
    ),
    case(
        "set membership 20,000 times in a 20,000-item set",
        """
        s = set(range(20000))
        c = 0
        for i in range(20000):
            if i in s:
                c += 1
        """,
        None,
    ),
]

# Compiling read no clock: 80,000 characters of functions nested 95 deep were 7 s of
# work before the first step (then the loop, to be stopped by a bound too).
CASES.append(
    Case(
        "80,000 characters of functions nested 95 deep, then a loop",
        "".join(" " * i + f"def f{i}():\n" for i in range(95))
        + (" " * 95 + "x = " + " + ".join(["a"] * 100) + "\n") * 150
        + "while True:\n    pass\n",
        STEPS,
    )
)

# Generators still suspended when the run stops are closed as Python frees them, a
# GeneratorExit thrown through each of their frames: after the bound, 6 s for these.
CASES.append(
    Case(
        "generators suspended 20 loops deep, kept until the bound",
        "def g():\n"
        + "".join("    " * (i + 1) + f"for i{i} in [1]:\n" for i in range(20))
        + "    " * 21
        + "yield 1\nkeep = []\nwhile True:\n    x = g()\n    next(x)\n    keep.append(x)\n",
        STEPS,
    )
)

# The constructs added last (collections kinds, dict views, str.format fields,
# itertools' groupby, cycle and chain.from_iterable, math.comb), each driven to a bound.
CASES += [
    case(
        "groupby of an endless cycle, unpacked",
        """
        import itertools
        k, *g = itertools.groupby(itertools.cycle([0]))
        """,
        STEPS,
    ),
    case(
        "the keys views of a 100,000-key dict intersected over and over",
        """
        d = {i: i for i in range(100000)}
        while True:
            x = d.keys() & d.keys()
        """,
        STEPS,
    ),
    case(
        "Counters of 100,000 keys added over and over",
        """
        from collections import Counter
        c = Counter(range(100000))
        while True:
            x = c + c
        """,
        STEPS,
    ),
    case(
        "a deque in a deque in a deque ..., 100,000 deep, printed",
        """
        from collections import deque
        d = deque()
        for i in range(100000):
            d = deque([d])
        print(d)
        """,
        NESTED,
    ),
    case(
        "chain.from_iterable of chain.from_iterable ..., 20,000 deep, read",
        """
        import itertools
        c = [1]
        for i in range(20000):
            c = itertools.chain.from_iterable([c])
        print(next(iter(c)))
        """,
        NESTED,
    ),
    case(
        "str.format with nested spec fields over and over",
        """
        s = '{:{}}' * 2000
        args = [1, 5] * 2000
        while True:
            x = s.format(*args)
        """,
        STEPS,
    ),
    case(
        "math.comb near the integer bound over and over",
        """
        import math
        while True:
            x = math.comb(4000, 1500)
        """,
        STEPS,
    ),
]

# A generator resumes the compiled statements around its yield in C, a frame each, and a
# sort calls `__lt__` from a C frame of its own: this recursion took 8 MiB of C stack
# within the call depth (a segfault in a smaller thread, at the edge in a main thread).
CASES.append(
    Case(
        "sorted() calling __lt__ calling a generator ten loops deep, each again",
        "class A:\n    def __lt__(self, o):\n        return next(g())\ndef g():\n"
        + "".join("    " * (i + 1) + f"for i{i} in [1]:\n" for i in range(10))
        + "    " * 11
        + "yield sorted([A(), A()]) is None\nsorted([A(), A()])\n"
        + PASS,
        "too deeply",
    )
)

# A class the library makes (a dozen methods) cost four steps: kept in a loop, the time
# limit stopped them, and a collection of what they made (1.4 s) came after it.
CASES.append(
    case(
        "named tuple classes made in a loop and kept",
        """
        from collections import namedtuple
        keep = []
        while True:
            keep.append(namedtuple('T', 'a b c d e f g h'))
        """,
        STEPS,
    )
)

# Generic aliases and unions of them, each holding the last twice: hashed (each `|`
# hashes its members) and compared 2**60 times, with no step and no look at the clock.
CASES.append(
    case(
        "aliases of aliases, each holding the last twice, hashed and compared",
        """
        t = int
        u = int
        for i in range(60):
            t = dict[t, list[t]] | None
            u = dict[u, list[u]] | None
        d = {t: 1}
        same = d[u] == 1 and t == u
        """,
        None,
    )
)

# A takewhile of a takewhile of ... read recursed through Python's generator frames to
# its RecursionError and back: 20 s for 10,000 deep, past any deadline.
CASES.append(
    case(
        "a takewhile of a takewhile ..., 100,000 deep, read",
        """
        import itertools
        x = [1]
        for i in range(100000):
            x = itertools.takewhile(bool, x)
        print(next(x))
        """,
        NESTED,
    )
)

# Each pass walks the globals for the names of its nodes (`kept_names`), up to 200,000
# items: beside a global of 200,000 numbers, a two-node pass was 40 steps and tens of
# milliseconds of walking, so only the clock stopped the loop. The walk is charged.
CASES.append(
    case(
        "backward() over and over beside a global of 200,000 numbers",
        """
        big = [0] * 200000
        a = Value(1.0)
        b = a * 2
        while True:
            b.backward()
        """,
        STEPS,
    )
)

# A pass of the program's own class makes the recorder work on every node it reaches
# (its order checked, its names derived, the right engine's pass), some 15 us a node,
# which a backward() doing next to nothing did not pay: only the clock stopped the loop.
CASES.append(
    case(
        "an own class's backward() that only seeds, over and over on 900 nodes",
        """
        class V:
            def __init__(self, data, _children=()):
                self.data = data
                self.grad = 0.0
                self._prev = set(_children)
                self._op = ''
                self._backward = lambda: None
            def __add__(self, other):
                return V(self.data + other.data, (self, other))
            def backward(self):
                self.grad = 1.0
        a = V(1.0)
        x = a
        for i in range(900):
            x = x + a
        while True:
            x.backward()
        """,
        STEPS,
    )
)

# A program that raises its recursion limit (SPEC §15) nests its calls up to
# BACKPROP_MAX_RECURSION_LIMIT (10,000) deep, on a C stack sized for it: the paths that
# take most C stack a call, each as deep as the cap (or Python's own recursion limit,
# or the clock) lets it go, and a micrograd chain past CPython's default limit, traced.
RAISED = "import sys\nsys.setrecursionlimit(10**6)\n"


def loops_around(depth: int, body: str, indent: int = 1) -> str:
    """`body` inside `depth` one-turn loops, each indented one more level."""
    heads = "".join("    " * (i + indent) + f"for i{i} in [1]:\n" for i in range(depth))
    return heads + "    " * (depth + indent) + body + "\n"


DEEP_CASES = [
    Case(
        "the limit raised, then sorted() calling __lt__ calling a generator ten loops deep",
        RAISED
        + "class A:\n    def __lt__(self, o):\n        return next(g())\ndef g():\n"
        + loops_around(10, "yield sorted([A(), A()]) is None")
        + "sorted([A(), A()])\n"
        + PASS,
        "too deeply",
    ),
    Case(
        "the limit raised, then a generator recursing through the 95 loops around its yield",
        RAISED + "def g(n):\n" + loops_around(95, "yield from g(n + 1)") + "list(g(0))\n" + PASS,
        "too deeply",
    ),
    case(
        "the limit raised, then a class's __iter__ recursing 12,000 deep",
        """
        import sys
        sys.setrecursionlimit(10**6)
        class I:
            def __init__(self, c):
                self.c = c
            def __iter__(self):
                if self.c is not None:
                    yield from self.c
                yield 1
        x = I(None)
        for i in range(12000):
            x = I(x)
        print(len(list(x)))
        """,
        "too deeply",
    ),
    case(
        "the limit raised, then __repr__, str.format, __eq__, __hash__ and sorted to the cap",
        """
        import sys
        sys.setrecursionlimit(10**6)
        class R:
            def __repr__(self):
                return repr(self)
            def __str__(self):
                return '{}'.format(self)
            def __eq__(self, o):
                return self == o
            def __hash__(self):
                return hash(self)
            def __lt__(self, o):
                return sorted([self, o]) is None
        for f in (repr, str, lambda r: r == r, hash, lambda r: r < r):
            try:
                f(R())
            except RecursionError:
                pass
        def down(n):
            return down(n + 1)
        down(0)
        """,
        "BACKPROP_MAX_RECURSION_LIMIT",
    ),
    case(
        "the limit raised, then micrograd's build_topo sorting a 1,500-node chain",
        """
        import sys
        sys.setrecursionlimit(10000)
        class V:
            def __init__(self, data, children=()):
                self.data = data
                self._prev = set(children)
            def __mul__(self, k):
                return V(self.data * k, (self,))
        x = V(1.0)
        for i in range(1500):
            x = x * 1.01
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(x)
        print(len(topo))
        """,
        None,
    ),
]
CASES += DEEP_CASES

NEVER_ENDS = "x = 0\nwhile True:\n    x = x + 1\n"
