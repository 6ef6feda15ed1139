"""Parse and serialize memory files: YAML frontmatter + markdown body."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from lorestack.core.errors import InvalidItem
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


def parse_item(path: Path, raw: bytes, *, default_type: str | None = None,
               default_scope: str = "project") -> MemoryItem:
    """Parse one item file. Raises InvalidItem naming the file and the problem."""
    if b"\x00" in raw:
        raise InvalidItem(path, "binary file (contains NUL bytes); not a memory item")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidItem(path, f"not valid UTF-8 (byte {exc.start}); re-save it as UTF-8") from exc
    try:
        data, body = split_frontmatter(text)
    except (ValueError, yaml.YAMLError) as exc:
        msg = str(exc).splitlines()[0]
        raise InvalidItem(path, f"malformed frontmatter: {msg}") from exc
    if data is None:
        data = {}
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
    body_text = body.strip("\n")
    if "title" not in data:
        first = next((ln.lstrip("# ").strip() for ln in body_text.splitlines() if ln.strip()), "")
        data["title"] = first or path.stem
    try:
        item = MemoryItem.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "frontmatter"
        raise InvalidItem(path, f"invalid field '{loc}': {err['msg']}") from exc
    item.body = body_text
    return item


def serialize_item(item: MemoryItem) -> str:
    head = yaml.dump(item.frontmatter(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    body = item.body.strip("\n")
    return f"{_FENCE}\n{head}{_FENCE}\n\n{body}\n" if body else f"{_FENCE}\n{head}{_FENCE}\n"
