"""A secret typed into a memory file by hand never reaches an index or a session's context.

The file stays exactly as the user wrote it; what is indexed and shown is redacted.
"""

from __future__ import annotations

import json
import re

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.loader import assemble_context
from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import context_of, hook, poll, start_service

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def _hand_edit(mem):
    written = remember(mem, "Deploy the billing service with the release script", "fact")
    text = written.path.read_text()
    written.path.write_text(text.replace("release script", f"release script and token {TOKEN}"))
    return written.path


def test_index_and_context_hold_the_secret_redacted(mem):
    path = _hand_edit(mem)
    before = path.read_bytes()
    warnings: list[str] = []
    index = MemoryIndex(mem, warn=warnings.append)
    try:
        hits = index.search("deploy billing release script", k=5, mode="bm25")
        assert hits and all(TOKEN not in h.text for h in hits)
        assert any("[REDACTED:" in h.text for h in hits)
        # the token's parts are not searchable either: the lexical index never saw them
        assert not [h for h in index.search("abcdefghijklmnopqrstuvwxyz0123456789", k=5, mode="bm25")
                    if h.text.startswith("Deploy")]
    finally:
        index.close()
    assert any("looks like a secret" in w for w in warnings)
    context = assemble_context(mem, query="deploy billing release script", budget=2000)
    assert "Deploy the billing service" in context.text
    assert TOKEN not in context.text
    assert path.read_bytes() == before  # the user's file is never rewritten


def test_the_command_line_tells_the_user_on_stderr(repo):
    path = _hand_edit(Memory.open(repo))
    before = path.read_bytes()
    done = run_cli("reindex", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "looks like a secret" in done.stderr and TOKEN not in done.stderr + done.stdout
    assert path.read_bytes() == before


def _lines_of(path, needle: str) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line]


def test_a_sync_keeps_the_file_and_line_until_the_secret_is_removed(mem):
    from lorestack.retrieval.secret_spots import load

    path = _hand_edit(mem)
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        warnings = index.sync().warnings
        lines = _lines_of(path, TOKEN)  # the title and the body
        assert len(lines) == 2
        assert [s.where() for s in load(mem)] == [f"{path} line {n}" for n in lines]
        assert [w for w in warnings if w.startswith(f"{path} line {lines[1]}: looks like")]
        assert TOKEN not in (mem.primary.index_dir / "secrets.json").read_text()
        path.write_text(path.read_text().replace(f" and token {TOKEN}", ""))
        index.sync()
        assert load(mem) == []
    finally:
        index.close()


def test_the_service_path_tells_the_session_and_doctor_names_file_and_line(stocked, run_dir):
    """The watcher's sync is the one that reads a hand edit; its warning reached nobody."""
    start_service(stocked)
    payload = {"session_id": "t1", "cwd": str(stocked), "prompt": "how are refunds written?"}
    assert TOKEN not in context_of(hook("session-start", payload, stocked))  # watched now
    path = _hand_edit(Memory.open(stocked))
    where = f".memory/{path.relative_to(stocked / '.memory')} line {_lines_of(path, TOKEN)[-1]}"

    def told():
        out = context_of(hook("prompt", payload, stocked))
        return out if "looks like a secret" in out else None

    out = poll(told)
    assert out and where in out and "github" in out and TOKEN not in out
    again = context_of(hook("prompt", payload, stocked))
    assert "looks like a secret" not in again  # once per session
    fresh = context_of(hook("session-start", {**payload, "session_id": "t2"}, stocked))
    assert where in fresh and TOKEN not in fresh  # a new session is told again
    doctor = run_cli("doctor", "--repair", cwd=stocked)  # nothing a repair can do
    assert doctor.returncode == 1 and "secret(s) in memory files" in doctor.stdout
    assert f"secret: {path} line {_lines_of(path, TOKEN)[-1]}" in doctor.stdout
    assert TOKEN not in doctor.stdout + doctor.stderr
    shown = json.loads(run_cli("doctor", "--json", cwd=stocked).stdout)
    assert shown["secrets"] and TOKEN not in json.dumps(shown)


