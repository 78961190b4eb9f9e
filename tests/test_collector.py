"""collector_paused: off inside the block, as it was after it, even on error or nested."""

from __future__ import annotations

import gc

import pytest

from satchel.core._collector import collector_paused


@pytest.fixture(autouse=True)
def _restore_collector():
    yield
    gc.enable()


def test_a_pause_inside_a_pause_keeps_it_off_until_the_outer_one_ends():
    gc.enable()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_in_the_block_still_turns_it_back_on():
    gc.enable()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
