"""Nightly scheduling of `lorestack consolidate`: a crontab line, a systemd user timer or a
launchd agent — one entry per project, found again by a marker naming the project, so
installing twice changes nothing and uninstalling removes exactly that entry.

An install either completes or changes nothing: if the scheduler refuses (no user bus for
systemd, launchctl failing), the files written are taken back and the error says so. "Already
installed" is only reported of an entry that will run (the timer is enabled, the agent loaded).

The scheduler commands can be pointed elsewhere (`LORESTACK_CRONTAB`, `LORESTACK_SYSTEMCTL`,
`LORESTACK_LAUNCHCTL`): tests use fakes and never touch the real crontab.
"""

from __future__ import annotations

import hashlib
import os
import plistlib
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lorestack.core import legacy
from lorestack.core.errors import LorestackError
from lorestack.memory_layers.memory import Memory

MARKER = "# lorestack-consolidate"
LOG_NAME = "consolidate.log"  # under .memory/.index/: the nightly job's output (cron, launchd)
# past this size the log is moved to consolidate.log.1 (one kept) when a run starts
LOG_LIMIT_BYTES = 1_000_000


class ScheduleError(LorestackError):
    pass


@dataclass
class ScheduleResult:
    scheduler: str
    entry: str
    changed: bool
    dry_run: bool = False
    files: list[Path] = field(default_factory=list)
    # what is (or, with dry_run, would be) written: file path or "crontab" -> text
    content: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # what this shell gives lorestack that the scheduled job will not have (its environment
    # is the scheduler's, not the shell's)
    warnings: list[str] = field(default_factory=list)


def _tool(env: str, default: str) -> list[str]:
    return shlex.split(os.environ.get(env) or default)


def lorestack_executable() -> list[str]:
    """The absolute command that runs this lorestack (cron has a bare PATH)."""
    beside = Path(sys.executable).parent / ("lorestack.exe" if os.name == "nt" else "lorestack")
    if beside.is_file():
        return [str(beside.absolute())]
    found = shutil.which("lorestack")
    if found:
        return [str(Path(found).resolve())]
    return [str(Path(sys.executable).absolute()), "-m", "lorestack.cli"]


