"""No file lorestack writes keeps a secret a user typed into an item's id, file name or anchor.

The markdown file stays as the user named it (it is theirs; `doctor` asks them to rename it),
but every derived file (the catalog, tantivy, Chroma, usage, the loader's cache, session
files, secrets.json, lock files, hooks.log) keeps a sealed form of such a name:
`[REDACTED:<kind>]~<hash of the raw name>`, unique and stable, resolvable by `show`, `forget`,
`done` and `supersede`. Measured on the fourteenth session: 20 raw copies before the fix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
from click.testing import CliRunner

from lorestack.cli.main import cli
from tests.conftest import run_cli

GH = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
GH2 = "ghp_zyxwvutsrqponmlkjihgfedcba9876543210"
AK = "AKIAIOSFODNN7EXAMPLE"
HE = "Zq8vT3xR7pL2mN9kW4yB6cJ1hF5gD0sA"
TOKENS = (GH, GH2, AK, HE)


def _write_named_after_keys(repo: Path) -> dict[str, Path]:
    memory = repo / ".memory"
    files = {
        "fact": memory / "facts" / f"zzz-{GH}.md",
        "decision": memory / "decisions" / f"{AK}.md",
        "note": memory / "facts" / f"notes-{HE}.md",
        "broken": memory / "facts" / f"bad-{GH2}.md",
        "todo": memory / "facts" / "todo-by-hand.md",
    }
    files["decision"].parent.mkdir(parents=True, exist_ok=True)
    files["fact"].write_text(
        f"---\nid: fact-{GH}\ntype: fact\ntitle: The deploy token rotates monthly\n"
        f"anchors: [deploy/{AK}.env]\n---\n\nThe deploy token rotates monthly.\n")
    files["decision"].write_text(
        f"---\nid: decision-{AK}\ntype: decision\ntitle: Use the staging bucket in eu-west-1\n"
        "---\n\nWe use the staging bucket in eu-west-1 for deploy previews.\n")
    files["note"].write_text("The build cache lives in /var/cache/build for deploy jobs.\n")
    files["broken"].write_text("---\nid: [broken\ntitle: x\n---\nbroken frontmatter\n")
    return files


def _raw_copies(places: list[Path], own: set[Path]) -> list[str]:
    """Every file (binary included) or file name under `places` holding a raw token, except
    the user's own markdown files."""
    hits = []
    for place in places:
        for path in sorted(place.rglob("*")):
            if path in own or ".git" in path.parts:
                continue
            name_hits = [t for t in TOKENS if t in path.name]
            hits.extend(f"{path} (name)" for _ in name_hits)
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
                hits.extend(f"{path}: {t[:6]}" for t in TOKENS if t.encode() in data)
    return hits


def _hook(event: str, repo: Path, **extra) -> None:
    payload = {"session_id": "s-sealed", "cwd": str(repo), **extra}
    proc = run_cli("hook", event, input=json.dumps(payload), cwd=repo)
    assert proc.returncode == 0, proc.stderr


def _mcp_and_viewer(repo: Path, mem, texts: dict[str, str]) -> list[str]:
    """What the MCP tools and the viewer's pages show with a raw token in it."""
    from mcp import Client
    from starlette.testclient import TestClient

    from lorestack.integrations.mcp_server import build_server
    from lorestack.integrations.viewer import create_app

    shown: list[str] = []

    async def main():
        async with Client(build_server(str(repo))) as client:
            for name, args in (("recall", {"query": "deploy token staging bucket"}),
                               ("list_memories", {})):
                result = await client.call_tool(name, args)
                text = texts[f"mcp {name}"] = result.content[0].text
                shown.extend(f"mcp {name}: {t[:6]}" for t in TOKENS if t in text)
    anyio.run(main)
    viewer = create_app(mem, "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        for page in ("/", "/items", "/search?q=deploy&mode=bm25", "/context?query=deploy",
                     "/anchors"):
            html = texts[f"viewer {page}"] = web.get(page).text
            shown.extend(f"viewer {page}: {t[:6]}" for t in TOKENS if t in html)
        from urllib.parse import quote

        from lorestack.memory_layers.sealed_names import seal

        page = web.get(f"/items/{quote(seal(f'fact-{GH}'), safe='')}")  # its own page, by seal
        assert page.status_code == 200 and "rotates monthly" in page.text, page.text[-300:]
        # the edit form alone holds the file's own text (it is theirs to fix)
        outside = re.sub(r"<textarea.*?</textarea>", "", page.text, flags=re.S)
        shown.extend(f"viewer item page: {t[:6]}" for t in TOKENS if t in outside)
    finally:
        viewer.state.close()
    return shown


