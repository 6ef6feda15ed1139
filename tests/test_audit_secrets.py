"""Audit (session 11): a secret typed into a memory file by hand, in fields other than the
body, never reaches an index, a derived cache or a session's context.

The file itself is the user's and stays as written; what is derived from it is redacted.
"""

from __future__ import annotations

import json

from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.loader import assemble_context
from tests.conftest import run_cli

TOKEN = "ghp_R8mXq2Lw7ZtK4vNc9PbY3hJd6FsG1aUe5oWi"  # random-looking, as a real one is


def _index_bytes_holding(root, needle: str) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in (root / ".memory" / ".index").rglob("*")
                  if p.is_file() and needle.encode() in p.read_bytes())


def test_a_secret_in_a_hand_typed_title_tag_or_criterion_is_in_no_index_file(repo):
    """Tags went raw into tantivy and catalog.sqlite; the title and a resident item's body went
    raw into the loader's cache (.index/loader/*.json), though every output was redacted."""
    memory = repo / ".memory"
    (memory / "facts" / "deploy.md").write_text(
        f"---\ntitle: Deploy uses the {TOKEN} token\ntags: [deploy, {TOKEN}]\n---\n"
        "Deploy the billing service with the release script\n")
    (memory / "criteria" / "friday.md").write_text(
        "---\ntitle: No Friday deploys\ncriterion:\n  condition: never deploy on a Friday\n"
        f"  forbid: [friday deploy]\n  rationale: the on-call key {TOKEN} is off then\n---\n"
        "Never deploy on a Friday\n")
    before = {p: p.read_bytes() for p in memory.rglob("*.md")}
    done = run_cli("reindex", cwd=repo)
    assert done.returncode == 0, done.stderr
    shown = run_cli("context", "--query", "deploy billing release", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert "Deploy" in shown.stdout and "Never deploy on a Friday" in shown.stdout
    assert TOKEN not in shown.stdout + shown.stderr + done.stdout + done.stderr
    assert _index_bytes_holding(repo, TOKEN) == []
    assert {p: p.read_bytes() for p in memory.rglob("*.md")} == before


def test_a_secret_in_a_hand_typed_anchor_or_file_name_is_not_shown_to_a_session(repo):
    """The id tail and the "may be stale: <anchor> deleted" note were appended after the
    redaction of each line: an anchor (or a file named) holding a key reached the context."""
    memory = repo / ".memory"
    (memory / "caveats" / "anchored.md").write_text(
        f"---\ntitle: Rotate the deploy key\nanchors: [deploy/{TOKEN}.env]\n---\n"
        "Rotate the deploy key every quarter\n")
    (memory / "caveats" / f"{TOKEN}.md").write_text("Never deploy on Friday afternoons\n")
    mem = Memory.open(repo)
    context = assemble_context(mem, query="deploy key rotate friday", budget=2000)
    assert "Rotate the deploy key every quarter" in context.text
    assert "Never deploy on Friday afternoons" in context.text
    assert TOKEN not in context.text


def test_remember_about_a_path_holding_a_key_is_refused_and_writes_nothing(repo):
    """`remember … --about PATH` wrote the anchor raw: the text, title and tags passed the
    guard, but the anchors were set after it (`anchors set --about` did not guard them either)."""
    (repo / "deploy").mkdir()
    (repo / "deploy" / f"{TOKEN}.env").write_text("x=1\n")
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("def deploy():\n    pass\n")
    for about in (f"deploy/{TOKEN}.env", f"deploy/{TOKEN}/**"):
        done = run_cli("remember", "The deploy settings live in the env file", "--about", about,
                       cwd=repo)
        assert done.returncode != 0 and "secret" in done.stderr, done.stderr
        assert TOKEN not in done.stdout + done.stderr
    kept = run_cli("remember", "Deploys go through the deploy function", "--about",
                   "src/app.py:deploy", cwd=repo)
    assert kept.returncode == 0, kept.stderr
    item_id = kept.stdout.split()[2]
    again = run_cli("anchors", "set", item_id, "--about", f"deploy/{TOKEN}.env", cwd=repo)
    assert again.returncode != 0 and "secret" in again.stderr, again.stderr
    assert not [p for p in (repo / ".memory").rglob("*.md") if TOKEN in p.read_text()]


def test_import_guards_every_field_it_writes_not_only_the_text(repo, tmp_path):
    """An import record's `session`, `speaker` and `id` went raw into the journal entry's
    header (a tracked file), the item's source and Chroma's metadata; only text, tags and
    title passed the guard."""
    import json

    source = tmp_path / "events.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in [
        {"time": "2024-03-02T09:15:00", "text": "Pinned gin at 1.9.1", "kind": "progress",
         "id": f"ev-{TOKEN}", "session": f"deploy-{TOKEN}", "speaker": f"Bob {TOKEN}"},
        {"time": "2024-03-02T09:16:00", "text": "The queue worker retries three times",
         "type": "fact", "session": f"s-{TOKEN}"},
    ]))
    done = run_cli("import", "--json", str(source), cwd=repo)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["events"], report["items"], report["redacted"]) == (1, 1, 2)
    assert TOKEN not in done.stdout + done.stderr
    assert not [p for p in (repo / ".memory").rglob("*.md") if TOKEN in p.read_text()]
    assert _index_bytes_holding(repo, TOKEN) == []
    again = json.loads(run_cli("import", "--json", str(source), cwd=repo).stdout)
    assert (again["events"], again["items"]) == (0, 0)  # the hashed id is stable
    events = Memory.open(repo).journal.read_all().events
    assert [e.text for e in events] == ["Pinned gin at 1.9.1"]
    assert events[0].speaker == "Bob [REDACTED:github token]"
    assert "[REDACTED:" in events[0].session


