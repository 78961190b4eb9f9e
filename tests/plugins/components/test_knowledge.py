"""Vibe knowledge folders (Vibe's knowledge rules): every rule and limit a test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from satchel.plugins.components._knowledge import load_knowledge
from tests.plugins.helpers import KNOWLEDGE_HEAD
from tests.support import codes, put

EXAMPLE = KNOWLEDGE_HEAD + "\n# Accounting policy\n"


def directory(root: Path) -> Path:
    return root / "ai.mistral.vibe" / "knowledge"


def folder(root: Path, dirname: str, text: str | bytes | None = None, **fields: str) -> Path:
    if text is None:
        fields = {"name": dirname, "description": "What this folder holds.", **fields}
        text = "---\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()) + "---\n\nBody.\n"
    return put(directory(root) / dirname / "KNOWLEDGE.md", text)


def load(root: Path):
    return load_knowledge(directory(root), root, "demo", "ns")


def refused(root: Path) -> str:
    found, diags = load(root)
    assert found == ()
    assert codes(diags) == ["plugin.knowledge.invalid"]
    assert diags[0].message.endswith("; the folder is skipped")
    return diags[0].message


def test_the_vibe_guide_example_loads(root):
    entry = folder(root, "accounting-policy", EXAMPLE)
    put(entry.parent / "reference.md", "More.\n")
    found, diags = load(root)
    assert diags == []
    (item,) = found
    assert (item.name, item.description) == (
        "accounting-policy",
        "How revenue is recognized and reported.",
    )
    assert (item.display_name, item.icon, item.plugin, item.path) == (
        "Accounting Policy",
        "book",
        "demo",
        entry,
    )


def test_folders_load_in_name_order_and_loose_files_are_ignored(root):
    for name in ("zeta", "alpha", "mid-1"):
        folder(root, name)
    put(directory(root) / "README.md", "not a folder\n")
    found, diags = load(root)
    assert diags == [] and [k.name for k in found] == ["alpha", "mid-1", "zeta"]


def test_a_missing_directory_is_no_error(root):
    assert load(root) == ((), [])


def test_a_bad_folder_is_dropped_and_the_others_load(root):
    folder(root, "good")
    folder(root, "bad", description="tiny")
    found, diags = load(root)
    assert [k.name for k in found] == ["good"]
    assert codes(diags) == ["plugin.knowledge.invalid"]
    assert diags[0].message.startswith("knowledge ns:bad: ")


# --- name ---------------------------------------------------------------------------


def test_the_name_must_equal_the_folder(root):
    folder(root, "policy", name="other")
    message = refused(root)
    assert message == (
        "knowledge ns:policy: the frontmatter names 'other'; "
        "it must equal the folder name 'policy'; the folder is skipped"
    )


def test_the_name_is_required(root):
    folder(root, "policy", "---\ndescription: Something long.\n---\n")
    assert "the frontmatter has no name; it must equal the folder name 'policy'" in refused(root)


@pytest.mark.parametrize("name", ["Policy", "-policy", "policy-", "po_licy", "po.licy"])
def test_the_folder_name_follows_the_rule(root, name):
    folder(root, name)
    assert "the folder name must match ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$" in refused(root)


# --- description, display_name, icon -------------------------------------------------


@pytest.mark.parametrize(("size", "loads"), [(4, False), (5, True), (300, True), (301, False)])
def test_description_is_5_to_300_characters(root, size, loads):
    folder(root, "policy", description="d" * size)
    found, diags = load(root)
    assert bool(found) is loads
    if not loads:
        assert f"description is {size} characters; it must be 5-300" in diags[0].message


def test_description_is_required_and_a_string(root):
    folder(root, "a", "---\nname: a\n---\n")
    folder(root, "b", "---\nname: b\ndescription: [x]\n---\n")
    found, diags = load(root)
    assert found == ()
    assert "the frontmatter has no description" in diags[0].message
    assert "description must be a string, not a list" in diags[1].message


@pytest.mark.parametrize(
    ("field", "size", "loads"),
    [
        ("display_name", 100, True),
        ("display_name", 101, False),
        ("icon", 16, True),
        ("icon", 17, False),
    ],
)
def test_display_name_and_icon_limits(root, field, size, loads):
    folder(root, "policy", **{field: "x" * size})
    found, diags = load(root)
    assert bool(found) is loads
    if not loads:
        assert f"{field} is {size} characters; the limit is" in diags[0].message


def test_unknown_frontmatter_fields_are_ignored(root):
    folder(root, "policy", tags="[a, b]")
    found, diags = load(root)
    assert diags == [] and len(found) == 1


# --- the entrypoint ------------------------------------------------------------------


def _sized(size: int) -> bytes:
    head = b"---\nname: big\ndescription: A big knowledge file.\n---\n"
    return head + b"x" * (size - len(head) - 1) + b"\n"


def test_a_256_kib_entrypoint_loads(root):
    folder(root, "big", _sized(256 * 1024))
    found, diags = load(root)
    assert diags == [] and len(found) == 1


def test_an_entrypoint_one_byte_over_256_kib_is_refused(root):
    entry = folder(root, "big", _sized(256 * 1024 + 1))
    message = refused(root)
    assert "KNOWLEDGE.md: the file is 262145 bytes; the limit is 262144 (256 KiB)" in message
    assert load(root)[1][0].path == entry


def test_a_folder_without_knowledge_md_is_refused(root):
    (directory(root) / "empty").mkdir(parents=True)
    assert "KNOWLEDGE.md: no such file" in refused(root)


def test_an_entrypoint_that_is_a_directory_is_refused(root):
    (directory(root) / "odd" / "KNOWLEDGE.md").mkdir(parents=True)
    assert "KNOWLEDGE.md: it is not a regular file" in refused(root)


def test_a_fifo_entrypoint_does_not_block(root):
    (directory(root) / "pipe").mkdir(parents=True)
    os.mkfifo(directory(root) / "pipe" / "KNOWLEDGE.md")
    assert "not a regular file" in refused(root)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "no frontmatter\n",
            "KNOWLEDGE.md frontmatter: the file does not start with a --- frontmatter line",
        ),
        ("---\nname: [\n---\n", "KNOWLEDGE.md frontmatter:"),
        ("---\n- a\n---\n", "KNOWLEDGE.md frontmatter:"),
        (b"---\nname: x\ndescription: fine text\n---\n\xff\n", "KNOWLEDGE.md: invalid UTF-8"),
    ],
)
def test_broken_frontmatter_or_text_is_refused(root, text, words):
    folder(root, "x", text)
    assert words in refused(root)


# --- symlinks ------------------------------------------------------------------------


def test_a_symlink_anywhere_in_the_folder_is_refused_even_inside_the_root(root):
    entry = folder(root, "policy")
    (entry.parent / "deep" / "er").mkdir(parents=True)
    (entry.parent / "deep" / "er" / "link.md").symlink_to(entry)
    assert "deep/er/link.md is a symlink; knowledge folders may hold no symlinks" in refused(root)


def test_a_symlinked_entrypoint_is_refused(root, tmp_path):
    (directory(root) / "policy").mkdir(parents=True)
    outside = put(tmp_path / "secret.md", "---\nname: policy\ndescription: stolen text\n---\n")
    (directory(root) / "policy" / "KNOWLEDGE.md").symlink_to(outside)
    assert "KNOWLEDGE.md is a symlink" in refused(root)


def test_a_symlinked_subdirectory_is_refused(root, tmp_path):
    entry = folder(root, "policy")
    (tmp_path / "out").mkdir()
    (entry.parent / "refs").symlink_to(tmp_path / "out")
    assert "refs is a symlink" in refused(root)


def test_a_folder_that_is_a_symlink_is_refused(root):
    folder(root, "real")
    (directory(root) / "alias").symlink_to("real")
    found, diags = load(root)
    assert [k.name for k in found] == ["real"]
    assert diags[0].message == (
        "knowledge ns:alias: the folder is a symlink; "
        "knowledge folders may hold no symlinks; the folder is skipped"
    )


def test_a_knowledge_directory_outside_the_root_is_refused(root, tmp_path):
    (tmp_path / "elsewhere" / "x").mkdir(parents=True)
    (root / "ai.mistral.vibe").mkdir()
    directory(root).symlink_to(tmp_path / "elsewhere")
    found, diags = load(root)
    assert found == () and codes(diags) == ["plugin.path.outside_root"]


def test_a_knowledge_directory_that_is_a_file(root):
    put(directory(root), "x")
    found, diags = load(root)
    assert found == () and codes(diags) == ["plugin.knowledge.invalid"]
    assert "cannot be listed" in diags[0].message


# --- the folder limit ----------------------------------------------------------------


def test_100_folders_load(root):
    for i in range(100):
        folder(root, f"k{i:03d}")
    found, diags = load(root)
    assert diags == [] and len(found) == 100


def test_101_folders_load_the_first_100_by_name(root):
    for i in range(101):
        folder(root, f"k{i:03d}")
    found, diags = load(root)
    assert [k.name for k in found] == [f"k{i:03d}" for i in range(100)]
    assert codes(diags) == ["plugin.knowledge.invalid"]
    assert diags[0].message == "101 knowledge folders; the limit is 100: k100 are not loaded"
    assert diags[0].path == directory(root)
