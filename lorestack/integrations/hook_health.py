"""How lorestack's client hooks are doing, for `lorestack doctor`.

Two questions a hook cannot answer itself, because it must stay silent in a session:
- did recent hooks miss their deadline or fail? (`hooks.log` under the index folder)
- are the hooks installed in a client ones that client will actually run? (a command that
  no longer exists after a virtualenv moved; Codex hooks nobody has trusted yet)
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from lorestack.core import clients as registry

WINDOW_HOURS = 24
_STAMP = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[+-]\d\d:\d\d|Z)?) (.*)$")


@dataclass
class InstalledHooks:
    client: str
    scope: str
    path: str
    events: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class HookHealth:
    log: str
    window_hours: int
    deadline_misses: int = 0
    errors: int = 0
    last_miss: str | None = None
    last_error: str | None = None
    late_answers: int = 0  # past the deadline, answered with less (BM25, no search): not empty
    last_late: str | None = None
    fallbacks: int = 0  # expected, self-healing: a cold index answered from the catalog
    last_fallback: str | None = None
    installed: list[InstalledHooks] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def read_log(path: Path, since: datetime) -> list[tuple[datetime, str]]:
    """(time, first line) of each entry written since SINCE; continuation lines are skipped."""
    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return []
    entries = []
    for line in text.splitlines():
        match = _STAMP.match(line)
        if not match:
            continue
        try:
            when = datetime.fromisoformat(match.group(1).replace("Z", "+00:00"))
        except ValueError:
            continue
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        if when >= since:
            entries.append((when, match.group(2).strip()))
    return entries


# What a hook logs when it did its job the expected way: a brand-new (or just-cleared) index
# is cold, the prompt is answered from the catalog titles in-process and a background sync
# warms the index. Not a fault; a sync that could not start, or a broken index, still is.
_EXPECTED = ("retrieval degraded: the lexical index is cold",
             "index is cold: rebuilding it in the background")


def is_fault(message: str) -> bool:
    """Whether a hooks.log line records a failure (not an info line or the cold-index path)."""
    return not message.startswith("info: ") and not any(e in message for e in _EXPECTED)


def _command_problem(command: str) -> str | None:
    try:
        words = shlex.split(command)
        program = words[0]
    except (ValueError, IndexError):
        return "its command cannot be parsed"
    # `PYTHON -S …/lorestack/thin.py …` (what `install` writes): the script must exist too
    scripts = [w for w in words[1:3] if w.endswith(".py") and w.startswith("/")]
    for path in ([program] if "/" in program else []) + scripts:
        if not Path(path).is_file():
            return f"{path} does not exist"
    if "/" in program:
        return None
    return None if shutil.which(program) else f"{program} is not on PATH"


def installed_hooks(project_dir: Path | None) -> list[InstalledHooks]:
    from lorestack.integrations import installers

    found = []
    scopes = [("user", None)] + ([("project", project_dir)] if project_dir else [])
    for name in registry.CLIENTS:
        for scope, base in scopes:
            path = installers.settings_path(name, scope, base)
            if not path.is_file():
                continue
            try:
                data, _ = installers._read(path, name)
            except installers.InstallerError as exc:
                found.append(InstalledHooks(name, scope, str(path), problems=[str(exc)]))
                continue
            hooks = data.get("hooks")
            if not isinstance(hooks, dict):
                continue
            entry = InstalledHooks(name, scope, str(path))
            tails = installers._all_tails(name)
            for event, groups in hooks.items():
                if not isinstance(groups, list):
                    continue
                handlers = (
                    groups
                    if registry.get(name).layout == "flat"
                    else [
                        h
                        for g in groups
                        if isinstance(g, dict) and isinstance(g.get("hooks"), list)
                        for h in g["hooks"]
                    ]
                )
                for handler in handlers:
                    if installers._is_ours(handler, tails):
                        entry.events.append(event)
                        problem = _command_problem(handler["command"])
                        if problem:
                            entry.problems.append(f"{event}: will not run: {problem}")
            if not entry.events:
                continue
            title = registry.get(name).title
            for event, why in installers.hooks_turned_off(name, path):
                entry.problems.append(
                    f"{event}: {title} will not run it: {why}"
                    if event
                    else f"{title} will not run any of them: {why}"
                )
            for trust in installers.hook_trust(name, path):
                if trust.status != "trusted":
                    entry.problems.append(
                        f"{trust.event}: {registry.get(name).title} will not run it "
                        f"({trust.status}); trust it with its /hooks review or "
                        f"`lorestack install {name} --scope {scope} --trust`"
                    )
            found.append(entry)
    return found


def check(
    log_path: Path,
    project_dir: Path | None,
    *,
    now: datetime | None = None,
    window_hours: int = WINDOW_HOURS,
) -> HookHealth:
    now = now or datetime.now(timezone.utc)
    health = HookHealth(str(log_path), window_hours)
    for _when, message in read_log(log_path, now - timedelta(hours=window_hours)):
        if "deadline of" in message and "passed" in message and "answered with" in message:
            health.late_answers += 1
            health.last_late = message
        elif "deadline of" in message and "passed" in message:
            health.deadline_misses += 1
            health.last_miss = message
        elif not is_fault(message):
            health.fallbacks += 1
            health.last_fallback = message
        else:  # failures, and recall skipped or degraded by a broken index
            health.errors += 1
            health.last_error = message
    if health.deadline_misses:
        health.problems.append(
            f"{health.deadline_misses} hook(s) passed their deadline in the last {window_hours} h "
            f"and answered empty (last: {health.last_miss}); see {log_path}"
        )
    if health.errors:
        health.problems.append(
            f"{health.errors} hook error(s) in the last {window_hours} h "
            f"(last: {health.last_error}); see {log_path}"
        )
    if health.late_answers:
        health.notes.append(
            f"{health.late_answers} hook(s) in the last {window_hours} h passed their deadline "
            "and answered with less (BM25 recall, or what needs no search) rather than empty "
            f"(last: {health.last_late})"
        )
    if health.fallbacks:
        health.notes.append(
            f"{health.fallbacks} hook log line(s) in the last {window_hours} h say the index was "
            "cold (a new or cleared index): answered from the catalog titles while it warmed "
            f"in the background; not a fault (last: {health.last_fallback})"
        )
    try:
        health.installed = installed_hooks(project_dir)
    except Exception as exc:  # noqa: BLE001 - a settings file we cannot read is reported, not fatal
        health.problems.append(f"could not read the clients' hook settings: {exc}")
    for entry in health.installed:
        health.problems.extend(
            f"{entry.client} ({entry.scope}, {entry.path}): {p}" for p in entry.problems
        )
    return health
