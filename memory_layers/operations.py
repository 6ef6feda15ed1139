"""Write operations on memory: remember, log, forget, supersede, restore, and checking a hand
edit (reading, `list` and `show`, is in `listing`).

Every write runs the secret guard before anything touches disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from lorestack.core.errors import ItemNotFound, LorestackError
from lorestack.memory_layers.duplicates import duplicate_held, find_duplicate
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import (
    CriterionSpec,
    JournalEvent,
    MemoryItem,
    Source,
    new_id,
    now_utc,
)


@dataclass
class Written:
    item: MemoryItem
    path: Path
    archived: Path | None = None
    duplicate_of: str | None = None  # set when an existing item was reinforced instead


def _reinforce(mem: Memory, loaded, item: MemoryItem) -> Written:
    """Saying it again makes it stronger: importance rises, confidence takes the higher value,
    new tags join, `updated` moves; the text stays as first written."""
    existing = loaded.item.model_copy(deep=True)
    existing.body = loaded.item.body
    existing.importance = round(min(1.0, max(existing.importance, item.importance)
                                    + (1.0 - existing.importance) * 0.1), 3)
    existing.confidence = max(existing.confidence, item.confidence)
    existing.tags = list(dict.fromkeys([*existing.tags, *item.tags]))
    key = (item.source.model_extra or {}).get("key")
    if key:  # a keyed writer (session extraction) must recognise this statement next time
        extra = dict(existing.source.model_extra or {})
        keys = list(extra.get("reinforced_by") or [])
        if key not in keys and key != extra.get("key"):
            keys.append(key)
            existing.source = type(existing.source).model_validate(
                {**existing.source.model_dump(exclude_none=True), "reinforced_by": keys})
    existing.updated = now_utc()
    mem.store_for(existing.scope).update(loaded, existing)
    return Written(existing, loaded.path, None, duplicate_of=existing.id)


class CriterionNotDecidable(LorestackError):
    pass


def _guard_list(mem: Memory, values: list[str], redact: bool | None, where: str) -> list[str]:
    return [mem.guard(v, redact=redact, where=where) for v in values]


def _guard_criterion(mem: Memory, spec: CriterionSpec, redact: bool | None) -> CriterionSpec:
    """Every field of a criterion is written to disk and shown to sessions: all are guarded."""
    spec.condition = mem.guard(spec.condition, redact=redact, where="condition")
    spec.rationale = mem.guard(spec.rationale, redact=redact, where="rationale")
    spec.review_when = mem.guard(spec.review_when, redact=redact, where="review-when")
    spec.forbid = _guard_list(mem, spec.forbid, redact, "forbid")
    spec.require = _guard_list(mem, spec.require, redact, "require")
    spec.unless = _guard_list(mem, spec.unless, redact, "unless")
    spec.alternatives = _guard_list(mem, spec.alternatives, redact, "alternatives")
    applies = spec.applies_to
    applies.paths = _guard_list(mem, applies.paths, redact, "applies-path")
    applies.keywords = _guard_list(mem, applies.keywords, redact, "keyword")
    applies.topics = _guard_list(mem, applies.topics, redact, "topic")
    return spec


def _guard_item(mem: Memory, item: MemoryItem, redact: bool | None) -> MemoryItem:
    item.title = mem.guard(item.title, redact=redact, where="title")
    item.body = mem.guard(item.body, redact=redact, where="text")
    item.tags = _guard_list(mem, item.tags, redact, "tags")
    item.anchors = _guard_list(mem, item.anchors, redact, "anchors")
    if item.criterion:
        item.criterion = _guard_criterion(mem, item.criterion, redact)
    return item


def build_item(text: str, item_type: str, *, title: str | None = None, tags=None,
               scope: str = "project", confidence: float = 1.0, importance: float = 0.5,
               source: Source | None = None, criterion: CriterionSpec | None = None,
               status: str = "active") -> MemoryItem:
    text = (text or "").strip()
    if not text and not title:
        raise LorestackError("nothing to remember: give the text (or a title)")
    if item_type == "event":
        raise LorestackError("events go to the journal: use `lorestack log`")
    if title is None:
        first = text.splitlines()[0].strip().lstrip("# ")
        title = first if len(first) <= 90 else first[:87].rstrip() + "..."
    # validated from user-given strings (type, status): pydantic names what is wrong
    return MemoryItem.model_validate(dict(
        id=new_id(item_type), type=item_type, scope="global" if scope == "global" else "project",
        title=title, body=text, tags=list(tags or []), confidence=confidence,
        importance=importance, source=source or Source(kind="user"), criterion=criterion,
        status=status,
    ))


def remember(mem: Memory, text: str, item_type: str = "fact", *, title: str | None = None,
             tags=None, scope: str = "project", supersedes: str | None = None,
             confidence: float = 1.0, importance: float = 0.5, criterion: CriterionSpec | None = None,
             source: Source | None = None, status: str = "active",
             redact: bool | None = None, force: bool = False,
             about: list[str] | None = None) -> Written:
    """Create an item (optionally superseding an older one, which is archived, not deleted).

    The same thing said again (an active item of the same type and scope with the same or
    nearly the same text) reinforces that item instead of storing a copy, and the result says
    so (`duplicate_of`); `force` stores a second one anyway."""
    mem.check_input(text or "", where="text")
    if title is not None:  # the title is stored as typed: the same refusals (a NUL, 100 kB)
        mem.check_input(title, where="title")
    # guard first: the title and the file name are derived from what is left
    text = mem.guard(text or "", redact=redact, where="text")
    if title is not None:
        title = mem.guard(title, redact=redact, where="title")
    if item_type == "criterion":
        spec = criterion or CriterionSpec()
        if not spec.condition and text:
            spec.condition = text.strip()
        missing = spec.missing_parts()
        if missing:
            raise CriterionNotDecidable(
                "a criterion must be decidable; missing: " + "; ".join(missing)
                + " (write the rule as a sentence, or give --forbid / --require terms)"
            )
        bad = spec.blank_terms() or [f"{p} (Python syntax)" for p in spec.regex_problems()]
        if bad:
            raise CriterionNotDecidable("; ".join(bad))
        criterion = spec
    item = build_item(text, item_type, title=title, tags=tags, scope=scope,
                      confidence=confidence, importance=importance, source=source,
                      criterion=criterion, status=status)
    item = _guard_item(mem, item, redact)
    if about and item.scope != "project":  # it was dropped without a word
        from lorestack.memory_layers.anchors import AnchorError

        raise AnchorError("--about anchors project memory to this repository's code; a global "
                          "item has no anchors: give --scope project, or leave --about out")
    if item.scope == "project" and (about is None or about):
        # the code the item is about: what --about names, else the paths and symbols it names
        from lorestack.memory_layers.anchor_edits import anchor_fields

        for key, value in anchor_fields(mem, text, about).items():
            setattr(item, key, value)
    store = mem.store_for(item.scope)
    store.ensure_layout()
    old = mem.get(supersedes) if supersedes else None
    if old is not None:  # refused before the new item is written, never half done
        _archivable(mem, old, "supersede")
    if old is not None:  # an id holding a key (typed by hand) is linked sealed: Memory.get finds it
        from lorestack.memory_layers.sealed_names import seal

        item.supersedes = [seal(old.item.id, mem.settings.guard.entropy_threshold)]
    # the duplicate check and the write under one lock: parallel identical remembers (two
    # sessions, a hook and a person) make one item, and the others reinforce it. The scan of
    # every item runs before the lock; under it, only what it found and files written since
    # (the whole scan held the lock long enough for a writer beside it to give up, at load 8)
    check = not force and not supersedes and status == "active"
    seen: set[Path] = set()
    found = find_duplicate(mem, item, seen=seen) if check else None
    with store.creating():
        if check:
            duplicate = duplicate_held(mem, item, found, seen)
            if duplicate is not None:
                return _reinforce(mem, duplicate, item)
        path = store.create(item, held=True)
    archived = None
    if old is not None:
        archived = _archive(mem, old, reason=f"superseded by {item.id}", superseded_by=item.id)
    return Written(item, path, archived)


def _archive(mem: Memory, loaded, *, reason: str, superseded_by: str | None = None) -> Path:
    _archivable(mem, loaded)
    return mem.store_for(loaded.item.scope).archive(loaded, reason=reason,
                                                    superseded_by=superseded_by)


def _holds_now(mem: Memory, item) -> str | None:
    """The active item at the end of `item`'s superseded-by chain, if there is one."""
    seen = {item.id}
    while item.superseded_by and item.superseded_by not in seen and len(seen) < 50:
        seen.add(item.superseded_by)
        try:
            item = mem.get(item.superseded_by).item
        except LorestackError:
            return None
        if item.status == "active":
            return item.id
    return None


