"""`engine.value`: what each primitive and composite builds, its rule, and the sort."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from backprop_animator.engine.value import Value, topological_order


def is_constant(node: Value, data: float) -> bool:
    return node._const and not node._prev and node.data == data


# Composites build only primitives (SPEC §2).


def test_subtracting_a_number_builds_one_constant_minus_one_and_one_add() -> None:
    e = Value(2.0)
    out = e - 1
    assert out._op == "+"
    left, right = out._prev
    assert left is e
    assert is_constant(right, -1.0)


def test_subtracting_a_value_adds_its_negation() -> None:
    a, b = Value(5.0), Value(3.0)
    out = a - b
    assert out._op == "+"
    left, negated = out._prev
    assert left is a
    assert negated._op == "*"
    assert negated._prev[0] is b
    assert is_constant(negated._prev[1], -1.0)
    assert out.data == 2.0


def test_number_minus_value_is_value_times_minus_one_plus_the_number() -> None:
    x = Value(4.0)
    out = 1 - x
    assert out._op == "+"
    product, one = out._prev
    assert product._op == "*"
    assert product._prev[0] is x
    assert is_constant(product._prev[1], -1.0)
    assert is_constant(one, 1.0)
    assert out.data == -3.0


def test_number_over_value_is_value_to_the_minus_one_times_the_number() -> None:
    x = Value(4.0)
    out = 1 / x
    assert out._op == "*"
    power, one = out._prev
    assert power._op == "**-1"
    assert power._prev == (x,)
    assert is_constant(one, 1.0)
    assert out.data == 0.25


def test_negation_is_times_minus_one() -> None:
    v = Value(2.5)
    out = -v
    assert out._op == "*"
    assert out._prev[0] is v
    assert is_constant(out._prev[1], -1.0)


def test_division_of_values_is_times_the_power_minus_one() -> None:
    a, b = Value(6.0), Value(4.0)
    out = a / b
    assert out._op == "*"
    left, power = out._prev
    assert left is a
    assert power._op == "**-1"
    assert power._prev == (b,)


@pytest.mark.parametrize(
    ("build", "op"),
    [
        (lambda x: 2 * x, "*"),
        (lambda x: 2 + x, "+"),
        (lambda x: x * 2, "*"),
        (lambda x: x + 2, "+"),
    ],
    ids=["2*x", "2+x", "x*2", "x+2"],
)
def test_a_plain_number_becomes_one_constant_leaf_beside_the_value(
    build: Callable[[Value], Value], op: str
) -> None:
    x = Value(3.0)
    out = build(x)
    assert out._op == op
    assert out._prev[0] is x
    assert is_constant(out._prev[1], 2.0)


def test_a_value_built_directly_is_a_leaf_not_a_constant() -> None:
    leaf = Value(1.0, label="w")
    assert not leaf._const
    assert leaf._prev == ()
    assert leaf._op == ""


def test_power_refuses_a_value_exponent() -> None:
    with pytest.raises(TypeError, match="plain number"):
        Value(2.0) ** Value(2.0)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("exponent", "op"), [(2, "**2"), (2.0, "**2"), (-1, "**-1"), (0.5, "**0.5"), (-1.5, "**-1.5")]
)
def test_power_op_names_its_exponent(exponent: float, op: str) -> None:
    assert (Value(4.0) ** exponent)._op == op


# Each primitive's rule, against the derivative worked by hand.


@pytest.mark.parametrize(
    ("apply", "derivative"),
    [
        (lambda x: x.tanh(), lambda x: 1 - math.tanh(x) ** 2),
        (lambda x: x.exp(), math.exp),
        (lambda x: x.relu(), lambda x: 1.0 if x > 0 else 0.0),
        (lambda x: x.log(), lambda x: 1 / x),
        (lambda x: x.sigmoid(), lambda x: math.exp(-x) / (1 + math.exp(-x)) ** 2),
        (lambda x: x**3, lambda x: 3 * x**2),
        (lambda x: x**-1, lambda x: -1 / x**2),
        (lambda x: x**0.5, lambda x: 0.5 / math.sqrt(x)),
    ],
    ids=["tanh", "exp", "relu", "log", "sigmoid", "cube", "reciprocal", "sqrt"],
)
@pytest.mark.parametrize("x", [0.3, 1.7])
def test_each_primitive_passes_back_its_local_derivative(
    apply: Callable[[Value], Value], derivative: Callable[[float], float], x: float
) -> None:
    leaf = Value(x)
    out = apply(leaf)
    out.backward()
    assert leaf.grad == pytest.approx(derivative(x), rel=1e-12)


def test_relu_passes_nothing_back_below_zero() -> None:
    x = Value(-0.5)
    out = x.relu()
    out.backward()
    assert (out.data, x.grad) == (0.0, 0.0)


def test_sigmoid_does_not_overflow_far_from_zero() -> None:
    assert Value(-1000.0).sigmoid().data == 0.0
    assert Value(1000.0).sigmoid().data == 1.0


def test_tanh_does_not_overflow_for_large_inputs() -> None:
    assert Value(1000.0).tanh().data == 1.0


def test_product_rule_uses_the_other_factor() -> None:
    a, b = Value(2.0), Value(-3.0)
    (a * b).backward()
    assert (a.grad, b.grad) == (-3.0, 2.0)


def test_division_gradients_are_one_over_b_and_minus_a_over_b_squared() -> None:
    a, b = Value(6.0), Value(4.0)
    (a / b).backward()
    assert a.grad == pytest.approx(1 / 4)
    assert b.grad == pytest.approx(-6 / 16)


def test_using_a_value_twice_accumulates_its_gradient() -> None:
    a = Value(3.0)
    b = a + a
    b.backward()
    assert a.grad == 2.0


def test_a_second_backward_accumulates_like_micrograd() -> None:
    a = Value(3.0)
    b = a * a
    b.backward()
    b.backward()
    assert a.grad == 12.0  # 2 * (2a), grads are never zeroed automatically


def test_tanh_from_primitives_matches_packed_tanh() -> None:
    from backprop_animator.engine.value import tanh_from_primitives

    packed, expanded = Value(0.7), Value(0.7)
    out_packed, out_expanded = packed.tanh(), tanh_from_primitives(expanded)
    out_packed.backward()
    out_expanded.backward()
    assert out_expanded.data == pytest.approx(out_packed.data, rel=1e-14)
    assert expanded.grad == pytest.approx(packed.grad, rel=1e-12)


def test_sigmoid_from_primitives_matches_packed_sigmoid() -> None:
    from backprop_animator.engine.value import sigmoid_from_primitives

    packed, expanded = Value(-1.3), Value(-1.3)
    out_packed, out_expanded = packed.sigmoid(), sigmoid_from_primitives(expanded)
    out_packed.backward()
    out_expanded.backward()
    assert out_expanded.data == pytest.approx(out_packed.data, rel=1e-14)
    assert expanded.grad == pytest.approx(packed.grad, rel=1e-12)


# The sort.


def recursive_topological_order(root: Value) -> list[Value]:
    """The article's recursive `build`: children in `_prev` order, then the node."""
    topo: list[Value] = []
    visited: set[Value] = set()

    def build(v: Value) -> None:
        if v not in visited:
            visited.add(v)
            for child in v._prev:
                build(child)
            topo.append(v)

    build(root)
    return topo


