"""Vibe libraries.json (Vibe's library rules): alias rules, path rules, limits, collisions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from satchel.plugins._model import Library
from satchel.plugins.components._libraries import drop_colliding, load_libraries
from tests.plugins.helpers import write_json_file
from tests.support import codes, put

EXAMPLE = {
    "schemaVersion": 1,
    "node": {"@productivity/finance": "./node/finance", "lodash": "./node/lodash"},
    "python": {"vibe_finance": "./python/vibe_finance", "utils": "./python/utils.py"},
}


def tree(root: Path) -> None:
    put(root / "node" / "finance" / "index.js", "")
    put(root / "node" / "lodash" / "package.json", "{}")
    put(root / "python" / "vibe_finance" / "__init__.py", "")
    put(root / "python" / "utils.py", "")


def load(root: Path, doc: Any):
    return load_libraries(write_json_file(root / "libraries.json", doc), root, "demo")


def entry(root: Path, language: str, alias: str, source: Any):
    return load(root, {"schemaVersion": 1, language: {alias: source}})


def refused(
    root: Path, language: str, alias: str, source: Any, code: str = "plugin.library.invalid"
) -> str:
    found, diags = entry(root, language, alias, source)
    assert found == ()
    assert codes(diags) == [code]
    assert diags[0].message.startswith(f"{language} library {alias!r}: ")
    assert diags[0].message.endswith("; it is skipped")
    assert diags[0].path == root / "libraries.json"
    return diags[0].message


def test_the_vibe_guide_example_loads_with_resolved_paths(root):
    tree(root)
    found, diags = load(root, EXAMPLE)
    assert diags == []
    real = root.resolve()
    assert [(lib.language, lib.alias, lib.path) for lib in found] == [
        ("node", "@productivity/finance", real / "node" / "finance"),
        ("node", "lodash", real / "node" / "lodash"),
        ("python", "vibe_finance", real / "python" / "vibe_finance"),
        ("python", "utils", real / "python" / "utils.py"),
    ]
    assert {lib.plugin for lib in found} == {"demo"}


def test_a_missing_file_is_no_error(root):
    assert load_libraries(root / "libraries.json", root, "demo") == ((), [])


def test_a_bad_entry_is_dropped_and_the_others_load(root):
    tree(root)
    found, diags = load(
        root, {**EXAMPLE, "python": {**EXAMPLE["python"], "9bad": "./python/utils.py"}}
    )
    assert len(found) == 4 and codes(diags) == ["plugin.library.invalid"]


# --- aliases -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "ok"),
    [
        ("lodash", True),
        ("@scope/pkg", True),
        ("a.b_c-d", True),
        ("x" * 214, True),
        ("x" * 215, False),
        ("Lodash", False),
        ("@Scope/pkg", False),
        ("@scope/", False),
        ("_private", False),
        ("a/b", False),
        ("@a/b/c", False),
        ("", False),
    ],
)
def test_node_aliases(root, alias, ok):
    put(root / "lib" / "index.js", "")
    found, diags = entry(root, "node", alias, "./lib")
    assert bool(found) is ok
    if not ok:
        rule = "^(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$"
        assert f"the alias must match {rule} and be at most 214" in diags[0].message


@pytest.mark.parametrize(
    ("alias", "ok"),
    [
        ("utils", True),
        ("_x", True),
        ("CamelCase9", True),
        ("x" * 128, True),
        ("x" * 129, False),
        ("9lives", False),
        ("a-b", False),
        ("a.b", False),
        ("", False),
    ],
)
def test_python_aliases(root, alias, ok):
    put(root / "lib.py", "")
    found, diags = entry(root, "python", alias, "./lib.py")
    assert bool(found) is ok
    if not ok:
        assert (
            "the alias must match ^[A-Za-z_][A-Za-z0-9_]*$ and be at most 128" in diags[0].message
        )


# --- paths ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("lib", "it must start with ./ (a path relative to the plugin root)"),
        ("/abs/lib", "it is absolute; plugin paths start with ./"),
        ("C:/lib", "it is absolute"),
        (".\\lib", "it holds a backslash; plugin paths use forward slashes"),
        ("./a\\b", "it holds a backslash"),
        ("./lib/../lib", "it has a .. segment"),
        ("./../x", "it has a .. segment"),
        ("./", "it names the plugin root itself"),
        ("./.", "it names the plugin root itself"),
        ("./missing", "source './missing' does not exist"),
    ],
)
def test_path_rules(root, source, words):
    put(root / "lib" / "index.js", "")
    assert words in refused(root, "node", "lib", source)


def test_a_source_that_is_not_a_string(root):
    assert "the source must be a string, not a number" in refused(root, "node", "lib", 1)


def test_node_sources_must_be_directories(root):
    put(root / "lib.js", "")
    assert "source './lib.js' must be a directory (a node package)" in refused(
        root, "node", "lib", "./lib.js"
    )


def test_python_sources_are_a_directory_or_a_py_file(root):
    put(root / "pkg" / "__init__.py", "")
    put(root / "mod.py", "")
    put(root / "notes.txt", "")
    found, diags = load(
        root,
        {"schemaVersion": 1, "python": {"pkg": "./pkg", "mod": "./mod.py", "txt": "./notes.txt"}},
    )
    assert [lib.alias for lib in found] == ["pkg", "mod"]
    assert "must be a directory (a package) or a .py file" in diags[0].message


def test_a_source_that_is_a_symlink_is_refused_even_inside_the_root(root):
    put(root / "real" / "index.js", "")
    (root / "lib").symlink_to("real")
    assert "source './lib': lib is a symlink; library paths may hold no symlinks" in refused(
        root, "node", "lib", "./lib"
    )


def test_a_symlink_on_the_way_to_the_source_is_refused(root, tmp_path):
    put(tmp_path / "outside" / "pkg" / "index.js", "")
    (root / "vendor").symlink_to(tmp_path / "outside")
    assert "vendor is a symlink" in refused(root, "node", "pkg", "./vendor/pkg")


def test_a_symlink_inside_the_library_tree_is_refused(root):
    put(root / "lib" / "src" / "a.js", "")
    (root / "lib" / "src" / "b.js").symlink_to("a.js")
    message = refused(root, "node", "lib", "./lib")
    assert (
        "source './lib': src/b.js is a symlink; library directories may hold no symlinks" in message
    )


def test_a_py_file_that_is_a_symlink_is_refused(root):
    put(root / "real.py", "")
    (root / "mod.py").symlink_to("real.py")
    assert "mod.py is a symlink" in refused(root, "python", "mod", "./mod.py")


def test_a_plugin_root_reached_through_a_symlink_still_works(root, tmp_path):
    put(root / "lib" / "index.js", "")
    link = tmp_path / "linked-plugin"
    link.symlink_to(root)
    found, diags = load_libraries(
        write_json_file(link / "libraries.json", {"schemaVersion": 1, "node": {"lib": "./lib"}}),
        link,
        "demo",
    )
    assert diags == [] and found[0].path == root.resolve() / "lib"


# --- the file ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        ([], "libraries.json must be a JSON object, not a list"),
        ({"node": {}}, "it has no schemaVersion"),
        ({"schemaVersion": 2}, "schemaVersion must be 1, not 2"),
        ({"schemaVersion": True}, "schemaVersion must be 1, not True"),
        ({"schemaVersion": 1.0}, "schemaVersion must be 1, not 1.0"),
        ({"schemaVersion": 1, "ruby": {}}, "unknown top-level field 'ruby'"),
        (
            {"schemaVersion": 1, "node": ["./x"]},
            "node must be an object of alias -> path, not a list",
        ),
    ],
)
def test_a_bad_file_loads_no_library(root, doc, words):
    found, diags = load(root, doc)
    assert found == ()
    assert codes(diags) == ["plugin.libraries.invalid"]
    assert diags[0].message == f"{words}; no library of this plugin loads"


def test_invalid_json_and_duplicate_aliases(root):
    found, diags = load_libraries(
        put(root / "libraries.json", '{"schemaVersion": 1,\n "node": {"a": "./a", "a": "./b"}}'),
        root,
        "demo",
    )
    assert found == () and codes(diags) == ["plugin.libraries.invalid"]
    assert "the key 'a' appears twice in one object" in diags[0].message


@pytest.mark.parametrize("language", ["node", "python"])
def test_128_entries_per_language_load(root, language):
    aliases = {f"lib{i}": f"./libs/lib{i}" for i in range(128)}
    for i in range(128):
        (root / "libs" / f"lib{i}").mkdir(parents=True)
    found, diags = load(root, {"schemaVersion": 1, language: aliases})
    assert diags == [] and len(found) == 128


@pytest.mark.parametrize("language", ["node", "python"])
def test_129_entries_of_one_language_load_nothing(root, language):
    aliases = {f"lib{i}": f"./libs/lib{i}" for i in range(129)}
    found, diags = load(root, {"schemaVersion": 1, language: aliases})
    assert found == ()
    assert (
        diags[0].message
        == f"{language} declares 129 libraries; the limit is 128; no library of this plugin loads"
    )


def test_the_file_must_stay_inside_the_root(root, tmp_path):
    outside = write_json_file(tmp_path / "libs.json", EXAMPLE)
    (root / "libraries.json").symlink_to(outside)
    found, diags = load_libraries(root / "libraries.json", root, "demo")
    assert found == () and codes(diags) == ["plugin.path.outside_root"]


# --- collisions across plugins -------------------------------------------------------


def lib(plugin: str, alias: str, language: str = "node") -> Library:
    return Library(language, alias, Path(f"/plugins/{plugin}/{alias}"), plugin)  # type: ignore[arg-type]


def test_an_alias_shared_by_three_plugins_is_dropped_from_all(root):
    libraries = [
        lib("a", "shared"),
        lib("a", "only-a"),
        lib("b", "shared"),
        lib("c", "shared"),
        lib("c", "only-c"),
        lib("b", "shared", "python"),  # another language: no collision
    ]
    kept, diags = drop_colliding(libraries)
    assert [(x.plugin, x.alias, x.language) for x in kept] == [
        ("a", "only-a", "node"),
        ("c", "only-c", "node"),
        ("b", "shared", "python"),
    ]
    assert codes(diags) == ["plugin.library.alias_collision"] * 3
    dropped = "it is dropped from all of them"
    assert [d.message for d in diags] == [
        f"node library alias 'shared' of plugin 'a' is also declared by 'b', 'c'; {dropped}",
        f"node library alias 'shared' of plugin 'b' is also declared by 'a', 'c'; {dropped}",
        f"node library alias 'shared' of plugin 'c' is also declared by 'a', 'b'; {dropped}",
    ]
    assert [d.path for d in diags] == [
        Path("/plugins/a/shared"),
        Path("/plugins/b/shared"),
        Path("/plugins/c/shared"),
    ]


def test_no_collision_keeps_everything():
    libraries = [lib("a", "x"), lib("b", "y")]
    assert drop_colliding(libraries) == (tuple(libraries), [])


def test_a_plugin_listed_twice_keeps_its_first_entry():
    kept, diags = drop_colliding([lib("a", "x"), lib("a", "x")])
    assert kept == (lib("a", "x"),) and diags == []


def test_collisions_across_loaded_plugins(tmp_path):
    roots = []
    for name in ("p1", "p2", "p3"):
        root = tmp_path / name
        put(root / "node" / "shared" / "index.js", "")
        write_json_file(
            root / "libraries.json", {"schemaVersion": 1, "node": {"shared": "./node/shared"}}
        )
        roots.append(root)
    loaded = [load_libraries(r / "libraries.json", r, r.name)[0] for r in roots]
    kept, diags = drop_colliding([x for found in loaded for x in found])
    assert kept == () and len(diags) == 3
