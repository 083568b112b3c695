"""Learners' own engines with bugs in them (SPEC §14), written as learners write them
(`tests/engine/learner_bugs/`: Value, Scalar, Tensor, Node; `_prev`, `_children`,
`parents`, `inputs`; `data`, `value`, `val`; rules as closures, methods, lambdas, a dict
of ops; sorts recursive, iterative, Kahn's, none), each with one typical bug.

For each: the interpreter prints what CPython prints, character for character; the check
names the real bug (the op's row `wrong` at its first frame, or the sort, or `+=`) and
nothing else; `correct_grad` is the right gradient, worked out here by hand or by
micrograd; and the narration says what the code did.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from micrograd.engine import Value as MicrogradValue

from backprop_animator.engine import (
    EngineError,
    Limits,
    enginecheck_source,
    trace_columns,
    trace_source,
)
from tests.engine.cpython import assert_same_output, printed_lines
from tests.engine.helpers import assert_trace_invariants

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "engine" / "learner_bugs"


def run_in_cpython(source: str) -> tuple[list[str], BaseException | None]:
    """What the program prints under CPython, with its own class (the tests' own
    programs), and the exception it ends with, if any."""
    random.seed(0)
    out = io.StringIO()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    error = None
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, "<program>", "exec", dont_inherit=True), namespace)
        except Exception as raised:  # the program's own failure, compared below
            error = raised
    return out.getvalue().splitlines(), error


def mg(build: Callable[..., MicrogradValue], **leaves: float) -> dict[str, float]:
    """The leaves' gradients micrograd gives for `build(**leaves)`."""
    values = {name: MicrogradValue(data) for name, data in leaves.items()}
    build(**values).backward()
    return {name: value.grad for name, value in values.items()}


def _tanh_neuron() -> dict[str, float]:
    x1, x2, w1, w2, b = 2.0, 0.0, -3.0, 1.0, 6.8813735870195432
    d = 1 - math.tanh(x1 * w1 + x2 * w2 + b) ** 2
    return {"x1": w1 * d, "w1": x1 * d, "x2": w2 * d, "w2": x2 * d, "b": d}


def _tanh_wx_b() -> dict[str, float]:
    w, x, b = 0.5, -1.0, 0.2
    d = 1 - math.tanh(w * x + b) ** 2
    return {"w": x * d, "x": w * d, "b": d}


def _tanh_writes() -> dict[str, float]:
    x, w = 0.7, -1.2
    d = (1 - math.tanh(x * w) ** 2) * 4.0  # y = 3h + h
    return {"x": w * d, "w": x * d, "h": 4.0}


def _stack_preorder(w: float = 1.5) -> dict[str, float]:
    x = 0.5
    h = math.tanh(x * w)
    d = (x + 1) * (1 - h * h)  # y = h * x + h
    return {"x": h + d * w, "w": d * x}


def _sigmoid() -> dict[str, float]:
    x, w, b = 0.8, -0.6, 0.1
    s = 1 / (1 + math.exp(-(x * w + b)))
    d = s * (1 - s)
    return {"x": w * d, "w": x * d, "b": d}


def _log() -> dict[str, float]:
    p, q = 0.25, 4.0
    inner = p * q + p
    return {"p": -(q + 1) / inner, "q": -p / inner}


def _mul_no_upstream() -> dict[str, float]:
    x, y = 0.5, -1.5
    e = math.exp(x * y)
    return {"x": 2 * y * e + 1, "y": 2 * x * e}


def _backward_twice() -> dict[str, float]:
    """micrograd's backward() called twice on one graph (its seed is `= 1`, not `+= 1`)."""
    x, y = MicrogradValue(2.0), MicrogradValue(3.0)
    z = x * y + x
    z.backward()
    z.backward()
    return {"x": x.grad, "y": y.grad}


def _through_temporary() -> dict[str, float]:
    a, b = 0.4, 2.0
    e = math.exp(a * b)  # f = e * a + a
    return {"a": e + a * e * b + 1, "b": a * e * a}


def _square_of_sum(a: MicrogradValue, b: MicrogradValue, c: MicrogradValue) -> MicrogradValue:
    s = a * b + b * c
    return s * s


def _sigmoid_s_times_s() -> dict[str, float]:
    x, w, b = 0.5, -1.2, 0.3
    s = 1 / (1 + math.exp(-(x * w + b)))
    d = s * (1 - s)
    return {"x": w * d, "w": x * d, "b": d}


def _tanh_of_tanh() -> dict[str, float]:
    x, w = 0.8, 1.5
    d = 2 * (1 - math.tanh(x * w) ** 2)  # y = 2h + x
    return {"x": d * w + 1, "w": d * x}


def _exp_times_own_grad() -> dict[str, float]:
    a, b = 0.5, -1.0
    dz = 3 * math.exp(a * b) + 2  # y = 3e^z + 2z
    return {"a": b * dz, "b": a * dz}


def _tanh_assign_reused() -> dict[str, float]:
    x, w = 1.5, 0.4
    dn = 1 - math.tanh(x * w) ** 2 + 0.5  # out = tanh(n) + 0.5n
    return {"x": w * dn, "w": x * dn}


def _cos_sign() -> dict[str, float]:
    t, w = 0.7, 2.0
    du = -3 * math.sin(t * w)  # y = 3cos(tw) + t
    return {"t": w * du + 1, "w": t * du}


def _left_right() -> dict[str, float]:
    x, w = 0.7, -1.3
    s = 1 / (1 + math.exp(-(x * w)))
    d = -(1 - s) * s * (1 - s)  # loss = (1 − s)² / 2
    return {"x": d * w, "w": d * x}


def _shared_weight_second_epoch() -> dict[str, float]:
    w = 0.3 + 0.05 * 3.4  # the program's step, with the gradient its `=` left: -3.4
    batch = [(1.0, 2.0), (2.0, 3.0), (-1.0, 0.0)]
    return {"w": sum(2 * (w * x - y) * x for x, y in batch)}


_LINE = ((1.0, 1.0), (2.0, 1.5), (3.0, 2.5))


def _tanh_rule_uses_input() -> dict[str, float]:
    x, w, b = 0.8, -0.5, 0.1
    d = 3 * (1 - math.tanh(x * w + b) ** 2)  # y = 3·tanh(xw + b)
    return {"x": w * d, "w": x * d, "b": d}


def _sigmoid_plus_exp() -> dict[str, float]:
    x, w, b = 0.2, 1.5, -0.4
    s = 1 / (1 + math.exp(-(x * w + b)))  # y = sigmoid(xw + b) + e^(x/2)
    d = s * (1 - s)
    return {"x": w * d + 0.5 * math.exp(0.5 * x), "w": x * d, "b": d}


def _softmax_cross_entropy() -> dict[str, float]:
    logits, target = (1.0, 2.0, 0.5), 1  # −log softmax[target]: p − onehot
    total = sum(math.exp(z) for z in logits)
    return {f"logits[{i}]": math.exp(z) / total - (i == target) for i, z in enumerate(logits)}


def _log10_rule() -> dict[str, float]:
    a, b = 4.0, 2.5  # y = log10(a·b) + a
    return {"a": 1 / (a * math.log(10)) + 1, "b": 1 / (b * math.log(10))}


def _rpow_no_log() -> dict[str, float]:
    x, k = 1.5, -0.5  # y = 2 ** (x·k) + x
    d = 2 ** (x * k) * math.log(2)
    return {"x": d * k + 1, "k": d * x}


def _softplus_sign() -> dict[str, float]:
    w, x, b = 0.8, 1.5, -0.2  # y = 2·softplus(w·x + b): its derivative is the sigmoid
    d = 2 / (1 + math.exp(-(w * x + b)))
    return {"w": d * x, "x": d * w, "b": d}


def _silu_missing_term() -> dict[str, float]:
    z = 0.4 * 1.0 + -0.7 * 2.0  # y = 3·silu(z), silu(z) = z·s(z)
    s = 1 / (1 + math.exp(-z))
    d = 3 * (s + z * s * (1 - s))
    return {"ws[0]": d * 1.0, "ws[1]": d * 2.0}


def _sigmoid_from_tanh() -> dict[str, float]:
    x, w, b = 1.5, -0.8, 0.3  # loss = s² − 2s, s = sigmoid(xw + b)
    s = 1 / (1 + math.exp(-(x * w + b)))
    d = (2 * s - 2) * s * (1 - s)
    return {"x": w * d, "w": x * d, "b": d}


def _sorted_by_creation() -> dict[str, float]:
    x, w1, w2 = 0.6, -0.4, 1.3  # y = h·w2 + h² + x, h = tanh(x·w1)
    h = math.tanh(x * w1)
    d = (w2 + 2 * h) * (1 - h * h)
    return {"x": d * w1 + 1, "w1": d * x, "w2": h}


def _grad_property() -> dict[str, float]:
    x, w = 0.7, -1.1  # y = h·x + h², h = tanh(x·w)
    h = math.tanh(x * w)
    d = (x + 2 * h) * (1 - h * h)
    return {"x": d * w + h, "w": d * x}


def _rules_from_output() -> dict[str, float]:
    x, y = 1.7, -0.6  # z = (x³·e^(−xy) + y²) / (x + y⁴)
    e = math.exp(-x * y)
    top, bottom = x**3 * e + y**2, x + y**4
    dx = ((3 * x**2 - x**3 * y) * e * bottom - top) / bottom**2
    dy = ((-(x**4) * e + 2 * y) * bottom - top * 4 * y**3) / bottom**2
    return {"x": dx, "y": dy}


def _path_sum() -> dict[str, float]:
    x, w, b = 0.5, -2.0, 0.3  # y = h² + h·x, h = tanh(x·w + b)
    h = math.tanh(x * w + b)
    d = (2 * h + x) * (1 - h * h)
    return {"x": d * w + h, "w": d * x, "b": d}


def _torch_layout() -> dict[str, float]:
    # n = x1·w1 + x2·w2 + b·x1 (x1 2, x2 0, w2 1, b 0.5), o = tanh(n); the second step's,
    # after w1 −0.3 took its step of 0.1 times its (right) gradient 2·(1 − tanh²(0.4)).
    w1 = -0.3 - 0.1 * 2 * (1 - math.tanh(0.4) ** 2)
    d = 1 - math.tanh(2 * w1 + 0.5 * 2) ** 2
    return {"x1": (w1 + 0.5) * d, "x2": d, "w1": 2 * d, "w2": 0.0, "b": 2 * d}


def _neuron_inline() -> dict[str, float]:
    ws, xs, b = (0.5, -1.0, 0.25), (1.0, 2.0, -3.0), 0.1  # y = tanh(ws·xs + b)
    d = 1 - math.tanh(sum(w * x for w, x in zip(ws, xs, strict=True)) + b) ** 2
    return {
        **{f"n.w[{i}]": d * x for i, x in enumerate(xs)},
        **{f"xs[{i}]": d * w for i, w in enumerate(ws)},
        "n.b": d,
    }


