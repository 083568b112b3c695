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


def symmetric_derivative(f, args, argno, h=1e-7):
    orginal_value = args[argno]
    args[argno] += h
    l1 = f(*args)
    args[argno] -= (2 * h)
    l2 = f(*args)
    args[argno] = orginal_value
    return (l1 - l2) / (2 * h)


def all_derivatives(f, args, h=1e-7):
    return [symmetric_derivative(f, args, i, h) for i in range(len(args))]
        

import math

def compare_results(l1, l2, acceptable_error):
    return [abs(v1 - v2) < acceptable_error for (v1, v2) in zip(l1, l2)], l1, l2

def check_grad(f, a, b=None, acceptable_error=1e-5, conv_b_to_value=True):
    v1 = Value(a)

    if b is not None:
        if conv_b_to_value:
            v2 = Value(b)
            v3 = f(v1, v2)
    
            c_approx = all_derivatives(f, [a,b])
            v3.backward()
            c = [v1.grad, v2.grad]
        else:
            v2 = b
            v3 = f(v1, v2)
            c_approx = [all_derivatives(f, [a,b])[0]]
            v3.backward()
            c = [v1.grad]

    else:
        v2 = f(v1)
        c_approx = all_derivatives(f, [a])
        v2.backward()
        c = [v1.grad]
    
    return compare_results(c, c_approx, acceptable_error)
    

check_grad(lambda a, b: a * b, 50, 23)

check_grad(lambda a, b: a**b, 2, 2, conv_b_to_value=False)

check_grad(lambda a: a.exp() if isinstance(a, Value) else math.exp(a), 3)

check_grad(lambda a, b: a / b, 289, 49)

check_grad(lambda a: a.log() if isinstance(a, Value) else math.log(a), 3)

check_grad(lambda a: a.sin() if isinstance(a, Value) else math.sin(a), 3)

check_grad(lambda a: a.cos() if isinstance(a, Value) else math.cos(a), 3)

check_grad(lambda a: a.tan() if isinstance(a, Value) else math.tan(a), 3)

check_grad(lambda a: a.sinh() if isinstance(a, Value) else math.sinh(a), 3)

check_grad(lambda a: a.cosh() if isinstance(a, Value) else math.cosh(a), 3)

check_grad(lambda a: a.tanh() if isinstance(a, Value) else math.tanh(a), 3)

def sigmoid(x):
    1 / (1 + math.exp(-x))

check_grad(lambda a: a.sigmoid() if isinstance(a, Value) else 1 / (1 + math.exp(-a)), 3)

check_grad(lambda a: a.relu() if isinstance(a, Value) else max(a, 0), 3)

def more_complicated_fn(a, b):
    return 3 + a.pow(b).sigmoid().relu().exp().sin()

def more_complicated_fn_math(a, b):
    return 3 + math.sin(math.exp(max(0, 1 / (1 + math.exp(-a**b)))))


check_grad(lambda a, b: more_complicated_fn(a, b) if isinstance(a, Value) else more_complicated_fn_math(a, b), 3, 2, conv_b_to_value=False)
