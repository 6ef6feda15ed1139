"""Session-end extraction: the user's messages become L3 events (and explicit items).

Runs without a model: cue phrases sort each sentence into new facts, decisions (with the
reasons/criteria the user gave), unfinished items and blockers; explicit "remember ..."
becomes a fact and "don't do X again" / "never X" a caveat, both at confidence 1.0 because
the person said them. Rules are predictable, free and private; the nightly consolidation is
where a model (if configured) does the interpretive work.

Every message passes the secret guard in redact mode first: a transcript is not something the
user can re-edit before it is saved, so refusing would lose the whole session while redacting
loses only the secret. Ids are derived from (session, message, kind), so running extraction
twice on the same (or a grown) transcript never duplicates anything.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lorestack.consolidation.transcripts import UserMessage, read_user_messages
from lorestack.core.errors import InputRejected
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent, Source, now_utc

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

_REMEMBER = re.compile(
    r"^(?:please\s+)?(?:remember|note|keep in mind|for future reference|fyi for later)"
    r"(?:\s+(?:this|that))?\s*[:,\-–]?\s*(?P<what>.{6,})$", re.IGNORECASE)
_CAVEAT = re.compile(
    r"(?:\b(?:don'?t|do not|never|stop)\b.*\bagain\b)|^(?:from now on,?\s*)?(?:never|don'?t ever|"
    r"do not ever|always avoid|avoid)\b|^from now on,?\s*(?:don'?t|do not)\b", re.IGNORECASE)
_REJECTED = re.compile(
    r"\b(?:rejected|ruled out|we won'?t use|not going to use|we dropped|drop the idea|"
    r"decided against|no longer consider)\b", re.IGNORECASE)
_DECISION = re.compile(
    r"\b(?:let'?s (?:use|go|switch|keep|move|stick)|we(?:'ll| will) (?:use|go|switch|keep|move)|"
    r"we decided|decided to|decision:|go with|going with|we chose|we'?re going to use|"
    r"switch(?:ing)? (?:\w+ )*to|stick with|instead of|from now on|we should (?:use|always))\b", re.IGNORECASE)
_BLOCKER = re.compile(
    r"\b(?:blocked|blocker|blocking|stuck (?:on|with)|waiting (?:on|for)|keeps failing|"
    r"is failing|fails|broken|doesn'?t work|does not work|can'?t (?:access|reach|log ?in|install|"
    r"connect|deploy)|cannot (?:access|reach|log ?in|install|connect|deploy))\b", re.IGNORECASE)
_TODO = re.compile(
    r"\b(?:todo|to-do|later|next time|still (?:need|have) to|follow[- ]up|tomorrow|not finished|"
    r"unfinished|left to do|come back to|pick (?:this|it) up)\b", re.IGNORECASE)
_FACT = re.compile(
    r"\b(?:we use|we'?re using|we run|is using|uses|runs on|is deployed|deploys? (?:to|on)|"
    r"lives in|is located|is written in|is hosted|is on port|listens on|our \w+ (?:is|are)|"
    r"the \w+ (?:is|are) (?:in|on|at|a|an|the)|requires|depends on|version \d)\b", re.IGNORECASE)
_REASON = re.compile(r"\b(?:because|since|so that|as long as|unless|only if|otherwise)\b", re.IGNORECASE)
_MARKED = re.compile(r"^(todo|to-do|fixme|blocked|blocker)\b\s*[:\-–—]", re.IGNORECASE)
_FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")

KIND_ORDER = ("decision", "rejected", "blocker", "todo", "note")


@dataclass
class ExtractResult:
    transcript: str
    client: str
    session: str | None
    messages: int = 0
    events: list[JournalEvent] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    duplicates: int = 0
    redacted: int = 0
    refused: int = 0  # statements that could not be stored (over limits.max_item_bytes, NUL bytes)


def _short_hash(text: str, n: int = 8) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "".join(_ALPHABET[b % 32] for b in digest[:n])


def _sentences(text: str) -> list[str]:
    text = _FENCED.sub(" ", text)  # pasted code and logs are not statements
    out = []
    for part in _SENTENCE.split(text):
        part = part.strip(" \t-*•>")
        if len(part) >= 12 and len(part) <= 600:
            out.append(part)
    return out


def classify(sentence: str) -> tuple[str, str] | None:
    """(what, kind) for one sentence, or None when it is an instruction/question/chatter.

    `what` is "remember", "caveat" or "event"; kind is the journal kind (or item type).
    """
    s = sentence.strip()
    if s.endswith("?"):
        return None
    match = _REMEMBER.match(s)
    if match:
        what = match.group("what").strip()
        return ("caveat", what) if _CAVEAT.search(what) else ("remember", what)
    if _CAVEAT.search(s):
        return ("caveat", s)
    marked = _MARKED.match(s)  # "TODO: …", "Blocked: …" say their kind before anything else
    if marked:
        return ("event", "todo" if marked.group(1).lower() in ("todo", "to-do", "fixme") else "blocker")
    if _REJECTED.search(s):
        return ("event", "rejected")
    if _DECISION.search(s):
        return ("event", "decision")
    if _BLOCKER.search(s):
        return ("event", "blocker")
    if _TODO.search(s):
        return ("event", "todo")
    if _FACT.search(s):
        return ("event", "note")
    return None


def _existing_keys(mem: Memory) -> tuple[set[str], set[str]]:
    event_ids = {e.id for e in mem.journal.read_all().events} if mem.journal else set()
    keys = set()
    for loaded in mem.load_items().items:
        extra = loaded.item.source.model_extra or {}
        if extra.get("key"):
            keys.add(extra["key"])
        keys.update(extra.get("reinforced_by") or [])  # statements folded into this item
    return event_ids, keys


def extract_session(mem: Memory, transcript: str | Path, client: str = "auto", *,
                    session: str | None = None) -> ExtractResult:
    """Read a transcript's user messages and write what they state to memory."""
    from lorestack.memory_layers.operations import remember

    project = mem.require_project()
    messages: list[UserMessage] = read_user_messages(transcript, client)
    sid = session or (messages[0].session if messages else None)
    result = ExtractResult(str(transcript), client, sid, messages=len(messages))
    event_ids, item_keys = _existing_keys(mem)
    for message in messages:
        clean = mem.guard(message.text, redact=True, where="transcript")
        if clean != message.text:
            result.redacted += 1
        grouped: dict[str, list[str]] = {}
        for sentence in _sentences(clean):
            found = classify(sentence)
            if found is None:
                continue
            what, detail = found
            if what in ("remember", "caveat"):
                key = f"x-{_short_hash(f'{sid}|{message.uid}|{detail}', 16)}"
                if key in item_keys:
                    result.duplicates += 1
                    continue
                item_type = "caveat" if what == "caveat" else (
                    "decision" if _DECISION.search(detail) else "fact")
                try:
                    written = remember(
                        mem, detail, item_type, tags=["session"], confidence=1.0, importance=0.7,
                        source=Source.model_validate({"kind": "user", "session": sid, "key": key}),
                        redact=True)
                except InputRejected:
                    # one oversized or binary statement must not lose the rest of the session
                    result.refused += 1
                    continue
                item_keys.add(key)
                result.items.append(written.item.id)
                continue
            grouped.setdefault(detail, []).append(sentence)
        for kind in KIND_ORDER:
            if kind not in grouped:
                continue
            event_id = f"ev-{_short_hash(f'{sid}|{message.uid}|{kind}')}"
            if event_id in event_ids:
                result.duplicates += 1
                continue
            text = " ".join(grouped[kind])
            tags = ["session"]
            if kind == "note":
                tags.append("fact")
            if kind == "decision" and _REASON.search(text):
                tags.append("criteria")
            event = JournalEvent.model_validate(dict(
                id=event_id, time=message.time or now_utc(), kind=kind, tags=tags,
                source="session", text=text, session=sid))
            project.journal.append(event)
            event_ids.add(event_id)
            result.events.append(event)
    return result


