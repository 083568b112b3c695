"""`python -m backprop_animator ...` is the `backprop-animator` command."""

import sys

from backprop_animator.app.cli import main

sys.exit(main())
