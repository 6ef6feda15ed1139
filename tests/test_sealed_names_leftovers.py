"""Sealed names, the fifteenth session's leftovers: an archived copy lorestack writes for a file
without frontmatter, journal event ids typed by hand, a seal from before a change of
`guard.entropy_threshold`, and the lock files and loader cache under a lower threshold.

Each test checks what a user meets (the CLI, MCP, the service's JSON call, the files on disk)
for a raw key; every one of them failed before its fix.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import anyio
from click.testing import CliRunner

from lorestack.cli.main import cli
from tests.conftest import run_cli

GH = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
AK = "AKIAIOSFODNN7EXAMPLE"
GH2 = "ghp_zyxwvutsrqponmlkjihgfedcba9876543210"
LOW = "note-kff3hc2g11h0jdhehjj32f0hhfk1"  # a secret at entropy_threshold 3.0, not at 4.2
LOW_TITLE = "kff3hc2g11h0jdhehjj32f0hhfk1"  # the same, in a caveat's title
LOW_BODY = "hh3kdf1gg00jkhdf2jjh3kkf1dd2gh"  # and in its body


def _ids(runner, *args: str) -> dict[str, str]:
    listed = json.loads(runner.invoke(cli, ["list", "--json", *args]).stdout)
    rows = listed["items"] if isinstance(listed, dict) else listed
    return {r["title"]: r["id"] for r in rows}


def _set_threshold(repo: Path, value: float | None) -> None:
    config = repo / ".memory" / "config.toml"
    kept = [line for line in (config.read_text().splitlines() if config.exists() else [])
            if line.strip() not in ("[guard]",) and not line.startswith("entropy_threshold")]
    if value is not None:
        kept += ["[guard]", f"entropy_threshold = {value}"]
    config.write_text("\n".join(kept) + "\n")


def test_archiving_a_file_without_frontmatter_writes_its_id_sealed(repo):
    """The archived copy is written by lorestack: the id it derives from the file's name (a key
    typed into it by hand) goes in sealed, as `list` shows it; restore finds and keeps it."""
    bare = repo / ".memory" / "facts" / f"notes-{GH}.md"
    bare.parent.mkdir(parents=True, exist_ok=True)
    bare.write_text("The build cache lives in /var/cache/build for deploy jobs.\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    sealed = _ids(runner)["The build cache lives in /var/cache/build for deploy jobs."]
    assert sealed.startswith("[REDACTED:github token]~"), sealed
    gone = runner.invoke(cli, ["forget", sealed, "--reason", "moved to the wiki"])
    assert gone.exit_code == 0 and GH not in gone.output, gone.output
    archived = next((repo / ".memory" / "archive").rglob("*.md"))
    text = archived.read_text()
    assert GH not in text and f"id: '{sealed}'" in text, text[:400]
    back = runner.invoke(cli, ["restore", sealed, "--json"])
    assert back.exit_code == 0 and GH not in back.output, back.output
    restored = next(p for p in (repo / ".memory" / "facts").glob("*.md"))
    assert GH not in restored.read_text() and sealed in restored.read_text()
    assert _ids(runner)["The build cache lives in /var/cache/build for deploy jobs."] == sealed


def _journal_with_hand_ids(repo: Path, runner) -> Path:
    logged = runner.invoke(cli, ["log", "--kind", "todo", "rotate the deploy token"])
    noted = runner.invoke(cli, ["log", "the staging bucket moved to eu-central-1"])
    day = next((repo / ".memory" / "journal").glob("*.md"))
    text = day.read_text().replace(logged.output.split()[-1], f"todo-{GH}")
    day.write_text(text.replace(noted.output.split()[-1], f"note-{AK}"))
    return day


def test_event_ids_typed_by_hand_are_sealed_in_every_answer(repo):
    """`done`, `show`, `forget` (text and --json), MCP and the service's JSON call answer with
    the sealed id, find the event from it, and what `done` appends to the journal names it
    sealed (the todo then leaves the open list). Before: the sealed id found nothing, and the
    raw one was echoed (`show`) or refused as a secret in the tags (`done`)."""
    from lorestack import app
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.loader import open_todos

    runner = CliRunner()
    day = _journal_with_hand_ids(repo, runner)
    ids = _ids(runner, "--type", "event")
    todo, note = ids["rotate the deploy token"], ids["the staging bucket moved to eu-central-1"]
    assert todo.startswith("[REDACTED:github token]~") and note.startswith("[REDACTED:aws")
    printed = []
    for args in (["show", todo], ["show", todo, "--json"], ["show", f"todo-{GH}", "--json"],
                 ["show", note]):
        shown = runner.invoke(cli, args)
        assert shown.exit_code == 0 and "rotate the deploy token" in shown.output or (
            "staging bucket" in shown.output), (args, shown.output)
        printed.append(shown.output)
    closed = runner.invoke(cli, ["done", todo, "rotated on Monday", "--json"])
    assert closed.exit_code == 0, closed.output
    printed.append(closed.output)
    assert f"closes:{todo}" in json.loads(closed.stdout)["tags"]
    again = runner.invoke(cli, ["done", f"todo-{GH}"])  # the raw id, typed: told sealed
    assert again.exit_code != 0 and "closed already" in again.output, again.output
    printed.append(again.output)
    not_todo = runner.invoke(cli, ["done", note])
    assert not_todo.exit_code != 0 and "not a todo" in not_todo.output, not_todo.output
    printed.append(not_todo.output)
    # a todo with a key typed into its words by hand closes too (its "Done: …" redacted)
    logged = runner.invoke(cli, ["log", "--kind", "todo", "renew the staging key"])
    day.write_text(day.read_text().replace("renew the staging key", f"renew the staging key {GH2}"))
    renewed = runner.invoke(cli, ["done", logged.output.split()[-1]])
    assert renewed.exit_code == 0 and GH2 not in renewed.output, renewed.output
    assert day.read_text().count(GH2) == 1  # the user's own entry only
    mem = Memory.open(repo)
    assert [e.text for e in open_todos(mem)] == []
    # the session's context and what the prompt hook keeps of it (sessions/*.json) name the
    # events sealed too (before: the raw id in the context's todo line, at 4.2 only redacted)
    told = runner.invoke(cli, ["context", "--query", "staging bucket"]).output
    assert "staging bucket" in told, told
    printed.append(told)
    hooked = run_cli("hook", "prompt", cwd=repo, input=json.dumps({
        "session_id": "s-events", "cwd": str(repo), "hook_event_name": "UserPromptSubmit",
        "prompt": "where did the staging bucket move?"}))
    assert hooked.returncode == 0, hooked.stderr
    printed.append(hooked.stdout)
    kept = [p.read_text() for p in (repo / ".memory" / ".index").rglob("*.json")]
    assert kept and not [k for k in kept if GH in k or AK in k]
    written = day.read_text().split(f"<!-- /lorestack:event note-{AK} -->", 1)[1]
    assert "Done: rotate the deploy token" in written and GH not in written, written
    # the service's path (JSON in, JSON out) and MCP forget answer sealed too
    served = app.call("show", {"id": f"todo-{GH}"})
    assert served["item"]["id"] == todo and f"closes:{todo}" not in json.dumps(served), served
    printed.append(json.dumps(served))

    async def forget_over_mcp():
        from mcp import Client

        from lorestack.integrations.mcp_server import build_server

        async with Client(build_server(str(repo))) as client:
            result = await client.call_tool("forget", {"id": f"note-{AK}", "reason": "moved"})
            printed.append(result.content[0].text)
    anyio.run(forget_over_mcp)
    answer = json.loads(printed[-1])  # MCP forget worked and names the event sealed
    assert answer["id"] == note and answer["archived_to"], answer
    gone = runner.invoke(cli, ["forget", note, "--reason", "moved", "--json"])
    printed.append(gone.output)  # archived already: the error names it sealed
    raw = [(key[:6], text) for text in printed for key in (GH, AK) if key in text]
    assert raw == [], raw


def test_a_seal_from_before_a_threshold_change_still_resolves(repo):
    """An id sealed at entropy_threshold 3.0 (and printed, pasted, kept in a note) is found by
    `show` and `forget` after the setting goes back to 4.2: matched by its hash."""
    path = repo / ".memory" / "facts" / f"{LOW}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nid: {LOW}\ntype: fact\ntitle: The nightly job runs at two\n---\n\n"
                    "The nightly job runs at two.\n")
    runner = CliRunner()
    _set_threshold(repo, 3.0)
    old_seal = _ids(runner)["The nightly job runs at two"]
    assert old_seal.startswith("[REDACTED:") and LOW not in old_seal
    _set_threshold(repo, None)
    assert _ids(runner)["The nightly job runs at two"] == LOW  # no secret at 4.2: shown as is
    shown = runner.invoke(cli, ["show", old_seal, "--json"])
    assert shown.exit_code == 0 and "runs at two" in shown.output, shown.output
    gone = runner.invoke(cli, ["forget", old_seal, "--reason", "moved"])
    assert gone.exit_code == 0 and "archive" in gone.output, gone.output
    back = runner.invoke(cli, ["restore", old_seal])
    assert back.exit_code == 0, back.output


def _index_hits(memory: Path, keys: tuple[str, ...]) -> list[str]:
    """Every file under .index (binary ones too) whose name or bytes hold one of `keys`."""
    hits = []
    for path in sorted((memory / ".index").rglob("*")):
        hits += [f"{path.name} (name)" for k in keys if k in path.name]
        if path.is_file():
            data = path.read_bytes()
            hits += [f"{path.relative_to(memory)}: {k[:6]}" for k in keys if k.encode() in data]
    return hits


def test_lock_names_follow_a_lower_threshold(repo):
    """At entropy_threshold 3.0, a file named after a key that threshold flags never names a
    lock file raw. Locks are named at a fixed threshold every process agrees on: the lowest,
    so nothing any setting flags stays raw. Before: `file-note-kff3….md.lock`."""
    memory = repo / ".memory"
    (memory / "facts").mkdir(parents=True, exist_ok=True)
    (memory / "facts" / f"{LOW}.md").write_text(
        "---\nid: fact-nightly\ntype: fact\ntitle: The nightly job runs at two\n---\n\n"
        "The nightly job runs at two.\n")
    _set_threshold(repo, 3.0)
    runner = CliRunner()
    for args in (["reindex"], ["forget", "fact-nightly", "--reason", "moved"],
                 ["restore", "fact-nightly"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0 and LOW not in result.output, (args, result.output)
    assert list((memory / ".index" / "locks").glob("file-*.lock"))  # the file's lock was taken
    assert _index_hits(memory, (LOW,)) == []


def test_the_loader_and_its_cache_redact_at_the_configured_threshold(repo):
    """At entropy_threshold 3.0, a key typed by hand into a caveat's title and body (resident:
    cached whole), a fact found for the query, and a journal event reach neither the session
    (`context`, the prompt hook's context) nor the loader's cache. Before: the render redacted
    at a fixed 4.2, so they were shown raw and cached raw (catalog-project.tsv, the manifest,
    resident-project.json)."""
    memory = repo / ".memory"
    for folder in ("facts", "caveats"):
        (memory / folder).mkdir(parents=True, exist_ok=True)
    (memory / "caveats" / "rotate.md").write_text(
        f"---\nid: caveat-rotate\ntype: caveat\ntitle: Never reuse {LOW_TITLE}\n---\n\n"
        f"Never reuse the old deploy key {LOW_BODY} after a rotation.\n")
    (memory / "facts" / "staging.md").write_text(
        "---\nid: fact-staging\ntype: fact\ntitle: The staging deploy key\n---\n\n"
        f"The staging deploy key is {LOW_BODY} until the rotation.\n")
    _set_threshold(repo, 3.0)
    runner = CliRunner()
    logged = runner.invoke(cli, ["log", "--kind", "todo", "rotate the staging deploy key"])
    assert logged.exit_code == 0, logged.output
    day = next((memory / "journal").glob("*.md"))  # the key typed into the entry by hand
    day.write_text(day.read_text().replace("rotate the staging deploy key",
                                           f"rotate the staging deploy key {LOW_TITLE}"))
    keys = (LOW_TITLE, LOW_BODY)
    for args in (["reindex"], ["context"], ["context", "--query", "staging deploy key"],
                 ["search", "staging", "deploy", "key", "--json"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (args, result.output)
        assert not any(k in result.output for k in keys), (args, result.output)
    told = runner.invoke(cli, ["context", "--query", "staging deploy key"]).output
    assert "Never reuse" in told and "staging deploy key" in told, told
    assert list((memory / ".index" / "loader").glob("*")), "the loader's cache was written"
    assert _index_hits(memory, keys) == []


def test_the_viewer_names_a_file_it_refused_to_archive_sealed(repo, mem):
    """The viewer's archive of a file named after a key, refused because the file changed since
    the page was shown, names the file sealed, as its pages do. Before: the raw path."""
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.sealed_names import seal

    bare = repo / ".memory" / "facts" / f"notes-{GH}.md"
    bare.parent.mkdir(parents=True, exist_ok=True)
    bare.write_text("The build cache lives in /var/cache/build for deploy jobs.\n")
    viewer = create_app(mem, "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        page = web.post(f"/items/{quote(seal(f'notes-{GH}'), safe='')}/archive",
                        data={"_token": "tok-1", "reason": "gone", "checksum": "stale"})
        assert page.status_code == 409 and "changed on disk" in page.text, page.status_code
        outside = re.sub(r"<textarea.*?</textarea>", "", page.text, flags=re.S)
        assert GH not in outside, outside[-600:]
    finally:
        viewer.state.close()


def test_the_viewer_opens_a_seal_from_before_a_threshold_change(repo):
    """The viewer's item page, addressed by a seal printed under entropy_threshold 3.0 (a link
    kept from then), opens the item after the setting went back to 4.2, as `show` does: the
    address is resolved by Memory.get and sent on to the page's own. Before: 404."""
    from urllib.parse import quote, unquote

    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.sealed_names import seal

    path = repo / ".memory" / "facts" / f"{LOW}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nid: {LOW}\ntype: fact\ntitle: The nightly job runs at two\n---\n\n"
                    "The nightly job runs at two.\n")
    old_seal = seal(LOW, 3.0)
    assert old_seal.startswith("[REDACTED:") and LOW not in old_seal
    viewer = create_app(Memory.open(repo), "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        moved = web.get(f"/items/{quote(old_seal, safe='')}")
        assert moved.status_code == 303, (moved.status_code, moved.text[-300:])
        assert unquote(moved.headers["location"]).endswith(f"/items/{LOW}")
        page = web.get(moved.headers["location"])
        assert page.status_code == 200 and "The nightly job runs at two" in page.text
        archived = web.post(f"/items/{quote(old_seal, safe='')}/archive",
                            data={"_token": "tok-1", "reason": "moved", "checksum": "stale"})
        assert archived.status_code == 409 and "changed on disk" in archived.text
        missing = web.get(f"/items/{quote(seal('fact-' + GH), safe='')}")
        assert missing.status_code == 404 and GH not in missing.text
    finally:
        viewer.state.close()


def test_the_file_anchored_block_names_ids_and_files_sealed(repo, long_hook_deadlines):
    """`context --about FILE --json` lists the ids it showed and left out, and the pre-tool hook
    records in sessions/*.json the files it told about: an id typed around a key and a file
    named after one are sealed there, as in the block's text. Before: both raw."""
    (repo / "deploy").mkdir()
    (repo / "deploy" / f"{AK}.env").write_text("REGION=eu-west-1\n")
    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    for n in (1, 2):
        (facts / f"anchored-{n}.md").write_text(
            f"---\nid: fact-{GH}-{n}\ntype: fact\ntitle: Deploy env note {n}\n"
            f"anchors: [deploy/{AK}.env]\n---\n\nThe deploy env file {n} sets the region.\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    for budget in ("600", "100"):  # all shown; one left out
        told = runner.invoke(cli, ["context", "--about", f"deploy/{AK}.env", "--json",
                                   "--budget", budget])
        assert told.exit_code == 0, told.output
        answer = json.loads(told.stdout)
        assert answer["ids"] and GH not in told.stdout and AK not in told.stdout, told.stdout
    assert answer["left_out"], answer
    payload = {"session_id": "s-about", "cwd": str(repo), "hook_event_name": "PreToolUse",
               "tool_name": "Read", "tool_input": {"file_path": str(repo / "deploy" / f"{AK}.env")}}
    for _ in (1, 2):  # told once: the second call finds the file recorded (sealed)
        proc = run_cli("hook", "pre-tool", input=json.dumps(payload), cwd=repo)
        assert proc.returncode == 0 and GH not in proc.stdout and AK not in proc.stdout, proc
    sessions = list((repo / ".memory" / ".index" / "sessions").glob("*.json"))
    assert sessions and all(AK not in p.read_text() and GH not in p.read_text()
                            for p in sessions), [p.read_text() for p in sessions]
    assert "Deploy env note" not in proc.stdout, proc.stdout


def test_import_memory_writes_an_item_named_after_a_key_sealed(repo, tmp_path):
    """An export of a memory holding a file named after a key (kept as the user named it)
    imports into another project: the item's id, its file name and the link to it are written
    sealed, `show` finds it by the seal, and importing again writes nothing (no second copy).
    Before: the whole import was refused ('rename it in the export file')."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.sealed_names import seal

    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    (facts / f"zzz-{GH}.md").write_text(
        f"---\nid: fact-{GH}\ntype: fact\ntitle: The deploy token rotates monthly\n---\n\n"
        "The deploy token rotates monthly.\n")
    (facts / "newer.md").write_text(
        f"---\nid: fact-newer\ntype: fact\ntitle: The deploy token rotates weekly\n"
        f"supersedes: [fact-{GH}]\n---\n\nThe deploy token rotates weekly.\n")
    runner = CliRunner()
    dump = runner.invoke(cli, ["export"])
    assert dump.exit_code == 0 and GH not in dump.stdout  # names sealed, as `list` shows them
    (tmp_path / "dump.jsonl").write_text(dump.stdout)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    args = ["--root", str(other), "import-memory", str(tmp_path / "dump.jsonl"), "--json"]
    done = runner.invoke(cli, args)
    assert done.exit_code == 0 and GH not in done.output, done.output
    memory = other / ".memory"
    # every file, the index's too (Chroma's HNSW files are cleared past their live elements)
    leaks = [str(p) for p in memory.rglob("*")
             if GH in p.name or (p.is_file() and GH.encode() in p.read_bytes())]
    assert leaks == [], leaks
    sealed = seal(f"fact-{GH}")
    written = [p for p in (memory / "facts").glob("*.md")]
    assert len(written) == 2, written
    assert any(f"id: '{sealed}'" in p.read_text() for p in written), [p.name for p in written]
    assert any(sealed in p.read_text() and "supersedes" in p.read_text() and "newer" in p.name
               for p in written)
    shown = runner.invoke(cli, ["--root", str(other), "show", sealed, "--json"])
    assert shown.exit_code == 0 and "rotates monthly" in shown.output, shown.output
    again = json.loads(runner.invoke(cli, args).stdout)
    assert again["written"] == [] and again["conflicts"] == ["project.md"], again  # init's card
    assert len(list((memory / "facts").glob("*.md"))) == 2
    home = runner.invoke(cli, ["import-memory", str(tmp_path / "dump.jsonl"), "--json"])
    assert home.exit_code == 0 and json.loads(home.stdout)["written"] == [], home.output
    assert len(list(facts.glob("*.md"))) == 2  # back into its own memory: no sealed twin


def test_the_viewer_names_hand_typed_event_ids_sealed(repo):
    """The viewer's journal and search pages linked and named journal events whose ids were
    typed around a key by their raw ids; now sealed, as `show` prints them, the event page opens from the seal,
    and an address with any other name `show` takes is sent on to it. Before: the raw keys on
    the journal page, and 404 for the sealed id."""
    from urllib.parse import quote, unquote

    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.sealed_names import seal

    _journal_with_hand_ids(repo, CliRunner())
    viewer = create_app(Memory.open(repo), "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        for address in ("/journal", "/search?q=rotate+the+deploy+token"):
            page = web.get(address)
            assert page.status_code == 200 and "rotate the deploy token" in page.text, address
            assert GH not in page.text and AK not in page.text, address
        sealed = seal(f"todo-{GH}")
        page = web.get(f"/items/{quote(sealed, safe='')}")
        assert page.status_code == 200 and "rotate the deploy token" in page.text
        assert GH not in page.text
        moved = web.get(f"/items/{quote(f'note-{AK}', safe='')}")
        assert moved.status_code == 303, moved.status_code
        assert unquote(moved.headers["location"]).endswith(f"/items/{seal(f'note-{AK}')}")
    finally:
        viewer.state.close()


def test_import_memory_seals_hand_typed_event_ids(repo, tmp_path):
    """A journal day whose event ids were typed around a key imports with those ids sealed (as
    `show` prints them, so the seal finds the event there), not cut to a bare `[REDACTED:…]`
    that names nothing and makes two such events one id. Before: `show <seal>` found nothing."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.sealed_names import seal

    runner = CliRunner()
    _journal_with_hand_ids(repo, runner)
    dump = runner.invoke(cli, ["export"])
    assert dump.exit_code == 0
    (tmp_path / "dump.jsonl").write_text(dump.stdout)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    args = ["--root", str(other), "import-memory", str(tmp_path / "dump.jsonl")]
    done = runner.invoke(cli, args)
    assert done.exit_code == 0 and GH not in done.output, done.output
    day = next((other / ".memory" / "journal").glob("*.md")).read_text()
    assert GH not in day and AK not in day and seal(f"todo-{GH}") in day, day
    shown = runner.invoke(cli, ["--root", str(other), "show", seal(f"todo-{GH}"), "--json"])
    assert shown.exit_code == 0 and "rotate the deploy token" in shown.output, shown.output
    assert "wrote 0 file(s)" in runner.invoke(cli, args).output


def test_import_memory_keeps_a_todo_closed_on_a_later_day_closed(repo, tmp_path):
    """A todo typed around a key and closed by a `closes:` tag on a later day stays closed
    through export and import-memory: the later day's tag is sealed like the id it names.
    Before: that tag became a bare `[REDACTED:…]` and the todo came back as open."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.loader import open_todos

    runner = CliRunner()
    day = _journal_with_hand_ids(repo, runner)
    nxt = datetime.now(timezone.utc) + timedelta(days=1)
    stamp, name = nxt.strftime("%Y-%m-%dT09:00:00Z"), nxt.strftime("%Y-%m-%d")
    later = day.with_name(f"{name}.md")  # the day after the todo's
    later.write_text(
        f"# Journal {name}\n\n## 09:00 · progress · ev-closer01\n"
        f'<!-- lorestack:event {{"schema": 1, "id": "ev-closer01", "time": "{stamp}", '
        f'"kind": "progress", "tags": ["closes:todo-{GH}"], "source": "user"}} -->\n'
        "rotated the deploy token\n<!-- /lorestack:event ev-closer01 -->\n"
    )
    now = nxt.replace(hour=15, minute=0, second=0, microsecond=0)  # the closer's day, after 09:00
    assert len(open_todos(Memory.open(repo), nxt - timedelta(days=1))) == 1  # open before
    assert open_todos(Memory.open(repo), now) == []
    dump = runner.invoke(cli, ["export"])
    assert dump.exit_code == 0, dump.output
    (tmp_path / "dump.jsonl").write_text(dump.stdout)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    done = runner.invoke(cli, ["--root", str(other), "import-memory", str(tmp_path / "dump.jsonl")])
    assert done.exit_code == 0, done.output
    texts = "".join(p.read_text() for p in (other / ".memory" / "journal").glob("*.md"))
    assert GH not in texts
    assert open_todos(Memory.open(other), now) == []


def test_hand_typed_event_ids_are_indexed_sealed(repo):
    """The catalog (docs.id, docs.payload, files.docs) and tantivy hold an event id typed around a
    key sealed, as every answer shows it; search, list, show and done still find the event.
    Before: the raw id in catalog.sqlite and the tantivy store. Every index file is scanned,
    Chroma's too (its HNSW files are cleared past their live elements)."""
    runner = CliRunner()
    logged = runner.invoke(cli, ["log", "--kind", "todo", "rotate the deploy token"])
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_text(day.read_text().replace(logged.output.split()[-1], f"todo-{GH}"))
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    index = repo / ".memory" / ".index"
    derived = [p for p in index.rglob("*") if p.is_file() and GH.encode() in p.read_bytes()]
    assert derived == [], derived
    sealed = _ids(runner, "--type", "event")["rotate the deploy token"]
    assert sealed.startswith("[REDACTED:github token]~"), sealed
    found = json.loads(runner.invoke(cli, ["search", "deploy token", "--json"]).stdout)
    assert sealed in json.dumps(found) and GH not in json.dumps(found), found
    shown = runner.invoke(cli, ["show", sealed, "--json"])
    assert shown.exit_code == 0 and "rotate the deploy token" in shown.output, shown.output
    closed = runner.invoke(cli, ["done", sealed, "rotated"])
    assert closed.exit_code == 0 and GH not in closed.output, closed.output


def test_an_index_from_before_event_ids_were_sealed_is_named_by_doctor(repo, mem):
    """An index written before event ids were sealed (the raw id left in usage and a session
    file): doctor asks for one reindex, which leaves none. Before: doctor found nothing, as it
    looked for keys in item ids and file names only, and the reindex kept the raw usage row."""
    from lorestack.retrieval.usage import UsageStore

    runner = CliRunner()
    logged = runner.invoke(cli, ["log", "--kind", "todo", "rotate the deploy token"])
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_text(day.read_text().replace(logged.output.split()[-1], f"todo-{GH}"))
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    index_dir = mem.primary.index_dir
    usage = UsageStore(index_dir / "usage.sqlite")
    usage.record([f"todo-{GH}"])
    usage.close()
    (index_dir / "sessions").mkdir(exist_ok=True)
    (index_dir / "sessions" / "old.json").write_text(json.dumps({"received": [f"todo-{GH}"]}))
    assert _index_hits(repo / ".memory", (GH,))  # the old index, as a user has it
    doctor = runner.invoke(cli, ["doctor"])
    told = [line for line in doctor.output.splitlines() if "lorestack reindex" in line]
    assert len(told) == 1 and "written before names were sealed" in told[0], doctor.output
    assert GH not in doctor.output, doctor.output
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    assert _index_hits(repo / ".memory", (GH,)) == []
    assert "written before names were sealed" not in runner.invoke(cli, ["doctor"]).output
