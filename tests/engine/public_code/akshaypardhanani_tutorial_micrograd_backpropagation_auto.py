"""
Value representation that also support expression graphs.
We want to know what values produced other values.
"""

class Value:
    """
    _children: Keep strack of the values that were produces by some operation
    _op: Is the operation that produced some value
    """
    def __init__(self, data, run = None, _children = (), _op='', label = '') -> None:
        self.data = data + run if run else data
        # This is the gradient of the function. 
        # In other words this value represents how much this value affects the output of the function and in what direction
        # In the forward pass this will always be zero and the values get computed during back propagation
        self.grad = 0.0
        self._prev = set(_children)
        self._op = _op
        
        # purely used for visual purposes has no functional impact
        self.label = label
        
        
    def __repr__(self) -> str:
        return f"Value(data={self.data}, children={self._children}, _operation={self._op})"
    
    def __add__(self, other):
        return Value(self.data + other.data, _children=(self, other), _op='+')
    
    def __mul__(self, other):
        return Value(self.data * other.data, _children=(self, other), _op='*')
    

import math

class Perceptron(Value):
    """
    Override the __add__ and __mul__ methods here to allow for backpropagation programmatically.
    Accumulate the gradients in that case so as to allow for the multi-variate derivatives case.
    
    Add the option of the activation function to squach values between -1.0 and 1.0 (tanh)
    """
    def __init__(self, data, run=None, _children=(), _op='', label='', *args, **kwargs):
        _children = kwargs.get('_prev', ()) if len(_children) < 1 else _children
        super().__init__(data, run, _children, _op, label)
        
        self._backward = None
        
    def __add__(self, other):
        out = super().__add__(other)
        out = Perceptron(**out.__dict__)
        def _distribute_gradient():
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad
            
        out._backward = _distribute_gradient
        
        return out
    
    def __mul__(self, other):
        out = super().__mul__(other)
        out = Perceptron(**out.__dict__)
        def _combine_gradient():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
            
        out._backward = _combine_gradient
        return out
        
    @staticmethod
    def _build_topoligical_graph(node: Value, topo: list = [], visited: set = set()) -> list:
        if node not in visited:
            visited.add(node)
            for child in node._prev:
                Perceptron._build_topoligical_graph(child, topo, visited)
            topo.append(node)
        return topo
        
    def tanh(self):
        """
        The value itself of tanh is given  by:
                      e^2x - 1
            tanh(x) = -----------
                      e^2x + 1
        The derivative of tanh is 1 - tanh^2(x)
        """
        
        x = self.data # activation is computed at the node
        t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1)
        out = Perceptron(t, _children=(self, ), _op='tanh')
        
        def _derivative_tanh():
            # derivative of tanh time the gradient of the output
            self.grad += (1 - t**2) * out.grad
        out._backward = _derivative_tanh
        return out
        
    def backward(self):
        topo = Perceptron._build_topoligical_graph(self)
        self.grad = 1.0
        for node in reversed(topo):
            if node._backward:
                node._backward()
    
    


def init_inputs():
    x1 = Perceptron(2.0, label='x1')
    x2 = Perceptron(0.0, label='x2')
    return x1, x2
    
def init_weights():
    w1 = Perceptron(-3.0, label='w1')
    w2 = Perceptron(1.0, label='w2')
    return w1, w2
    
def init_bias():
    return Perceptron(6.8813735870195432, label='b')

def forward():
    x1, x2 = init_inputs()
    w1, w2 = init_weights()
    b = init_bias()
    
    x1_w1 = x1 * w1
    x1_w1.label = 'x1.w1'
    
    x2_w2 = x2 * w2
    x2_w2.label = 'x2.w2'
    
    x1_w1_x2_w2 = x1_w1 + x2_w2
    x1_w1_x2_w2.label = 'x1.w1 + x2.w2'
    
    n = x1_w1_x2_w2 + b
    n.label = 'n'
    
    o: Perceptron = n.tanh() # call activation function
    o.label = 'o'
    
    # fig = draw_dot(o)
    # fig.render('forward_auto', view=True)
    
    return o
    
if __name__ == '__main__':
    network = forward()
    network.backward()
    
