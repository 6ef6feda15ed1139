"""Parse and serialize memory files: YAML frontmatter + markdown body."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from pydantic import ValidationError

from lorestack.core.errors import InvalidItem
from lorestack.memory_layers.conflicts import holds_conflict, without_conflicts
from lorestack.memory_layers.models import SCHEMA_VERSION, MemoryItem

_FENCE = "---"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def split_frontmatter(text: str) -> tuple[dict | None, str]:
    """Return (frontmatter dict or None if absent, body)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.startswith(_FENCE + "\n") and not text.startswith(_FENCE + "\r\n"):
        return None, text
    lines = text.splitlines(keepends=True)
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") == _FENCE:
            head = "".join(lines[1:i])
            body = "".join(lines[i + 1:])
            data = yaml.load(head, Loader=_Loader) if head.strip() else {}
            if not isinstance(data, dict):
                raise ValueError("frontmatter is not a mapping")
            return data, body
    raise ValueError("frontmatter has no closing '---' line")


def _yaml_problem(exc: Exception, text: str = "") -> str:
    """`, line 5: expected ',' or ']', but got ':' (while parsing a flow sequence on line 4)`:
    what is wrong and where, in the file's line numbers (the frontmatter starts on line 2)."""
    problem, mark = getattr(exc, "problem", None), getattr(exc, "problem_mark", None)
    if not problem or mark is None:
        return ": " + str(exc).splitlines()[0]
    lines = text.lstrip("\ufeff").splitlines()
    at = lines[mark.line + 1][:mark.column + 1] if mark.line + 1 < len(lines) else ""
    if "\t" in problem or "\t" in at:  # `found character that cannot start any token`
        return (f", line {mark.line + 2}: a tab indents it, and YAML indents with spaces "
                "only (replace the tab with spaces)")
    context, opened = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    after = f" ({context} on line {opened.line + 2})" if context and opened is not None else ""
    return f", line {mark.line + 2}: {problem}{after}"


_FIELDS = frozenset({"schema", *MemoryItem.model_fields} - {"schema_", "body"})


def _fields_in_any_case(data: dict) -> dict:
    """`Title:` or `TYPE:` typed by hand is the field the user meant (read as `title`, `type`),
    unless the lowercase key is there too; before, it was an unknown key, silently ignored."""
    lowered = [k.lower() for k in data if isinstance(k, str)]
    moved = {k: k.lower() for k in data if isinstance(k, str) and k not in _FIELDS
             and k.lower() in _FIELDS and lowered.count(k.lower()) == 1}  # `Title` and `TITLE`: kept
    if not moved:
        return data
    return {moved.get(k, k): v for k, v in data.items()}


