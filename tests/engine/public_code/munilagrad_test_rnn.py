import math
class value:
  def __init__(self,data,children=(),_op='', label=''):
    self.data = data
    self._prev = set(children)
    self._backward = lambda:None
    self._op = _op
    self.label = label
    self.grad = 0.0

  def __repr__(self):
    return f"value(data={self.data})"

  def __add__(self,other):
    other = other if isinstance(other, value) else value(other)
    out = value(self.data + other.data,(self,other),'+')
    def _backward():
      self.grad += 1.0 * out.grad
      other.grad += 1.0 * out.grad
    out._backward = _backward
    return out

  def __mul__(self,other):
    other = other if isinstance(other, value) else value(other)
    out = value(self.data * other.data,(self,other),'*')
    def _backward():
      self.grad += other.data * out.grad
      other.grad += self.data * out.grad
    out._backward = _backward
    return out

  def __pow__(self,other):
    assert isinstance(other,(int,float))
    out = value(self.data**other,(self,),f'**{other}')
    def _backward():
      self.grad += other * (self.data ** (other-1)) * out.grad
    out._backward = _backward
    return out

  def __radd__(self, other):
    return self + other
  
  def __rmul__(self,other):
    return self * other

  def __truediv__(self,other):
    return self * other ** -1

  def __neg__(self):
    return self * -1

  def __sub__(self,other):
    return self + (-other)

  def __rsub__(self, other):
    other = other if isinstance(other, value) else value(other)
    return other - self

  def tanh(self):
    x = self.data
    t = (math.exp(2*x)-1) / (math.exp(2*x)+1)
    out = value(t,(self,),'tanh')
    def _backward():
      self.grad += (1-t**2) * out.grad
    out._backward = _backward
    return out

  def relu(self):
    out = value(max(0,self.data),(self,),'RELU')
    def _backward():
      self.grad += (out.data > 0) * out.grad
    out._backward = _backward
    return out
  
  def exp(self):
    x = self.data
    out = value(math.exp(x),(self,),'exp')
    def _backward():
      self.grad += out.data * out.grad
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
        

import math
import random
def dot_product(vec1, vec2):
    return sum(v1 * v2 for v1, v2 in zip(vec1, vec2))
def matmul(matrix, vector):
    return [dot_product(row, vector) for row in matrix]

class RNNCell:
    def __init__(self, input_size, hidden_size, output_size):
        self.hidden_size = hidden_size
        # W_xh: Input -> Hidden
        self.W_xh = [[value(random.uniform(-0.1, 0.1)) for _ in range(input_size)] for _ in range(hidden_size)]
        # W_hh: Hidden -> Hidden
        self.W_hh = [[value(random.uniform(-0.1, 0.1)) for _ in range(hidden_size)] for _ in range(hidden_size)]
        # W_hy: Hidden -> Output
        self.W_hy = [[value(random.uniform(-0.1, 0.1)) for _ in range(hidden_size)] for _ in range(output_size)]
        # Initialize biases
        self.b_h = [value(0.0) for _ in range(hidden_size)]
        self.b_y = [value(0.0) for _ in range(output_size)]

    def forward(self, x_t, h_prev):
        input_contribution = matmul(self.W_xh, x_t)
        memory_contribution = matmul(self.W_hh, h_prev)
        h_next = []
        for inp, mem, b in zip(input_contribution, memory_contribution, self.b_h):
            raw = inp + mem + b
            h_next.append(raw.tanh())
        # Compute the output for this specific time step (y_t)
        output_raw = matmul(self.W_hy, h_next)
        y_t = [out + b for out, b in zip(output_raw, self.b_y)]
        
        return y_t, h_next
    
    def parameters(self):
        params = []
        for row in self.W_xh : params.extend(row)
        for row in self.W_hh : params.extend(row)
        for row in self.W_hy : params.extend(row)
        params.extend(self.b_h)
        params.extend(self.b_y)
        return params
# Setup dimensions: e.g., word embeddings of size 4, hidden state of size 8, vocabulary of 50 words
# input_size = 4
# hidden_size = 8
# vocab_size = 50 

# rnn = RNNCell(input_size, hidden_size, vocab_size)

# Mocking our sequence of 4 words (each word is a vector of size 4)
# sequence = [
#     [0.1, 0.2, 0.3, 0.4], # "The"
#     [0.5, 0.6, 0.7, 0.8], # "code"
#     [0.9, 0.1, 0.2, 0.3], # "compiles"
#     [0.4, 0.5, 0.6, 0.7]  # "perfectly"
# ]
# h_current = [0.0 for _ in range(hidden_size)]
# outputs = []
# for t, x_t in enumerate(sequence):
#     y_t, h_current = rnn.forward(x_t, h_current)
#     outputs.append(y_t)
#     print(f"Time Step {t+1}: Processed input. Hidden state updated.")
# The final h_current now holds the "context" of the entire sequence.
# outputs[-1] contains the raw scores for our next-word prediction.
# print('h_current : ',h_current)
# print('outputs : ',outputs)

import sys
import os

import random
random.seed(42) 

rnn = RNNCell(input_size=2, hidden_size=3, output_size=1)

sequence = [
    [value(1.0), value(2.0)], # t=1
    [value(0.5), value(-1.0)],# t=2
    [value(-2.0), value(1.0)] # t=3
]

h_current = [value(0.0) for _ in range(3)]

print("Running Forward Pass--")
for t, x_t in enumerate(sequence):
    y_t, h_current = rnn.forward(x_t, h_current)
    print(f"Time Step {t+1} output: {y_t[0].data:.4f}")

# Target for the final prediction (at t=3) is 1.0
target = value(1.0)

# Calculate Mean Squared Error (MSE) loss on the final output only
final_prediction = y_t[0]
loss = (final_prediction - target)**2

print(f"\nFinal Loss: {loss.data:.4f}")

# backaward pass bptt
print("\nRunning BPTT---")
loss.backward()

# Let's look at the gradient for a specific weight in the hidden-to-hidden matrix
sample_weight = rnn.W_hh[0][0]
print(f"Gradient for W_hh[0][0]: {sample_weight.grad:.4f}")

# gradient descent update
learning_rate = 0.01
for p in rnn.parameters():
    p.data -= learning_rate * p.grad
    
print("Weights updated successfully!")
# to vizualize the graph
print("Rendering computational graph...")
