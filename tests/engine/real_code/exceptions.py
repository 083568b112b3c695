class ShapeError(ValueError):
    pass

def check(n):
    if n < 0:
        raise ShapeError(f"negative: {n}")
    return n

out = []
for n in [1, -2, 3]:
    try:
        out.append(check(n))
    except ShapeError as e:
        out.append(str(e))
        print("caught", e, e.args, repr(e))
    else:
        print("fine", n)
    finally:
        print("done", n)
try:
    x = 1 / 0
except ZeroDivisionError as e:
    print("zde", e)
try:
    d = {}
    d["k"]
except KeyError:
    print("key")
except Exception:
    print("no")
def f():
    try:
        return 1
    finally:
        print("finally in f")
print(f())
try:
    raise NotImplementedError
except RuntimeError as e:
    print("nie", repr(e))
if __name__ == "__main__":
    print("main")
print(out)
v = Value(1.0)
v.backward()
print(v.grad)
