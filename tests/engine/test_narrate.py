"""The frames' text (engine.trace.narrate): short sentences, whatever the labels."""

from __future__ import annotations

import json

import pytest

from backprop_animator.engine import program_examples, trace_source, trace_value
from backprop_animator.engine.trace.narrate import MAX_LABEL_IN_TEXT
from backprop_animator.engine.trace.sentences import operand
from tests.engine.cpython import printed_lines, run_in_cpython


def test_a_long_label_is_cut_in_the_text_and_to_100_characters_on_its_node() -> None:
    label = "L" * 5_000
    source = f"a = Value(1.0, label='{label}')\nc = a\n" + "c = c + a\n" * 50

    trace = trace_source(source)

    assert any(node["label"] == "L" * 99 + "…" for node in trace["nodes"])  # SPEC §11
    assert all(len(frame["text"]) < 20 * MAX_LABEL_IN_TEXT for frame in trace["frames"])
    assert "L" * (MAX_LABEL_IN_TEXT - 1) + "…" in trace["frames"][-1]["text"]
    # One copy in nodes[] and the source echo, not one per frame that mentions it.
    assert len(json.dumps(trace)) < 3 * len(label) + 100_000


def test_ordinals_past_twenty_read_21st_22nd_23rd_and_the_teens_th() -> None:
    from backprop_animator.engine.trace.narrate import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
        "101st", "111th", "112th",
    ]  # fmt: skip


def test_the_22nd_contribution_into_a_node_is_called_22nd() -> None:
    source = "a = Value(1.0)\nc = a\n" + "c = c + a\n" * 22
    texts = " ".join(frame["text"] for frame in trace_source(source)["frames"])
    assert "22nd +=" in texts and "21st +=" in texts and "23rd +=" in texts
    assert "22th" not in texts


def test_a_label_beginning_with_the_still_lets_parents_be_named_after_it() -> None:
    trace = trace_source("a = Value(2.0, label='the input')\nb = a * 3")
    assert trace["frames"][0]["text"].startswith("b = the input*3 = 2 × 3 = 6")


# Names: the engine gives every node the name its texts use (`nodes[].name`); the page
# has no naming of its own.


def names_of(source: str) -> list[str]:
    return [node["name"] for node in trace_source(source)["nodes"]]


RUNNING_SUM = """
w = Value(0.5)
loss = Value(0.0)
for x, y in [(1.0, 2.0), (2.0, 3.0)]:
    d = w * x - y
    loss = loss + d * d
loss.backward()
print(loss.data, w.grad)
"""

# The same with a class of the program's own (SPEC §14), its rules written as micrograd's.
OWN_RUNNING_SUM = """
class V:
    def __init__(self, data, _children=(), _op=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = tuple(_children)
        self._op = _op

    def __add__(self, other):
        out = V(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, V) else V(other)
        out = V(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
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
""" + RUNNING_SUM.replace("Value(", "V(").replace("w * x - y", "w * x + V(-y)")


@pytest.mark.parametrize("source", [RUNNING_SUM, OWN_RUNNING_SUM], ids=["built-in", "own"])
def test_a_running_sum_kept_in_one_variable_is_loss_only_at_its_last_sum(source: str) -> None:
    # `loss = loss + d*d` moves the name on to each new sum: the sum before it and the
    # leaf it started from were `loss` too, so that `loss`'s rule read `loss.grad += 1`.
    trace = trace_source(source)
    assert printed_lines(trace) == run_in_cpython(source)
    nodes = {node["id"]: node for node in trace["nodes"]}
    named = {node["name"]: node for node in trace["nodes"]}
    assert named["loss"]["id"] == trace["passes"][0]["output"]
    assert named["0+d*d"]["label"] == named["0"]["label"] == "loss"  # (the label stays)
    texts = {frame["node"]: frame["text"] for frame in trace["frames"] if frame["phase"] == "build"}
    assert texts[named["loss"]["id"]].startswith("loss = 0+d*d+d*d = 2.25 + 4 = 6.25")
    assert texts[named["0+d*d"]["id"]].startswith("0+d*d = 0 + 2.25 = 2.25")
    rules = [frame["text"] for frame in trace["frames"] if frame["phase"] == "backward"]
    assert rules[0].startswith("loss (+, grad 1)")
    assert "(0+d*d).grad += 1 × 1 → 1; (d*d).grad += 1 × 1 → 1." in rules[0]
    assert "loss.grad" not in " ".join(rules)
    assert "(0).grad += 1 × 1 → 1" in " ".join(rules)
    for node in trace["nodes"]:  # no node is called as one of its operands is
        operands = {nodes[e["source"]]["name"] for e in trace["edges"] if e["target"] == node["id"]}
        assert node["name"] not in operands, node


