"""Learners' own engines with a bug in them, written in the shapes public code takes (SPEC
§14, §15): a `@dataclass` Value, a `__slots__` Value, a tape of closures, operands in a
list, a sort that returns a list (`tests/engine/real_code/`, round twenty of
public_code/SOURCES.md). Each runs as CPython runs it (tests/engine/test_real_code.py
compares what it prints); here, its gradients are CPython's, Check your engine names the
wrong rule, sort or `=` and nothing else, the right engine's gradients are worked out
here on their own, the frame of the wrong rule says so, and the page's summary counts the
gradients that end wrong (a sort that leaves nodes out: their gradients never became
"final", so the page said every gradient ended right while the leaves ended at 0).
"""

from __future__ import annotations

import contextlib
import io
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import EngineError, trace_columns, trace_source
from tests.engine.test_engine_check_real_code import summaries_by_the_page
from tests.support.traces import ROOMY, traced

HERE = Path(__file__).resolve().parent
REAL_CODE = HERE / "real_code"
LEARNER_BUGS = HERE / "learner_bugs"


def run_program(name: str) -> dict[str, Any]:
    """The program's top-level names as CPython leaves them (the tests' own programs)."""
    random.seed(0)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    source = (REAL_CODE / f"{name}.py").read_text()
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<program>", "exec", dont_inherit=True), namespace)
    return namespace


R, U = "right", "unchecked"
# program: (each op's verdict or first (frame, node, child)), the sort's verdict or first
# (frame, node, consumer), the accumulation's verdict or first (frame, node, child, lost).
CHECKS: dict[str, tuple[dict[str, Any], Any, Any]] = {
    # `self.grad = other.data * out.grad` in `__mul__`: w, in w*1, w*2 and w*3, keeps the
    # last share it is given; w*2's rule loses the −33 of w*3's.
    "dataclass_mul_assign_batch": ({"*": R, "+": R, "**": R}, R, (28, "n11", "n0", -33.0)),
    "slots_tanh_input_mlp": ({"*": R, "+": R, "tanh": (105, "n124", "n123"), "**": R}, R, R),
    "tape_closures_tanh_one_minus_t": ({"*": R, "+": R, "tanh": (20, "n21", "n20"), "-": R}, R, R),
    # e is listed twice (`e * e`) and no visited set: its rule runs a second time.
    "prev_list_sort_no_visited": ({"*": R, "+": R, "exp": R}, (15, "n7", None), R),
    # The order is [o]: only sigmoid's rule runs; `*` and `+` never run to be judged.
    "dataclass_topo_result_dropped": ({"*": U, "+": U, "sigmoid": R}, (6, "n5", None), R),
    # `**` lists its exponent p as an operand and gives it no share.
    "slots_pow_exponent_no_share": ({"**": (21, "n17", "n1"), "*": R, "+": R}, R, R),
    # A right engine; the program calls backward() twice without zeroing the gradients,
    # which a right engine given the same program does too.
    "backward_twice_no_zero_grad": ({"*": R, "+": R, "tanh": R}, R, R),
    # `topo.append(v)` outside `if v not in visited`: h listed twice, run before h*x.
    "slots_topo_append_outside_if": ({"*": R, "tanh": R, "+": R}, (6, "n3", "n4"), R),
    # One `_backward` method dispatching on `self._op`; relu's branch masks with its own
    # output's `>= 0`, always true: the first relu of a negative input is named.
    "op_dispatch_relu_ge": ({"*": R, "+": R, "relu": (145, "n183", "n182")}, R, R),
    # `__mul__` makes its node without operands: the products are leaves, whose rules
    # still write x1 and w1; no rule of the graph is wrong, nothing reaches a and c.
    "mul_children_forgotten": ({"+": R, "tanh": R}, R, R),
    # makemore's bigram model on scalar Values; `log`'s rule forgets `* out.grad`.
    "bigram_log_no_upstream": (
        {"exp": R, "+": R, "**": R, "*": R, "log": (306, "n335", "n334")},
        R,
        R,
    ),
}


