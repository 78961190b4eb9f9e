"""What a skill body's placeholders are filled with on activation, as Claude Code does it.

Claude Code's skills page (code.claude.com/docs/en/skills, "String substitutions") and
its 2.1.332 release notes list them: ``$ARGUMENTS`` (everything typed after the name),
``$ARGUMENTS[N]`` and ``$N`` (one word, counted from 0 since 2.1.19: the host
profile's `argument_numbering`), ``$name`` for each name of an ``arguments:``
frontmatter list (the word at that place), the ``\\$`` escape, ``${CLAUDE_SKILL_DIR}``,
``${CLAUDE_SESSION_ID}``, ``${CLAUDE_PROJECT_DIR}`` (2.1.196), ``${CLAUDE_EFFORT}``
(2.1.120: the skill's own ``effort``, else the session's `effort` option; left as
written when neither is set), for a plugin's skill ``${CLAUDE_PLUGIN_ROOT}`` and
``${CLAUDE_PLUGIN_DATA}``, and its plugin's ``${user_config.KEY}`` (a value that is
not sensitive; a sensitive one is named, never filled:
`satchel.plugins.components._user_config.skill_variables`). A word placeholder past
the last word typed stays as written. Arguments are never expanded again once put in
(2.1.233): the text is filled in one pass (`satchel.kinds.commands._arguments.Filler`).

Inside a `` !`cmd` `` only the ``${...}`` variables are filled, never the arguments
typed: satchel's rule, so that what a user or a model types never reaches a shell
(Claude Code fills arguments into the command too).

The same page: "Claude Code substitutes ``${CLAUDE_SKILL_DIR}`` and
``${CLAUDE_PROJECT_DIR}`` in two places: the skill's markdown content, and Bash rules in
the allowed-tools frontmatter", and a plugin skill's ``${CLAUDE_PLUGIN_ROOT}`` and
``${CLAUDE_PLUGIN_DATA}`` in the same two places (`rule_texts`).
"""

from __future__ import annotations

from collections.abc import Mapping

from satchel.assembly._environment import Environment
from satchel.kinds.commands._arguments import Filler, Numbering
from satchel.plugins._options import option_values
from satchel.plugins.components._user_config import skill_variables
from satchel.skills._model import Skill

__all__ = ["argument_names", "filler", "rule_texts", "variables"]

# The variables Claude Code fills in a skill's Bash rules (not the session id).
RULE_VARIABLES = (
    "CLAUDE_SKILL_DIR",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PLUGIN_DATA",
)


def argument_names(skill: Skill) -> tuple[str, ...]:
    """The names of the skill's ``arguments:`` frontmatter: a list of names, or one
    string of names separated by blanks; anything else names none."""
    value = skill.extras.get("arguments")
    if isinstance(value, str):
        words = value.split()
    elif isinstance(value, list | tuple):
        words = [w for w in value if isinstance(w, str)]
    else:
        return ()
    return tuple(w for w in words if w.replace("_", "a").replace("-", "a").isalnum())


def variables(
    environment: Environment, skill: Skill, session_id: str, effort: str | None = None
) -> dict[str, str]:
    """The ``${NAME}`` values for `skill`: its directory, the session id, the project
    root, the effort (the skill's, else `effort`), and its plugin's root and data
    directory when a plugin ships it."""
    found: dict[str, str] = {
        "CLAUDE_SESSION_ID": session_id,
        "CLAUDE_PROJECT_DIR": str(environment.layout.project),
    }
    level = skill.effort if skill.effort is not None else effort
    if level is not None:
        found["CLAUDE_EFFORT"] = str(level)
    if skill.directory is not None:
        found["CLAUDE_SKILL_DIR"] = str(skill.directory)
    plugin = None if skill.plugin is None else environment.plugins.plugins.get(skill.plugin)
    if plugin is not None:
        found["CLAUDE_PLUGIN_ROOT"] = str(plugin.root)
        if plugin.data_dir is not None:
            found["CLAUDE_PLUGIN_DATA"] = str(plugin.data_dir)
        if plugin.user_config:
            values = option_values(environment.layout, plugin, secrets=False).values
            found.update(skill_variables(plugin.user_config, values))
    return found


def filler(
    environment: Environment,
    skill: Skill,
    arguments: str,
    *,
    numbering: Numbering,
    session_id: str,
    effort: str | None = None,
    extra: Mapping[str, str] | None = None,
) -> Filler:
    """The `Filler` for one activation of `skill` with `arguments` (the text typed
    after its name, or "" when the model activated it)."""
    values = variables(environment, skill, session_id, effort)
    values.update(extra or {})
    return Filler(
        arguments.strip(),
        numbering=numbering,
        names=argument_names(skill),
        variables=values,
    )


def rule_texts(environment: Environment, skill: Skill, texts: tuple[str, ...]) -> list[str]:
    """`texts` (the skill's ``allowed-tools``) with the `RULE_VARIABLES` filled in its
    ``Bash(...)`` rules, as Claude Code fills them."""
    values = variables(environment, skill, "")
    filled = []
    for text in texts:
        if text.startswith("Bash("):
            for name in RULE_VARIABLES:
                if name in values:
                    text = text.replace(f"${{{name}}}", values[name])
        filled.append(text)
    return filled