RIGHT: dict[str, Callable[[], dict[str, float]]] = {
    "sort_uses_self_prev": lambda: mg(
        lambda w, x, b: (w * x + b) * (w * x + b), w=0.5, x=2.0, b=-0.25
    ),
    "log10_rule_natural": _log10_rule,
    "rpow_no_log": _rpow_no_log,
    "softplus_sign": _softplus_sign,
    "silu_missing_term": _silu_missing_term,
    "mul_uses_other_grad": lambda: mg(lambda a, b: a * b + b, a=3, b=-2),
    "assign_in_mul": lambda: mg(lambda a, b, c, f: (a * b + c) * f * a, a=2, b=-3, c=10, f=-2),
    "tanh_one_minus_t": _tanh_neuron,
    "relu_mask_inverted": lambda: mg(
        lambda x, w1, w2: (x * w1).relu() * 3 + (x * w2).relu() * -1 + 0.25, x=1.5, w1=-0.5, w2=2
    ),
    "pow_without_exponent": lambda: mg(lambda x: 3 * x**2 + x * -4 + 5, x=3.0),
    "div_sign": lambda: {"a": 1 / 4, "b": -6 / 16 + 1},
    "op_objects_mul_factor": lambda: mg(lambda x, y: x * y + x * x, x=3.0, y=-2.0),
    "dispatch_tuple_op_pow": lambda: mg(lambda w, x, b: (w * x + b) ** 2, w=0.5, x=3.0, b=-1.0),
    "mul_no_upstream": _mul_no_upstream,
    "pairs_loop_no_upstream": _mul_no_upstream,
    "recursive_pairs_path_sum": lambda: mg(lambda a, b: (a * b) * a + a * b, a=2.0, b=3.0),
    "grad_none_sum_mul_swapped": lambda: {"w": -3.0 + 0.5, "x": 2.0, "b": 2.0},
    "sort_without_visited": lambda: mg(lambda x, y: (x * y) * (x * y) + x * y, x=3, y=2),
    "topo_not_reversed": _tanh_wx_b,
    "seed_zero": lambda: mg(lambda a, b: a * b + a * 3.0, a=1.5, b=-2),
    "hash_by_value": lambda: mg(lambda a, b, c: a * b + c * 0.5, a=2, b=3, c=6),
    "kahn_no_seed": lambda: mg(lambda a, b: (a * b + a) * (a * b), a=2, b=-1),
    "swapped_self_other": lambda: mg(lambda x, w, b: (w * x + b) * (w * x + b), x=4, w=-2, b=1),
    "rmul_written_apart": lambda: mg(lambda w, x: (w * x + 3 * w) * (w * x + 3 * w), w=0.5, x=1.5),
    "tanh_writes_out_grad": _tanh_writes,
    "exp_self_data": lambda: {"x": 2 * math.exp(0.3) + 2 * 0.3},
    "sub_sign": lambda: {"pred": 2 * (2.5 - 4.0), "target": -2 * (2.5 - 4.0)},
    "kahn_assign_add": lambda: mg(lambda a: (a + a) * 3.0, a=-4),
    "stack_preorder": _stack_preorder,
    "method_dispatch_pow": lambda: mg(lambda a, b: a * b**-1 + a**2, a=3, b=2),
    "sigmoid_plus": _sigmoid,
    "recursive_no_sort": lambda: mg(lambda x, y: (x * y + x) * (x * y), x=2, y=5),
    "log_wrong": _log,
    "square_assign": lambda: mg(lambda a: a * a + 1.0, a=3),
    "reset_out_grad": lambda: mg(lambda a, b: a * b + a, a=1.5, b=-2),
    "slots_value": lambda: {"a": 2 * 5.0 - 2.0, "b": -5.0},
    "nary_sum_assign": lambda: {"x": 4 * -0.5 + 2, "y": 4 * 1.5},
    "sorted_by_id": lambda: mg(lambda a, b: a * b + a, a=3, b=4),
    "backward_twice": _backward_twice,
    "rules_return_grads": lambda: mg(lambda a, b: a * b + b, a=3, b=-2),
    "relu_mask_on_grad": lambda: mg(
        lambda x, w: (x * w).relu() * -3.0 + (x * w).relu() * 1.0, x=1.0, w=0.8
    ),
    "lambda_defaults_swapped": lambda: {
        "x": 2.0 * (1 - math.tanh(1.0) ** 2) + 1,
        "w": 0.5 * (1 - math.tanh(1.0) ** 2),
    },
    "tanh_from_exp_wrong": lambda: {k: _tanh_neuron()[k] for k in ("x1", "w1", "b")},
    "stale_default_grad": lambda: mg(lambda a, b: a * b + a, a=2, b=-3),
    "precedence_tanh": lambda: {
        "x": 2.5 * -0.4 * (1 - math.tanh(0.6 * -0.4) ** 2),
        "w": 2.5 * 0.6 * (1 - math.tanh(0.6 * -0.4) ** 2),
    },
    # x's own is None: below `x * 3` (one operand, the 3 kept in no node) no right rule.
    "scalar_operand_unwrapped": lambda: {"y": 1.5 * 3 + 1},
    "int_grads_printing": lambda: mg(lambda a, b, c: (a * b + c) * a, a=2, b=-3, c=4),
    "kahn_counts_once": lambda: mg(lambda x: (x * 2.0) * -1.0 + (x * 2.0) * (x * 2.0), x=1.5),
    "typo_out_for_other": lambda: mg(lambda a, b: a * b + b, a=2, b=0.5),
    "underscore_grad": lambda: _stack_preorder(w=-1.5),
    "grad_through_temporary": _through_temporary,
    "relu_no_mask": lambda: mg(lambda x: (x * -1).relu() * 4 + (x * 0.5).relu() * 2, x=2),
    "kahn_right": lambda: mg(_square_of_sum, a=1.5, b=-0.5, c=2),
    "iterative_dfs": lambda: mg(_square_of_sum, a=1.5, b=-0.5, c=2),
    "bfs_no_count": lambda: mg(lambda w: w * 4.0 + (w * 4.0 * 2.0 + w * 4.0 * 3.0), w=0.5),
    # The graph `1 - x` built (x + −1, the forward pass wrong): right for that graph.
    "rsub_self_minus_other": lambda: mg(lambda x, w: (x + -1.0) * w, x=0.25, w=3.0),
    "div_divisor_reciprocal": lambda: {"a": 2 * 3.0 / 2.0, "b": -(3.0**2) / 2.0**2 + 1},
    "pow_k_times_x_k": lambda: {"x": 3 * 2.0**2 + 5},
    "sigmoid_s_times_s": _sigmoid_s_times_s,
    "tanh_of_tanh": _tanh_of_tanh,
    # target is cut out by `-target` (a new leaf): pred's is right for the graph built.
    "neg_no_node": lambda: mg(lambda pred: (pred + -4.0) * (pred + -4.0), pred=2.5),
    "closure_late_binding": lambda: {"a": -1.0 + 0.5, "b": 2.0 + 0.5, "c": -1.0 + 2.0},
    "visited_by_data_id": lambda: mg(lambda a, b, c: b * (a + c), a=1, b=3, c=2),
    "exp_times_own_grad": _exp_times_own_grad,
    "mean_no_divide": lambda: {"w": (2 * -0.5 * 1.0 + 0.0 + 2 * 1.0 * 4.0) / 3},
    "tanh_assign_reused": _tanh_assign_reused,
    "shared_weight_batch_assign": _shared_weight_second_epoch,
    "pow_value_exponent": lambda: {"x": 0.5 * 3 * 2.0**2, "y": 0.5 * 8 * math.log(2) + 1},
    "seed_after_loop": lambda: mg(lambda a, b: a * b + b, a=2, b=-3),
    "keep_for_clarity": lambda: {  # y = tanh(x·x + x·w)
        "x": (1 - math.tanh(0.25 - 0.75) ** 2) * (2 * 0.5 - 1.5),
        "w": (1 - math.tanh(0.25 - 0.75) ** 2) * 0.5,
    },
    # Its own gradients end 1 too many below each node; the right engine's start at 0.
    "grad_init_one": lambda: mg(lambda a, b: a * b + a, a=2, b=-3),
    "seed_in_the_loop": lambda: mg(lambda a, b: (a * b) * a + a * b, a=2, b=-3),
    "zero_after_rule": lambda: mg(lambda w, x: (w * x + w) * (w * x + w), w=0.5, x=3),
    "rule_on_self": lambda: mg(lambda a, b, c: (a + b) * c + a, a=2, b=-3, c=0.5),
    "rule_on_other": lambda: mg(lambda a, b, c: c + a * b, a=2, b=-3, c=0.5),
    "sqrt_no_root": lambda: {"a": 3.0 / 5.0, "b": 4.0 / 5.0},
    "abs_no_sign": lambda: {"pred": -1 + 0.5, "target": 1.0},
    "cos_sign": _cos_sign,
    "kahn_leaves_first": lambda: mg(lambda a, b: a * b + a, a=2, b=-1),
    "slots_div_numerator": lambda: {"total": 1 / 4.0, "count": -6.0 / 4.0**2},
    "relu_mask_on_input_grad": lambda: {"x": 3 * 2.0 + 1, "w": 3 * 1.5},
    "sub_minus_equals_mul_assign": lambda: {"pred": 2 * (2.5 - 4.0), "target": -2 * (2.5 - 4.0)},
    # relu of exactly 0 given 2: micrograd's 0 there, so b's share is 0 (w's from w*4).
    "relu_at_zero_wrong": lambda: {"w": 4.0, "b": 0.0},
    # abs of exactly 0: the rule's own sign at 0 taken (0, and 1), any in [-1, 1] right.
    "abs_sign_zero_at_zero": lambda: {"w": 4.0, "x": 0.0, "target": 0.0},
    "abs_one_at_zero": lambda: {"w": 2.0 * 3 + 4.0, "x": 0.5 * 3, "target": -3.0},
    # y = w·x**k + x; the exponent's share has ln x, the rule's forgot it.
    "named_methods_pow": lambda: {
        "x": -0.4 * 3.0 * 1.5**2 + 1,
        "k": -0.4 * 1.5**3 * math.log(1.5),
        "w": 1.5**3,
    },
    # loss = log(p + x) − p·x, p = x·y (x 2, y 0.5): the right engine's and the tape's.
    "tape_right": lambda: {"x": (0.5 + 1) / 3 - (0.5 * 2 + 1), "y": 2 / 3 - 2 * 2},
    "tape_log_wrong": lambda: {"x": (0.5 + 1) / 3 - (0.5 * 2 + 1), "y": 2 / 3 - 2 * 2},
    "tape_mul_no_upstream": lambda: {"x": (0.5 + 1) / 3 - (0.5 * 2 + 1), "y": 2 / 3 - 2 * 2},
    "left_right_div_sign": _left_right,
    # Each leaf as the right engine leaves it after the second step (w 0.1, b 0.8, y 1):
    # x, never zeroed, keeps the first step's 2 (2·y·w, y 2, w 0.5) and adds 2·y·w again.
    "tape_never_cleared": lambda: {"w": 2 * 1.0 * 2, "b": 2 * 1.0, "x": 2 * 2 * 0.5 + 2 * 0.1},
    "tape_cleared_training": lambda: {"w": 2 * 0.5 * 2, "b": 2 * 0.5},
    "grad_fn_one_line_loop": lambda: {  # y = tanh(x·w + b), x 0.5, w −1.5, b 0.25
        "x": -1.5 * (1 - math.tanh(-0.5) ** 2),
        "w": 0.5 * (1 - math.tanh(-0.5) ** 2),
        "b": 1 - math.tanh(-0.5) ** 2,
    },
    # w −0.35, b 0.3, y −0.75; x keeps step 1's 2·(−1.25)·(−0.5).
    "topo_default_list": lambda: {"w": 2 * -0.75 * 3, "b": 2 * -0.75, "x": 1.25 + 0.525},
    "dot_first_factor": lambda: {  # loss = y², y = ws·xs + 1 = −5.5
        **{f"ws[{i}]": -11.0 * x for i, x in enumerate((1.0, 3.0, -2.0))},
        **{f"xs[{i}]": -11.0 * w for i, w in enumerate((0.5, -1.0, 2.0))},
    },
    # loss = (1 − xw)², x 0.5, w 1.5: 2·(1 − 0.75) = 0.5 times −w and −x.
    "rsub_rule_sign": lambda: {"x": 0.5 * -1.5, "w": 0.5 * -0.5},
    "div_pow_no_upstream": lambda: {"a": 1 / 2.0, "b": -3.0 / 2.0**2 + 1},
    # relu of −0.75 is 0: only y's own `+ w1` reaches a leaf.
    "relu_out_data_ge": lambda: {"w1": 1.0, "w2": 0.0, "b": 0.0, "x1": 0.0, "x2": 0.0},
    "tanh_rule_uses_input": _tanh_rule_uses_input,
    "pow_precedence": lambda: {"w": sum(2 * (0.4 * x - y) * x for x, y in _LINE)},
    "softmax_add_assign": _softmax_cross_entropy,
    # leaky relu of 1 (slope 1) and of −1.5 (slope 0.01), x 2.
    "leaky_relu_slopes_swapped": lambda: {"w1": 2.0, "w2": 2.0 * 0.01, "x": 0.5 - 0.75 * 0.01},
    # R = 1 / (1/r1 + 1/r2) = 4/3: dR/dri = R² / ri².
    "rtruediv_numerator_rule": lambda: {"r1": (4 / 3) ** 2 / 4.0, "r2": (4 / 3) ** 2 / 16.0},
    # loss = (a·x³ + b − 4)², a 0.5, b 1, x 1.5: 2·(2.6875 − 4) = −2.625.
    "pow_hardcoded_square": lambda: {
        "a": -2.625 * 1.5**3,
        "b": -2.625,
        "x": -2.625 * 0.5 * 3 * 1.5**2,
    },
    "sigmoid_formula_at_output": _sigmoid_plus_exp,
    # y = max(a·c, b·c)·0.5 + b, a 1.5, b −0.5, c 2: a·c is the larger.
    "max_both_operands": lambda: {"a": 0.5 * 2.0, "b": 1.0, "c": 0.5 * 1.5},
    "build_topo_self_typo": _tanh_neuron,
    # y = 3h + h², h = relu(0.5·1.5 − 0.25·2 + 0.1) = 0.35: dy/dh = 3 + 2h = 3.7.
    "loop_calls_output_rule": lambda: {"w[0]": 3.7 * 1.5, "w[1]": 3.7 * 2.0, "b": 3.7},
    # y = h·x + h, h = e^(xw), x 0.5, w −1.2.
    "rules_run_in_sort": lambda: {
        "x": math.exp(-0.6) * (1 + 1.5 * -1.2),
        "w": math.exp(-0.6) * 1.5 * 0.5,
    },
    # loss = Σ (0.8x − 0.2 − y)², residuals −1.4, −3.1, −3.3 at x = 1, 2, 3.
    "square_rule_no_two": lambda: {"w": 2 * (-1.4 * 1 - 3.1 * 2 - 3.3 * 3), "b": 2 * -7.8},
    # z = 2^(xy) + x², x 1.5, y 0.5: d 2^p / dp = 2^p · ln 2.
    "rpow_power_rule": lambda: {
        "x": 0.5 * 2**0.75 * math.log(2) + 2 * 1.5,
        "y": 1.5 * 2**0.75 * math.log(2),
    },
    # loss = (w·x + b − y)², err −0.75: nothing reaches the leaves past the `-`.
    "sub_rule_never_attached": lambda: {"w": -1.5 * 2.0, "b": -1.5, "x": -1.5 * 0.5, "y": 1.5},
    "loop_skips_output_rule": lambda: {
        "x": -1.5 * (1 - math.tanh(-0.5) ** 2),
        "w": 0.5 * (1 - math.tanh(-0.5) ** 2),
        "b": 1 - math.tanh(-0.5) ** 2,
    },
    "relu_out_data_gt": lambda: mg(
        lambda x1, x2, w1, w2, w3: (
            3 * (w1 * x1 + w2 * x2).relu()
            + 2 * (w3 * x2).relu()
            + (w1 * x1 + w2 * x2).relu() * (w1 * x1 + w2 * x2).relu()
        ),
        x1=1.5,
        x2=-0.5,
        w1=0.8,
        w2=-1.2,
        w3=2.0,
    ),
    "pow_float_exponent": lambda: {"a": 3.0 / 5.0, "b": 4.0 / 5.0},
    # y = h·x + h, h = e^(xw), x 0.5, w −1.2 (as rules_run_in_sort's).
    "tape_forward_order": lambda: {
        "x": math.exp(-0.6) * (1 + 1.5 * -1.2),
        "w": math.exp(-0.6) * 1.5 * 0.5,
    },
    "sorted_by_creation": _sorted_by_creation,
    "visited_added_after_children": lambda: mg(
        lambda a, b: (a * b + a) * (a * b) + (a * b + a) * b, a=1.5, b=-2.0
    ),
    "exp_rule_exp_of_output": lambda: {  # y = 2e^(ab) + a, a −0.5, b 0.8
        "a": 2 * 0.8 * math.exp(-0.4) + 1,
        "b": 2 * -0.5 * math.exp(-0.4),
    },
    "neuron_inline_mul_late": _neuron_inline,
    "stack_shared_twice": lambda: mg(lambda x, w, c: x * w + (x * w) * c, x=2.0, w=-0.5, c=3.0),
    "sigmoid_from_tanh": _sigmoid_from_tanh,
    "reflected_ops_via_others": lambda: mg(
        lambda x, y: (1 - x) * (2 / x) + 3 + y / x - x / y, x=0.5, y=4.0
    ),
    "grad_property": _grad_property,
    "neg_assign": lambda: {"a": -2.0, "b": 3.0 - 1.0},
    # `1 / r` built as r / 1: right for that graph (each leaf's factor 1 / 1).
    "rtruediv_swapped": lambda: {"r1": 1.0, "r2": 1.0},
    "rules_from_output": _rules_from_output,
    "recursive_path_sum": _path_sum,
    "torch_layout_grads_assign": _torch_layout,
    "softmax_shift_by_max": lambda: {  # −log softmax[0]: p − onehot (logits[1] is `top`)
        name: math.exp(z) / sum(math.exp(v) for v in (1.0, 3.0, -0.5)) - (name == "logits[0]")
        for name, z in (("logits[0]", 1.0), ("top", 3.0), ("logits[2]", -0.5))
    },
    "recursive_passes_total": _path_sum,
    "topo_insert_front": lambda: mg(
        lambda x, w, b: (x * w + b).relu() * (x * w + b).relu() + (x * w + b).relu() * x,
        x=2.0,
        w=0.75,
        b=-0.5,
    ),
}

