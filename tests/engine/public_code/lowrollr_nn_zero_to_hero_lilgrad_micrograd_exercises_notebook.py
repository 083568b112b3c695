import functools
import math

class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    # we can use a decorator function to convert operation inputs to Value objects
    # which makes the code a bit cleaner
    def input_to_value():
        def decorator(f):
            @functools.wraps(f)
            def wrapped_input_to_value(s, o, *args):
                o = o if isinstance(o, Value) else Value(o)
                return f(s, o, *args)
            return wrapped_input_to_value
        return decorator
    
    # we can also use a decorator to set out._backward
    def set_out_backward():
        def decorator(f):
            @functools.wraps(f)
            def wrapped_set_out_backward(*args):
                out, back = f(*args)
                out._backward = back
                return out
            return wrapped_set_out_backward
        return decorator


    def __repr__(self):
        return f"Value(data={self.data})"

    @input_to_value()
    @set_out_backward()
    def __add__(self, other):  # exactly as in the video
        out = Value(self.data + other.data, (self, other), _op='+')

        def _backward():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        
        return out, _backward
    
    # ------
    # re-implement all the other functions needed for the exercises below
    # your code here

    @input_to_value()
    @set_out_backward()
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other), _op='*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        
        return out, _backward

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)
    

    @set_out_backward()
    def __pow__(self, other):
        out = Value(self.data ** other, (self,), _op='**')
        
        def _backward():
            self.grad += (other * (self.data ** (other - 1))) * out.grad

        return out, _backward
    
    @set_out_backward()
    def exp(self):
        out = Value(math.exp(self.data), (self,), _op='exp')

        def _backward():
            self.grad += (out.data) * out.grad

        return out, _backward
    
    def __truediv__(self, other):
        return self * (other ** -1)

    @set_out_backward()
    def log(self):
        out = Value(math.log(self.data), (self,), _op='log')

        def _backward():
            self.grad += (1 / self.data) * out.grad

        return out, _backward
    
    @set_out_backward()
    def sin(self):
        out = Value(math.sin(self.data), (self,), _op='sin')
        
        def _backward():
            self.grad += (math.cos(self.data)) * out.grad
        
        return out, _backward

    @set_out_backward()
    def cos(self):
        out = Value(math.cos(self.data), (self,), _op='cos')
        
        def _backward():
            self.grad += (-math.sin(self.data)) * out.grad
        
        return out, _backward
    
    @set_out_backward()
    def tan(self):
        out = Value(math.tan(self.data), (self,), _op='tan')

        def _backward():
            self.grad += (1 / (math.cos(self.data) ** 2)) * out.grad
        
        return out, _backward
    
    @set_out_backward()
    def sinh(self):
        out = Value(math.sinh(self.data), (self,), _op='sinh')

        def _backward():
            self.grad += (math.cosh(self.data)) * out.grad
        
        return out, _backward
    

    @set_out_backward()
    def cosh(self):
        out = Value(math.cosh(self.data), (self,), _op='cosh')

        def _backward():
            self.grad += (math.sinh(self.data)) * out.grad
        
        return out, _backward

    @set_out_backward()
    def tanh(self):
        out = Value(math.tanh(self.data), (self,), _op='tanh')

        def _backward():
            self.grad += (1 / (math.cosh(self.data) ** 2)) * out.grad
        
        return out, _backward

    @set_out_backward()
    def relu(self):
        out = Value(max(0, self.data), (self,), _op='relu')
        
        def _backward():
            self.grad += out.grad if out.data > 0 else 0

        return out, _backward

    def sigmoid(self):
        return 1 / (1 + (-self).exp())

    # -----
    # Reverse Methods:
    # (need to convert other here to prevent infinite recursion)
    @input_to_value()
    def __radd__(self, other):
        return other + self
    @input_to_value()
    def __rsub__(self, other):
        return other - self
    @input_to_value()
    def __rmul__(self, other):
        return other * self
    @input_to_value()
    def __rtruediv__(self, other):
        return other / self
    # -----

    # -----
    # Named Methods:
    def add(self, other):
        return self + other
    def sub(self, other):
        return self - other
    def mul(self, other):
        return self * other
    def div(self, other):
        return self / other
    def pow(self, other):
        return self ** other
    # -----
    

    def backward(self):  # exactly as in video
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)

        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

# here is a mathematical expression that takes 3 inputs and produces one output
from math import sin, cos


def f(a, b, c):
    return -a**3 + sin(3*b) - 1.0/c + b**2.5 - a**0.5


print(f(2, 3, 4))