def parse_at(at: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", at or "")
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise ScheduleError(f"--at {at!r} is not a time of day; use HH:MM, e.g. 03:17")
    return int(match.group(1)), int(match.group(2))


def _unit_name(repo: Path) -> str:
    return "lorestack-consolidate-" + hashlib.sha256(str(repo).encode()).hexdigest()[:10]


def _run(command: list[str], *, input: str | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, input=input, capture_output=True, text=True, timeout=30,
                              check=False)
    except FileNotFoundError as exc:
        raise ScheduleError(f"{command[0]} is not installed; pick another --scheduler") from exc


def choose(scheduler: str) -> str:
    if scheduler != "auto":
        return scheduler
    if sys.platform == "darwin":
        return "launchd"
    if shutil.which(_tool("LORESTACK_CRONTAB", "crontab")[0]):
        return "cron"
    if shutil.which(_tool("LORESTACK_SYSTEMCTL", "systemctl")[0]):
        return "systemd"
    raise ScheduleError("found neither crontab nor systemctl; install cron or pass --scheduler")


# ---- cron -------------------------------------------------------------------------------
def cron_line(repo: Path, log: Path, at: str) -> str:
    hour, minute = parse_at(at)
    exe = " ".join(shlex.quote(part) for part in lorestack_executable())
    command = (f"cd {shlex.quote(str(repo))} && {exe} consolidate --no-diff "
               f">> {shlex.quote(str(log))} 2>&1")
    command = command.replace("%", r"\%")  # cron turns a bare % into a newline
    return f"{minute} {hour} * * * {command} {MARKER} {repo}"


def _read_crontab() -> list[str]:
    result = _run([*_tool("LORESTACK_CRONTAB", "crontab"), "-l"])
    if result.returncode != 0:
        if "no crontab" in (result.stderr or "").lower():
            return []
        raise ScheduleError(f"crontab -l failed: {(result.stderr or '').strip()[:200]}")
    return result.stdout.splitlines()


def _write_crontab(lines: list[str]) -> None:
    text = "\n".join(lines).rstrip("\n") + "\n" if lines else ""
    result = _run([*_tool("LORESTACK_CRONTAB", "crontab"), "-"], input=text)
    if result.returncode != 0:
        raise ScheduleError(f"crontab - failed: {(result.stderr or '').strip()[:200]}")


def _is_ours(line: str, repo: Path) -> bool:
    # a line written under the tool's former name is ours too: install replaces it
    return any(line.rstrip().endswith(f"{marker} {repo}")
               for marker in (MARKER, legacy.legacy_form(MARKER)))


PROC_ROOT = Path("/proc")
_CRON_DAEMONS = {"cron", "crond", "cronie", "busybox", "fcron", "dcron", "anacron"}


def cron_daemon_running() -> bool | None:
    """Whether a cron daemon runs (True/False), or None where that cannot be seen (no /proc)."""
    if not PROC_ROOT.is_dir():
        return None
    try:
        for entry in PROC_ROOT.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                comm = (entry / "comm").read_text().strip()
                if comm in _CRON_DAEMONS and (comm != "busybox" or b"crond" in (
                        entry / "cmdline").read_bytes()):
                    return True
            except OSError:
                continue
    except OSError:
        return None
    return False


def _cron_install(repo: Path, log: Path, at: str, dry_run: bool) -> ScheduleResult:
    line = cron_line(repo, log, at)
    current = _read_crontab()
    ours = [i for i, existing in enumerate(current) if _is_ours(existing, repo)]
    content = {"crontab": line + "\n"}
    notes = []
    if cron_daemon_running() is False:
        notes.append("no cron daemon is running on this machine, so the entry will not run until "
                     "one is started (e.g. `sudo service cron start`); or use --scheduler systemd")
    if len(ours) == 1 and current[ours[0]] == line:
        return ScheduleResult("cron", line, False, dry_run, content=content, notes=notes)
    updated = [existing for existing in current if not _is_ours(existing, repo)] + [line]
    if not dry_run:
        _write_crontab(updated)
    return ScheduleResult("cron", line, True, dry_run, content=content, notes=notes)


def _cron_uninstall(repo: Path, dry_run: bool) -> ScheduleResult:
    current = _read_crontab()
    ours = [line for line in current if _is_ours(line, repo)]
    if ours and not dry_run:
        _write_crontab([line for line in current if not _is_ours(line, repo)])
    return ScheduleResult("cron", ours[0] if ours else "", bool(ours), dry_run)


# ---- systemd ----------------------------------------------------------------------------
def _systemd_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "systemd" / "user"


def systemd_units(repo: Path, at: str) -> dict[str, str]:
    hour, minute = parse_at(at)
    exe = " ".join(shlex.quote(part) for part in lorestack_executable())
    name = _unit_name(repo)
    service = (f"[Unit]\nDescription=lorestack nightly consolidation for {repo}\n\n"
               f"[Service]\nType=oneshot\nWorkingDirectory={repo}\n"
               f"ExecStart={exe} consolidate --no-diff\n")
    timer = (f"[Unit]\nDescription=lorestack nightly consolidation for {repo}\n\n"
             f"[Timer]\nOnCalendar=*-*-* {hour:02d}:{minute:02d}:00\nPersistent=true\n\n"
             f"[Install]\nWantedBy=timers.target\n")
    return {f"{name}.service": service, f"{name}.timer": timer}


def _timer_enabled(systemctl: list[str], timer: str) -> bool:
    try:
        done = _run([*systemctl, "--user", "is-enabled", timer])
    except ScheduleError:
        return False
    return done.returncode == 0 and done.stdout.strip() in ("enabled", "enabled-runtime")


def _systemd_install(repo: Path, at: str, dry_run: bool) -> ScheduleResult:
    _systemd_remove(legacy.legacy_form(_unit_name(repo)), dry_run)  # replaced, not doubled
    units = systemd_units(repo, at)
    folder = _systemd_dir()
    paths = [folder / name for name in units]
    content = {str(p): units[p.name] for p in paths}
    timer = next(name for name in units if name.endswith(".timer"))
    systemctl = _tool("LORESTACK_SYSTEMCTL", "systemctl")
    files_differ = any(not p.exists() or p.read_text("utf-8") != units[p.name] for p in paths)
    # "installed" means it will run: unit files in place AND the timer enabled
    changed = files_differ or not _timer_enabled(systemctl, timer)
    if changed and not dry_run:
        previous = {p: (p.read_bytes() if p.exists() else None) for p in paths}
        created = [d for d in (folder, *folder.parents) if not d.exists()]
        folder.mkdir(parents=True, exist_ok=True)
        try:
            for path in paths:
                path.write_text(units[path.name], "utf-8")
            for args in (["--user", "daemon-reload"], ["--user", "enable", "--now", timer]):
                done = _run([*systemctl, *args])
                if done.returncode != 0:
                    raise ScheduleError(
                        f"systemctl {' '.join(args)} failed: "
                        f"{(done.stderr or '').strip()[:200]}; nothing was installed "
                        "(a systemd user timer needs a user session bus; install cron "
                        "and use --scheduler cron instead)")
        except BaseException:
            for path, old in previous.items():  # take back what we wrote
                if old is None:
                    path.unlink(missing_ok=True)
                else:
                    path.write_bytes(old)
            for made in created:  # innermost first: only folders we created, if still empty
                try:
                    made.rmdir()
                except OSError:
                    break
            raise
    return ScheduleResult("systemd", timer, changed, dry_run, paths, content)


def _systemd_remove(name: str, dry_run: bool) -> list[Path]:
    folder = _systemd_dir()
    paths = [p for p in (folder / f"{name}.service", folder / f"{name}.timer") if p.exists()]
    if paths and not dry_run:
        systemctl = _tool("LORESTACK_SYSTEMCTL", "systemctl")
        _run([*systemctl, "--user", "disable", "--now", f"{name}.timer"])
        for path in paths:
            path.unlink()
        _run([*systemctl, "--user", "daemon-reload"])
    return paths


def _systemd_uninstall(repo: Path, dry_run: bool) -> ScheduleResult:
    name = _unit_name(repo)
    # the timer the tool installed under its former name goes too
    paths = _systemd_remove(name, dry_run) + _systemd_remove(legacy.legacy_form(name), dry_run)
    return ScheduleResult("systemd", f"{name}.timer", bool(paths), dry_run, paths)


# ---- launchd ----------------------------------------------------------------------------
def _launchd_path(repo: Path) -> Path:
    label = _unit_name(repo).replace("lorestack-consolidate-", "dev.lorestack.consolidate.")
    return Path.home() / "Library" / "LaunchAgents" / f"{label}.plist"


def launchd_plist(repo: Path, log: Path, at: str) -> bytes:
    hour, minute = parse_at(at)
    path = _launchd_path(repo)
    return plistlib.dumps({
        "Label": path.stem,
        "ProgramArguments": [*lorestack_executable(), "consolidate", "--no-diff"],
        "WorkingDirectory": str(repo),
        "StartCalendarInterval": {"Hour": hour, "Minute": minute},
        "StandardOutPath": str(log), "StandardErrorPath": str(log),
    })


def _launchd_loaded(launchctl: list[str], label: str) -> bool:
    try:
        return _run([*launchctl, "list", label]).returncode == 0
    except ScheduleError:
        return False


def _launchd_install(repo: Path, log: Path, at: str, dry_run: bool) -> ScheduleResult:
    path = _launchd_path(repo)
    data = launchd_plist(repo, log, at)
    launchctl = _tool("LORESTACK_LAUNCHCTL", "launchctl")
    changed = (not path.exists() or path.read_bytes() != data
               or not _launchd_loaded(launchctl, path.stem))
    if changed and not dry_run:
        previous = path.read_bytes() if path.exists() else None
        if previous is not None:
            _run([*launchctl, "unload", str(path)])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        result = _run([*launchctl, "load", "-w", str(path)])
        if result.returncode != 0:
            if previous is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(previous)
                _run([*launchctl, "load", "-w", str(path)])
            raise ScheduleError(f"launchctl load failed: {result.stderr.strip()[:200]}; "
                                "nothing was changed")
    return ScheduleResult("launchd", path.stem, changed, dry_run, [path],
                          {str(path): data.decode("utf-8")})


def _launchd_uninstall(repo: Path, dry_run: bool) -> ScheduleResult:
    path = _launchd_path(repo)
    exists = path.exists()
    if exists and not dry_run:
        _run([*_tool("LORESTACK_LAUNCHCTL", "launchctl"), "unload", "-w", str(path)])
        path.unlink()
    return ScheduleResult("launchd", path.stem, exists, dry_run, [path] if exists else [])


def cap_log(index_dir: Path, limit: int = LOG_LIMIT_BYTES) -> str:
    """Keep the nightly job's log from growing without end: past `limit` bytes its last
    `limit` bytes (from a line's start) go to `consolidate.log.1` (the one before replaced)
    and the log is emptied in place. What is to be said of it, "" when it was left alone.

    In place, not renamed: the scheduler opened the log for appending before this process
    started (`>> consolidate.log`, launchd's StandardOutPath), and an append after a truncate
    goes to the start of the same file, where a renamed file would take tonight's output with
    it (logrotate's `copytruncate`). A log that cannot be read or moved is no reason to skip
    the run: it is named and left as it is."""
    log = index_dir / LOG_NAME
    try:
        if log.is_symlink() or not log.is_file() or log.stat().st_size <= limit:
            return ""
        with open(log, "rb") as handle:
            handle.seek(-(limit + 1), os.SEEK_END)
            data = handle.read(limit + 1)
        data = data[max(data.find(b"\n") + 1, 1):]  # from the first whole line
        from lorestack.memory_layers.fsutil import write_atomic

        write_atomic(log.with_name(LOG_NAME + ".1"), data)
        with open(log, "r+b") as handle:
            handle.truncate(0)
    except OSError as exc:
        return (f"{LOG_NAME} passed {limit:,} bytes and could not be moved to {LOG_NAME}.1 "
                f"({exc.strerror or exc}); left as it is")
    return (f"{LOG_NAME} passed {limit:,} bytes: its last {limit:,} bytes moved to "
            f"{LOG_NAME}.1 (one kept), the older text dropped")


# ---- entry points -----------------------------------------------------------------------
def install_schedule(mem: Memory, *, at: str, scheduler: str = "auto",
                     dry_run: bool = False) -> ScheduleResult:
    """Add (or update) this project's nightly `lorestack consolidate`."""
    paths = mem.require_project().paths
    parse_at(at)
    repo = paths.repo_dir.resolve()
    log = paths.index_dir.resolve() / LOG_NAME
    kind = choose(scheduler)
    if kind == "cron":
        result = _cron_install(repo, log, at, dry_run)
    elif kind == "systemd":
        result = _systemd_install(repo, at, dry_run)
    else:
        result = _launchd_install(repo, log, at, dry_run)
    result.warnings = unseen_environment(mem)
    return result


def unseen_environment(mem: Memory) -> list[str]:
    """Settings and the LLM key this shell holds in its environment only: a job started by
    cron, a systemd user timer or launchd runs without them."""
    from lorestack.core.settings import explain_settings

    project = mem.project.root if mem.project else None
    rows = explain_settings(project, mem.home.root)
    names = sorted({src.split()[-1] for _, _, src in rows if src.startswith("environment ")})
    out = []
    if names:
        out.append("the nightly job runs in the scheduler's environment, not this shell's, so "
                   f"it will not see {', '.join(names)}: put what it needs in config.toml "
                   "(`lorestack config set KEY VALUE`)")
    llm = mem.settings.llm
    if llm.model and llm.api_key_env and os.environ.get(llm.api_key_env):
        out.append(f"llm.api_key_env names {llm.api_key_env}, which this shell sets: the "
                   "nightly job can call the model only if the scheduler's environment has it "
                   "too")
    return out


def uninstall_schedule(mem: Memory, *, scheduler: str = "auto",
                       dry_run: bool = False) -> ScheduleResult:
    """Remove exactly this project's entry; other lines and projects are left alone."""
    repo = mem.require_project().paths.repo_dir.resolve()
    kind = choose(scheduler)
    if kind == "cron":
        return _cron_uninstall(repo, dry_run)
    if kind == "systemd":
        return _systemd_uninstall(repo, dry_run)
    return _launchd_uninstall(repo, dry_run)
