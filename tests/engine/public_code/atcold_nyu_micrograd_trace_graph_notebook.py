
class Value:
    """ stores a single scalar value and its gradient """

    def __init__(self, data, _children=(), _op='', label='', color=None):
        self.data = data
        self.grad = 0
        # internal variables used for autograd graph construction
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op # the op that produced this node, for graphviz / debugging / etc
        self.label = label
        self.color = color

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward

        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '×')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'^{other}')

        def _backward():
            self.grad += (other * self.data**(other-1)) * out.grad
        out._backward = _backward

        return out

    def relu(self):
        out = Value(0 if self.data < 0 else self.data, (self,), '(⋅)⁺')

        def _backward():
            self.grad += (out.data > 0) * out.grad
        out._backward = _backward

        return out

    def backward(self):

        # topological order all of the children in the graph
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        # go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self): # -self
        return self * -1

    def __radd__(self, other): # other + self
        return self + other

    def __sub__(self, other): # self - other
        return self + (-other)

    def __rsub__(self, other): # other - self
        return other + (-self)

    def __rmul__(self, other): # other * self
        return self * other

    def __truediv__(self, other): # self / other
        return self * other**-1

    def __rtruediv__(self, other): # other / self
        return other * self**-1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

# a very simple example
x = Value(1.0, label='x')
y = (x * 2 + 1).relu(); y.label = 'y'
y.backward()

# Leaves
x1  = Value(+1, label='x1')
x2  = Value(+0, label='x2')
w11 = Value(-2, label='w11')
w12 = Value(+4, label='w12')
w21 = Value(+3, label='w21')
w22 = Value(-1, label='w22')
w1  = Value(-1, label='w1')
w2  = Value(1/12,label='w2')
y   = Value(+1, label='y')

# s = W @ x
w11x1 = w11 * x1; w11x1.label = 'w11x1'
w12x2 = w12 * x2; w12x2.label = 'w12x2'
s1 = w11x1 + w12x2; s1.label = 's1'
w21x1 = w21 * x1; w21x1.label = 'w21x1'
w22x2 = w22 * x2; w22x2.label = 'w22x2'
s2 = w21x1 + w22x2; s2.label = 's2'

# h = (s)+
h1 = s1.relu(); h1.label = 'h1'
h2 = s2.relu(); h2.label = 'h2'

# y~ = wTh
w1h1 = w1 * h1; w1h1.label = 'w1h1'
w2h2 = w2 * h2; w2h2.label = 'w2h2'
ytld = w1h1 + w2h2; ytld.label = 'ytld'

# C = (y - ytld)^2
_ytld = -ytld; _ytld.label = '−ytld'
C = (y + _ytld)**2; C.label = 'C'; C.color = 'red'

C.backward()
