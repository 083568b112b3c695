import random, math

class Value:

  def __init__(self, val, parents=None):
    if parents is None:
      parents = []
      
    self.val = float(val)
    self.parents = parents
    
    self.grad = 0
    self.diff = lambda grad: []

  def __repr__(self):
    return 'Value(%.2f; grad=%.2f)'%(self.val, self.grad)
  
  @staticmethod
  def rand():
    return Value(random.uniform(-1,1))

  def __neg__(self):
    return self * (-1)

  #----- Essential Operations -----
  def __add__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    ret = Value(self.val + other.val, parents=[self, other])
    ret.diff = lambda grad: [grad, grad]
    return ret

  def __radd__(self, other):
    return self + other

  def __mul__(self, other):
    other = other if isinstance(other, Value) else Value(other)
    ret = Value(self.val * other.val, parents=[self, other])
    ret.diff = lambda grad: [grad * other.val, grad * self.val]
    return ret

  def __rmul__(self, other):
    return self * other
  #--------------------------------

  #-------- Backward Pass ---------
  def _rev_topo_sort(self):
    def traverse(node):
      if node in visit: return
      visit.add(node)
      for p in node.parents: traverse(p)
      ret.append(node)

    visit = set(); ret = []
    traverse(self)
    return reversed(ret)

  def backward(self):
    self.grad = 1.0 # implicit gradient creation
    for node in self._rev_topo_sort():
      gradients = node.diff(node.grad)
      for p, g in zip(node.parents, gradients): p.grad += g    
  #--------------------------------

  #------ Activation & Loss Functions ------ 
  def relu(self):
    ret = Value(max(0, self.val), parents=[self])
    ret.diff = lambda grad: [grad * (self.val > 0)]
    return ret

  def sigmoid(self):
    _sigmoid = lambda x: 1/(1 + math.exp(-x))
    ret = Value(_sigmoid(self.val), parents=[self])
    ret.diff = lambda grad: [grad * (1-_sigmoid(self.val))*_sigmoid(self.val)]
    return ret

  def log(self):
    ret = Value(math.log(self.val), parents=[self])
    ret.diff = lambda grad: [grad * (1/self.val)]
    return ret
  #-----------------------------------------


import unittest, random
import micrograd.engine as gt

def close(a, b, tol=1e-4):
  return abs(a-b) < tol

def graph1(ValueClass):
  a = ValueClass(-4.0)
  b = ValueClass(2.0)
  c = a * b
  g = c + c * 2
  g.backward()
  return [a, b, c, g]

def graph2(ValueClass):
  a = ValueClass(15.1)
  b = ValueClass(-.093)
  c = ValueClass(-13)

  c += a + b

  d = a * b
  e = (c + d).relu() * (-a) + 100.43
  g = a * 2
  g.backward()
  return [a,b,c,d,e,g]

def _forward(graph, ValueClass):
  get_data = lambda x:x.data if hasattr(x, 'data') else x.val
  return map(get_data, graph(ValueClass))

def _back(graph, ValueClass):
  return map(lambda x: x.grad, graph(ValueClass))


class TestValue(unittest.TestCase):

  def test_act(self):
    self.assertTrue( Value.rand().relu().val >= 0 )
    self.assertTrue( 0 <= Value.rand().sigmoid().val <= 1 )

  def test_add(self):
    self.assertTrue( (Value(3) + 4).val  == 7 )
    self.assertTrue( (Value(-5) + Value(3)).val  == -2 )

  def test_mul(self):

    self.assertTrue( (Value(3.13) * (-4.1)).val  == -4.1*3.13 )
    self.assertTrue( (-7.2 * Value(3)).val  == -7.2*3)
    self.assertTrue( (-Value(-5) * Value(-3)).val  == -15 )

  def test_forward(self):
    for graph in [graph1, graph2]:
      with self.subTest(graph=graph):
        for x, y in zip(_forward(graph, gt.Value), 
                        _forward(graph, Value)):
          self.assertTrue( close(x, y) )

  def test_back(self):
    for graph in [graph1, graph2]:
      with self.subTest(graph=graph):
        for x, y in zip(_back(graph, gt.Value), 
                        _back(graph, Value)):
          self.assertTrue( close(x, y) )

TestValue().test_act()
TestValue().test_add()
TestValue().test_mul()
TestValue().test_forward()
TestValue().test_back()