def test_unlabelled_nodes_are_named_by_the_expression_that_made_them() -> None:
    trace = trace_source(
        "x1 = 2.0\nx2 = 0.0\nw1 = -3.0\nw2 = 1.0\nb = 6.8813735870195432\n"
        "o = tanh(x1*w1 + x2*w2 + b)\n",
        "expanded",
    )
    names = [node["name"] for node in trace["nodes"]]
    assert {"x1*w1", "x1*w1+x2*w2", "2*(x1*w1+x2*w2+b)", "e", "den**-1", "2", "−1"} <= set(names)
    nodes = {node["id"]: node for node in trace["nodes"]}
    for frame in trace["frames"]:
        if frame["phase"] == "build":
            assert frame["text"].startswith(nodes[frame["node"]]["name"] + " = ")


def test_names_read_as_the_program_wrote_them_where_the_engine_built_them_otherwise() -> None:
    """Issue 23 (5): micrograd makes `a - b` as `a + b*(-1)`, `a / b` as `a * b**-1` and
    `2*a` as `a*2`; the names say what the learner wrote."""
    source = "a = Value(3.0, label='a')\nb = Value(2.0, label='b')\n"
    cases = {
        "a - b": "a-b",
        "a - 1": "a-1",
        "-a": "-a",
        "a / b": "a/b",
        "(a + b) / (a * b)": "(a+b)/(a*b)",
        "a - (a + b)": "a-(a+b)",
        "2 * a": "2*a",
        "a * 2": "a*2",
        "2 * a.tanh()": "2*tanh(a)",
        "a + -2": "a-2",
    }
    for written, name in cases.items():
        assert name in names_of(source + f"z = ({written}) * b"), written
    frames = trace_source(source + "z = (2 * a) * b\n")["frames"]
    assert frames[0]["text"] == "2*a = 2 × 3 = 6"


def test_a_product_with_minus_one_is_no_negation() -> None:
    names = names_of("a = Value(3.0, label='a')\nb = Value(2.0, label='b')\nz = (a * -1) * b\n")
    assert "a*−1" in names and "-a" not in names


def test_inside_a_neuron_a_long_path_is_called_by_its_last_step() -> None:
    """Issue 23 (2): `wi*xi` of layers[0].neurons[0] reads w[0]*2, not `the * node`."""
    source = (
        "class Neuron:\n    def __init__(self):\n"
        "        self.w = [Value(0.5), Value(-0.25)]\n        self.b = Value(0.0)\n"
        "    def __call__(self, x):\n"
        "        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)\n"
        "        return act.tanh()\n"
        "class Layer:\n    def __init__(self):\n        self.neurons = [Neuron()]\n"
        "layers = [Layer()]\n"
        "out = layers[0].neurons[0]([2.0, 3.0])\nout.backward()\n"
    )
    trace = trace_source(source)
    names = [node["name"] for node in trace["nodes"]]
    assert {"w[0]*2", "b+w[0]*2", "w[1]*3", "act"} <= set(names)
    text = next(f["text"] for f in trace["frames"] if f["text"].startswith("w[0]*2 = "))
    assert "layers[0].neurons[0].w[0]*2" in text  # the whole path, once


