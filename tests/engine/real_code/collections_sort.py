"""A topological sort and bookkeeping written with collections, as many engines do."""

from collections import Counter, OrderedDict, defaultdict, deque, namedtuple

Edge = namedtuple("Edge", ["src", "dst"])


class Node:
    def __init__(self, data, parents=(), op=""):
        self.data = data
        self.grad = 0.0
        self._prev = tuple(parents)
        self._op = op
        self._backward = lambda: None

    def __mul__(self, other):
        out = Node(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __add__(self, other):
        out = Node(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def backward(self):
        # Kahn's algorithm: count consumers, then peel from the output.
        consumers = defaultdict(int)
        seen, queue = {id(self)}, deque([self])
        while queue:
            node = queue.popleft()
            for p in node._prev:
                consumers[id(p)] += 1
                if id(p) not in seen:
                    seen.add(id(p))
                    queue.append(p)
        self.grad = 1.0
        ready = deque([self])
        while ready:
            node = ready.popleft()
            node._backward()
            for p in node._prev:
                consumers[id(p)] -= 1
                if consumers[id(p)] == 0:
                    ready.append(p)


a, b = Node(3.0), Node(-2.0)
c = a * b
d = c + a
e = d * d
e.backward()
print(a.grad, b.grad, c.grad, d.grad)
ops = Counter(n._op for n in [a, b, c, d, e])
print(ops.most_common(2), ops["/"], len(ops))
edges = [Edge(p._op or "leaf", n._op) for n in [c, d, e] for p in n._prev]
print(edges[0], edges[0].src, edges[-1][1], len(edges), edges[1] == ("leaf", "*"))
src, dst = edges[2]
print(src, dst, edges[2]._asdict())
groups = defaultdict(list)
for edge in edges:
    groups[edge.dst].append(edge.src)
print(dict(groups), OrderedDict(x=1, y=2))
q = deque([1, 2, 3])
q.appendleft(0)
q.rotate(1)
print(list(q), q.pop(), q.popleft())
print(groups, ops, q, OrderedDict(), Counter())
v = Value(1.0)
v.backward()
