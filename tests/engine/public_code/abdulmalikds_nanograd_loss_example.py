import math

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

  def __add__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data + other.data, (self, other), '+')

    def _backward():
      self.grad += 1.0 * out.grad
      other.grad += 1.0 * out.grad
    out._backward = _backward

    return out

  def __mul__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    out = Value(self.data * other.data, (self,other), '*')

    def _backward():
      self.grad += other.data * out.grad
      other.grad += self.data * out.grad
    out._backward = _backward

    return out

  def __rmul__(self, other):
    return self * other

  def __truediv__(self, other):
    return self * other**-1

  def __neg__(self):
    return self * -1

  def __sub__(self, other):
    return self + (-other)

  def __pow__(self, other):
    assert isinstance(other, (int, float)), "only supporting int/float powers for now"
    out = Value(self.data**other, (self,), f'**{other}')

    def _backward():
      self.grad += (other * self.data**(other-1)) * out.grad
    out._backward = _backward

    return out

  def tanh(self):
    x = self.data
    t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1)
    out = Value(t, (self, ), 'tanh')

    def _backward():
      self.grad += (1 - t**2) * out.grad
    out._backward = _backward

    return out

  def exp(self):
    x = self.data
    out = Value(math.exp(x), (self, ), 'exp')

    def _backward():
      self.grad += out.data * out.grad
    out._backward = _backward

    return out

  def log(self):
    x = self.data
    out = Value(math.log(x), (self,), 'log')

    def _backward():
      self.grad += (1.0 / x) * out.grad
    out._backward = _backward

    return out

  def abs(self):
    x = self.data
    out = Value(abs(x), (self,), 'abs')

    def _backward():
      self.grad += (1.0 if x > 0 else -1.0) * out.grad
    out._backward = _backward

    return out

  def relu(self):
    out = Value(max(0, self.data), (self,), 'ReLU')

    def _backward():
      self.grad += (out.data > 0) * out.grad
    out._backward = _backward

    return out

  def sigmoid(self):
    x = self.data
    s = 1 / (1 + math.exp(-x))
    out = Value(s, (self,), 'sigmoid')

    def _backward():
      self.grad += (s * (1 - s)) * out.grad
    out._backward = _backward

    return out

  def leaky_relu(self, alpha=0.01):
    x = self.data
    out = Value(x if x > 0 else alpha * x, (self,), 'LeakyReLU')

    def _backward():
      self.grad += (1.0 if x > 0 else alpha) * out.grad
    out._backward = _backward

    return out

  def backward(self):

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



class Loss:
  
  def __call__(self, y_pred, y_true):
    raise NotImplementedError

class MSELoss(Loss):
  
  def __call__(self, y_pred, y_true):
    if not isinstance(y_pred, list):
      y_pred = [y_pred]
    if not isinstance(y_true, list):
      y_true = [y_true]
    
    losses = [(yp - yt)**2 for yp, yt in zip(y_pred, y_true)]
    total = losses[0]
    for loss in losses[1:]:
      total = total + loss
    return total * (1.0 / len(losses))


class BinaryCrossEntropyLoss(Loss):

  def __call__(self, y_pred, y_true):
    if not isinstance(y_pred, list):
      y_pred = [y_pred]
    if not isinstance(y_true, list):
      y_true = [y_true]
    
    eps = Value(1e-7)  # Small constant to avoid log(0)
    losses = []
    for yp, yt in zip(y_pred, y_true):
      yt = yt if isinstance(yt, Value) else Value(yt)
      # BCE = -[y*log(p) + (1-y)*log(1-p)]
      loss = -(yt * (yp + eps).log() + (Value(1) - yt) * (Value(1) - yp + eps).log())
      losses.append(loss)
    
    total = losses[0]
    for loss in losses[1:]:
      total = total + loss
    return total * (1.0 / len(losses))


class MAELoss(Loss):
  
  def __call__(self, y_pred, y_true):
    if not isinstance(y_pred, list):
      y_pred = [y_pred]
    if not isinstance(y_true, list):
      y_true = [y_true]
    
    losses = [(yp - yt).abs() for yp, yt in zip(y_pred, y_true)]
    total = losses[0]
    for loss in losses[1:]:
      total = total + loss
    return total * (1.0 / len(losses))



# Create some predictions and targets
predictions = [Value(0.8), Value(0.3), Value(0.9)]
targets = [1.0, 0.0, 1.0]

print("Predictions:", [p.data for p in predictions])
print("Targets:    ", targets)
print()

# MSE Loss
mse = MSELoss()
loss_mse = mse(predictions, targets)
print(f"MSE Loss: {loss_mse.data:.6f}")

# Calculate gradients
loss_mse.backward()
print("Gradients (MSE):", [p.grad for p in predictions])

# Reset gradients
for p in predictions:
  p.grad = 0.0

# MAE Loss
mae = MAELoss()
loss_mae = mae(predictions, targets)
print(f"\nMAE Loss: {loss_mae.data:.6f}")

loss_mae.backward()
print("Gradients (MAE):", [p.grad for p in predictions])

