"""The engine's own source for each rule, so the page shows real code that cannot drift.

`rule_sources()` maps each primitive's op (every key of `engine.ops.OPS`: `+ * **
tanh exp relu log sigmoid`) to the source of the `Value` method that defines it, and
`backward` / `topological_order` to the loop and the sort. For the sort step by step
(SPEC §9) and the bug lab (SPEC §8) it adds `build` (the recursive sort the sort-step
frames follow) and `mistake:assign`, `mistake:append-first`, `mistake:no-sort` (what
each mistaken engine runs in place of `accumulate`, `build` and `backward`
respectively).
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from functools import cache
from typing import Any

from backprop_animator.engine.lab.mistakes import MISTAKE_SOURCES
from backprop_animator.engine.lab.sort_steps import RECURSIVE_SORT
from backprop_animator.engine.ops import OPS
from backprop_animator.engine.value import Value, topological_order

RULE_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{key: op.method for key, op in OPS.items()},
    "accumulate": Value._accumulate,
    "backward": Value.backward,
    "topological_order": topological_order,
}


@cache
def rule_sources() -> dict[str, str]:
    """`{"*": "def __mul__(self, other): ...", ...}`, dedented."""
    sources = {
        op: textwrap.dedent(inspect.getsource(function)) for op, function in RULE_FUNCTIONS.items()
    }
    sources["build"] = RECURSIVE_SORT
    for mistake, text in MISTAKE_SOURCES.items():
        sources[f"mistake:{mistake}"] = text
    return sources
