"""A process-wide setting held by the engine's calls at once (`engine.shared_setting`): the
host's value comes back once, after the last holder, whatever happened in between."""

from __future__ import annotations

import gc
import sys
import threading

import pytest

from backprop_animator.engine import _collector_relaxed
from backprop_animator.engine.limits import CPYTHON_INT_DIGITS, _cpython_int_digits
from backprop_animator.engine.run import _recursion_room
from backprop_animator.engine.shared_setting import SharedSetting


class Host:
    """A setting that records every value set."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.sets: list[int] = []

    def get(self) -> int:
        return self.value

    def set(self, value: int) -> None:
        self.sets.append(value)
        self.value = value


def most(host: int, wants: list[int]) -> int:
    return max(host, *wants)


def test_nested_holders_set_once_and_put_the_host_value_back_once() -> None:
    host = Host(100)
    setting = SharedSetting(host.get, host.set, most)
    with setting.held(500):
        assert host.value == 500
        with setting.held(300):  # wants less: the limit stays the most asked for
            assert host.value == 500
            with setting.held(800):
                assert host.value == 800
            assert host.value == 500
        assert setting.holders == 1
    assert host.value == 100
    assert host.sets == [500, 800, 500, 100]
    assert setting.holders == 0


def test_a_holder_that_wants_no_change_sets_nothing() -> None:
    host = Host(1_000)
    setting = SharedSetting(host.get, host.set, most)
    with setting.held(10), setting.held(20):
        assert host.value == 1_000
    assert host.sets == []


def test_concurrent_holders_put_the_host_value_back_exactly_once() -> None:
    host = Host(7)
    setting: SharedSetting[int, None] = SharedSetting(
        host.get, host.set, lambda found, wants: found * 10
    )
    inside = threading.Barrier(8, timeout=60)
    seen: list[int] = []

    def hold() -> None:
        with setting.held(None):
            inside.wait()  # all eight hold it at once
            seen.append(host.value)
            inside.wait()

    threads = [threading.Thread(target=hold) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert seen == [70] * 8
    assert host.value == 7
    assert host.sets == [70, 7]


def test_an_exception_in_the_block_puts_the_host_value_back() -> None:
    host = Host(3)
    setting = SharedSetting(host.get, host.set, most)
    with pytest.raises(ZeroDivisionError), setting.held(9):
        assert host.value == 9
        _ = 1 / 0
    assert host.value == 3
    assert setting.holders == 0
    with setting.held(4):  # and the next holder starts afresh
        assert host.value == 4
    assert host.value == 3


def test_a_setter_that_fails_on_entry_leaves_no_holder_behind() -> None:
    def refuse(value: int) -> None:
        raise ValueError(value)

    setting = SharedSetting(lambda: 1, refuse, most)
    with pytest.raises(ValueError), setting.held(2):
        pass
    assert setting.holders == 0


def test_a_value_the_host_set_meanwhile_is_the_hosts_to_keep() -> None:
    host = Host(100)
    setting = SharedSetting(host.get, host.set, most)
    with setting.held(500):
        host.value = 2_000  # the host's own change, while a holder holds it
        with setting.held(600):  # a holder that wants another value sets it again
            assert host.value == 600
        host.value = 50  # lowered under the holders' feet
        with setting.held(300):  # the next holder in sets what the holders want again
            assert host.value == 500
        host.value = 3_000
    assert host.value == 3_000  # the last one out did not undo the host's change
    assert host.sets == [500, 600, 500, 500]


def test_the_engines_three_settings_come_back_as_they_were() -> None:
    digits, limit, thresholds = (
        sys.get_int_max_str_digits(),
        sys.getrecursionlimit(),
        gc.get_threshold(),
    )
    sys.set_int_max_str_digits(1_000)
    try:
        with _cpython_int_digits(), _recursion_room(limit + 5_000), _collector_relaxed():
            assert sys.get_int_max_str_digits() == CPYTHON_INT_DIGITS
            assert sys.getrecursionlimit() == limit + 5_000
            with _cpython_int_digits(), _recursion_room(limit + 10):
                assert sys.getrecursionlimit() == limit + 5_000
        assert sys.get_int_max_str_digits() == 1_000
        assert sys.getrecursionlimit() == limit
        assert gc.get_threshold() == thresholds
    finally:
        sys.set_int_max_str_digits(digits)
