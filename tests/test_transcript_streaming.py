"""A session's transcript is read line by line when the client is named (the session-end
extraction, in the service): a Claude Code transcript is mostly the assistant's and the tools'
output, and holding it whole as text (plus a list of its lines) cost several times its size for
the few lines the user typed (review of the nineteenth session: a 30 MB transcript with one
non-ASCII character, +113 MB peak against +0 before the import read it once)."""

from __future__ import annotations

import json
import tracemalloc


def _transcript(path, turns: int) -> int:
    with path.open("w", encoding="utf-8") as out:
        for i in range(turns):
            if i % 20 == 0:
                entry = {"type": "user", "sessionId": "s-long", "uuid": f"u{i}",
                         "timestamp": "2026-11-01T10:00:00Z",
                         "message": {"role": "user", "content": f"please look at step {i}"}}
            else:
                entry = {"type": "assistant", "sessionId": "s-long", "uuid": f"a{i}",
                         "message": {"role": "assistant",
                                     "content": [{"type": "text", "text": "sortie → " + "x" * 4000}]}}
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return path.stat().st_size


def test_a_named_clients_transcript_is_not_held_whole(tmp_path):
    from lorestack.consolidation.transcripts import read_user_messages

    source = tmp_path / "session.jsonl"
    size = _transcript(source, 1000)  # ~4 MB
    tracemalloc.start()
    try:
        messages = read_user_messages(source, "claude-code")
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [m.text for m in messages][:2] == ["please look at step 0", "please look at step 20"]
    assert len(messages) == 50
    assert peak < size / 4, f"peak {peak:,} bytes for a {size:,}-byte transcript"


def test_the_text_handed_in_reads_as_the_file_does(tmp_path):
    """The import hands in the text it read (a BOM dropped, CRLF kept): the same messages."""
    from lorestack.consolidation.transcripts import read_user_messages

    source = tmp_path / "session.jsonl"
    _transcript(source, 60)
    text = source.read_text("utf-8")
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    from_file = [(m.uid, m.text) for m in read_user_messages(source, "claude-code")]
    assert from_file == [(m.uid, m.text) for m in read_user_messages(crlf, "claude-code")]
    assert from_file == [(m.uid, m.text)
                         for m in read_user_messages(source, "claude-code", text)]
    assert from_file == [(m.uid, m.text) for m in
                         read_user_messages(crlf, "claude-code", text.replace("\n", "\r\n"))]
