"""micrograd's own demo shape: its engine and nn imported, a small MLP trained."""

import random

from micrograd.engine import Value
from micrograd.nn import MLP, Layer, Neuron

random.seed(1337)
model = MLP(2, [8, 8, 1])
print(model)
print(len(model.parameters()), Neuron(3), Layer(2, 2))
X = [[1.0, -0.5], [-1.5, 2.0], [0.3, 0.8], [2.2, -1.0]]
y = [1.0, -1.0, -1.0, 1.0]
for k in range(4):
    scores = [model([Value(a), Value(b)]) for a, b in X]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    total_loss = data_loss + reg_loss
    model.zero_grad()
    total_loss.backward()
    learning_rate = 1.0 - 0.9 * k / 4
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    print(k, total_loss.data)
