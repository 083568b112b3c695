"""The lab (SPEC §7-§9, §13, §14): the bug lab's mistaken engines, the sort step by
step, the gradient check, and the right engine a learner's own is checked against;
each reads a recorded pass."""
