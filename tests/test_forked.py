"""A report step run in a forked child gives back its result, or raises in
the parent what it raised; a child that dies says so."""
import os
import signal

import pytest

from trebuchet.report import forked
from trebuchet.store import database as store
from trebuchet.core.errors import TrebuchetError


def test_a_step_gives_back_its_result_from_a_process_of_its_own():
    assert forked.start(lambda: {"pid": os.getpid()})() != {"pid": os.getpid()}


def test_a_steps_error_is_raised_in_the_parent(tmp_path):
    with pytest.raises(TrebuchetError, match="no such store"):
        forked.start(lambda: store.connect(tmp_path / "none.db"))()


def test_a_child_that_dies_is_an_error_not_a_hang():
    with pytest.raises(TrebuchetError, match="ended without a result"):
        forked.start(lambda: os.kill(os.getpid(), signal.SIGKILL))()
