"""Programs that teach: the article's neuron (packed and expanded) and a few more.

Each is a plain source string the interpreter runs; `tests/engine/test_examples.py`
traces every one, and the golden traces in `tests/engine/golden/` pin the article's.
"""

from __future__ import annotations

from dataclasses import dataclass

from backprop_animator.engine import program_examples as programs


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    description: str
    source: str
    granularity: str = "packed"
    # Options the example is meant with (the bug lab, the sort step by step, the
    # gradient check); None means off, and the API leaves them out.
    mistake: str | None = None
    sort_steps: bool | None = None
    gradcheck: bool | None = None


NEURON = """\
# One tanh neuron with two inputs, as in the article.
x1 = 2.0
x2 = 0.0
w1 = -3.0
w2 = 1.0
b = 6.8813735870195432  # chosen so that n = 0.8814 and o = sqrt(2)/2
o = tanh(x1*w1 + x2*w2 + b)
"""

TRAIN_STEP = """\
w = Value(0.5, label='w')
x, y = 2.0, 3.0
lr = 0.05
for step in range(4):
    loss = (w * x - y) ** 2
    loss.label = 'loss'
    w.grad = 0.0  # zero_grad
    loss.backward()
    w.data -= lr * w.grad
    print(step, loss.data)
"""

EXAMPLES = [
    Example(
        "neuron",
        "A tanh neuron",
        "Five leaves, four operations, one tanh: 16 frames. "
        "The gradient of w2 is 0 because its input x2 is 0.",
        NEURON,
    ),
    Example(
        "neuron-expanded",
        "The same neuron, tanh taken apart",
        "tanh built from exp, +, * and **-1. The node e feeds both num and den, "
        "so two rules add into e.grad; the leaf gradients do not change.",
        NEURON,
        "expanded",
    ),
    Example(
        "a-plus-a",
        "Why gradients accumulate",
        "b = a + a uses a twice, so the + rule adds into a.grad twice: 1 + 1 = 2.",
        "a = Value(3.0)\nb = a + a\nb.backward()\n",
    ),
    Example(
        "train-step",
        "Training: forward, zero_grad, backward, update",
        "Four steps of gradient descent on one weight; the loss chart shows the loss falling.",
        TRAIN_STEP,
    ),
    Example(
        "micrograd-style",
        "Pasted micrograd code",
        "Value(...), labels, .tanh() and .backward() written the micrograd way; "
        "imports and draw_dot are accepted and do nothing.",
        """\
from micrograd.engine import Value

a = Value(1.5, label='a')
w = Value(-0.5, label='w')
c = Value(0.25, label='c')
aw = a * w; aw.label = 'a*w'
z = aw + c; z.label = 'z'
y = z.tanh(); y.label = 'y'
y.backward()
draw_dot(y)
""",
    ),
    Example(
        "fork",
        "One input, three paths",
        "x is used three times, so three contributions add up in x.grad: "
        "the multivariable chain rule, one += at a time.",
        "x = 3.0\ny = x*x + x\n",
    ),
    Example(
        "relu",
        "A ReLU that is off",
        "The pre-activation is negative, so relu passes back a gradient of 0 "
        "and nothing below it learns from this example.",
        "x = 1.0\nw = -2.0\nb = 0.5\nh = relu(w*x + b)\n",
    ),
    Example(
        "division",
        "Division is a power and a product",
        "a / b builds b**-1 and a product; there is no division node.",
        "a = 6.0\nb = 4.0\nq = a / b\n",
    ),
    Example(
        "logistic-loss",
        "Logistic regression loss",
        "The loss -log(sigmoid(w*x + b)) for one positive example.",
        "x = 2.0\nw = 0.5\nb = -1.5\nloss = -log(sigmoid(w*x + b))\n",
    ),
    Example(
        "gradcheck",
        "Checking a gradient with differences",
        "f(x) = 3x² − 4x + 5 at x = 3: the analytic slope is 14, the forward difference "
        "with h = 0.001 gives 14.003. Sweep h down to 1e-14 and the error falls, then "
        "rises again as floating point eats the digits.",
        "x = Value(3.0)\nf = 3*x**2 - 4*x + 5\n",
        gradcheck=True,
    ),
    Example(
        "sort-steps",
        "The sort, one call at a time",
        "The depth-first sort as the recursive build(v) makes its calls: x is reached "
        "three times, visited once and skipped twice; each node is appended after its "
        "children.",
        "x = 3.0\ny = x*x + x\n",
        sort_steps=True,
    ),
    Example(
        "mistake-assign",
        "Bug lab: = instead of +=",
        "Every rule writes child.grad = … instead of adding. a + a then gives a.grad = 1, "
        "not 2: the second write overwrote the first.",
        "a = Value(3.0)\nb = a + a\nb.backward()\n",
        mistake="assign",
    ),
    Example(
        "mistake-append-first",
        "Bug lab: append before the children",
        "The sort appends each node before visiting its children, so backward runs every "
        "rule before its gradient has arrived: all the neuron's leaf gradients stay 0.",
        NEURON,
        mistake="append-first",
    ),
    Example(
        "mistake-no-sort",
        "Bug lab: no sort at all",
        "Backward walks depth-first from the output, running each rule when it first gets "
        "there. The fork at e passes on 0.1464 before the −0.1036 from den arrives.",
        NEURON,
        "expanded",
        mistake="no-sort",
    ),
    Example(
        "sigmoid-expanded",
        "sigmoid from primitives",
        "1 / (1 + exp(-x)) built from primitives; at x = -1000 the exp would overflow.",
        "x = 0.5\ny = sigmoid(x)\n",
        "expanded",
    ),
]