def spawn_extraction(mem: Memory, transcript_path: str, client: str) -> None:
    """Start `lorestack extract` detached and return at once (for the session-end hook).

    The child has no stdin, its own session (it outlives the hook and the client), and
    writes to the log under `.memory/.index/`, so the hook's deadline is never spent on it.
    """
    from lorestack.core.clients import transcript_clients

    if client not in transcript_clients():  # e.g. Cursor: its transcript format is not known
        client = "auto"
    paths = mem.primary
    paths.index_dir.mkdir(parents=True, exist_ok=True)
    log_path = paths.index_dir / "extract.log"
    # opened leniently, as the hook was: a broken config.toml must not lose the session
    command = [sys.executable, "-m", "lorestack.app.hook_jobs", "extract", str(paths.root),
               str(transcript_path), client or "auto"]
    with open(log_path, "ab") as log:
        kwargs: dict = {"stdin": subprocess.DEVNULL, "stdout": log, "stderr": subprocess.STDOUT,
                        "close_fds": True, "cwd": str(paths.repo_dir)}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        else:  # pragma: no cover - Windows
            kwargs["creationflags"] = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(
                subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        subprocess.Popen(command, **kwargs)


__all__ = ["ExtractResult", "classify", "extract_session", "spawn_extraction"]
