"""What `lorestack import` reads: JSONL events (or `lorestack-bench/1` lines), chat exports
shaped like the public LoCoMo benchmark, and client transcripts (the user's messages only,
through the readers `extract` uses), each turned into `ImportEvent`s."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from lorestack.core import legacy
from lorestack.core.clients import transcript_clients
from lorestack.core.errors import LorestackError
from lorestack.memory_layers.models import ITEM_TYPES, ItemType

FORMATS = ("auto", "jsonl", "locomo", "transcript", *transcript_clients())


class ImportError_(LorestackError):
    """A source file that cannot be imported (names the file and what is wrong)."""


JSONL_FIELDS = ('a line holds "time" (ISO 8601) and "text", and may hold "id", "kind" (progress, '
                'discussion, rejected, todo, blocker, decision, note), "type" (fact, decision, '
                'caveat, preference, criterion; default event), "session", "speaker", "tags", '
                '"title"')
_ALIASES = {"time": ("timestamp", "date", "datetime", "created", "created_at", "ts", "when"),
            "text": ("message", "content", "body", "note", "msg", "summary")}


class ImportEvent(BaseModel):
    """One thing to import; `type` other than event makes it an L1/L2 item."""

    model_config = ConfigDict(extra="allow")
    id: str | None = None
    time: datetime
    text: str
    session: str | None = None
    speaker: str | None = None
    type: ItemType = "event"
    kind: str | None = None
    tags: list[str] = []
    title: str | None = None

    @field_validator("time")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)

    @model_validator(mode="before")
    @classmethod
    def _right_fields(cls, data: Any) -> Any:
        """Name the field that was meant: `"type": "progress"` is a kind, `timestamp` a time."""
        from lorestack.memory_layers.models import EVENT_KINDS

        if not isinstance(data, dict):
            return data
        given = data.get("type")
        if isinstance(given, str) and given in EVENT_KINDS and given not in ITEM_TYPES:
            raise ValueError(f'"type": "{given}" is an event kind: write "kind": "{given}" '
                             f'("type" is one of {", ".join(ITEM_TYPES)})')
        kind = data.get("kind")
        if kind is not None and kind not in EVENT_KINDS:
            raise ValueError(f'"kind": "{kind}" is not an event kind ({", ".join(EVENT_KINDS)})')
        for wanted, aliases in _ALIASES.items():
            if wanted not in data:
                found = next((a for a in aliases if a in data), None)
                if found:
                    raise ValueError(f'no "{wanted}" field; found "{found}": name it "{wanted}" '
                                     f"({JSONL_FIELDS})")
        return data


def stable_item_id(item_type: str, source_id: str) -> str:
    """An id in the usual `pref-7k2m9q4x` shape derived from the source id (re-imports and
    repeated bench runs give the same ids, so rendered contexts are identical)."""
    from lorestack.memory_layers.models import _ALPHABET, new_id

    digest = hashlib.sha256(source_id.encode("utf-8")).digest()
    tail = "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:8])
    return f"{new_id(item_type).split('-')[0]}-{tail}"


# ---- reading --------------------------------------------------------------------------------
def read_source(path: str | Path, fmt: str = "auto") -> list[ImportEvent]:
    """The events in one source file, oldest first within each session."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise ImportError_(f"{path}: no such file")
    fmt = (fmt or "auto").lower()
    if fmt not in FORMATS:
        raise ImportError_(f"unknown format '{fmt}' ({' | '.join(FORMATS)})")
    from lorestack.consolidation.transcripts import source_text

    text, utf8 = source_text(path, fmt)  # not utf8: a transcript with a line cut mid-character
    if fmt == "auto":
        fmt = detect_format(text) if utf8 else "transcript"
    if not utf8 or fmt not in ("jsonl", "locomo"):
        return _read_transcript(path, "auto" if fmt == "transcript" else fmt, text)
    return _read_jsonl(path, text) if fmt == "jsonl" else _read_locomo(path, text)


def detect_format(text: str) -> str:
    head, body = text[:200_000], text.lstrip()
    end = body.find("\n")
    first = body if end < 0 else body[:end]  # whole: a bench line runs to hundreds of kB
    try:
        obj = json.loads(first)
    except ValueError:
        obj = None
    if isinstance(obj, dict) and (
        obj.get("format", "").startswith(("lorestack-bench", legacy.legacy_form("lorestack-bench"))) or {"time", "text"} <= set(obj)
    ):
        return "jsonl"
    if head.lstrip()[:1] in "[{" and '"conversation"' in head:
        return "locomo"
    return "transcript"


