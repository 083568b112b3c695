## STARTING OF Pytorch-replice(confuses github copilot) ENGINE
import math

from typing import Any

class Value:
    pass

class Value:
    def __init__(self, data: Any, _children: tuple[Value] = (), _op: str = "", label:str = "", grad:float = 0.0):
        if isinstance(data, Value):
            raise TypeError("Value cannot be initialized with another Value instance")
        self.data = data
        self._children = _children
        self._op = _op
        self.label = label
        self.grad = grad
        self._backward = None

    def __repr__(self)->str:
        return f"Value(data={self.data :0.04f}, label={self.label})"#, _children={self._children}, _op='{self._op}')"
    
    def __add__(self, other:Value)->Value:
        if not isinstance(other, Value):
            other = Value(other)
        def _backward(parent_grad:float = 1.0):
                other.grad += (1.0* parent_grad)
                self.grad += (1.0 * parent_grad)

        out = Value(self.data + other.data, _children=(self, other), _op='+')
        out._backward = _backward
        return out
    
    def __sub__(self, other:Value)->Value:
        if not isinstance(other, Value):
            other = Value(other)
        def _backward(parent_grad:float = 1.0):
            self.grad += (1.0 * parent_grad)
            other.grad -= (1.0 * parent_grad)

        out = Value(self.data - other.data, _children=(self, other), _op='-')
        out._backward = _backward
        return out
    
    def __mul__(self, other:Any)->Value:
        if not isinstance(other, Value):
            other = Value(other)
        def _backward(parent_grad:float = 1.0):
            self.grad += (other.data*parent_grad)
            other.grad += (self.data*parent_grad)

        out = Value(self.data * other.data, _children=(self, other), _op='*')
        out._backward = _backward
        return out
    
    def __pow__(self, other:Any)->Value:
        if not isinstance(other, Value):
            other = Value(other)
        def _backward(parent_grad:float = 1.0):
            self.grad = (other.data* self.data**(other.data -1.0)) * parent_grad

        out = Value(self.data ** other.data, _children=(self, other), _op='**')
        out._backward = _backward
        return out
    
    def __rpow__(self, other:Any)->Value:
        return Value(other**self.data, _children=(Value(other), self), _op='**')

    def __radd__(self, other:Any)->Value:
        return self + other
    
    def __rsub__(self, other:Any)->Value:
        return self-other
    
    def __rmul__(self, other:Any)->Value:
        return self*other
        
    def __true_div__(self, other:Any)->Value:
        return self*other**-1

    def __rtruediv__(self, other:Any)->Value:
        return other*(self**-1)
    
    def sin(self)->Value:
        def _backward(parent_grad:float = 1.0):
            self.grad = np.cos(self.data)*parent_grad
        out = Value(np.sin(self.data), _children = (self,), _op = "sin")
        out._backward = _backward
        return out
    
    def cos(self)->Value:
        def _backward(parent_grad:float = 1.0):
            self.grad = -1.0*np.sin(self.data)*parent_grad
        out = Value(np.cos(self.data), _children = (self,), _op = "cos")
        out._backward = _backward
        return out
    
    def tanh(self)->Value:
        tanh = (1 - math.exp(-2*self.data))/(1+math.exp(-2*self.data))
        def _backward(parent_grad:float = 1.0):
            self.grad += (1-tanh**2)*parent_grad

        out = Value(tanh, _children = (self,), _op = "tanh")
        out._backward=_backward
        return out
    
    def backward(self)->None:
        def _backward(node:Value):
            if not node._children:
                return None
            node._backward(parent_grad=node.grad)
            for child in node._children:
                _backward(child)
        self.grad = 1.0
        _backward(self)
                

#Manual implementation of  Single hidden layer mlp with two hidden neurons and one output neuron

x1 = Value(2.0, label = 'x1')
x2 = Value(3.0, label = 'x2')

w11 = Value(0.4, label='w11')
w21 = Value(0.2, label = 'w21')

b1 = Value(0.01, label = 'b1')

v1 = x1*w11; v1.label = 'x1w11'
v2 = x2*w21; v2.label = 'x2w21'

#Hidden layer
h1 = v1 + v2; h1.label = 'x1w11+x2w21'
n = h1 + b1; n.label = 'x1w11+x2w21+b1'

