"""Symlinks, loops, FIFOs and huge files planted in `.memory/`: never followed out of the
memory folder, never blocking, never crashing — skipped and named by every command."""

from __future__ import annotations

import json
import os

import pytest

from tests.conftest import run_cli

SECRET = "pgpass-SECRET-7f3a9c"
OUTSIDE_WORD = "zanzibarian"  # only in the files outside the memory folder

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs/symlinks")


@pytest.fixture
def planted(repo, tmp_path):
    """A project whose .memory/ holds every hostile or odd entry the issue names."""
    mem_dir = repo / ".memory"
    outside = tmp_path / "outside"
    outside.mkdir()
    pgpass = outside / "pgpass"
    pgpass.write_text(f"db.internal:5432:*:admin:{SECRET} {OUTSIDE_WORD}\n")
    (outside / "evil.md").write_text(f"# Evil caveat\n{SECRET} {OUTSIDE_WORD}\n")
    # a legitimate item to find next to the mess
    proc = run_cli(
        "remember",
        "Deploys go blue green through the staging cluster",
        "--type",
        "fact",
        "--json",
        cwd=repo,
    )
    assert proc.returncode == 0, proc.stderr
    facts = mem_dir / "facts"
    os.symlink(pgpass, facts / "notes.md")  # absolute link out
    os.symlink("../../../outside/pgpass", facts / "relative.md")  # `..` link out
    os.symlink("loop-b.md", facts / "loop-a.md")  # a loop
    os.symlink("loop-a.md", facts / "loop-b.md")
    os.symlink("missing-target.md", facts / "dangling.md")
    os.mkfifo(facts / "pipe.md")  # blocks a plain open
    (mem_dir / "caveats").rmdir()
    os.symlink(outside, mem_dir / "caveats")  # a folder link out
    os.symlink(pgpass, mem_dir / "journal" / "2024-01-02.md")  # a journal day out
    # a link that stays inside .memory/ is fine
    (mem_dir / "shared").mkdir()
    (mem_dir / "shared" / "inside.md").write_text("# Inside note\nquokka inside-only note\n")
    os.symlink("../shared/inside.md", facts / "inside.md")
    return repo


def _no_leak(proc):
    assert SECRET not in proc.stdout and OUTSIDE_WORD not in proc.stdout, proc.stdout
    assert "Traceback" not in proc.stderr and "bug" not in proc.stderr, proc.stderr


def _names_all(stderr: str):
    for name in ("notes.md", "relative.md", "loop-a.md", "pipe.md"):
        assert name in stderr, (name, stderr)


def test_list_skips_and_names_every_odd_entry(planted):
    proc = run_cli("list", "--json", cwd=planted, timeout=60)
    assert proc.returncode == 0, proc.stderr
    _no_leak(proc)
    _names_all(proc.stderr)
    assert "outside" in proc.stderr and "symlink loop" in proc.stderr
    titles = {it["title"] for it in json.loads(proc.stdout)}
    assert "Inside note" in titles  # a link inside the memory folder is followed
    assert any("blue green" in t for t in titles)
    events = run_cli("list", "--type", "event", cwd=planted, timeout=60)
    assert events.returncode == 0 and "2024-01-02.md" in events.stderr, events.stderr
    _no_leak(events)


def test_show_never_reads_through_a_link_out(planted):
    for item_id in ("notes", "relative", "evil-caveat", "loop-a", "pipe"):
        proc = run_cli("show", item_id, cwd=planted, timeout=60)
        assert proc.returncode != 0, proc.stdout
        _no_leak(proc)


def test_context_and_hooks_never_inject_outside_files(planted):
    proc = run_cli("context", "--query", f"admin password {OUTSIDE_WORD}", cwd=planted, timeout=60)
    assert proc.returncode == 0, proc.stderr
    _no_leak(proc)
    assert "notes.md" in proc.stdout + proc.stderr  # named as skipped
    for event, payload in (
        (
            "session-start",
            {
                "session_id": "s1",
                "cwd": str(planted),
                "hook_event_name": "SessionStart",
                "source": "startup",
            },
        ),
        (
            "prompt",
            {
                "session_id": "s1",
                "cwd": str(planted),
                "hook_event_name": "UserPromptSubmit",
                "prompt": f"what is the admin password {OUTSIDE_WORD}",
            },
        ),
    ):
        proc = run_cli(
            "hook",
            event,
            "--client",
            "claude-code",
            input=json.dumps(payload),
            cwd=planted,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert SECRET not in proc.stdout and OUTSIDE_WORD not in proc.stdout, proc.stdout
        assert SECRET not in proc.stderr
    log = (planted / ".memory" / ".index" / "hooks.log").read_text()
    assert "notes.md" in log and "outside" in log  # the hooks name what they skipped
    assert SECRET not in log


def test_search_reindex_doctor_check_skip_and_report(planted):
    proc = run_cli("search", "blue green staging", "--mode", "bm25", cwd=planted, timeout=120)
    assert proc.returncode == 0, proc.stderr
    _no_leak(proc)
    _names_all(proc.stderr)
    assert "blue green" in proc.stdout
    leak = run_cli("search", OUTSIDE_WORD, "--mode", "bm25", cwd=planted, timeout=60)
    _no_leak(leak)
    assert "no matches" in leak.stderr

    proc = run_cli("reindex", cwd=planted, timeout=300)
    assert proc.returncode == 0, proc.stderr
    _no_leak(proc)
    _names_all(proc.stderr)

    for args in (["doctor"], ["doctor", "--repair"], ["doctor", "--json"]):
        proc = run_cli(*args, cwd=planted, timeout=300)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)  # the bad entries stay
        _no_leak(proc)
        _names_all(proc.stdout)

    proc = run_cli("check", "Let us deploy straight to production", cwd=planted, timeout=120)
    assert proc.returncode in (0, 1, 2), proc.stderr
    _no_leak(proc)


