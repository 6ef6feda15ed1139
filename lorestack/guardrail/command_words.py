"""What a command says in flags and subcommands, for the rules' terms (twenty-second session).

- **A flag that says the thing in a letter.** "Release tags must be signed" required the word
  'signed', which `git tag -s` never holds, so a confirmed rule blocked the signed tag; "Every
  commit needs a Signed-off-by line" blocked `git commit -s` and `--signoff`. The flags of
  well-known commands that say such a thing are spelled out (`git tag -s` also reads "signed
  tag"); the words are matched by the rules' terms only, never compared by meaning.
- **A command that only reads.** `git tag -l` lists tags and makes none: a rule on what a
  release tag needs cannot miss anything there. A command whose every step only reads
  (listing, showing, logs, status, `describe-*`) meets no requirement's absence.
"""

from __future__ import annotations

import re
import shlex

_STEP_BREAK = re.compile(r"&&|\|\||[;|\n]")
_ENV = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*")
_PREFIXES = frozenset(("sudo", "command", "exec", "nohup", "time", "env"))

_SIGNOFF = "adds a Signed-off-by line (signed off)"
_GPG = "signed with GPG (a signed commit)"
# (command, subcommand) -> flag -> what it says; a letter flag may come in a cluster (`-sm`)
_SPELLED: dict[tuple[str, str], dict[str, str]] = {
    ("git", "tag"): {"-s": "a signed tag", "--sign": "a signed tag", "-u": "a signed tag",
                     "--local-user": "a signed tag"},
    **{("git", sub): {"-s": _SIGNOFF, "--signoff": _SIGNOFF, "-S": _GPG, "--gpg-sign": _GPG}
       for sub in ("commit", "rebase", "am", "cherry-pick", "revert", "merge", "pull")},
}

_SPELLED_CMD = re.compile(r"\bgit\s+(?:tag|commit|rebase|am|cherry-pick|revert|merge|pull)\b")

# subcommands and commands that only read; `git tag`/`git branch` only with a listing flag
_READERS = frozenset("ls cat head tail less more grep rg wc stat file du df pwd tree which "
                     "md5sum sha256sum jq diff".split())
_GIT_READS = frozenset("log show status diff blame ls-files rev-parse describe shortlog "
                       "reflog".split())
# (a listing's filters and format, and a deletion, make no tag or branch either: review of
# the twenty-second session, `git tag -n5` and `git tag -d v1-rc1` blocked "tags must be signed")
_LISTING = frozenset(("-l", "--list", "-v", "--verify", "-n", "--contains", "--no-contains",
                      "--points-at", "--merged", "--no-merged", "--sort", "--format", "--column",
                      "--no-column", "-i", "--ignore-case", "-d", "--delete"))
_GH_READS = frozenset(("view", "list", "checks", "diff", "status"))
_KUBECTL_READS = frozenset(("get", "describe", "logs", "top", "explain"))
# kubectl's global flags that take a value, which may come before the subcommand
_KUBECTL_VALUED = frozenset("--context --namespace -n --kubeconfig --cluster --user -s --server "
                            "--as --token".split())
_WRITES = re.compile(r"(?<![0-9&])>|\btee\b")


def _steps(text: str) -> list[list[str]]:
    """Each simple command's words, from the command name on (env settings, `sudo` dropped)."""
    out = []
    for part in _STEP_BREAK.split(text):
        try:
            words = shlex.split(part, comments=True)
        except ValueError:
            words = part.split()
        while words and (words[0] in _PREFIXES or _ENV.fullmatch(words[0])):
            words = words[1:]
        if words:
            out.append(words)
    return out


def _flags(words: list[str]) -> list[str]:
    """Its flags, a letter cluster split (`-sm` -> -s -m); a flag's value (`--x=v`) dropped."""
    out = []
    for w in words:
        if w.startswith("--"):
            out.append(w.split("=", 1)[0])
        elif re.fullmatch(r"-[A-Za-z]{1,4}", w):
            out += [f"-{c}" for c in w[1:]]
    return out


def spelled_flags(text: str) -> str:
    """What the flags of the commands in `text` say, one line each ('' for none)."""
    if "-" not in text or not _SPELLED_CMD.search(text):
        return ""
    lines = []
    for words in _steps(text):
        table = _SPELLED.get((words[0], words[1] if len(words) > 1 else ""))
        if not table:
            continue
        # never the command again: other readers look for it (faults.py's `git tag` unsigned)
        said = dict.fromkeys(f"flag {f}: {table[f]}" for f in _flags(words[2:]) if f in table)
        lines += list(said)
    return "\n".join(lines)


def _reads(words: list[str]) -> bool:
    name, rest = words[0].rsplit("/", 1)[-1], words[1:]
    sub = rest[0] if rest else ""
    if name in _READERS:
        return True
    if name == "git":
        flags = set(_flags([re.sub(r"^-n\d+$", "-n", w) for w in rest[1:]]))  # `-n5`
        return sub in _GIT_READS or (sub in ("tag", "branch") and (
            len(rest) == 1 or bool(flags & _LISTING) and not flags - _LISTING))
    if name == "gh":
        return len(rest) > 1 and rest[1] in _GH_READS
    if name == "kubectl":  # `kubectl --context prod -n shop get pods` (twenty-seventh session)
        i = 0
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if rest[i] in _KUBECTL_VALUED else 1
        return i < len(rest) and rest[i] in _KUBECTL_READS
    if name == "aws":
        return len(rest) > 1 and rest[1].startswith(("describe-", "list-", "get-"))
    if name == "find":
        return not {"-delete", "-exec", "-execdir", "-ok"} & set(rest)
    return False


def only_reads(text: str) -> bool:
    """Does every step of the command `text` only read (nothing written, made or sent)?"""
    if not text.strip() or _WRITES.search(text):
        return False
    steps = _steps(text)
    return bool(steps) and all(_reads(w) for w in steps)
