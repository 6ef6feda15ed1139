"""A hook's payload read from a real pipe (core/hook_stdin.py): a client that keeps stdin open
cannot hold the hook, and a payload arriving in slow pieces is never cut short."""

from __future__ import annotations

import json
import os
import threading

from lorestack.core.hook_stdin import read_payload, whole_json

PAYLOAD = json.dumps({"hook_event_name": "UserPromptSubmit",
                      "prompt": 'a "quoted" {brace} and a \\ backslash ' + "x" * 200_000}).encode()


def _writer(w: int, parts: list[bytes], pause: float, hold: threading.Event | None, closed: list):
    for n, part in enumerate(parts):
        if n:
            threading.Event().wait(pause)
        os.write(w, part)
    if hold is not None:
        hold.wait(30)  # a client that keeps stdin open until the hook is done
    closed.append(True)
    os.close(w)


def _read(parts: list[bytes], pause: float = 0.0, hold: bool = False) -> tuple[bytes, bool]:
    r, w = os.pipe()
    done = threading.Event() if hold else None
    closed: list = []
    thread = threading.Thread(target=_writer, args=(w, parts, pause, done, closed))
    thread.start()
    try:
        data = read_payload(r)
        closed_before = bool(closed)
    finally:
        if done is not None:
            done.set()
        thread.join()
        os.close(r)
    return data, closed_before


def test_a_client_that_closes_stdin_is_read_to_eof():
    assert _read([PAYLOAD]) == (PAYLOAD, True)


def test_a_client_that_keeps_stdin_open_does_not_hold_the_hook():
    data, closed = _read([PAYLOAD], hold=True)
    assert data == PAYLOAD and not closed  # returned while the client still held the pipe


def test_a_payload_stalled_midway_longer_than_the_idle_limit_is_read_whole():
    half = len(PAYLOAD) // 2
    data, _closed = _read([PAYLOAD[:half], PAYLOAD[half:]], pause=1.3, hold=True)
    assert data == PAYLOAD


def test_no_input_at_all_is_no_payload():
    assert _read([], hold=True)[0] == b""


def test_whole_json_reads_brackets_outside_strings_only():
    assert whole_json(b'  {"a": "}", "b": [1, {"c": "\\"}"}]}\n')
    assert not whole_json(b'{"a": "}"')
    assert not whole_json(b'{"a": 1}{"b": 2}')  # two values: not one whole payload
    assert not whole_json(b"42")  # a bare scalar is whole only at EOF
    assert not whole_json(b"")