# Real programs (SPEC §11): several passes, training, a learner's own engine.
EXAMPLES += [
    Example(
        "forgot-zero-grad",
        "Two backward() calls, no zero_grad",
        "Gradients are never cleared: the second pass adds on top of the first, and the "
        "intermediate a*b accumulates too, so a.grad ends at -7, not -4.",
        programs.FORGOT_ZERO_GRAD,
    ),
    Example(
        "zero-grad",
        "The same two passes, with zero_grad",
        "Every gradient is set to 0 between the passes (one update frame), so the second "
        "pass gives a.grad = -2 again.",
        programs.WITH_ZERO_GRAD,
    ),
    Example(
        "mlp-training",
        "An MLP learning, nn.py style",
        "Neuron, Layer and MLP classes as in micrograd's nn.py, trained for 5 steps: "
        "forward, zero_grad, backward, update. Each neuron's nodes share a group.",
        programs.MLP_TRAINING,
    ),
    Example(
        "own-engine",
        "A complete engine as a program",
        "The article's whole approach as code you can edit: a Value class with a set of "
        "children, _backward closures and a recursive topological sort. The player "
        "watches this class's own rules run.",
        programs.OWN_ENGINE,
    ),
    Example(
        "own-engine-bug-assign",
        "Your engine: = instead of +=",
        "The whole engine with every rule writing child.grad = … . a and c are used "
        "twice, so each keeps only its last share; Check your engine finds the frame "
        "where the first share is lost.",
        programs.BUGGY_ASSIGN,
    ),
    Example(
        "own-engine-bug-append-first",
        "Your engine: append before the children",
        "The sort appends a node before visiting its children, so the rules run from "
        "the leaves up: every gradient below e stays 0.",
        programs.BUGGY_APPEND_FIRST,
    ),
    Example(
        "own-engine-bug-no-sort",
        "Your engine: no topological sort",
        "backward runs each rule as a depth-first walk reaches it: c's rule runs once "
        "for each path to it, and a and b get its share twice.",
        programs.BUGGY_NO_SORT,
    ),
    Example(
        "own-engine-bug-derivative",
        "Your engine: a wrong derivative",
        "tanh's rule multiplies by 1 − x² of its input instead of 1 − t² of its output: "
        "every gradient below o is off, and the check names the tanh rule.",
        programs.BUGGY_DERIVATIVE,
    ),
]