def _verdict(row: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return row["verdict"] if row["verdict"] != "wrong" else tuple(row["first"][k] for k in keys)


def _trace(name: str) -> dict[str, Any]:
    return traced(trace_source, (REAL_CODE / f"{name}.py").read_text(), "packed", ROOMY)


@pytest.mark.parametrize("program", sorted(CHECKS))
def test_the_check_names_the_wrong_part_and_nothing_else(program: str) -> None:
    check = _trace(program)["engine_check"]
    rules, sort, accumulation = CHECKS[program]
    assert {r["op"]: _verdict(r, ("frame", "node", "child")) for r in check["rules"]} == rules
    assert _verdict(check["sort"], ("frame", "node", "consumer")) == sort
    assert _verdict(check["accumulation"], ("frame", "node", "child", "lost")) == accumulation


# The learner's gradients as CPython leaves them, by the trace's node names.
LEARNER: dict[str, Callable[[dict[str, Any]], dict[str, float]]] = {
    "dataclass_mul_assign_batch": lambda ns: {"w": ns["model"].w.grad, "b": ns["model"].b.grad},
    "tape_closures_tanh_one_minus_t": lambda ns: {k: ns[k].grad for k in ("w1", "w2", "b")},
    "prev_list_sort_no_visited": lambda ns: {k: ns[k].grad for k in ("w", "b", "x")},
    "dataclass_topo_result_dropped": lambda ns: {k: ns[k].grad for k in ("w1", "w2", "b", "n")},
    "slots_pow_exponent_no_share": lambda ns: {"a": ns["a"].grad, "p": ns["p"].grad},
    "slots_topo_append_outside_if": lambda ns: {k: ns[k].grad for k in ("x", "w", "h")},
    "mul_children_forgotten": lambda ns: {k: ns[k].grad for k in ("x1", "w1", "b", "a", "c")},
    "backward_twice_no_zero_grad": lambda ns: {"w": ns["w"].grad, "b": ns["b"].grad},
}


def _right_line(ns: dict[str, Any]) -> dict[str, float]:
    """The last step's loss Σ (w·x + b − y)², at w and b before that step's update."""
    w = ns["model"].w.data + ns["lr"] * ns["model"].w.grad
    b = ns["model"].b.data + ns["lr"] * ns["model"].b.grad
    residuals = [(w * x + b - y, x) for x, y in zip(ns["xs"], ns["ys"], strict=True)]
    return {"w": sum(2 * r * x for r, x in residuals), "b": sum(2 * r for r, _ in residuals)}


def _right_mlp(ns: dict[str, Any]) -> dict[str, float]:
    """The last epoch's loss Σ (o − y)² of the 2-3-1 tanh MLP, backpropagated by hand,
    every parameter before its update."""
    first, second = (layer.neurons for layer in ns["net"].layers)
    back = 0.05  # the program's step: `p.data += -0.05 * p.grad`
    w = [[p.data + back * p.grad for p in n.w] for n in first]
    b = [n.b.data + back * n.b.grad for n in first]
    out_w = [p.data + back * p.grad for p in second[0].w]
    out_b = second[0].b.data + back * second[0].b.grad
    grads: dict[str, float] = {}
    name = "net.layers[{}].neurons[{}].{}"
    for x, y in ns["data"]:
        h = [
            math.tanh(bj + sum(wk * xk for wk, xk in zip(wj, x, strict=True)))
            for wj, bj in zip(w, b, strict=True)
        ]
        o = math.tanh(out_b + sum(wj * hj for wj, hj in zip(out_w, h, strict=True)))
        dz = 2 * (o - y) * (1 - o * o)
        for j, hj in enumerate(h):
            key = name.format(1, 0, f"w[{j}]")
            grads[key] = grads.get(key, 0.0) + dz * hj
            dzj = dz * out_w[j] * (1 - hj * hj)
            for k, xk in enumerate(x):
                key = name.format(0, j, f"w[{k}]")
                grads[key] = grads.get(key, 0.0) + dzj * xk
            key = name.format(0, j, "b")
            grads[key] = grads.get(key, 0.0) + dzj
        key = name.format(1, 0, "b")
        grads[key] = grads.get(key, 0.0) + dz
    return grads


def _right_tape(ns: dict[str, Any]) -> dict[str, float]:
    """The last iteration's Σ (tanh(w1·x1 + w2·x2 + b) − t)², before its update."""
    w1, w2, b = (ns[k].value + 0.1 * ns[k].grad for k in ("w1", "w2", "b"))
    grads = {"w1": 0.0, "w2": 0.0, "b": 0.0}
    for (x1, x2), target in ns["samples"]:
        h = math.tanh(w1 * x1 + w2 * x2 + b)
        d = 2 * (h - target) * (1 - h * h)
        grads["w1"] += d * x1
        grads["w2"] += d * x2
        grads["b"] += d
    return grads


def _right_exp(ns: dict[str, Any]) -> dict[str, float]:
    w, b, x = (ns[k].data for k in ("w", "b", "x"))
    s = math.exp(w * x + b)
    d = 2 * (s - 2.0) * s  # loss = (e^(wx+b) − 2)²
    return {"w": d * x, "b": d, "x": d * w}


def _right_sigmoid(ns: dict[str, Any]) -> dict[str, float]:
    o = ns["o"].data
    d = o * (1 - o)
    return {"x1": d * 0.5, "w1": d * 2.0, "x2": d * 0.25, "w2": d * -1.0, "b": d, "n": d}


def _right_power(ns: dict[str, Any]) -> dict[str, float]:
    """The last step's Σ (a·x**p − y)², a before its update (p never moves)."""
    a, p = ns["a"].data + 0.01 * ns["a"].grad, ns["p"].data
    residuals = [(a * x**p - y, x) for x, y in ns["points"]]
    return {
        "a": sum(2 * r * x**p for r, x in residuals),
        "p": sum(2 * r * a * x**p * math.log(x) for r, x in residuals),
    }


def _right_bigram(ns: dict[str, Any]) -> dict[str, float]:
    """The last step's mean −log softmax(W[i])[j] over the bigrams (i, j): each logit
    W[i][k]'s gradient is Σ (p_k − [k = j]) / n, W before that step's update."""
    table = [[p.data + 1.0 * p.grad for p in row] for row in ns["W"]]
    pairs = ns["pairs"]
    grads = {f"W[{i}][{k}]": 0.0 for i in range(len(table)) for k in range(len(table))}
    for i, j in pairs:
        exps = [math.exp(z) for z in table[i]]
        for k, e in enumerate(exps):
            grads[f"W[{i}][{k}]"] += (e / sum(exps) - (k == j)) / len(pairs)
    return grads


def _right_relu_net(ns: dict[str, Any]) -> dict[str, float]:
    """The last step's Σ (p − y)², p = Σ v_j · relu(w1_j·x1 + w2_j·x2 + b_j) + c, every
    parameter before its update (the learner's `params` list: hidden rows, then head)."""
    values = [p.data + 0.05 * p.grad for p in ns["params"]]
    rows, (v1, v2, v3, c) = [values[0:3], values[3:6], values[6:9]], values[9:]
    grads = [0.0] * len(values)
    for (x1, x2), y in ns["data"]:
        zs = [w1 * x1 + w2 * x2 + b for w1, w2, b in rows]
        hs = [max(z, 0.0) for z in zs]
        d = 2 * (v1 * hs[0] + v2 * hs[1] + v3 * hs[2] + c - y)
        for j, (v, z) in enumerate(zip((v1, v2, v3), zs, strict=True)):
            on = d * v * (z > 0)
            grads[3 * j] += on * x1
            grads[3 * j + 1] += on * x2
            grads[3 * j + 2] += on
            grads[9 + j] += d * hs[j]
        grads[12] += d
    return {f"params[{i}]": g for i, g in enumerate(grads[:9])} | {
        f"head[{j}]": g for j, g in enumerate(grads[9:])
    }


def _right_shared_tanh(ns: dict[str, Any]) -> dict[str, float]:
    x, w = ns["x"].data, ns["w"].data
    h = math.tanh(x * w)  # y = h·x + h
    d = (x + 1) * (1 - h * h)
    return {"x": h + d * w, "w": d * x, "h": x + 1}


RIGHT: dict[str, Callable[[dict[str, Any]], dict[str, float]]] = {
    "dataclass_mul_assign_batch": _right_line,
    "slots_tanh_input_mlp": _right_mlp,
    "tape_closures_tanh_one_minus_t": _right_tape,
    "prev_list_sort_no_visited": _right_exp,
    "dataclass_topo_result_dropped": _right_sigmoid,
    # `** 2.0` of a negative error with a Value exponent: the exponent 2 has no right
    # gradient (x**y · ln x), the rest have theirs, measured (central differences).
    "slots_pow_exponent_no_share": _right_power,
    "bigram_log_no_upstream": _right_bigram,
    "op_dispatch_relu_ge": _right_relu_net,
    "slots_topo_append_outside_if": _right_shared_tanh,
    # The right engine is this program's own (right) engine: the same gradients.
    "backward_twice_no_zero_grad": lambda ns: {"w": ns["w"].grad, "b": ns["b"].grad},
}


@pytest.mark.parametrize("program", sorted(CHECKS))
def test_the_gradients_are_cpythons_and_the_right_ones_are_right(program: str) -> None:
    by_name = {node["name"]: node for node in _trace(program)["nodes"]}
    ns = run_program(program)
    for name, grad in LEARNER[program](ns).items() if program in LEARNER else ():
        assert math.isclose(by_name[name]["grad"], grad, rel_tol=1e-9, abs_tol=1e-12), name
    for name, grad in RIGHT[program](ns).items() if program in RIGHT else ():
        # (bigram's W[3] is drawn as `row`: the zero_grad loop's `row` holds it when the
        # pass runs, a shorter name)
        node = by_name.get(name) or by_name[name.replace("W[3]", "row")]
        tolerance = 1e-6 if node.get("reference") == "numeric" else 1e-9
        assert math.isclose(node["correct_grad"], grad, rel_tol=tolerance), (name, grad)


# The wrong rule's frame says what it did and what the right local derivative is.
SAID = {
    "slots_tanh_input_mlp": "The right local derivative for the + node is 0.5126, not 0.2541.",
    "tape_closures_tanh_one_minus_t": (
        "The right local derivative for w1*−1+w2*0.5+b is 0.7864, not 1.462."
    ),
    "slots_pow_exponent_no_share": "The right local derivative for p is 5.709, not 0.",
    "dataclass_mul_assign_batch": "w.grad = 2 × −8: the −33 already there is lost",
    "prev_list_sort_no_visited": "This is the 2nd run of e's rule in this pass.",
    "op_dispatch_relu_ge": "The right local derivative for the + node is 0, not 1.",
    "slots_topo_append_outside_if": "h (tanh, grad 1): local derivative 1 − tanh². "
    "(x*w).grad += 0.7116 × 1 → 0.7116.",
    "bigram_log_no_upstream": "prob.grad got 2.015, the right local derivative alone: not "
    "multiplied by the upstream gradient −0.04348 (the right share is −0.08761).",
}
SORT_SAID = {
    "prev_list_sort_no_visited": "loss.backward() runs e's rule 2 times: each run passes e's "
    "whole gradient on again.",
    "slots_topo_append_outside_if": "y.backward() runs h's rule before that of h*x, which "
    "uses h: h passes its gradient on before all of it has arrived.",
    "dataclass_topo_result_dropped": "o.backward() never runs x1*w1's rule (10 nodes reach o): "
    "nothing is passed on from x1*w1.",
}


@pytest.mark.parametrize("program", sorted(SAID))
def test_the_wrong_parts_frame_says_what_is_wrong(program: str) -> None:
    trace = _trace(program)
    check = trace["engine_check"]
    rows = [r for r in [*check["rules"], check["accumulation"]] if r["verdict"] == "wrong"]
    rows += [check["sort"]] if check["sort"]["verdict"] == "wrong" else []
    (row,) = rows
    assert SAID[program] in trace["frames"][row["first"]["frame"]]["text"]
    if program in SORT_SAID:
        sorts = [f["text"] for f in trace["frames"] if f["phase"] == "sort"]
        assert sorts[0].startswith(SORT_SAID[program])


# Sorts that leave nodes out: the page's summary said "every gradient ends as a right
# engine's does" while those nodes' gradients ended at 0 (or short of their right one).
LEFT_OUT = {
    REAL_CODE / "dataclass_topo_result_dropped.py": 8,
    LEARNER_BUGS / "build_topo_self_typo.py": 7,
    LEARNER_BUGS / "sort_uses_self_prev.py": 2,
    LEARNER_BUGS / "hash_by_value.py": 2,
    LEARNER_BUGS / "visited_by_data_id.py": 2,
}


def test_gradients_a_sort_left_out_are_outlined_and_counted() -> None:
    traces = {p.stem: traced(trace_columns, p.read_text(), "packed", ROOMY) for p in LEFT_OUT}
    pages = summaries_by_the_page(traces)
    for path, count in LEFT_OUT.items():
        page = pages[path.stem]
        assert len(page["outlined"]) == count, (path.stem, page)
        assert page["summary"].startswith(
            f"Your engine parts from a right one: {count} gradients end wrong"
        ), page
    # The outlined nodes are those whose gradient parts from the right engine's.
    trace = traced(trace_source, (REAL_CODE / "dataclass_topo_result_dropped.py").read_text())
    ids = {
        node["id"]
        for node in trace["nodes"]
        if abs(node["grad"] - node["correct_grad"]) > 1e-6 * max(1, abs(node["correct_grad"]))
    }
    assert set(pages["dataclass_topo_result_dropped"]["outlined"]) == ids


def test_a_power_of_a_negative_base_keeps_the_bases_right_gradient() -> None:
    # `err ** Value(2.0)` with err < 0: the exponent's derivative, err**2 · ln err, has no
    # real value, the base's (2·err) has. Only the exponent goes without a right gradient;
    # the whole pass went without one (a and p had none in the first step), and the `**`
    # row still names p, whose share the rule leaves out.
    trace = _trace("slots_pow_exponent_no_share")
    nodes = {node["id"]: node for node in trace["nodes"]}
    operands: dict[str, list[str]] = {}
    for edge in trace["edges"]:
        operands.setdefault(edge["target"], []).append(edge["source"])
    # The squares' exponents: the leaf operand of a `**` whose base is an op (the error).
    squares = [
        (nodes[base], nodes[exponent])
        for out, (base, exponent) in ((o, ids) for o, ids in operands.items() if len(ids) == 2)
        if nodes[out]["op"] == "**" and nodes[base]["kind"] == "op"
    ]
    assert len(squares) == 9  # three errors a step, three steps
    for base, exponent in squares:
        if base["data"] < 0:
            assert "correct_grad" not in exponent
        else:  # x**2 · ln x, times the 1 each square passes down from the loss
            want = base["data"] ** 2 * math.log(base["data"])
            assert math.isclose(exponent["correct_grad"], want, rel_tol=1e-6)
    assert any(base["data"] < 0 for base, _ in squares)
    leaves = [node for node in trace["nodes"] if node["kind"] == "leaf"]
    by_name = {node["name"]: node for node in leaves}
    assert "correct_grad" in by_name["a"] and "correct_grad" in by_name["p"]
    assert by_name["p"]["grad"] == 0.0 and by_name["p"]["correct_grad"] < -50
    # A learner's `**` whose rule hands the exponent 0 at a negative base is not judged
    # for it (there is nothing right to hand it), and its base's share is right (the row
    # was "unchecked": no right local derivative for any operand).
    source = (REAL_CODE / "slots_pow_exponent_no_share.py").read_text()
    engine = source[: source.index("a = Value(1.0)")]
    base_only = "            self.grad += other.data * self.data ** (other.data - 1) * out.grad\n"
    assert base_only in engine
    program = "w = Value(1.0)\nloss = (w - 3.0) ** 2.0\nloss.backward()\nprint(w.grad)\n"
    for rule in (base_only, base_only + "            other.grad += 0.0\n"):
        trace = trace_source(engine.replace(base_only, rule) + program)
        verdicts = {row["op"]: row["verdict"] for row in trace["engine_check"]["rules"]}
        assert verdicts == {"+": R, "**": R}
        w = next(node for node in trace["nodes"] if node["name"] == "w")
        assert w["grad"] == -4.0 and math.isclose(w["correct_grad"], -4.0, rel_tol=1e-6)


def test_sum_of_a_dataclass_value_with_no_radd_fails_as_in_cpython() -> None:
    # `__radd__ = __add__` left out of the dataclass: `sum()` starts from the int 0, and
    # `0 + Value` is CPython's TypeError, on the line of the `sum(`.
    source = (REAL_CODE / "dataclass_mul_assign_batch.py").read_text()
    assert "    __radd__ = __add__\n" in source
    broken = source.replace("    __radd__ = __add__\n", "")
    with pytest.raises(TypeError) as cpython:
        exec(compile(broken, "<program>", "exec", dont_inherit=True), {"__name__": "__main__"})
    words = "unsupported operand type(s) for +: 'int' and 'Value'"
    assert str(cpython.value) == words
    with pytest.raises(EngineError) as ours:
        trace_source(broken)
    assert f"TypeError: {words}" in ours.value.message
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "loss = sum(" in text)
    assert ours.value.line == line


