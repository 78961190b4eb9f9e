"""The discovery cache: an unchanged SKILL.md is not read again, a changed one always is,
a bad or foreign cache file is ignored and rewritten, and the cache never changes what
`load()` returns."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import satchel
from satchel import Layout, RootSpec
from satchel.foundations._version import __version__
from satchel.skills._cache import FORMAT
from tests.support import put, skill_md, write_skill

ONE_ROOT = [RootSpec("project", ".agents", "{project}/.agents/skills")]
AN_HOUR = 3600 * 10**9


@pytest.fixture
def root(project: Path) -> Path:
    path = project / ".agents" / "skills"
    path.mkdir(parents=True)
    return path


def load(project: Path, home: Path, **kw: object) -> satchel.Environment:
    layout = Layout.default(project, home=home, roots=ONE_ROOT, env={})
    return satchel.load(layout=layout, **kw)  # type: ignore[arg-type]


def backdate(*paths: Path, ns: int | None = None) -> int:
    """Date files an hour back (the cache keeps no file modified in its last seconds)."""
    when = time.time_ns() - AN_HOUR if ns is None else ns
    for path in paths:
        os.utime(path, ns=(when, when))
    return when


def cache_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.marshal")) if cache.is_dir() else []


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path `os.open` is asked for from now on."""
    seen: list[str] = []
    real = os.open

    def spy(path: str | os.PathLike[str], flags: int, *args: int, **kw: object) -> int:
        seen.append(os.fspath(path))
        return real(path, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", spy)
    return seen


def test_a_warm_load_opens_no_skill_md(project, home, root, private_cache, opened):
    backdate(write_skill(root, "alpha"), write_skill(root, "beta"))
    first = load(project, home)
    assert [p for p in opened if p.endswith("SKILL.md")] == [
        str(root / "alpha" / "SKILL.md"),
        str(root / "beta" / "SKILL.md"),
    ]
    assert len(cache_files(private_cache)) == 1
    opened.clear()
    second = load(project, home)
    assert [p for p in opened if p.endswith("SKILL.md")] == []
    assert [s.to_json() for s in second.skills.values()] == [
        s.to_json() for s in first.skills.values()
    ]


def test_a_file_replaced_with_the_same_size_and_mtime_is_read_again(project, home, root):
    path = write_skill(root, "alpha", description="First text.")
    when = backdate(path)
    assert load(project, home).skills["alpha"].description == "First text."
    replacement = put(root / "alpha" / "new.tmp", skill_md("alpha", "Other text."))
    os.replace(replacement, path)  # a new inode, same size
    backdate(path, ns=when)
    assert load(project, home).skills["alpha"].description == "Other text."


def test_a_file_rewritten_in_place_with_a_new_mtime_is_read_again(project, home, root):
    path = write_skill(root, "alpha", description="First text.")
    when = backdate(path)
    assert load(project, home).skills["alpha"].description == "First text."
    with open(path, "r+b") as f:  # the same inode and size
        f.write(skill_md("alpha", "Other text.").encode())
    backdate(path, ns=when + 1)
    assert load(project, home).skills["alpha"].description == "Other text."


def test_a_file_modified_just_before_it_was_read_is_not_kept(project, home, root, opened):
    write_skill(root, "alpha")  # modified now: a second write could keep its size and mtime
    load(project, home)
    opened.clear()
    load(project, home)
    assert str(root / "alpha" / "SKILL.md") in opened


def _tamper(cache: Path, version: str) -> Path:
    """Rewrite the one cache file with another description for every skill."""
    (file,) = cache_files(cache)
    _, _, entries = marshal.loads(file.read_bytes())
    changed = {k: (*v[:6], "Tampered.", *v[7:]) for k, v in entries.items()}
    file.write_bytes(marshal.dumps((FORMAT, version, changed)))
    return file


def test_the_cache_is_what_a_warm_load_reads(project, home, root, private_cache):
    backdate(write_skill(root, "alpha"))
    load(project, home)
    _tamper(private_cache, __version__)
    assert load(project, home).skills["alpha"].description == "Tampered."


def test_a_cache_from_another_satchel_version_is_ignored(project, home, root, private_cache):
    backdate(write_skill(root, "alpha", description="Real text."))
    load(project, home)
    file = _tamper(private_cache, "0.0.0-other")
    assert load(project, home).skills["alpha"].description == "Real text."
    assert marshal.loads(file.read_bytes())[1] == __version__  # rewritten


def test_a_cache_file_others_could_write_is_not_read(project, home, root, private_cache):
    backdate(write_skill(root, "alpha", description="Real text."))
    load(project, home)
    file = _tamper(private_cache, __version__)
    file.chmod(0o666)
    assert load(project, home).skills["alpha"].description == "Real text."


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "wrong shape"])
def test_a_damaged_cache_file_is_ignored_and_rewritten(project, home, root, private_cache, damage):
    backdate(write_skill(root, "alpha"), write_skill(root, "beta", name="wrong name"))
    cold = load(project, home, cache=False)
    load(project, home)
    (file,) = cache_files(private_cache)
    data = file.read_bytes()
    file.write_bytes(
        {
            "truncated": data[: len(data) // 2],
            "garbage": b"\x00\xff not marshal at all",
            "empty": b"",
            "wrong shape": marshal.dumps((FORMAT, __version__, {str(root): (1, 2)})),
        }[damage]
    )
    warm = load(project, home)
    assert _seen(warm) == _seen(cold)
    _, version, entries = marshal.loads(file.read_bytes())
    assert version == __version__
    assert sorted(entries) == [str(root / "alpha" / "SKILL.md"), str(root / "beta" / "SKILL.md")]


def test_the_setting_off_reads_and_writes_no_cache_file(
    project, home, root, private_cache, opened, monkeypatch
):
    backdate(write_skill(root, "alpha"))
    load(project, home)
    (file,) = cache_files(private_cache)
    opened.clear()
    load(project, home, cache=False)
    monkeypatch.setenv("SATCHEL_CACHE", "off")
    load(project, home)
    assert str(file) not in opened
    assert [p for p in opened if p.startswith(str(private_cache))] == []
    assert opened.count(str(root / "alpha" / "SKILL.md")) == 2


WRITER = textwrap.dedent(
    """
    import marshal, sys
    from pathlib import Path
    from satchel.skills._cache import _write
    me = sys.argv[2]
    data = marshal.dumps((me, [me * 1000] * 200))
    for _ in range(40):
        _write(Path(sys.argv[1]), "shared.marshal", data)
    """
)


def test_two_processes_writing_at_once_leave_a_whole_cache(private_cache):
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(private_cache), who])
        for who in ("a", "b")
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    who, values = marshal.loads((private_cache / "shared.marshal").read_bytes())
    assert who in ("a", "b")
    assert values == [who * 1000] * 200
    assert sorted(p.name for p in private_cache.iterdir()) == ["shared.marshal"]  # no temp left
    assert private_cache.stat().st_mode & 0o777 == 0o700
    assert (private_cache / "shared.marshal").stat().st_mode & 0o777 == 0o600


