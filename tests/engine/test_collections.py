"""`collections`' kinds as CPython's (SPEC §15): a Counter counts (`update`,
`subtract`, `elements`, `total`, `+ - | &`, unary `+`/`-`, in place, `==` with missing keys
as 0), an OrderedDict minds its order (`move_to_end`, `popitem(last=False)`, `==`), a
deque keeps its `maxlen`, and each names its own type (`type(c).__name__`, `isinstance`,
`copy()`, CPython's error words). Every statement runs under CPython and here, and both
must print the same; the hostile ones stop at their bounds."""

from __future__ import annotations

import pytest

from backprop_animator.engine import EngineError, trace_source
from tests.engine.test_cpython_errors import TAIL, assert_as_cpython, caught

PRELUDE = """
import collections
from collections import Counter, deque, defaultdict, OrderedDict
c = Counter("abracadabra")
d = deque([1, 2, 3])
q = deque([1], maxlen=1)
od = OrderedDict((k, None) for k in "abc")
"""

# One statement each, run after PRELUDE (what it prints, or the error it raises).
STATEMENTS = [
    "print(c.most_common(2))",
    'c.update("aab"); print(c)',
    'c.update({"a": 2}); print(c)',
    'c.subtract({"a": 1}); print(c)',
    "print(sorted(c.elements())[:5])",
    'print(c + Counter("xa"), c - Counter("a"))',
    'print(c | Counter("zz"), c & Counter("ab"))',
    "print(c.total())",
    'print(c["zz"], "zz" in c)',
    'c["q"] += 1; print(c)',
    "print(+Counter(a=-1, b=2), -Counter(a=-1))",
    "print(Counter(a=3) == Counter(a=3), repr(Counter()))",
    "dq = deque([1, 2, 3], maxlen=3); dq.append(4); print(dq, dq.maxlen)",
    "d.rotate(1); print(d)",
    "d.rotate(-2); print(d)",
    "d.extendleft([9, 8]); print(d)",
    "d.appendleft(0); print(d.popleft(), d.pop(), d)",
    "print(d[0], d[-1], len(d), d.count(9), d.index(9))",
    "d.extend([5]); d.remove(5); print(d); d.reverse(); print(d)",
    "d.clear(); print(d, bool(d))",
    "print(deque(maxlen=2))",
    "d.insert(0, 7); print(d)",
    'od.move_to_end("a"); print(list(od))',
    'od.move_to_end("c", last=False); print(list(od))',
    "print(od.popitem(last=False), od.popitem(), od)",
    "print(OrderedDict(a=1) == OrderedDict(a=1), OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1))",
    'dd = defaultdict(int); dd["q"] += 1; print(dd, dict(dd))',
    "dl = defaultdict(list); dl[1].append(2); print(dl, dl.default_factory)",
    'print(defaultdict(lambda: 5)["x"])',
    "c = Counter(); d = deque(); od = OrderedDict()",
    "c.update(None); print(c)",
    "c.update(a=2, b=-1); print(c, +c, -c)",
    "c.update(Counter(a=1)); c2 = c; c += Counter(b=3); print(c, c is c2)",
    'c -= {"a": 10}; print(c)',
    'c |= {"z": 4}; print(c)',
    "c.update([1.5, 1.5]); print(c.most_common())",
    "print(list(Counter(a=2.5).elements()))",
    (
        'print(Counter("aab") == Counter("aba"), Counter(a=1) == Counter(a=1, b=0), '
        'Counter(a=1) != {"a": 1})'
    ),
    (
        "q = deque(range(5), 3); print(q, q.maxlen); q.appendleft(-1); print(q); "
        "q.extend([7, 8]); print(q)"
    ),
    "q2 = q.copy(); q2.append(99); print(q, q2, q2.maxlen)",
    "print(q + deque([1]), deque([1, 2]) == deque([1, 2]))",
    (
        "print(isinstance(q, collections.deque), isinstance(q, list), isinstance([], "
        "deque), isinstance({}, Counter), isinstance(Counter(), dict))"
    ),
    "print(type(q) is deque, type(c) is Counter, type(od) == OrderedDict)",
    (
        'od["x"] = 1; od["y"] = 2; od2 = od.copy(); od2.move_to_end("x"); '
        "print(od, od2, od == od2, dict(od) == dict(od2))"
    ),
    'print(OrderedDict.fromkeys("ab", 0), defaultdict.fromkeys("ab"))',
    "dd = defaultdict(list); print(dd.default_factory, defaultdict().default_factory)",
    "x = deque([1, 2, 3]); x.rotate(5); print(x); x.insert(1, 9); print(x, x.index(9), x.count(1))",
    "x.remove(9); print(x); x.reverse(); print(x, x.pop(), x.popleft(), x)",
    'print(deque([1], maxlen=0), len(deque("abc", maxlen=2)))',
    'print(sorted(Counter("hello").items()), Counter("hello")["l"])',
    'e = Counter({"x": 2}); e.subtract("xxy"); print(e, e.total())',
    'print(sum(Counter("abc").values()), max(Counter("abbc"), key=Counter("abbc").get))',
]