def test_no_derived_file_keeps_a_token_from_an_id_name_or_anchor(repo, mem, long_hook_deadlines):
    files = _write_named_after_keys(repo)
    runner = CliRunner()
    for args in (["reindex"], ["search", "deploy", "token"], ["search", "staging", "--json"],
                 ["context"], ["context", "--query", "deploy token"], ["list"],
                 ["list", "--json"], ["anchors"], ["doctor"]):
        result = runner.invoke(cli, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args, result.output)
    _hook("session-start", repo, hook_event_name="SessionStart", source="startup")
    _hook("prompt", repo, hook_event_name="UserPromptSubmit",
          prompt="where is the staging bucket and when does the deploy token rotate?")
    _hook("session-end", repo, hook_event_name="SessionEnd")
    texts: dict[str, str] = {}
    shown = _mcp_and_viewer(repo, mem, texts)
    listed = json.loads(runner.invoke(cli, ["list", "--json"]).stdout)
    rows = listed["items"] if isinstance(listed, dict) else listed
    sealed = next(r["id"] for r in rows if "deploy token" in r["title"])
    shown_by_id = runner.invoke(cli, ["show", sealed])
    # MCP and the viewer name it as `list` does
    for where in ("mcp list_memories", "mcp recall", "viewer /items"):
        assert sealed in texts[where], (where, sealed)
    home = Path(mem.home.root)
    hits = _raw_copies([repo, home.parent], set(files.values()))
    assert hits == [] and shown == [], (
        f"{len(hits)} raw copies in files, {len(shown)} shown:\n" + "\n".join(hits + shown))
    assert shown_by_id.exit_code == 0 and "rotates monthly" in shown_by_id.output, (
        sealed, shown_by_id.output)


def _sealed_ids(runner) -> dict[str, str]:
    listed = json.loads(runner.invoke(cli, ["list", "--json"]).stdout)
    rows = listed["items"] if isinstance(listed, dict) else listed
    return {r["title"]: r["id"] for r in rows}