R, U = "right", "unchecked"
# program: (each op's verdict and first frame, sort, accumulation); a first frame is
# (frame, node, child) for a rule, (frame, node, consumer) for the sort, (frame, node,
# child, lost) for `+=`.
CHECKS: dict[str, tuple[dict[str, Any], Any, Any]] = {
    # The sort's loop reads `self._prev` (the output's operands) for every node: w*x, an
    # operand of z, is never sorted, its rule never runs.
    "sort_uses_self_prev": ({"*": R, "+": R}, (5, "n3", None), R),
    # Ops the registry has not, judged by the numeric table: a base-10 log, a number's
    # power written with its base (`2**`, an `__rpow__`), softplus, SiLU.
    "log10_rule_natural": ({"*": R, "log10": (5, "n3", "n2"), "+": R}, R, R),
    "rpow_no_log": ({"*": R, "2**": (5, "n3", "n2"), "+": R}, R, R),
    "softplus_sign": ({"*": R, "+": R, "softplus": (7, "n5", "n4")}, R, R),
    "silu_missing_term": ({"*": R, "+": R, "silu": (9, "n9", "n8")}, R, R),
    # `other.grad * out.grad` for `other.data * out.grad`: a's factor is b's gradient so
    # far (1, from `+`), not b's data (−2).
    "mul_uses_other_grad": ({"*": (4, "n2", "n0"), "+": R}, R, R),
    "assign_in_mul": ({"*": R, "+": R}, R, (10, "n3", "n0", -8.0)),
    "tanh_one_minus_t": ({"*": R, "+": R, "tanh": (6, "n9", "n8")}, R, R),
    "relu_mask_inverted": ({"*": R, "+": R, "ReLU": (14, "n6", "n5")}, R, R),
    "pow_without_exponent": ({"*": R, "+": R, "**": (13, "n1", "n0")}, R, R),
    "div_sign": ({"+": R, "/": (4, "n2", "n1")}, R, R),
    # A class per op whose object hands the node its bound `compute_derivatives`: its
    # rules ran unseen ("unchecked"), and the factor left out of x*x's first share was
    # blamed on the sort.
    "op_objects_mul_factor": ({"*": (5, "n3", "n0"), "+": R}, R, R),
    # Ops kept as tuples, `("pow", 2)`: the power was a row "" and "unchecked", its rule's
    # missing `- 1` unnamed; err's share is 2 × 0.5² = 0.5, not 2 × 0.5.
    "dispatch_tuple_op_pow": ({"*": R, "+": R, "**": (4, "n5", "n4")}, R, R),
    "mul_no_upstream": ({"*": (9, "n2", "n0"), "+": R, "exp": R}, R, R),
    # The same bug in backward()'s one loop over `(operand, local)` pairs: each op's
    # writes are its rule (they were no rule's: every row unchecked, the sort "wrong").
    "pairs_loop_no_upstream": ({"*": (8, "n2", "n0"), "exp": (7, "n3", "n2"), "+": R}, R, R),
    # A right path-sum recursion over the same pairs: no one node's rule (its writes are
    # the path's products, not a gradient times a local), judged whole, nothing named.
    "recursive_pairs_path_sum": ({"*": U, "+": U}, R, R),
    # `p.grad = g if p.grad is None else p.grad + g` adds mul's wrong share to w's 2: a
    # sum, not an `=` (`+=` was named wrong, as having lost the 2 already there).
    "grad_none_sum_mul_swapped": ({"*": (5, "n4", "n0"), "+": R}, R, R),
    "sort_without_visited": ({"*": R, "+": R}, (5, "n2", "n3"), R),
    "topo_not_reversed": ({"*": R, "+": R, "tanh": R}, (6, "n3", "n4"), R),
    "seed_zero": ({"*": R, "+": R}, R, R),
    # A right engine, no zero_grad between steps: the right engine carries the gradients
    # from step to step as the program does (SPEC §14), so nothing is wrong to name.
    "no_zero_grad": ({"*": R, "+": R, "**": R}, R, R),
    "hash_by_value": ({"*": R, "+": R}, (7, "n5", None), R),
    "kahn_no_seed": ({"*": R, "+": R}, R, R),
    "swapped_self_other": ({"*": (7, "n3", "n1"), "+": R}, R, R),
    # `3 * w` made by an `__rmul__` of its own, whose rule multiplies w's share by w.
    "rmul_written_apart": ({"*": (7, "n4", "n0"), "+": R}, R, R),
    "exp_self_data": ({"*": R, "+": R, "exp": (9, "n1", "n0")}, R, R),
    "sub_sign": ({"*": R, "-": (4, "n2", "n1")}, R, R),
    "kahn_assign_add": ({"*": R, "+": R}, R, (4, "n1", "n0", 3.0)),
    "stack_preorder": ({"*": R, "+": R, "tanh": R}, (5, "n4", "n5"), R),
    "mlp_tanh_training": ({"*": R, "+": R, "**": R, "tanh": (80, "n96", "n95")}, R, R),
    "method_dispatch_pow": ({"*": R, "+": R, "**": (6, "n4", "n0")}, R, R),
    "sigmoid_plus": ({"*": R, "+": R, "sigmoid": (4, "n5", "n4")}, R, R),
    "recursive_no_sort": ({"*": R, "+": R}, (11, "n2", None), R),
    "log_wrong": ({"*": R, "+": R, "log": (7, "n4", "n3")}, R, R),
    "square_assign": ({"*": R, "+": R}, R, (5, "n1", "n0", 3.0)),
    "relu_no_mask": ({"*": R, "+": R, "relu": (16, "n3", "n2")}, R, R),
    # Two bugs, two passes: each row at its own first frame, in the first pass.
    "two_bugs_training": (
        {"*": R, "+": R, "tanh": (17, "n14", "n13")},
        R,
        (26, "n5", "n1", 0.2873155742170733),
    ),
    "slots_value": ({"*": R, "+": R, "neg": (6, "n2", "n1")}, R, R),
    "nary_sum_assign": ({"*": R, "sum": R}, R, (6, "n3", "n2", 2.0)),
    "sorted_by_id": ({"*": R, "+": R}, (5, "n2", "n3"), R),
    # A seed of `+= 1`: right on the first call, 2 on the second. No row is the seed's;
    # the gradients end wrong, and the second sort frame says so.
    "backward_twice": ({"*": R, "+": R}, R, R),
    # y merged away from `x * y` (equal data, `_prev = set(...)`): the graph its _prev
    # makes has `*` with one operand, and y's rule never runs: `*` is named, with y.
    "hash_merges_operands": ({"*": (5, "n5", "n3"), "+": R}, R, R),
    # The same of x + y, both products: `+` names y, merged into x; `*` is right.
    "hash_merges_products": ({"*": R, "+": (3, "n6", "n5")}, R, R),
    # `self.backward_fn = fn` in `__mul__`: the product's own rule does nothing, and a
    # keeps the rule of a*c, the last product it went into. `*` is named (kept on a, at
    # a's run), not the sort, which ran every rule a node keeps after its consumers'.
    "rule_on_operand": ({"*": (5, "n3", "n0"), "+": R}, R, R),
    # `Value(self.data * k, (self,), '*')`: k is out / self, which the rule forgot.
    "scale_forgets_factor": ({"*": (5, "n2", "n0"), "+": R}, R, R),
    # Each op's function returns the shares and backward()'s loop adds them: one run,
    # named at the loop's frame that writes a's share (the run's first frame, the call of
    # the function, writes nothing: its button showed no write).
    "rules_return_grads": ({"*": (6, "n2", "n0"), "+": R}, R, R),
    "relu_mask_on_grad": ({"*": R, "+": R, "ReLU": (11, "n3", "n2")}, R, R),
    "lambda_defaults_swapped": ({"*": (6, "n2", "n0"), "+": R, "tanh": R}, R, R),
    "tanh_from_exp_wrong": ({"*": R, "+": R, "tanh": (4, "n5", "n4")}, R, R),
    "stale_default_grad": ({"*": (4, "n2", "n0"), "+": R}, R, R),
    "precedence_tanh": ({"*": R, "tanh": (6, "n3", "n2")}, R, R),
    "scalar_operand_unwrapped": ({"*": R, "+": R, "**": (7, "n5", "n0")}, R, R),
    "int_grads_printing": ({"*": R, "+": (5, "n4", "n3")}, R, R),
    "kahn_counts_once": ({"*": R, "+": R}, (7, "n2", "n5"), R),
    "typo_out_for_other": ({"*": R, "+": (3, "n3", "n1")}, R, R),
    # `=` writes that keep the old gradient plus the right share: nothing is lost.
    "underscore_grad": ({"*": R, "+": R, "tanh": (7, "n3", "n2")}, R, R),
    "grad_through_temporary": ({"*": R, "+": R, "exp": (7, "n3", "n2")}, R, R),
    # A rule that writes its own node's gradient: its operands' shares are right, and
    # `+=`'s row names what the `=` into out.grad lost.
    "tanh_writes_out_grad": ({"*": R, "+": R, "tanh": R}, R, (8, "n3", "n3", 4.0)),
    "reset_out_grad": ({"*": R, "+": R}, R, (3, "n3", "n3", 1.0)),
    # Right sorts that are not the recursive build_topo's: nothing to name.
    "kahn_right": ({"*": R, "+": R}, R, R),
    "iterative_dfs": ({"*": R, "+": R}, R, R),
    # x (n2) runs before p2 (n4) and p1 (n6), which use it: the first made is named.
    "bfs_no_count": ({"*": R, "+": R}, (7, "n2", "n4"), R),
    # `1 - x` made x − 1: a wrong forward pass, every rule right for the graph it built.
    "rsub_self_minus_other": ({"+": R, "*": R}, R, R),
    "div_divisor_reciprocal": ({"/": (6, "n2", "n1"), "*": R, "+": R}, R, R),
    "pow_k_times_x_k": ({"**": (7, "n1", "n0"), "*": R, "+": R}, R, R),
    # A class per op: the op is its class's name.
    "sigmoid_s_times_s": ({"Mul": R, "Add": R, "Sigmoid": (4, "n5", "n4")}, R, R),
    "tanh_of_tanh": ({"*": R, "tanh": (8, "n3", "n2"), "+": R}, R, R),
    # `-target` a new leaf: the graph has no path to target, every rule right for it.
    "neg_no_node": ({"+": R, "*": R}, R, R),
    # zero_grad that misses the biases: as no_zero_grad, the right engine carries them.
    "zero_grad_misses_biases": ({"*": R, "+": R, "ReLU": R}, R, R),
    "closure_late_binding": ({"*": R, "sum": (5, "n6", "n3")}, R, R),
    # d (a + c, 3) shares id(3) with b: never sorted, so `+` never runs to be checked.
    "visited_by_data_id": ({"+": U, "*": R}, (4, "n3", None), R),
    "exp_times_own_grad": ({"*": R, "exp": (11, "n3", "n2"), "+": R}, R, R),
    "mean_no_divide": ({"*": R, "+": R, "mean": (11, "n16", "n5")}, R, R),
    "tanh_assign_reused": ({"*": R, "tanh": R, "+": R}, R, (8, "n3", "n2", 0.5)),
    # ws + xs as one list of operands: ws[0]'s factor, xs[0], is right; ws[1]'s is not.
    "dot_first_factor": ({"dot": (7, "n6", "n1"), "+": R, "*": R}, R, R),
    "shared_weight_batch_assign": ({"*": R, "+": R, "**": R}, R, (23, "n9", "n0", 0.6)),
    "pow_value_exponent": ({"**": (7, "n2", "n1"), "*": R, "+": R}, R, R),
    # The seed comes after the rules: no row is the seed's, the sort frame says it.
    "seed_after_loop": ({"*": R, "+": R}, R, R),
    # A right engine; the program zeroes the gradients before its update reads them.
    "zero_grad_before_step": ({"*": R, "+": R}, R, R),
    "sqrt_no_root": ({"*": R, "+": R, "sqrt": (5, "n5", "n4")}, R, R),
    # abs of a positive input is right as written: the negative one is named.
    "abs_no_sign": ({"*": R, "+": R, "abs": (11, "n5", "n4")}, R, R),
    "cos_sign": ({"*": R, "cos": (8, "n3", "n2"), "+": R}, R, R),
    "sigmoid_neuron_input": ({"*": R, "+": R, "sigmoid": (37, "n47", "n46")}, R, R),
    # Leaves first: c's rule runs before d's, which uses c.
    "kahn_leaves_first": ({"*": R, "+": R}, (5, "n2", "n3"), R),
    "slots_div_numerator": ({"/": (5, "n2", "n0"), "+": R}, R, R),
    "relu_mask_on_input_grad": ({"*": R, "relu": (8, "n3", "n2"), "+": R}, R, R),
    # `other.grad -= out.grad` is the right `-` rule: only mul's `=` is named.
    "sub_minus_equals_mul_assign": ({"-": R, "*": R}, R, (3, "n3", "n2", -1.5)),
    # At a kink (relu or abs of exactly 0) any subgradient is right: `>= 0`'s 1 for relu,
    # abs's sign(0) = 0 and its 1; relu's 2 there is out of [0, 1], and named.
    "relu_ge_at_zero": ({"*": R, "+": R, "ReLU": R}, R, R),
    "relu_at_zero_wrong": ({"*": R, "+": R, "ReLU": (14, "n5", "n4")}, R, R),
    "abs_sign_zero_at_zero": ({"*": R, "+": R, "abs": R}, R, R),
    "abs_one_at_zero": ({"*": R, "+": R, "abs": R}, R, R),
    # Ops as methods named for them (`x.pow(k)`), in a class that keeps no op: each is
    # the op it is named for (it was one row, "", "unchecked").
    "named_methods_pow": ({"**": (7, "n3", "n1"), "*": R, "+": R}, R, R),
    # A tape: no node keeps its rule, so each write's `out.grad` says whose rule it is;
    # log's `out.grad / self.data` and sub's `other.grad -= out.grad` too (they were
    # updates outside any rule: log "unchecked" and the sort "wrong").
    "tape_right": ({"*": R, "+": R, "log": R, "-": R}, R, R),
    "tape_log_wrong": ({"*": R, "+": R, "log": (8, "n4", "n3"), "-": R}, R, R),
    # `self.grad += other.data`, no `out.grad`: the tape's call of the rule says whose
    # it is (it was an update, and `*` named at a frame where its share was right).
    "tape_mul_no_upstream": ({"*": (7, "n5", "n2"), "+": R, "log": R, "-": R}, R, R),
    # A tape nothing clears: the second backward() runs the first step's rules too, whose
    # nodes its loss does not reach (each rule right for its node; the check said all
    # right). The sort names the first of them, the first step's loss.
    "tape_never_cleared": ({"*": R, "+": R}, (15, "n5", None), R),
    # Cleared after each backward(): right, with the rule of a value the loss does not use.
    "tape_cleared_training": ({"*": R, "+": R}, R, R),
    # `def backward(self, topo=[], visited=set())`: one list for every call, as a tape.
    "topo_default_list": ({"*": R, "+": R}, (21, "n5", None), R),
    # grad_fn returns the shares, `for p, g in zip(...): p.grad += g` on one line adds them.
    "grad_fn_one_line_loop": ({"*": R, "+": R, "tanh": R}, R, R),
    # `left`, `right` and a method `parents()`: the method was taken for the operands'
    # attribute, so the graph had no edges, no right gradient, no row, and "right".
    "left_right_div_sign": ({"*": R, "-": R, "exp": R, "+": R, "/": (10, "n16", "n15")}, R, R),
    # `1 - x` as its own node, its rule `self.grad += out.grad`: x*w's factor is 1, not −1.
    "rsub_rule_sign": ({"*": R, "-": (5, "n4", "n2")}, R, R),
    # `a * b**-1`: the power's upstream is a's 3, which its rule never multiplies by.
    "div_pow_no_upstream": ({"**": (6, "n2", "n1"), "*": R, "+": R}, R, R),
    # `(out.data >= 0) * out.grad`: relu's output is never negative, so the mask is 1.
    "relu_out_data_ge": ({"*": R, "+": R, "ReLU": (11, "n9", "n8")}, R, R),
    "tanh_rule_uses_input": ({"*": R, "+": R, "tanh": (6, "n5", "n4")}, R, R),
    # `other * self.data ** other-1 * out.grad`: the last term's square is named first.
    "pow_precedence": ({"*": R, "+": R, "**": (14, "n18", "n17")}, R, R),
    # `=` in `+`: the sum of the exps overwrites the share the true class's exp (n4) had
    # from its own probability (n8, the division), e^2/Σ = 0.629 × … = −0.135.
    "softmax_add_assign": (
        {"exp": R, "+": R, "/": R, "log": R, "neg": R},
        R,
        (16, "n8", "n4", -0.1353352832366127),
    ),
    # An op the registry has not: the numeric table's leaky relu (slope 0.01) judges it.
    "leaky_relu_slopes_swapped": ({"*": R, "leaky_relu": (7, "n6", "n5"), "+": R}, R, R),
    # `other / self` with operands (other, self): the divisor's factor is −1/x², not 1/x.
    "rtruediv_numerator_rule": ({"/": (5, "n8", "n6"), "+": R}, R, R),
    # 2·x·out.grad for every exponent: right for the loss's square, wrong for x**3.
    "pow_hardcoded_square": ({"**": (12, "n3", "n2"), "*": R, "+": R}, R, R),
    # exp's op written with its input (`e^0.1`, as `**2` is): the registry's exp, right;
    # sigmoid's rule evaluates e^-x/(1+e^-x)² at the output, not the input.
    "sigmoid_formula_at_output": ({"*": R, "+": R, "Sigmoid": (11, "n5", "n4"), "exp": R}, R, R),
    # The numeric table's max: only the larger operand decides; b*c's share is 0, not 1.
    "max_both_operands": ({"*": R, "max": (9, "n5", "n4"), "+": R}, R, R),
    # `build_topo(v)` for `build_topo(child)`: the order holds o alone, only tanh runs.
    "build_topo_self_typo": ({"*": U, "+": U, "tanh": R}, (6, "n5", None), R),
    # `self._backward()` for `node._backward()`: y's rule runs once per node, no other.
    "loop_calls_output_rule": ({"*": U, "+": R, "relu": U}, (10, "n13", None), R),
    # Each rule runs in the sort too, children's first: x*w's before exp's, which uses it.
    "rules_run_in_sort": ({"*": R, "exp": R, "+": R}, (7, "n2", "n3"), R),
    # The numeric table's softplus: e^x passed where the sigmoid of x belongs.
    "softplus_rule_exp": ({"*": R, "+": R, "softplus": (23, "n22", "n21"), "**": R}, R, R),
    "square_rule_no_two": ({"*": R, "+": R, "square": (17, "n22", "n21")}, R, R),
    # `2 ** x` (`__rpow__`, op `2**`): a number to the power of the node's one operand.
    "rpow_power_rule": ({"*": R, "2**": (7, "n3", "n2"), "**": R, "+": R}, R, R),
    # `out._backward = _backward` left out of `__sub__`: err keeps a leaf's rule, which
    # writes nothing; the row is `-`'s, at the frame of that empty run.
    "sub_rule_never_attached": ({"*": R, "+": R, "-": (6, "n6", "n5")}, R, R),
    # `reversed(order[:-1])`: y's rule never runs (tanh's row never judged), the sort row
    # names y, not x*w+b (which runs before y's rule only because y's never runs).
    "loop_skips_output_rule": ({"*": R, "+": R, "tanh": U}, (8, "n5", None), R),
    # Right engines written in unusual ways: nothing to name.
    "relu_out_data_gt": ({"*": R, "+": R, "ReLU": R}, R, R),
    "sorted_by_creation": ({"*": R, "tanh": R, "+": R}, R, R),
    "visited_added_after_children": ({"*": R, "+": R}, R, R),
    "sigmoid_from_tanh": ({"*": R, "+": R, "sigmoid": R}, R, R),
    "reflected_ops_via_others": ({"*": R, "+": R, "**": R}, R, R),
    "grad_property": ({"*": R, "tanh": R, "+": R}, R, R),
    # A right engine; the program's step climbs (`+=`) and its loss grows.
    "lr_step_plus": ({"*": R, "+": R, "**": R}, R, R),
    # The loss built once, backward() called on it each step: its inner nodes add up
    # the steps' gradients, as a right engine's would with the same program.
    "graph_built_once_training": ({"*": R, "+": R}, R, R),
    # sqrt's `**0.5` by the float branch, `other * x ** other`: 2.5 for 0.1.
    "pow_float_exponent": ({"**": (5, "n5", "n4"), "+": R}, R, R),
    # A tape run from the first op: x*w's rule runs before exp's, which uses x*w.
    "tape_forward_order": ({"*": R, "exp": R, "+": R}, (5, "n2", "n3"), R),
    "exp_rule_exp_of_output": ({"*": R, "exp": (8, "n3", "n2"), "+": R}, R, R),
    # Each product's rule reads the loop's last wi, xi and prod: w[2]*xs[2]'s runs first
    # and is right; w[1]*xs[1]'s writes w[2] and xs[2], none of its operands.
    "neuron_inline_mul_late": ({"*": (14, "n9", "n1"), "+": R, "tanh": R}, R, R),
    # `=` in `__neg__`: -b, made first, runs its rule after a*b's and loses b's 3.
    "neg_assign": ({"neg": R, "*": R, "+": R}, R, (7, "n2", "n1", 3.0)),
    # `1 / r` built as r / 1 (as rsub_self_minus_other's): right for the graph it built.
    "rtruediv_swapped": ({"/": R, "+": R}, R, R),
    "rules_from_output": ({"**": R, "*": R, "exp": R, "/": R, "+": R}, R, R),
    "topo_insert_front": ({"*": R, "+": R, "ReLU": R}, R, R),
    # Numbers kept out of the graph: `x * 3` and `x + 1` ops of one operand.
    "const_operands_not_nodes": ({"*": R, "+": R}, R, R),
    # `_children=[]` kept and appended to: one list is every node's operands, a among
    # them: a graph with a loop, whose ops reproduce nothing (their rows unchecked).
    "mutable_default_children": ({"": U, "*": U, "+": U}, (8, "n0", "n0"), R),
    # Right: the gradients zeroed inside backward(); softmax shifted by max() of Values.
    "zero_inside_backward": ({"*": R, "+": R, "**": R}, R, R),
    "softmax_shift_by_max": ({"neg": R, "+": R, "exp": R, "/": R, "log": R}, R, R),
    # No rules: backward() writes every gradient itself, judged whole (no order to judge):
    # each operand handed the share that just arrived is right; handed the node's whole
    # gradient so far, h's first share reaches x*w+b twice, which is named.
    "recursive_path_sum": ({"*": U, "+": U, "tanh": U}, R, R),
    "recursive_passes_total": ({"*": U, "+": U, "tanh": U}, (6, "n4", None), R),
    # The same, laid out as PyTorch's: x1's gradient keeps one share of its two.
    "torch_layout_grads_assign": ({"*": U, "+": U, "tanh": U}, (6, "n0", None), R),
    # Handed down every path by the op's name: the share `sub` hands t (+1 where -1 is
    # right) is read off the walk of writes and named at the pass's frame, not the walk.
    "path_sum_sub_sign": ({"mul": U, "add": U, "tanh": U, "sub": (7, "n7", "n3")}, R, R),
    # `=` there: x*x's first share to x is written over the -3 that x*y gave it.
    "path_sum_assign": ({"mul": U, "add": U}, R, (3, "n3", "n0", -3.0)),
    # An explicit stack that lists p twice (s and q push it): first p runs before q.
    "stack_shared_twice": ({"*": R, "+": R}, (5, "n3", "n4"), R),
    # `self.grad = self.grad` after the `+=`: no write, so nothing lost on `x * x`.
    "keep_for_clarity": ({"*": R, "+": R, "tanh": R}, R, R),
    # No rule, sort or `+=` to blame: the gradients are wrong from where they started.
    "grad_init_one": ({"*": R, "+": R}, R, R),
    # backward()'s loop, not a rule, writes over what the rules gave: `v.grad = 1.0`
    # before each rule (c's 3, from both its uses, then passed on as 1), `v.grad = 0.0`
    # after each (an inner node's, passed on already, is no loss; the first leaf's, x's 2,
    # is: a leaf's gradient is the answer).
    "seed_in_the_loop": ({"*": R, "+": R}, R, (6, "n2", "n2", 3.0)),
    "zero_after_rule": ({"*": R, "+": R}, R, (17, "n1", "n1", 2.0)),
    # A rule set on the wrong node (`self._backward`, `other._backward`): the op whose
    # method did it is named, at the first node of it that kept __init__'s rule; the op of
    # the node whose rule it replaced was named too (its rule wrote another op's shares),
    # `+` here, or `*` in rule_on_other, whose own rule never runs: unchecked.
    "rule_on_self": ({"+": R, "*": (5, "n4", "n3")}, R, R),
    "rule_on_other": ({"*": U, "+": (3, "n4", "n2")}, R, R),
}
# The ones that CPython itself refuses, with the words the trace's error must carry
# (a TypeError but where `REFUSED_AS` says).
REFUSED = {
    "no_rsub": "unsupported operand type(s) for -: 'int' and 'Value'",
    "no_radd": "unsupported operand type(s) for +: 'int' and 'Value'",
    "eq_without_hash": "unhashable type: 'Value'",
    "no_rmul": "unsupported operand type(s) for *: 'int' and 'Value'",
    "call_instead_of_assign": "'NoneType' object is not callable",
    "grad_none_until_used": "unsupported operand type(s) for +=: 'NoneType' and 'float'",
    # `return other + self` in __radd__: int and Value hand `0 + v` to each other forever.
    "radd_reflects_back": "maximum recursion depth exceeded",
    # `self * -1` in `__neg__`, with a `__mul__` that wraps no number.
    "mul_number_unwrapped": "'int' object has no attribute 'data'",
    # The exponent wrapped in a Value, then used as a number in the rule.
    "pow_exponent_wrapped": "unsupported operand type(s) for ** or pow(): 'float' and 'Value'",
}
REFUSED_AS: dict[str, type[Exception]] = {
    "radd_reflects_back": RecursionError,
    "mul_number_unwrapped": AttributeError,
}
# `_prev = set(...)`: CPython orders a node's operands by address, so three or more
# shares summed into one gradient may round in another order (the last bits).
SET_ORDER = {"mlp_tanh_training", "zero_grad_misses_biases"}
# Outside SPEC §3's invariants: an output whose gradient stays 0 (never seeded), rules
# that write their own node's gradient (a contribution to no child).
UNUSUAL = {
    "seed_zero", "kahn_no_seed", "tanh_writes_out_grad", "reset_out_grad",
    "hash_merges_operands", "hash_merges_products",  # and nodes no pass reaches, written by a rule
    "rule_on_operand",  # rules kept on the leaves: a leaf's runs, a product's never
    "rules_return_grads",  # leaves with no rule to run: not in its order
    "typo_out_for_other",
    # Leaves with no rule to run: an empty list of them, one backward over (child, local)
    # pairs, a class per op that skips a node with none.
    "closure_late_binding", "div_divisor_reciprocal", "sigmoid_s_times_s",
    "dispatch_tuple_op_pow", "pairs_loop_no_upstream", "recursive_pairs_path_sum",
    "grad_none_sum_mul_swapped",  # leaves with no grad_fn: skipped
    "tape_right", "tape_log_wrong", "tape_mul_no_upstream",  # a tape: the ops' rules only
    "tape_never_cleared", "tape_cleared_training",
    "left_right_div_sign", "grad_fn_one_line_loop",  # a leaf's grad_fn is None: skipped
    "tanh_rule_uses_input",
    "sub_rule_never_attached",  # an op whose rule (a leaf's) writes none of its operands
    "neuron_inline_mul_late",  # rules that write nodes that are not their operands
    "mutable_default_children",  # a graph with a loop: no order of it
    "recursive_path_sum", "recursive_passes_total",  # no rule: the sort frame writes all
    "path_sum_sub_sign", "path_sum_assign",
    "torch_layout_grads_assign",
    "grad_init_one",  # a first `+=` into a gradient of 1, not 0
    "rule_on_self", "rule_on_other",  # a rule that writes another node's operands
}  # fmt: skip


