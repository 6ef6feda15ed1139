"""A command that runs the tool a rule forbids adding brings it in: `poetry init && poetry
add httpx` under "don't add Poetry or Pipenv files", `npx serverless deploy` under "we don't
deploy serverless functions" (twenty-second session). An `added:TERM` gate opens in prose on
an add verb before the term; a command names its program first and its act after it, so no
verb came before and the term stayed shut.

The term counts as added where it is the program a shell step runs (after a `&&`, `;`, a
pipe, an environment assignment or `sudo`, or through a package runner — `npx`, `bunx`,
`pnpm dlx`, `yarn dlx`, `uvx`, `pipx run`) and the step's subcommand creates, adds,
installs or deploys with it. Reading with the tool (`poetry export`, `pipenv --rm`,
`serverless remove`) adds nothing.
"""

from __future__ import annotations

import re

_STEP = r"(?:^|&&|\|\||[;|(\n]|\$\()\s*(?:\w+=\S*\s+)*(?:sudo\s+)?"
_RUNNER = r"(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx|uvx|pipx\s+run)\s+(?:-\S+\s+)*"
# subcommands that bring the tool (or what it makes) into the project or onto a platform
_BRINGS = frozenset(
    "add install i init new create deploy up apply lock generate scaffold publish".split()
)
_BEFORE = re.compile(rf"(?:{_STEP})(?:{_RUNNER})?$")
_AFTER = re.compile(r"\s+(?:-{1,2}[\w-]+(?:=\S+)?\s+)*([a-z][\w-]*)")


def runs_tool(text: str, start: int, end: int) -> bool:
    """Is the word at text[start:end] the program a shell step runs, with a subcommand that
    brings it in (`poetry add x`, `npx serverless deploy`)?"""
    begin = text.rfind("\n", 0, start) + 1
    if not _BEFORE.search(text[begin:start]):
        return False
    m = _AFTER.match(text, end)
    return m is not None and m.group(1) in _BRINGS
