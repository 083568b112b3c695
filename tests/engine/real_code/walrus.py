"""The walrus operator, in a function, a comprehension and a loop test."""

def f(xs):
    total = 0
    ys = [last := x * 2 for x in xs]
    if (n := len(ys)) > 2:
        total = n
    return ys, last, total
print(f([1, 2, 3]))
while (k := 3) < 2:
    pass
print(k, [(z := i) for i in range(3)], z)
v = Value(1.0)
v.backward()
