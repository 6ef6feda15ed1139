"""Hand edits the memory commands must not hide, lose or leak (session 34).

Each test drives whole `lorestack` processes over real files, as a user would: a secret typed
into a file never leaves in an export; a file moved or retyped by hand is named, not silently
dropped or moved; a CRLF-saved file prints clean lines.
"""

from __future__ import annotations

import json
import subprocess
import sys

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import log_event, remember
from tests.conftest import run_cli

AWS = "AKIAIOSFODNN7EXAMPLQ"
GITHUB = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
PASSWORD = "hunter2supersecret"
PRIVATE = ("-----BEGIN RSA PRIVATE KEY-----\n"
           "MIIEpAIBAAKCAQEA1234567890abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN\n"
           "OPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR\n"
           "-----END RSA PRIVATE KEY-----")
SECRETS = (AWS, GITHUB, PASSWORD, "MIIEpAIBAAKCAQEA1234567890")


def _typed_in(path, text: str) -> None:
    path.write_text(path.read_text() + text + "\n")


def test_export_redacts_secrets_typed_into_files_and_says_which(repo, tmp_path):
    mem = Memory.open(repo)
    fact = remember(mem, "The deploy uses the release script", "fact")
    _typed_in(fact.path, f"key {AWS}\npassword={PASSWORD}\n{PRIVATE}")
    event = log_event(mem, "Deployed to staging today", "note")
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_text(day.read_text().replace("staging today", f"staging with {GITHUB}"))
    clean = remember(mem, "Tests run with pytest", "fact")
    before = fact.path.read_bytes()

    out = tmp_path / "export.jsonl"
    done = run_cli("export", "--out", str(out), cwd=repo)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    for secret in SECRETS:
        assert secret not in text and secret not in done.stderr
    assert "[REDACTED:" in text
    assert "The deploy uses the release script" in text and "Tests run with pytest" in text
    header = json.loads(text.splitlines()[0])
    assert header["redacted"]["files"] == 2
    assert set(header["redacted"]["ids"]) == {fact.item.id, event.id}
    assert clean.item.id not in header["redacted"]["ids"]
    assert "redacted" in done.stderr and fact.item.id in done.stderr and event.id in done.stderr
    assert fact.path.read_bytes() == before  # the user's file is theirs to clean

    # stdout too, and the redacted export reads back cleanly into another memory
    piped = run_cli("export", cwd=repo)
    assert piped.returncode == 0 and not any(s in piped.stdout for s in SECRETS)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    back = run_cli("import-memory", str(out), "--json", cwd=other)
    assert back.returncode == 0, back.stderr
    assert not json.loads(back.stdout)["problems"]
    copied = (other / ".memory" / "facts" / fact.path.name).read_text()
    assert "The deploy uses the release script" in copied and AWS not in copied


def test_an_archived_file_moved_back_by_hand_is_named_and_restored_in_place(repo):
    mem = Memory.open(repo)
    written = remember(mem, "Builds use the ninja generator", "decision")
    item_id = written.item.id
    assert run_cli("forget", item_id, "--reason", "we went back to make", cwd=repo).returncode == 0
    archived = next((repo / ".memory" / "archive" / "decisions").glob("*.md"))
    live = repo / ".memory" / "decisions" / archived.name
    archived.rename(live)  # the user moves it back by hand; its status still says archived

    listed = run_cli("list", cwd=repo)
    assert listed.returncode == 0 and item_id not in listed.stdout  # not active, and...
    assert live.name in listed.stderr and "archived in a live folder" in listed.stderr
    assert f"lorestack restore {item_id}" in listed.stderr  # ...it says so, and what to do

    doctor = run_cli("doctor", cwd=repo)
    lines = [ln for ln in doctor.stdout.splitlines() if live.name in ln]
    assert len(lines) == 1 and "status: archived in a live folder (decisions/)" in lines[0]
    assert json.loads(run_cli("doctor", "--json", cwd=repo).stdout)["misfiled"]

    done = run_cli("restore", item_id, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (repo / ".memory" / "decisions").glob("*.md")) == [live.name]
    assert "status: active" in live.read_text() and "Builds use the ninja generator" in live.read_text()
    assert item_id in run_cli("list", cwd=repo).stdout
    assert "archived in a live folder" not in run_cli("doctor", cwd=repo).stdout


