"""Twenty-seven programs of `tests/engine/real_code/`, each written the way a different kind
of author writes a scalar engine (SPEC §14, §15): `__slots__` with hashing by value, a
`@dataclass(eq=False)` with `field(default_factory=set)`, closures folded by
`functools.reduce`, ops in a dict of lambdas, one class per op with a `backward_fn`, a
stack-based sort, `graphlib`, Kahn's algorithm with a `deque` and a `Counter`, format
specs, `__iadd__`/`__rpow__`/`__abs__`/`__lt__`, a softmax, custom exceptions,
generators, `random.Random` instances, typing and `__main__`, properties, `logging`,
and learners' bugs (a wrong sign, `=`, a sort that runs rules twice, a forgotten
`zero_grad`, no `__radd__`), reverse mode in the literature's words (`primal`,
`adjoint`) and a training script with `argparse` options.

Each is traced at the default limits (the clock roomy: the numbers are compared, and
this machine is shared) and compared with CPython running it: every printed line
(test_real_code.py), every pass's output and every leaf's gradient (here); Check your
engine names the wrong part of the buggy ones and nothing else, and on the right ones
every node's `correct_grad` is its gradient.
"""

from __future__ import annotations

import contextlib
import io
import math
import random
from pathlib import Path
from typing import Any

import pytest

from backprop_animator.engine import EngineError, Limits, trace_source
from tests.engine.cpython import assert_leaves_among, leaves_of, run_in_cpython_with_passes
from tests.support.traces import ROOMY, same_program, traced

REAL_CODE = Path(__file__).resolve().parent / "real_code"

R, U, W = "right", "unchecked", "wrong"
# program: (each op's verdict, the sort's, the accumulation's)
CHECKS: dict[str, tuple[dict[str, str], str, str]] = {
    "abc_module_tree_training": ({"*": R, "+": R, "ReLU": R, "**": R}, R, R),
    # `primal`, `adjoint` and (node, partial) pairs: refused before ("it has no `grad`").
    "adjoint_primal_reverse_mode": ({"*": R, "sin": R, "exp": R, "+": R}, R, R),
    # A training script's `argparse` options, parsed from no arguments: its defaults.
    "argparse_training_script": ({"*": R, "+": R, "tanh": R}, R, R),
    "bug_grads_overwritten": ({"*": R, "+": R}, R, W),
    "bug_no_radd_sum": ({"*": R, "+": R}, R, R),
    "bug_queue_sort_runs_twice": ({"*": R, "+": R, "tanh": R}, W, R),
    "bug_sub_wrong_sign": ({"*": R, "+": R, "exp": R, "-": W}, R, R),
    # Every step's gradients pile onto the last ones, as a right engine's do when the
    # program leaves them there: no part of the engine is wrong.
    "bug_zero_grad_forgotten_mlp": ({"*": R, "+": R, "tanh": R, "**": R}, R, R),
    "dataclass_default_factory_training": ({"*": R, "+": R, "sigmoid": R, "**": R}, R, R),
    "dunder_iadd_rpow_abs_lt": (
        {"abs": R, "2**": R, "*": R, "+": R, "**": R, "3**": R},
        R,
        R,
    ),
    "exceptions_checked_engine": ({"/": R, "log": R, "+": R, "*": R, "sqrt": R}, R, R),
    "fstring_specs_training": ({"*": R, "+": R, "ReLU": R, "**": R}, R, R),
    "functional_reduce_neurons": ({"*": R, "+": R, "relu": R}, R, R),
    "generator_minibatches": ({"*": R, "+": R, "tanh": R}, R, R),
    # backward() writes every gradient itself, from a dict: no rule of a node to judge.
    "grads_dict_functional": ({"*": U, "sin": U, "/": U, "+": U}, R, R),
    # `1/x`, an op no table knows: judged by re-runs of its own call (engine/lab/op_rerun.py)
    "graphlib_static_order": ({"*": R, "+": R, "exp": R, "1/x": R}, R, R),
    "iterative_stack_topo_mlp": ({"*": R, "+": R, "tanh": R}, R, R),
    "kahn_deque_counter_training": ({"*": R, "+": R, "tanh": R}, R, R),
    "logging_loss_training": ({"*": R, "+": R, "sigmoid": R, "log": R}, R, R),
    # One class per op: `Sigmoid(Node)` made at the top level is sigmoid, the `Mul` that
    # `__neg__` makes is `*` (they were an op named "" and `neg`, neither judged).
    "op_subclasses_backward_fn": ({"*": R, "+": R, "sigmoid": R, "**": R}, R, R),
    "op_table_lambdas": (
        {"mul": R, "add": R, "tanh": R, "exp": R, "div": R, "log": R, "sub": R},
        R,
        R,
    ),
    "operator_partial_itertools_engine": ({"*": R, "+": R, "exp": R, "sin": R, "-": R}, R, R),
    "property_grad_repr": ({"*": R, "sin": R, "+": R}, R, R),
    "random_instance_perceptron": ({"*": R, "+": R, "relu": R}, R, R),
    # v = q*p equals u = p*q: the visited set, hashing by value, takes v for u.
    "slots_value_hash_by_data": ({"*": R, "+": R, "tanh": R}, W, R),
    "softmax_cross_entropy_classifier": (
        {"*": R, "+": R, "exp": R, "**": R, "log": R},
        R,
        R,
    ),
    "typed_main_entry": ({"*": R, "+": R, "softplus": R}, R, R),
}


