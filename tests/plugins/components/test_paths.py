"""The shared containment helpers, and the 40-line rule for the component modules."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

import satchel
from satchel.foundations._contain import (
    Refusal,
    find_symlink,
    parse_json,
    parse_toml,
    read_inside,
    relative_form,
    resolve_in_root,
    symlink_on_path,
)
from tests.support import put

MODULES = (
    "foundations/_contain.py",
    "mcp/_parse.py",
    "hooks/_parse.py",
    "plugins/components/_knowledge.py",
    "plugins/components/_libraries.py",
    "plugins/components/_connectors.py",
)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("./a/b", None),
        ("./", None),
        ("a/b", "it must start with ./ (a path relative to the plugin root)"),
        ("/a", "it is absolute; plugin paths start with ./"),
        ("c:x", "it is absolute; plugin paths start with ./"),
        ("./a\\b", "it holds a backslash; plugin paths use forward slashes"),
        ("./a\0", "it holds a NUL byte"),
    ],
)
def test_relative_form(value, why):
    assert relative_form(value) == why


def test_resolve_in_root(root, tmp_path):
    (root / "in").mkdir()
    (root / "up").symlink_to(tmp_path)
    assert resolve_in_root(root, "./in/x") == root.resolve() / "in" / "x"
    assert resolve_in_root(root, "./in/../in") == root.resolve() / "in"
    escape = resolve_in_root(root, "./up/x")
    assert isinstance(escape, Refusal) and escape.outside
    form = resolve_in_root(root, "in")
    assert isinstance(form, Refusal) and not form.outside


def test_symlink_on_path(root, tmp_path):
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "c").symlink_to("b")
    assert symlink_on_path(root, "./a/b/x") is None
    assert symlink_on_path(root, "./a/c/x") == "a/c"


def test_find_symlink_is_bounded_and_never_follows(root, tmp_path):
    for i in range(5):
        put(root / "d" / f"f{i}", "")
    assert find_symlink(root / "d") is None
    assert find_symlink(root / "d", limit=3) == "it holds more than 3 entries"
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (root / "d" / "z").symlink_to(tmp_path)
    assert find_symlink(root / "d") == "z is a symlink"


def test_read_inside_refuses_devices_fifos_and_escapes(root):
    os.mkfifo(root / "fifo")
    (root / "zero").symlink_to("/dev/zero")
    fifo = read_inside(root / "fifo", root, 10)
    zero = read_inside(root / "zero", root, 10)
    assert isinstance(fifo, Refusal) and fifo.message == "it is not a regular file"
    assert isinstance(zero, Refusal) and zero.outside
    assert read_inside(put(root / "ok", "12345"), root, 5) == b"12345"
    big = read_inside(root / "ok", root, 4)
    assert isinstance(big, Refusal) and big.message == "the file is 5 bytes; the limit is 4 (0 KiB)"


def test_parse_json_and_toml_report_with_the_given_code(tmp_path):
    path = tmp_path / "x"
    _, problem = parse_json(b"[1,]", path, "plugin.connectors.invalid")
    assert problem is not None and problem.code == "plugin.connectors.invalid" and problem.line == 1
    doc, problem = parse_toml(b"\xef\xbb\xbfa = 1\n", path, "plugin.hooks.invalid")
    assert doc == {"a": 1} and problem is None
    _, problem = parse_toml(b"a = \xff\n", path, "plugin.hooks.invalid")
    assert problem is not None and "not valid UTF-8" in problem.message


def test_no_function_in_the_component_modules_is_over_40_lines():
    package = Path(satchel.__file__).parent
    long = []
    for name in MODULES:
        path = package / name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 40:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []
