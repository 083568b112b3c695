import math  

def f(x):
    return 3*x**2-4*x+5

f(3)

h = 0.001
x =3.00
limit=(f(x+h)-f(x))/h
print(limit)

a=2.0
b=-3.0
c=10.0
d=a*b+c
print(d)

h=0.0001
a=2.0
b=-3.0
c=10.0

d1=a*b+c
# a+=h
c+=h
d2=a*b+c
print(f"d1 : {d1}")
print(f"d2 : {d2}")
print(F"slope : {(d2-d1)/h}") # lim(f(x+h)-f(x))/h

class Value():
    def __init__(self,data,_childern=(),_op='',label=''):
        self.data=data
        self.grad=0.0
        self._backward=lambda: None  # by defult wont do nothing
        self._prev=set(_childern)
        self._op=_op
        self.label=label
        
    def __repr__(self):
        return f"value: data={self.data}"
    
    def __add__(self,other):
        # assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out=Value(self.data + other.data,(self,other),'+')
        def _backward():
            self.grad+=1.0 * out.grad
            other.grad+=1.0* out.grad
        out._backward=_backward
        return out
    
    def __mul__(self,other):
        # assert isinstance(other, (int, float)), "only supporting int/float powers for now"
        out=Value(self.data*other.data,(self,other),'*')
        def _backward():
            self.grad+=other.data * out.grad
            other.grad+=self.data * out.grad
        out._backward=_backward
        return out
    
    def exp(self):
        x=self.data
        out=Value(math.exp(x),(self, ),'exp')
        def _backward():
            self.grad=out.data*out.grad
        out._backward=_backward
    
    def __rmul__(self, other): # other * self
        return self * other
    
    
    def tanh(self):
        x=self.data
        t=(math.exp(2*x)-1)/(math.exp(2*x)+1)
        out=Value(t,(self, ),"tanh")
        def _backward():
            self.grad+=(1-t**2)*out.grad
        out._backward=_backward
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

        self.grad=1.0
        for node in reversed(topo):
            node._backward()

a=Value(2.0,label='a')
b=Value(-3.0 ,label='b')
c=Value(10.0,label='c')
print(a+b)
print(a*b)
e=a*b
e.label='e'
d=e+c
d.label='d'
d._prev
f=Value(-2.0, label='f')
L=d*f
L.label='L'

L.grad=1.0
d.grad=-2.0
f.grad=4.0
c.grad=-2.0
e.grad=-2.0
a.grad=6.0
b.grad=-4.0
"""
lets find the 
dl/dd
dl/de

L=d*f
-- dl/dd
(f(x+h)-f(x))/h
((d+h)*f)-(d*f))/h
(h*f)/h=f

-- dl/de=
(d*f+d*h)-d*f)/h=d


d=c+e   derivative of addition is 1
-- dd/dc
(C+h+e)-(c+e)/h=1

-- dd/de=1

---chain rule---
dl/dc=dl/dd * (dd/dc)=-2*1=-1
dl/de=dl/dd * (dd/de)=-2*1=-2



dl/da=dl/de * de/da=-3*-2=6
dl/db=dl/de *de/db=2*-2

-- de/da=-3.0
e=a*b
a*b+ h*b - a*b/h=-3.0



--de/db=2.0
a*h/h=a
"""

# single optimization process

a.data+=0.01*a.grad
b.data+=0.01*b.grad
c.data+=0.01*c.grad
f.data+=0.01*f.grad

e=a*b
d=e+c
L=d*f

L

# to double-check the grad
def lol():
    h=0.001

    a=Value(2.0,label='a')
    b=Value(-3.0 ,label='b')
    c=Value(10.0,label='c')
    e=a*b; e.label='e'
    d=e+c; d.label='d'
    f=Value(-2.0, label='f')
    L=d*f;L.label='L'
    L1=L.data

    a=Value(2.0,label='a')
    b=Value(-3.0 ,label='b')
    c=Value(10.0,label='c')
    e=a*b; e.label='e'
    d=e+c; d.label='d'
    f=Value(-2.0, label='f')
    L=d*f;L.label='L'
    L2=L.data +h

    print((L2-L1)/h)

lol()

# activation functions 
"""
    threshold
    sigmoid 
    relu
    tanh
"""

## complex Neural networks

x1=Value(2.0,label="x1")
x2=Value(0.0,label="x2")
w1=Value(-3.0,label="w1")
w2=Value(1.0,label="w2")
b=Value(6.8813735070195432,label="b")

x1w1=x1*w1;x1w1.label="x1w1"
x2w2=x2*w2;x2w2.label="x2w2"

x1w1x2w2=x1w1 + x2w2; x1w1x2w2.label="x1w1x2w2"
n=x1w1x2w2+b; n.label="n"

o=n.tanh(); o.label="o"

"""
manual 

"""
# o.grad=1.0
# n.grad=0.5
# x1w1x2w2.grad=0.5
# b.grad=0.5
# x1w1.grad=0.5
# x2w2.grad=0.5
# x2.grad=w2.data*x2w2.grad
# w2.grad=x2.data*x2w2.grad
# x1.grad=w1.data*x1w1.grad
# w1.grad=x1.data*x1w1.grad

"""
do/dn 
dtanhx/dx=1-tanh^2 x
1-o.data**2
"""

o.backward()

# o.grad=1.0

# o._backward()

# n._backward()

# b._backward()

# x1w1x2w2._backward()

# x1w1._backward()
x2w2._backward()

# using topoloigical sort

o.grad=1.0

topo = []
visited = set()
def build_topo(v):
    if v not in visited:
        visited.add(v)
        for child in v._prev:
            build_topo(child)
        topo.append(v)
build_topo(o)
topo