def test_a_node_made_without_its_operands_is_said_so_and_not_called_all_right() -> None:
    # `Value(self.data * other.data)` with no `(self, other)`: the product's rule writes
    # x1 and w1, which are not among its operands. The frame said "the rule reads a name
    # that means another node now … (a closure made in a loop?)", and the page's summary
    # "every gradient is right" while a and c, below x1, ended at 0 uncompared.
    trace = _trace("mul_children_forgotten")
    texts = [f["text"] for f in trace["frames"] if f["phase"] == "backward"]
    product = next(text for text in texts if text.startswith("−6 (grad 0.5)"))
    assert product == (
        "−6 (grad 0.5): its own rule ran. x1.grad += −3 × 0.5 → −1.5; w1.grad += 2 × 0.5 → 1. "
        "−6 has no operands (its _prev is empty), though this rule writes the gradients of x1 "
        "and w1: the op that made −6 did not hand them to it (`Value(self.data * other.data)` "
        "with no `(self, other)`?), so the graph, and a sort, never reach them through −6."
    )
    assert not any("closure made in a loop" in text for text in texts)
    path = REAL_CODE / "mul_children_forgotten.py"
    page = summaries_by_the_page({"p": traced(trace_columns, path.read_text(), "packed", ROOMY)})
    assert page["p"]["summary"] == (
        "Your engine agrees with a right one on this program: every gradient the check could "
        "compare is right."
    )


