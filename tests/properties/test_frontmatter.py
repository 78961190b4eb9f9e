"""Frontmatter never raises and always ends: any bytes give a `Frontmatter` with
diagnostics (`satchel.foundations.frontmatter`), the YAML layer raises only its own `YamlProblem`
(`satchel.core._yaml`), the fast path answers or declines (`satchel.core._fastyaml`), and a file
parses the same with LF, CRLF and a byte order mark."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from satchel.core import _fastyaml
from satchel.core._yaml import YamlProblem, compose_checked
from satchel.foundations.frontmatter import BOM, Frontmatter, decode_body, parse, parse_yaml

from .support import PROPS, finishes

# Pieces of YAML that reach every branch: anchors, aliases, tags, merge keys, flow
# collections, block scalars, quotes, numbers, dates, deep nesting, odd characters.
_PIECES = st.sampled_from(
    ["name", "description", ":", ": ", "-", "- ", "  ", "\t", "#", "&a", "*a", "!!python/object",
     "!x", "<<", "[", "]", "{", "}", ",", "'", '"', "|", ">", "?", "%YAML 1.1", "---", "...",
     "1e999", "0x1f", "9" * 120, "2024-01-01", "yes", "null", "~", "é", "\u202e", "\ufeff",
     "\x85", "\u2028", "\x00", "\x07", "\\", "[[[[[[[[[[", "a: [b, {c: d}]", "x", "é: ü"]
)  # fmt: skip
_LINE = st.lists(_PIECES, max_size=6).map("".join)
_YAML_LINES = st.lists(_LINE, max_size=12)
_BODY = st.lists(st.sampled_from(["text", "---", "", "# h", "```", "é", "\t"]), max_size=5)


@st.composite
def _document(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    lines = draw(_YAML_LINES)
    if draw(st.booleans()):
        lines = ["a:" + "\n  " * 0 + "".join(f"\n{'  ' * i}k{i}:" for i in range(70))]
    return lines, draw(_BODY)


def _join(yaml_lines: list[str], body: list[str], end: str, bom: bool) -> bytes:
    text = "\n".join(["---", *yaml_lines, "---", *body])
    return (BOM if bom else b"") + text.replace("\n", end).encode("utf-8", "surrogatepass")


def _check(result: Frontmatter) -> None:
    assert isinstance(result, Frontmatter)
    assert result.fields is None or isinstance(result.fields, dict)
    assert all(d.code.split(".")[0] in ("frontmatter", "encoding") for d in result.diagnostics)


@PROPS
@given(st.binary(max_size=2048), st.booleans())
def test_any_bytes_parse_to_values_and_diagnostics(data: bytes, complete: bool) -> None:
    _check(finishes(lambda: parse(data, complete=complete)))
    _check(finishes(lambda: parse(b"---\n" + data, complete=complete)))
    _check(finishes(lambda: parse(b"---\n" + data + b"\n---\nbody", complete=complete)))


@PROPS
@given(_document(), st.booleans())
def test_yaml_shaped_documents_never_raise(doc: tuple[list[str], list[str]], bom: bool) -> None:
    data = _join(*doc, "\n", bom)
    result = finishes(lambda: parse(data))
    _check(result)
    for cut in (1, len(data) // 2, len(data) - 1):  # a head read of a longer file
        _check(finishes(lambda c=cut: parse(data[:c], complete=False)))  # type: ignore[misc]


@PROPS
@given(st.lists(_LINE, max_size=12).map("\n".join))
def test_the_yaml_layer_raises_only_its_own_problem(text: str) -> None:
    try:
        finishes(lambda: compose_checked(text))
    except YamlProblem as problem:
        assert problem.code.startswith("frontmatter.yaml.")
    fast = finishes(lambda: _fastyaml.parse(text))
    assert fast is None or isinstance(fast, dict)
    fields, diags = finishes(lambda: parse_yaml(text))
    assert fields is None or isinstance(fields, dict)
    assert fields is not None or diags


@PROPS
@given(_document())
def test_lf_crlf_and_bom_twins_parse_the_same(doc: tuple[list[str], list[str]]) -> None:
    results = []
    for end, bom in (("\n", False), ("\r\n", False), ("\n", True), ("\r\n", True)):
        data = _join(*doc, end, bom)
        result = parse(data)
        body = decode_body(data, result.body_start) if result.fields is not None else None
        codes = [(d.code, d.line, d.severity) for d in result.diagnostics]
        results.append((result.fields, body, codes))
    assert all(r == results[0] for r in results), results