def _trace(name: str) -> dict[str, Any]:
    return traced(trace_source, (REAL_CODE / f"{name}.py").read_text(), "packed", ROOMY)


def _param(name: str) -> Any:
    return pytest.param(name, marks=same_program(REAL_CODE / f"{name}.py"), id=name)


@pytest.mark.parametrize("program", [_param(name) for name in sorted(CHECKS)])
def test_each_pass_and_leaf_is_cpythons(program: str) -> None:
    source = (REAL_CODE / f"{program}.py").read_text()
    _, numbers, outputs = run_in_cpython_with_passes(source)
    trace = _trace(program)
    assert [one["data"] for one in trace["passes"]] == pytest.approx(numbers, rel=1e-9)
    ours = sorted(
        (float(n["data"]), float(n["grad"])) for n in trace["nodes"] if n["kind"] == "leaf"
    )
    theirs = leaves_of(outputs)
    assert ours and theirs
    assert_leaves_among(ours, theirs)


@pytest.mark.parametrize("program", [_param(name) for name in sorted(CHECKS)])
def test_the_check_names_the_wrong_part_and_nothing_else(program: str) -> None:
    trace = _trace(program)
    check = trace["engine_check"]
    rules, sort, accumulation = CHECKS[program]
    assert {row["op"]: row["verdict"] for row in check["rules"]} == rules
    assert check["sort"]["verdict"] == sort
    assert check["accumulation"]["verdict"] == accumulation
    if W not in (*rules.values(), sort, accumulation) and program != "slots_value_hash_by_data":
        # A right engine: every gradient the check has a right one for is that one (as
        # near as a difference quotient, below an op the registry does not know).
        numeric = any(node.get("reference") == "numeric" for node in trace["nodes"])
        tolerance = 1e-6 if numeric else 1e-9
        for node in trace["nodes"]:
            if "correct_grad" in node:
                assert math.isclose(
                    node["grad"], node["correct_grad"], rel_tol=tolerance, abs_tol=1e-12
                ), node["name"]


def _namespace(name: str) -> dict[str, Any]:
    """The program's top-level names as CPython leaves them."""
    random.seed(0)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    source = (REAL_CODE / f"{name}.py").read_text()
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<program>", "exec", dont_inherit=True), namespace)
    return namespace