def test_the_notice_never_carries_the_secret_nor_fails_the_hook(mem):
    """Review findings: a file named after the key it holds put the key into the notice (and
    the session file); a secrets.json row of another shape raised inside the prompt hook."""
    from lorestack.app.secret_notice import secret_notice
    from lorestack.app.sessions import load_session

    named = mem.project.root / "facts" / f"{TOKEN}.md"
    named.write_text(f"---\ntitle: CI\n---\nThe runner uses {TOKEN}.\n")
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    notice = secret_notice(mem, "s1")
    assert notice and "looks like a secret" in notice and "[REDACTED" in notice
    assert TOKEN not in notice
    assert TOKEN not in json.dumps(load_session(mem, "s1"))
    assert secret_notice(mem, "s1") is None  # told once
    (mem.primary.index_dir / "secrets.json").write_text(json.dumps({"p:facts/x.md": [5, [1]]}))
    assert secret_notice(mem, "s2") is None  # passed over, no exception


KEY = "AKIAIOSFODNN7EXAMPLE"


def test_an_anchor_holding_a_secret_stays_out_of_the_loader_cache(repo, long_hook_deadlines):
    """A key typed by hand into an item's anchors (a file named after it) reached the loader's
    manifest and resident files raw; the pre-tool hook still finds the item by that file."""
    import subprocess

    from click.testing import CliRunner

    from lorestack.cli.main import cli

    git = ["git", "-C", str(repo), "-c", "user.email=t@e", "-c", "user.name=t"]
    (repo / "deploy").mkdir()
    (repo / "deploy" / f"{KEY}.env").write_text("REGION=eu\n")
    (repo / "src.py").write_text("x = 1\n")
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    written = remember(Memory.open(repo), "Rotate the deploy env file monthly", "caveat")
    text = written.path.read_text()
    written.path.write_text(text.replace("anchors: []",
                                         f"anchors:\n- deploy/{KEY}.env\n- src.py"))
    shown = CliRunner().invoke(cli, ["context"])
    assert shown.exit_code == 0, shown.output
    assert "Rotate the deploy env file" in shown.output and KEY not in shown.output
    cache = repo / ".memory" / ".index" / "loader"
    assert list(cache.glob("*.json"))
    for kept in cache.iterdir():
        assert KEY not in kept.read_text("utf-8", "replace"), kept.name
    # the other anchor is still cached and matched; the secret one is judged on the file
    for place in ("src.py", f"deploy/{KEY}.env"):
        payload = {"session_id": f"s-{place}", "cwd": str(repo), "hook_event_name": "PreToolUse",
                   "tool_name": "Read", "tool_input": {"file_path": str(repo / place)}}
        done = run_cli("hook", "pre-tool", "--client", "claude-code", input=json.dumps(payload),
                       cwd=repo)
        assert done.returncode == 0, done.stderr
        assert "Rotate the deploy env file" in done.stdout and KEY not in done.stdout
    assert KEY in written.path.read_text()  # the user's file is never rewritten
    # the anchors' fingerprint cache does not keep the file named after the key either
    anchors_cache = repo / ".memory" / ".index" / "anchors.json"
    assert anchors_cache.is_file() and KEY not in anchors_cache.read_text()


def test_an_item_named_after_a_secret_is_kept_and_the_user_told_to_rename_it(mem):
    """A hand-written file whose name (and id) holds a key, its text clean: nothing said so
    (no sync warning, no doctor line, no session notice). It stays indexed and shown (its id
    is its link; refused, the memory would be lost), with the id and path redacted."""
    from lorestack.app.secret_notice import secret_notice

    path = mem.project.root / "facts" / f"{KEY}.md"
    path.write_text(f"---\nid: fact-{KEY}\ntype: fact\ntitle: The billing bucket region\n---\n\n"
                    "The billing bucket is in eu-west-1.\n")
    index = MemoryIndex(mem)
    try:
        warnings = index.sync().warnings
    finally:
        index.close()
    told = [w for w in warnings if "looks like a secret" in w]
    assert told and "rename the file" in told[0] and KEY not in " ".join(warnings)
    context = assemble_context(mem, query="billing bucket region", budget=2000)
    assert "The billing bucket is in eu-west-1" in context.text and KEY not in context.text
    notice = secret_notice(mem, "s1")
    assert notice and "[REDACTED:aws access key].md" in notice and KEY not in notice
    assert path.exists()