# A corpus of what a root may hold: good skills, skills with warnings, skills that do not
# load, host fields, metadata, tools, Unicode, a near miss, a twin, a shadowed name.
CORPUS = {
    "plain": skill_md("plain"),
    "full": skill_md(
        "full",
        "Does everything.",
        license="MIT",
        compatibility="Python 3.11",
        extra='metadata:\n  author: me\n  version: "1.0"\nallowed-tools: Bash(git:*) Read\n',
    ),
    "hosty": skill_md(
        "hosty",
        extra="when_to_use: Often.\npaths:\n  - src/**\nmodel: opus\neffort: 3\n"
        "disallowed-tools: Write\ncontext: fork\nbackground: true\nshell: bash\n"
        "argument-hint: '[x]'\nhooks:\n  PreToolUse: []\n",
    ),
    "misnamed": skill_md("Not A Name"),
    "other-dir": skill_md("elsewhere"),
    "no-description": skill_md("no-description", None),
    "placeholder": skill_md("placeholder", "TODO"),
    "bad-yaml": "---\nname: bad-yaml\ndescription: [unclosed\n---\nBody\n",
    "no-fence": "name: no-fence\ndescription: d\n",
    "unknown-field": skill_md("unknown-field", wibble="x"),
    "long-description": skill_md("long-description", "x" * 1100),
    "unicode": skill_md("unicode", "Déjà vu, naïve café — 日本語."),
    "folded": "---\nname: folded\ndescription: >\n  One\n  two.\n---\nBody\n",
    "dupe-a": skill_md("dupe"),
    "dupe-b": skill_md("dupe"),
}


def _seen(env: satchel.Environment) -> object:
    return (
        [(s.to_json(), s.origin, s.stamp, s.path) for s in env.skills.values()],
        list(env.diagnostics),
        [(s.winner.path, s.loser.path) for s in env.shadowed],
        list(env.roots),
    )