def test_a_sealed_id_is_found_by_show_forget_and_supersede(repo, mem):
    files = _write_named_after_keys(repo)
    runner = CliRunner()
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    ids = _sealed_ids(runner)
    fact, decision = ids["The deploy token rotates monthly"], ids[
        "Use the staging bucket in eu-west-1"]
    assert fact.startswith("[REDACTED:github token]~") and decision.startswith(
        "[REDACTED:aws access key]~")
    assert fact != ids["The build cache lives in /var/cache/build for deploy jobs."]
    shown = runner.invoke(cli, ["show", fact, "--json"])
    assert shown.exit_code == 0 and "rotates monthly" in shown.output and GH not in shown.output
    before = {p: p.read_bytes() for p in repo.joinpath(".memory").rglob("*.md")}
    printed = []  # what each command answers, text and --json: sealed, as `list` shows it
    replaced = runner.invoke(cli, ["supersede", decision, "We use the staging bucket in eu-central-1",
                                   "--json"])
    assert replaced.exit_code == 0, replaced.output
    printed.append(replaced.output)
    gone = runner.invoke(cli, ["forget", fact, "--reason", "rotated away"])
    assert gone.exit_code == 0, gone.output
    printed.append(gone.output)
    assert "archived " + fact in gone.output
    back = runner.invoke(cli, ["restore", fact, "--json"])
    assert back.exit_code == 0, back.output
    assert json.loads(back.stdout)["item"]["id"] == fact
    printed.append(back.output)
    again = runner.invoke(cli, ["forget", fact, "--reason", "rotated away", "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["id"] == fact, again.output
    printed.append(again.output)
    note = ids["The build cache lives in /var/cache/build for deploy jobs."]

    async def forget_over_mcp():
        from mcp import Client

        from lorestack.integrations.mcp_server import build_server

        async with Client(build_server(str(repo))) as client:
            result = await client.call_tool("forget", {"id": note, "reason": "moved"})
            assert not result.is_error, result.content[0].text
            printed.append(result.content[0].text)
    anyio.run(forget_over_mcp)
    raw_printed = [(t[:6], text) for text in printed for t in TOKENS if t in text]
    assert raw_printed == [], raw_printed
    listed = runner.invoke(cli, ["list"]).output
    assert "rotates monthly" not in listed and "eu-central-1" in listed
    assert "build cache" not in listed
    searched = runner.invoke(cli, ["search", "staging", "bucket", "--json"]).stdout
    assert AK not in searched and GH not in searched
    # the markdown lorestack wrote (the new item's `supersedes`, ...) holds the id sealed; the
    # user's own files aside (moved to archive/ and back under the name they gave them)
    own = {p.name for p in files.values()}
    written = [p for p in repo.joinpath(".memory").rglob("*.md")
               if before.get(p) != p.read_bytes() and p.name not in own]
    assert written  # the new decision, at least
    hits = _raw_copies([repo, Path(mem.home.root).parent], {
        p for p in repo.joinpath(".memory").rglob("*.md") if p not in written})
    assert hits == [], hits  # the lock files are named after the files, sealed too
    new = next(p for p in written if "eu-central-1" in p.name).read_text()
    assert "[REDACTED:aws access key]~" in new and ids["Use the staging bucket in eu-west-1"] in new


def test_an_index_from_before_sealing_is_named_by_doctor_and_cleaned_by_reindex(repo, mem):
    """An index written before names were sealed (its raw ids left in usage, a session file,
    hooks.log and a lock file's name): doctor asks for one reindex, which leaves none."""
    from lorestack.retrieval.usage import UsageStore

    files = _write_named_after_keys(repo)
    runner = CliRunner()
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    index_dir = mem.primary.index_dir
    usage = UsageStore(index_dir / "usage.sqlite")
    usage.record([f"fact-{GH}", f"decision-{AK}"])
    usage.close()
    (index_dir / "sessions").mkdir(exist_ok=True)
    (index_dir / "sessions" / "old.json").write_text(json.dumps({"received": [f"fact-{GH}"]}))
    with (index_dir / "hooks.log").open("a") as log:
        log.write(f"2026-01-01T00:00:00+00:00 prompt: unreadable memory file skipped: "
                  f"{files['broken']}: malformed\n")
    mem.primary.locks_dir.mkdir(parents=True, exist_ok=True)
    (mem.primary.locks_dir / f"file-zzz-{GH}.md.lock").write_text("")
    assert _raw_copies([repo], set(files.values()))  # the old index, as a user has it
    doctor = runner.invoke(cli, ["doctor"])
    told = [line for line in doctor.output.splitlines() if "lorestack reindex" in line]
    assert len(told) == 1 and "written before names were sealed" in told[0], doctor.output
    assert not any(t in doctor.output for t in TOKENS), doctor.output
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    assert _raw_copies([repo], set(files.values())) == []
    assert "written before names were sealed" not in runner.invoke(cli, ["doctor"]).output
    assert _sealed_ids(runner)  # the ids still list (and resolve, above)


LOW = "note-kff3hc2g11h0jdhehjj32f0hhfk1"  # a secret at entropy_threshold 3.0, not at 4.2


def test_a_name_is_sealed_at_the_configured_threshold_and_a_change_rewrites_the_index(repo):
    """Whether a name holds a secret is decided at `guard.entropy_threshold`: the same threshold
    seals it (it was always 4.2, so at 3.0 a flagged name went raw into list, the catalog,
    tantivy and Chroma), and a change of the setting rewrites what the index holds."""
    import sqlite3

    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.secret_spots import shown_name, shown_path

    (repo / ".memory" / "facts" / f"{LOW}.md").parent.mkdir(parents=True, exist_ok=True)
    (repo / ".memory" / "facts" / f"{LOW}.md").write_text(
        f"---\nid: {LOW}\ntype: fact\ntitle: The nightly job runs at two\n---\n\n"
        "The nightly job runs at two.\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["reindex"]).exit_code == 0  # at 4.2 the name is no secret
    assert LOW in _sealed_ids(runner).values()
    config = repo / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[guard]\nentropy_threshold = 3.0\n"
                      if config.exists() else "[guard]\nentropy_threshold = 3.0\n")
    assert Memory.open(repo).settings.guard.entropy_threshold == 3.0
    shown = shown_name(LOW, f"facts/{LOW}.md", 3.0)
    assert LOW not in shown[0] and LOW not in shown[1] and LOW not in shown_path(LOW, 3.0)
    # the next command's sync rewrites the index sealed: no reindex asked for
    found = runner.invoke(cli, ["search", "nightly", "job", "--json"])
    assert found.exit_code == 0 and LOW not in found.stdout and "nightly" in found.stdout
    sealed = _sealed_ids(runner)["The nightly job runs at two"]
    assert sealed.startswith("[REDACTED:") and LOW not in sealed
    shown_item = runner.invoke(cli, ["show", sealed, "--json"])
    assert shown_item.exit_code == 0 and LOW not in shown_item.stdout, shown_item.output
    db = sqlite3.connect(repo / ".memory" / ".index" / "catalog.sqlite")
    rows = db.execute("SELECT id, payload FROM docs").fetchall() + db.execute(
        "SELECT * FROM files").fetchall()
    db.close()
    assert not [r for r in rows if LOW in repr(r)]
    # `remember --supersedes` (the raw id typed) answers with the sealed id and archive path
    for args in (["--json"], []):
        again = runner.invoke(cli, ["remember", "The nightly job runs at three", "--supersedes",
                                    LOW, "--force", *args])
        assert again.exit_code == 0 and "archive" in again.output, again.output
        assert LOW not in again.output, again.output
        back = runner.invoke(cli, ["restore", sealed])
        assert back.exit_code == 0 and LOW not in back.output, back.output
