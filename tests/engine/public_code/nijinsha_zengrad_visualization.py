import math


class Value:
    """
    Stores a single scalar value and its gradient for automatic differentiation.
    
    This is the core class that enables automatic differentiation by storing
    both the forward pass value and backward pass gradient information.
    """

    def __init__(self, data, _children=(), _op='', label=''):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward

        return out

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), '*')

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward

        return out

    def __rmul__(self, other):
        return self * other

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out = Value(self.data**other, (self,), f'**{other}')

        def _backward():
            self.grad += (other * self.data**(other-1)) * out.grad
        out._backward = _backward

        return out

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def tanh(self):
        """Hyperbolic tangent activation function."""
        val = self.data
        t = (math.exp(2*val) - 1) / (math.exp(2*val) + 1)
        out = Value(t, (self,), 'tanh')

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        """Exponential function."""
        x = self.data
        out = Value(math.exp(x), (self,), 'exp')
        
        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        
        return out

    def backward(self):
        """
        Performs backpropagation using topological sort to compute gradients.
        
        This method implements the backward pass of automatic differentiation,
        computing gradients for all nodes in the computational graph.
        """
        # Topological order all of the children in the graph
        topo = []
        visited = set()
        
        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        
        build_topo(self)

        # Go one variable at a time and apply the chain rule to get its gradient
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


import random


class Neuron:
    """
    A single neuron with weights, bias, and tanh activation.
    
    This class represents a single artificial neuron that takes multiple inputs,
    applies weights and bias, and outputs the result through a tanh activation function.
    """
    
    def __init__(self, nin):
        """
        Initialize a neuron with random weights and bias.
        
        Args:
            nin (int): Number of input connections
        """
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(random.uniform(-1, 1))
    
    def __call__(self, x):
        """
        Forward pass through the neuron.
        
        Args:
            x (list): Input values
            
        Returns:
            Value: Output after applying weights, bias, and tanh activation
        """
        activation = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return activation.tanh()
    
    def parameters(self):
        """
        Get all parameters (weights and bias) of the neuron.
        
        Returns:
            list: List of all Value parameters
        """
        return self.w + [self.b]




class Layer:
    """
    A layer of neurons in a neural network.
    
    This class represents a fully connected layer containing multiple neurons,
    where each neuron receives the same inputs and produces one output.
    """
    
    def __init__(self, nin, nout):
        """
        Initialize a layer with the specified number of neurons.
        
        Args:
            nin (int): Number of inputs to each neuron
            nout (int): Number of neurons in the layer (outputs)
        """
        self.neurons = [Neuron(nin) for _ in range(nout)]
        
    def __call__(self, x):
        """
        Forward pass through the layer.
        
        Args:
            x (list): Input values
            
        Returns:
            Value or list: Single Value if one neuron, list of Values otherwise
        """
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        """
        Get all parameters from all neurons in the layer.
        
        Returns:
            list: List of all Value parameters from all neurons
        """
        return [p for n in self.neurons for p in n.parameters()]




class MLP:
    """
    Multi-Layer Perceptron (Neural Network).
    
    This class represents a complete neural network consisting of multiple layers
    connected in sequence, where the output of one layer becomes the input to the next.
    """
    
    def __init__(self, nin, nouts):
        """
        Initialize an MLP with the specified architecture.
        
        Args:
            nin (int): Number of input features
            nouts (list): List of integers specifying the number of neurons in each layer
        """
        sizes = [nin] + nouts
        self.layers = [Layer(sizes[i], sizes[i+1]) for i in range(len(nouts))]

    def __call__(self, x):
        """
        Forward pass through the entire network.
        
        Args:
            x (list): Input values
            
        Returns:
            Value or list: Output from the final layer
        """
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        """
        Get all parameters from all layers in the network.
        
        Returns:
            list: List of all Value parameters from all layers
        """
        return [p for layer in self.layers for p in layer.parameters()]


try:
    from graphviz import Digraph
    HAS_GRAPHVIZ = True
except ImportError:
    HAS_GRAPHVIZ = False
    Digraph = None


def trace(root):
    """
    Builds a set of all nodes and edges in a computational graph.
    
    Args:
        root: The root Value node of the computational graph
        
    Returns:
        tuple: (nodes_set, edges_set) representing the computational graph
    """
    nodes, edges = set(), set()

    def build(v):
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)

    build(root)
    return nodes, edges