def test_doctor_names_a_type_that_disagrees_with_its_folder(repo):
    mem = Memory.open(repo)
    written = remember(mem, "Never deploy on Fridays", "caveat")
    written.path.write_text(written.path.read_text().replace("type: caveat", "type: fact"))
    kept = remember(mem, "Tests run with pytest", "fact")

    doctor = run_cli("doctor", cwd=repo)
    named = [ln for ln in doctor.stdout.splitlines() if "its frontmatter" in ln]
    assert len(named) == 1, doctor.stdout
    line = named[0]
    assert written.path.name in line and "caveats/" in line
    assert "type: fact" in line and "(type caveat)" in line
    assert kept.path.name not in doctor.stdout
    report = json.loads(run_cli("doctor", "--json", cwd=repo).stdout)
    assert len(report["misfiled"]) == 1 and written.path.name in report["misfiled"][0]


def test_show_prints_a_crlf_saved_file_as_clean_lines(repo):
    mem = Memory.open(repo)
    written = remember(mem, "The staging database is read only", "fact")
    text = written.path.read_text() + "Ask Dana before writing to it.\n"
    written.path.write_bytes(text.replace("\n", "\r\n").encode())

    # bytes as they reach the terminal (run_cli's text mode would turn CRLF into LF)
    shown = subprocess.run([sys.executable, "-m", "lorestack.cli", "show", written.item.id],
                           capture_output=True, cwd=repo, timeout=600)
    assert shown.returncode == 0, shown.stderr
    assert b"\r" not in shown.stdout
    assert b"The staging database is read only\nAsk Dana before writing to it." in shown.stdout
    body = json.loads(run_cli("show", written.item.id, "--json", cwd=repo).stdout)["body"]
    assert body == "The staging database is read only\nAsk Dana before writing to it."


def test_frontmatter_keys_typed_in_another_case_are_read(repo):
    facts = repo / ".memory" / "facts"
    (facts / "upper.md").write_text("---\nTitle: Staging is read only\nTags: [db, staging]\n"
                                    "Importance: 0.9\n---\n\nAsk Dana before writing to it.\n")
    shown = json.loads(run_cli("show", "upper", "--json", cwd=repo).stdout)
    assert shown["title"] == "Staging is read only"
    assert shown["tags"] == ["db", "staging"] and shown["importance"] == 0.9
    assert "Staging is read only" in run_cli("list", cwd=repo).stdout
    # a key in another case whose value is not the field's kind: the file is read as before
    (facts / "other.md").write_text("---\ntitle: Other\nSource: the wiki\n---\n\nOther.\n")
    listed = run_cli("list", cwd=repo)
    assert "Other" in listed.stdout and "other.md" not in listed.stderr


def test_doctor_names_a_frontmatter_key_typed_twice(repo):
    (repo / ".memory" / "facts" / "dup.md").write_text(
        "---\ntitle: The first title\ntags: [a]\ntitle: The second title\n---\n\nBody.\n")
    doctor = run_cli("doctor", cwd=repo)
    named = [ln for ln in doctor.stdout.splitlines() if "dup.md" in ln]
    assert len(named) == 1 and "key 'title' typed 2 times" in named[0], doctor.stdout
    assert "lines 2, 4" in named[0] and "Traceback" not in doctor.stderr


def test_a_tab_indenting_the_frontmatter_is_named_as_such(repo):
    (repo / ".memory" / "facts" / "tabbed.md").write_text(
        "---\ntitle: Tabbed\ntags:\n\t- one\n---\n\nBody.\n")
    listed = run_cli("list", cwd=repo)
    assert listed.returncode == 0
    assert "tabbed.md: malformed frontmatter, line 4: a tab indents it" in listed.stderr


