"""A 64-bit generator and a hash written with masks, as seeded code writes them."""

class LCG:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF
    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.state >> 11
    def uniform(self):
        return self.next() / float(1 << 53)
g = LCG(42)
print([round(g.uniform(), 6) for _ in range(5)])
h = 1469598103934665603
for ch in "backprop":
    h = ((h ^ ord(ch)) * 1099511628211) % 2**64
print(h, 2**100, (1 << 200) >> 190)
v = Value(1.0)
v.backward()
