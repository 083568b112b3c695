# Integers all the way: data, gradients and the seed are ints, and ReLU's mask is a bool
# multiplied into the gradient, so every gradient prints without a decimal point.
class Value:
	def __init__(self, data, _children=(), _op=''):
		self.data = data
		self.grad = 0
		self._backward = lambda: None
		self._prev = set(_children)
		self._op = _op

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
		out = Value(self.data * other.data, (self, other), '*')
		def _backward():
			self.grad += other.data * out.grad
			other.grad += self.data * out.grad
		out._backward = _backward
		return out

	def relu(self):
		out = Value(self.data if self.data > 0 else 0, (self,), 'ReLU')
		def _backward():
			self.grad += (self.data > 0) * out.grad
		out._backward = _backward
		return out

	def backward(self):
		topo, seen = [], set()
		def build(v):
			if v not in seen:
				seen.add(v)
				for c in v._prev:
					build(c)
				topo.append(v)
		build(self)
		self.grad = 1
		for v in reversed(topo):
			v._backward()

	def __repr__(self):
		return f"Value(data={self.data}, grad={self.grad})"


a, b, c = Value(3), Value(-2), Value(5)
h = (a * b + c).relu() + (a * c + b).relu() * 2
h.backward()
print(h, a, b, c)
print([type(v.grad).__name__ for v in (a, b, c, h)], (a.data > 0) * 7, True * 2.5)
for v in (a, b, c):
    v.grad = 0
k = (a * a * b).relu() + a.relu()
k.backward()
print(a.grad, b.grad, c.grad, k)
