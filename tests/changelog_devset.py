"""Build a `lorestack-bench/1` development set from real maintainers' release notes.

Each changelog bullet of each sdist's HISTORY/CHANGES file becomes one event (time = the
release date, session = the project). The text is third-party: write it outside the
project (default /work/devdata/changelog-dev.jsonl), never commit it. Questions are read
from a separate JSONL file (one question object a line) written by hand.

    python tests/changelog_devset.py SRC_DIR tests/data/changelog_dev_questions.jsonl OUT.jsonl

SRC_DIR holds the unpacked sdists (`pip download --no-deps --no-binary :all: PKG`). The
question file's evidence ids (project:n, n = the bullet's rank in date order) were written
against requests 2.34.2, click 8.5.1, flask 3.1.3, httpx 0.29.0, attrs 26.1.0 and urllib3
2.8.0; another release shifts them, and the script then refuses or mismatches: pin these.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime
from pathlib import Path

CHANGELOGS = {  # project -> file inside its sdist folder
    "requests": "HISTORY.md",
    "click": "CHANGES.md",
    "flask": "CHANGES.rst",
    "httpx": "CHANGELOG.md",
    "attrs": "CHANGELOG.md",
    "urllib3": "CHANGES.rst",
}

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_LONG = re.compile(r"(\d{1,2})(?:st|nd|rd|th)? ([A-Z][a-z]+),? (\d{4})")
_LONG2 = re.compile(r"([A-Z][a-z]+) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
_RST_LINK = re.compile(r"`([^`<]+?) <[^>]+>`__")
_RULE = re.compile(r"^[-=~^#*]{3,}\s*$")


def _date(line: str) -> str | None:
    m = _ISO.search(line)
    if m:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    for pattern, day, month in ((_LONG, 1, 2), (_LONG2, 2, 1)):  # "3 May 2024", "May 3, 2024"
        m = pattern.search(line)
        if m:
            try:
                d = datetime.strptime(f"{m.group(day)} {m.group(month)} {m.group(3)}", "%d %B %Y")
            except ValueError:
                return None
            return d.strftime("%Y-%m-%d")
    return None


def _is_release_line(line: str) -> bool:
    s = line.rstrip()
    if not s or s[:1].isspace():
        return False
    return bool(
        re.match(r"^(#+ )?\[?v?\d+\.\d+(\.\d+)?", s.lstrip("# "))
        and (s.startswith("#") or "(" in s or len(s) < 30)
    ) or s.startswith("Released ") or bool(re.match(r"^#* ?Version \d", s))


def bullets(text: str) -> list[tuple[str, str]]:
    """(release date, bullet text) for each top-level bullet that has a dated release."""
    out: list[tuple[str, str]] = []
    date: str | None = None
    cur: list[str] | None = None
    indent = 0
    prev_blank = True

    def flush() -> None:
        if cur and date:
            body = " ".join(x.strip() for x in cur)
            body = _RST_LINK.sub(r"\1", _MD_LINK.sub(r"\1", body)).strip()
            if len(body) >= 12:
                out.append((date, body))

    for line in text.splitlines():
        was_blank, prev_blank = prev_blank, not line.strip()
        if _is_release_line(line):
            flush()
            cur = None
            date = _date(line)
            continue
        m = _BULLET.match(line)
        if m and len(m.group(1)) <= 1:
            flush()
            cur, indent = [m.group(2)], len(m.group(1))
        elif cur is not None and line.strip() and (line[: indent + 1].isspace()):
            cur.append(line)
        elif cur is not None and line.strip() and not was_blank and not _RULE.match(line) \
                and not line.startswith("#"):
            cur.append(line)  # a markdown "lazy" continuation line
        elif cur is not None and (not line.strip() or not line[:1].isspace()):
            flush()
            cur = None
    flush()
    return out


def events(src: Path) -> list[dict[str, str]]:
    rows: list[tuple[str, str, str]] = []
    for project, name in CHANGELOGS.items():
        dirs = sorted(src.glob(f"{project}-*/{name}"))
        if not dirs:
            continue
        for date, body in bullets(dirs[-1].read_text(encoding="utf-8")):
            rows.append((date, project, body))
    rows.sort(key=lambda r: r[0])  # stable: keeps each file's order within a day
    counts: dict[str, int] = {}
    evs = []
    for date, project, body in rows:
        counts[project] = counts.get(project, 0) + 1
        evs.append({"id": f"{project}:{counts[project]}", "time": f"{date}T12:00:00",
                    "session": project, "text": body})
    return evs


def main() -> None:
    src, questions, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    evs = events(src)
    qs = [json.loads(x) for x in questions.read_text(encoding="utf-8").splitlines() if x.strip()]
    ids = {e["id"] for e in evs}
    for q in qs:
        missing = [x for x in q["evidence"] if x not in ids]
        if missing:
            raise SystemExit(f"{q['id']}: unknown evidence {missing}")
    rec = {"format": "lorestack-bench/1", "name": "changelog-dev", "events": evs,
           "questions": qs}
    out.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    per = {p: sum(1 for e in evs if e["session"] == p) for p in CHANGELOGS}
    print(f"{len(evs)} events {per}, {len(qs)} questions -> {out}")


if __name__ == "__main__":
    main()
