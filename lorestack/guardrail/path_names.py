"""A forbidden word met only as a part of a path or a file name (thirtieth session, fix30).

rules.longer_name already keeps a confirmed rule from blocking on a word that is only a part
of a longer identifier (`ast.literal_eval` is not `eval`): such a hit answers "applies,
undecided". A path or a file name is a longer name too: 'env' of "CI steps never … dump the
environment (env, printenv, set -x)" blocked `.env` in a .gitignore, `COPY .env.example` and
every `#!/usr/bin/env bash`; 'secrets' of "Never print secrets …" blocked `config/secrets/`.
The word there names a file or a folder, not the act the sentence forbids.

A word hit counts as a part of a path where it is directly after a `/`, directly before a
`/`, or right after a dot that starts a name (a dotfile: `.env`, `'.env'`; not an attribute
such as `hashlib.sha1`, where the dot follows a name). The longer name is the whole path-like
run around it; the confirmed rule then asks as it does for any longer name, never passes.
Not for a term the sentence itself writes as a file or host name (`terraform.tfstate`,
`api.anthropic.com`): there the path is the thing."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_PATH_CHAR = re.compile(r"[A-Za-z0-9_.\-/*~]")
_NAME_CHAR = re.compile(r"[A-Za-z0-9_]")


def path_name(text: str, start: int, end: int, term: str = "") -> str:
    """The path or file name the word at text[start:end] is a part of, or ''. Only for a
    term the sentence writes as plain words: a file or host name it names ("never commit
    terraform.tfstate", "never call api.openai.com") is met in a path as itself."""
    if not ON or start < 0 or not re.fullmatch(r"[a-z0-9 ]+", term.lower()):
        return ""
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    dotfile = before == "." and (start < 2 or not _NAME_CHAR.match(text[start - 2]))
    if not (before == "/" or after == "/" or dotfile):
        return ""
    lo, hi = start, end
    while lo > 0 and _PATH_CHAR.match(text[lo - 1]):
        lo -= 1
    while hi < len(text) and _PATH_CHAR.match(text[hi]):
        hi += 1
    name = text[lo:hi].rstrip(".")
    return name if name and name != text[start:end] else ""