_LINE_END = re.compile(r"\r\n|\r|\n")  # not str.splitlines: JSON lets U+2028, U+0085 stand in a string


def _read_jsonl(path: Path, text: str) -> list[ImportEvent]:
    out: list[ImportEvent] = []
    for number, raw in enumerate(_LINE_END.split(text), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
            bench = isinstance(data, dict) and "events" in data and "format" in data
            for event in map(ImportEvent.model_validate, data["events"] if bench else [data]):
                if not event.text.strip():  # as `log ""` says: nothing to log
                    raise ValueError('"text" is empty: give what happened or holds')
                out.append(event)
        except ValueError as exc:
            raise ImportError_(f"{path}:{number}: {_why(exc)}") from exc
    return out


def broken_json_line(path: Path) -> str | None:
    """`path:N: why` for the first line that reads as a JSON object but is not one: a file
    whose only line is broken is taken for a transcript with nothing in it, and would say
    just "no events" instead of what is wrong."""
    try:
        lines = _LINE_END.split(path.read_text("utf-8", errors="replace"))
    except OSError:
        return None
    for number, raw in enumerate(lines, start=1):
        if raw.strip().startswith("{"):
            try:
                json.loads(raw)
            except ValueError as exc:
                return f"{path}:{number}: not a JSON line ({_why(exc)})"
    return None


def _why(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        if err["type"] == "value_error":  # our own message says which field is meant
            return str(err["ctx"]["error"]) if "ctx" in err else err["msg"]
        if err["type"] == "missing":
            return f'missing "{where}"; {JSONL_FIELDS}'
        return f"{where}: {err['msg']} ({JSONL_FIELDS})"
    return str(exc).splitlines()[0]


_LOCOMO_TIME = (
    "%I:%M %p on %d %B, %Y",
    "%I:%M %p on %d %b, %Y",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d",
)


def parse_chat_time(value: str) -> datetime | None:
    text = " ".join(str(value).split())
    for pattern in _LOCOMO_TIME:
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def _read_locomo(path: Path, text: str) -> list[ImportEvent]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ImportError_(f"{path}: not JSON ({_why(exc)})") from exc
    samples = data if isinstance(data, list) else [data]
    out: list[ImportEvent] = []
    for n, sample in enumerate(samples):
        conv = sample.get("conversation", sample) if isinstance(sample, dict) else None
        if not isinstance(conv, dict):
            raise ImportError_(f"{path}: sample {n} has no conversation object")
        name = str(sample.get("sample_id", f"conv-{n}")) if len(samples) > 1 else ""
        out.extend(_locomo_sessions(conv, name))
    return out


def _locomo_sessions(conv: dict[str, Any], prefix: str) -> list[ImportEvent]:
    out: list[ImportEvent] = []
    sessions = sorted(
        (k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1])
    )
    for key in sessions:
        start = parse_chat_time(conv.get(f"{key}_date_time", "")) or datetime(
            2000, 1, 1, tzinfo=timezone.utc
        )
        session = f"{prefix}/{key}" if prefix else key
        for i, turn in enumerate(conv.get(key) or []):
            text = str(turn.get("text", "")).strip()
            caption = turn.get("blip_caption")
            if caption:
                text = f"{text} [shares a photo: {caption}]".strip()
            if not text:
                continue
            speaker = str(turn.get("speaker", "")).strip() or None
            tid = turn.get("dia_id")
            out.append(
                ImportEvent(
                    id=f"{prefix}:{tid}" if prefix and tid else tid,
                    time=start + timedelta(seconds=i),
                    session=session,
                    speaker=speaker,
                    text=f"{speaker}: {text}" if speaker else text,
                )
            )
    return out


def _read_transcript(path: Path, client: str, text: str) -> list[ImportEvent]:
    from lorestack.consolidation.transcripts import read_user_messages

    fallback = datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)
    out = []
    for m in read_user_messages(path, client, text):
        when = m.time or fallback + timedelta(seconds=m.index)
        out.append(
            ImportEvent(
                id=stable_item_id("event", f"{m.session}\x1f{m.uid}"),
                time=when,
                text=m.text,
                session=m.session,
                speaker="user",
            )
        )
    return out
