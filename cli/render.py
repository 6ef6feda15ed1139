"""One place that prints results: JSON for scripts, short text for people. Logs go to stderr."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click
from pydantic import BaseModel


def to_jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        data = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        if hasattr(value, "body") and "body" not in data and getattr(value, "body", None) is not None:
            data["body"] = value.body
        return data
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Exception):
        return str(value)
    return value


def read_piped_stdin() -> str | None:
    """What was piped in, or None for a terminal or no stdin at all (closed under CI or cron)."""
    import sys

    stream = sys.stdin
    if stream is None or stream.closed:
        return None
    try:
        if stream.isatty():
            return None
        return stream.read()
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def read_stdin_input(where: str = "stdin") -> str:
    """Piped text for a write or a check: strict UTF-8, refused with one line otherwise."""
    import sys

    from memstrata.memory_layers.input_check import decode_input_bytes

    stream = sys.stdin
    if stream is None or stream.closed:
        return ""
    try:
        if stream.isatty():
            return ""
        buffer = getattr(stream, "buffer", None)
        if buffer is None:
            return stream.read()
        return decode_input_bytes(buffer.read(), where=where)
    except (OSError, ValueError):
        return ""


def emit_json(value: Any) -> None:
    click.echo(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2))


def warn(message: str) -> None:
    click.echo(f"warning: {message}", err=True)


def humanize_age(when: datetime, now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    seconds = max(0, (now - when).total_seconds())
    if seconds < 90:
        return "just now"
    minutes = seconds / 60
    if minutes < 90:
        return f"{int(minutes)} minutes ago"
    hours = minutes / 60
    if hours < 36:
        return f"{int(hours)} hours ago"
    days = hours / 24
    if days < 60:
        return f"{int(days)} days ago" if int(days) != 1 else "1 day ago"
    months = days / 30.4
    if months < 24:
        return f"{int(months)} months ago"
    return f"{int(days / 365)} years ago"


def table(rows: list[list[str]], headers: list[str]) -> str:
    if not rows:
        return ""
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = min(max(widths[i], len(cell)), 60)
    def fmt(row):
        return "  ".join(
            (c if len(c) <= widths[i] else c[: widths[i] - 1] + "…").ljust(widths[i])
            for i, c in enumerate(row)
        ).rstrip()
    return "\n".join([fmt(headers), *(fmt(r) for r in rows)])