def _verdict(row: dict[str, Any], keys: tuple[str, ...]) -> Any:
    if row["verdict"] != "wrong":
        return row["verdict"]
    return tuple(row["first"][key] for key in keys)


def test_every_program_is_checked() -> None:
    names = {path.stem for path in PROGRAMS.glob("*.py")}
    assert names == set(CHECKS) | set(REFUSED)


@pytest.mark.parametrize("program", sorted(CHECKS))
def test_the_check_names_the_real_bug(program: str) -> None:
    source = (PROGRAMS / f"{program}.py").read_text()
    trace = trace_source(source)
    printed, error = run_in_cpython(source)
    assert error is None
    if program in SET_ORDER:
        assert_same_output(printed_lines(trace), printed, rel=1e-12)
    else:
        assert printed_lines(trace) == printed
    if program not in UNUSUAL:
        assert_trace_invariants(trace)
    check = trace["engine_check"]
    rules, sort, accumulation = CHECKS[program]
    found = {row["op"]: _verdict(row, ("frame", "node", "child")) for row in check["rules"]}
    assert found == rules
    assert _verdict(check["sort"], ("frame", "node", "consumer")) == sort
    assert _verdict(check["accumulation"], ("frame", "node", "child", "lost")) == accumulation
    if program in RIGHT:
        by_label = {node["label"]: node for node in trace["nodes"] if node["kind"] == "leaf"}
        for label, grad in RIGHT[program]().items():
            node = by_label.get(label) or next(n for n in trace["nodes"] if n["name"] == label)
            tolerance = 1e-6 if node.get("reference") == "numeric" else 1e-9
            assert math.isclose(node["correct_grad"], grad, rel_tol=tolerance), (label, node)


@pytest.mark.parametrize("program", sorted(REFUSED))
def test_what_cpython_refuses_is_refused_with_its_words(program: str) -> None:
    source = (PROGRAMS / f"{program}.py").read_text()
    _, error = run_in_cpython(source)
    kind = REFUSED_AS.get(program, TypeError)
    assert type(error) is kind and str(error) == REFUSED[program]
    with pytest.raises(EngineError, match=re.escape(f"{kind.__name__}: {REFUSED[program]}")):
        trace_source(source)


def _backward_texts(trace: dict[str, Any]) -> list[str]:
    return [frame["text"] for frame in trace["frames"] if frame["phase"] == "backward"]


def test_a_factor_written_over_an_upstream_gradient_of_0_is_not_called_wrong() -> None:
    # relu_mask_inverted: the inverted mask passes 0 to x*w2, whose (right) mul rule then
    # adds 2 × 0 through `self._acc(...)`, a factor not read off the code: 0 × anything
    # is 0, so nothing says the factor was 0, nor that the right one is 2.
    trace = trace_source((PROGRAMS / "relu_mask_inverted.py").read_text())
    texts = _backward_texts(trace)
    mul = next(text for text in texts if text.startswith("x*w2 (*, grad 0)"))
    assert "right local derivative" not in mul
    relu = next(text for text in texts if text.startswith("h2 (ReLU"))
    assert relu.endswith("The right local derivative for x*w2 is 1, not 0.")


def test_a_rule_that_writes_its_own_gradient_is_said_from_the_gradient_it_was_given() -> None:
    # tanh_writes_out_grad: `out.grad = (1 - t**2) * out.grad; self.grad += out.grad`
    # passes x*w the right share, 0.5297 × 4, and loses h's 4. The upstream gradient is
    # the 4 the rule found, not the 2.119 it left: the tanh row was "wrong" (a factor of
    # 1 for x*w), and the text said "h.grad = 0.5297 × 2.119" and blamed a set.
    trace = trace_source((PROGRAMS / "tanh_writes_out_grad.py").read_text())
    tanh = next(f for f in trace["frames"] if f["phase"] == "backward" and f["node"] == "n3")
    assert [c["upstream"] for c in tanh["contributions"]] == [4.0, 4.0]
    assert tanh["text"] == (
        "h (tanh, grad 4): its own rule ran. h.grad = 0.5297 × 4: the 4 already there is "
        "lost; (x*w).grad += 2.119 → 2.119. h is this rule's own node, not one of its "
        "operands: the rule changes the gradient it was given."
    )
    h = next(node for node in trace["nodes"] if node["id"] == "n3")
    assert (h["grad"], h["correct_grad"]) == (tanh["contributions"][0]["after"], 4.0)
    # reset_out_grad: `out.grad = 0.0` after passing it on; the rules were "unchecked"
    # (an upstream gradient of 0) and said "m.grad += 1 × 0 → 1".
    trace = trace_source((PROGRAMS / "reset_out_grad.py").read_text())
    texts = _backward_texts(trace)
    assert texts[0] == (
        "s (+, grad 1): its own rule ran. m.grad += 1 × 1 → 1; a.grad += 1 × 1 → 1; "
        "s.grad = 0: the 1 already there is lost. s is this rule's own node, not one of "
        "its operands: the rule changes the gradient it was given."
    )
    assert not any("a set merged it" in text for text in texts)


