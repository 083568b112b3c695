"""LTI 1.3: the tool side of SPEC §17 (launches, Deep Linking, grades through AGS)."""
