"""What a `git diff` says beyond its added lines: the paths it touches (`---`/`+++` and
`rename from`/`rename to` headers), the files it creates and the files it deletes. Split out
of proposals.py (twenty-first session), unchanged."""

from __future__ import annotations

from lorestack.guardrail.terms import normalise_path


def parse_unified_diff(diff: str) -> tuple[list[str], list[str]]:
    """(touched paths, added lines) from `git diff` output."""
    paths: list[str] = []
    added: list[str] = []

    def add_path(raw: str) -> None:
        raw = raw.strip()
        if raw == "/dev/null":
            return
        if raw.startswith(("a/", "b/")):
            raw = raw[2:]
        p = normalise_path(raw)
        if p and p not in paths:
            paths.append(p)

    in_header = True  # between `diff --git` and the first `@@`: ---/+++ are file names
    for line in diff.splitlines():
        if line.startswith("diff "):
            in_header = True
        elif line.startswith("@@"):
            in_header = False
        elif in_header and line.startswith(("+++ ", "--- ")):
            add_path(line[4:].split("\t")[0])
        elif in_header and line.startswith(("rename from ", "rename to ")):
            add_path(line.split(" ", 2)[2])
        elif not in_header and line.startswith("+"):
            added.append(line[1:])
    return paths, added


def created_in_diff(diff: str) -> set[str]:
    """The paths a `git diff` creates (`new file mode`, or `--- /dev/null`), and where it
    moves or copies a file from another folder (`rename to`: the file is new there; a rename
    inside one folder is the file that was there)."""
    created: set[str] = set()
    current, source, from_null = "", "", False
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            current, from_null = normalise_path(line.rsplit(" b/", 1)[-1]), False
        elif line.startswith("new file mode") and current:
            created.add(current)
        elif line.startswith(("rename from ", "copy from ")):
            source = normalise_path(line.split(" from ", 1)[1])
        elif line.startswith(("rename to ", "copy to ")):
            moved = normalise_path(line.split(" to ", 1)[1])
            if line.startswith("copy") or moved.rpartition("/")[0] != source.rpartition("/")[0]:
                created.add(moved)
        elif line.startswith("--- "):
            from_null = line[4:].split("\t")[0].strip() == "/dev/null"
        elif line.startswith("+++ ") and from_null:
            created.add(normalise_path(line[4:].split("\t")[0].strip().removeprefix("b/")))
    return created


def deleted_in_diff(diff: str) -> list[str]:
    """The paths a `git diff` deletes (`deleted file mode`)."""
    deleted: list[str] = []
    current = ""
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            current = normalise_path(line.split(" a/", 1)[-1].rsplit(" b/", 1)[0])
        elif line.startswith("deleted file mode") and current and current not in deleted:
            deleted.append(current)
    return deleted


def removed_in_diff(diff: str) -> str:
    """The lines a `git diff` removes from files it keeps (a deleted file's lines are the
    deletion itself): what the change takes away (given_up.py)."""
    removed: list[str] = []
    in_header, gone = True, False
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            in_header, gone = True, False
        elif in_header and line.startswith("deleted file mode"):
            gone = True
        elif line.startswith("@@"):
            in_header = False
        elif not in_header and not gone and line.startswith("-"):
            removed.append(line[1:])
    return "\n".join(removed)


def moved_in_diff(diff: str) -> dict[str, str]:
    """Where a `git diff -M` moves each file it renames (`rename from` -> `rename to`): the
    file is gone from its old path ("never delete files under X/", "never rename files in
    X/" are met there; twenty-first session: a rename was judged by meaning only)."""
    moved: dict[str, str] = {}
    source = ""
    for line in diff.splitlines():
        if line.startswith("rename from "):
            source = normalise_path(line[len("rename from "):])
        elif line.startswith("rename to ") and source:
            moved[source] = normalise_path(line[len("rename to "):])
            source = ""
    return moved


def written_in_diff(diff: str) -> list[str]:
    """The paths a `git diff` adds a line to that they did not hold (under a rename, the new
    name): a change that only takes lines out of a file, leaves a blank line where an entry
    was, moves a line within it, renames it or changes its mode writes none."""
    added: dict[str, set[str]] = {}
    removed: dict[str, set[str]] = {}
    current, in_header = "", True
    for line in diff.splitlines():
        if line.startswith("diff "):
            current, in_header = normalise_path(line.rsplit(" b/", 1)[-1]), True
        elif line.startswith("@@"):
            in_header = False
        elif in_header and line.startswith("+++ ") and line[4:].strip() != "/dev/null":
            current = normalise_path(line[4:].split("\t")[0].strip().removeprefix("b/"))
        elif not in_header and current and line[:1] in "+-" and line[1:].strip():
            (added if line[0] == "+" else removed).setdefault(current, set()).add(line[1:].strip())
    return [p for p, lines in added.items() if lines - removed.get(p, set())]
