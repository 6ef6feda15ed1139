"""Probes that held under attack, kept as regression tests: concurrent writers across
processes, kill -9 of reindex, two consolidations at once, path-traversal ids."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli

WRITER = r"""
import sys
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import log_event, remember
mem = Memory.open(sys.argv[1])
worker, n = sys.argv[2], int(sys.argv[3])
for i in range(n):
    remember(mem, f"worker {worker} item {i}: the {worker} service keeps setting {i}", "fact",
             title=f"{worker} setting {i}")
    log_event(mem, f"worker {worker} event {i}", "progress", tags=[worker])
"""


@pytest.mark.slow
def test_eight_processes_remember_and_log_without_loss_or_duplicate_ids(repo):
    from lorestack.memory_layers.memory import Memory

    workers, per_worker = 8, 50
    began = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(repo), f"w{n}", str(per_worker)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(workers)
    ]
    for proc in procs:
        _out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    elapsed = time.perf_counter() - began
    mem = Memory.open(repo)
    loaded = mem.load_items()
    facts = [li.item for li in loaded.items if li.item.type == "fact" and li.item.id != "project"]
    assert not loaded.problems, loaded.problems
    assert len(facts) == workers * per_worker
    assert len({f.id for f in facts}) == len(facts)
    assert len({li.path for li in loaded.items}) == len(loaded.items)
    journal = mem.journal.read_all()
    assert not journal.problems
    assert len(journal.events) == workers * per_worker
    assert len({e.id for e in journal.events}) == len(journal.events)
    print(
        f"\nconcurrency: {workers} processes x ({per_worker} remember + {per_worker} log) "
        f"= {2 * workers * per_worker} writes in {elapsed:.1f}s"
    )


@pytest.mark.slow
def test_cli_writers_with_a_search_loop_running(repo):
    stop = threading.Event()
    failures: list[str] = []

    def searcher():
        while not stop.is_set():
            proc = run_cli("search", "service setting", "--mode", "bm25", cwd=repo, timeout=300)
            if proc.returncode != 0 or "Traceback" in proc.stderr:
                failures.append(proc.stderr)

    loop = threading.Thread(target=searcher)
    loop.start()
    try:

        def write(worker: str):
            for i in range(4):
                for args in (
                    ["remember", f"{worker} keeps setting {i} in the service config"],
                    ["log", f"{worker} event {i}"],
                ):
                    proc = run_cli(*args, cwd=repo, timeout=300)
                    if proc.returncode != 0:
                        failures.append(proc.stderr)

        writers = [threading.Thread(target=write, args=(f"cli{n}",)) for n in range(3)]
        for t in writers:
            t.start()
        for t in writers:
            t.join()
    finally:
        stop.set()
        loop.join()
    assert not failures, failures
    proc = run_cli("list", "--json", cwd=repo)
    titles = [i["title"] for i in json.loads(proc.stdout)]
    assert sum("keeps setting" in t for t in titles) == 12
    events = json.loads(run_cli("list", "--type", "event", "--json", cwd=repo).stdout)
    assert len(events) == 12
    proc = run_cli("search", "cli2 keeps setting 3", "--mode", "bm25", cwd=repo)
    assert "cli2 keeps setting 3" in proc.stdout  # every write ends up searchable


@pytest.mark.slow
def test_kill_dash_nine_of_reindex_then_recovery(repo):
    facts = repo / ".memory" / "facts"
    for n in range(120):
        (facts / f"k{n}.md").write_text(
            f"---\nid: k{n}\ntype: fact\ntitle: Kill probe {n}\n---\nProbe body {n} about "
            f"service {n % 7} and queue {n % 5}.\n"
        )
    rng = random.Random(15)
    for _round in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-m", "lorestack.cli", "reindex"],
            cwd=repo,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(rng.uniform(0.5, 4.0))  # somewhere mid-run (or after: both must recover)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=60)
        search = run_cli("search", "kill probe 42", "--mode", "bm25", cwd=repo, timeout=300)
        assert search.returncode == 0 and "Traceback" not in search.stderr, search.stderr
    proc = run_cli("doctor", "--repair", "--json", cwd=repo, timeout=300)
    assert "Traceback" not in proc.stderr
    proc = run_cli("doctor", "--json", cwd=repo, timeout=300)
    report = json.loads(proc.stdout)
    assert report["ok"], report
    assert report["documents"] == 121  # 120 + project.md
    assert report["lexical"]["docs"] == 121 and report["vector"]["docs"] == 121
    proc = run_cli(
        "search",
        "Probe body 42 about service 0",
        "--mode",
        "vector",
        "-k",
        "3",
        cwd=repo,
        timeout=300,
    )
    assert "Kill probe 42" in proc.stdout


def test_two_consolidations_at_once_the_second_is_refused(repo, fake_llm):
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import log_event

    release = threading.Event()

    def slow(_request):
        release.wait(120)  # hold the first run inside its LLM call (and so its run lock)
        return json.dumps({"skip": True, "reason": "test"})

    server = fake_llm(responder=slow, timeout_s=120)
    mem = Memory.open(repo)
    for text in (
        "Move the job queue to redis streams",
        "Redis streams for the job queue",
        "The job queue now runs on redis streams",
    ):
        log_event(mem, text, "decision", tags=["queue"])
    first = subprocess.Popen(
        [sys.executable, "-m", "lorestack.cli", "consolidate"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(1200):  # until the first run is inside its LLM call
            if server.requests or first.poll() is not None:
                break
            time.sleep(0.1)
        assert server.requests, first.communicate()[1] if first.poll() is not None else "no call"
        second = run_cli("consolidate", cwd=repo, timeout=120)
        assert second.returncode != 0
        assert "another `lorestack consolidate` is running" in second.stderr
        assert "Traceback" not in second.stderr and len(second.stderr.strip().splitlines()) == 1
    finally:
        release.set()
        _out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err


TRAVERSAL_IDS = [
    "../../../../etc/passwd",
    "..",
    "../facts/x",
    "/etc/passwd",
    "facts/../../x",
    "..\\..\\windows",
    "%2e%2e%2fsecret",
    "~/.pgpass",
    "a/../../../b",
]


def test_path_traversal_ids_are_refused(repo, tmp_path):
    victim = tmp_path / "victim.md"
    victim.write_text("---\nid: victim\ntype: fact\ntitle: Victim\n---\nuntouched\n")
    before = sorted(
        p.relative_to(repo)
        for p in (repo / ".memory").rglob("*")
        if p.is_file() and ".index" not in p.parts
    )
    for bad in [*TRAVERSAL_IDS, str(victim)]:
        for args in (
            ["show", bad],
            ["forget", bad, "--reason", "probe"],
            ["supersede", bad, "new text"],
        ):
            proc = run_cli(*args, cwd=repo, timeout=60)
            assert proc.returncode != 0, (args, proc.stdout)
            assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, (
                args,
                proc.stderr,
            )
            assert "untouched" not in proc.stdout
    assert victim.read_text().endswith("untouched\n")
    after = sorted(
        p.relative_to(repo)
        for p in (repo / ".memory").rglob("*")
        if p.is_file() and ".index" not in p.parts
    )
    assert before == after
    assert not list(Path(tmp_path).glob("*.md"))[1:]  # nothing new beside the victim
