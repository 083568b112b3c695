"""An independent LTI 1.3 platform (an LMS stand-in) and its own tests."""
