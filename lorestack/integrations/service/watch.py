"""Watch each project's `.memory/` (watchfiles) so the service's indexes and caches stay current.

One thread per watched folder. A change outside `.index/` calls `on_change(root, paths)`
(the service syncs that project's open index at once, so a search need not stat every file
and a hand edit is seen within about a second). When the folder disappears (deleted or
renamed; or only its derived `.index/` is left), `on_gone(root)` drops the project; the next
request opens it again if it is back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path


def _outside_index(change, path: str) -> bool:
    parts = Path(path).parts
    return ".index" not in parts and not path.endswith((".tmp", "~"))


def _gone(root: Path) -> bool:
    """The memory folder is gone, or holds nothing but its derived `.index/`: a sync or a lock
    taken as the folder was deleted makes `.memory/.index/…` again (its parents too), and
    that folder alone kept the deleted project watched (thirty-eighth session's CI)."""
    try:
        return not any(entry.name != ".index" for entry in root.iterdir())
    except OSError:  # not there, or no longer a folder
        return True


class FolderWatcher:
    def __init__(
        self,
        on_change: Callable[[str, set[str]], None],
        on_gone: Callable[[str], None],
        *,
        log: Callable[[str], None] = lambda _m: None,
        debounce_ms: int = 100,
        poll_ms: int = 1000,
    ):
        self.on_change = on_change
        self.on_gone = on_gone
        self.log = log
        self.debounce_ms = debounce_ms
        self.poll_ms = poll_ms
        self._threads: dict[str, tuple[threading.Thread, threading.Event]] = {}
        self._lock = threading.Lock()

    def watching(self) -> list[str]:
        with self._lock:
            return sorted(root for root, (t, _e) in self._threads.items() if t.is_alive())

    def watch(self, root: Path) -> None:
        key = str(root)
        with self._lock:
            current = self._threads.get(key)
            if current is not None and current[0].is_alive():
                return
            stop = threading.Event()
            thread = threading.Thread(
                target=self._run,
                args=(root, stop),
                daemon=True,
                name=f"lorestack-watch-{root.parent.name}",
            )
            self._threads[key] = (thread, stop)
            thread.start()

    def unwatch(self, root: str) -> None:
        with self._lock:
            entry = self._threads.pop(root, None)
        if entry is not None:
            entry[1].set()

    def stop_all(self) -> None:
        with self._lock:
            entries = list(self._threads.values())
            self._threads.clear()
        for _thread, stop in entries:
            stop.set()

    def _run(self, root: Path, stop: threading.Event) -> None:
        from watchfiles import watch

        key = str(root)
        try:
            for changes in watch(
                root,
                watch_filter=_outside_index,
                stop_event=stop,
                debounce=self.debounce_ms,
                rust_timeout=self.poll_ms,
                yield_on_timeout=True,
                raise_interrupt=False,
            ):
                if _gone(root):
                    break
                if changes:
                    try:
                        self.on_change(key, {path for _kind, path in changes})
                    except Exception as exc:  # noqa: BLE001 - one bad sync must not end the watch
                        self.log(f"watch {root}: update failed: {type(exc).__name__}: {exc}")
        except Exception as exc:  # noqa: BLE001 - e.g. the folder vanished under the watcher
            self.log(f"watch {root}: stopped ({type(exc).__name__}: {exc})")
        if not stop.is_set():
            with self._lock:
                self._threads.pop(key, None)
            self.on_gone(key)
