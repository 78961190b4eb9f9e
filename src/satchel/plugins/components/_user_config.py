"""A Claude Code plugin's ``userConfig``: the options a user sets for it, and their values.

``"userConfig": {"api_key": {"type": "string", "title": "API key", "description":
"...", "sensitive": true, "required": true}}``: each key is an option. Its fields, as
Claude Code 2.1.332 validates them (``claude plugin validate --json``; the schema's
describe strings; https://code.claude.com/docs/en/plugins-reference, "User
configuration"):

* the key matches ``^[A-Za-z_]\\w*$`` (it becomes ``CLAUDE_PLUGIN_OPTION_<KEY>``);
* ``type`` is one of ``string``, ``number``, ``boolean``, ``directory``, ``file``;
  ``title`` and ``description`` are strings (both required);
* ``required``, ``multiple`` (string type: a list of strings), ``sensitive`` are
  booleans; ``min``/``max`` numbers; ``default`` a string, number, boolean or list of
  strings;
* ``options`` (the only values the field takes, shown as a picker): 1-64 characters
  each, no control or bidirectional characters, no surrounding blanks, no repeat in
  any letter case, only for a string that is neither multiple nor sensitive, and it
  needs a default among them or ``required: true``;
* any other field is an error.

Claude Code refuses the whole plugin for one bad option; satchel drops that option
(``plugin.config.invalid``, with Claude Code's wording) and loads the rest: loaders
collect, never stop. A component that then references the dropped option does not
start (``plugin.config.missing``).

Values: an option that is not required reads as its default, else ""; a required one
without a default and never set is missing (`effective_values`). `check_value` holds a
value to its option (Claude Code's ``validateUserConfig`` messages); `parse_text`
reads one typed on the command line. No message carries a value.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.plugins._model import MASK, OptionType, OptionValue, UserOption

__all__ = [
    "MASK",
    "OptionType",
    "UserOption",
    "check_value",
    "effective_values",
    "fill_skill_content",
    "fill_user_config",
    "load_user_config",
    "option_environment",
    "parse_text",
    "references",
    "show_value",
    "skill_variables",
]

TYPES: tuple[OptionType, ...] = get_args(OptionType)
INVALID = "plugin.config.invalid"
KEY = re.compile(r"^[A-Za-z_]\w*$", re.ASCII)
_FIELDS = (
    "type", "title", "description", "required", "default", "multiple", "sensitive",
    "min", "max", "options",
)  # fmt: skip
_BOOLEANS = ("required", "multiple", "sensitive")
_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def load_user_config(
    value: Any, plugin: str, path: Path | None
) -> tuple[tuple[UserOption, ...], list[Diagnostic]]:
    """The options of a manifest's ``userConfig`` value, and one
    ``plugin.config.invalid`` per option dropped."""
    if value is None:
        return (), []
    if not isinstance(value, dict):
        message = f"userConfig must be an object, not {type_name(value)}; no option loads"
        return (), [diagnostic(INVALID, message, path)]
    found: list[UserOption] = []
    diags: list[Diagnostic] = []
    for key, entry in value.items():
        option, why = _option(str(key), entry, plugin)
        if option is None:
            diags.append(diagnostic(INVALID, f"userConfig.{why}; the option is dropped", path))
        else:
            found.append(option)
    return tuple(found), diags


def _option(key: str, entry: Any, plugin: str) -> tuple[UserOption | None, str]:
    if not KEY.match(key):
        return None, (
            f"{key}: option keys must be valid identifiers (letters, digits, underscore; "
            "no leading digit)"
        )
    if not isinstance(entry, dict):
        return None, f"{key}: must be an object, not {type_name(entry)}"
    problem = _shape_problem(entry)
    if problem is not None:
        return None, f"{key}{problem}"
    choices = tuple(entry.get("options") or ())
    option = UserOption(
        key=key,
        type=entry["type"],
        title=entry["title"],
        description=entry["description"],
        required=entry.get("required", False),
        default=_default(entry.get("default")),
        multiple=entry.get("multiple", False),
        sensitive=entry.get("sensitive", False),
        min=entry.get("min"),
        max=entry.get("max"),
        choices=choices,
        plugin=plugin,
    )
    problem = _choices_problem(option, "options" in entry)
    return (None, f"{key}{problem}") if problem else (option, "")


def _shape_problem(entry: Mapping[str, Any]) -> str | None:
    """What is wrong with an option's fields, as ``.field: why`` (or ``: why``)."""
    unknown = [k for k in entry if k not in _FIELDS]
    if unknown:
        return f": unrecognized key {unknown[0]!r}"
    if entry.get("type") not in TYPES:
        return ".type: expected one of " + ", ".join(TYPES)
    for name in ("title", "description"):
        if name not in entry:
            return f".{name}: is required (a string)"
        if not isinstance(entry[name], str):
            return f".{name}: expected a string, not {type_name(entry[name])}"
    for name in _BOOLEANS:
        if name in entry and not isinstance(entry[name], bool):
            return f".{name}: expected a boolean, not {type_name(entry[name])}"
    for name in ("min", "max"):
        if name in entry and not _number(entry[name]):
            return f".{name}: expected a number, not {type_name(entry[name])}"
    if "default" in entry and _default(entry["default"]) is None:
        return ".default: expected a string, a number, a boolean or a list of strings"
    return _options_shape(entry.get("options")) if "options" in entry else None


def _options_shape(choices: Any) -> str | None:
    if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        return ".options: expected a list of strings"
    if not choices:
        return ".options: options needs at least one value"
    for choice in choices:
        if not 1 <= len(choice) <= 64:
            return ".options: an option is 1-64 characters"
        if any(unicodedata.category(c) in ("Cc", "Cf") for c in choice):
            return ".options: an option cannot contain control, invisible or bidirectional-formatting characters"  # noqa: E501
        if choice.strip() != choice:
            return ".options: an option cannot start or end with a space"
    if len({c.lower() for c in choices}) != len(choices):
        return ".options: options cannot repeat a value (in any letter case)"
    return None