ERRORS = [
    "c.update(1)",
    "c.update([[1]])",
    'c.update("a", "b")',
    "c.subtract(5)",
    'list(Counter(a="x").elements())',
    'Counter(a="x") + Counter(a=1)',
    "c + {}",
    "{} - c",
    'c & {"a": 1}',
    "c.elements(1)",
    "q.insert(0, 5)",
    "deque(maxlen=-1)",
    "deque(maxlen=1.5)",
    "deque([1], 2, 3)",
    "deque(foo=1)",
    "q.sort()",
    "q + [1]",
    "[1] + q",
    "q.remove(7)",
    "q.index(7)",
    "deque().pop()",
    "deque().popleft()",
    'od.move_to_end("zz")',
    "od.move_to_end()",
    "od.popitem(1, 2)",
    "{}.popitem(1)",
    "{}.popitem()",
    "OrderedDict().popitem()",
    "od.nope",
    "q.nope",
    "c.nope",
    '{}.move_to_end("a")',
    "[].appendleft(1)",
    "[].maxlen",
    "{}.default_factory",
    "-c; ~c",
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_a_collections_kind_does_what_cpythons_does(statement: str) -> None:
    assert_as_cpython(caught(statement, PRELUDE))


@pytest.mark.parametrize("statement", ERRORS)
def test_a_collections_kind_refuses_as_cpythons_does(statement: str) -> None:
    assert_as_cpython(caught(statement, PRELUDE))


def test_a_counter_updated_in_a_training_loop_counts_as_cpythons() -> None:
    source = """
from collections import Counter, deque
seen = Counter()
recent = deque(maxlen=3)
for step in range(6):
    seen.update(['step', 'even' if step % 2 == 0 else 'odd'])
    recent.append(step * 0.5)
    seen['loss'] += 1
print(seen, recent, sum(recent) / len(recent), seen.most_common(1))
alias = seen
seen -= Counter(step=6)
print(alias is seen, seen, +seen == seen)
"""
    assert_as_cpython(source)


HOSTILE = [
    # `elements()` of a huge count: one step per item, stopped by the step bound
    "from collections import Counter\nfor x in Counter(a=10**15).elements():\n    pass\n",
    # a huge count listed: the container bound
    "from collections import Counter\nxs = list(Counter(a=10**9).elements())\n",
    # arithmetic of two big Counters again and again: charged by their keys
    "from collections import Counter\nc = Counter(range(200000))\n"
    "for i in range(1000):\n    e = c + c\n",
    # an OrderedDict's key moved to the front again and again: charged by its size
    "from collections import OrderedDict\nod = OrderedDict.fromkeys(range(100000))\n"
    "for i in range(100000):\n    od.move_to_end(i, last=False)\n",
]


@pytest.mark.parametrize("program", HOSTILE)
def test_a_collections_kind_stays_within_its_bounds(program: str) -> None:
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|1,000,000|BACKPROP_TRACE_TIME"):
        trace_source(program + TAIL)


@pytest.mark.parametrize(
    "statement",
    [
        "d = deque([1, 2, 3]); print(d[0:2])",
        "d = deque([1, 2, 3]); d[0:1] = [9]",
        "d = deque([1, 2, 3]); del d[0:1]",
        "c = Counter(a=1); del c['zz']; print(c)",
        "o = OrderedDict(a=1); del o['zz']",
        "x = [1, 2, 3]; print(x[0:2]); del x[0:1]; print(x)",
    ],
)
def test_deque_slices_and_counter_del_as_cpython(statement: str) -> None:
    """A deque takes no slice (CPython's TypeError, not a list's slice); `del` of a
    Counter's missing key is no error (its `__delitem__`), an OrderedDict's is."""
    assert_as_cpython(caught(statement, PRELUDE))
