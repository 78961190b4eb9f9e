"""XML text and attribute escaping, as `xml.sax.saxutils` does it, without importing
the `xml` package (which pulls `urllib.request` and `http.client` with it)."""

from __future__ import annotations

__all__ = ["escape", "quoteattr"]

_ATTRIBUTE = (("\n", "&#10;"), ("\r", "&#13;"), ("\t", "&#9;"))


def escape(text: str) -> str:
    """`text` with ``&``, ``<`` and ``>`` as entities (`xml.sax.saxutils.escape`)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """`text` escaped and quoted as an attribute value (`xml.sax.saxutils.quoteattr`):
    newlines, carriage returns and tabs as character references, then in double
    quotes, or in single quotes when it holds ``"`` but no ``'``, else with ``&quot;``."""
    text = escape(text)
    for char, entity in _ATTRIBUTE:
        text = text.replace(char, entity)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    quoted = text.replace('"', "&quot;")
    return f'"{quoted}"'
