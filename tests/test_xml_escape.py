"""satchel.core._xml escapes exactly as xml.sax.saxutils does, which it replaces."""

from __future__ import annotations

from xml.sax.saxutils import escape as sax_escape
from xml.sax.saxutils import quoteattr as sax_quoteattr

from hypothesis import given
from hypothesis import strategies as st

from satchel.core._xml import escape, quoteattr

MARKUP = st.text(alphabet=st.sampled_from("&<>\"'\n\r\t a;#é\u2028"), max_size=12) | st.text()


@given(MARKUP)
def test_escape_is_saxutils_escape(text):
    assert escape(text) == sax_escape(text)


@given(MARKUP)
def test_quoteattr_is_saxutils_quoteattr(text):
    assert quoteattr(text) == sax_quoteattr(text)


def test_quoteattr_picks_its_quotes():
    assert quoteattr("a<b") == '"a&lt;b"'
    assert quoteattr('say "hi"') == "'say \"hi\"'"
    assert quoteattr('it\'s "x"\n') == '"it\'s &quot;x&quot;&#10;"'