#Output
op = n.tanh(); op.label = 'op'

op.backward()

import random
#REIMPLEMENTING ANDREJ'S VERSION USING SEPARATE CLASSES FOR NEURONS AND LAYERS.

class Neuron:
    def __init__(self, nin:int):
        self.w = [Value(random.uniform(0,1)) for _ in range(nin)]
        self.b = Value(random.uniform(0,1))

    def __call__(self, inp:list[Value])->Value:
        res = sum([w*x for w,x in zip(self.w,inp)], self.b)
        out = res.tanh()
        return out

class Layer:
    def __init__(self, nin:int, nout:int)->None:
        self.neurons = [Neuron(nin) for _ in range(nout)]
        self.outs:list[Value] = []
    
    def __call__(self, inp:list[Value])->list[Value]:
        for n in self.neurons:
            self.outs.append(n(inp))
        return self.outs

class MLP:
    def __init__(self, n_layers:list[int])->None:
        self.n_layers =  n_layers
        self.inp = []
        self.layers = []
    
    def create_all_layers(self, inp:list[int])->None:
        self.inp = [Value(x) for x in inp]
        self.n_layers =[len(inp)] + self.n_layers
        for i, nout in enumerate(self.n_layers[1:]):
            self.layers.append(Layer(self.n_layers[i], nout))

    def __call__(self, inp:list[int])->Value:
        if not self.layers:
            self.create_all_layers(inp)
        input_vec = inp
        for layer in self.layers:
            input_vec = layer(input_vec)
        return input_vec[0] if len(input_vec)==1 else input_vec

#Replicating pytorch's nn.Module
import random


class Neuron:
    def __init__(self, nin:int, neuron_no:int, layer_no:int)->None:
        self.w = [Value(random.uniform(0,1), label = f"w{i}{neuron_no}{layer_no}") for i in range(nin)]
        self.b = Value(random.uniform(0,1), label = f"b{neuron_no}{layer_no}")

    def __repr__(self)->str:
        return f"Neuron(w= {self.w}, b= {self.b})"
    
    def __call__(self, inp:list[Value],neuron_no:int, layer_no:int)->Value:
        res = sum([w*x for w,x in zip(self.w, inp)], self.b)
        res.label = f"dot_prod_{neuron_no}{layer_no}"
        out = res.tanh()
        out.label = f"n{neuron_no}{layer_no}"
        return out
    
    @property
    def parameters(self)->list[Value]:
        return self.w + [self.b]

class MLP:
    def __init__(self, n_layers:list[int]):
        self.n_layers = n_layers
        self.hidden_layers = []
        self.out = []

    def __repr__(self)->str:
        return f"MLP(hidden_layers= {self.hidden_layers}, out= {self.out})"
    
    def create_hidden_layer(self, nin:int, layer_no:int, neuron_count:int)->None:
        self.hidden_layers.append([Neuron(nin, j, layer_no) for j in range(neuron_count)])


    def create_all_hidden_layers(self, inp:list[float])->None:
        inp = [Value(x, label = f"x{i}") for i,x in enumerate(inp)]
        self.n_layers = [len(inp),*self.n_layers]
        for i, neuron_count in enumerate(self.n_layers[1:]):
            self.create_hidden_layer(self.n_layers[i],i, neuron_count)
    
    def __call__(self, inp:list[Value])->Value|list[Value]:
        if not self.hidden_layers:
            self.create_all_hidden_layers(inp)
        input_vec = inp
        for i, hl in enumerate(self.hidden_layers):
            input_vec = [neuron(input_vec, j, i) for j, neuron in enumerate(hl)]
            
        self.out = input_vec[0] if len(input_vec)==1 else input_vec
        return self.out
    
    @property
    def parameters(self)->list[Value]:
        return [p for hl in self.hidden_layers for n in hl for p in n.parameters]


#My implementation of MLP

mlp = MLP([2,2,1])
#forward pass
mlp([1,2,3])

#Validate child nodes
x=0
def trace(node):
    global x
    if not node._children:
        return None
    print(f"recursion :{x}")
    x+=1
    for child in node._children:
        print(node.label , child)
        trace(child)
trace(mlp.out)

mlp.out.backward()
