import math

class Scalar:
    def __init__(self, item, prev=(), op='', grad=0) -> None:
        self.item = item
        self.grad = grad
        self._prev = set(prev)
        self._op = op
        self._backward = lambda: None

    def relu(self) -> 'Scalar':
        out = Scalar(max(0, self.item), (self,), op='relu')

        def _backward():
            self.grad += out.grad * (1.0 if self.item > 0 else 0.0)

        out._backward = _backward
        return out
    
    def tanh(self) -> 'Scalar':
        out = Scalar(math.tanh(self.item), (self,), op='tanh')

        def _backward():
            self.grad += out.grad * (1.0 - out.item ** 2)

        out._backward = _backward
        return out

    def __add__(self, other) -> 'Scalar':
        assert isinstance(other, (int, float, Scalar)), "Scalar must be a number"
        other = Scalar(other) if not isinstance(other, Scalar) else other
        out = Scalar(self.item + other.item, (self, other), op='+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other) -> 'Scalar':
        assert isinstance(other, (int, float, Scalar)), "Scalar must be a number"
        other = Scalar(other) if not isinstance(other, Scalar) else other
        out = Scalar(self.item + other.item, (self, other), op='+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    def __mul__(self, other) -> 'Scalar':
        assert isinstance(other, (int, float, Scalar)), "Scalar must be a number"
        other = Scalar(other) if not isinstance(other, Scalar) else other
        out = Scalar(self.item * other.item, (self, other), op='*')

        def _backward():
            self.grad += out.grad * other.item
            other.grad += out.grad * self.item

        out._backward = _backward
        return out

    def __rmul__(self, other) -> 'Scalar':
        assert isinstance(other, (int, float, Scalar)), "Scalar must be a number"
        other = Scalar(other) if not isinstance(other, Scalar) else other
        out = Scalar(self.item * other.item, (self, other), op='*')

        def _backward():
            self.grad += out.grad * other.item
            other.grad += out.grad * self.item

        out._backward = _backward
        return out
    
    def __pow__(self, power) -> 'Scalar':
        assert isinstance(power, (int, float)), "Power must be a int/float"
        out = Scalar(self.item ** power, (self, ), op='**')

        def _backward():
            self.grad += out.grad * power * (self.item ** (power - 1))

        out._backward = _backward
        return out
    
    def __neg__(self) -> 'Scalar':
        out = self * -(1.0)
        return out

    def __sub__(self, other) -> 'Scalar':
        return self + -other
    
    def __truediv__(self, other) -> 'Scalar':
        return self * other ** (-1)

    def __rtruediv__(self, other) -> 'Scalar':
        return other * self ** (-1)

    def backward(self):
        topo = []
        visited = set()
        
        def dfs(v):
            if v not in visited:
                visited.add(v)
                for u in v._prev:
                    dfs(u)
                topo.append(v)
        
        dfs(self)
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

    def __repr__(self) -> str:
        return f"Scalar{self.item, self.grad}"

import random
from abc import ABC, abstractmethod

class Module(ABC):
    @abstractmethod
    def __init__(self) -> None:
        pass

    @abstractmethod
    def forward(self, x) -> list[Scalar]:
        pass

    def __call__(self, x) -> list[Scalar]:
        return self.forward(x)

    def zero_grad(self) -> None:
        for p in self.parameters:
            p.grad = 0

    @property
    def parameters(self) -> list[Scalar]:
        return []


class Neuron(Module):
    def __init__(self, input_size) -> None:
        super().__init__()
        self.w = [Scalar(random.uniform(-1, 1)) for _ in range(input_size)]
        self.b = Scalar(0)
    
    @property
    def parameters(self) -> list[Scalar]:
        return self.w + [self.b]

    def forward(self, x) -> list[Scalar]:
        out: Scalar = sum((x_i * w_i for x_i, w_i in zip(x, self.w)), self.b)
        return [out]
    
    def __repr__(self) -> str:
        return f"Neuron(w={self.w[:3]}{'...' if len(self.w) > 3 else ''}, b={self.b})"


class Layer(Module):
    def __init__(self, input_size, output_size) -> None:
        super().__init__()
        self.neurons: list[Neuron] = [Neuron(input_size) for _ in range(output_size)]

    @property
    def parameters(self) -> list[Scalar]:
        return [param for neuron in self.neurons for param in neuron.parameters]

    def forward(self, x) -> list[Scalar]:
        return [neuron(x)[0] for neuron in self.neurons]
    
    def __len__(self) -> int:
        return len(self.neurons)

    def __repr__(self) -> str:
        out = f"Layer("
        out += "\n".join(repr(neuron) for neuron in self.neurons[:5])
        if len(self.neurons) > 5:
            out += "\n..."
        out += ")"
        return out


class Sequential(Module):
    def __init__(self, *args: Module) -> None:
        super().__init__()
        self.modules = args

    @property
    def parameters(self) -> list[Scalar]:
        return [p for module in self.modules for p in module.parameters]

    def forward(self, x) -> list[Scalar]:
        for module in self.modules:
            x = module(x)
        return x
    
    def __repr__(self) -> str:
        out = f"Sequential("
        for module in self.modules:
            out += repr(module)
            if isinstance(module, Layer):
                out += f'\nNeurons: {len(module)}'
            out += '\n\n'
        out += ")"
        return out
    
class Tanh(Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x) -> list[Scalar]:
        return [xi.tanh() for xi in x]

    def __repr__(self) -> str:
        return "Tanh()"
    

class ReLU(Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x) -> list[Scalar]:
        return [xi.relu() for xi in x]

    def __repr__(self) -> str:
        return "ReLU()"

def test_sanity_check():
    x = Scalar(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xmg, ymg = x, y

    print('Good')

def test_more_ops():
    a = Scalar(-4.0)
    b = Scalar(2.0)
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    amg, bmg, gmg = a, b, g

    print('Good')

test_sanity_check()
test_more_ops()