def _archivable(mem: Memory, loaded, doing: str = "forget") -> None:
    """Refuse what forget or supersede must not move: an archived item, the identity card or
    profile (archived, it would leave the session without one and restore to facts/)."""
    if loaded.item.status == "archived":
        shown = _shown(mem, loaded.item.id)
        now = _holds_now(mem, loaded.item)
        if now is not None:  # superseded: the user means the item that replaced it
            raise LorestackError(
                f"'{shown}' was superseded by {_shown(mem, str(loaded.item.superseded_by))}"
                f"{'' if now == loaded.item.superseded_by else ' (itself superseded since)'}; "
                f"{_shown(mem, now)} holds now (`lorestack {doing} {_shown(mem, now)} …`)")
        raise LorestackError(f"'{shown}' is already archived "
                             f"({_shown(mem, str(loaded.path), path=True)}); `lorestack restore "
                             f"{shown}` brings it back")
    if loaded.path.name in ("project.md", "profile.md") and loaded.path.parent == mem.store_for(
            loaded.item.scope).paths.root:
        raise LorestackError(f"{loaded.path.name} is the identity card/profile; edit it instead "
                             f"(`lorestack edit {loaded.item.id}`)")


def _shown(mem: Memory, name: str, *, path: bool = False) -> str:
    """An id or path as an error names it: sealed when typed around a key (as `list` shows it)."""
    from lorestack.memory_layers.sealed_names import seal, seal_path

    threshold = mem.settings.guard.entropy_threshold
    return seal_path(name, threshold) if path else seal(name, threshold)


