import math

class Mini:
    def __init__(self, value):
        self.value = value
        self.gradient = 1 # dy/dslef, where y is the final result where .backprop() is called on
        self._parents = (None, None)
        # self.operation = _operation
        self._slope = 1 # df/dself, where f is the immediate operation self is used in 

    def __add__(self, other): # handles: self + other
        assert isinstance(other, (Mini, int, float)), "operand must be of type Mini/int/float"
        if not isinstance(other, Mini):
            other = Mini(other)

        child = Mini(self.value + other.value)
        child._parents = (self, other)
        return child

    def __radd__(self, other): # handles: other + self
        return self + other # runs __add__()
    
    def __mul__(self, other): # handles: self * other
        assert isinstance(other, (Mini, int, float)), "operand must be of type Mini/int/float"
        if not isinstance(other, Mini):
            other = Mini(other)
        
        child = Mini(self.value * other.value)
        self._slope = other.value 
        other._slope = self.value 
        child._parents = (self, other)
        return child
    
    def __rmul__(self, other): # handles: other * self
        return self * other # runs __mul__()
    
    def __pow__(self, other): # handles: self ** other
        assert isinstance(other, (Mini, int, float)), "operand must be of type Mini/int/float"
        if not isinstance(other, Mini):
            other = Mini(other)
        
        child = Mini(self.value ** other.value)
        self._slope = other.value * self.value**(other.value - 1)
        other._slope = math.log(self.value) * self.value**other.value if self.value > 0 else 1 # this is a very naiv line of code
        child._parents = (self, other)
        return child
 
    def __rpow__(self, other): # handles: other ** self
        assert isinstance(other, (int, float)), "base must be of type Mini/int/float"
        return Mini(value=other) ** self # runs __pow__()

    def __truediv__(self, other): # hanldes self / other
        assert isinstance(other, (Mini, int, float)), "divisor must be of type Mini/int/float"
        return self * other**-1 # first runs __pow__(), then runs __mul__()
        
    def __rtruediv__(self, other): # handles other / self
        assert isinstance(other, (Mini, int, float)), "dividend must be of type Mini/int/float"
        return other * self**-1 # first runs __pow__(), then runs __mul__()

    def __sub__(self, other): # handles self - other
        assert isinstance(other, (Mini, int, float)), "subtrahend must be of type Mini/int/float"
        return self + (-other) # may run __neg__() first, then runs __add__()

    def __rsub__(self, other): # handles other - self
        assert isinstance(other, (Mini, int, float)), "subtrahend must be of type Mini/int/float"
        return other + (-self) # first runs __neg__(), then runs __add__()
    
    def __neg__(self): # handles -obj
        child = Mini(-self.value)
        child._slope = -self._slope
        child.gradient = -self.gradient
        child._parents = (self, )
        return child

    def exp(self):
        self._slope = math.exp(self.value)
        child = Mini(math.exp(self.value))
        child._parents = (self, )
        return child

    def log(self):
        child = Mini(math.log(self.value))
        self._slope = 1 / self.value
        child._parents = (self, )
        return child

    def sigmoid(self):
        sigmoid_value = 1 / (1 + math.exp(-self.value))
        child = Mini(sigmoid_value)
        self._slope = sigmoid_value * (1 - sigmoid_value)
        child._parents = (self, )
        return child

    def backprop(self):
        if not all(isinstance(e, Mini) for e in self._parents):
            return self.gradient
        for parent in self._parents:
            parent.gradient = self.gradient * parent._slope
            if all(isinstance(e, Mini) for e in parent._parents):
                parent.backprop()

    def reset_gradient(self):
        self._slope = 1
        self.gradient = 1
import unittest
import math

