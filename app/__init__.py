"""backprop-animator's web service and command line: a thin layer over `engine`.

`app.main` builds the FastAPI app, `app.routes` holds one router per resource and
`app.cli` is the `backprop-animator` command. Nothing here knows how a trace is made;
it moves programs in and traces out, safely and without blocking.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("backprop-animator")
except PackageNotFoundError:  # a source checkout that was never installed
    __version__ = "0+unknown"
