"""Sealed names, the sixteenth session: what was still written or shown raw.

`forget` of a journal event whose id was typed around a key, the viewer's event page (its
session and source) and its "cited by" list, `import-memory --replace` of a file named after a
key, and an import path whose folder is named after a key. Each test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.sealed_names import seal

GH = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
AK = "AKIAIOSFODNN7EXAMPLE"


def _hand_typed_event(repo: Path, runner, text: str, new_id: str, kind: str = "note") -> Path:
    logged = runner.invoke(cli, ["log", "--kind", kind, text])
    assert logged.exit_code == 0, logged.output
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_text(day.read_text().replace(logged.output.split()[-1], new_id))
    return day


def test_forget_archives_a_hand_typed_event_id_sealed(repo):
    """The archived copy names the event sealed, as every answer does; its closes: tag too.
    Before: archive/events/<day>.md held `note-AKIA…` raw (heading and both markers)."""
    runner = CliRunner()
    _hand_typed_event(repo, runner, "rotate the deploy token", f"todo-{GH}", kind="todo")
    day = _hand_typed_event(repo, runner, "the staging bucket moved", f"note-{AK}")
    # a later note that names the todo by its raw id in a tag, typed by hand too
    lines = day.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if f'"id": "note-{AK}"' in line)
    lines[at] = lines[at].replace('"tags": []', f'"tags": ["closes:todo-{GH}"]')
    day.write_text("\n".join(lines))
    for sealed in (seal(f"note-{AK}"), seal(f"todo-{GH}")):
        gone = runner.invoke(cli, ["forget", sealed, "--reason", "moved", "--json"])
        assert gone.exit_code == 0, gone.output
    archive = next((repo / ".memory" / "archive" / "events").glob("*.md"))
    archived = archive.read_text()
    assert AK not in archived and GH not in archived, archived
    assert seal(f"note-{AK}") in archived and seal(f"todo-{GH}") in archived
    assert "the staging bucket moved" in archived and "rotate the deploy token" in archived
    again = runner.invoke(cli, ["forget", seal(f"note-{AK}"), "--reason", "moved"])
    assert again.exit_code != 0 and AK not in again.output, again.output


def test_the_viewer_event_item_and_review_pages_hold_no_raw_key(repo):
    """An event whose id, session and source were typed around keys, cited by an active item
    and by a pending claim: the event page redacts its session and source and lists the item
    under "Items consolidated from it"; the item and review pages link the event sealed and
    find it in the journal. Before: the session and source raw on the event page, "none yet"
    (a sealed id looked up among raw ones), and the cited event shown raw as "archived"."""
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory

    runner = CliRunner()
    day = _hand_typed_event(repo, runner, "the staging bucket moved", f"note-{AK}")
    day.write_text(day.read_text().replace(
        '"source": "user"', f'"source": "relay {GH}", "session": "sess-{GH}"', 1))
    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    for name, status in (("bucket", "active"), ("claim", "pending")):
        (facts / f"{name}.md").write_text(
            f"---\nid: fact-{name}\ntype: fact\ntitle: The staging bucket is in eu-central-1 "
            f"({name})\nstatus: {status}\nsource:\n  kind: consolidation\n  session: sess-{GH}\n"
            f"  events: [note-{AK}]\n---\n\nThe staging bucket is in eu-central-1.\n")
    sealed = seal(f"note-{AK}")
    viewer = create_app(Memory.open(repo), "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        event = web.get(f"/items/{quote(sealed, safe='')}")
        assert event.status_code == 200 and "the staging bucket moved" in event.text
        assert GH not in event.text and AK not in event.text, event.text[-1500:]
        assert "/items/fact-bucket" in event.text, event.text[-800:]  # cited by
        item = web.get("/items/fact-bucket")
        assert item.status_code == 200 and GH not in item.text and AK not in item.text
        assert "the staging bucket moved" in item.text and quote(sealed, safe="") in item.text
        review = web.get("/review")
        assert review.status_code == 200 and "(claim)" in review.text, review.text[-800:]
        assert GH not in review.text and AK not in review.text
        assert "the staging bucket moved" in review.text
    finally:
        viewer.state.close()


def test_import_memory_replace_rewrites_a_file_named_after_a_key(repo, tmp_path):
    """`import-memory --replace` of an export holding a file named after a key, into the memory
    where the user's own file of that name now differs: the file (kept where and as the user
    named it) gets the export's content, written as any import writes an item named after a key
    (its id sealed); no sealed twin appears; a second --replace finds nothing to write.
    Before: reported as a conflict, --replace or not, and nothing written."""
    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    mine = facts / f"zzz-{GH}.md"
    mine.write_text(f"---\nid: fact-{GH}\ntype: fact\ntitle: The deploy token rotates monthly\n"
                    "---\n\nThe deploy token rotates monthly.\n")
    runner = CliRunner()
    dump = runner.invoke(cli, ["export"])
    assert dump.exit_code == 0
    (tmp_path / "dump.jsonl").write_text(dump.stdout)
    mine.write_text(mine.read_text().replace("monthly.\n", "weekly, says Ana.\n"))
    args = ["import-memory", str(tmp_path / "dump.jsonl"), "--json"]
    kept = json.loads(runner.invoke(cli, args).stdout)
    assert kept["written"] == [] and len(kept["conflicts"]) == 1, kept
    assert GH not in json.dumps(kept)
    replaced = runner.invoke(cli, [*args, "--replace"])
    assert replaced.exit_code == 0 and GH not in replaced.output, replaced.output
    assert json.loads(replaced.stdout)["conflicts"] == [], replaced.output
    assert list(facts.glob("*.md")) == [mine]  # no sealed twin beside it
    text = mine.read_text()
    assert "rotates monthly." in text and "says Ana" not in text, text
    assert GH not in text and f"id: '{seal(f'fact-{GH}')}'" in text, text
    again = json.loads(runner.invoke(cli, [*args, "--replace"]).stdout)
    assert again["written"] == [] and again["conflicts"] == [], again
    shown = runner.invoke(cli, ["show", seal(f"fact-{GH}")])
    assert shown.exit_code == 0 and "rotates monthly" in shown.output, shown.output


def test_import_memory_writes_a_folder_named_after_a_key_sealed(repo, tmp_path):
    """An export whose paths hold a key in a folder name (an archived item's, a note file's) or
    in a plain file's name imports: each such name is written as a file name holding a key is
    (its redacted name and the raw name's hash), with the same content, and a second import
    writes nothing. Before: the whole import was refused ('a folder in its path
    looks like a secret'), and a plain file named after a key was written under the raw name."""
    from lorestack.memory_layers.memory import Memory

    memory = repo / ".memory"
    old = memory / "archive" / f"old-{GH}" / "facts" / "bucket.md"
    old.parent.mkdir(parents=True)
    old.write_text("---\nid: fact-bucket\ntype: fact\ntitle: The bucket was in eu-west-1\n"
                   "status: archived\n---\n\nThe bucket was in eu-west-1.\n")
    (memory / "attachments" / AK).mkdir(parents=True)
    (memory / "attachments" / AK / "notes.txt").write_text("where the build cache lives\n")
    (memory / "attachments" / f"{AK}.txt").write_text("the old deploy notes\n")
    runner = CliRunner()
    dump = runner.invoke(cli, ["export"])
    assert dump.exit_code == 0 and GH not in dump.stdout and AK not in dump.stdout
    (tmp_path / "dump.jsonl").write_text(dump.stdout)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    args = ["--root", str(other), "import-memory", str(tmp_path / "dump.jsonl"), "--json"]
    done = runner.invoke(cli, args)
    assert done.exit_code == 0 and GH not in done.output and AK not in done.output, done.output
    written = json.loads(done.stdout)["written"]
    assert len(written) == 3, written
    paths = [p.relative_to(other / ".memory").as_posix() for p in (other / ".memory").rglob("*")]
    assert [p for p in paths if GH in p or AK in p] == [], paths
    assert any(p.startswith("archive/redacted-github-token-") and p.endswith("/facts/bucket.md")
               for p in paths), paths
    assert sum("attachments/redacted-aws-access-key-" in p for p in paths) == 3, paths
    again = json.loads(runner.invoke(cli, args).stdout)
    assert again["written"] == [] and again["conflicts"] == ["project.md"], again
    bucket = next((other / ".memory" / "archive").rglob("bucket.md"))
    assert bucket.read_text() == old.read_text()  # nothing else in it changed
    home = json.loads(runner.invoke(cli, ["import-memory", str(tmp_path / "dump.jsonl"),
                                          "--json"]).stdout)
    assert home["written"] == [] and home["conflicts"] == [], home  # its own: left alone


def test_an_event_session_and_speaker_typed_around_a_key_are_indexed_sealed(repo):
    """An event whose session and speaker were typed around keys by hand: every index file
    (catalog, tantivy, Chroma) holds them sealed, two such sessions stay apart, and search
    finds the event. Before: the raw keys in catalog.sqlite and chroma.sqlite3."""
    runner = CliRunner()
    day = _hand_typed_event(repo, runner, "the staging bucket moved", f"note-{AK}")
    runner.invoke(cli, ["log", "the deploy token rotates monthly"])
    text = day.read_text().replace(
        '"source": "user"', f'"source": "user", "session": "sess-{GH}", "speaker": "bob {AK}"', 1)
    day.write_text(text.replace('"source": "user"}', f'"source": "user", "session": "s-{AK}"}}'))
    assert day.read_text().count('"session"') == 2
    assert runner.invoke(cli, ["reindex"]).exit_code == 0
    index = repo / ".memory" / ".index"
    held = [str(p.relative_to(index)) for p in index.rglob("*") if p.is_file() and (
        GH.encode() in p.read_bytes() or AK.encode() in p.read_bytes())]
    assert held == [], held
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    mem = Memory.open(repo)
    catalog = MemoryIndex(mem)
    try:
        sessions = {d.session for d in catalog.catalog.get_docs(
            [h.id for h in catalog.search("staging bucket deploy token", k=5, mode="bm25")]).values()}
    finally:
        catalog.close()
    assert sessions == {seal(f"sess-{GH}"), seal(f"s-{AK}")}, sessions
    found = runner.invoke(cli, ["search", "staging bucket", "--json"])
    assert "the staging bucket moved" in found.output and AK not in found.output
    # the answers: show and list name the event's session and speaker sealed, its source
    # and an item's source (session, cited events) without the key
    text = day.read_text().replace('"source": "user", "session": "sess-',
                                   f'"source": "relay {GH}", "session": "sess-', 1)
    day.write_text(text)
    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    (facts / "bucket.md").write_text(
        "---\nid: fact-bucket\ntype: fact\ntitle: The staging bucket is in eu-central-1\n"
        f"source:\n  kind: consolidation\n  session: sess-{GH}\n  events: [note-{AK}]\n---\n\n"
        "The staging bucket is in eu-central-1.\n")
    answers = [runner.invoke(cli, args).output for args in (
        ["show", seal(f"note-{AK}"), "--json"], ["show", seal(f"note-{AK}")],
        ["show", "fact-bucket", "--json"], ["list", "--json", "--type", "event"],
        ["list", "--json"])]
    assert [a for a in answers if GH in a or AK in a] == [], answers
    shown = json.loads(answers[0])
    assert shown["session"] == seal(f"sess-{GH}") and shown["source"].startswith("relay "), shown
    assert seal(f"note-{AK}") in answers[2], answers[2]


def test_the_viewer_names_supersede_links_and_sessions_sealed(repo):
    """An item hand-named around a key, replaced by an active item (`supersedes`), pointing to
    it (`superseded_by`) and proposed for replacement by a pending claim, and a journal session
    typed around a key: the item, review and journal pages show and link them sealed and find
    the older item. Before: the raw key in the supersede chain marked "(missing)", in the review
    page's "it names … to replace, which no longer exists", and in /journal's session heading."""
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory

    runner = CliRunner()
    day = _hand_typed_event(repo, runner, "the staging bucket moved", "note-bucket-moved")
    day.write_text(day.read_text().replace('"source": "user"',
                                           f'"source": "user", "session": "sess-{GH}"', 1))
    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    old_id = f"fact-old-{GH}"
    (facts / "old.md").write_text(
        f"---\nid: {old_id}\ntype: fact\ntitle: The staging bucket was in us-east-1\n"
        "superseded_by: fact-bucket\n---\n\nThe staging bucket was in us-east-1.\n")
    (facts / "bucket.md").write_text(
        f"---\nid: fact-bucket\ntype: fact\ntitle: The staging bucket is in eu-central-1\n"
        f"supersedes: [{old_id}]\n---\n\nThe staging bucket is in eu-central-1.\n")
    (facts / "claim.md").write_text(
        "---\nid: fact-claim\ntype: fact\ntitle: The staging bucket is in eu-west-2\n"
        f"status: pending\nproposed_supersedes: {old_id}\n---\n\n"
        "The staging bucket is in eu-west-2.\n")
    sealed = quote(seal(old_id), safe="")
    viewer = create_app(Memory.open(repo), "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        pages = {url: web.get(url) for url in ("/journal", "/items/fact-bucket", f"/items/{sealed}",
                                               "/review")}
        for url, page in pages.items():
            assert page.status_code == 200 and GH not in page.text, (url, page.text[-1500:])
        assert "(missing)" not in pages["/items/fact-bucket"].text
        assert f"/items/{sealed}" in pages["/items/fact-bucket"].text  # the older item, linked
        assert "/items/fact-bucket" in pages[f"/items/{sealed}"].text  # replaced by
        assert "It would replace" in pages["/review"].text, pages["/review"].text[-1500:]
        assert "the staging bucket moved" in pages["/journal"].text
    finally:
        viewer.state.close()


def test_the_items_page_offers_and_links_a_hand_typed_tag_redacted(repo):
    """A tag typed by hand holding a key: the items page shows it redacted, and so do its tag
    suggestions and the filter link, which still finds the item. Before: the raw key in the
    `<datalist>` suggestions (the tag box offers it) and in the link's `?tag=`."""
    from urllib.parse import urlencode

    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.secret_guard import redact_for_reading

    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    (facts / "ci.md").write_text(f"---\nid: fact-ci\ntype: fact\ntitle: The CI token\n"
                                 f"tags: [ci, {GH}]\n---\n\nThe CI token rotates.\n")
    viewer = create_app(Memory.open(repo), "tok-1", run_doctor=False)
    try:
        web = TestClient(viewer, base_url="http://127.0.0.1:8765", follow_redirects=False)
        web.cookies.set("lorestack_ui_8765", "tok-1")
        page = web.get("/items")
        assert page.status_code == 200 and GH not in page.text, page.text[-1500:]
        shown = redact_for_reading(GH)[0]
        assert f'<option value="{shown}">' in page.text.replace("&#34;", '"'), page.text[-1500:]
        found = web.get("/items?" + urlencode({"tag": shown}))
        assert "/items/fact-ci" in found.text and GH not in found.text
    finally:
        viewer.state.close()
