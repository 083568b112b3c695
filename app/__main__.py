"""`python -m app ...` is the `backprop-animator` command."""

import sys

from app.cli import main

sys.exit(main())