def supersede(mem: Memory, old_id: str, text: str, *, title: str | None = None, tags=None,
              confidence: float = 1.0, redact: bool | None = None) -> Written:
    """New information wins; the old item moves to archive/ with links both ways."""
    try:
        old = mem.get(old_id)
    except ItemNotFound:
        from lorestack.memory_layers.event_archive import find_archived_event, find_event

        if find_event(mem, old_id) or find_archived_event(mem, old_id):
            raise LorestackError(
                f"'{_shown(mem, old_id)}' is a journal event, and what happened is not replaced: "
                f"`lorestack log` the correction (`lorestack forget {_shown(mem, old_id)} "
                "--reason …` archives this one)") from None
        raise
    return remember(
        mem, text, old.item.type, title=title, tags=tags if tags is not None else old.item.tags,
        scope=old.item.scope, supersedes=old_id, confidence=confidence,
        importance=old.item.importance, criterion=old.item.criterion if old.item.type == "criterion" else None,
        redact=redact,
    )


def check_edited(mem: Memory, before) -> tuple[object, bool]:
    """Validate an item file a person just edited: it parses, keeps its id (ids are links),
    a criterion stays decidable, and no secret was typed in. Returns (loaded item, changed)."""
    path = before.path
    store = mem.store_for(before.item.scope)
    after = store.load_file(path)  # InvalidItem names the line and the problem
    if after.checksum == before.checksum:
        return after, False
    if after.item.id != before.item.id and not path.read_bytes().strip():
        raise LorestackError(f"the file was emptied; to remove the item: `lorestack forget "
                             f"{before.item.id} --reason …` (it moves to archive/)")
    if after.item.id != before.item.id:
        raise LorestackError(f"the id changed from '{before.item.id}' to '{after.item.id}'; ids "
                             "are how other items link to this one, so keep it")
    if after.item.criterion is not None:
        problems = after.item.criterion.missing_parts() + after.item.criterion.regex_problems()
        if problems:
            raise CriterionNotDecidable("the criterion is not decidable: " + "; ".join(problems))
    mem.guard(after.item.title, where="edited title", redact=False)
    mem.guard(after.item.body, where="edited text", redact=False)
    return after, True


def keep_refused_edit(mem: Memory, before, refusal: Exception) -> Path | None:
    """A copy of an edited file that was refused, under `.index/refused-edits/` (derived,
    gitignored, never read as memory), so going back to the original loses nothing the user
    typed. None for an edit refused because it holds a secret: that is never kept."""
    from lorestack.core.errors import SecretDetected
    from lorestack.memory_layers.fsutil import write_atomic

    if isinstance(refusal, SecretDetected):
        return None
    try:
        data = before.path.read_bytes()
        try:  # refused for another reason, it may still hold a secret: then it is not kept
            mem.guard(data.decode("utf-8", errors="replace"), redact=False, where="edit")
        except SecretDetected:
            return None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
        folder = mem.store_for(before.item.scope).paths.index_dir / "refused-edits"
        folder.mkdir(parents=True, exist_ok=True)
        kept = folder / f"{before.path.stem}-{stamp}{before.path.suffix}"
        write_atomic(kept, data)
    except OSError:
        return None
    return kept


@dataclass
class Restored:
    item: MemoryItem | JournalEvent  # an event: a forgotten one, back in its day file
    path: Path
    was_superseded_by: str | None = None


