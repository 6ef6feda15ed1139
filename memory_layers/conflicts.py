"""Git's merge-conflict markers in a memory file: found, left out of the text that is read
(both sides' text kept), named to the person, and never rewritten away by lorestack.

A team merges its memory through git; a file committed with its conflict unresolved is the
person's to settle. `markdown.parse_item` reads it with the markers left out; the store
refuses to rewrite it; `doctor`, `list` and `context` name it with the lines to resolve.
"""

from __future__ import annotations

from pathlib import Path

from lorestack.core.errors import ConcurrentEdit

# git's merge-conflict markers (default size 7): ours, the base (diff3 style), theirs
_OURS, _BASE, _SPLIT, _THEIRS = "<<<<<<<", "|||||||", "=======", ">>>>>>>"


def _marker(line: str, mark: str) -> bool:
    line = line.rstrip("\r\n")
    return line == mark if mark == _SPLIT else line == mark or line.startswith(mark + " ")


def conflict_blocks(lines: list[str]) -> list[tuple[int, int, int, int]]:
    """(start, base, split, end) line indexes of each whole conflict block in `lines` (base
    is -1 without a diff3 section): `<<<<<<<`, `=======` and `>>>>>>>` in that order, so a
    lone `=======` (a heading's underline) is text."""
    blocks, i = [], 0
    while i < len(lines):
        if not _marker(lines[i], _OURS):
            i += 1
            continue
        base = split = -1
        for j in range(i + 1, len(lines)):
            if _marker(lines[j], _OURS):
                break  # a second start before this one closed: not a block
            if base < 0 and split < 0 and _marker(lines[j], _BASE):
                base = j
            elif split < 0 and _marker(lines[j], _SPLIT):
                split = j
            elif split >= 0 and _marker(lines[j], _THEIRS):
                blocks.append((i, base, split, j))
                i = j
                break
        i += 1
    return blocks


def without_conflicts(text: str) -> tuple[str, list[int]]:
    """`text` with each conflict block's marker lines (and its base section, the version both
    sides changed) left out, both sides' text kept in order; and the markers' line numbers
    (1-based, in `text`)."""
    if _OURS not in text:  # every file is parsed through here: no line loop without a start
        return text, []
    lines = text.splitlines(keepends=True)
    blocks = conflict_blocks(lines)
    if not blocks:
        return text, []
    drop: set[int] = set()
    for start, base, split, end in blocks:
        drop.update({start, split, end})
        if base >= 0:
            drop.update(range(base, split))
    markers = sorted(n for block in blocks for n in block if n >= 0)
    return "".join(ln for n, ln in enumerate(lines) if n not in drop), [n + 1 for n in markers]


def conflict_note(item) -> str | None:
    """What is said of an item whose file holds unresolved merge-conflict markers."""
    lines = item.conflict_lines
    if not lines:
        return None
    return ("unresolved git merge-conflict markers (lines " + ", ".join(map(str, lines))
            + "): both sides' text is read, without the markers, until you resolve them (keep "
              "what is right, delete the marker lines); lorestack will not rewrite the file before")


def holds_conflict(raw: bytes | None) -> bool:
    """Whether a file's bytes hold a whole merge-conflict block (anywhere)."""
    if not raw or b"\n" + _OURS.encode() not in b"\n" + raw:
        return False
    return bool(conflict_blocks(raw.decode("utf-8", "replace").splitlines()))


def refuse_rewrite(path: Path, old: bytes | None) -> None:
    """A rewrite would drop the markers (and which text was whose) without a word."""
    if holds_conflict(old):
        raise ConcurrentEdit(f"{path} holds unresolved git merge-conflict markers; nothing was "
                             "written: resolve them (keep what is right, delete the marker "
                             "lines) and re-run")
    if old and old.startswith((b"---", b"\xef\xbb\xbf---")):
        # a key typed twice: YAML reads the last, and the rewrite would keep only that one
        from lorestack.memory_layers.hand_edits import repeated_keys

        head = old[:1 << 20].decode("utf-8", "replace")
        for key, lines in repeated_keys(head)[:1]:
            raise ConcurrentEdit(f"{path} has the key '{key}' typed {len(lines)} times in its "
                                 f"frontmatter (lines {', '.join(map(str, lines))}); nothing was "
                                 "written, as a rewrite keeps only the last: keep one and re-run")