def test_last_steps_never_merge_two_owners_or_cut_a_key_and_a_kept_value_keeps_its_name() -> None:
    kept = "xs = [Value(-3.0)]\na = Value(1.0, label='a')\nz = (a + xs[0]) * a\nz.backward()\n"
    assert "a+xs[0]" in names_of(kept)  # not a-3: xs[0] is a parameter, not a constant
    keys = (
        "ps = {'layer.1': Value(2.0), 'layer.2': Value(3.0)}\n"
        "z = ps['layer.1'] * ps['layer.2'] + 1\nz.backward()\n"
    )
    assert not any("']" in name and "[" not in name for name in names_of(keys))
    owners = (
        "class E:\n    def __init__(s):\n        s.w = [Value(2.0)]\n"
        "class M:\n    def __init__(s):\n        s.encoder = E()\n        s.decoder = E()\n"
        "k = [M()]\nz = (k[0].encoder.w[0] * k[0].decoder.w[0] + 1) * 2\nz.backward()\n"
    )
    assert "w[0]*w[0]" not in names_of(owners)


def test_a_real_program_names_a_product_as_written_too() -> None:
    source = (
        "class M:\n    def __init__(self):\n        self.w = Value(2.0)\n"
        "    def __call__(self, x):\n        return 0.5 * self.w - x\n"
        "m = M()\ny = m(3.0)\ny.backward()\n"
    )
    assert "0.5*w" in names_of(source)


def test_names_bracket_by_precedence_and_a_powers_base_at_equal_precedence() -> None:
    source = "a = Value(1.0)\nb = Value(2.0)\nc = Value(3.0)\n"
    assert names_of(source + "(a + b) * c")[-1] == "(a+b)*c"
    assert names_of(source + "c * (a + b)")[-1] == "c*(a+b)"
    assert names_of(source + "c + (a + b)")[-1] == "c+(a+b)"
    assert names_of(source + "((a + b) * c)**2")[-1] == "((a+b)*c)**2"
    assert names_of(source + "(a**2)**2")[-2:] == ["a**2", "(a**2)**2"]
    assert names_of(source + "tanh(exp(a))")[-1] == "tanh(exp(a))"


def test_a_name_too_long_to_derive_becomes_the_op_node_and_so_do_its_users() -> None:
    source = "alpha_long = 1.0\nbeta_long = 2.0\ngamma_long = 3.0\n"
    names = names_of(source + "(alpha_long + beta_long) * (gamma_long + alpha_long)")
    assert names[-3:] == ["alpha_long+beta_long", "gamma_long+alpha_long", "the * node"]
    names = names_of(source + "(alpha_long + beta_long + gamma_long) * alpha_long")
    assert names[-3:] == ["alpha_long+beta_long", "alpha_long+…+gamma_long", "the * node"]


def test_a_long_running_sum_is_named_by_its_first_and_last_terms() -> None:
    # Issue 23, 2: a neuron's partial sums read apart by the term each adds, never
    # "the + node"; kept operands by their last step, as the neuron's code writes them.
    source = (
        "class Neuron:\n    def __init__(self):\n"
        "        self.w = [Value(0.1 * k) for k in range(5)]\n        self.b = Value(0.5)\n"
        "    def __call__(self, x):\n"
        "        return sum((wi*xi for wi, xi in zip(self.w, x)), self.b)\n"
        "n = Neuron()\nz = n([1.0, 2.0, 3.0, 4.0, 5.0]) * 2\nz.backward()\n"
    )
    names = names_of(source)
    sums = [name for name in names if name.startswith("b+")]
    assert sums[2:] == ["b+w[0]*1+w[1]*2+w[2]*3", "b+…+w[3]*4", "b+…+w[4]*5"], names
    build = next(
        f["text"] for f in trace_source(source)["frames"] if f["text"].startswith("b+…+w[4]*5")
    )
    assert build.startswith("b+…+w[4]*5 = b+…+w[3]*4+w[4]*5 = "), build  # the sum, term by term
    assert not any("the + node" in f["text"] for f in trace_source(source)["frames"])
    short = "a = Value(1.0)\nb = Value(2.0)\nc = Value(3.0)\n"
    assert names_of(short + "a + b + c + a")[-1] == "a+b+c+a"  # short enough: written out
    assert names_of(short + "a*a*a*a*a + b*b*b*b*b + c*c*c*c*c - 1")[-1] == "a*a*a*a*a+…-1"