def _node(trace: dict[str, Any], name: str) -> dict[str, Any]:
    (node,) = [node for node in trace["nodes"] if node["name"] == name]
    return node


def test_a_sub_rule_with_the_wrong_sign_is_named_at_its_subtrahend() -> None:
    trace = _trace("bug_sub_wrong_sign")
    (row,) = [row for row in trace["engine_check"]["rules"] if row["verdict"] == W]
    nodes = {node["id"]: node for node in trace["nodes"]}
    operands = [e["source"] for e in trace["edges"] if e["target"] == row["first"]["node"]]
    assert nodes[row["first"]["node"]]["op"] == "-"
    assert row["first"]["child"] == operands[1]  # the subtrahend, the prediction
    # The right gradients of the last step's Σ (y − e^(w·x + b))², w and b before its
    # update; the learner's are CPython's.
    ns = _namespace("bug_sub_wrong_sign")
    w = ns["w"].data + 0.01 * ns["w"].grad
    b = ns["b"].data + 0.01 * ns["b"].grad
    right = {"w": 0.0, "b": 0.0}
    for x, y in ns["data"]:
        e = math.exp(w * x + b)
        right["w"] += 2 * (e - y) * e * x
        right["b"] += 2 * (e - y) * e
    for name in ("w", "b"):
        node = _node(trace, name)
        assert math.isclose(node["grad"], ns[name].grad, rel_tol=1e-12)
        assert math.isclose(node["correct_grad"], right[name], rel_tol=1e-9)
        assert not math.isclose(node["grad"], right[name], rel_tol=1e-3)


def test_overwritten_gradients_keep_cpythons_numbers_beside_the_right_ones() -> None:
    trace = _trace("bug_grads_overwritten")
    ns = _namespace("bug_grads_overwritten")
    x, y = _node(trace, "x"), _node(trace, "y")
    assert (x["grad"], y["grad"]) == (ns["x"].grad, ns["y"].grad) == (-4.0, -2.0)
    # f = (x·y + 3)·x at x = 2, y = −2: df/dx = 2xy + 3; then y·y alone, y.grad zeroed.
    assert (x["correct_grad"], y["correct_grad"]) == (-5.0, -4.0)


def test_a_queue_that_runs_rules_twice_is_the_sort_and_the_right_gradients_are_right() -> None:
    trace = _trace("bug_queue_sort_runs_twice")
    ns = _namespace("bug_queue_sort_runs_twice")
    x, w = ns["x"].data, ns["w"].data
    h = math.tanh(x * w)  # y = h·h + h·x
    dh = 2 * h + x
    right = {"x": h + dh * (1 - h * h) * w, "w": dh * (1 - h * h) * x}
    for name, grad in right.items():
        node = _node(trace, name)
        assert math.isclose(node["grad"], ns[name].grad, rel_tol=1e-12)
        assert math.isclose(node["correct_grad"], grad, rel_tol=1e-9)
    assert trace["engine_check"]["sort"]["first"]["consumer"] is None  # ran twice


def test_nodes_equal_by_value_merge_in_the_visited_set_as_in_cpython() -> None:
    trace = _trace("slots_value_hash_by_data")
    ns = _namespace("slots_value_hash_by_data")
    p, q, r = (ns[k].data for k in ("p", "q", "r"))  # loss = (p·q)·r + q·p
    right = {"p": q * (r + 1), "q": p * (r + 1), "r": p * q}
    for name, grad in right.items():
        node = _node(trace, name)
        assert math.isclose(node["grad"], ns[name].grad, rel_tol=1e-12)
        assert math.isclose(node["correct_grad"], grad, rel_tol=1e-9)
    assert (ns["p"].grad, ns["q"].grad) != (right["p"], right["q"])  # v's rule never ran


