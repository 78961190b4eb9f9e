"""Reading one command file: frontmatter or none, defaults, fields, bad files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from satchel.foundations.origin import Origin
from satchel.kinds.commands import MAX_COMMAND_FILE, Command, CommandBodyError, read_command
from tests.commands.helpers import fm, found
from tests.support import codes, put


def read(path: Path, **kw):
    return read_command(path, **kw)


def test_a_file_without_frontmatter_is_all_body(tmp_path):
    path = put(tmp_path, "fix-issue.md", "# Fix an issue\n\nFix issue $1.\n")
    command, diags = read(path, origin=Origin("project", ".claude"))
    assert diags == []
    assert command is not None
    assert (command.name, command.description) == ("fix-issue", "Fix an issue")
    assert command.body() == "# Fix an issue\n\nFix issue $1."
    assert (command.scope, command.family, command.group, command.tag) == (
        "project",
        ".claude",
        "",
        "(project)",
    )


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("\n\n   \nReview the code\nmore\n", "Review the code"),
        ("## Review  \n", "Review"),
        ("#\n# \n###Deep\n", "Deep"),
        ("   indented line  \r\nnext\r\n", "indented line"),
        ("", ""),
        ("\n\n\n", ""),
        ("---\n\n", ""),
    ],
)
def test_the_description_defaults_to_the_first_non_empty_line(tmp_path, text, description):
    command, _ = read(put(tmp_path, "x.md", text))
    assert command is not None and command.description == description


def test_a_byte_order_mark_is_not_part_of_the_body(tmp_path):
    command, diags = read(put(tmp_path, "x.md", "\ufeffHello\n".encode()))
    assert diags == [] and command is not None
    assert (command.description, command.body()) == ("Hello", "Hello")


def test_frontmatter_without_description_defaults_from_the_body(tmp_path):
    command, diags = read(put(tmp_path, "x.md", fm("\n# Title\nText\n", model="opus")))
    assert diags == [] and command is not None
    assert (command.description, command.model) == ("Title", "opus")
    assert command.body() == "# Title\nText"


def test_a_blank_description_defaults_too(tmp_path):
    command, _ = read(put(tmp_path, "x.md", fm("Line one\n", description='"  "')))
    assert command is not None and command.description == "Line one"


def test_the_default_description_is_found_past_the_first_read(tmp_path):
    text = "\n" * 10_000 + "Far down\n" + "x" * 5000
    command, diags = read(put(tmp_path, "x.md", text))
    assert diags == [] and command is not None and command.description == "Far down"


def test_a_long_default_description_is_cut_to_1024_characters(tmp_path):
    command, _ = read(put(tmp_path, "x.md", "y" * 9000 + "\n"))
    assert command is not None and command.description == "y" * 1024


def test_a_colon_in_an_unquoted_description_loads_with_a_warning(tmp_path):
    path = put(tmp_path, "x.md", "---\ndescription: Use when: x\n---\nBody\n")
    command, diags = read(path)
    assert command is not None and command.description == "Use when: x"
    assert found(diags) == [
        (
            "frontmatter.yaml.colon-fallback",
            "warning",
            "line(s) 2 hold ': ' in an unquoted value; parsed as if the value were quoted",
        )
    ]


def test_malformed_yaml_loads_with_empty_metadata_and_a_warning(tmp_path):
    path = put(tmp_path, "x.md", "---\ndescription: [unclosed\nmodel: opus\n---\nThe body\n")
    command, diags = read(path)
    assert command is not None
    assert (command.description, command.model, dict(command.extras)) == ("The body", None, {})
    assert command.body() == "The body"
    assert [(d.code, d.severity, d.path) for d in diags] == [
        ("frontmatter.yaml.syntax", "warning", path)
    ]


def test_claude_codes_bracket_hints_load_through_the_fallback(tmp_path):
    # `argument-hint: [pr] [priority]` is not YAML (a list, then more text); the
    # fallback reads it as the string it was meant to be, with a warning.
    text = "---\nargument-hint: [pr] [priority]\ndescription: Review a PR\n---\nReview $1\n"
    command, diags = read(put(tmp_path, "x.md", text))
    assert command is not None
    assert (command.description, command.argument_hint) == ("Review a PR", "[pr] [priority]")
    assert found(diags) == [
        (
            "frontmatter.yaml.colon-fallback",
            "warning",
            "line(s) 2 hold text after a [bracket] group in an unquoted value; "
            "parsed as if the value were quoted",
        )
    ]


def test_an_unterminated_frontmatter_makes_the_whole_file_the_body(tmp_path):
    command, diags = read(put(tmp_path, "x.md", "---\ndescription: d\nBody\n"))
    assert command is not None
    assert command.body() == "---\ndescription: d\nBody"
    assert command.description == "description: d"  # the fence line is passed over
    assert found(diags) == [
        (
            "frontmatter.unterminated",
            "warning",
            "the frontmatter opened with --- on line 1 has no closing --- line",
        )
    ]


def test_frontmatter_that_is_not_a_mapping_loads_with_a_warning(tmp_path):
    command, diags = read(put(tmp_path, "x.md", "---\n- a\n- b\n---\nBody\n"))
    assert command is not None and command.description == "Body"
    assert [(d.code, d.severity) for d in diags] == [("frontmatter.not-mapping", "warning")]


def test_the_kept_fields(tmp_path):
    text = fm(
        description="Deploy the app",
        argument_hint="'<env> [--dry-run]'",
        allowed_tools="Bash(git add:*), Bash(git status:*), Read",
        model="claude-3-5-haiku-20241022",
        disable_model_invocation="true",
        context="fork",
        hooks="{}",
    )
    command, diags = read(put(tmp_path, "deploy.md", text))
    assert diags == [] and command is not None
    assert command.description == "Deploy the app"
    assert command.argument_hint == "<env> [--dry-run]"
    assert command.allowed_tools == ("Bash(git add:*)", "Bash(git status:*)", "Read")
    assert command.model == "claude-3-5-haiku-20241022"
    assert command.disable_model_invocation is True
    assert dict(command.extras) == {"context": "fork", "hooks": {}}


@pytest.mark.parametrize(
    ("value", "joined"),
    [("[message]", "[message]"), ("[pr-number, priority]", "[pr-number] [priority]"), ("3", "3")],
)
def test_an_argument_hint_list_reads_back_as_the_text_it_was_meant_as(tmp_path, value, joined):
    command, diags = read(put(tmp_path, "x.md", fm(argument_hint=value)))
    assert diags == [] and command is not None and command.argument_hint == joined


@pytest.mark.parametrize(
    "value",
    ["Read Bash(git:*)", "[Read, 'Bash(git:*)']", "Read, Bash(git:*)", "'  Read\tBash(git:*) '"],
)
def test_allowed_tools_shapes_normalize_as_for_skills(tmp_path, value):
    command, diags = read(put(tmp_path, "x.md", fm(allowed_tools=value)))
    assert diags == [] and command is not None
    assert command.allowed_tools == ("Read", "Bash(git:*)")


@pytest.mark.parametrize(
    ("value", "flag"),
    [
        ("true", True), ("yes", True), ("on", True), ("'1'", True), ("1", True),
        ("'Yes'", True), ("false", False), ("no", False), ("off", False), ("'0'", False),
        ("0", False),
    ],
)  # fmt: skip
def test_disable_model_invocation_forms(tmp_path, value, flag):
    command, diags = read(put(tmp_path, "x.md", fm(disable_model_invocation=value)))
    assert diags == [] and command is not None
    assert command.disable_model_invocation is flag


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("description", "5", "a string, not a number"),
        ("model", "[a, b]", "a string, not a list"),
        ("allowed-tools", "7", "a string or a list of strings, not a number"),
        ("allowed-tools", "[1, 2]", "a string or a list of strings, not a list"),
        ("argument-hint", "{a: 1}", "a string or a list, not a mapping"),
        ("disable-model-invocation", "maybe", "true or false, not a string"),
        ("disable-model-invocation", "2", "true or false, not a number"),
        ("name", "12", "a string, not a number"),
    ],
)
def test_a_kept_field_of_the_wrong_type_is_a_warning_and_ignored(tmp_path, key, value, expected):
    path = put(tmp_path, "cmd.md", f"---\n{key}: {value}\n---\nFirst line\n")
    command, diags = read(path)
    assert command is not None
    assert command.name == "cmd" and command.description == "First line"
    assert (command.model, command.allowed_tools, command.argument_hint) == (None, (), None)
    assert command.disable_model_invocation is False
    assert found(diags) == [
        ("frontmatter.field.type", "warning", f"field `{key}` must be {expected}; it is ignored")
    ]


def test_name_overrides_the_stem(tmp_path):
    command, diags = read(put(tmp_path, "deploy.md", fm(name="ship", description="d")))
    assert diags == [] and command is not None and command.name == "ship"


def test_not_utf8_is_skipped(tmp_path):
    path = put(tmp_path, "x.md", b"Hello \xff world\n")
    command, diags = read(path)
    assert command is None
    assert found(diags) == [("encoding.not-utf8", "error", "invalid UTF-8 at byte offset 6")]


def test_a_nul_byte_is_skipped(tmp_path):
    command, diags = read(put(tmp_path, "x.md", b"---\ndescription: d\x00\n---\n"))
    assert command is None and codes(diags) == ["encoding.nul"]


def test_utf16_is_skipped(tmp_path):
    command, diags = read(put(tmp_path, "x.md", "Hello\n".encode("utf-16")))
    assert command is None
    assert found(diags) == [
        (
            "encoding.not-utf8",
            "error",
            "the file is UTF-16 (it starts with a UTF-16 byte order mark)",
        )
    ]


def test_bad_bytes_late_in_the_body_show_only_when_the_body_is_read(tmp_path):
    path = put(tmp_path, "x.md", b"---\ndescription: d\n---\n" + b"ok\n" * 3000 + b"\xff\n")
    command, diags = read(path)
    assert diags == [] and command is not None
    with pytest.raises(CommandBodyError) as caught:
        command.body()
    assert caught.value.diagnostic.code == "encoding.not-utf8"


def test_the_1_mib_cap(tmp_path):
    at_cap = put(tmp_path, "ok.md", b"Fits\n" + b"x" * (MAX_COMMAND_FILE - 5))
    command, diags = read(at_cap)
    assert command is not None and diags == [] and command.description == "Fits"
    over = put(tmp_path, "big.md", b"x" * (MAX_COMMAND_FILE + 1))
    command, diags = read(over)
    assert command is None
    assert found(diags) == [
        ("command.read.error", "error", "the file is 1048577 bytes; the limit is 1048576 (1 MiB)")
    ]


def test_a_fifo_is_refused_without_blocking(tmp_path):
    path = tmp_path / "pipe.md"
    os.mkfifo(path)
    command, diags = read(path)
    assert command is None
    assert found(diags) == [
        ("command.read.error", "error", "cannot read the command file: not a regular file")
    ]


def test_a_directory_named_like_a_command_is_refused(tmp_path):
    (tmp_path / "dir.md").mkdir()
    command, diags = read(tmp_path / "dir.md")
    assert command is None and codes(diags) == ["command.read.error"]


def test_a_symlink_inside_the_directory_is_read(tmp_path):
    put(tmp_path, "real.md", "Real\n")
    (tmp_path / "alias.md").symlink_to("real.md")
    command, diags = read(tmp_path / "alias.md")
    assert diags == [] and command is not None
    assert (command.name, command.body()) == ("alias", "Real")


def test_a_symlink_out_of_the_root_is_refused(tmp_path):
    outside = put(tmp_path, "secret.md", "Secret\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "leak.md").symlink_to(outside)
    command, diags = read(root / "leak.md")
    assert command is None
    assert found(diags) == [
        (
            "command.read.error",
            "error",
            f"cannot read the command file: a symlink to {outside}, outside {root}",
        )
    ]


def test_a_symlink_loop_and_a_dangling_symlink_are_refused(tmp_path):
    (tmp_path / "loop.md").symlink_to("loop.md")
    (tmp_path / "gone.md").symlink_to("nothing.md")
    assert found(read(tmp_path / "loop.md")[1]) == [
        ("command.read.error", "error", "cannot read the command file: a symlink loop")
    ]
    assert found(read(tmp_path / "gone.md")[1]) == [
        ("command.read.error", "error", "cannot read the command file: a symlink to nothing")
    ]


def test_a_missing_file_is_an_error_not_an_exception(tmp_path):
    command, diags = read(tmp_path / "none.md")
    assert command is None
    assert found(diags) == [
        ("command.read.error", "error", "cannot read the command file: no such file")
    ]


def test_the_body_is_read_when_asked_for(tmp_path):
    path = put(tmp_path, "x.md", fm("Old\n", description="d"))
    command, _ = read(path)
    assert command is not None
    path.write_text(fm("\r\nNew\r\n", description="d"))
    assert command.body() == "New"
    path.unlink()
    with pytest.raises(CommandBodyError) as caught:
        command.body()
    assert caught.value.diagnostic.code == "command.read.error"
    assert str(caught.value) == "cannot read the body: no such file"


def test_a_huge_frontmatter_loads_with_a_warning_and_the_body_after_it(tmp_path):
    text = "---\ndescription: d\nx: '" + "y" * 70_000 + "'\n---\nAfter\n"
    command, diags = read(put(tmp_path, "x.md", text))
    assert command is not None and command.description == "After"
    assert command.body() == "After"
    assert [(d.code, d.severity) for d in diags] == [("frontmatter.too-large", "warning")]


def test_commands_defined_in_code():
    fixed = Command("review", "Review the diff", text="Review $ARGUMENTS")
    assert (fixed.body(), fixed.expand("main..HEAD"), fixed.tag) == (
        "Review $ARGUMENTS",
        "Review main..HEAD",
        "(builtin)",
    )
    prompt = Command("mcp__git__log", origin=Origin("mcp"), render=lambda raw: f"log of {raw!r}")
    assert (prompt.body(), prompt.expand(" -n 3 "), prompt.tag) == (
        "",
        "log of ' -n 3 '",
        "(mcp)",
    )
    assert Command("p:x", origin=Origin("plugin", namespace="p")).tag == "(plugin:p)"
    assert Command("x", origin=Origin("user")).tag == "(user)"


def test_to_json(tmp_path):
    path = put(tmp_path, "a" / Path("x.md"), fm(description="d", when="now", n=".nan"))
    command, _ = read(path, origin=Origin("user", ".claude"), group="a")
    assert command is not None
    assert command.to_json() == {
        "name": "x",
        "description": "d",
        "argument_hint": None,
        "allowed_tools": [],
        "model": None,
        "disable_model_invocation": False,
        "extras": {"when": "now", "n": "nan"},
        "path": str(path),
        "scope": "user",
        "family": ".claude",
        "group": "a",
        "plugin": None,
        "aliases": ["a:x"],
        "origin": "(user)",
        "dynamic": False,
        "syntax": "markdown",
    }