SORT_TEXTS = {
    "sort_uses_self_prev": "loss.backward() never runs w*x's rule (6 nodes reach loss): "
    "nothing is passed on from w*x. Seed loss.grad = 1.",
    # The sort frame said "Depth-first sort: N nodes, each after its children. Seed
    # out.grad = 1, then walk the order backwards." of every one of these.
    "seed_zero": "loss.backward() runs the rules of the 6 nodes that reach loss, each after "
    "those of the nodes that use it. loss.grad is 0 when the first rule runs, not 1: a "
    "right engine seeds it with 1.",
    "kahn_no_seed": "e.backward() runs the rules of the 5 nodes that reach e, each after "
    "those of the nodes that use it. e.grad is 0 when the first rule runs, not 1: a right "
    "engine seeds it with 1.",
    "sort_without_visited": "out.backward() runs h's rule before that of h*h, which uses h: "
    "h passes its gradient on before all of it has arrived. Seed out.grad = 1.",
    "topo_not_reversed": "y.backward() runs w*x's rule before that of w*x+b, which uses w*x: "
    "w*x passes its gradient on before all of it has arrived. Seed y.grad = 1.",
    "stack_preorder": "y.backward() runs h*x's rule before that of y, which uses h*x: h*x "
    "passes its gradient on before all of it has arrived. Seed y.grad = 1.",
    "sorted_by_id": "d.backward() runs c's rule before that of d, which uses c: c passes its "
    "gradient on before all of it has arrived. Seed d.grad = 1.",
    "kahn_counts_once": "out.backward() runs h's rule before that of h*−1, which uses h: h "
    "passes its gradient on before all of it has arrived. Seed out.grad = 1.",
    "hash_by_value": "out.backward() never runs q's rule (7 nodes reach out): nothing is "
    "passed on from q. Seed out.grad = 1.",
    # Kahn's algorithm: a right order, but no depth-first sort's (c, b, 3, a): the words
    # say what makes it right, not how a depth-first sort would have found it.
    "kahn_assign_add": "c.backward() runs the rules of the 4 nodes that reach c, each after "
    "those of the nodes that use it. Seed c.grad = 1.",
    "kahn_right": "out.backward() runs the rules of the 7 nodes that reach out, each after "
    "those of the nodes that use it. Seed out.grad = 1.",
    # The frame named p1, the first of x's consumers in the depth-first order; the check
    # p2, the first made: both name p2 now (`engine_check.order_fault`).
    "bfs_no_count": "out.backward() runs x's rule before that of p2, which uses x: x passes "
    "its gradient on before all of it has arrived. Seed out.grad = 1.",
    "visited_by_data_id": "e.backward() never runs d's rule (5 nodes reach e): nothing is "
    "passed on from d. Seed e.grad = 1.",
    "seed_after_loop": "c.backward() runs the rules of the 4 nodes that reach c, each after "
    "those of the nodes that use it. c.grad is 0 when the first rule runs, not 1: a right "
    "engine seeds it with 1.",
    # Kahn's algorithm counted from the leaves: c's rule runs before d's, which uses c.
    "kahn_leaves_first": "d.backward() runs c's rule before that of d, which uses c: c passes "
    "its gradient on before all of it has arrived. Seed d.grad = 1.",
    # Kahn's algorithm, once per step of the loop.
    "zero_grad_before_step": "loss.backward() runs the rules of the 17 nodes that reach loss, "
    "each after those of the nodes that use it. Seed loss.grad = 1.",
    "build_topo_self_typo": "o.backward() never runs x1*w1's rule (10 nodes reach o): nothing "
    "is passed on from x1*w1. Seed o.grad = 1.",
    "loop_calls_output_rule": "y.backward() runs y's rule 14 times: each run passes y's whole "
    "gradient on again. Seed y.grad = 1.",
    # It said "runs x*w+b's rule before that of y, which uses x*w+b": y's never runs.
    "loop_skips_output_rule": "y.backward() never runs y's rule (6 nodes reach y): nothing is "
    "passed on from y. Seed y.grad = 1.",
    # A free function, `backward(y)`: so its words call it (they said "y.backward()").
    "tape_forward_order": "backward(y) runs x*w's rule before that of h, which uses x*w: x*w "
    "passes its gradient on before all of it has arrived. Seed y.grad = 1.",
    "stack_shared_twice": "s.backward() runs p's rule before that of q, which uses p: p passes "
    "its gradient on before all of it has arrived. Seed s.grad = 1.",
    "mutable_default_children": "f.backward() runs a's rule, and a is among its own operands "
    "(its _prev): the graph has a loop, and no order runs every rule after those of the "
    "nodes that use its node (one list of operands shared by several nodes, as a default "
    "`[]` is?). Seed f.grad = 1.",
    # Newest first by a counter of its own: a right order, no depth-first sort's.
    "sorted_by_creation": "y.backward() runs the rules of the 9 nodes that reach y, each after "
    "those of the nodes that use it. Seed y.grad = 1.",
}
# backward()s that write every gradient themselves: no frame per rule.
NO_RULE = "y.backward() calls no node's rule: it writes the gradients itself, so there is no "
NO_RULE += "step per node to show. Its writes, seed included, are this frame: 9 gradients change."
TORCH = NO_RULE.replace("y.backward", "o.backward").replace("9 gradients", "4 gradients")
TORCH += " x1's gradient ends {}, where a right engine's is {}: these writes are not the chain "
TORCH += "rule's sum, over each path from o down to a node, of the product of the local "
TORCH += "derivatives along it."
NO_RULE_TEXTS = {
    "recursive_path_sum": NO_RULE,
    "recursive_pairs_path_sum": "d.backward() calls no node's rule: it writes the gradients "
    "itself, so there is no step per node to show. Its writes, seed included, are this frame: "
    "4 gradients change.",
    "torch_layout_grads_assign": [
        TORCH.format("−0.2567", "0.1711"),
        TORCH.format("−0.4696", "0.02878"),
    ],
    # It said the first sentence alone, and the check "right": x ends 9.502, not 0.2954.
    "path_sum_sub_sign": NO_RULE.replace("y.backward", "loss.backward").replace("9 g", "11 g")
    + " t's gradient ends 0.9232, where a right engine's is −0.9232: these writes are not the "
    "chain rule's sum, over each path from loss down to a node, of the product of the local "
    "derivatives along it. The first share that parts: err handed t 1 times the gradient it "
    "got, where the chain rule's local derivative is −1.",
    "path_sum_assign": NO_RULE.replace("y.backward", "z.backward").replace("9 g", "5 g")
    + " x's gradient ends 2, where a right engine's is 1: these writes are not the chain "
    "rule's sum, over each path from z down to a node, of the product of the local "
    "derivatives along it. The first share that parts: mul(x, x)'s share to x was written "
    "over the −3 its gradient held (=, where += keeps it).",
    "recursive_passes_total": NO_RULE + " x*w+b's gradient ends −1.601, where a right "
    "engine's is −0.4499: these writes are not the chain rule's sum, over each path from y "
    "down to a node, of the product of the local derivatives along it.",
}
# Programs whose backward() runs more than once, each pass with the same words.
SORT_PASSES = {"zero_grad_before_step": 3}
# A list of rules nothing clears: the second pass's words say the first's rules run too.
STALE_SORT_TEXTS = {
    "tape_never_cleared": "backward(loss) runs the rules of the 6 nodes that reach loss, each "
    "after those of the nodes that use it. Seed loss.grad = 1. It also runs the rules of 3 "
    "nodes of pass 1's graph (pass 1's loss first), which pass 2's loss does not reach: left "
    "over (the list of rules backward() runs was not cleared), they are no part of this pass, "
    "and a right engine does not run them. Each frame below is one rule, in the order it runs.",
    "topo_default_list": "loss.backward() runs the rules of the 6 nodes that reach loss, each "
    "after those of the nodes that use it. Seed loss.grad = 1. It also runs the rules of 3 "
    "nodes of pass 1's graph (pass 1's loss first), which pass 2's loss does not reach: left "
    "over (the list of rules backward() runs was not cleared), they are no part of this pass, "
    "and a right engine does not run them. Each frame below is one rule, in the order it runs.",
}


@pytest.mark.parametrize("program", sorted(CHECKS))
def test_the_sort_frame_says_what_the_learners_backward_did(program: str) -> None:
    trace = trace_source((PROGRAMS / f"{program}.py").read_text())
    texts = [frame["text"] for frame in trace["frames"] if frame["phase"] == "sort"]
    if program in SORT_TEXTS:
        assert texts == [
            SORT_TEXTS[program] + " Each frame below is one rule, in the order it runs."
        ] * SORT_PASSES.get(program, 1)
    elif program in NO_RULE_TEXTS:
        said = NO_RULE_TEXTS[program]
        assert texts == (said if isinstance(said, list) else [said])
    elif program == "backward_twice":
        assert texts[0].startswith("Depth-first sort: 4 nodes, each after its children.")
        assert texts[1] == (
            "z.backward() runs the rules of the 4 nodes that reach z, each after those of the "
            "nodes that use it. z.grad is 2 when the first rule runs, not 1: a right engine "
            "seeds it with 1. Each frame below is one rule, in the order it runs."
        )
    elif program == "recursive_no_sort":
        assert texts[0].startswith("No sort here: u.backprop() walks down from u")
    elif program == "rules_run_in_sort":  # rules run inside the sort's recursion
        assert texts[0].startswith("No sort here: y.backward() walks down from y")
    elif program in STALE_SORT_TEXTS:
        assert texts[0].startswith("Depth-first sort: 6 nodes, each after its children.")
        assert texts[1:] == [STALE_SORT_TEXTS[program]]
    else:  # a depth-first sort's order (iterative_dfs's too), seeded with 1: the usual words
        assert all(text.startswith("Depth-first sort: ") for text in texts), texts
        # The seed as the learner's class names its gradient (underscore_grad: `_grad`).
        grad = "_grad" if program == "underscore_grad" else "grad"
        ending = f".{grad} = 1, then walk the order backwards."
        assert all(text.endswith(ending) for text in texts), texts


@pytest.mark.parametrize("program", sorted(CHECKS))
def test_the_sort_frame_names_what_the_checks_sort_row_names(program: str) -> None:
    # One rule (`engine_check.order_fault`) for both: where several consumers wait, the
    # frame named the first in the depth-first order, the check the first made.
    trace = trace_source((PROGRAMS / f"{program}.py").read_text())
    first = trace["engine_check"]["sort"]["first"]
    sorts = {f["pass"]: f["text"] for f in trace["frames"] if f["phase"] == "sort"}
    if first is None:
        assert not any("before that of" in text or "never runs" in text for text in sorts.values())
        return
    text = sorts[trace["frames"][first["frame"]]["pass"]]
    if text.startswith("No sort here:"):
        return  # a walk with no sort (recursive_no_sort): its own words
    name = {node["id"]: node["name"] for node in trace["nodes"]}
    node = name[first["node"]]
    if first["consumer"] == first["node"]:  # a node among its own operands: a loop
        assert f"runs {node}'s rule, and {node} is among its own operands (its _prev)" in text
    elif first["consumer"] is not None:
        consumer = name[first["consumer"]]
        assert f"runs {node}'s rule before that of {consumer}, which uses {node}:" in text
    elif "calls no node's rule" in text:  # judged whole, by a node's gradient at the end
        assert f" {node}'s gradient ends " in text
    elif "pass" in first:  # a rule of an earlier pass's node, run again (a tape not cleared)
        made = first["pass"] + 1
        assert f"of pass {made}'s graph (pass {made}'s {node} first)" in text
    else:
        again = re.search(f"runs {node}'s rule \\d+ times", text)
        assert f"never runs {node}'s rule" in text or again


def test_a_rule_that_forgets_the_upstream_gradient_is_said_so() -> None:
    # mul_no_upstream: `self.grad += other.data`. Its local derivative is right (−1.5);
    # the text said "The right local derivative for x is −1.5, not −1.588", a factor the
    # code never wrote.
    trace = trace_source((PROGRAMS / "mul_no_upstream.py").read_text())
    text = next(t for t in _backward_texts(trace) if t.startswith("x*y (*, grad 0.9447)"))
    assert text.endswith(
        "x.grad got −1.5, the right local derivative alone: not multiplied by the upstream "
        "gradient 0.9447 (the right share is −1.417). y.grad got 0.5, the right local "
        "derivative alone: not multiplied by the upstream gradient 0.9447 (the right share "
        "is 0.4724)."
    )
    assert "not −1.588" not in text


def test_a_node_merged_away_is_shown_with_what_it_was_made_of() -> None:
    # hash_merges_operands: `x * y` keeps x alone in its _prev, but its rule writes
    # y.grad; y = a + b was never reached by a pass, and its operands were in no table:
    # the trace failed ("this operation failed: Value(data=0.0, grad=0.0) (KeyError)")
    # where CPython ran.
    trace = trace_source((PROGRAMS / "hash_merges_operands.py").read_text())
    by_label = {node["label"]: node for node in trace["nodes"]}
    a, b, y = by_label["a"], by_label["b"], by_label["y"]
    assert {(e["source"], e["target"]) for e in trace["edges"] if e["target"] == y["id"]} == {
        (a["id"], y["id"]),
        (b["id"], y["id"]),
    }
    assert (a["grad"], b["grad"], y["grad"]) == (0.0, 0.0, 2.0)  # y's rule never ran
    # Named as the program wrote it: `x*y`, not `*(x)` of the one operand its set kept.
    text = next(t for t in _backward_texts(trace) if t.startswith("x*y (*, grad 1)"))
    assert "y is not among x*y's operands (its _prev): the op made a set of x and y" in text
    build = next(f["text"] for f in trace["frames"] if f["phase"] == "build")
    assert build == "x*y = 2 × 2 = 4"
    trace_columns((PROGRAMS / "hash_merges_operands.py").read_text())  # the page's form too


def test_shares_a_rule_returns_and_the_loop_adds_are_one_run_of_that_rule() -> None:
    # rules_return_grads: `for child, g in zip(v._prev, v.grad_fn(v.grad)): child.grad
    # += g`. The call of grad_fn was one run of v's rule (writing nothing) and the loop's
    # `+=` another: the sort was "wrong" (each rule "runs 2 times"), `+` "wrong" with a
    # factor of 0, and `*` named at its empty frame with a factor of 0, not the 3 (a's
    # own data) its function really hands a.
    trace = trace_source((PROGRAMS / "rules_return_grads.py").read_text())
    frames = trace["frames"]
    runs = [(i, f["node"]) for i, f in enumerate(frames) if f["phase"] == "backward"]
    assert runs == [(3, "n3"), (4, "n3"), (5, "n2"), (6, "n2")]
    assert frames[3]["contributions"] == [] and frames[5]["contributions"] == []
    # Its words: the call of grad_fn wrote nothing, it returned the shares (it said "its
    # rule ran and wrote no gradient"), and the loop's line is the loop's, not the rule's
    # (it said "its rule on line 34 goes on", line 34 being `child.grad += g`).
    assert frames[5]["text"] == (
        "a*b (*, grad 1): its rule on line 18 returns a share of (a*b).grad for each operand "
        "and writes none itself; backward()'s loop adds them."
    )
    # Its swapped factors are named there, as a whole rule's frame names them (its words
    # said nothing of them: the row alone did).
    assert frames[6]["text"] == (
        "a*b (*, grad 1): the loop on line 34 adds the shares its rule returned. a.grad += 3 "
        "→ 3; b.grad += −2; 2nd +=, sum 1 + −2 = −1. The right local derivative for a is −2, "
        "not 3. The right local derivative for b is 3, not −2."
    )
    assert [c["line"] for c in frames[6]["contributions"]] == [34, 34]
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert rows["*"]["first"] == {
        "frame": 6, "node": "n2", "child": "n0", "learner": 3.0, "correct": -2.0
    }  # fmt: skip


def test_a_rule_that_runs_again_says_which_run_it_is() -> None:
    # sort_without_visited lists h three times; its 2nd and 3rd runs read as the 1st.
    trace = trace_source((PROGRAMS / "sort_without_visited.py").read_text())
    texts = [t for t in _backward_texts(trace) if t.startswith("h (*")]
    assert [t.endswith("run of h's rule in this pass.") for t in texts] == [False, True, True]
    assert texts[1].endswith("= 42. This is the 2nd run of h's rule in this pass.")
    assert texts[2].endswith("= 81. This is the 3rd run of h's rule in this pass.")
    # A walk with no sort reaches s twice (from u and from t): the second says so.
    trace = trace_source((PROGRAMS / "recursive_no_sort.py").read_text())
    texts = [t for t in _backward_texts(trace) if t.startswith("s (*")]
    assert len(texts) == 2 and "2nd run" not in texts[0]
    assert texts[1].endswith("This is the 2nd run of s's rule in this pass.")


def test_a_rule_that_adds_to_its_own_gradient_is_not_said_to_have_lost_a_merged_node() -> None:
    # typo_out_for_other: `out.grad += out.grad` for `other.grad += out.grad`; the text
    # said "c is not among c's operands (its _prev): the graph has lost it (a set merged
    # it with an equal node?)".
    trace = trace_source((PROGRAMS / "typo_out_for_other.py").read_text())
    assert _backward_texts(trace)[0] == (
        "c (+, grad 1): its own rule ran. (a*b).grad += 1 × 1 → 1; c.grad += 1 × 1; it held 1 "
        "already, sum 1 + 1 = 2. The right local derivative for b is 1, not 0. c is this "
        "rule's own node, not one of its operands: the rule changes the gradient it was given."
    )


def test_an_assignment_that_keeps_the_old_gradient_is_said_as_a_sum() -> None:
    # `g = self.grad + …; self.grad = g` is recorded as an `=` that keeps what was there.
    # The check called it an accumulation, the text "a.grad = 3.226: the 1 already there
    # is lost. The right local derivative for a is 2.226, not 3.226."
    trace = trace_source((PROGRAMS / "grad_through_temporary.py").read_text())
    texts = _backward_texts(trace)
    assert texts[1] == (
        "e*a (*, grad 1): its own rule ran. e.grad = 0.4; a.grad = 1 + 2.226 → 3.226."
    )
    assert texts[3] == (
        "a*b (*, grad 0.32): its own rule ran. a.grad = 3.226 + 0.64 → 3.866; b.grad = 0.128."
    )
    # `self._grad += …` with no property is the `+=` it is (it was recorded as an `=`,
    # said as a sum), in the learner's words: `._grad`, not `.grad`.
    trace = trace_source((PROGRAMS / "underscore_grad.py").read_text())
    texts = _backward_texts(trace)
    assert not any("lost" in text for text in texts)
    assert texts[1] == (
        "h*x (*, grad 1): multiply by the other factor. h._grad += 0.5 × 1; 2nd +=, sum 1 + "
        "0.5 = 1.5; x._grad += −0.6351 × 1 → −0.6351."
    )
    notebook = ROOT / "tests" / "engine" / "public_code" / "ea0011_autodiff_micrograd_notebook.py"
    trace = trace_source(notebook.read_text())
    assert trace["frames"][43]["text"] == (
        "x1 * w1 + x2 * w2 + b *  (*, grad 0.8536): multiply by the other factor. (x1 * w1 + "
        "x2 * w2 + b)._grad += 2 × 0.8536; 2nd +=, sum −1.207 + 1.707 = 0.5; (2)._grad += "
        "0.8814 × 0.8536 → 0.7523."
    )
    assert trace["engine_check"]["accumulation"]["verdict"] == "right"
    # An `=` that does lose the gradient there is still said so.
    trace = trace_source((PROGRAMS / "square_assign.py").read_text())
    assert _backward_texts(trace)[2].endswith("a.grad = 3 × 1: the 3 already there is lost.")