def test_config_set_refuses_a_secret_for_the_committed_project_file(repo):
    """`config set llm.api_base https://user:pass@proxy/v1` (or a key pasted into a model
    string) wrote it into .memory/config.toml, which is committed with the memory."""
    config = repo / ".memory" / "config.toml"
    for key, value in (("llm.api_base", "https://deploy:Xk9vQ2mPzL7rT4@llm-proxy.example.com/v1"),
                       ("llm.model", f"openai/gpt-4o?key={TOKEN}")):
        done = run_cli("config", "set", key, value, cwd=repo)
        assert done.returncode != 0 and "looks like a secret" in done.stderr, done.stderr
        assert "LORESTACK_LLM__" in done.stderr and value not in done.stderr
        assert not config.exists() or value not in config.read_text()
    fine = run_cli("config", "set", "llm.api_base", "https://llm-proxy.example.com/v1", cwd=repo)
    assert fine.returncode == 0, fine.stderr
    home = run_cli("config", "set", "llm.api_base",
                   "https://deploy:Xk9vQ2mPzL7rT4@llm-proxy.example.com/v1", "--global", cwd=repo)
    assert home.returncode == 0, home.stderr  # the user's own file is not committed


def test_a_secret_in_a_frontmatter_field_a_person_added_is_printed_redacted(repo):
    """`list --json` and `show --json` print the whole frontmatter, fields a person added
    (`owner_token:`, `notes:`) too; those went out raw while title, tags and body were redacted.
    A value that is a secret only beside its key (`db_password: hunter2…`) counts as well."""
    path = repo / ".memory" / "facts" / "deploy.md"
    path.write_text(
        "---\nid: fact-deploy01\ntitle: Deploy notes\ndb_password: Hunter2Xq9Lzw\n"
        f"owner_token: {TOKEN}\nnotes:\n  db: postgres://admin:S3cr3tPassw0rd@db:5432/x\n"
        "owner: dana\n---\nDeploy the billing service with the release script\n")
    before = path.read_bytes()
    for args in (("list", "--json"), ("show", "fact-deploy01", "--json")):
        done = run_cli(*args, cwd=repo)
        assert done.returncode == 0, done.stderr
        out = done.stdout + done.stderr
        for raw in (TOKEN, "S3cr3tPassw0rd", "Hunter2Xq9Lzw"):
            assert raw not in out, (args, raw)
        assert '"owner": "dana"' in out and "[REDACTED" in out
    assert path.read_bytes() == before


def test_anchors_prints_a_hand_typed_key_in_a_title_or_anchor_redacted(repo):
    """`lorestack anchors` (and the refusal of `anchors accept`) printed the title and the
    anchor as the file has them, where `show` and the context redact a key typed into either."""
    path = repo / ".memory" / "facts" / "deploy.md"
    path.write_text(f"---\nid: fact-deploy01\ntitle: Deploy uses {TOKEN}\n"
                    f"anchors: [config/{TOKEN}.yml]\n---\nDeploy notes\n")
    for args in (("anchors",), ("anchors", "--json"), ("anchors", "accept", "fact-deploy01")):
        done = run_cli(*args, cwd=repo)
        out = done.stdout + done.stderr
        assert "fact-deploy01" in out and "[REDACTED:" in out, (args, out)
        assert TOKEN not in out, args


def test_a_stray_folder_named_after_a_key_is_told_sealed_and_cached_sealed(repo):
    """A folder named after a key inside facts/ (markdown there is never read) was named raw by
    doctor, reindex and search, and written raw into the loader's cache; `list` sealed it."""
    stray = repo / ".memory" / "facts" / TOKEN
    stray.mkdir()
    (stray / "notes.md").write_text("Deploy notes\n")
    (repo / ".memory" / "journal" / f"{TOKEN}.md").write_text("notes\n")
    outputs = ""
    for args in (("reindex",), ("doctor",), ("search", "deploy notes"), ("list",),
                 ("context", "--query", "deploy")):
        done = run_cli(*args, cwd=repo)
        outputs += done.stdout + done.stderr
    assert "[REDACTED:github token]~" in outputs
    assert TOKEN not in outputs
    assert _index_bytes_holding(repo, TOKEN) == []


def test_a_key_typed_into_a_journal_entrys_metadata_is_printed_redacted(repo):
    """`show EVENT --json` printed fields typed by hand into an entry's metadata comment raw."""
    day = repo / ".memory" / "journal" / "2026-12-05.md"
    meta = ('{"schema": 1, "id": "ev-extra001", "time": "2026-12-05T10:00:00Z", "kind": "note", '
            f'"tags": [], "source": "user", "ticket": "JIRA-12", "api_token": "{TOKEN}", '
            '"db_password": "Hunter2Xq9Lzw"}')
    day.write_text(f"# Journal 2026-12-05\n\n## 10:00 · note · ev-extra001\n"
                   f"<!-- lorestack:event {meta} -->\nEvent with extra metadata\n"
                   "<!-- /lorestack:event ev-extra001 -->\n")
    done = run_cli("show", "ev-extra001", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["ticket"] == "JIRA-12" and shown["text"] == "Event with extra metadata"
    assert TOKEN not in done.stdout and "Hunter2Xq9Lzw" not in done.stdout
