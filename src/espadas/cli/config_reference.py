"""The configuration reference of the documentation, written from the options
themselves: ``docs/configuration.md`` lists every option of ``espadas serve`` and
``espadas worker`` with its default and meaning, read from their argument parsers,
so the page cannot say other than the code. The suite compares the committed page
with a fresh one.

Write it again after changing an option::

    python -m espadas.cli.config_reference docs/configuration.md

>>> page = reference()
>>> "| `--port PORT` | `8000` |" in page
True
>>> "| `--ws-compression` | off |" in page
True
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from espadas.cli.main import build_parser

COMMANDS = ("serve", "worker", "backup", "copy-db")
"""The commands a club's host runs, in the page's order."""

ENVIRONMENT = (
    ("ESPADAS_SMTP_PASSWORD", "serve", "the SMTP password of `--smtp-user`"),
    ("FORWARDED_ALLOW_IPS", "serve", "the default of `--forwarded-allow-ips` (uvicorn's own)"),
)
"""Environment variables the commands read."""

HEAD = """\
# Configuration reference

<!-- Written by `python -m espadas.cli.config_reference docs/configuration.md`
     from the commands' own options: do not edit by hand. -->

Every option of the commands a club's host runs, with its default, read from the
commands themselves (`espadas serve --help` says the same). How to put them
together is on [Host a club](host.md); the API and the tables, on
[Online tables](serve.md); several instances and workers, on
[Several instances and load](scale.md).
"""


def subcommand(name: str) -> tuple[argparse.ArgumentParser, str]:
    """The argument parser of ``espadas NAME``, and its one-line help."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            about = next(a.help for a in action._choices_actions if a.dest == name)
            return found, about or ""
    raise KeyError(name)


def shown(value: object) -> str:
    """A default as the page shows it.

    >>> shown(48.0), shown(None), shown([]), shown("estandar"), shown(True)
    ('`48`', '—', '—', '`estandar`', 'on')
    """
    if value is None or value == []:
        return "—"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"`{value}`"


def without_default(text: str, default: str) -> str:
    """The help text less the default it repeats in brackets (the page has a
    column of defaults).

    >>> without_default("port (8000)", "`8000`"), without_default("(starttls)", "`starttls`")
    ('port', '')
    >>> without_default("search (40; maestro: 4 times)", "`40`")
    'search (maestro: 4 times)'
    """
    plain = default.strip("`")
    text = text.replace(f"({plain}; ", "(")
    for tail in (f" ({plain})", f"({plain})"):
        text = text.removesuffix(tail)
    return text


def row(action: argparse.Action) -> str:
    name = ", ".join(action.option_strings)
    if not action.option_strings:  # an argument given by its place
        name = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    elif action.nargs != 0:
        metavar = action.metavar or action.dest.upper()
        name += f" {metavar}"
    default = "off" if action.nargs == 0 else shown(action.default)
    meaning = without_default(action.help or "", default).replace("|", "\\|")
    if action.choices is not None:
        meaning += ("; one of " if meaning else "one of ") + ", ".join(
            f"`{c}`" for c in action.choices
        )
    if isinstance(action, argparse._AppendAction):
        meaning += "; may be given several times"
    return f"| `{name}` | {default} | {meaning} |"


def section(command: str) -> list[str]:
    parser, about = subcommand(command)
    lines = [f"## `espadas {command}`", "", f"{about[0].upper()}{about[1:]}."]
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a.dest != "help"]
        if not actions:
            continue
        title = group.title or "options"
        given_by_place = not any(a.option_strings for a in actions)
        if given_by_place:
            title = "arguments"
        lines += ["", f"### {title[0].upper()}{title[1:]}", ""]
        head = "argument" if given_by_place else "option"
        lines += [f"| {head} | default | meaning |", "|---|---|---|"]
        lines += [row(a) for a in actions]
    return lines


def reference() -> str:
    """The whole page, Markdown."""
    lines = [HEAD]
    for command in COMMANDS:
        lines += section(command)
        lines.append("")
    lines += ["## Environment", "", "| variable | read by | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | `espadas {by}` | {what} |" for name, by, what in ENVIRONMENT]
    text = "\n".join(line for line in lines) + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m espadas.cli.config_reference PAGE.md", file=sys.stderr)
        return 2
    Path(args[0]).write_text(reference(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
