"""The environment a child gets: the scrubbed base set and the variables refused on top."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name

# Variables that make a loader, interpreter or common tool run code of the
# setter's choosing. Names are case-sensitive, as on every POSIX system.
DANGEROUS_ENV: frozenset[str] = frozenset(
    {
        # dynamic loaders (LD_* and DYLD_* are refused as prefixes too)
        "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH",
        "GCONV_PATH",
        # shells
        "BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "PS4", "IFS",
        # interpreters and runtimes
        "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONINSPECT", "PYTHONUSERBASE",
        "PYTHONBREAKPOINT", "PYTHONWARNINGS", "PYTHONPLATLIBDIR", "PYTHONEXECUTABLE",
        "NODE_OPTIONS", "NODE_PATH",
        "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB",
        "RUBYOPT", "RUBYLIB",
        "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
        "LUA_PATH", "LUA_CPATH",
        "PHPRC", "PHP_INI_SCAN_DIR",
        "DOTNET_STARTUP_HOOKS", "GOFLAGS", "RUSTC_WRAPPER",
        "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES",
        # git and ssh run these without a terminal (pagers and editors need one)
        "GIT_DIR", "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS",
        "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_TEMPLATE_DIR",
        "SSH_ASKPASS", "SUDO_ASKPASS",
    }
)  # fmt: skip
DANGEROUS_ENV_PREFIXES: tuple[str, ...] = (
    "LD_",
    "DYLD_",
    "BASH_FUNC_",  # exported bash functions override commands
    "GIT_CONFIG",  # GIT_CONFIG_COUNT/KEY_n/VALUE_n, _PARAMETERS, _GLOBAL: core.fsmonitor etc.
    "LUA_INIT",
    "npm_config_",  # npm reads these in any case: script-shell, node-options
    "NPM_CONFIG_",
)

KEEP_ENV: tuple[str, ...] = (
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TMPDIR", "TZ",
)  # fmt: skip
KEEP_ENV_PREFIXES: tuple[str, ...] = ("LC_",)

_NO_ENV: Mapping[str, str] = MappingProxyType({})


def is_dangerous_env(name: str) -> bool:
    """Whether setting `name` can make a process run code it did not mean to."""
    return name in DANGEROUS_ENV or name.startswith(DANGEROUS_ENV_PREFIXES)


def base_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The scrubbed base environment: only `KEEP_ENV` names and ``LC_*`` from `environ`."""
    return {
        name: value
        for name, value in environ.items()
        if name in KEEP_ENV or name.startswith(KEEP_ENV_PREFIXES)
    }


def overlay_env(
    base: Mapping[str, str],
    extra: Mapping[str, str],
    *,
    source: Path | None = None,
    fixed: Mapping[str, str] = _NO_ENV,
) -> tuple[dict[str, str], tuple[Diagnostic, ...]]:
    """`base` plus `extra`, then `fixed` on top (runtime-owned names such as SKILL_DIR).

    A dangerous name, a name that cannot be a variable or a value that is not a
    string (or holds a NUL) in `extra` is dropped with an ``exec.env.refused``
    warning each; `source` is the file that asked for it.
    """
    env = dict(base)
    diags: list[Diagnostic] = []
    for name, value in extra.items():
        why = _refusal(name, value)
        if why is None:
            env[name] = value
        else:
            message = f"environment variable {name!r} was refused: {why}"
            diags.append(diagnostic("exec.env.refused", message, source))
    env.update(fixed)
    return env, tuple(diags)


def _refusal(name: object, value: object) -> str | None:
    if not isinstance(name, str) or not name or "=" in name or "\0" in name:
        return "it is not a valid variable name"
    if is_dangerous_env(name):
        return "it can inject code into the process"
    if not isinstance(value, str):
        return f"its value is {type_name(value)}, not a string"
    if "\0" in value:
        return "its value holds a NUL byte"
    return None