def test_a_long_sum_s_ends_never_merge_two_owners_or_hide_a_kept_value() -> None:
    # Review of issue 23, 2: two objects' w[0] never read as one; a kept bias of -0.5 is
    # `b`, not its number; a subtraction at the end is written as one.
    two = (
        "class P:\n    def __init__(self):\n        self.w = [Value(1.0), Value(2.0)]\n"
        "aaaa = P()\nbbbb = P()\nx = Value(3.0, label='x')\n"
        "y = (aaaa.w[0]*aaaa.w[1] + x+x+x+x + bbbb.w[0]*bbbb.w[1]) * 2\n"
    )
    names = names_of(two)
    assert "w[0]*w[1]+…+w[0]*w[1]" not in names and "the + node" in names, names
    neuron = (
        "class N:\n    def __init__(self):\n"
        "        self.w = [Value(0.1), Value(0.2), Value(0.3)]\n        self.b = Value(-0.5)\n"
        "n = N()\nz = (n.w[0]*1.0 + n.w[1]*2.0 + n.w[2]*3.0 + n.w[0]*4.0 + n.b) * 2\n"
    )
    assert "w[0]*1+…+b" in names_of(neuron)
    source = "alpha_long = 1.0\nbeta_long = 2.0\ngamma_long = 3.0\n"
    minus = names_of(source + "(alpha_long + beta_long + gamma_long - beta_long) * 2")
    assert "alpha_long+…-beta_long" in minus, minus


def test_a_long_chain_of_sums_is_named_from_what_the_sum_before_it_found() -> None:
    # Each partial sum takes the chain's first term and length from the sum before it
    # (a walk back from every sum made a 6,000-term `sum(xs)` take 4 s to name).
    from backprop_animator.engine.trace.narrate import Names
    from backprop_animator.engine.value import Value

    first = Value(0.0)
    total = first
    chain = []
    for i in range(1, 6000):
        total = total + Value(float(i))
        chain.append(total)
    names = Names()
    for node in chain:
        names(node)
    assert names(total) == "0+…+5999"
    assert all(names._chains[node] == (first, k + 2) for k, node in enumerate(chain))
    # Cold, from the end: one loop down the chain, no recursion, every sum remembered.
    cold = Names()
    assert cold._chain_start(total) == (first, 6000)
    assert len(cold._chains) == len(chain)


def test_a_real_program_names_a_parameter_by_where_it_keeps_it() -> None:
    # Issue 23, 2: not by its data, which changes from pass to pass.
    trace = trace_source(
        "ps = [Value(0.5)]\nx = Value(3.0, label='x')\nfor i in range(2):\n"
        "    loss = (ps[0]*x - 1)**2\n    ps[0].grad = 0.0\n    loss.backward()\n"
        "    ps[0].data -= 0.1 * ps[0].grad\n"
    )
    assert trace["schema"] == 2
    p = trace["nodes"][0]
    assert (p["label"], p["name"]) == ("", "ps[0]")
    assert [run["names"] for run in trace["passes"]] == [{}, {}]
    first = next(f for f in trace["frames"] if f["phase"] == "build")
    assert first["text"].startswith("ps[0]*x = ")


def test_a_network_s_parameters_are_named_by_their_path_below_the_model() -> None:
    trace = trace_source(program_examples.MLP_TRAINING)
    names = {n["name"] for n in trace["nodes"] if n["kind"] == "leaf"}
    assert "layers[0].neurons[1].w[2]" in names and "layers[1].neurons[0].b" in names
    texts = " ".join(f["text"] for f in trace["frames"] if f["phase"] == "backward")
    assert "layers[0].neurons[0].w[0] is a leaf" in texts


