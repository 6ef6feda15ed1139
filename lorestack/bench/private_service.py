"""A resident service of its own for a bench: a private runtime folder, stopped afterwards.

    with private_service(home) as svc:
        _timed([...], svc.env, repo)          # whole `lorestack` processes use this service
        svc.wait_up()                         # after the first call started it
        svc.pid(), proc_mb(svc.pid(), "VmRSS")

`svc.env` is the environment for client processes (the bench's own, without any
`LORESTACK_SERVICE__*` nor `LORESTACK_ROOT`, with `LORESTACK_HOME` and the service enabled in
the private folder); `svc.base` is the same without the service settings. While inside, this
process's own `LORESTACK_SERVICE__RUNTIME_DIR` (and `LORESTACK_HOME` with `set_home=True`)
point at the same place, so `client.call` reaches that service. On leaving, the service is
asked to stop, the variables are restored and the folder is removed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class PrivateService:
    run_dir: Path
    base: dict[str, str]
    env: dict[str, str] = field(default_factory=dict)

    def wait_up(self, timeout: float = 120.0) -> bool:
        from lorestack.integrations.service import client

        return client.wait_until_up(timeout)

    def status(self) -> dict:
        from lorestack.integrations.service import client

        return client.call({"op": "status"}, 10.0, with_caller=False)

    def pid(self) -> int:
        return int(self.status()["pid"])

    def wait_prepared(self, timeout: float = 600.0) -> dict:
        """The service's `prepared` status once every warm-up it started has ended (hit blocks
        rendered, or `{"failed": …}`), so timings do not include it. {} at once when none was
        started (a check-only project never warms the loader), and {} after `timeout`."""
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.status()
            if not status.get("warming"):
                return status.get("prepared") or {}
            time.sleep(0.5)
        return {}


def proc_mb(pid: int, field_name: str = "VmRSS") -> float | None:
    """A memory figure of a process from /proc (VmRSS, VmHWM), in MB; None elsewhere."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


@contextmanager
def private_service(home: str | Path, *, prefix: str = "svc-bench-",
                    set_home: bool = False) -> Iterator[PrivateService]:
    from lorestack.integrations.service import client

    run_dir = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp")) / "run"
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("LORESTACK_SERVICE__") and k != "LORESTACK_ROOT"}
    base["LORESTACK_HOME"] = str(home)
    svc = PrivateService(run_dir, base, {**base, "LORESTACK_SERVICE__ENABLED": "true",
                                         "LORESTACK_SERVICE__RUNTIME_DIR": str(run_dir)})
    names = ("LORESTACK_SERVICE__RUNTIME_DIR", "LORESTACK_HOME")
    saved = {k: os.environ.get(k) for k in names}
    os.environ["LORESTACK_SERVICE__RUNTIME_DIR"] = str(run_dir)
    if set_home:
        os.environ["LORESTACK_HOME"] = str(home)
    try:
        yield svc
    finally:
        try:
            client.call({"op": "stop"}, 10.0, with_caller=False)
        except client.Unavailable:
            pass
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(run_dir.parent, ignore_errors=True)
