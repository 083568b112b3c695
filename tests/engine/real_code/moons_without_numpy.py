"""micrograd's demo as people redo it without numpy or sklearn: two interleaving half
moons made by hand with math.cos/math.sin and random.gauss noise, micrograd's own MLP,
the max-margin loss with L2 regularisation, a decaying learning rate, accuracy."""

import math
import random

from micrograd.engine import Value
from micrograd.nn import MLP


def make_moons(n_samples=16, noise=0.1):
    n_out = n_samples // 2
    n_in = n_samples - n_out
    X, y = [], []
    for i in range(n_out):
        t = math.pi * i / (n_out - 1)
        X.append([math.cos(t) + random.gauss(0, noise), math.sin(t) + random.gauss(0, noise)])
        y.append(-1)
    for i in range(n_in):
        t = math.pi * i / (n_in - 1)
        X.append([1 - math.cos(t) + random.gauss(0, noise), 0.5 - math.sin(t) + random.gauss(0, noise)])
        y.append(1)
    order = list(range(n_samples))
    random.shuffle(order)
    return [X[i] for i in order], [y[i] for i in order]


random.seed(1337)
X, y = make_moons()
model = MLP(2, [4, 1])
print(model)
print("number of parameters", len(model.parameters()))


def loss():
    inputs = [list(map(Value, xrow)) for xrow in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    alpha = 1e-4
    reg_loss = alpha * sum((p * p for p in model.parameters()))
    total_loss = data_loss + reg_loss
    accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(y, scores)]
    return total_loss, sum(accuracy) / len(accuracy)


for k in range(10):
    total_loss, acc = loss()
    model.zero_grad()
    total_loss.backward()
    learning_rate = 1.0 - 0.9 * k / 10
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    print(f"step {k} loss {total_loss.data:.6f}, accuracy {acc * 100:.1f}%")
