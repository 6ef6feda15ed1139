"""The commands people reach for: show everything, list superseded, ages, colour, progress."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from datetime import datetime, timedelta, timezone

from click.testing import CliRunner

from lorestack.cli.main import cli

ANSI = "\x1b["


def run(*args, env=None):
    result = CliRunner(env=env).invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_show_prints_criterion_fields_tags_scope_and_links(repo):
    crit = json.loads(
        run(
            "remember",
            "Nothing under infra/ without a review note",
            "--type",
            "criterion",
            "--applies-path",
            "infra/**",
            "--keyword",
            "terraform",
            "--require",
            "review note",
            "--forbid",
            "/rm -rf/",
            "--verdict",
            "block",
            "--rationale",
            "an outage in March",
            "--tags",
            "infra,review",
            "--json",
        ).stdout
    )["item"]
    out = run("show", crit["id"]).output
    for expected in (
        "verdict: block",
        "applies to paths: infra/**",
        "keywords: terraform",
        "require: review note",
        "forbid: /rm -rf/",
        "rationale: an outage in March",
        "tags: infra, review",
        "scope project",
        "source: user",
    ):
        assert expected in out, expected
    assert ANSI not in out  # not a terminal: no colour

    newer = json.loads(
        run(
            "supersede", crit["id"], "Nothing under infra/ without two review notes", "--json"
        ).stdout
    )["item"]
    old = run("show", crit["id"]).output
    assert (
        f"superseded by: {newer['id']}" in old
        and f"archived because: superseded by {newer['id']}" in old
    )
    assert " · superseded · " in old
    assert f"supersedes: {crit['id']}" in run("show", newer["id"]).output


def test_list_status_superseded(repo):
    old = json.loads(run("remember", "We deploy with Capistrano", "--json").stdout)["item"]
    gone = json.loads(run("remember", "Staging is on Heroku", "--json").stdout)["item"]
    run("supersede", old["id"], "We deploy with Kamal")
    run("forget", gone["id"], "--reason", "staging was shut down")
    listed = json.loads(run("list", "--status", "superseded", "--json").stdout)
    assert [i["id"] for i in listed] == [old["id"]]
    table = run("list", "--status", "archived").output
    assert "superseded" in table.split(old["id"])[1].splitlines()[0]
    assert "archived" in table.split(gone["id"])[1].splitlines()[0]


def test_ages_agree_with_their_number():
    from lorestack.cli.render import humanize_age

    now = datetime(2026, 1, 10, tzinfo=timezone.utc)
    assert humanize_age(now - timedelta(seconds=100), now) == "1 minute ago"
    assert humanize_age(now - timedelta(minutes=5), now) == "5 minutes ago"
    assert humanize_age(now - timedelta(hours=1, minutes=40), now) == "1 hour ago"
    assert humanize_age(now - timedelta(days=1, hours=13), now) == "1 day ago"
    assert humanize_age(now - timedelta(days=61), now) == "2 months ago"
    assert humanize_age(now - timedelta(days=800), now) == "2 years ago"


def _on_a_terminal(args, env_extra=None, stdin=None):
    """Run lorestack with stdout and stderr on a pseudo-terminal; return what it printed."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(env_extra or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "lorestack.cli", *args],
        stdout=slave,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_on_a_terminal_never_in_pipes_or_with_no_color(repo):
    run("remember", "Never deploy on Fridays", "--type", "caveat")
    coloured = _on_a_terminal(["list"])
    assert ANSI in coloured and "caveat" in coloured
    assert ANSI not in _on_a_terminal(["list"], {"NO_COLOR": "1"})
    piped = subprocess.run(
        [sys.executable, "-m", "lorestack.cli", "list"], capture_output=True, text=True
    )
    assert piped.returncode == 0 and "caveat" in piped.stdout and ANSI not in piped.stdout


def test_progress_on_a_terminal_silent_when_piped(repo):
    for n in range(3):
        run("remember", f"Service number {n} listens on port 80{n}")
    shown = _on_a_terminal(["reindex"])
    assert "indexing" in shown and "indexed" in shown
    piped = subprocess.run(
        [sys.executable, "-m", "lorestack.cli", "reindex"], capture_output=True, text=True
    )
    assert piped.returncode == 0 and "indexing" not in piped.stderr
    run("log", "We chose Postgres for billing", "--kind", "decision")
    consolidated = run("consolidate", "--no-diff")
    assert "consolidating" not in consolidated.output  # CliRunner's stderr is not a terminal


def test_mcp_reports_its_version_and_plain_argument_errors(repo):
    import anyio
    from mcp import Client

    from lorestack.integrations.mcp_server import build_server, package_version

    async def main():
        async with Client(build_server(str(repo))) as client:
            assert client.server_info.version == package_version() != ""
            bad = await client.call_tool("remember", {"text": "x y z", "type": "note"})
            assert bad.is_error
            text = bad.content[0].text
            assert "rememberArguments" not in text and "errors.pydantic.dev" not in text
            assert "invalid arguments for remember" in text and "`type`" in text
            assert "'fact'" in text  # says what is allowed
            missing = await client.call_tool("forget", {"id": "fact-x"})
            assert "`reason` is required" in missing.content[0].text

    anyio.run(main)


def test_hook_with_an_unknown_client_says_so(repo):
    """A setup mistake: one line naming the known clients, exit 1 (a non-blocking error for
    the clients; never 2, which they read as "block"), nothing on stdout."""
    done = subprocess.run(
        [sys.executable, "-m", "lorestack.cli", "hook", "prompt", "--client", "bogus"],
        input="{}",
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert "unknown client 'bogus'" in done.stderr and "claude-code" in done.stderr


def test_bench_timing_columns_name_their_units():
    from types import SimpleNamespace

    from lorestack.cli.bench_cmds import _render_latency
    from lorestack.cli.bench_render import with_unit as _with_unit

    report = SimpleNamespace(
        rows=[
            {
                "items": 100,
                "session_start_ms_p50": 120.5,
                "reindex_items_per_s": 300.0,
                "reindex_peak_rss_mb": 210.0,
            }
        ],
        embedding=None,
    )
    header = _render_latency(report).splitlines()[1]
    assert "start p50 ms" in header and "reindex items/s" in header and "peak RSS MB" in header
    assert _with_unit("search_ms_p95") == "search p95 (ms)"
    assert _with_unit("ours_items_per_s") == "ours items (per s)"
    assert _with_unit("index_seconds") == "index (s)"
    assert _with_unit("min_cosine") == "min cosine"
