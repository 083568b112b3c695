"""A program's own recursion limit (SPEC §15): `sys.setrecursionlimit(n)` is the depth
its calls nest to, as CPython's, up to BACKPROP_MAX_RECURSION_LIMIT; without one they
nest BACKPROP_MAX_CALL_DEPTH (1,000) deep, as before. Deep runs stay on a C stack sized
for the cap (SPEC §16): the hostile ones, in every host, are in `tests.support.bounds`
(`DEEP_CASES`) and `tests/engine/test_bounds.py`.
"""

from __future__ import annotations

import ast
import sys
import threading
from typing import Any

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from backprop_animator.engine import run as engine_run
from tests.engine.cpython import printed_lines
from tests.engine.random_programs import compare

END = "\nv = Value(1.0)\nv.backward()\n"
RAISED = "import sys\nsys.setrecursionlimit(%d)\n"
CHAIN = (
    "class V:\n    def __init__(self, data, children=()):\n        self.data = data\n"
    "        self._prev = set(children)\n"
    "    def __mul__(self, k):\n        return V(self.data * k, (self,))\n"
    "    def build(self):\n        topo = []\n        visited = set()\n"
    "        def build_topo(v):\n            if v not in visited:\n"
    "                visited.add(v)\n                for child in v._prev:\n"
    "                    build_topo(child)\n                topo.append(v)\n"
    "        build_topo(self)\n        return topo\n"
    "x = V(1.0)\nfor i in range(%d):\n    x = x * 1.01\nprint(len(x.build()))\n"
)
# Recursion through each path that nests on the C stack, caught (CPython's messages
# differ by path: "... in comparison", "... while calling a Python object").
CAUGHT = {
    "calls": "def f(n):\n    return f(n + 1)\ntry:\n    f(0)\n",
    "sorted calling __lt__": "class A:\n    def __lt__(self, o):\n"
    "        return sorted([A(), A()]) is None\ntry:\n    sorted([A(), A()])\n",
    "generators": "def g(n):\n    yield from g(n + 1)\ntry:\n    list(g(0))\n",
    "__repr__": "class R:\n    def __repr__(self):\n        return repr(self)\ntry:\n"
    "    repr(R())\n",
    "str.format": "class S:\n    def __str__(self):\n        return '{}'.format(self)\n"
    "try:\n    str(S())\n",
    "__eq__": "class E:\n    def __eq__(self, o):\n        return self == o\ntry:\n"
    "    E() == E()\n",
    "__hash__": "class H:\n    def __hash__(self):\n        return hash(self)\ntry:\n"
    "    hash(H())\n",
}
CAUGHT_TAIL = "except RecursionError as e:\n    print(type(e).__name__)\n"


def in_a_deep_thread(work: Any) -> Any:
    """`work()` where CPython itself has C stack for a raised limit (its own recursion
    through `sorted` 4,000 deep overflows a main thread's 8 MiB)."""
    answer: list[Any] = []
    with engine_run._stack_size_lock:  # (the size is the next thread's: the engine's too)
        previous = threading.stack_size(512 * 1024 * 1024)
        try:
            thread = threading.Thread(target=lambda: answer.append(work()))
            thread.start()
        finally:
            threading.stack_size(previous)
    thread.join()
    return answer[0]


def test_a_1500_node_chain_sorted_recursively_after_raising_the_limit_is_cpythons() -> None:
    source = RAISED % 10_000 + CHAIN % 1_500
    assert compare(source) is None
    assert printed_lines(trace_source(source + END)) == ["1501"]
    # Without the raised limit, CPython's RecursionError, as before.
    with pytest.raises(EngineError, match="BACKPROP_MAX_CALL_DEPTH"):
        trace_source(CHAIN % 1_500 + END)


@pytest.mark.parametrize("limit", [100, 1_500])
@pytest.mark.parametrize("path", CAUGHT.values(), ids=list(CAUGHT))
def test_recursion_stops_at_the_programs_own_limit_as_cpythons(path: str, limit: int) -> None:
    assert compare(RAISED % limit + path + CAUGHT_TAIL) is None


@pytest.mark.parametrize("path", CAUGHT.values(), ids=list(CAUGHT))
def test_recursion_stops_at_a_limit_raised_near_the_cap_as_cpythons(path: str) -> None:
    assert in_a_deep_thread(lambda: compare(RAISED % 9_000 + path + CAUGHT_TAIL)) is None


def test_recursion_within_the_programs_limit_runs_and_past_it_is_cpythons_error() -> None:
    within = RAISED % 9_000 + "def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\n"
    assert in_a_deep_thread(lambda: compare(within + "print(f(8900))\n")) is None
    # Uncaught: CPython's class and words first, then the bound, the program's own.
    with pytest.raises(EngineError, match=r"sys.setrecursionlimit\(9000\)") as caught:
        trace_source(within + "print(f(9500))\n" + END)
    assert caught.value.message.startswith("RecursionError: maximum recursion depth exceeded")
    assert in_a_deep_thread(lambda: compare(within + "print(f(9500))\n")) is None


def test_a_limit_past_the_cap_takes_effect_up_to_it_and_names_its_variable() -> None:
    before = sys.getrecursionlimit()
    source = RAISED % 10**9 + "print(sys.getrecursionlimit())\ndef f(n):\n    return f(n + 1)\n"
    with pytest.raises(EngineError, match="BACKPROP_MAX_RECURSION_LIMIT") as caught:
        trace_source(source + "f(0)\n" + END, limits=Limits(max_recursion_limit=3_000))
    assert "the limit is 3,000" in caught.value.message
    assert "(2999 times)" in caught.value.message
    assert sys.getrecursionlimit() == before  # the host's, given back
    # What the program reads back is its own number, as CPython's.
    assert printed_lines(trace_source(source + END))[0] == str(10**9)