def test_the_cache_never_changes_what_load_returns(project, home, root, private_cache, opened):
    paths = [write_skill(root, name, text) for name, text in CORPUS.items()]
    paths.append(put(root / "near" / "skill.md", skill_md("near")))
    paths.append(put(root / "plain" / "skill.md", skill_md("plain")))  # a twin
    backdate(*paths)
    cold = load(project, home, cache=False)
    assert cold.diagnostics  # the corpus gives plenty to compare
    first = load(project, home)
    assert cache_files(private_cache)
    opened.clear()
    warm = load(project, home)
    assert [p for p in opened if p.lower().endswith("skill.md")] == []  # all from the cache
    strict_cold = load(project, home, cache=False, strict=True)
    strict_warm = [load(project, home, strict=True) for _ in range(2)][1]
    assert _seen(first) == _seen(cold)
    assert _seen(warm) == _seen(cold)
    assert _seen(strict_warm) == _seen(strict_cold)
    assert _seen(strict_cold) != _seen(cold)


def test_each_root_and_rule_set_has_a_cache_file_of_its_own():
    from satchel.skills._cache import file_name
    from satchel.skills._fields import FieldRules

    lenient, strict = FieldRules(), FieldRules(strict=True)
    roots = [Path("/p/a+b"), Path("/p/a b"), Path("/p/a/b"), Path("/p/a%2Fb"), Path("/p/a.b")]
    names = {file_name(r, lenient) for r in roots} | {file_name(r, strict) for r in roots}
    assert len(names) == 2 * len(roots)
    assert file_name(Path("/p/x"), FieldRules(client="zidane")) != file_name(Path("/p/x"), lenient)
    assert file_name(Path("/p/a/b"), lenient) == (
        f"{FORMAT}+{__version__}+%2Fp%2Fa%2Fb+0+0+satchel.marshal"
    )


def test_a_root_whose_name_is_too_long_for_a_file_is_named_by_its_digest():
    from satchel.skills._cache import file_name
    from satchel.skills._fields import FieldRules

    deep = Path("/", *["directory-" + str(i) for i in range(30)])
    name = file_name(deep, FieldRules())
    assert len(name) == 32 + len(".marshal") and name.endswith(".marshal")
    assert all(c in "0123456789abcdef" for c in name.removesuffix(".marshal"))
    assert name != file_name(deep / "more", FieldRules())


def test_a_root_with_a_name_that_is_not_utf8_is_cached(project, home, root):
    odd = root.parent / "sk\udcffills"
    backdate(write_skill(odd, "deploy", description="Deploy it."))
    layout = Layout.default(project, home=home, roots=[RootSpec("project", ".x", str(odd))], env={})
    first = satchel.load(layout=layout)
    again = satchel.load(layout=layout)
    assert list(first.skills) == list(again.skills) == ["deploy"]
    cache = Path(os.environ["SATCHEL_CACHE_DIR"])
    assert [p.name for p in cache_files(cache) if "%FF" in p.name] != []


# Each a field of a well-formed entry given a value of another type than `store` keeps:
# (its index in the entry, the value). A hand-edited file, or one from a bug, must never
# reach the code that renders a skill.
WRONG_TYPES = {
    "name": (5, 7),
    "description": (6, ["a", "list"]),
    "license": (7, 3),
    "metadata": (9, {"owner": 1}),
    "allowed_tools": (10, "Read Bash"),
    "extras": (11, {"x": {1, 2}}),
    "paths": (13, ["src/**"]),
    "effort": (16, True),
    "background": (20, "yes"),
    "diagnostics": (4, (("skill.x", "bad severity", "m", None, None, None),)),
}


@pytest.mark.parametrize("field", sorted(WRONG_TYPES))
def test_an_entry_of_wrong_types_counts_as_missing_and_is_rewritten(
    project, home, private_cache, capsys, field
):
    from satchel.cli import main

    root = project / ".agents" / "skills"
    backdate(write_skill(root, "alpha", description="Alpha does things."))
    where = ["--project", str(project), "--home", str(home)]
    verbs = (["list"], ["index"], ["doctor", "--json"])

    def run(verb: list[str]) -> tuple[int, str]:
        code = main([*verb, *where])
        return code, capsys.readouterr().out

    good = [run(v) for v in verbs]
    (file,) = cache_files(private_cache)
    _, _, entries = marshal.loads(file.read_bytes())
    at, value = WRONG_TYPES[field]
    (key,) = entries
    file.write_bytes(
        marshal.dumps(
            (FORMAT, __version__, {key: (*entries[key][:at], value, *entries[key][at + 1 :])})
        )
    )
    assert [run(v) for v in verbs] == good
    assert marshal.loads(file.read_bytes())[2] == entries  # read again and rewritten
