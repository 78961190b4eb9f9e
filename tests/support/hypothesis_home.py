"""Where Hypothesis keeps its caches for this suite: the system's temp dir (the test
command's scratch dir during a run), never the checkout; it keeps no example database.

Run as a module (`python -m tests.support.hypothesis_home`), it builds the tables of
the characters `st.text()` draws from into that home, once, so that each pytest worker
reads them instead of building them again; the test command runs it beside mypy.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis.configuration import set_hypothesis_home_dir

__all__ = ["use_suite_home"]


def use_suite_home() -> None:
    set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "satchel-tests-hypothesis"))


def _build_tables() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=1, database=None, deadline=None)
    @given(st.text())
    def draw(text: str) -> None:
        del text

    draw()


if __name__ == "__main__":
    use_suite_home()
    _build_tables()