def test_one_rule_judges_an_order_over_values_and_over_trace_ids() -> None:
    # bfs_no_count's graph: x waits for p1 and p2, p2 made first. The sort frame's words
    # (over Values) named p1, the first of them in the depth-first order; the check's
    # row (over ids) p2.
    from backprop_animator.engine.lab.engine_check import order_fault
    from backprop_animator.engine.value import Value, topological_order

    w, four, three, two = Value(0.5), Value(4.0), Value(3.0), Value(2.0)
    x = w * four
    p2 = x * three
    p1 = x * two
    total = p1 + p2
    out = x + total
    reachable = topological_order(out)
    assert reachable.index(p1) < reachable.index(p2)
    order = [out, x, total, w, four, p1, p2, two, three]
    by_value = order_fault(
        order, reachable, lambda v: v._prev, lambda v: bool(v._prev), out, lambda v: v._seq
    )
    assert by_value == (1, x, p2, 1)
    ids = {node: f"n{i}" for i, node in enumerate(sorted(reachable, key=lambda v: v._seq))}
    children = {ids[v]: [ids[c] for c in v._prev] for v in reachable}
    by_id = order_fault(
        [ids[v] for v in order],
        set(children),
        children.__getitem__,
        lambda i: bool(children[i]),
        ids[out],
        lambda i: int(i[1:]),
    )
    assert by_id == (1, ids[x], ids[p2], 1)
    # Run again, or never: the same answers over both.
    twice = [out, total, p1, p2, x, x, w, four, two, three]
    assert order_fault(twice, reachable, lambda v: v._prev, lambda v: bool(v._prev), out, id) == (
        5, x, None, 2
    )  # fmt: skip
    never = [out, total, p2, p1, w, four, two, three]
    assert order_fault(never, reachable, lambda v: v._prev, lambda v: bool(v._prev), out, id) == (
        None, x, None, 0
    )  # fmt: skip
    # The output's rule never run (`reversed(topo[:-1])`): total and x wait for nothing
    # that comes; out is named (it was (0, total, out, 1): total "before that of out").
    skipped = [total, p1, p2, x, w, four, two, three]
    assert order_fault(skipped, reachable, lambda v: v._prev, lambda v: bool(v._prev), out, id) == (
        None, out, None, 0
    )  # fmt: skip


def test_a_right_order_that_no_depth_first_sort_gives_is_not_called_depth_first() -> None:
    # Kahn's algorithm over a deque (collections_sort in real_code): e, d, c, a, b, where
    # the recursive build_topo walked backwards gives e, d, c, b, a. The frame said
    # "Depth-first sort: 5 nodes, each after its children."; the check's row was right.
    source = (ROOT / "tests" / "engine" / "real_code" / "collections_sort.py").read_text()
    trace = trace_source(source)
    sort = next(frame for frame in trace["frames"] if frame["phase"] == "sort")
    assert sort["text"] == (
        "e.backward() runs the rules of the 5 nodes that reach e, each after those of the "
        "nodes that use it. Seed e.grad = 1. Each frame below is one rule, in the order it "
        "runs."
    )
    assert trace["engine_check"]["sort"] == {"verdict": "right", "first": None}
    # The page's form too: the words travel as text, not as the sort's template.
    trace_columns(source)


NO_OP_KEPT = """
class V:
    def __init__(self, data, prev=()):
        self.data = data
        self.grad = 0.0
        self.prev = prev
        self._backward = lambda: None

    def __sub__(self, other):
        out = V(self.data - other.data, (self, other))

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __neg__(self):
        out = V(-self.data, (self,))

        def _backward():
            self.grad += -out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()

        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v.prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


a, b = V(3.0), V(1.0)
y = -(a - b)
y.backward()
print(a.grad, b.grad)
"""


def test_ops_a_class_keeps_no_name_for_are_named_by_the_method_that_made_them() -> None:
    # A class with no `_op`: `__sub__`, `__neg__` and `__truediv__` made nodes with no op
    # (`""`, "unchecked"), where `__add__` and `__mul__` made `+` and `*`; and an op kept
    # as an object of a class per op (`Sigmoid()`) was no op either.
    trace = trace_source(NO_OP_KEPT)
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert rows["neg"]["verdict"] == "right"
    assert rows["-"]["verdict"] == "wrong"
    assert rows["-"]["first"]["learner"] == 1.0
    assert math.isclose(rows["-"]["first"]["correct"], -1.0, rel_tol=1e-6)  # numeric
    assert printed_lines(trace) == run_in_cpython(NO_OP_KEPT)[0]
    # A class per op: its ops' right rules are said as ours are ("a rule of its own
    # engine; its effect on each child was measured" of `Add` and `Mul`).
    trace = trace_source((PROGRAMS / "sigmoid_s_times_s.py").read_text())
    texts = _backward_texts(trace)
    assert texts[1].startswith("Add(Mul(x, w), b) (Add, grad 0.1811): pass the gradient on")
    assert texts[2].startswith("Mul(x, w) (Mul, grad 0.1811): multiply by the other factor.")


def test_a_rule_that_multiplies_by_the_operands_own_gradient_is_said_so() -> None:
    # exp_times_own_grad: `self.grad += out.data * self.grad`. The text said "The right
    # local derivative for z is 0.6065, not 0.4044": 1.213 / 3, a factor the code never
    # wrote; it wrote e^z times z's own gradient, 2.
    trace = trace_source((PROGRAMS / "exp_times_own_grad.py").read_text())
    text = next(t for t in _backward_texts(trace) if t.startswith("exp(z) (exp, grad 3)"))
    assert text.endswith(
        "z.grad got 1.213, the right local derivative 0.6065 times z's own gradient 2: not "
        "times the upstream gradient 3 (the right share is 1.82)."
    )
    assert "not 0.4044" not in text


def test_at_a_kink_the_learners_subgradient_is_right() -> None:
    # relu_ge_at_zero: micrograd's Neuron with a bias of Value(0) fed [0, 0]: relu's input
    # is exactly 0, where `self.data >= 0` gives 1 and micrograd 0. Both are right (any
    # number from 0 to 1): the right engine takes the learner's, so that no node's
    # gradient parts from the right engine's, in any of the three steps.
    trace = trace_source((PROGRAMS / "relu_ge_at_zero.py").read_text())
    for node in trace["nodes"]:
        assert math.isclose(node["correct_grad"], node["grad"], rel_tol=1e-12, abs_tol=1e-15)
    texts = [text for text in _backward_texts(trace) if "exactly 0" in text]
    assert len(texts) == 3  # both hidden relus of [0, 0] in the first step, one after
    assert texts[0].endswith(
        "is exactly 0, where ReLU has no derivative: any local derivative from 0 to 1 is "
        "right there (a subgradient), and the right engine takes this rule's 1."
    )
    assert not any("right local derivative" in text for text in _backward_texts(trace))
    # relu_at_zero_wrong: 2 at exactly 0 is no subgradient; the words give the range.
    trace = trace_source((PROGRAMS / "relu_at_zero_wrong.py").read_text())
    h = next(text for text in _backward_texts(trace) if text.startswith("h (ReLU"))
    assert h.endswith(
        "w*2+b is exactly 0, where ReLU has no derivative: a right local derivative there "
        "is any number from 0 to 1, not 2."
    )


def test_a_tapes_rules_are_its_nodes_rules_where_they_are_written() -> None:
    # tape_mul_no_upstream: each op appends (out, run) to a tape and backward() calls
    # them. `self.grad += other.data` has no `out.grad` to say whose rule it is: it was
    # an update between rules, and the check named `*` at p*x's frame, where its share
    # (2 × 1) was right, with a factor of 0. The rows had no line, and the page said
    # "(the built-in engine)" of the learner's own rules.
    trace = trace_source((PROGRAMS / "tape_mul_no_upstream.py").read_text())
    assert [f["phase"] for f in trace["frames"]].count("update") == 0
    rows = {row["op"]: row for row in trace["engine_check"]["rules"]}
    assert {op: row["line"] for op, row in rows.items()} == {"*": 36, "+": 18, "log": 45, "-": 27}
    assert rows["*"]["first"] == {
        "frame": 7, "node": "n5", "child": "n2", "learner": -2.0, "correct": 2.0
    }  # fmt: skip
    assert trace["frames"][7]["text"] == (
        "p*x (*, grad −1): its own rule ran. p.grad += 2 → 2; x.grad += 1 × −1 → −1. "
        "p.grad got 2, the right local derivative alone: not multiplied by the upstream "
        "gradient −1 (the right share is −2)."
    )


@pytest.mark.parametrize(
    "program", ["tape_right", "tape_never_cleared", "tape_log_wrong", "tape_cleared_training"]
)
def test_a_tapes_nodes_are_named_by_their_operands_not_by_their_place_on_the_tape(
    program: str,
) -> None:
    # Each op appends `(out, run)` to a global tape: its nodes were named by that place
    # (`loss = TAPE[2][0]-TAPE[3][0]`), and a pass-1 node left on it by its expression
    # in pass 2's frames. A tuple holding a rule is a tape's entry, not a place the
    # program keeps a node to use: they are named as the program wrote them.
    trace = trace_source((PROGRAMS / f"{program}.py").read_text())
    texts = [frame["text"] for frame in trace["frames"]]
    assert not any("TAPE" in text for text in texts)
    assert not any("TAPE" in node["name"] for node in trace["nodes"])
    if program == "tape_right":
        assert texts[4] == "loss = log(p+x)-p*x = 1.099 − 2 = −0.9014"


def test_ops_named_as_methods_are_those_ops_and_a_value_exponent_reads_as_written() -> None:
    # named_methods_pow: `x.pow(k).mul(w).add(x)` in a class that keeps no op. The nodes
    # had op "" (one row, "unchecked"); with pow's op `**` of a Value exponent, the
    # frames said `**(x, k) = **(1.5, 3)`.
    trace = trace_source((PROGRAMS / "named_methods_pow.py").read_text())
    assert [n["op"] for n in trace["nodes"] if n["kind"] == "op"] == ["**", "*", "+"]
    builds = [frame["text"] for frame in trace["frames"] if frame["phase"] == "build"]
    assert builds == [
        "x**k = 1.5**3 = 3.375",
        "x**k*w = 3.375 × −0.4 = −1.35",
        "y = x**k*w+x = −1.35 + 1.5 = 0.15",
    ]
    trace_columns((PROGRAMS / "named_methods_pow.py").read_text())  # the page's replay too


def test_rules_a_tape_keeps_from_an_earlier_pass_are_named_as_extra_writes() -> None:
    # tape_never_cleared: the second backward() runs the first step's rules after its own,
    # their nodes holding the first step's gradients: w.grad ends 28 (CPython's too) where
    # a right engine has 4. Each of those rules is right for its node, and the check said
    # all right, the frames nothing of it.
    source = (PROGRAMS / "tape_never_cleared.py").read_text()
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)[0] == ["0 4.0 8.0 4.0", "1 1.0 28.0 10.0"]
    check = trace["engine_check"]
    assert check["sort"] == {
        "verdict": "wrong",
        "first": {"frame": 15, "node": "n5", "consumer": None, "pass": 0, "line": 26},
    }
    assert [row["verdict"] for row in check["rules"]] == ["right", "right"]
    frames = trace["frames"]
    stale = [(i, f["node"]) for i, f in enumerate(frames) if "left over from pass 1" in f["text"]]
    assert stale == [(15, "n5"), (16, "n4"), (17, "n3")]  # pass 1's loss, y and w*x
    assert all(frames[i]["pass"] == 1 for i, _ in stale)
    assert frames[16]["text"] == (
        "y (+, grad 8): its own rule ran. (w*x).grad += 1 × 8; it held 4 already, sum 4 + 8 = 12; "
        "b.grad += 1 × 8; 2nd +=, "
        "sum 2 + 8 = 10. This y is pass 1's node, which pass 2's loss does not reach: its rule "
        "is left over from pass 1 (the list of rules backward() runs was not cleared). A right "
        "engine does not run it here: what it adds is extra."
    )
    by_label = {n["label"]: n for n in trace["nodes"] if n["kind"] == "leaf"}
    assert (by_label["w"]["grad"], by_label["w"]["correct_grad"]) == (28.0, 4.0)
    # The page's form carries the same words (no frame of these is left to the page).
    columns = trace_columns(source)
    assert "left over from pass 1" in json.dumps(columns)


def test_a_rule_of_a_node_first_run_unreached_then_reached_is_left_over_later() -> None:
    # On the tape before the first pass, `p` is no pass's yet: its rule runs in pass 1
    # (no fault, the loss does not reach it), then pass 2's output is p itself, then
    # pass 3 reaches neither: p's rule, first in pass 3's order, is pass 2's, left over.
    # The check named it; the frames named only loss0 (the recorder took p for a node
    # of no pass, having drawn it with pass 1's rules).
    source = (PROGRAMS / "tape_never_cleared.py").read_text()
    program = source[: source.index("w = Value(0.5)")] + (
        "w = Value(0.5)\nb = Value(1.0)\nx = Value(2.0)\nloss0 = w * b\np = loss0 * x\n"
        "backward(loss0)\nprint(w.grad, b.grad, x.grad)\nbackward(p)\n"
        "print(w.grad, b.grad, x.grad)\nloss2 = w + x\nbackward(loss2)\n"
        "print(w.grad, b.grad, x.grad)\n"
    )
    trace = trace_source(program)
    assert printed_lines(trace) == run_in_cpython(program)[0]
    assert run_in_cpython(program)[0] == ["1.0 0.5 0.0", "4.0 2.0 0.5", "10.0 4.5 2.0"]
    frames = trace["frames"]
    ids = {n["id"]: n for n in trace["nodes"]}
    sort = trace["engine_check"]["sort"]
    assert sort["verdict"] == "wrong" and sort["first"]["pass"] == 1
    assert ids[sort["first"]["node"]]["name"] == "p"
    assert frames[sort["first"]["frame"]]["pass"] == 2
    # The frames say the same: p's run is named as pass 2's rule, left over, and first.
    left = [
        ids[f["node"]]["name"]
        for f in frames
        if f["phase"] == "backward" and f["pass"] == 2 and "left over" in f["text"]
    ]
    assert left == ["p", "loss0"]
    assert sort["first"]["frame"] == next(
        i
        for i, f in enumerate(frames)
        if f["phase"] == "backward" and "left over from pass 2" in f["text"]
    )
    sorts = [f["text"] for f in frames if f["phase"] == "sort"]
    assert "pass 2's p first" in sorts[2]


def test_a_tape_cleared_each_pass_is_right_with_a_rule_no_loss_reaches() -> None:
    # tape_cleared_training: the same tape, cleared by backward(); `twice = y + y` is on
    # the tape but not in the loss (its rule passes on 0): nothing is named, nothing left
    # over, each leaf's gradient the right engine's.
    source = (PROGRAMS / "tape_cleared_training.py").read_text()
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)[0]
    check = trace["engine_check"]
    assert check["sort"] == {"verdict": "right", "first": None}
    assert [row["verdict"] for row in check["rules"]] == ["right", "right"]
    assert not any("left over" in frame["text"] for frame in trace["frames"])
    for node in trace["nodes"]:
        if node["kind"] == "leaf":
            assert node["grad"] == node["correct_grad"], node
    # Not cleared, but backward() zeroes every node on the tape first: the first step's
    # rules run again and add nothing. The gradients are a right engine's, so the check
    # is right; the frames still say those rules are left over.
    source = (PROGRAMS / "tape_never_cleared.py").read_text()
    zeroing = "def backward(loss):\n    for out, _ in TAPE:\n        out.grad = 0.0\n"
    source = source.replace("def backward(loss):\n", zeroing)
    assert zeroing in source
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)[0] == ["0 4.0 8.0 4.0", "1 1.0 4.0 2.0"]
    assert trace["engine_check"]["sort"] == {"verdict": "right", "first": None}
    left = [f["text"] for f in trace["frames"] if "left over from pass 1" in f["text"]]
    assert len(left) == 3
    assert all(t.endswith("does not run it here; it adds nothing, its gradient 0.") for t in left)