def test_an_op_class_is_named_by_its_class_wherever_it_is_made() -> None:
    trace = _trace("op_subclasses_backward_fn")
    ops = {node["op"] for node in trace["nodes"] if node["kind"] == "op"}
    assert ops == {"*", "+", "sigmoid", "**2"}
    # A subclass of the node class whose name is no op's: an op of the program's own, by
    # its name, where it was nameless; the node class's own ops keep their methods' names.
    source = """
import math
class Node:
    def __init__(self, val, children=()):
        self.val = val
        self.grad = 0.0
        self.children = list(children)
    def backward_fn(self):
        pass
    def __add__(self, other):
        return Node(self.val + other.val, (self, other))
    def backward(self):
        order, seen = [], set()
        def dfs(n):
            if n not in seen:
                seen.add(n)
                for c in n.children:
                    dfs(c)
                order.append(n)
        dfs(self)
        self.grad = 1.0
        for n in reversed(order):
            n.backward_fn()
class Gaussian(Node):
    def __init__(self, a):
        super().__init__(math.exp(-a.val * a.val), (a,))
    def backward_fn(self):
        self.children[0].grad += -2 * self.children[0].val * self.val * self.grad
x = Node(0.7)
y = Gaussian(x) + x
y.backward()
print(x.grad)
"""
    trace = trace_source(source)
    assert sorted(node["op"] for node in trace["nodes"] if node["kind"] == "op") == [
        "+",
        "Gaussian",
    ]


RANDOM_DRAWS = """import random
r = random.Random(5)
print(random.expovariate(2.0), random.triangular(), random.triangular(1, 3))
print(random.triangular(0, 10, 2), random.triangular(2, 2), r.triangular(mode=None))
print(r.lognormvariate(0, 0.5), r.paretovariate(3), r.weibullvariate(1.0, 1.5))
print(r.triangular(low=-1, high=1, mode=0.5), r.expovariate(lambd=0.5))
for x in [0, 10**400, float("inf"), float("nan"), -1e308, 1e-320]:
    for draw in (random.expovariate, random.paretovariate, lambda b: r.weibullvariate(1.0, b)):
        try:
            print(draw(x))
        except (ZeroDivisionError, OverflowError, ValueError) as e:
            print(type(e).__name__, e)
try:
    random.lognormvariate(1000, 0)
except OverflowError as e:
    print(e)
try:
    random.expovariate()
except TypeError as e:
    print(e)
"""


def test_more_of_randoms_draws_are_cpythons() -> None:
    # `expovariate`, `triangular`, `lognormvariate`, `paretovariate`, `weibullvariate`, on
    # the module and on an instance, were missing attributes: CPython's numbers and errors,
    # each one draw of `random()` (or `gauss`), no loop.
    from tests.engine.random_programs import compare

    assert compare(RANDOM_DRAWS) is None


def test_a_sort_that_lists_no_node_is_wrong_and_says_no_rule_runs() -> None:
    # The stack-based sort with its `topo.append(node)` left out: backward() seeds the
    # output and runs no rule. The sort frame said "Depth-first sort: 406 nodes, each
    # after its children" and the check's sort row was right, every gradient below the
    # loss 0 where a right engine's is not.
    source = (REAL_CODE / "iterative_stack_topo_mlp.py").read_text()
    kept = "                topo.append(node)\n                continue\n"
    assert kept in source
    source = source.replace(kept, "                continue\n")
    _, numbers, outputs = run_in_cpython_with_passes(source)
    trace = traced(trace_source, source, "packed", ROOMY)
    assert [one["data"] for one in trace["passes"]] == pytest.approx(numbers, rel=1e-9)
    leaves = [(float(n["data"]), float(n["grad"])) for n in trace["nodes"] if n["kind"] == "leaf"]
    assert_leaves_among(sorted(leaves), leaves_of(outputs))
    assert {grad for _, grad in leaves} == {0.0}
    check = trace["engine_check"]
    assert check["sort"]["verdict"] == W
    first = check["sort"]["first"]
    frame = trace["frames"][first["frame"]]
    assert frame["phase"] == "sort" and frame["pass"] == 0
    node = next(n for n in trace["nodes"] if n["id"] == first["node"])
    assert node["kind"] == "op" and first["consumer"] is None
    assert frame["text"] == (
        f"loss.backward() never runs {node['name']}'s rule (406 nodes reach loss): nothing is "
        f"passed on from {node['name']}. Seed loss.grad = 1. It runs no node's rule at all: "
        "every gradient below loss stays as it was."
    )
    assert not [f for f in trace["frames"] if f["phase"] == "backward"]
    assert {row["verdict"] for row in check["rules"]} == {U}
    assert any(n["correct_grad"] != 0 for n in trace["nodes"] if n["kind"] == "leaf")


