"""Where the tests find files, whether they run in this checkout or against the wheel.

`scripts/test` runs the suite in the checkout against the editable install;
`scripts/test-wheel` copies tests/ and bench/ away from the source tree and runs them
against the installed wheel, with `BACKPROP_TEST_WHEEL=1` and `BACKPROP_CHECKOUT`
naming the checkout. So:

- `PACKAGE` is the imported `backprop_animator` directory: the code under test, with
  its `engine/` and `app/` (links in the checkout, real folders in the wheel);
- `CHECKOUT` is the repository, for what the wheel does not carry (docs/, README.md,
  and the article in ../shared beside it).

Static files and templates are found with `backprop_animator.app.paths.find_asset_dir`,
which knows both layouts.
"""

from __future__ import annotations

import os
from pathlib import Path

import backprop_animator

WHEEL = os.environ.get("BACKPROP_TEST_WHEEL") == "1"
PACKAGE = Path(backprop_animator.__file__).parent
CHECKOUT = Path(os.environ.get("BACKPROP_CHECKOUT") or Path(__file__).resolve().parents[2])