def test_a_loop_on_one_line_that_adds_what_grad_fn_returns_is_said_as_that_loop() -> None:
    # grad_fn_one_line_loop: `for p, g in zip(node.parents, node.grad_fn(node.grad)):
    # p.grad += g` on one line. Each run of a rule is two frames, the call of grad_fn
    # (which writes nothing) and the loop's writes, whose line is the loop's own line, the
    # write's. They said "its rule ran and wrote no gradient." and "its rule on line 38
    # goes on.", line 38 being the loop's, not the rule's.
    source = (PROGRAMS / "grad_fn_one_line_loop.py").read_text()
    trace = trace_source(source)
    loop = (
        source.split("\n").index(
            "            for p, g in zip(node.parents, node.grad_fn(node.grad)): p.grad += g"
        )
        + 1
    )
    tanh = (
        source.split("\n").index("        return Value(t, (self,), lambda g: ((1 - t * t) * g,))")
        + 1
    )
    frames = [f for f in trace["frames"] if f["phase"] == "backward"]
    assert [c["line"] for f in frames for c in f["contributions"]] == [loop] * 5
    assert [f["text"] for f in frames[:2]] == [
        f"y (tanh, grad 1): its rule on line {tanh} returns a share of y.grad for each operand "
        "and writes none itself; backward()'s loop adds them.",
        f"y (tanh, grad 1): the loop on line {loop} adds the shares its rule returned. "
        "(x*w+b).grad += 0.7864 → 0.7864.",
    ]
    assert trace["passes"][0]["backward"]["call"] == loop
    rule = next(n["rule"] for n in trace["nodes"] if n["id"] == frames[0]["node"])
    assert rule == {"line": tanh, "end_line": tanh}  # the lambda grad_fn, not the loop


def _leaky(rule: str, data: float, slope: str = "0.01") -> dict[str, Any]:
    """The engine check's leaky relu row for `leaky_relu_slopes_swapped.py` with its rule
    and slope replaced and the first pre-activation (x·w1) made `data`."""
    source = (PROGRAMS / "leaky_relu_slopes_swapped.py").read_text()
    source = source.replace("(alpha if self.data > 0 else 1.0)", rule)
    source = source.replace("alpha=0.01", f"alpha={slope}")
    source = source.replace("w1, w2 = Value(0.5)", f"w1, w2 = Value({data / 2.0})")
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)[0]
    return next(row for row in trace["engine_check"]["rules"] if row["op"] == "leaky_relu")


def test_leaky_relu_is_judged_by_the_numeric_table_with_its_kink() -> None:
    # leaky_relu was an op neither table knew: "unchecked", whatever its rule did.
    assert _leaky("(1.0 if self.data > 0 else alpha)", 1.0)["verdict"] == "right"
    wrong = _leaky("(alpha if self.data > 0 else 1.0)", 1.0)
    assert wrong["verdict"] == "wrong"
    # x·w2's (−1.5) rule runs first: 1 where the slope is 0.01.
    assert (wrong["first"]["learner"], wrong["first"]["correct"]) == (1.0, pytest.approx(0.01))
    # At exactly 0 any slope in [0.01, 1] is a right subgradient; 2 is not.
    assert _leaky("(1.0 if self.data >= 0 else alpha)", 0.0)["verdict"] == "right"
    assert _leaky("(alpha if self.data <= 0 else 1.0)", 0.0)["verdict"] == "right"
    assert _leaky("(2.0 if self.data >= 0 else alpha)", 0.0)["verdict"] == "wrong"
    # Another slope than PyTorch's 0.01 does not reproduce the node's data for a negative
    # input (x·w2 = −1.5): no right rule to judge that use by, none claimed.
    other = _leaky("(1.0 if self.data > 0 else alpha)", 1.0, slope="0.2")
    assert other["verdict"] in ("right", "unchecked")
    assert other["first"] is None


ACTIVATION = """
import math
class V:
    def __init__(self, data, _prev=(), _op=''):
        self.data, self.grad, self._prev, self._op = data, 0.0, _prev, _op
        self._backward = lambda: None
    def act(self, op, f, d):
        out = V(f(self.data), (self,), op)
        def _backward():
            self.grad += d(self.data) * out.grad
        out._backward = _backward
        return out
    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for c in v._prev:
                    build(c)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()
x = V(X)
y = x.act(OP, F, D)
y.backward()
print(y.data, x.grad)
"""


def _activation_row(op: str, x: float, f: str, d: str) -> dict[str, Any]:
    source = ACTIVATION.replace("X", repr(x)).replace("OP", repr(op))
    source = source.replace("F, D", f"lambda x: {f}, lambda x: {d}")
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)[0]
    (row,) = trace["engine_check"]["rules"]
    return row


def test_activations_a_learner_adds_are_judged_by_the_numeric_table() -> None:
    # They were ops neither table knew: "unchecked", whatever their rules did.
    sig = "1 / (1 + math.exp(-x))"
    silu = f"x * {sig}"
    assert _activation_row("silu", 0.7, silu, f"{sig} * (1 + x * (1 - {sig}))")["verdict"] == (
        "right"
    )
    assert _activation_row("swish", 0.7, silu, sig)["verdict"] == "wrong"
    elu = "x if x > 0 else math.exp(x) - 1"
    assert _activation_row("elu", -0.5, elu, "1.0 if x > 0 else math.exp(x)")["verdict"] == "right"
    assert _activation_row("elu", -0.5, elu, "1.0 if x > 0 else 0.0")["verdict"] == "wrong"
    assert _activation_row("log2", 3.0, "math.log2(x)", "1 / x")["verdict"] == "wrong"
    right = "1 / (x * math.log(2))"
    assert _activation_row("log2", 3.0, "math.log2(x)", right)["verdict"] == "right"
    # A number's power written with its base: `3**` is 3 ** x.
    assert _activation_row("3**", 0.5, "3 ** x", "3 ** x * math.log(3)")["verdict"] == "right"
    assert _activation_row("3**", 0.5, "3 ** x", "x * 3 ** (x - 1)")["verdict"] == "wrong"
    # GELU by its tanh approximation does not reproduce the exact GELU's data: no right
    # rule to judge it by, none claimed; nor a base that is no positive number.
    approx = "0.5 * x * (1 + math.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))"
    assert _activation_row("gelu", 1.2, approx, "1.0")["verdict"] == "unchecked"
    exact = "0.5 * x * (1 + math.erf(x / math.sqrt(2)))"
    assert _activation_row("gelu", 1.2, exact, "1.0")["verdict"] == "wrong"
    assert _activation_row("-2**", 2.0, "-2 ** x", "1.0")["verdict"] == "unchecked"
    assert _activation_row("x**", 2.0, "2 ** x", "1.0")["verdict"] == "unchecked"


def test_an_exp_written_with_its_exponent_in_its_op_is_exp_where_it_reproduces_the_data() -> None:
    # `f'e^{self.data}'`: the op was "e^0.1", a row of its own, "unchecked", and x had
    # no right gradient below it.
    source = (PROGRAMS / "sigmoid_formula_at_output.py").read_text()
    trace = trace_source(source)
    assert {row["op"] for row in trace["engine_check"]["rules"]} >= {"exp"}
    # An op spelled so whose node is not e to its operand (2 ** x) has no right rule:
    # its op as written, a row of its own, unchecked (no exp's row).
    other = source.replace("Value(math.exp(self.data)", "Value(2 ** self.data")
    assert printed_lines(trace_source(other)) == run_in_cpython(other)[0]
    rows = {row["op"]: row for row in trace_source(other)["engine_check"]["rules"]}
    assert "exp" not in rows
    assert {row["verdict"] for op, row in rows.items() if op.startswith("e^")} == {"unchecked"}


def test_a_max_of_two_equal_operands_is_judged_nowhere() -> None:
    # At a tie any split of the gradient is right (max has no derivative there): the
    # rule that passes both their share is not called wrong, nor is one that picks one.
    source = (PROGRAMS / "max_both_operands.py").read_text().replace("Node(-0.5)", "Node(1.5)")
    assert printed_lines(trace_source(source)) == run_in_cpython(source)[0]
    rows = {row["op"]: row for row in trace_source(source)["engine_check"]["rules"]}
    assert rows["max"]["verdict"] == "unchecked"
    assert rows["max"]["first"] is None


EXP_OF_MINUS = """
import math
class Value:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), '*')
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def exp_minus(self):
        out = Value(math.exp(-self.data), (self,), f'e^{-self.data}')
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), (self,), f'e^{self.data}')
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

x, w = Value(0.7), Value(-1.3)
y = (x * w).exp_minus() * (x * w).exp()
y.backward()
print(x.grad, w.grad)
"""


def test_an_op_written_e_to_a_power_that_is_no_exp_of_its_operand_is_no_exp_row() -> None:
    # `f'e^{-self.data}'` is e to minus the operand: no exp of it, so no row of exp's.
    # It was grouped with the real exp (its rule at line 28, right) under "exp", whose row
    # then pointed at its rule (line 21, missing the minus sign) and said "right".
    trace = trace_source(EXP_OF_MINUS)
    assert printed_lines(trace) == run_in_cpython(EXP_OF_MINUS)[0]
    rows = trace["engine_check"]["rules"]
    exp = next(row for row in rows if row["op"] == "exp")
    assert (exp["line"], exp["verdict"]) == (28, "right")
    minus = [row for row in rows if row["op"].startswith("e^")]
    assert [(row["line"], row["verdict"]) for row in minus] == [(21, "unchecked")]


def test_an_exp_and_an_e_to_minus_with_the_same_op_text_are_in_their_own_rows() -> None:
    # e to minus -0.5 and e to 0.5 are both written `e^0.5`: the one that is no exp of its
    # operand made the row, and the real exp's right rule was judged in it, "right" at
    # the other's rule (line 21).
    source = EXP_OF_MINUS.replace("x, w = Value(0.7), Value(-1.3)", "x, w = Value(0.5), Value(1.0)")
    source = source.replace(
        "y = (x * w).exp_minus() * (x * w).exp()", "y = (x * Value(-1.0)).exp_minus() * x.exp()"
    )
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)[0]
    rows = {row["op"]: (row["line"], row["verdict"]) for row in trace["engine_check"]["rules"]}
    assert rows["exp"] == (28, "right")
    assert rows["e^0.5"] == (21, "unchecked")


def test_a_wrong_rows_line_is_the_rule_its_first_frame_ran() -> None:
    # `*` made by `__mul__` (its rule on line 25, right) and by an `__rmul__` written out
    # again (line 35, wrong): the row is `*`'s, the first node `w*x`'s, and it pointed at
    # line 25 while its first frame and its numbers were those of `3*w`'s rule.
    source = (PROGRAMS / "rmul_written_apart.py").read_text()
    lines = source.splitlines()
    trace = trace_source(source)
    nodes = {node["id"]: node for node in trace["nodes"]}
    mul = next(row for row in trace["engine_check"]["rules"] if row["op"] == "*")
    assert mul["verdict"] == "wrong"
    assert mul["line"] == nodes[mul["first"]["node"]]["rule"]["line"] == 35
    assert lines[mul["line"] - 1 : mul["line"] + 2] == [
        "        def _backward():",
        "            other.grad += self.data * out.grad",
        "            self.grad += self.data * out.grad",
    ]
    assert lines[mul["line"] - 5].strip() == "def __rmul__(self, other):"
    assert nodes["n2"]["rule"]["line"] == 25  # the first `*` node's, right
    # Where both rules are right the row keeps the first node's line.
    fixed = source.replace(
        "            self.grad += self.data * out.grad\n        out._backward = _backward\n"
        "        return out\n\n    def backward",
        "            self.grad += other.data * out.grad\n        out._backward = _backward\n"
        "        return out\n\n    def backward",
    )
    assert fixed != source
    rows = {row["op"]: row for row in trace_source(fixed)["engine_check"]["rules"]}
    assert (rows["*"]["line"], rows["*"]["verdict"]) == (25, "right")


def test_a_number_to_the_power_of_a_value_is_judged_where_its_op_reproduces_the_data() -> None:
    # A learner's `__rpow__` writes its op `f'{other}**'`: `2**` was a row no table had,
    # "unchecked". It is 2 to the power of the one operand, trusted where that gives the
    # node's data: the right rule (2^x · ln 2) is right, the power rule wrong
    # (rpow_power_rule); an op `2**` that made x ** 2 reproduces nothing and stays
    # unchecked.
    source = (PROGRAMS / "rpow_power_rule.py").read_text()
    wrong = "            self.grad += self.data * other ** (self.data - 1) * out.grad\n"
    assert wrong in source
    right = source.replace(
        wrong, "            self.grad += out.data * math.log(other) * out.grad\n"
    )
    rows = {row["op"]: row["verdict"] for row in trace_source(right)["engine_check"]["rules"]}
    assert rows == {"*": "right", "2**": "right", "**": "right", "+": "right"}
    squared = source.replace("Value(other ** self.data,", "Value(self.data ** other,")
    assert squared != source
    trace = trace_source(squared)
    assert printed_lines(trace) == run_in_cpython(squared)[0]
    rows = {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]}
    assert rows["2**"] == "unchecked"


# Right engines written in unusual ways (and a right engine in a program with a bug of
# its own outside the engine): the right engine gives every node the learner's gradient.
UNUSUAL_RIGHT = (
    "relu_out_data_gt",
    "sorted_by_creation",
    "visited_added_after_children",
    "sigmoid_from_tanh",
    "reflected_ops_via_others",
    "grad_property",
    "lr_step_plus",
    "graph_built_once_training",
    "rules_from_output",
    "topo_insert_front",
    "const_operands_not_nodes",
    "recursive_path_sum",
    "zero_inside_backward",
    "softmax_shift_by_max",
)
UNKNOWN_BELOW = {
    "graph_built_once_training": {"w", "b", "2", "w*2"},
}
BLAME = ("right local derivative", "lost", "not among", "before that of", "never runs", "wrong")


@pytest.mark.parametrize("program", UNUSUAL_RIGHT)
def test_a_right_engine_written_its_own_way_is_blamed_for_nothing(program: str) -> None:
    trace = trace_source((PROGRAMS / f"{program}.py").read_text())
    check = trace["engine_check"]
    # (no rule at all to judge: each row unchecked)
    verdict = "unchecked" if program == "recursive_path_sum" else "right"
    assert {row["verdict"] for row in check["rules"]} == {verdict}
    assert check["sort"]["verdict"] == check["accumulation"]["verdict"] == "right"
    unknown = set()
    for node in trace["nodes"]:
        if "correct_grad" not in node:
            unknown.add(node["name"])
            continue
        assert math.isclose(node["correct_grad"], node["grad"], rel_tol=1e-9, abs_tol=1e-12), node
    # The loss built once: after the first step w and b have new data, `*` and `+` no
    # longer reproduce w*2's and w*2+b's, and nothing says which rule is right for them:
    # no right gradient below them (none claimed), not a wrong one.
    # Numbers kept out of the graph: `x*w + 1` is a `+` of one operand (its local
    # derivative 1, whatever it added), `x * 3` one of out / x: right gradients below.
    assert unknown == UNKNOWN_BELOW.get(program, set())
    texts = [frame["text"] for frame in trace["frames"]]
    assert not [text for text in texts if any(word in text for word in BLAME)]


