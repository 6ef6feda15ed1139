"""An item as it may leave the process: a secret typed into its file by hand is replaced in the
copy that is printed or handed to an assistant (the file itself is the user's, left alone)."""

from __future__ import annotations

from pathlib import Path

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import GENERATED_ID, CriterionSpec, MemoryItem, Source


def redacted_item(mem: Memory, item: MemoryItem, key: str | None = None,
                  path: Path | None = None) -> tuple[MemoryItem, bool]:
    """(A copy fit to print or hand to an assistant, whether its id or file name holds a key):
    a secret typed into the file by hand is replaced in its title, body, tags, criterion,
    anchors, source and any field a person added, the events it cites sealed (the file itself is left alone; the caller redacts the id and path it prints).
    `key`: the file's path and checksum, to skip a file the resident service already found
    clean (`parse_cache.known_clean`; what is parsed depends on the name too)."""
    from lorestack.memory_layers import parse_cache
    from lorestack.memory_layers.sealed_names import seal
    from lorestack.memory_layers.secret_guard import redact_for_reading, redact_tree

    threshold = mem.settings.guard.entropy_threshold
    if key and parse_cache.known_clean(key, threshold):
        return item, False
    crit = item.criterion.model_dump() if item.criterion else None
    # who wrote it (kind, session, run, commit): redacted; the events it cites: sealed, so each
    # is still found by `show` (an event id typed around a key, `sealed_names`)
    source = item.source.model_dump(exclude={"events"})
    events = [seal(e, threshold) for e in item.source.events]
    # fields a person added to the frontmatter (`owner:`, `notes:`) are printed by `list` and
    # `show --json` with the rest of it
    extra, extra_found = redacted_fields(dict(item.model_extra or {}), threshold)
    (title, body, tags, criterion, anchors, source), found = redact_tree(
        (item.title, item.body, list(item.tags), crit, list(item.anchors), source), threshold)
    found = found or extra_found
    found = found or events != item.source.events
    named = bool((not GENERATED_ID.fullmatch(item.id) and redact_for_reading(item.id, threshold)[1])
                 or (path is not None and redact_for_reading(path.name, threshold)[1]))
    if not found and not named:
        if key:
            parse_cache.mark_clean(key, threshold)
        return item, False
    if not found:
        return item, named
    copy = item.model_copy(deep=True)
    copy.title, copy.body, copy.tags, copy.anchors = title, body, tags, anchors
    copy.source = Source.model_validate({**source, "events": events})
    for name, value in extra.items():
        setattr(copy, name, value)
    if criterion is not None:
        copy.criterion = CriterionSpec.model_validate(criterion)
    return copy, named


def redacted_fields(fields: dict, threshold: float) -> tuple[dict, bool]:
    """Frontmatter fields a person added, each value read beside its key as the file shows it
    (`db_password: hunter2x` is a secret where `hunter2x` alone is a word)."""
    from lorestack.memory_layers.secret_guard import redact_for_reading, redact_tree

    out, found = {}, False
    for key, value in fields.items():
        if isinstance(value, dict):
            value, hit = redacted_fields(value, threshold)
        elif isinstance(value, str):
            line = f"{key}: {value}"
            text, kinds = redact_for_reading(line, threshold)
            hit = bool(kinds)
            if hit:
                value = text[len(key) + 2:] if text.startswith(f"{key}: ") else "[REDACTED]"
        else:
            value, hit = redact_tree(value, threshold)
        out[key] = value
        found = found or hit
    return out, found