def restore(mem: Memory, item_id: str) -> Restored:
    """Bring an archived item back to active. Its links stay: `supersedes` as it was, and the
    item that had superseded it keeps its own `supersedes` entry; the archive reason and the
    replacement are kept under `restored` so the history reads both ways. A forgotten journal
    event goes back to its day file."""
    try:
        loaded = mem.get(item_id)
    except ItemNotFound:
        from lorestack.memory_layers.event_archive import find_event, restore_event

        if find_event(mem, item_id) is not None:
            raise LorestackError(f"'{_shown(mem, item_id)}' is a journal event in the journal, "
                                 "not forgotten; nothing to restore") from None
        back = restore_event(mem, item_id)
        if back is None:
            raise
        return Restored(back[0], back[1])
    if loaded.item.status != "archived":
        raise LorestackError(f"'{_shown(mem, item_id)}' is not archived (status {loaded.item.status}); "
                             "nothing to restore")
    item = loaded.item.model_copy(deep=True)
    extra = dict(item.model_extra or {})
    history = {"at": now_utc().isoformat()}
    reason = extra.pop("archived_reason", None)
    if reason:
        history["archived_reason"] = reason
    replaced_by = item.superseded_by
    if replaced_by:
        history["superseded_by"] = replaced_by
    data = {**item.frontmatter(), "status": "active", "restored": history}
    data.pop("archived_reason", None)
    data.pop("superseded_by", None)
    fresh = MemoryItem.model_validate(data)
    fresh.body = loaded.item.body
    fresh.updated = now_utc()
    store = mem.store_for(fresh.scope)
    if store.paths.archive_dir not in loaded.path.parents:  # moved back by hand: live there
        store.replace(loaded.path, fresh, loaded.checksum)
        return Restored(fresh, loaded.path, replaced_by)
    _refuse_live_copy(mem, store, loaded)
    path = store.unarchive(loaded, fresh)
    return Restored(fresh, path, replaced_by)


def _refuse_live_copy(mem: Memory, store, archived) -> None:
    """A live file with the id already (a `forget` cut short between writing the archived copy
    and removing the live one; a copy put back by hand): a restore beside it would make two live
    files of one id, the one read being the restored copy, not the live file a person may have
    edited since. Which holds is theirs to say."""
    live = [c for c in store.copies(archived.item.id, include_archived=False)
            if c.path != archived.path]
    if live:
        raise LorestackError(
            f"'{_shown(mem, archived.item.id)}' is live already in "
            f"{_shown(mem, str(live[0].path), path=True)} beside its archived copy "
            f"{_shown(mem, str(archived.path), path=True)} (a `forget` cut short leaves both); "
            "nothing restored: keep the live file and delete the archived copy, or delete the "
            "live file and restore again")


def forget(mem: Memory, item_id: str, reason: str, *, copies: list[Path] | None = None) -> Path:
    """Archive an item or a journal event, by full or short id (never delete). Another live
    file holding the same id (a hand-made copy) is archived too, and its new path added to
    `copies`: left live, `check` and other readers of the live folders kept it as the item."""
    if not reason or not reason.strip():
        raise LorestackError("say why: --reason is required so the archive explains itself")
    try:
        loaded = mem.get(item_id)
    except ItemNotFound:
        from lorestack.memory_layers.event_archive import (
            archive_event,
            find_event,
            refuse_archived_event,
        )

        if find_event(mem, item_id) is None:
            refuse_archived_event(mem, item_id)
            raise
        return archive_event(mem, item_id, reason)
    reason = mem.guard(reason, where="reason")
    path = _archive(mem, loaded, reason=reason)
    store = mem.store_for(loaded.item.scope)
    for other in store.copies(loaded.item.id, include_archived=False):
        try:
            moved = store.archive(other, reason=reason)
        except (LorestackError, OSError):  # refused (conflict markers): doctor names the file
            continue  # left with the id
        if copies is not None:
            copies.append(moved)
    return path


def log_event(mem: Memory, text: str, kind: str = "note", *, tags=None, source: str = "user",
              time: datetime | None = None, event_id: str | None = None,
              session: str | None = None, redact: bool | None = None) -> JournalEvent:
    """Append one L3 event to today's journal."""
    text = (text or "").strip()
    if not text:
        raise LorestackError("nothing to log: give the event text")
    mem.check_input(text, where="event text")
    journal = mem.require_project().journal
    event = JournalEvent.model_validate(dict(
        text=mem.guard(text, redact=redact, where="event text"), kind=kind,
        tags=[mem.guard(t, redact=redact, where="tags") for t in (tags or [])],
        source=source, time=time or now_utc(), session=session,
        **({"id": event_id} if event_id else {}),
    ))
    journal.append(event)
    return event

