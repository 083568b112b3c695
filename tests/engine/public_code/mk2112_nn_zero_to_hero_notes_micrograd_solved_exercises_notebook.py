from math import sin, cos, exp, log

def f(a, b, c):
  return -a**3 + sin(3*b) - 1.0/c + b**2.5 - a**0.5  # assuming c != 0, a >= 0

print(f(2, 3, 4))

def gradf(a, b, c):
  df_da = -3*a**2 - 0.5*a**(-0.5)
  df_db = 3*cos(3*b) + 2.5*b**1.5
  df_dc = 1.0/c**2
  return [df_da, df_db, df_dc] # returns [df/da, df/db, df/dc]

# Expected answer is the list of
ans = [-12.353553390593273, 10.25699027111255, 0.0625]
yours = gradf(2, 3, 4)
for dim in range(3):
  ok = 'OK' if abs(yours[dim] - ans[dim]) < 1e-5 else 'WRONG!'
  print(f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {yours[dim]}")

# We discussed the approximation of the derivative/gradient as being:
# ~f'(x) = (f(x + h) - f(x)) / h
# This can be written into a lambda expression and applied to each dimension of the function

df_approx = lambda f, x, h: (f(x + h) - f(x)) / h

# Step size, i.e. the difference between x and x + h 
# -> the smaller the more precise approximation (until numerical imprecisions hit that is)
h = 1e-6

df_a = df_approx(lambda a: f(a, 3, 4), 2, h)
df_b = df_approx(lambda b: f(2, b, 4), 3, h)
df_c = df_approx(lambda c: f(2, 3, c), 4, h)

# -----------
numerical_grad = [df_a, df_b, df_c]
# -----------

for dim in range(3):
  ok = 'OK' if abs(numerical_grad[dim] - ans[dim]) < 1e-5 else 'WRONG!'
  print(f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {numerical_grad[dim]}")

df_approx = lambda f, x, h: (f(x+h) - f(x-h)) / (2*h)

df_da = df_approx(lambda a: f(a, 3, 4), 2, 1e-5)
df_db = df_approx(lambda b: f(2, b, 4), 3, 1e-5)
df_dc = df_approx(lambda c: f(2, 3, c), 4, 1e-5)

# -----------
numerical_grad2 = [df_da, df_db, df_dc]
# -----------

for dim in range(3):
  ok = 'OK' if abs(numerical_grad2[dim] - ans[dim]) < 1e-5 else 'WRONG!'
  print(f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {numerical_grad2[dim]}")

# Value class starter code, with many functions taken out
class Value:

  def __init__(self, data, _children=(), _op='', label=''):
    self.data = data
    self.grad = 0.0
    self._backward = lambda: None
    self._prev = set(_children)
    self._op = _op
    self.label = label

  def __repr__(self):
    return f"Value(data={self.data})"

  def __add__(self, other): # exactly as in the video
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data + other.data, (self, other), '+')

    def _backward():
      # Gradient 'Splitter'
      self.grad += 1.0 * out.grad
      other.grad += 1.0 * out.grad
    out._backward = _backward

    return out

  # ------
  # re-implement all the other functions needed for the exercises below
  # TODO: Your code here

  def exp(self):
    # Applying exp creates a child/result Value
    out = Value(exp(self.data), (self, ), 'exp')
    # out.data is self's gradient, as exp(x) means e^x -> gradient is e^x = out.data
    # out.grad is the gradient accumulated from earlier operations with out
    # out.data * out.grad is added as the accumulated gradient scaled by the self's gradient (chain rule)
    def _backward(): self.grad += out.data * out.grad
    out._backward = _backward
    return out

  def __radd__(self, other):
    # Just reverse the other + self notion
    return self + other

  def __truediv__(self, other):
    return self * other**-1

  def __pow__(self, other): # self ** other
    assert isinstance(other, (int, float)), "only supporting int/float powers (for now)"
    out = Value(self.data ** other, (self,), f'**{other}')
    def _backward(): self.grad += other * (self.data ** (other - 1)) * out.grad
    out._backward = _backward
    return out
  
  def __mul__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data * other.data, (self, other), '*')
    def _backward():
      self.grad += out.grad * other.data
      other.grad += out.grad * self.data
    out._backward = _backward
    return out
  
  def log(self):
    if self.data <= 0:
      raise ValueError("Cannot calculate log for non-positive Value")
    out = Value(log(self.data), (self,), 'log')
    def _backward(): self.grad += (1 / self.data) * out.grad
    out._backward = _backward
    return out

  def __neg__(self):
    return -1 * self

  def __rmul__(self, other):
    return self * other

  # ------

  def backward(self): 
    # exactly as in video
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
loss = -probs[3].log() # dim 3 acts as the label for this input example
loss.backward()
print(loss.data, '\n')
loss_approx = loss.data

ans = [0.041772570515350445, 0.8390245074625319, 0.005653302662216329, -0.8864503806400986]
for dim in range(4):
  ok = 'OK' if abs(logits[dim].grad - ans[dim]) < 1e-5 else 'WRONG!'
  print(f"{ok} for dim {dim}: expected {ans[dim]}, yours returns {logits[dim].grad}")
