"""S01 the SKILL.md size cap, S03 token truncation, S04 trees too big, deep or wide."""

from __future__ import annotations

import os
import re

import pytest

import satchel
from satchel import approx_tokens, truncate
from satchel.skills._cache import cache_dir
from tests.support import skill_md, write_skill

from .build import NESTED, SIBLING, found, only, write_sibling
from .cases import s01_sizes, s04_deep, s04_many_dirs, s04_many_files, s04_many_skills

MIB = 1_048_576


@pytest.fixture
def io_log(monkeypatch):
    """Record the paths opened, the bytes read from each, and the directories listed."""
    log = {"opened": [], "read": {}, "listed": []}
    real_open, real_read, real_scandir = os.open, os.read, os.scandir
    fds: dict[int, str] = {}

    def open_(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        fds[fd] = os.fspath(path)
        if not os.fspath(path).startswith(str(cache_dir())):  # satchel's own cache
            log["opened"].append(os.fspath(path))
        return fd

    def read(fd, n):
        data = real_read(fd, n)
        if fd in fds:
            log["read"][fds[fd]] = log["read"].get(fds[fd], 0) + len(data)
        return data

    def scandir(path="."):
        log["listed"].append(os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "read", read)
    monkeypatch.setattr(os, "scandir", scandir)
    return log


# --- S01 ------------------------------------------------------------------------------


def test_skill_md_over_one_mib_is_rejected_and_one_mib_loads(tree):
    _, over_cap = s01_sizes(tree)
    write_sibling(tree.skills)

    env = tree.load()

    d = only(env, "skill.size")
    assert (d.path, d.severity) == (over_cap, "error")
    assert d.message == "SKILL.md is 1048577 bytes; the limit is 1048576 (1 MiB)"
    assert sorted(env.skills) == ["at-cap", SIBLING]
    assert (
        len(env.skills["at-cap"].body())
        == MIB - len(skill_md("at-cap", "Exactly sized.", "", gap=False)) - 1
    )


def test_discovery_never_reads_past_the_head(tree, io_log):
    """S01: the size is judged by fstat; an over-cap file is not read at all, and a
    1 MiB file only as far as its closing fence."""
    at_cap, over_cap = s01_sizes(tree)

    tree.load()

    assert io_log["read"].get(str(over_cap), 0) == 0
    assert 0 < io_log["read"][str(at_cap)] <= 64 * 1024


def test_parse_skill_refuses_the_over_cap_file(tree):
    _, over_cap = s01_sizes(tree)

    skill, diags = satchel.parse_skill(over_cap)

    assert skill is None
    assert [(d.code, d.message) for d in diags] == [
        ("skill.size", "SKILL.md is 1048577 bytes; the limit is 1048576 (1 MiB)")
    ]


# --- S03 ------------------------------------------------------------------------------

MARKER = re.compile(r"\[truncated by satchel: ([\d,]+) of ([\d,]+) characters omitted\]")
UNITS = {
    "ascii-60k": ("a", 60_000),
    "cjk-40k": ("\u6f22", 40_000),
    "emoji-zwj-20k": ("\U0001f469\u200d\U0001f4bb", 20_000),
    "family-zwj": ("\U0001f468\u200d\U0001f469\u200d\U0001f467", 10_000),
    "skin-tone": ("\U0001f44d\U0001f3fd", 20_000),
    "flags": ("\U0001f1eb\U0001f1f7", 20_000),
    "combining": ("e\u0301\u0323", 30_000),
    "one-mib-line": ("x", MIB),
}


def _split(out: str) -> tuple[str, int, int]:
    """The kept prefix and the marker's counts; the marker must be the last line."""
    prefix, sep, last = out.rpartition("\n\n")
    assert sep
    m = MARKER.fullmatch(last)
    assert m is not None, last
    return prefix, int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


@pytest.mark.parametrize(("unit", "count"), UNITS.values(), ids=UNITS.keys())
def test_truncation_keeps_whole_characters_and_sequences_with_one_marker(unit, count):
    """S03: about 10k tokens, one marker with exact counts, never a split sequence."""
    text = unit * count

    out = truncate(text, max_tokens=10_000)

    prefix, omitted, total = _split(out)
    assert text.startswith(prefix)
    assert len(prefix) % len(unit) == 0
    assert (omitted, total) == (len(text) - len(prefix), len(text))
    assert 9_900 <= approx_tokens(out) <= 10_000
    assert len(MARKER.findall(out)) == 1
    assert truncate(text, max_tokens=10_000) == out


def test_a_fake_marker_in_the_text_does_not_make_a_second_marker():
    """S03: the marker cannot be forged: text that imitates it is not left to pass for it."""
    text = "a" * 20_000 + "\n[truncated by satchel: 5 of 10 characters omitted]\n" + "b" * 60_000

    out = truncate(text, max_tokens=10_000)

    prefix, omitted, total = _split(out)
    original = prefix.replace("\\[truncated by satchel:", "[truncated by satchel:")
    assert "\\[truncated by satchel: 5 of 10" in prefix
    assert (omitted, total) == (len(text) - len(original), len(text))
    assert len(re.findall(r"(?<!\\)\[truncated by satchel:", out)) == 1


def test_text_within_the_budget_is_returned_unchanged():
    text = "\U0001f469\u200d\U0001f4bb" * 100

    assert truncate(text, max_tokens=10_000) == text


@pytest.mark.parametrize(
    "text",
    [
        "x" * (4 * MIB),
        "\u6f22" * MIB,
        "\U0001f469\u200d\U0001f4bb" * (MIB // 3),
        "e" + "\u0301" * MIB,
        "\U0001f1eb" * MIB,
    ],
    ids=["ascii-4mib", "cjk-1m", "emoji-1m", "one-mib-of-combining-marks", "regional-run"],
)
def test_truncation_of_megabytes_keeps_a_prefix_and_counts_the_rest(text):
    """S03: megabytes, even one endless combining sequence, cut at a boundary (its
    speed is measured in bench/bounds.py)."""
    out = truncate(text, max_tokens=10_000)

    prefix, omitted, total = _split(out)
    assert text.startswith(prefix)
    assert omitted + len(prefix) == total == len(text)


def test_one_endless_combining_sequence_is_cut_before_it_not_inside_it():
    out = truncate("e" + "\u0301" * 100_000, max_tokens=10_000)

    prefix, _, _ = _split(out)
    assert prefix == ""


# --- S04 ------------------------------------------------------------------------------


def test_a_skill_with_20000_files_is_never_listed(tree, io_log):
    """S04: only SKILL.md is read, so 20,000 files beside it cost nothing. (20,000
    rather than the threat model's 100,000: creating files is the slow part here.)"""
    path = s04_many_files(tree, 20_000)
    write_sibling(tree.skills)

    for walk in (None, NESTED):
        io_log["opened"].clear()
        io_log["listed"].clear()
        env = tree.load(walk)

        assert sorted(env.skills) == ["crowded", SIBLING]
        assert env.diagnostics == ()
        assert {os.path.basename(p) for p in io_log["opened"]} == {"SKILL.md"}
        assert not [p for p in io_log["listed"] if p.startswith(str(path.parent))]


def test_depth_500_stops_at_the_depth_limit(tree):
    """S04: the nested walk stops at max_depth, says where, and keeps what it found."""
    s04_deep(tree, 500)

    env = tree.load(NESTED)

    d = only(env, "discovery.limit")
    assert d.path == tree.skills.joinpath(*["d"] * NESTED.max_depth)
    assert d.message == f"the walk stopped: 1 directory deeper than {NESTED.max_depth} levels"
    assert d.severity == "warning"
    assert list(env.skills) == ["shallow"]


def test_more_directories_than_the_budget_stop_the_walk(tree):
    s04_many_dirs(tree, NESTED.max_dirs + 100)
    write_sibling(tree.skills)

    env = tree.load(NESTED)

    d = only(env, "discovery.limit")
    assert d.path == tree.skills
    assert d.message == f"the walk stopped: more than {NESTED.max_dirs} directories"
    assert list(env.skills) == [SIBLING]


def test_5000_skills_in_one_root_all_load(tree):
    s04_many_skills(tree, 5_000)

    env = tree.load()

    assert len(env.skills) == 5_000
    assert env.diagnostics == ()
    assert list(env.skills) == sorted(env.skills)


def test_5000_skills_with_one_name_report_every_collision(tree):
    """S04: 4,999 collisions, each reported (bench/bounds.py measures that the check is
    not quadratic)."""
    for i in range(5_000):
        write_skill(tree.skills, f"dir-{i:05d}", skill_md("same", "One name.", "", gap=False))

    env = tree.load()

    assert list(env.skills) == ["same"]
    assert env.skills["same"].path == tree.skills / "dir-00000" / "SKILL.md"
    assert len(found(env, "skill.name.collision")) == 4_999