def test_a_rule_never_set_on_its_node_is_said_so_with_what_a_right_rule_writes() -> None:
    # sub_rule_never_attached: `__sub__` leaves out `out._backward = _backward`, so err
    # keeps __init__'s `lambda: None`. The frame said only "its rule ran and wrote no
    # gradient.", as if `-` had a rule of its own that passed nothing on.
    trace = trace_source((PROGRAMS / "sub_rule_never_attached.py").read_text())
    err = next(f for f in trace["frames"] if f["phase"] == "backward" and f["node"] == "n6")
    assert err["text"] == (
        "err (-, grad −1.5): its rule ran and wrote no gradient. err's rule is the one "
        "__init__ gives every node (line 7), a leaf's, which passes nothing on: no rule of "
        "its own was set on it. A right rule writes (w*x+b).grad += 1 × −1.5; y.grad += −1 × "
        "−1.5."
    )
    row = next(row for row in trace["engine_check"]["rules"] if row["op"] == "-")
    assert row["line"] == 7  # the rule that ran: __init__'s
    # The same bug in public code (`self.grad_fn = grad_fn` for `output.grad_fn`): GELU's
    # node keeps __init__'s rule.
    public = ROOT / "tests" / "engine" / "public_code" / "jgalego_tardigrad_test_value.py"
    texts = [frame["text"] for frame in trace_source(public.read_text())["frames"]]
    assert (
        texts.count(
            "GELU(0) (GELU, grad 1): its rule ran and wrote no gradient. GELU(0)'s rule is the "
            "one __init__ gives every node (line 26), a leaf's, which passes nothing on: no rule "
            "of its own was set on it (its op set it on 0 instead, on line 126: 0 runs it). A "
            "right rule writes (0).grad += 0.5 × 1."
        )
        == 1
    )
    # ... and the leaf its op set it on says whose rule it ran.
    assert (
        texts.count(
            "0 (grad 0): the rule that ran is GELU(0)'s, set on 0 on line 126 by the op that made "
            "GELU(0), not 0's own (a leaf's, which does nothing). (0).grad += 0.5 → 0.5."
        )
        == 1
    )
    # A rule of its op's own that writes nothing is not said to be __init__'s.
    source = (PROGRAMS / "sub_rule_never_attached.py").read_text()
    own = source.replace(
        "            other.grad -= out.grad\n        return out",
        "            other.grad -= out.grad\n        out._backward = lambda: None\n"
        "        return out",
    )
    assert own != source
    trace = trace_source(own)
    assert printed_lines(trace) == run_in_cpython(own)[0]
    err = next(f for f in trace["frames"] if f["phase"] == "backward" and f["node"] == "n6")
    assert err["text"] == "err (-, grad −1.5): its rule ran and wrote no gradient."
    # Nor is a `def` in `__init__` that is every op's rule, branching on `self._op`, with
    # no branch for `-` (review, 2026-12-06): it is the op's rule, which passed nothing.
    dispatch = (
        "class Value:\n    def __init__(self, data, _children=(), _op=''):\n"
        "        self.data = data\n        self.grad = 0.0\n        self._prev = set(_children)\n"
        "        self._op = _op\n        def _backward():\n            if self._op == '+':\n"
        "                for c in self._prev:\n                    c.grad += self.grad\n"
        "        self._backward = _backward\n"
        "    def __add__(self, o):\n        return Value(self.data + o.data, (self, o), '+')\n"
        "    def __sub__(self, o):\n        return Value(self.data - o.data, (self, o), '-')\n"
        "    def backward(self):\n        topo, seen = [], set()\n        def build(v):\n"
        "            if v not in seen:\n                seen.add(v)\n"
        "                for c in v._prev:\n                    build(c)\n"
        "                topo.append(v)\n        build(self)\n        self.grad = 1.0\n"
        "        for v in reversed(topo):\n            v._backward()\n"
        "a, c = Value(2.0), Value(1.0)\ny = (a - c) + a\ny.backward()\nprint(a.grad, c.grad)\n"
    )
    trace = trace_source(dispatch)
    assert printed_lines(trace) == run_in_cpython(dispatch)[0] == ["1.0 0.0"]
    texts = [frame["text"] for frame in trace["frames"] if frame["phase"] == "backward"]
    assert "a-c (-, grad 1): its rule ran and wrote no gradient." in texts
    assert not [text for text in texts if "__init__ gives" in text]


def test_a_rule_that_writes_a_loops_last_nodes_is_not_said_to_be_a_sets_merge() -> None:
    # neuron_inline_mul_late: each product's rule, made in the neuron's loop, reads `wi`,
    # `xi` and `prod` after the loop: w[1]*xs[1]'s writes w[2] and xs[2]. The text said of
    # each "the graph has lost it (a set merged it with an equal node?)"; its _prev is a
    # tuple, and no operand has the data of either.
    trace = trace_source((PROGRAMS / "neuron_inline_mul_late.py").read_text())
    text = next(t for t in _backward_texts(trace) if t.startswith("n.w[1]*xs[1] (*,"))
    assert "set merged" not in text
    assert text.endswith(
        "n.w[2] and xs[2] are not among n.w[1]*xs[1]'s operands (its _prev), though this "
        "rule writes their gradients: the rule reads a name that means another node now than "
        "when n.w[1]*xs[1] was made (a closure made in a loop, run after the loop has moved "
        "on?)."
    )
    # A class that hashes by value, whose set merged y into x (equal data): still said so,
    # as a fact, not a guess: the recorder saw the op's set keep one of the two it was given.
    trace = trace_source((PROGRAMS / "hash_merges_operands.py").read_text())
    assert any(
        "y is not among x*y's operands (its _prev): the op made a set of x and y, which kept "
        "x alone, for the class's __eq__ and __hash__ make y equal to x (both 2): the graph "
        "has lost y, though this rule still writes its gradient." in text
        for text in _backward_texts(trace)
    )
    assert not any("?" in text for text in _backward_texts(trace))


def test_a_backward_that_writes_every_gradient_itself_is_judged_by_what_it_wrote() -> None:
    # recursive_passes_total: no rule runs, so no row and no order could say anything,
    # and the check said all right while x ended 9.502 (right: 0.2954). The pass is
    # judged whole: the node nearest y whose written gradient parts is named.
    trace = trace_source((PROGRAMS / "recursive_passes_total.py").read_text())
    nodes = {node["id"]: node for node in trace["nodes"]}
    first = trace["engine_check"]["sort"]["first"]
    assert (nodes[first["node"]]["name"], trace["frames"][first["frame"]]["phase"]) == (
        "x*w+b",
        "sort",
    )
    # A walk that hands each operand the share that just arrived is right, in its second
    # pass too, where the nodes keep the first pass's gradients that a right engine
    # would pass on again (its correct_grad): what the pass added is the derivative.
    real = ROOT / "tests" / "engine" / "real_code"
    trace = trace_source((real / "recursive_backward.py").read_text())
    assert trace["engine_check"]["sort"] == {"verdict": "right", "first": None}
    x = next(node for node in trace["nodes"] if node["name"] == "x")
    assert (x["grad"], x["correct_grad"]) == (4.0, 6.0)
    # Laid out as PyTorch's: only the leaves' gradients written, the others' kept in a
    # table of its own (the output's stays None): not judged by those it never wrote.
    trace = trace_source((real / "next_functions_engine.py").read_text())
    assert trace["engine_check"]["sort"] == {"verdict": "right", "first": None}


def _zeroing_all(name: str, extra: str, before: str) -> str:
    """A learner engine of the directory whose `backward()` first zeroes every gradient in
    `ALL`, nodes the output does not reach among them (review, 2026-12-06)."""
    source = (PROGRAMS / f"{name}.py").read_text()
    source = source.replace(
        "    def backward(self, upstream=1.0):\n",
        "    def backward(self, upstream=1.0, top=True):\n        if top:\n"
        "            for n in ALL:\n                n.grad = 0.0\n",
    )
    source = re.sub(r"child\.backward\((.*)\)\n", r"child.backward(\1, False)\n", source)
    return source.replace("\ny.backward()", f"\n{extra}\n{before}y.backward()")


@pytest.mark.parametrize(
    ("name", "extra", "verdict"),
    [
        # right: zeroing a parameter the output does not reach is no fault
        ("recursive_path_sum", "u = Value(4.0)\nALL = [x, w, b, u]\n(u * w).backward()", "right"),
        # wrong (passes the total down), with nodes it does not reach: no engine failure
        (
            "recursive_passes_total",
            "old = Value(9.0)\nold2 = old * old\nALL = [old, old2, x, w, b]",
            "wrong",
        ),
    ],
)
def test_a_whole_pass_judged_on_the_nodes_it_reaches(name: str, extra: str, verdict: str) -> None:
    source = _zeroing_all(name, extra, "")
    assert "ALL" in source and "False)" in source
    trace = trace_source(source)
    printed, error = run_in_cpython(source)
    assert error is None
    assert_same_output(printed_lines(trace), printed)
    assert trace["engine_check"]["sort"]["verdict"] == verdict


@pytest.mark.parametrize(
    ("name", "op", "line", "kept_on"),
    [("rule_on_self", "*", 27, "n3"), ("rule_on_other", "+", 18, "n3")],
)
def test_a_rule_set_on_another_node_names_the_line_that_set_it(
    name: str, op: str, line: int, kept_on: str
) -> None:
    # The product's own run of `__init__`'s rule (passing nothing on) is the first frame
    # that shows the fault; the row names the line that hung the rule elsewhere
    # (`self._backward = _backward` in `__mul__`, `other._backward` in `__add__`), not
    # `__init__`'s `lambda: None`, and which node keeps it.
    source = (PROGRAMS / f"{name}.py").read_text()
    row = next(r for r in enginecheck_source(source)["rules"] if r["op"] == op)
    assert source.splitlines()[line - 1].strip().endswith("._backward = _backward")
    assert (row["verdict"], row["line"], row["first"]["kept_on"]) == ("wrong", line, kept_on)


@pytest.mark.parametrize(
    ("name", "lines"),
    [("rule_on_self", {"+": 15, "*": 27}), ("rule_on_other", {"*": None, "+": 18})],
)
def test_a_row_names_no_line_of_a_rule_its_op_did_not_write(
    name: str, lines: dict[str, int | None]
) -> None:
    # The sum s in `(a + b) * c` keeps the product's rule: the `+` row took its line from
    # s, the first sum made, and said "+ rule (line 24)", the product's `def _backward`.
    # A row's line is that of a node running its own op's rule; none ran one, none.
    source = (PROGRAMS / f"{name}.py").read_text()
    rows = trace_source(source)["engine_check"]["rules"]
    assert {row["op"]: row["line"] for row in rows} == lines


def test_a_row_whose_first_node_has_no_rule_line_takes_none_of_a_later_nodes() -> None:
    # fauxgrad's `diff` returns the shares and backward()'s loop adds them: no node has a
    # line of its own rule, and the rows took the loop's line 61 from a later node.
    source = (PROGRAMS.parent / "public_code" / "ksanjeevan_fauxgrad_test_value.py").read_text()
    rows = trace_source(source)["engine_check"]["rules"]
    assert [row["line"] for row in rows] == [None, None]


@pytest.mark.parametrize(
    ("name", "forward", "rows"),
    [
        # `y * c` hangs the product's rule on the sum y, whose gradient is no longer 0
        # when that rule runs: its writes (into y itself and c) were read as the sum's
        # rule giving `a` 0 where 1 is right, and `+`, a right method, was called wrong.
        ("rule_on_self", "y = a + b\nfor i in range(2):\n    y = y * c + a\n",
         {"+": "right", "*": "wrong"}),
        # `c + y * a` hangs the sum's rule on the product: `*`'s own rule never runs.
        ("rule_on_other", "y = c + a * b\nfor i in range(2):\n    y = c + y * a\n",
         {"*": "unchecked", "+": "wrong"}),
    ],
)  # fmt: skip
def test_a_node_keeping_another_nodes_rule_is_not_judged_by_its_own_op(
    name: str, forward: str, rows: dict[str, str]
) -> None:
    source = (PROGRAMS / f"{name}.py").read_text()
    head, _, tail = source.partition("a = Value(2.0)")
    lines = tail.splitlines()
    program = f"{head}a = Value(2.0)\nb = Value(-3.0)\nc = Value(0.5)\n{forward}"
    program += "y.backward()\nprint(a.grad, b.grad, c.grad)\n"
    assert lines[-2:] == ["y.backward()", "print(a.grad, b.grad, c.grad)"]
    trace = trace_source(program)
    assert {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]} == rows
    wrong = next(row for row in trace["engine_check"]["rules"] if row["verdict"] == "wrong")
    assert "kept_on" in wrong["first"]


@pytest.mark.parametrize(
    ("name", "holder", "maker", "line", "lost"),
    [
        ("rule_on_self", "s", "s*c", 27, "a and b get"),
        ("rule_on_other", "p", "y", 18, "a and b get"),
    ],
)
def test_a_rule_held_for_another_node_is_said_to_be_that_nodes(
    name: str, holder: str, maker: str, line: int, lost: str
) -> None:
    # The operand's frame said "its own rule ran" where it ran the rule another node's op
    # set on it; the node that lost its rule says where it went.
    source = (PROGRAMS / f"{name}.py").read_text()
    trace = trace_source(source)
    printed, error = run_in_cpython(source)
    assert error is None
    assert_same_output(printed_lines(trace), printed)
    texts = _backward_texts(trace)
    held = next(text for text in texts if text.startswith(f"{holder} ("))
    assert held.split(": ", 1)[1].startswith(
        f"the rule that ran is {maker}'s, set on {holder} on line {line} by the op that made "
        f"{maker}, not {holder}'s own (which never runs: {lost} nothing from it)."
    )
    assert "its own rule" not in held
    unset = next(text for text in texts if text.startswith(f"{maker} ("))
    assert f"(its op set it on {holder} instead, on line {line}: {holder} runs it)" in unset


_CHOICE = "                inp.grad = g if inp.grad is None else inp.grad + g\n"


@pytest.mark.parametrize(
    ("write", "words"),
    [
        # The choice's test spins, or recurses, or its sum grows past the integer bound;
        # a gradient made the node itself (its rule then multiplies it: CPython's error).
        (
            "                inp.grad = g if spin() else inp.grad + g\n",
            "BACKPROP_MAX_STEPS",
        ),
        ("                inp.grad = g if deep(0) else inp.grad + g\n", "RecursionError"),
        (
            "                inp.grad = g if inp.grad is None else inp.grad + 7 ** 10 ** 7\n",
            "OverflowError: this power makes an integer of more than 4,096 bits",
        ),
        (
            "                inp.grad = inp if inp.grad is None else inp.grad + g\n",
            "AttributeError: 'float' object has no attribute 'value'",  # CPython's words
        ),
    ],
)
def test_a_gradient_summed_by_a_choice_is_bounded_as_any_write(write: str, words: str) -> None:
    source = (PROGRAMS / "grad_none_sum_mul_swapped.py").read_text()
    assert _CHOICE in source
    helpers = (
        "def spin():\n    while True:\n        pass\n\n\ndef deep(n):\n    return deep(n + 1)\n\n\n"
    )
    source = helpers + source.replace(_CHOICE, write)
    with pytest.raises(EngineError, match=words) as caught:
        trace_source(source, limits=Limits(max_steps=50_000))
    assert caught.value.line is not None
    assert "Traceback" not in str(caught.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        # A node among its own pairs, the pairs grown past the container bound, or for ever.
        ("z.parents.append((z, 1.0))\nz.parents = z.parents * 10 ** 7\n", "items"),
        ("z.parents.append((z, 1.0))\nwhile True:\n    z.parents.append((z, 1.0))\n", "BACKPROP"),
    ],
)
def test_a_loop_over_operand_pairs_is_bounded_as_any_loop(change: str, words: str) -> None:
    source = (PROGRAMS / "pairs_loop_no_upstream.py").read_text()
    source = source.replace("z.backward()\n", change + "z.backward()\n")
    with pytest.raises(EngineError, match=words) as caught:
        trace_source(source, limits=Limits(max_steps=50_000))
    assert caught.value.line is not None


def test_a_node_among_its_own_operand_pairs_runs_as_cpython() -> None:
    source = (PROGRAMS / "pairs_loop_no_upstream.py").read_text()
    source = source.replace("z.backward()\n", "z.parents.append((z, 1.0))\nz.backward()\n")
    printed, error = run_in_cpython(source)
    assert error is None
    assert printed_lines(trace_source(source)) == printed


REAL_CODE = ROOT / "tests" / "engine" / "real_code"


@pytest.mark.parametrize(
    ("path", "changes", "said"),
    [
        # A free function `backprop(root)`: its frames said "c.backward()", which the
        # program never calls.
        (
            REAL_CODE / "free_function_backprop.py",
            [("for n in reversed(order):", "for n in order:")],
            "backprop(c) runs a*b's rule before that of c, which uses a*b: a*b passes its "
            "gradient on before all of it has arrived. Seed c.grad = 1.",
        ),
        (
            REAL_CODE / "free_function_backprop.py",
            [("    root.grad = 1.0\n", "")],
            "backprop(c) runs the rules of the 4 nodes that reach c, each after those of the "
            "nodes that use it. c.grad is 0 when the first rule runs, not 1: a right engine "
            "seeds it with 1.",
        ),
        # A method of another name: `y.backprop()`.
        (
            PROGRAMS / "topo_not_reversed.py",
            [("def backward(self):", "def backprop(self):"), ("y.backward()", "y.backprop()")],
            "y.backprop() runs w*x's rule before that of w*x+b, which uses w*x: w*x passes "
            "its gradient on before all of it has arrived. Seed y.grad = 1.",
        ),
        # `tape.backward()`, a method of the tape, not of y: its two passes.
        (
            REAL_CODE / "tape_of_nodes.py",
            [("        for node in reversed(self.nodes):", "        for node in self.nodes:")],
            "The Tape's backward() runs v3's rule before that of y, which uses v3: v3 passes "
            "its gradient on before all of it has arrived. Seed y.gradient = 1.",
        ),
    ],
)
def test_the_sort_frame_names_the_pass_as_the_program_calls_it(
    path: Path, changes: list[tuple[str, str]], said: str
) -> None:
    source = path.read_text()
    for old, new in changes:
        assert old in source
        source = source.replace(old, new)
    trace = trace_source(source)
    printed, error = run_in_cpython(source)
    assert error is None
    assert printed_lines(trace) == printed
    texts = [frame["text"] for frame in trace["frames"] if frame["phase"] == "sort"]
    assert texts  # (tape_of_nodes has two passes, each with these words)
    assert set(texts) == {said + " Each frame below is one rule, in the order it runs."}
