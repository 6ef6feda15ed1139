"""Small Jinja filters: ages, sizes, query strings. They return text; Jinja escapes it."""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlencode

from jinja2 import pass_context

KIND_COLOURS = {
    "progress": "#2b8a3e",
    "discussion": "#1971c2",
    "rejected": "#c92a2a",
    "todo": "#e67700",
    "blocker": "#862e9c",
    "decision": "#0b7285",
    "note": "#495057",
}


def age(when: datetime | None, now: datetime | None = None) -> str:
    if when is None:
        return "never"
    now = now or datetime.now(timezone.utc)
    seconds = max(0.0, (now - when).total_seconds())
    for limit, unit, size in (
        (90, "seconds", 1),
        (5400, "minutes", 60),
        (129600, "hours", 3600),
        (86400 * 60, "days", 86400),
        (86400 * 730, "months", 86400 * 30.4),
    ):
        if seconds < limit:
            if unit == "seconds":
                return "just now"
            n = int(seconds / size)
            return f"{n} {unit[:-1] if n == 1 else unit} ago"
    return f"{int(seconds / (86400 * 365))} years ago"


def stamp(when: datetime | None) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC") if when else ""


def size(n: int | None) -> str:
    if n is None:
        return "–"
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"


def with_query(params: dict, **changes) -> str:
    """The current filters with some changed (None drops a key), as `?a=b&…`."""
    merged = {k: v for k, v in params.items() if v not in (None, "")}
    for key, value in changes.items():
        if value in (None, ""):
            merged.pop(key, None)
        else:
            merged[key] = value
    return "?" + urlencode(merged, doseq=True) if merged else "?"


def kind_colour(kind: str) -> str:
    return KIND_COLOURS.get(kind, "#495057")


@pass_context
def shown(context, text):
    """Memory text as pages show it: a secret typed into a file by hand is redacted, as
    context and search show it (the edit form alone holds the file's own text)."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    if not isinstance(text, str) or not text:
        return text
    return redact_for_reading(text, _threshold(context))[0]


def _threshold(context) -> float:
    """The guard's threshold of the memory the viewer shows."""
    request = context.get("request")
    try:
        return request.app.state.viewer.mem.settings.guard.entropy_threshold
    except AttributeError:  # a page rendered without the viewer's state (tests, errors)
        return 4.2


@pass_context
def sealed(context, name) -> str:
    """An id or path as `list` shows it: a name holding a key (typed by hand) sealed."""
    from lorestack.memory_layers.sealed_names import seal_path

    return seal_path(str(name), _threshold(context)) if name else name


def install(env) -> None:
    env.filters.update(age=age, stamp=stamp, size=size, kind_colour=kind_colour, shown=shown,
                       sealed=sealed)
    env.globals.update(with_query=with_query, KIND_COLOURS=KIND_COLOURS)