class TestMini(unittest.TestCase):
    def test_addition(self):
        a = Mini(10)
        b = Mini(-4)
        result = a - b
        self.assertEqual(result.value, 14)
        result.backprop()
        self.assertEqual(a.gradient, 1, "gradient a is incorrect")
        self.assertEqual(b.gradient, -1, "gradient b is incorrect")
    
    def test_multiplication(self):
        a = Mini(-5)
        b = Mini(3)
        result = a * b
        self.assertEqual(result.value, -15, "calulation is incorrect")
        result.backprop()
        self.assertEqual(a.gradient, 3, "gradient of a is incorrect")
        self.assertEqual(b.gradient, -5, "gradient of b is incorrect")

    def test_power(self):
        a = Mini(2)
        b = Mini(3)
        result = a ** b
        self.assertEqual(result.value, 8)
        result.backprop()
        self.assertEqual(a.gradient, 12)  # The gradient for a ** b with respect to a = b * a**(b-1)

    def test_division(self):
        a = Mini(10)
        b = Mini(2)
        result = a / b
        self.assertEqual(result.value, 5)
        result.backprop()
        self.assertEqual(a.gradient, 0.5)  # The gradient for a / b with respect to a = 1 / b

    def test_negation(self):
        a = Mini(7)
        neg_a = -a
        self.assertEqual(neg_a.value, -7)
        neg_a.backprop()
        self.assertEqual(neg_a.gradient, -1)

    def test_subtraction(self):
        a = Mini(10)
        b = Mini(4)
        result = a - b
        self.assertEqual(result.value, 6)
        result.backprop()
        self.assertEqual(a.gradient, 1)

    def test_radd(self):
        a = Mini(10)
        result = 5 + a
        self.assertEqual(result.value, 15)
        result.backprop()
        self.assertEqual(result.gradient, 1)

    def test_rmul(self):
        a = Mini(5)
        result = 3 * a
        self.assertEqual(result.value, 15)
        result.backprop()
        self.assertEqual(a.gradient, 3)

    def test_rpow(self):
        a = Mini(2)
        result = 3 ** a
        self.assertEqual(result.value, 9)
        result.backprop()
        self.assertEqual(a.gradient, 9 * math.log(3))  # The gradient for b ** a with respect to a = log(b) * b**a
    
    def test_rtruediv(self):
        a = Mini(4)
        result = 12 / a
        self.assertEqual(result.value, 3)
        result.backprop()
        self.assertEqual(a.gradient, -3/4)  # The gradient for a / b with respect to b = -a / b**2

    def test_exp(self):
        a = Mini(4)
        result = a.exp()
        # test value output
        self.assertEqual(result.value, math.exp(4))
        # test gradient output
        result.backprop()
        self.assertEqual(a.gradient, math.exp(4))
        b = Mini(2)
        c = Mini(4)
        result = b * c.exp()
        result.backprop()
        self.assertEqual(b.gradient, math.exp(4), "gradient of b is incorrect")
        self.assertEqual(c.gradient, 2*math.exp(4), "gradient of c is incorrect")

    def test_log(self):
        a = Mini(4)
        result = a.log()
        # test value output
        self.assertEqual(result.value, math.log(4), "Mini.log() calculated the wrong output")
        # test gradient output
        result.backprop()
        self.assertEqual(a.gradient, 1/4)
        b = Mini(-2)
        c = Mini(6)
        result = b * c.log()
        result.backprop()
        self.assertEqual(b.gradient, math.log(6), "gradient of b is incorrect")
        self.assertEqual(c.gradient, -1/3, "gradient of c is incorrect")

    def test_sigmoid(self):
        def sigmoid(x):
            return 1 / (1 + math.exp(-x))
        
        a = Mini(4)
        result = a.sigmoid()
        # test value output
        self.assertEqual(result.value, sigmoid(4))
        # test gradient output
        result.backprop()
        self.assertEqual(a.gradient, sigmoid(4)*(1 - sigmoid(4)))
        b = Mini(-3)
        c = Mini(2)
        result = b * c.sigmoid()
        result.backprop()
        self.assertEqual(b.gradient, sigmoid(2), "gradient of b is incorrect")
        self.assertEqual(c.gradient, -3*sigmoid(2)*(1 - sigmoid(2)), "gradient of c is incorrect")

    def test_sigmoid_numerically(self):
        def sigmoid(x):
            return 1 / (1 + math.exp(-x))
        
        a = Mini(-4)
        b = Mini(3)
        c = Mini(3)
        result = a - b*c.sigmoid()
        # numerical differentiation
        h = 0.00001
        d_a = ((a.value + h) - b.value*sigmoid(c.value) - result.value) / h
        d_b = (a.value - (b.value + h)*sigmoid(c.value) - result.value) / h
        d_c = (a.value - b.value*sigmoid(c.value + h) - result.value) / h

        result.backprop()
        self.assertAlmostEqual(a.gradient, d_a, 2, "gradient of a is incorrect")
        self.assertAlmostEqual(b.gradient, d_b, 2, "gradient of b is incorrect")
        self.assertAlmostEqual(c.gradient, d_c, 2, "gradient of c is incorrect")

    def test_backpropagation(self):
        a = Mini(3)
        b = Mini(2)
        c = a * b
        d = c + 1
        e = d ** 2
        e.backprop()
        self.assertEqual(a.gradient, 28, "gradient of a is incorrect")
        self.assertEqual(b.gradient, 42, "gradient of b is incorrect")
        self.assertEqual(c.gradient, 14, "gradient of c is incorrect")
        self.assertEqual(d.gradient, 14, "gradient of d is incorrect")

    def test_backpropagation_numerically(self):
        # numerical tests to calm my insecurities
        w1 = Mini(3)
        x1 = Mini(2)
        b = Mini(-1)
        a = Mini(2)
        y = (w1*x1 + b)**a
        
        h = 0.00001
        d_w1 = (((w1.value + h)*x1.value + b.value)**a.value - y.value) / h
        d_x1 = ((w1.value*(x1.value + h) + b.value)**a.value - y.value) / h
        d_b = ((w1.value*x1.value + (b.value + h))**a.value - y.value) / h
        d_a = ((w1.value*x1.value + b.value)**(a.value + h) - y.value) / h

        y.backprop()
        self.assertAlmostEqual(w1.gradient, d_w1, 2, "gradient of w1 is incorrect")
        self.assertAlmostEqual(x1.gradient, d_x1, 2, "gradient of x1 is incorrect")
        self.assertAlmostEqual(b.gradient, d_b, 2, "gradient of b is incorrect")
        self.assertAlmostEqual(a.gradient, d_a, 2, "gradient of a is incorrect")

unittest.main()