def test_a_cap_at_the_call_depth_keeps_the_call_depth() -> None:
    limits = Limits(max_call_depth=300, max_recursion_limit=300)
    source = RAISED % 5_000 + "def f(n):\n    return f(n + 1)\nf(0)\n"
    with pytest.raises(EngineError, match="BACKPROP_MAX_RECURSION_LIMIT") as caught:
        trace_source(source + END, limits=limits)
    assert "(299 times)" in caught.value.message


def test_a_call_depth_set_past_the_cap_is_the_most_a_limit_takes_effect_to() -> None:
    limits = Limits(max_call_depth=400, max_recursion_limit=300)
    source = RAISED % 5_000 + "def f(n):\n    return f(n + 1)\nf(0)\n"
    with pytest.raises(EngineError, match="BACKPROP_MAX_CALL_DEPTH") as caught:
        trace_source(source + END, limits=limits)
    assert "(399 times)" in caught.value.message and "the limit is 400" in caught.value.message


def test_a_lowered_limit_stops_recursion_sooner_as_cpythons() -> None:
    # (100: the tests' own frames under CPython's run of it are 43 deep)
    source = RAISED % 100 + "def f(n):\n    return f(n + 1)\nf(0)\n"
    with pytest.raises(EngineError, match=r"sys.setrecursionlimit\(100\)"):
        trace_source(source + END)
    assert compare(source) is None


def test_lazy_iterators_nest_at_most_the_call_depth_whatever_the_limit() -> None:
    # An error raised through 4,000 nested chain.from_iterable took 4 s to unwind, in
    # Python's own code, past any deadline (10,000: 30 s).
    source = (
        RAISED % 10_000 + "import itertools\nc = [1]\nfor i in range(20000):\n"
        "    c = itertools.chain.from_iterable([c])\nx = next(c)\n"
    )
    with pytest.raises(EngineError, match="iterators are nested too deeply") as caught:
        trace_source(source + END, limits=Limits(time_limit=60))
    assert "BACKPROP_MAX_CALL_DEPTH" in caught.value.message


def test_only_a_program_naming_setrecursionlimit_runs_on_the_deep_stack() -> None:
    limits = Limits()
    deep = engine_run._room(ast.parse(RAISED % 5_000), limits)
    assert deep[0] >= 10_000 * 4 + 1_000  # a plain recursion's frames at the cap
    assert deep[1] > engine_run.PROGRAM_STACK_BYTES
    by_name = ast.parse("import sys\nf = getattr(sys, 'setrecursionlimit')\n")
    assert engine_run._room(by_name, limits) == deep
    usual = engine_run._room(ast.parse("x = 1\n"), limits)
    assert usual == (0, engine_run.PROGRAM_STACK_BYTES)
    no_cap = Limits(max_recursion_limit=1_000)
    assert engine_run._room(ast.parse(RAISED % 5_000), no_cap) == usual


def test_a_deep_run_is_deep_only_while_no_run_is_on_the_usual_stack() -> None:
    # Python's recursion limit is every thread's: a run on the usual stack under a deep
    # run's limit could pass its stack. So one waits for the other's kind of stack.
    limits = Limits()
    deep, usual = ast.parse(RAISED % 5_000), ast.parse("x = 1\n")
    deep_room = engine_run._room(deep, limits)
    with engine_run._stack(usual, limits) as first:
        assert first == (0, engine_run.PROGRAM_STACK_BYTES)
        with engine_run._stack(deep, limits) as second:
            assert second == (0, engine_run.PROGRAM_STACK_BYTES)
    with engine_run._stack(deep, limits) as first:
        assert first == deep_room
        with engine_run._stack(usual, limits) as second:
            assert second == (0, deep_room[1])
    assert engine_run._usual_runs == [0] and engine_run._deep_stacks == []


def test_where_no_deep_thread_can_start_the_limit_takes_effect_up_to_the_call_depth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = threading.stack_size

    def no_deep_stack(size: int = 0) -> int:
        if size > engine_run.PROGRAM_STACK_BYTES:
            raise ValueError("size not valid")
        return real(size)

    monkeypatch.setattr(threading, "stack_size", no_deep_stack)
    source = RAISED % 5_000 + "def f(n):\n    return f(n + 1)\nf(0)\n"
    with pytest.raises(EngineError, match="no C stack for more") as caught:
        trace_source(source + END)
    assert "(the limit is 1,000; set BACKPROP_MAX_CALL_DEPTH" in caught.value.message
    # Within it, it runs (on the usual stack).
    fine = RAISED % 5_000 + "def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\nprint(f(900))\n"
    assert printed_lines(trace_source(fine + END)) == ["900"]


def test_deep_and_usual_runs_in_threads_at_once_all_end_and_give_the_limit_back() -> None:
    before = sys.getrecursionlimit()
    deep = RAISED % 10_000 + CHAIN % 1_500
    usual = "def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\nprint(f(900))\n"
    answers: dict[int, list[str] | str] = {}

    def run(index: int, source: str) -> None:
        try:
            trace = trace_source(source + END, limits=Limits(time_limit=60.0))
            answers[index] = printed_lines(trace)
        except EngineError as error:
            answers[index] = error.message

    sources = [deep, usual, deep, usual]
    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(sources)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers[1] == answers[3] == ["900"]
    for index in (0, 2):
        # A deep run that starts while a usual one runs has the call depth: the chain's
        # 1,501 calls are its RecursionError, saying why, never a crash.
        assert answers[index] == ["1501"] or "no C stack for more" in answers[index]
    assert sys.getrecursionlimit() == before
    assert engine_run._usual_runs == [0] and engine_run._deep_stacks == []
