"""Every derived store the search path relies on is checked by `doctor`, fixed by
`doctor --repair`, and a damaged one degrades search instead of failing it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import run_cli

TOPICS = [
    "redis streams queue",
    "postgres migration lock",
    "nginx upstream timeout",
    "kafka consumer lag",
    "terraform state bucket",
    "webpack bundle split",
    "pytest fixture scope",
    "grafana alert rule",
]


@pytest.fixture
def stocked(repo):
    facts = repo / ".memory" / "facts"
    for n, topic in enumerate(TOPICS):
        (facts / f"f{n}.md").write_text(
            f"---\nid: f{n}\ntype: fact\ntitle: Note about {topic}\n---\nWe settled the {topic} "
            "question after a long discussion.\n"
        )
    proc = run_cli("reindex", cwd=repo, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return repo


def _index(repo: Path) -> Path:
    return repo / ".memory" / ".index"


def _clean(proc):
    assert "Traceback" not in proc.stderr and "unexpected" not in proc.stderr, proc.stderr
    assert "pyo3_runtime" not in proc.stderr, proc.stderr


def _doctor_json(repo: Path, *args: str) -> tuple[int, dict]:
    proc = run_cli("doctor", "--json", *args, cwd=repo, timeout=300)
    _clean(proc)
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize("damage", ["removed", "truncated"])
def test_lost_catalog_is_flagged_and_repair_silences_the_embedding_warning(
    stocked, monkeypatch, damage
):
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval import index as index_mod

    catalog = _index(stocked) / "catalog.sqlite"
    for suffix in ("-wal", "-shm"):
        catalog.with_name(catalog.name + suffix).unlink(missing_ok=True)
    if damage == "removed":
        catalog.unlink()
    else:
        catalog.write_bytes(b"")
    monkeypatch.setattr(index_mod, "SEARCH_EMBED_LIMIT", 3)  # what 500 is on a big store

    def search_warnings() -> list[str]:
        index = index_mod.MemoryIndex(Memory.open(stocked), warn=lambda m: None)
        try:
            index.search("redis queue", k=3)
            return index.last_warnings
        finally:
            index.close()

    assert any("need embedding" in w for w in search_warnings())
    code, report = _doctor_json(stocked)
    assert code == 1 and not report["ok"]
    assert report["catalog"].startswith("stale"), report
    assert any("catalog" in issue for issue in report["issues"])
    code, report = _doctor_json(stocked, "--repair")
    assert report["repaired"] and any("rebuilt" in a for a in report["actions"])
    assert not any("need embedding" in w for w in search_warnings())
    code, report = _doctor_json(stocked)
    assert code == 0 and report["ok"], report


def _corrupt_chroma_system_table(repo: Path) -> None:
    """Overwrite the page of chroma's `migrations` table: its Rust side panics on it."""
    db_path = _index(repo) / "chroma" / "chroma.sqlite3"
    db = sqlite3.connect(db_path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name='migrations'").fetchone()[0]
    db.close()
    with open(db_path, "r+b") as fh:
        fh.seek((root - 1) * page_size)
        fh.write(b"\xa5" * page_size)
    # a touched file makes the next search sync (and so open Chroma) too
    path = repo / ".memory" / "facts" / "f0.md"
    path.write_text(path.read_text() + "\nStill true.\n")


def test_chroma_panic_degrades_to_bm25_and_repair_rebuilds(stocked):
    _corrupt_chroma_system_table(stocked)
    code, report = _doctor_json(stocked)  # read-only: reports, does not heal
    assert code == 1 and report["vector"]["status"] == "corrupt", report
    payload = {
        "session_id": "s",
        "cwd": str(stocked),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "what did we decide about the redis streams queue",
    }
    hook = run_cli(
        "hook",
        "prompt",
        "--client",
        "claude-code",
        input=json.dumps(payload),
        cwd=stocked,
        timeout=300,
        env={"LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "120000"},
    )
    assert hook.returncode == 0
    assert hook.stderr == ""  # Chroma's own panic text goes to hooks.log, not the session
    log = (_index(stocked) / "hooks.log").read_text()
    assert "vector retriever unavailable" in log and "panicked" in log
    assert "redis" in json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    for args in (
        ["search", "redis queue", "--mode", "bm25"],
        ["search", "redis queue"],
        ["context", "--query", "redis queue"],
    ):
        _corrupt_chroma_system_table(stocked)  # a search heals it: damage it before each
        proc = run_cli(*args, cwd=stocked, timeout=300)
        assert proc.returncode == 0, (args, proc.stderr)
        _clean(proc)
        assert "redis" in proc.stdout, (args, proc.stdout)
    _corrupt_chroma_system_table(stocked)
    code, report = _doctor_json(stocked, "--repair")
    assert report["repaired"], report
    code, report = _doctor_json(stocked)
    assert report["ok"], report  # the index; the hooks part still reports the degraded hook
    assert code == 0 or not report["hooks_ok"], report
    proc = run_cli("search", "redis queue", "--mode", "vector", cwd=stocked, timeout=300)
    assert proc.returncode == 0 and "redis" in proc.stdout and "warning" not in proc.stderr


def test_garbage_usage_stats_are_reset_not_fatal(stocked):
    usage = _index(stocked) / "usage.sqlite"
    run_cli("search", "redis", "--mode", "bm25", cwd=stocked, timeout=120)
    for suffix in ("-wal", "-shm"):
        usage.with_name(usage.name + suffix).unlink(missing_ok=True)
    usage.write_bytes(b"this is not a database at all " * 400)
    code, report = _doctor_json(stocked)
    assert code == 1 and report["usage"].startswith("corrupt"), report
    proc = run_cli("search", "redis queue", "--mode", "bm25", cwd=stocked, timeout=120)
    assert proc.returncode == 0, proc.stderr
    _clean(proc)
    assert "redis" in proc.stdout and "usage stats" in proc.stderr
    usage.write_bytes(b"garbage again " * 400)
    code, report = _doctor_json(stocked, "--repair")
    assert report["repaired"] and any("usage" in a for a in report["actions"]), report
    code, report = _doctor_json(stocked)
    assert code == 0 and report["ok"], report


def test_index_folder_replaced_by_a_file(stocked):
    import shutil

    shutil.rmtree(_index(stocked))
    _index(stocked).write_text("not a folder\n")
    proc = run_cli("search", "redis queue", "--mode", "bm25", cwd=stocked, timeout=300)
    assert proc.returncode == 0, proc.stderr
    _clean(proc)
    assert "redis" in proc.stdout and "moved it to" in proc.stderr
    shutil.rmtree(_index(stocked))
    _index(stocked).write_text("not a folder\n")
    code, report = _doctor_json(stocked)
    assert code == 1 and any("not a folder" in i for i in report["issues"]), report
    code, report = _doctor_json(stocked, "--repair")
    assert report["repaired"], report
    assert _index(stocked).is_dir()
    shutil.rmtree(_index(stocked))
    _index(stocked).write_text("not a folder\n")
    proc = run_cli("reindex", cwd=stocked, timeout=300)
    assert proc.returncode == 0, proc.stderr
    _clean(proc)
    code, report = _doctor_json(stocked)
    assert code == 0 and report["ok"], report


def test_doctor_flags_a_bad_regex_in_a_criterion(stocked):
    path = stocked / ".memory" / "criteria" / "no-force-push.md"
    path.write_text(
        "---\nid: no-force-push\ntype: criterion\ntitle: No force push\n"
        "criterion:\n  condition: never force-push shared branches\n"
        "  verdict: block\n  applies_to:\n    keywords: ['/push (--force/']\n"
        "  forbid: ['/--force(/']\n---\nShared history stays.\n"
    )
    code, report = _doctor_json(stocked)
    assert code == 1
    flagged = [p for p in report["problems"] if "no-force-push" in p and "regex" in p]
    assert flagged and str(path) in flagged[0], report["problems"]


def test_bad_config_types_name_file_variable_and_every_key(repo):
    config = repo / ".memory" / "config.toml"
    config.write_text(
        '[loader]\nbudget = "lots"\njournal_days = "two"\n[hooks]\ndeadline_ms = "soon"\n'
    )
    proc = run_cli("list", cwd=repo, env={"LORESTACK_RETRIEVAL__K": "many"}, timeout=60)
    assert proc.returncode != 0
    err = proc.stderr
    assert "Traceback" not in err
    for key in ("loader.budget", "loader.journal_days", "hooks.deadline_ms"):
        assert key in err, (key, err)
    assert str(config) in err
    assert "retrieval.k" in err and "LORESTACK_RETRIEVAL__K" in err
    assert len(err.strip().splitlines()) == 1


def test_prompt_hook_on_a_cold_index_answers_from_the_catalog_and_logs_it(stocked):
    import shutil
    import time

    shutil.rmtree(_index(stocked) / "tantivy")
    payload = {
        "session_id": "cold",
        "cwd": str(stocked),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "remind me about the kafka consumer lag",
    }
    proc = run_cli(
        "hook",
        "prompt",
        "--client",
        "claude-code",
        input=json.dumps(payload),
        cwd=stocked,
        timeout=120,
        env={"LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "120000"},
    )
    assert proc.returncode == 0, proc.stderr
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "kafka consumer lag" in context
    log = (_index(stocked) / "hooks.log").read_text()
    assert "retrieval degraded" in log and "background" in log
    # the background sync brings BM25 back (polled; no timing is asserted)
    for _ in range(240):
        if (_index(stocked) / "tantivy" / "meta.json").is_file():
            break
        time.sleep(0.5)
    assert (_index(stocked) / "tantivy" / "meta.json").is_file()


def test_session_start_on_a_broken_lexical_index_answers_from_the_catalog(stocked):
    import subprocess

    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    for args in (
        ["init", "-q"],
        ["commit", "-q", "--allow-empty", "-m", "Tune the kafka consumer lag alert"],
    ):
        subprocess.run(
            ["git", *args],
            cwd=stocked,
            check=True,
            capture_output=True,
            env={**__import__("os").environ, **env},
        )
    (_index(stocked) / "tantivy" / "meta.json").write_text("{not json at all")
    payload = {
        "session_id": "broken",
        "cwd": str(stocked),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    proc = run_cli(
        "hook",
        "session-start",
        "--client",
        "claude-code",
        input=json.dumps(payload),
        cwd=stocked,
        timeout=120,
        env={"LORESTACK_HOOKS__DEADLINE_MS": "120000"},
    )
    assert proc.returncode == 0, proc.stderr
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "We settled the kafka consumer lag question" in context  # the body: top-k, not catalog
    log = (_index(stocked) / "hooks.log").read_text()
    assert "retrieval degraded" in log