def test_show_says_when_the_body_it_prints_is_cut_or_hidden_from_list(repo):
    big = "".join(f"line {n} of a long note written by hand\n" for n in range(20000))
    (repo / ".memory" / "facts" / "huge.md").write_text(f"---\ntitle: Huge\n---\n\n{big}")
    shown = run_cli("show", "huge", cwd=repo)
    assert shown.returncode == 0 and "line 0 of a long note" in shown.stdout
    assert "over limits.max_file_bytes" in shown.stderr and "the body shown is cut" in shown.stderr
    assert json.loads(run_cli("show", "huge", "--json", cwd=repo).stdout)["notes"]

    (repo / ".memory" / "facts" / "old.md").write_text(
        "---\ntitle: Old\nstatus: archived\n---\n\nOld.\n")
    shown = run_cli("show", "old", cwd=repo)
    assert "archived in a live folder (facts/)" in shown.stderr
    small = run_cli("show", "old", "--json", cwd=repo)
    assert "notes" in json.loads(small.stdout)


def test_list_does_not_call_a_file_it_lists_skipped(repo):
    """A file read with a problem (merge-conflict markers, over max_file_bytes) is listed; its
    warning said "skipped" all the same, which told the user it was left out."""
    (repo / ".memory" / "facts" / "conf.md").write_text(
        "---\ntitle: Conflicted\n---\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n")
    (repo / ".memory" / "facts" / "bad.md").write_text("---\nconfidence: high\n---\n\nBad.\n")
    listed = run_cli("list", cwd=repo)
    assert "Conflicted" in listed.stdout
    conf = [ln for ln in listed.stderr.splitlines() if "conf.md" in ln]
    assert conf and "merge-conflict markers" in conf[0] and "skipped" not in conf[0]
    assert "warning: skipped " in listed.stderr and "bad.md" in listed.stderr  # left out: said so


def test_export_redacts_a_secret_in_a_file_not_saved_as_utf8(repo):
    """A note saved as Latin-1 is exported as base64, which carried a key typed into it."""
    import base64

    latin = repo / ".memory" / "facts" / "latin.md"
    latin.write_bytes(f"---\ntitle: Caf\xe9 key\n---\n\nThe caf\xe9 key is {AWS}\n".encode("latin-1"))
    (repo / ".memory" / "photo.bin").write_bytes(b"\x89PNG\x00\x00" + AWS.encode())  # binary: kept
    done = run_cli("export", cwd=repo)
    assert done.returncode == 0, done.stderr
    records = {r.get("path"): r for r in map(json.loads, done.stdout.splitlines())}
    data = base64.b64decode(records["facts/latin.md"]["base64"])
    assert AWS.encode() not in data and b"[REDACTED:aws access key]" in data
    assert data.startswith(b"---\ntitle: Caf\xe9 key")  # its other bytes as they were
    assert "facts/latin.md" in done.stderr
    assert base64.b64decode(records["photo.bin"]["base64"]).startswith(b"\x89PNG\x00\x00")


def test_a_file_with_a_key_typed_twice_is_not_rewritten(repo):
    """`forget` of such a file rewrote it with only the last value: the first title the user
    typed was gone without a word (doctor named the file, the rewrite did not look)."""
    path = repo / ".memory" / "facts" / "dup.md"
    typed = ("---\nid: fact-dup00001\ntitle: The first title\ntags: [a]\n"
             "title: The second title\n---\n\nBody.\n")
    path.write_text(typed)
    forget = run_cli("forget", "fact-dup00001", "--reason", "obsolete", cwd=repo)
    assert forget.returncode == 1, forget.stdout + forget.stderr
    assert "key 'title' typed 2 times" in forget.stderr and "nothing was written" in forget.stderr
    assert "Traceback" not in forget.stderr
    assert path.read_text() == typed
    path.write_text(typed.replace("title: The second title\n", ""))  # mended: forget runs
    assert run_cli("forget", "fact-dup00001", "--reason", "obsolete", cwd=repo).returncode == 0
