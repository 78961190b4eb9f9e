"""Y07 line ends and BOM, Y08 fences in the body, Y10 bad bytes in the body.

The fence errors themselves are in the table in cases.py.
"""

from __future__ import annotations

import pytest

import satchel
from tests.support import write_skill

from .build import SIBLING, make_tree, only, write_sibling

TWIN = (
    "---\n"
    "name: twin\n"
    "description: >\n"
    "  Folds these two lines\n"
    "  into one description.\n"
    "license: MIT\n"
    "allowed-tools: Read Grep\n"
    "metadata:\n"
    "  author: someone\n"
    '  note: "two\\nlines"\n'
    "---\n"
    "\n"
    "# Twin\n"
    "\n"
    "First paragraph.\n"
    "\n"
    "```yaml\n"
    "---\n"
    "key: value\n"
    "```\n"
)
BOM = b"\xef\xbb\xbf"
LINE_ENDS = {
    "lf": TWIN.encode(),
    "crlf": TWIN.replace("\n", "\r\n").encode(),
    "bom-lf": BOM + TWIN.encode(),
    "bom-crlf": BOM + TWIN.replace("\n", "\r\n").encode(),
}


def _view(skill: satchel.Skill) -> tuple[object, ...]:
    return (
        skill.name,
        skill.description,
        skill.license,
        skill.allowed_tools,
        dict(skill.metadata),
        skill.body(),
    )


@pytest.mark.parametrize("variant", ["crlf", "bom-lf", "bom-crlf"])
def test_line_end_and_bom_twins_load_identically(tmp_path, variant):
    """Y07: CRLF, BOM+LF and BOM+CRLF give the fields and the body that LF gives."""
    seen = {}
    for name in ("lf", variant):
        tree = make_tree(tmp_path / name)
        path = write_skill(tree.skills, "twin", LINE_ENDS[name])
        env = tree.load()
        assert env.diagnostics == ()
        seen[name] = _view(env.skills["twin"])
        skill, diags = satchel.parse_skill(path)
        assert diags == ()
        assert skill is not None
        assert _view(skill) == seen[name]

    assert seen[variant] == seen["lf"]
    assert seen["lf"][1] == "Folds these two lines into one description.\n"
    assert seen["lf"][4] == {"author": "someone", "note": "two\nlines"}
    assert seen["lf"][5] == "# Twin\n\nFirst paragraph.\n\n```yaml\n---\nkey: value\n```"


@pytest.mark.parametrize("prefix", [b"", BOM], ids=["cr", "bom-cr"])
def test_lone_cr_line_ends_give_no_frontmatter(tree, prefix):
    """Y07: a lone CR is not a line end, so the file does not open with a `---` line."""
    path = write_skill(tree.skills, "twin", prefix + TWIN.replace("\n", "\r").encode())
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "frontmatter.missing")
    assert (d.path, d.line) == (path, 1)
    assert d.message == "the file does not start with a --- frontmatter line"
    assert d.hint == "line ends must be LF or CRLF; a lone CR does not end a line"
    assert list(env.skills) == [SIBLING]


REOPENERS = {
    "code-fence": "```\n---\nname: evil\ndescription: Evil.\n---\n```\n",
    "second-block": "---\nname: evil\ndescription: Evil.\n---\n",
    "thematic-breaks": "Text\n\n---\n\nMore text\n\n---\nname: evil\n",
}


@pytest.mark.parametrize("body", REOPENERS.values(), ids=REOPENERS.keys())
def test_dashes_in_the_body_never_reopen_frontmatter(tree, body):
    """Y08: the frontmatter ends at the first closing fence; later `---` lines are body."""
    write_skill(tree.skills, "real", "---\nname: real\ndescription: The real one.\n---\n" + body)

    env = tree.load()

    assert env.diagnostics == ()
    assert list(env.skills) == ["real"]
    assert env.skills["real"].description == "The real one."
    assert env.skills["real"].body() == body.strip("\n")


@pytest.mark.parametrize(
    "content",
    [
        b"---\nname: edge\ndescription: d\n---",
        b"---\r\nname: edge\r\ndescription: d\r\n---",
        b"---\r\nname: edge\r\ndescription: d\n---\nBody\n",
        b"---\nname: edge\ndescription: d\r\n---\r\nBody\r\n",
    ],
    ids=["closing-at-eof", "crlf-closing-at-eof", "crlf-open-lf-close", "lf-open-crlf-close"],
)
def test_fence_edge_cases_that_load(tree, content):
    """Y08: a closing fence at end of file, and mixed LF/CRLF fences, are fences."""
    write_skill(tree.skills, "edge", content)

    env = tree.load()

    assert env.diagnostics == ()
    assert env.skills["edge"].description == "d"


BAD_BODIES = {
    "nul": (b"Hello\x00world\n", "encoding.nul", "NUL byte at byte offset {at}"),
    "latin1": (b"caf\xe9\n", "encoding.not-utf8", "invalid UTF-8 at byte offset {at}"),
    "overlong": (b"\xc0\xaf\n", "encoding.not-utf8", "invalid UTF-8 at byte offset {at}"),
}


@pytest.mark.parametrize(("body", "code", "message"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_bad_bytes_in_the_body_surface_when_the_body_is_read(tree, body, code, message):
    """Y10: discovery reads the head only; body() and parse_skill() find the bad bytes,
    with the file's byte offset and line. Nothing is decoded with replacement characters."""
    head = b"---\nname: body\ndescription: d\n---\n# Title\n\n"
    path = write_skill(tree.skills, "body", head + body)
    at = len(head) + next(i for i, b in enumerate(body) if b == 0 or b >= 0x80)

    env = tree.load()
    with pytest.raises(satchel.SkillBodyError) as raised:
        env.skills["body"].body()
    skill, diags = satchel.parse_skill(path)

    assert env.diagnostics == ()
    for d in (raised.value.diagnostic, *diags):
        assert (d.code, d.path, d.line) == (code, path, 7)
        assert d.message == message.format(at=at)
    assert skill is None
    assert len(diags) == 1