ARGPARSE = """import argparse

parser = argparse.ArgumentParser(prog="train", description="a tiny MLP")
parser.add_argument("data", nargs="?", default="moons.csv")
parser.add_argument("--epochs", "-e", type=int, default=20, help="how many")
parser.add_argument("--lr", type=float, default="0.05")
parser.add_argument("--hidden", type=int, nargs="+", default=[8, 8])
parser.add_argument("--act", choices=["relu", "tanh"], default="tanh")
parser.add_argument("--verbose", "-v", action="count", default=0)
parser.add_argument("--no-bias", dest="bias", action="store_false")
parser.add_argument("--tag", action="append")
parser.add_argument("--seed", type=int)
parser.set_defaults(optimizer="sgd")
print(parser.parse_args([]))
print(parser.parse_args(["xor.csv", "--epochs", "5", "--lr=0.1", "--hidden", "4", "2", "-vv"]))
args = parser.parse_args(
    ["--act", "relu", "--no-bias", "--tag", "a", "--tag", "b", "--ep", "7", "-e", "-3"]
)
print(args, vars(args)["bias"], "epochs" in args, args == argparse.Namespace(**vars(args)))
ns, rest = parser.parse_known_args(["--seed", "1", "--other", "x"])
print(ns.seed, rest, parser.get_default("lr"), type(parser.parse_args([]).lr).__name__)
for bad in (["--epochs", "x"], ["--act", "sigmoid"], ["--hidden"], ["a", "b"], ["--lr"]):
    try:
        parser.parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)
req = argparse.ArgumentParser(prog="req")
req.add_argument("name")
req.add_argument("--k", required=True)
try:
    req.parse_args([])
except SystemExit as e:
    print("exit", e.code)
print(req.parse_args(["n", "--k", "3"]))
"""


def test_argparse_parses_as_cpython_and_fails_as_it_does() -> None:
    # `import argparse` was "not available". Every line CPython writes, stderr's usage
    # (wrapped as CPython wraps it) and `prog: error: ...` too, in its order.
    from tests.engine.cpython import printed_lines, run_in_cpython_with_stderr

    source = ARGPARSE + "from micrograd.engine import Value\nv = Value(1.0)\nv.backward()\n"
    assert printed_lines(trace_source(source)) == run_in_cpython_with_stderr(source)
    # An uncaught error of the command line is CPython's SystemExit: 2, at the call.
    bad = "import argparse\np = argparse.ArgumentParser(prog='t')\np.add_argument('n')\n"
    bad += "p.parse_args([])\n"
    with pytest.raises(EngineError, match="SystemExit: 2") as caught:
        trace_source(bad)
    assert caught.value.line == 4


def test_argparse_is_bounded_as_the_program_is() -> None:
    # Its parsing is the program's own steps: a huge command line stops at the bound.
    source = (
        "import argparse\np = argparse.ArgumentParser()\np.add_argument('--tag', action='append')\n"
        "p.parse_args(['--tag', 'x'] * 200_000)\n"
    )
    with pytest.raises(EngineError, match=r"BACKPROP_MAX_STEPS|BACKPROP_TRACE_TIME_LIMIT"):
        trace_source(source, limits=Limits(max_steps=50_000, time_limit=30.0))
