"""`python -m backprop_animator.app ...` is the `backprop-animator` command too."""

import sys

from backprop_animator.app.cli import main

sys.exit(main())