def test_a_tape_whose_nodes_keep_no_operands_is_refused_at_its_backward_call() -> None:
    # The same tape with nodes that keep only their value (`Var(value)`): no graph to
    # draw (docs/LANGUAGE.md). The refusal had no line; it has the `backward(total)`
    # call's, and a method `.backward()` on such a node its own call's.
    source = (REAL_CODE / "tape_closures_tanh_one_minus_t.py").read_text()
    bare = source.replace("        self.parents = parents\n", "")
    assert bare != source
    with pytest.raises(EngineError, match="backward\\(\\) was called on a Var") as caught:
        trace_source(bare)
    line = next(i for i, text in enumerate(bare.splitlines(), 1) if "backward(total)" in text)
    assert (caught.value.line, caught.value.column) == (line, 5)
    method = (
        "class P:\n    def __init__(self, v):\n        self.v = v\n        self.grad = 0\n"
        "    def backward(self, g=1):\n        self.grad += g\n\n"
        "p = P(2.0)\nq = [p]\nq[0].backward()\nprint(p.grad)\n"
    )
    for call in ("q[0].backward()", "q[0].backward(g=1.0)"):  # both ways a call is made
        with pytest.raises(EngineError, match="backward\\(\\) was called on a P") as caught:
            trace_source(method.replace("q[0].backward()", call))
        assert (caught.value.line, caught.value.column) == (10, 1)