def draw_dot(root, format='svg', rankdir='LR'):
    """
    Draws the computational graph of a Value using graphviz.
    
    Args:
        root: The root Value node to visualize
        format (str): Output format ('svg', 'png', etc.)
        rankdir (str): Graph direction ('LR' for left-to-right, 'TB' for top-to-bottom)
        
    Returns:
        Digraph: The graphviz Digraph object, or None if graphviz is not available
        
    Note:
        Requires graphviz to be installed: pip install graphviz
    """
    if not HAS_GRAPHVIZ:
        print("Warning: graphviz not available. Install with: pip install graphviz")
        return None
    
    nodes, edges = trace(root)
    dot = Digraph(format=format, graph_attr={'rankdir': rankdir})

    for n in nodes:
        # Create main node
        dot.node(
            name=str(id(n)), 
            label="{%s | data %.4f | grad %.4f}" % (n.label, n.data, n.grad), 
            shape='record'
        )
        
        # Create operation node if there's an operation
        if n._op:
            dot.node(name=str(id(n)) + n._op, label=n._op)
            dot.edge(str(id(n)) + n._op, str(id(n)))

    # Add edges between nodes
    for n1, n2 in edges:
        dot.edge(str(id(n1)), str(id(n2)) + n2._op)

    return dot


#!/usr/bin/env python3
"""
Computational Graph Visualization Example

This example demonstrates how to visualize computational graphs using
ZenGrad's built-in visualization tools with graphviz.
"""

import sys
import os



def simple_expression_graph():
    """Create and visualize a simple mathematical expression."""
    print("=== Simple Expression Graph ===")
    
    # Create a simple expression: f = (a * b + c) ** 2
    a = Value(2.0, label='a')
    b = Value(-3.0, label='b')
    c = Value(10.0, label='c')
    
    d = a * b
    d.label = 'a*b'
    
    e = d + c
    e.label = 'a*b+c'
    
    f = e ** 2
    f.label = '(a*b+c)²'
    
    print(f"Expression: f = (a * b + c)² = ({a.data} * {b.data} + {c.data})² = {f.data}")
    
    # Compute gradients
    f.backward()
    
    print(f"Gradients:")
    print(f"  ∂f/∂a = {a.grad}")
    print(f"  ∂f/∂b = {b.grad}")
    print(f"  ∂f/∂c = {c.grad}")
    
    # Visualize
    print(f"\nVisualizing computational graph...")
    return visualize_graph(f, "simple_expression")


def activation_function_graph():
    """Create and visualize activation function graphs."""
    print("\n=== Activation Function Graph ===")
    
    # Create a more complex expression with activations
    x = Value(0.5, label='x')
    w = Value(2.0, label='w')
    b = Value(-1.0, label='b')
    
    # Linear transformation
    linear = x * w + b
    linear.label = 'x*w+b'
    
    # Apply tanh activation
    activated = linear.tanh()
    activated.label = 'tanh(x*w+b)'
    
    # Square the result
    output = activated ** 2
    output.label = 'output'
    
    print(f"Expression: output = tanh(x*w + b)²")
    print(f"           = tanh({x.data}*{w.data} + {b.data})²")
    print(f"           = {output.data:.4f}")
    
    # Compute gradients
    output.backward()
    
    print(f"Gradients:")
    print(f"  ∂output/∂x = {x.grad:.4f}")
    print(f"  ∂output/∂w = {w.grad:.4f}")
    print(f"  ∂output/∂b = {b.grad:.4f}")
    
    # Visualize
    print(f"\nVisualizing activation function graph...")
    return visualize_graph(output, "activation_function")


def neuron_graph():
    """Create and visualize a single neuron's computational graph."""
    print("\n=== Single Neuron Graph ===")
    
    # Create a neuron with 3 inputs
    neuron = Neuron(3)
    
    # Create some input data
    inputs = [Value(0.5, label='x1'), Value(-0.3, label='x2'), Value(0.8, label='x3')]
    
    # Forward pass
    output = neuron(inputs)
    output.label = 'neuron_output'
    
    print(f"Neuron inputs: {[x.data for x in inputs]}")
    print(f"Neuron output: {output.data:.4f}")
    
    # Compute gradients
    output.backward()
    
    print(f"Input gradients:")
    for i, inp in enumerate(inputs):
        print(f"  ∂output/∂x{i+1} = {inp.grad:.4f}")
    
    print(f"Parameter gradients:")
    params = neuron.parameters()
    for i, param in enumerate(params[:-1]):  # weights
        print(f"  ∂output/∂w{i+1} = {param.grad:.4f}")
    print(f"  ∂output/∂bias = {params[-1].grad:.4f}")
    
    # Visualize
    print(f"\nVisualizing neuron computational graph...")
    return visualize_graph(output, "single_neuron")


