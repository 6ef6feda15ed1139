"""Hand edits the memory commands must not hide, lose or leak (session 34).

Each test drives whole `lorestack` processes over real files, as a user would: a secret typed
into a file never leaves in an export; a file moved or retyped by hand is named, not silently
dropped or moved; a CRLF-saved file prints clean lines.
"""

from __future__ import annotations

import json

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
