"""What the tests and the benchmarks in bench/ share: a live server and generated programs.

`harness` runs the app on a free port and names the flags Chromium needs here;
`programs` writes MLP-like and fan-out programs of a chosen size, and gives
micrograd's `nn.py` with training code to append to it; `foreign` is a micrograd-style
engine that is not ours, for the tests of `trace_value` and the notebook; `traces` keeps
a program's trace for the other tests of one process that ask for the same. Tests stand on
their own, so this lives under tests/ and bench/ imports it, never the other way round.
"""
