import math

class Value:
    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0          # Initially, gradient is zero
        self._backward = lambda: None # Function to propagate gradient backward
        self._prev = set(_children)   # Keep track of input nodes (for the graph)
        self._op = _op           # The operation that produced this node
        self.label = label       # Optional name for debugging

    def __repr__(self):
        return f"Value(data={self.data:.4f}, grad={self.grad:.4f})"

    # --- Operations ---
    
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            # Gradient of addition is 1.0 * upstream
            # f = a + b  -> df/da = 1, df/db = 1
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            # Gradient of mult is the other value * upstream
            # f = a * b -> df/da = b, df/db = a
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    # Support for the power operator (**) needed for x^-1\n
    def __pow__(self, other):
        assert isinstance(other, (int, float)), "Only supporting int/float powers for now"
        out = Value(self.data ** other, (self,), f'**{other}')

        def _backward():
            # f = x^n -> df/dx = n * x^(n-1)
            self.grad += other * (self.data ** (other - 1)) * out.grad
        out._backward = _backward
        return out

    # Re-using __mul__ for negation (-1 * self)
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def sigmoid(self):
        x = self.data
        t = 1 / (1 + math.exp(-x))
        out = Value(t, (self,), 'sigmoid')

        def _backward():
            # d(sigmoid)/dx = sigmoid * (1 - sigmoid)
            local_grad = t * (1 - t)
            self.grad += local_grad * out.grad
        out._backward = _backward
        return out
    
    def exp(self):
        x = self.data
        out = Value(math.exp(x), (self,), 'exp')
        
        def _backward():
            # d(e^x)/dx = e^x
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        # Topological sort to ensure we backprop in the correct order
        topo = []
        visited = set()
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        
        # Initialize gradient of the final output (loss) to 1.0
        self.grad = 1.0
        for node in reversed(topo):
            node._backward()

# 1. Initialize Inputs
w0 = Value(2.0, label='w0'); x0 = Value(-1.0, label='x0')
w1 = Value(-3.0, label='w1'); x1 = Value(-2.0, label='x1')
w2 = Value(-3.0, label='w2')

# 2. Forward Pass (Building the Graph)
# Operations mimic the slide flow:
dot1 = w0 * x0; dot1.label = 'w0*x0'
dot2 = w1 * x1; dot2.label = 'w1*x1'

sum1 = dot1 + dot2; sum1.label = 'sum_dots'
sum2 = sum1 + w2;   sum2.label = 'sum_bias'

# Slide implements sigmoid manually as: 1 / (1 + exp(-x))
# We will do the same to match the slide's step-by-step derivative
neg_z = -sum2;          neg_z.label = '-z'
exp_z = neg_z.exp();    exp_z.label = 'exp(-z)'
den = exp_z + 1.0;      den.label = '1 + exp(-z)'
out = den**-1;          out.label = '1/x' 
# Note: Our Value class needs __pow__ for den**-1. 
# Let's add a quick power helper just for this demo:
def power(self, other):
    out = Value(self.data**other, (self,), f'**{other}')
    def _backward():
        self.grad += (other * self.data**(other-1)) * out.grad
    out._backward = _backward
    return out
Value.__pow__ = power

# Rerun the final step with the new power method
out = den**-1; out.label = 'output'

print("Forward Pass Complete.")
print("Output:", out.data)

out.backward()

print("Gradients Calculated:")
print(f"w0.grad: {w0.grad} (Slide Expectation: ~ -0.20)")
print(f"x0.grad: {x0.grad} (Slide Expectation: ~ 0.40)")
print(f"w1.grad: {w1.grad} (Slide Expectation: ~ -0.40)")
print(f"x1.grad: {x1.grad} (Slide Expectation: ~ -0.60)")
print(f"w2.grad: {w2.grad} (Slide Expectation: ~ 0.20)")
