"""The benches' private service: used, then stopped, its folder removed, the environment back."""

from __future__ import annotations

import os
import subprocess
import sys

from lorestack.bench.private_service import private_service, proc_mb


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_private_service_serves_then_is_stopped_and_cleaned_up(tmp_path):
    home = tmp_path / "bench-home"
    before = {k: os.environ.get(k) for k in ("LORESTACK_SERVICE__RUNTIME_DIR", "LORESTACK_HOME")}
    with private_service(home, prefix="ps-test-") as svc:
        assert svc.env["LORESTACK_SERVICE__RUNTIME_DIR"] == str(svc.run_dir)
        assert os.environ["LORESTACK_SERVICE__RUNTIME_DIR"] == str(svc.run_dir)
        assert svc.env["LORESTACK_HOME"] == str(home) and "LORESTACK_ROOT" not in svc.env
        assert "LORESTACK_SERVICE__ENABLED" not in svc.base
        started = subprocess.Popen([sys.executable, "-m", "lorestack.launcher", "serve",
                                    "--foreground"], env=svc.env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            assert svc.wait_up(60)
            pid = svc.pid()
            assert pid == started.pid
            assert (proc_mb(pid) or 0) > 10
            assert svc.status()["warming"] == []  # no project asked for: nothing warmed
            assert svc.wait_prepared(timeout=1.0) == {}
        except BaseException:
            started.kill()
            raise
    assert started.wait(30) == 0  # asked to stop on the way out
    assert not _alive(pid)
    assert not svc.run_dir.parent.exists()
    assert {k: os.environ.get(k) for k in before} == before


def test_cpu_per_prompt_counts_the_client_processes_and_the_service():
    """`bench.service` reports CPU per prompt (client processes + service), alone and 8 at
    once, so issue 23's "8 prompts at once" can be judged against the machine's cores."""
    import os
    import subprocess
    import sys
    import time

    from lorestack.bench.service import _CpuMeter

    meter = _CpuMeter(os.getpid())  # this process stands in for the service
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"], check=True)
    end = time.process_time() + 0.2
    while time.process_time() < end:  # the "service" spends at least 200 ms
        pass
    spent = meter.per_prompt(2)
    # >= 80 of the 100 ms per prompt: /proc counts CPU in 10 ms ticks, so 50 ms was read as 40
    assert spent["client"] > 0 and spent["service"] >= 80
    assert abs(spent["total"] - spent["client"] - spent["service"]) <= 0.2


def test_fresh_rounds_ask_prompts_the_service_has_not_seen(mem):
    """The bench's first 1-alone / 8-at-once figures reuse prompts already timed (their query
    vectors are kept); its fresh rounds ask new ones: 3 alone then 8 at once a round, none
    asked before, none twice, each in a session of its own as lorestack files sessions (it
    keeps 80 characters of an id: before, 'fix the flaky reporting test that talks to …'
    prompts of one round shared one)."""
    import random
    import threading
    import time

    from lorestack.app.sessions import _session_file
    from lorestack.bench.service import _fresh_rounds, _session_id

    asked = ["how do we deploy billing changes?", "why does the search service retry redis calls?"]
    seen: list[tuple[str, str]] = []
    lock = threading.Lock()

    def prompt(text: str, tag: str) -> tuple[float, str]:
        with lock:
            seen.append((text, tag))
        return 1.0, "context"

    result = _fresh_rounds(prompt, asked, random.Random(11), os.getpid, rounds=5)
    texts = [text for text, _tag in seen]
    assert len(texts) == 55 and len(set(texts)) == 55 and not set(texts) & set(asked)
    assert [tag for _t, tag in seen[:3]] == ["fresh0-one0", "fresh0-one1", "fresh0-one2"]
    assert sorted(tag for _t, tag in seen[3:11]) == [f"fresh0-eight{i}" for i in range(8)]
    run_id = f"{4194304}-{time.time_ns()}-"  # as prompt_latency makes it
    sessions = {_session_file(mem, _session_id(run_id, tag, text)) for text, tag in seen}
    assert len(sessions) == 55
    assert result["rounds"] == 5 and result["eight_over_one"] > 0
    assert set(result["cpu_ms_per_prompt_eight"]) == {"client", "service", "total"}