def random_graph(seed: int) -> Value:
    """A graph with shared subexpressions, repeated operands and unused nodes."""
    rng = random.Random(seed)
    nodes = [Value(rng.uniform(0.5, 2.0)) for _ in range(rng.randint(1, 5))]
    for _ in range(rng.randint(1, 60)):
        kind = rng.choice(["+", "*", "-", "/", "tanh", "exp", "pow", "reuse"])
        a, b = rng.choice(nodes), rng.choice(nodes)
        if kind == "+":
            nodes.append(a + b)
        elif kind == "*":
            nodes.append(a * b)
        elif kind == "-":
            nodes.append(a - b)
        elif kind == "/":
            nodes.append(a / (b.exp()))
        elif kind == "tanh":
            nodes.append(a.tanh())
        elif kind == "exp":
            nodes.append(a.tanh().exp())
        elif kind == "pow":
            nodes.append(a.tanh() ** 2)
        else:
            nodes.append(a + a)
    return rng.choice(nodes[-10:])


@pytest.mark.parametrize("seed", range(40))
def test_iterative_sort_equals_the_recursive_post_order(seed: int) -> None:
    root = random_graph(seed)
    assert topological_order(root) == recursive_topological_order(root)


def test_sort_puts_every_child_before_its_parents() -> None:
    root = random_graph(1234)
    position = {node: i for i, node in enumerate(topological_order(root))}
    for node in position:
        for child in node._prev:
            assert position[child] < position[node]


def test_sort_of_a_leaf_is_the_leaf() -> None:
    leaf = Value(1.0)
    assert topological_order(leaf) == [leaf]


def test_a_hundred_thousand_deep_chain_sorts_and_runs_backward() -> None:
    x = Value(0.5)
    y = x
    for _ in range(100_000):
        y = y * 1.0  # each step adds a * node and its constant
    topo = topological_order(y)
    assert len(topo) == 1 + 2 * 100_000
    assert topo[0] is x
    assert topo[-1] is y
    y.backward()
    assert x.grad == 1.0
    assert y.data == 0.5


@pytest.mark.parametrize("k", [0, 0.0, -0.0])
def test_the_zeroth_power_of_zero_has_derivative_zero(k: float) -> None:
    x = Value(0.0)
    y = x**k
    y.backward()
    assert (y.data, x.grad) == (1.0, 0.0)