def saved_as_utf16(raw: bytes) -> bool:
    """Whether `raw` reads as UTF-16 text: its byte-order mark, or (without one) a NUL in
    every other byte of its start, as ASCII characters have in UTF-16."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    head = raw[:64]
    return len(head) >= 8 and any(not any(head[i::2]) for i in (0, 1))


def parse_item(path: Path, raw: bytes, *, default_type: str | None = None,
               default_scope: str = "project") -> MemoryItem:
    """Parse one item file. Raises InvalidItem naming the file and the problem."""
    if b"\x00" in raw:
        if saved_as_utf16(raw):  # Notepad's "Unicode": a NUL beside every ASCII character
            raise InvalidItem(path, "saved as UTF-16; re-save it as UTF-8 (your editor's "
                              "'UTF-8'), as lorestack reads memory files; not read until then")
        raise InvalidItem(path, "binary file (contains NUL bytes); not a memory item")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidItem(path, f"not valid UTF-8 (byte {exc.start}); re-save it as UTF-8") from exc
    try:
        data, body = split_frontmatter(text)
    except (ValueError, yaml.YAMLError) as exc:
        if holds_conflict(raw):  # a side of its fields is not for lorestack to pick
            lines = without_conflicts(text)[1]
            raise InvalidItem(path, "unresolved git merge-conflict markers in the frontmatter "
                              f"(lines {', '.join(map(str, lines))}): resolve them (keep "
                              "one side, delete the marker lines); not read until then") from exc
        raise InvalidItem(path, f"malformed frontmatter{_yaml_problem(exc, text)}") from exc
    if data is None:
        data = {}
    # markers a merge left are not memory text: both sides are read, the markers noted
    body, conflicts = without_conflicts(body)
    if conflicts:  # told by the file's line numbers
        conflicts = without_conflicts(text)[1]
    # a file saved with CRLF (or a stray CR) reads as lines: no `\r` printed, indexed or rewritten
    body_text = body.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    cased = _fields_in_any_case(data)
    try:
        item = _validated(path, cased, body_text, default_type, default_scope)
    except InvalidItem:
        if cased is data:
            raise
        # a key typed in another case whose value is not valid: read as before (kept as is)
        item = _validated(path, data, body_text, default_type, default_scope)
    item.body = body_text
    item.conflict_lines = conflicts
    return item


def _validated(path: Path, data: dict, body_text: str, default_type: str | None,
               default_scope: str) -> MemoryItem:
    data = dict(data)
    schema = data.get("schema", SCHEMA_VERSION)
    if schema != SCHEMA_VERSION:
        raise InvalidItem(
            path, f"unknown schema version {schema!r} (this lorestack reads schema {SCHEMA_VERSION})"
        )
    # hand-written files may omit what can be derived
    data.setdefault("id", path.stem)
    if default_type:
        data.setdefault("type", default_type)
    data.setdefault("scope", default_scope)
    if "title" not in data:
        first = next((ln.lstrip("# ").strip() for ln in body_text.splitlines() if ln.strip()), "")
        data["title"] = first or path.stem
    try:
        return MemoryItem.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "frontmatter"
        raise InvalidItem(path, f"invalid field '{loc}': {err['msg']}") from exc


def serialize_item(item: MemoryItem, *, comments_from: bytes | None = None) -> str:
    """The file text of `item`; `comments_from` (the file it replaces) lends its frontmatter
    comments, which YAML parsing drops: a rewrite must not lose the notes a person typed."""
    head = yaml.dump(item.frontmatter(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    if comments_from:
        head = _with_comments(head, comments_from)
    body = item.body.strip("\n")
    return f"{_FENCE}\n{head}{_FENCE}\n\n{body}\n" if body else f"{_FENCE}\n{head}{_FENCE}\n"


_KEY_LINE = re.compile(r"^([^\s#'\"][^:#]*?)\s*:(?:\s|$)")
_BLOCK_START = re.compile(r":\s*[|>][-+0-9]*\s*(?:#.*)?$")


def _inline_comment(line: str) -> str | None:
    """The `# …` that ends a YAML line, if any (a `#` inside quotes, or glued to a word, is
    text)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"" and (i == 0 or line[i - 1] in " \t:[{,-"):
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i:].rstrip()
    return None


def _comments_by_key(raw: bytes) -> tuple[dict[str, list[str]], list[str]]:
    """The comment lines of a file's frontmatter, attached to the top-level key they sit
    above or beside ({key: [comment, …]}), and those after the last key."""
    try:
        text = raw.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return {}, []
    lines = text.splitlines()
    if not lines or lines[0].rstrip() != _FENCE:
        return {}, []
    by_key: dict[str, list[str]] = {}
    pending: list[str] = []
    key, in_block, block_indent = None, False, 0
    for line in lines[1:]:
        if line.rstrip() == _FENCE:
            break
        indent = len(line) - len(line.lstrip())
        if in_block and (not line.strip() or indent > block_indent):
            continue  # the text of a `|` / `>` block: a `#` there is not a comment
        in_block = False
        if line.lstrip().startswith("#"):
            pending.append(line.strip())
            continue
        match = _KEY_LINE.match(line)
        if match and indent == 0:
            key = match.group(1)
            by_key.setdefault(key, []).extend(pending)
            pending = []
        comment = _inline_comment(line)
        if comment and key is not None:
            by_key.setdefault(key, []).append(comment)
        if _BLOCK_START.search(line.split(" #")[0] if comment else line):
            in_block, block_indent = True, indent
    return by_key, pending


def _with_comments(head: str, old: bytes) -> str:
    """`head` (a fresh YAML dump) with the old file's comments above the keys they were at;
    those of keys no longer there, and trailing ones, at the end."""
    by_key, trailing = _comments_by_key(old)
    if not by_key and not trailing:
        return head
    out: list[str] = []
    for line in head.splitlines():
        match = _KEY_LINE.match(line)
        if match and not line[:1].isspace():
            out.extend(by_key.pop(match.group(1), []))
        out.append(line)
    out.extend(c for comments in by_key.values() for c in comments)
    out.extend(trailing)
    kept = "\n".join(out) + "\n"
    try:  # comments change nothing YAML reads; if this one would, keep them all at the end
        if yaml.load(kept, Loader=_Loader) == yaml.load(head, Loader=_Loader):
            return kept
    except yaml.YAMLError:
        pass
    every = [c for c in out if c.startswith("#") and c not in head.splitlines()]
    return head + "".join(f"{c}\n" for c in every)