# write the function df that returns the analytical gradient of f
# i.e. use your skills from calculus to take the derivative, then implement the formula
# if you do not calculus then feel free to ask wolframalpha, e.g.:
# https://www.wolframalpha.com/input?i=d%2Fda%28sin%283*a%29%29%29

def gradf(a, b, c):
    # todo, return [df/da, df/db, df/dc]
    return [(-3*a**2 - 0.5*a**-0.5), (3*cos(3*b) + 2.5*b**1.5), (c**-2)]


# expected answer is the list of
ans = [-12.353553390593273, 10.25699027111255, 0.0625]
yours = gradf(2, 3, 4)
for dim in range(3):
    ok = 'OK' if abs(yours[dim] - ans[dim]) < 1e-5 else 'WRONG!'
    print(f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {yours[dim]}")

# now estimate the gradient numerically without any calculus, using
# the approximation we used in the video.
# you should not call the function df from the last cell

# -----------
a, b, c = 2.0, 3.0, 4.0
h = 1e-6
da = (f(a+h, b, c) - f(a, b, c)) / h
db = (f(a, b+h, c) - f(a, b, c)) / h
dc = (f(a, b, c+h) - f(a, b, c)) / h
numerical_grad = [da, db, dc]  # TODO
# -----------

for dim in range(3):
    ok = 'OK' if abs(numerical_grad[dim] - ans[dim]) < 1e-5 else 'WRONG!'
    print(
        f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {numerical_grad[dim]}")

# there is an alternative formula that provides a much better numerical
# approximation to the derivative of a function.
# learn about it here: https://en.wikipedia.org/wiki/Symmetric_derivative
# implement it. confirm that for the same step size h this version gives a
# better approximation.

# -----------
a, b, c = 2.0, 3.0, 4.0
h = 1e-6
da = (f(a+h, b, c) - f(a-h, b, c)) / (2*h)
db = (f(a, b+h, c) - f(a, b-h, c)) / (2*h)
dc = (f(a, b, c+h) - f(a, b, c-h)) / (2*h)
numerical_grad2 = [da, db, dc]  # TODO
# -----------

for dim in range(3):
    ok = 'OK' if abs(numerical_grad2[dim] - ans[dim]) < 1e-5 else 'WRONG!'
    print(f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {numerical_grad2[dim]}")

# Value class starter code, with many functions taken out
# from math import exp, log

# class Value:

#   def __init__(self, data, _children=(), _op='', label=''):
#     self.data = data
#     self.grad = 0.0
#     self._backward = lambda: None
#     self._prev = set(_children)
#     self._op = _op
#     self.label = label

#   def __repr__(self):
#     return f"Value(data={self.data})"

#   def __add__(self, other): # exactly as in the video
#     other = other if isinstance(other, Value) else Value(other)
#     out = Value(self.data + other.data, (self, other), '+')

#     def _backward():
#       self.grad += 1.0 * out.grad
#       other.grad += 1.0 * out.grad
#     out._backward = _backward

#     return out

#   # ------
#   # re-implement all the other functions needed for the exercises below
#   # your code here
#   # TODO
#   # ------

#   def backward(self): # exactly as in video
#     topo = []
#     visited = set()
#     def build_topo(v):
#       if v not in visited:
#         visited.add(v)
#         for child in v._prev:
#           build_topo(child)
#         topo.append(v)
#     build_topo(self)

#     self.grad = 1.0
#     for node in reversed(topo):
#       node._backward()

# without referencing our code/video __too__ much, make this cell work
# you'll have to implement (in some cases re-implemented) a number of functions
# of the Value object, similar to what we've seen in the video.
# instead of the squared error loss this implements the negative log likelihood
# loss, which is very often used in classification.

# this is the softmax function
# https://en.wikipedia.org/wiki/Softmax_function
def softmax(logits):
    counts = [logit.exp() for logit in logits]
    denominator = sum(counts)
    out = [c / denominator for c in counts]
    return out


# this is the negative log likelihood loss function, pervasive in classification
logits = [Value(0.0), Value(3.0), Value(-2.0), Value(1.0)]
probs = softmax(logits)
loss = -probs[3].log()  # dim 3 acts as the label for this input example
loss.backward()
print(loss.data)

ans = [0.041772570515350445, 0.8390245074625319,
       0.005653302662216329, -0.8864503806400986]
for dim in range(4):
    ok = 'OK' if abs(logits[dim].grad - ans[dim]) < 1e-5 else 'WRONG!'
    print(
        f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {logits[dim].grad}")
