"""Reverse mode with a tape of node objects, the way automatic-differentiation blog posts
build it step by step: every node adds itself to one tape when it is made, keeps its
operands as `left` and `right`, its value as `output` and its adjoint as `gradient`, and
has its own forward() and backward(). The tape runs the forward pass in the order the
nodes were made and the backward pass in reverse, after seeding the last node."""

import math


class Tape:
    def __init__(self):
        self.nodes = []

    def add(self, node):
        self.nodes.append(node)

    def forward(self):
        for node in self.nodes:
            node.forward()
        return self.nodes[-1].output

    def backward(self):
        for node in self.nodes:
            node.gradient = 0.0
        self.nodes[-1].gradient = 1.0
        for node in reversed(self.nodes):
            node.backward()


tape = Tape()


class Node:
    def __init__(self):
        self.output = 0.0
        self.gradient = 0.0
        tape.add(self)


class Variable(Node):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self):
        self.output = self.value

    def backward(self):
        pass


class Multiply(Node):
    def __init__(self, left, right):
        super().__init__()
        self.left = left
        self.right = right

    def forward(self):
        self.output = self.left.output * self.right.output

    def backward(self):
        self.left.gradient += self.right.output * self.gradient
        self.right.gradient += self.left.output * self.gradient


class Add(Node):
    def __init__(self, left, right):
        super().__init__()
        self.left = left
        self.right = right

    def forward(self):
        self.output = self.left.output + self.right.output

    def backward(self):
        self.left.gradient += self.gradient
        self.right.gradient += self.gradient


class Sin(Node):
    def __init__(self, arg):
        super().__init__()
        self.arg = arg

    def forward(self):
        self.output = math.sin(self.arg.output)

    def backward(self):
        self.arg.gradient += math.cos(self.arg.output) * self.gradient


# f(x1, x2) = x1 * x2 + sin(x1)
x1 = Variable(2.0)
x2 = Variable(5.0)
v3 = Multiply(x1, x2)
v4 = Sin(x1)
y = Add(v3, v4)
print("y =", tape.forward())
tape.backward()
print("dy/dx1 =", x1.gradient, "=", x2.output + math.cos(x1.output))
print("dy/dx2 =", x2.gradient, "=", x1.output)

# The same tape, run again at another point.
x1.value = 0.5
print("y =", tape.forward())
tape.backward()
print("dy/dx1 =", x1.gradient, "dy/dx2 =", x2.gradient)