def test_import_memory_seals_an_item_named_after_a_secret(repo):
    """A record written by hand, named after a key: the item is written with its id sealed and
    a file name without the key (it was refused whole; tests/test_sealed_names_leftovers.py has
    the round trip through `export`)."""
    from lorestack.memory_layers.sealed_names import seal

    export = repo / "export.jsonl"
    header = {"format": "lorestack-export", "version": 1}
    item = {"kind": "file", "path": f"facts/{KEY}.md",
            "item": {"id": f"fact-{KEY}", "type": "fact", "title": "The bucket region",
                     "body": "eu-west-1"}}
    export.write_text("\n".join(json.dumps(r) for r in (header, item)) + "\n")
    done = run_cli("import-memory", str(export), cwd=repo)
    assert done.returncode == 0, done.stderr
    assert KEY not in done.stderr + done.stdout
    written = list((repo / ".memory" / "facts").glob("*.md"))
    assert len(written) == 1 and KEY not in written[0].name, written
    assert KEY not in written[0].read_text() and seal(f"fact-{KEY}") in written[0].read_text()


def test_search_names_such_an_item_and_anchor_redacted(repo):
    """`search` (and `search --about`) printed the id, path and anchor holding the key raw:
    an agent running it handed the key to the model."""
    from click.testing import CliRunner

    from lorestack.cli.main import cli

    memory = repo / ".memory"
    (memory / "facts" / f"{KEY}.md").write_text(
        f"---\nid: fact-{KEY}\ntype: fact\ntitle: The staging bucket is in eu-west-1\n---\n\n"
        "The staging bucket is in eu-west-1.\n")
    (memory / "caveats" / "rotate.md").write_text(
        f"---\ntitle: Rotate the deploy key\nanchors: [deploy/{KEY}.env]\n---\nRotate it.\n")
    for args in (["search", "staging", "bucket"], ["search", "staging", "bucket", "--json"],
                 ["search", "--about", f"deploy/{KEY}.env"],
                 ["search", "--about", f"deploy/{KEY}.env", "--json"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert "[REDACTED:aws access key]" in result.output and KEY not in result.output, args


def test_a_resident_process_scans_an_unchanged_clean_file_once(mem, monkeypatch):
    """`list` in the service scanned every listed item for secrets on every call (seconds at
    10k items). A file found clean is skipped while its bytes stay the same; a file holding a
    secret, and a file edited since, are scanned (and redacted) every time."""
    from lorestack.memory_layers import parse_cache, secret_guard
    from lorestack.memory_layers.listing import list_items

    scanned: list[str] = []
    real = secret_guard.redact_tree

    def counting(value, threshold=4.2):
        scanned.append(value[0])  # the title
        return real(value, threshold)

    monkeypatch.setattr(secret_guard, "redact_tree", counting)
    parse_cache.enable(True)
    try:
        _hand_edit(mem)
        clean = remember(mem, "Invoices are numbered per tenant", "fact").path
        remember(mem, "Never run migrations on Friday afternoons", "caveat")

        def listed():
            scanned.clear()
            return {it.title: it.body for it in list_items(mem, redact=True).items}

        first = listed()
        assert len(scanned) == len(first) == 4  # project.md is listed too
        assert TOKEN not in "".join(first.values())
        again = listed()
        assert len(scanned) == 1 and again == first  # only the file with the secret
        clean.write_text(clean.read_text().replace("per tenant", f"per tenant, key {TOKEN}"))
        edited = listed()
        assert len(scanned) == 2 and TOKEN not in "".join(edited.values()) + "".join(edited)
        assert sum("[REDACTED:" in body for body in edited.values()) == 2
    finally:
        parse_cache.enable(False)


# an AWS-shaped key whose path `memory/facts/deploy-<key>` also reads as one random token
PATH_KEY = "AKIA2XQ7RZK4M3PLW3TB"


def test_list_and_show_name_such_an_item_redacted_with_its_folder_readable(repo):
    """Tour finding (Claude Code running `lorestack list` as a Bash call): list and show printed
    an id and path holding the key raw, so the tool result handed it to the model; and a path
    redacted whole hid its folders too (`.[REDACTED:high-entropy string].md`), so the notice
    asking to rename the file named no file."""
    from click.testing import CliRunner

    from lorestack.cli.main import cli
    from lorestack.retrieval.secret_spots import SecretSpot

    (repo / ".memory" / "facts" / f"deploy-{PATH_KEY}.md").write_text(
        f"---\nid: fact-deploy-{PATH_KEY}\ntype: fact\ntitle: The staging bucket is in eu-west-1\n"
        "---\n\nThe staging bucket is in eu-west-1.\n")
    hit = ["search", "staging", "bucket", "--json"]
    for args in (["list"], ["list", "--json"], ["show", f"fact-deploy-{PATH_KEY}"],
                 ["show", f"fact-deploy-{PATH_KEY}", "--json"], hit):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert PATH_KEY not in result.output, args
        assert "[REDACTED:aws access key]" in result.output, args
        if args[-1] == "--json":
            assert "/.memory/facts/[REDACTED:aws access key].md" in result.output, args
    spot = SecretSpot(str(repo / ".memory" / "facts" / f"deploy-{PATH_KEY}.md"), 3,
                      ("aws access key",))
    # sealed: redacted, then a short hash of the raw name (memory_layers/sealed_names.py)
    assert re.match(r"\.memory/facts/\[REDACTED:aws access key\]\.md~[0-9a-f]{10} line 3: ",
                    spot.describe(repo)), spot.describe(repo)


def test_the_rename_notice_names_the_folder_of_such_a_file(mem):
    """Tour finding (Gemini CLI): the session notice asking to rename the file read
    `.[REDACTED:high-entropy string].md line 3`: the path was redacted whole."""
    from lorestack.app.secret_notice import secret_notice

    (mem.project.root / "facts" / f"deploy-{PATH_KEY}.md").write_text(
        f"---\nid: fact-deploy-{PATH_KEY}\ntype: fact\ntitle: The billing bucket region\n---\n\n"
        "The billing bucket is in eu-west-1.\n")
    index = MemoryIndex(mem)
    try:
        index.sync()
    finally:
        index.close()
    notice = secret_notice(mem, "s1")
    assert notice and PATH_KEY not in notice
    assert re.search(r"- \.memory/facts/\[REDACTED:aws access key\]\.md~[0-9a-f]{10} line ",
                     notice), notice


def test_a_notice_names_ten_places_and_counts_the_rest(mem):
    """A pasted dump of keys (here 14 files) must not fill every prompt of the session: the
    notice names ten places, counts the rest and points to doctor; all are told once."""
    from lorestack.app.secret_notice import SHOWN_PLACES, secret_notice

    for n in range(14):
        (mem.project.root / "facts" / f"ci-{n:02d}.md").write_text(
            f"---\ntitle: CI {n}\n---\nRunner {n} uses {TOKEN}.\n")
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    notice = secret_notice(mem, "s1")
    assert notice and TOKEN not in notice
    named = [line for line in notice.splitlines() if re.match(r"- .*ci-\d\d\.md", line)]
    assert len(named) == SHOWN_PLACES == 10
    assert notice.splitlines()[-1] == "- and 4 more: `lorestack doctor` lists every one"
    assert secret_notice(mem, "s1") is None  # the four counted are told too
