"""backprop-animator from Python: `animate(program or Value)` shows the player in
Jupyter and saves it as a standalone HTML file (see `app.notebook`).

    from backprop_animator import animate
    animate("x = 2.0\\ny = tanh(x * 3)")          # a program, as the web page takes it
    animate(o).save("neuron.html")               # o: a Value built in Python (micrograd too)
"""

from backprop_animator.app import __version__
from backprop_animator.app.notebook import Animation, animate

__all__ = ["Animation", "__version__", "animate"]