def _choices_problem(option: UserOption, declared: bool) -> str | None:
    if not declared:
        return None
    if option.type != "string" or option.multiple or option.sensitive:
        return '.options: options is only for a field of type "string" that is neither multiple nor sensitive'  # noqa: E501
    if option.default is None:
        if not option.required:
            return ".default: a field with options needs a default among them, or required: true"
        return None
    if option.default not in option.choices:
        return ".default: default must be one of the options: " + ", ".join(option.choices)
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _default(value: Any) -> OptionValue | None:
    if isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def check_value(option: UserOption, value: Any) -> str | None:
    """Why `value` is not one `option` takes (Claude Code's wording: ``<title> must
    be ...``), or None. The message never holds the value."""
    name = option.title or option.key
    if value is None or value == "":
        return f"{name} is required but not provided" if option.required else None
    if option.type in ("string", "directory", "file"):
        return _text_problem(option, name, value)
    if option.type == "boolean":
        return None if isinstance(value, bool) else f"{name} must be a boolean"
    if not _number(value):
        return f"{name} must be a number"
    if option.min is not None and value < option.min:
        return f"{name} must be at least {option.min:g}"
    if option.max is not None and value > option.max:
        return f"{name} must be at most {option.max:g}"
    return None


def _text_problem(option: UserOption, name: str, value: Any) -> str | None:
    kind = "a string" if option.type == "string" else "a path string"
    if isinstance(value, list | tuple):
        if not option.multiple:
            return f"{name} must be {kind}, not an array"
        return (
            None
            if all(isinstance(v, str) for v in value)
            else f"{name} must be an array of strings"
        )
    if not isinstance(value, str):
        return f"{name} must be {kind}"
    if option.choices and value not in option.choices:
        return f"{name} must be one of: " + ", ".join(option.choices)
    return None


def parse_text(option: UserOption, text: str) -> OptionValue | str:
    """`text` typed for `option` as the value it stands for: a number, a boolean
    (true/false, 1/0, yes/no, on/off), a list (``multiple``: comma-separated), or the
    text itself. Text that is not the option's kind is returned as it is, for
    `check_value` to refuse."""
    if option.type == "number":
        try:
            number = float(text)
        except ValueError:
            return text
        return int(number) if number.is_integer() and "." not in text else number
    if option.type == "boolean":
        low = text.strip().lower()
        return True if low in _TRUE else False if low in _FALSE else text
    if option.multiple:
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return text


def show_value(option: UserOption, value: Any) -> str:
    """`value` as it is printed: masked for a sensitive option."""
    if value is None or value == "":
        return "(not set)"
    if option.sensitive:
        return MASK
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def effective_values(
    options: tuple[UserOption, ...], stored: Mapping[str, Any]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """What each option reads as, as text (a list joined with commas), and the keys of
    the required options with no value: stored, else the default, else "" (Claude
    Code's rule; a stored value outside `choices` reads as unset)."""
    values: dict[str, str] = {}
    missing: list[str] = []
    for option in options:
        value = stored.get(option.key)
        if value is not None and check_value(option, value) is not None:
            value = None
        if value is None or value == "":
            value = option.default
        if value is None or value == "":
            if option.required:
                missing.append(option.key)
                continue
            value = ""
        values[option.key] = _text(value)
    return values, tuple(missing)


def _text(value: OptionValue | list[str]) -> str:
    if isinstance(value, tuple | list):
        return ",".join(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


PLACEHOLDER = re.compile(r"\$\{user_config\.([^}]+)\}")


def references(text: str) -> tuple[str, ...]:
    """The option keys `text` names as ``${user_config.KEY}``, in order, each once."""
    return tuple(dict.fromkeys(PLACEHOLDER.findall(text)))


def fill_user_config(text: str, values: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
    """`text` with each ``${user_config.KEY}`` replaced by its value (one pass: a value
    holding a placeholder is not expanded again), and the keys it names that have no
    value (a required option never set, or one the plugin does not declare): the
    component must not start then. The one substitution for every component that
    takes these values (MCP servers, hooks, and any other a plugin declares)."""
    missing = tuple(k for k in references(text) if k not in values)
    if missing:
        return text, missing
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text), ()


def option_environment(
    options: tuple[UserOption, ...], values: Mapping[str, str]
) -> dict[str, str]:
    """``CLAUDE_PLUGIN_OPTION_<KEY>`` for each option that has a value."""
    return {o.env_name: values[o.key] for o in options if o.key in values}


def skill_variables(options: tuple[UserOption, ...], values: Mapping[str, str]) -> dict[str, str]:
    """The ``user_config.KEY`` variables of a plugin's skill and agent text, as Claude
    Code fills that text: a sensitive option is ``[sensitive option 'KEY' not available
    in skill content]`` (a secret never reaches the model's context), one with no value
    is left out (its placeholder stays as written)."""
    found: dict[str, str] = {}
    for option in options:
        if option.sensitive:
            found[f"user_config.{option.key}"] = (
                f"[sensitive option '{option.key}' not available in skill content]"
            )
        elif option.key in values:
            found[f"user_config.{option.key}"] = values[option.key]
    return found


def fill_skill_content(
    text: str, options: tuple[UserOption, ...], values: Mapping[str, str]
) -> str:
    """A skill's or agent's text with ``${user_config.KEY}`` filled by `skill_variables`."""
    found = skill_variables(options, values)
    return PLACEHOLDER.sub(lambda m: found.get(f"user_config.{m.group(1)}", m.group(0)), text)
