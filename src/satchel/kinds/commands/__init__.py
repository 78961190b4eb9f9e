"""Slash commands: ``commands/**/*.md`` (Gemini CLI's ``*.toml``) from every host's
layout, plugin and MCP commands, argument expansion, and the segment the model reads.

    found = load_commands(layout, builtins=["help", "clear"])
    command = found.find("fix-issue")
    prompt = wrap_command(command, command.expand("123 high"))
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.kinds.commands._arguments import Numbering, expand_arguments, split_arguments
    from satchel.kinds.commands._discover import (
        MAX_DEPTH,
        MAX_DIRS,
        MAX_FILES,
        CommandScan,
        scan_commands,
    )
    from satchel.kinds.commands._load import CommandSet, load_commands
    from satchel.kinds.commands._model import (
        MAX_COMMAND_FILE,
        Command,
        CommandBodyError,
        Naming,
        Syntax,
    )
    from satchel.kinds.commands._read import read_command
    from satchel.kinds.commands._render import (
        CONTEXT_ID,
        HEAD,
        command_line,
        render_commands,
        wrap_command,
    )
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.kinds.commands._arguments": (
                "Numbering",
                "expand_arguments",
                "split_arguments",
            ),
            "satchel.kinds.commands._discover": (
                "MAX_DEPTH",
                "MAX_DIRS",
                "MAX_FILES",
                "CommandScan",
                "scan_commands",
            ),
            "satchel.kinds.commands._load": ("CommandSet", "load_commands"),
            "satchel.kinds.commands._model": (
                "MAX_COMMAND_FILE",
                "Command",
                "CommandBodyError",
                "Naming",
                "Syntax",
            ),
            "satchel.kinds.commands._read": ("read_command",),
            "satchel.kinds.commands._render": (
                "CONTEXT_ID",
                "HEAD",
                "command_line",
                "render_commands",
                "wrap_command",
            ),
        },
    )

__all__ = [
    "Command",
    "command_line",
    "CommandBodyError",
    "CommandScan",
    "CommandSet",
    "CONTEXT_ID",
    "expand_arguments",
    "HEAD",
    "load_commands",
    "MAX_COMMAND_FILE",
    "MAX_DEPTH",
    "MAX_DIRS",
    "MAX_FILES",
    "Naming",
    "Numbering",
    "read_command",
    "render_commands",
    "scan_commands",
    "split_arguments",
    "Syntax",
    "wrap_command",
]
