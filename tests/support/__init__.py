"""What the tests and the benchmarks in bench/ share: a live server and generated programs.

`harness` runs the app on a free port and names the flags Chromium needs here;
`programs` writes MLP-like and fan-out programs of a chosen size. Tests stand on
their own, so this lives under tests/ and bench/ imports it, never the other way round.
"""