def test_criteria_folder_link_out_is_not_read_by_check(repo, tmp_path):
    outside = tmp_path / "crit"
    outside.mkdir()
    (outside / "fake.md").write_text(
        "---\ntype: criterion\ntitle: Outside rule\ncriterion:\n  condition: x\n"
        "  verdict: block\n  applies:\n    keywords: [deploy]\n---\nfrom outside\n"
    )
    crit = repo / ".memory" / "criteria"
    os.rmdir(crit)
    os.symlink(outside, crit)
    proc = run_cli("check", "deploy now", "--json", cwd=repo, timeout=120)
    assert "Outside rule" not in proc.stdout
    assert "criteria: folder links to" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_log_refuses_to_append_through_a_symlinked_day(repo, tmp_path):
    from datetime import datetime, timezone

    target = tmp_path / "victim.txt"
    target.write_text("keep me\n")
    day = datetime.now(timezone.utc).date().isoformat()
    os.symlink(target, repo / ".memory" / "journal" / f"{day}.md")
    proc = run_cli("log", "a note for today", cwd=repo, timeout=60)
    assert proc.returncode != 0
    assert "not a regular file" in proc.stderr and "Traceback" not in proc.stderr
    assert target.read_text() == "keep me\n"


def test_a_huge_file_is_read_truncated_with_a_warning(repo):
    big = repo / ".memory" / "facts" / "huge-dump.md"
    body = "alphamarker opening line\n" + ("filler words for a pasted log line\n" * 90_000)
    big.write_text(
        "---\nid: huge-dump\ntype: fact\ntitle: Huge dump\n---\n"
        + body
        + "omegamarker at the very end\n"
    )
    assert big.stat().st_size > 3_000_000
    env = {"LORESTACK_LIMITS__MAX_FILE_BYTES": "16384"}
    proc = run_cli("search", "alphamarker", "--mode", "bm25", cwd=repo, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "huge-dump" in proc.stdout
    assert "huge-dump.md" in proc.stderr and "max_file_bytes" in proc.stderr, proc.stderr
    proc = run_cli("search", "omegamarker", "--mode", "bm25", cwd=repo, env=env, timeout=120)
    assert "huge-dump" not in proc.stdout  # beyond the excerpt
    for args in (["list"], ["context", "--query", "alphamarker"]):
        proc = run_cli(*args, cwd=repo, env=env, timeout=120)
        assert "Traceback" not in proc.stderr, proc.stderr
        assert "huge-dump.md" in proc.stdout + proc.stderr, args
    # check reads only the judged folders (criteria, decisions, caveats), not facts/: it must
    # answer without hanging on the huge fact, and a huge criterion is read cut short, named
    proc = run_cli("check", "alphamarker", cwd=repo, env=env, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    rule = repo / ".memory" / "criteria" / "huge-rule.md"
    rule.write_text("---\nid: huge-rule\ntype: criterion\ntitle: No alphamarker\n"
                    "criterion:\n  applies_to:\n    keywords: [alphamarker]\n"
                    "  forbid: [alphamarker]\n---\n" + ("rule text\n" * 20_000))
    proc = run_cli("check", "alphamarker", cwd=repo, env=env, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "huge-rule.md" in proc.stdout + proc.stderr
    # never rewritten through a truncated read
    assert big.read_text().endswith("omegamarker at the very end\n")


def test_safe_reader_unit(tmp_path):
    from lorestack.memory_layers.safefiles import UnsafeEntry, read_memory_file

    root = tmp_path / "root"
    root.mkdir()
    (root / "ok.md").write_text("é" * 10 + "x", encoding="utf-8")
    result = read_memory_file(root / "ok.md", root, max_bytes=5)
    assert result.truncated and result.data.decode("utf-8") == "éé"  # never half a character
    os.mkfifo(root / "p.md")
    with pytest.raises(UnsafeEntry, match="FIFO"):
        read_memory_file(root / "p.md", root)
    os.symlink(tmp_path, root / "up.md")
    with pytest.raises(UnsafeEntry):
        read_memory_file(root / "up.md", root)
    (tmp_path / "x.md").write_text("x")
    with pytest.raises(UnsafeEntry, match="outside"):
        read_memory_file(root / ".." / "x.md", root)  # `..` in a name


def test_a_fifo_config_file_is_an_error_not_a_hang(repo):
    os.mkfifo(repo / ".memory" / "config.toml")
    proc = run_cli("list", cwd=repo, timeout=60)
    assert proc.returncode != 0
    assert "config.toml: not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_mcp_identity_resource_never_reads_through_a_link_out(repo, tmp_path):
    import anyio

    from tests.test_mcp import _client

    secret = tmp_path / "pgpass"
    secret.write_text(f"db:5432:*:admin:{SECRET}\n")
    card = repo / ".memory" / "project.md"
    card.unlink()
    os.symlink(secret, card)

    async def main():
        async with _client(repo) as client:
            try:
                result = await client.read_resource("lorestack://project")
                text = " ".join(getattr(c, "text", "") for c in result.contents)
            except Exception as exc:  # the SDK raises the server's ResourceError
                text = str(exc)
            assert SECRET not in text
            assert "project.md" in text and "outside" in text
            hits = await client.call_tool("recall", {"mode": "context", "budget": 800})
            assert SECRET not in hits.content[0].text

    anyio.run(main)