def mlp_graph():
    """Create and visualize a small MLP's computational graph."""
    print("\n=== Small MLP Graph ===")
    
    # Create a very small MLP to keep the graph manageable
    mlp = MLP(2, [2, 1])  # 2 inputs → 2 hidden → 1 output
    
    # Create input data
    inputs = [Value(1.0, label='x1'), Value(-0.5, label='x2')]
    
    # Forward pass
    output = mlp(inputs)
    if isinstance(output, list):
        output = output[0]
    output.label = 'mlp_output'
    
    print(f"MLP inputs: {[x.data for x in inputs]}")
    print(f"MLP output: {output.data:.4f}")
    print(f"MLP has {len(mlp.parameters())} parameters")
    
    # Compute gradients
    output.backward()
    
    print(f"Input gradients:")
    for i, inp in enumerate(inputs):
        print(f"  ∂output/∂x{i+1} = {inp.grad:.4f}")
    
    # Visualize
    print(f"\nVisualizing small MLP computational graph...")
    print("Warning: MLP graphs can be quite large!")
    return visualize_graph(output, "small_mlp")


def visualize_graph(root_node, name):
    """Helper function to visualize a computational graph."""
    try:
        # Create the graph
        dot = draw_dot(root_node)
        
        if dot is None:
            print("❌ Graphviz not available. Install with: pip install graphviz")
            return False
        
        print(f"✅ Graph created successfully!")
        print(f"   To view the graph, you can:")
        print(f"   1. Save it: dot.render('{name}', format='png')")
        print(f"   2. View it: dot.view() (opens in default viewer)")
        print(f"   3. Get SVG: dot.pipe(format='svg')")
        
        # Show graph statistics
        nodes, edges = trace(root_node)
        print(f"   Graph stats: {len(nodes)} nodes, {len(edges)} edges")
        
        return dot
        
    except ImportError:
        print("❌ Graphviz not available. Install with: pip install graphviz")
        return False
    except Exception as e:
        print(f"❌ Error creating graph: {e}")
        return False


def graph_analysis_example():
    """Demonstrate how to analyze computational graphs programmatically."""
    print("\n=== Graph Analysis Example ===")
    
    # Create a moderately complex expression
    x = Value(2.0, label='x')
    y = Value(3.0, label='y')
    
    # f = x²y + xy² + xy
    x2 = x * x
    x2.label = 'x²'
    
    y2 = y * y  
    y2.label = 'y²'
    
    term1 = x2 * y
    term1.label = 'x²y'
    
    term2 = x * y2
    term2.label = 'xy²'
    
    term3 = x * y
    term3.label = 'xy'
    
    f = term1 + term2 + term3
    f.label = 'f'
    
    print(f"Expression: f = x²y + xy² + xy")
    print(f"At x={x.data}, y={y.data}: f = {f.data}")
    
    # Analyze the graph structure
    nodes, edges = trace(f)
    
    print(f"\nGraph structure analysis:")
    print(f"  Total nodes: {len(nodes)}")
    print(f"  Total edges: {len(edges)}")
    
    # Count different types of operations
    ops = {}
    for node in nodes:
        op = node._op if node._op else 'input'
        ops[op] = ops.get(op, 0) + 1
    
    print(f"  Operation counts:")
    for op, count in sorted(ops.items()):
        print(f"    {op}: {count}")
    
    # Compute gradients and show
    f.backward()
    
    print(f"\nGradients:")
    print(f"  ∂f/∂x = {x.grad} (expected: 2xy + y² + y = {2*x.data*y.data + y.data**2 + y.data})")
    print(f"  ∂f/∂y = {y.grad} (expected: x² + 2xy + x = {x.data**2 + 2*x.data*y.data + x.data})")
    
    return visualize_graph(f, "complex_expression")


if __name__ == "__main__":
    print("ZenGrad - Computational Graph Visualization Examples\n")
    
    # Run all visualization examples
    graphs = []
    
    graphs.append(simple_expression_graph())
    graphs.append(activation_function_graph())
    graphs.append(neuron_graph())
    graphs.append(mlp_graph())
    graphs.append(graph_analysis_example())
    
    print(f"\n" + "="*60)
    print("Summary:")
    successful_graphs = sum(1 for g in graphs if g)
    print(f"Successfully created {successful_graphs}/{len(graphs)} graphs")
    
    if successful_graphs > 0:
        print(f"\nTo save and view graphs in Python:")
        print(f"  import subprocess")
        print(f"  dot = draw_dot(your_value)")
        print(f"  dot.render('graph_name', format='png')  # Saves as graph_name.png")
        print(f"  subprocess.run(['open', 'graph_name.png'])  # Opens on macOS")
    
    print(f"\nVisualization examples completed! 🎉")