def test_a_path_through_an_object_wins_over_a_loop_s_variable() -> None:
    source = (
        "class Box:\n    def __init__(self):\n        self.w = Value(2.0)\n"
        "box = Box()\nfor p in [box.w]:\n    pass\ny = p * p\ny.backward()\n"
    )
    trace = trace_source(source)
    assert trace["nodes"][0]["name"] == "w"  # box.w, its variable left out; not `p`
    two = source.replace("box = Box()\n", "box = Box()\nother = Box()\n").replace(
        "y = p * p", "y = p * other.w"
    )
    names = [n["name"] for n in trace_source(two)["nodes"]]
    assert names[:2] == ["box.w", "other.w"]  # two roots: each keeps its variable


def test_a_foreign_graph_gets_names_too() -> None:
    class Node:
        def __init__(self, data: float, children: tuple[Node, ...] = (), op: str = "") -> None:
            self.data, self.grad, self._prev, self._op = data, 0.0, set(children), op
            self.label = ""
            self._backward = lambda: None

    a = Node(2.0)
    a.label = "a"
    out = Node(4.0, (a,), "square")

    def _backward() -> None:
        a.grad += 2 * a.data * out.grad

    out._backward = _backward
    trace = trace_value(out)
    assert [node["name"] for node in trace["nodes"]] == ["a", "square(a)"]
    assert trace["ops"] == {}  # not one of ours: the page draws it by its own name


def test_the_precedences_every_trace_shares_are_bounded_and_of_short_ops_only() -> None:
    """`Names` remembers each op's precedence in a table every trace shares (a pass's
    `Names` is new each pass): a program may make an op of any string, so only short
    ones are kept, and only `MAX_PRECEDENCES` of them; the names stay the same past it."""
    from backprop_animator.engine import Value
    from backprop_animator.engine.trace import narrate

    a, b = Value(1.0, label="a"), Value(2.0, label="b")
    long_op = "op" + "x" * (narrate.MAX_KEPT_OP + 10)
    nodes = [Value(3.0, (a, b), f"own{i}") for i in range(narrate.MAX_PRECEDENCES + 50)]
    nodes.append(Value(3.0, (a, b), long_op))
    for node in nodes:
        assert narrate.Names()(node) == narrate.Names()(node)  # the same, remembered or not
    assert len(narrate._PRECEDENCES) <= narrate.MAX_PRECEDENCES
    assert long_op not in narrate._PRECEDENCES
    assert narrate._PRECEDENCES.get("+", narrate._op_precedence("+")) == narrate._op_precedence("+")


def test_an_op_of_constants_is_said_once_not_as_its_name_again() -> None:
    # `exp(0) = exp(0) = 1` (`2**3 = 2**3 = 8`, `ReLU(−2) = ReLU(−2) = 0` in learners'
    # test files): a node named by its operands' numbers is the very text they work out
    # to; said once, by the engine and by the page (`built_bare`, `columns.js`).
    from backprop_animator.engine import trace_columns
    from backprop_animator.engine.trace.sentences import SENTENCES

    source = "def f():\n    return Value(0.0).exp() * 3 + Value(2.0) ** 3\ny = f()\ny.backward()\n"
    texts = [frame["text"] for frame in trace_source(source)["frames"]]
    assert texts[:4] == [
        "exp(0) = 1", "exp(0)*3 = 1 × 3 = 3", "2**3 = 8", "y = exp(0)*3+2**3 = 3 + 8 = 11"
    ]  # fmt: skip
    assert SENTENCES["built_bare"] == "{own} = {data}"
    columns = trace_columns(source)
    assert "exp(0) = exp(0)" not in json.dumps(columns, ensure_ascii=False)