VISIBLE = """
import {{ createTimeline, stateAt }} from {timeline};
import {{ fromColumns }} from {columns};
let input = "";
process.stdin.on("data", (chunk) => {{ input += chunk; }});
process.stdin.on("end", () => {{
  const timeline = createTimeline(fromColumns(JSON.parse(input)));
  const names = timeline.trace.nodes.map((node) => node.name);
  const out = timeline.passes.map((pass) => {{
    const state = stateAt(timeline, pass.end - 1);
    return names.filter((_, i) => state.visible[i]);
  }});
  process.stdout.write(JSON.stringify(out));
}});
"""


def test_a_second_backward_on_the_same_graph_draws_its_leaves() -> None:
    # backward() twice on one graph, with a sort that lists only the nodes that have a
    # rule (`if v.backward_fn is not None`): the second pass has no build frame, and its
    # leaves (w, b, the constants) were hidden, so a wrong gradient of w (a `*` rule
    # that multiplies by its own data) was outlined nowhere and the summary said "every
    # gradient ends as a right engine's does".
    import json
    import shutil
    import subprocess

    from tests.support.checkout import CHECKOUT

    source = (REAL_CODE / "backward_twice_no_zero_grad.py").read_text()
    right = "            self.grad += other.data * out.grad\n"
    assert right in source
    wrong = source.replace(right, right.replace("other.data", "self.data"), 1)
    columns = traced(trace_columns, wrong, "packed", ROOMY)
    js = CHECKOUT / "static" / "js" / "passes"
    modules = {
        "timeline": json.dumps((js / "timeline.js").as_uri()),
        "columns": json.dumps((js / "columns.js").as_uri()),
    }
    node = shutil.which("node")
    assert node, "the test command installs Node.js"
    result = subprocess.run(
        [node, "--input-type=module", "-e", VISIBLE.format(**modules)],
        input=json.dumps(columns).encode(),
        capture_output=True,
        timeout=300,
        check=True,
    )
    passes = json.loads(result.stdout)
    assert len(passes) == 6
    assert all({"w", "b", "1.5", "−0.8"} <= set(names) for names in passes), passes
    page = summaries_by_the_page({"p": columns})["p"]
    assert page["summary"].startswith("Your engine parts from a right one: 1 gradient ends wrong")
    w = next(node["id"] for node in trace_source(wrong)["nodes"] if node["name"] == "w")
    assert page["outlined"] == [w]


def test_an_engine_of_difference_quotients_is_not_outlined_for_their_error() -> None:
    # nikwolfe7's micrograd computes each local derivative as (f(a + h) − f(a)) / h, h =
    # 1e-7: every row right (within SPEC §14's 1e-6), its gradients 1e-8 off the right
    # engine's. The page outlined 42 of them: "Every rule, the sort and += agree with a
    # right engine, yet 42 gradients differ … look at the seed".
    path = HERE / "public_code" / "nikwolfe7_micrograd_test_engine_without_torch.py"
    page = summaries_by_the_page({"p": traced(trace_columns, path.read_text(), "packed", ROOMY)})
    assert page["p"]["outlined"] == []
    assert page["p"]["summary"] == (
        "Your engine agrees with a right one on this program: every gradient is right."
    )