def test_a_first_add_onto_a_gradient_left_from_the_last_pass_says_what_it_held() -> None:
    # Two backward() calls, no zero_grad: pass 2's first += into a.grad finds pass 1's −2
    # there. "a.grad += 1 × 1 → −1" would not add up; the text says the sum.
    from backprop_animator.engine import trace_columns

    source = "a = Value(2.0)\nb = Value(-3.0)\nc = a*b + a\nc.backward()\nc.backward()\n"
    frames = trace_source(source)["frames"]
    second = [f["text"] for f in frames if f.get("pass") == 1 and f["phase"] == "backward"]
    assert "a.grad += 1 × 1; it held −2 already, sum −2 + 1 = −1" in second[0], second[0]
    # a*b held pass 1's 1 too, so its rule passes on 2: a.grad ends −7, as CPython's.
    assert "a.grad += −3 × 2; 2nd +=, sum −1 + −6 = −7" in second[1], second[1]
    assert "b.grad += 2 × 2; it held 2 already, sum 2 + 4 = 6" in second[1]
    # Pass 1 starts from zero: no "held".
    first = [f["text"] for f in frames if f.get("pass") == 0 and f["phase"] == "backward"]
    assert not any("held" in text for text in first)
    # The page writes these texts itself, from the sentence the columns carry
    # (tests/app/test_columns.py decodes them into the same words).
    assert "it held {before} already" in trace_columns(source)["sentences"]["held_add"]


def test_a_learners_own_minus_rule_onto_a_held_gradient_says_the_difference() -> None:
    source = (
        "class V:\n"
        "    def __init__(self, d, ch=()):\n"
        "        self.data = d\n        self.grad = 0.0\n        self._prev = ch\n"
        "        self._backward = lambda: None\n"
        "    def __sub__(self, o):\n"
        "        out = V(self.data - o.data, (self, o))\n"
        "        def _backward():\n"
        "            self.grad += out.grad\n"
        "            o.grad -= out.grad\n"
        "        out._backward = _backward\n"
        "        return out\n"
        "    def backward(self):\n"
        "        self.grad = 1.0\n        self._backward()\n"
        "a = V(2.0)\nb = V(3.0)\nc = a - b\nc.backward()\nc.backward()\n"
    )
    rules = [f["text"] for f in trace_source(source)["frames"] if f["phase"] == "backward"]
    assert rules[0].endswith("a.grad += 1 × 1 → 1; b.grad -= 1 × 1 → −1.")
    assert rules[1].endswith(
        "a.grad += 1 × 1; it held 1 already, sum 1 + 1 = 2; "
        "b.grad -= 1 × 1; it held −1 already, sum −1 − 1 = −2."
    )


@pytest.mark.parametrize(
    ("name", "written"),
    [
        # The same cases as tests/js/rule-text.test.mjs's test of the page's `operand`.
        ("x1", "x1"),
        ("layers[0].neurons[1].w[2]", "layers[0].neurons[1].w[2]"),
        ("w[i+1]", "w[i+1]"),
        ("αβ", "αβ"),
        ("x1*w1", "(x1*w1)"),
        ("\u22121", "(\u22121)"),
        ("2", "(2)"),
        ("the * node", "(the * node)"),
        ("tanh(n)", "(tanh(n))"),
        ("n.w[0]*x[0]", "(n.w[0]*x[0])"),
        ("b+\u2026+w[2]*3", "(b+\u2026+w[2]*3)"),
    ],
)
def test_a_name_before_grad_is_bracketed_unless_it_is_one_operand(name: str, written: str) -> None:
    assert operand(name) == written


def test_an_expression_s_gradient_is_written_with_brackets_in_every_text() -> None:
    # `x1*w1+x2*w2.grad` read as w2's gradient: the rule's text and the sort's seed
    # bracket a name that is not one operand, as the code panel and the quiz do.
    trace = trace_source("a = Value(2.0)\nb = Value(-3.0)\n(a*b + a).backward()\n")
    texts = [frame["text"] for frame in trace["frames"]]
    assert "Seed (a*b+a).grad = 1" in texts[2]
    assert "(a*b).grad += 1 × 1 → 1; a.grad += 1 × 1 → 1." in texts[3]
