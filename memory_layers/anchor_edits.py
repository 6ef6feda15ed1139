"""Setting an item's anchors: for a new item (what `--about` names, or the paths and symbols
its text names), and later (accept that changed code leaves it true, pinning it to the code as
it is now and following a rename, or say which code it is about)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lorestack.memory_layers.anchor_paths import (
    about_form_error,
    defined_in,
    repo_path,
    without_call_parens,
)
from lorestack.memory_layers.anchors import (
    GREP_DEFINES,
    Anchor,
    AnchorError,
    AnchorIndex,
    index_for,
    parse,
)


def anchor_fields(mem, text: str, about: list[str] | None) -> dict:
    """`anchors`, `anchored` and `anchor_commit` for a new item: what `about` names, or what
    the text names that exists in the repository (proposed, and shown by the caller)."""
    index = index_for(mem)
    if index is None:
        return {}
    specs = _said_specs(mem, about, index.repo) if about is not None else index.propose(text)
    if not specs:
        return {}
    if about is not None:
        _refuse_missing(index, specs)
    fields = {"anchors": specs, **index.pin(specs)}
    index.save()
    return fields


def _said_specs(mem, about: list[str], repo: Path) -> list[str]:
    """The anchors as the user gave them, after the secret guard: a path or symbol is written
    into the item file like its text, and a redacted path names no code, so it is refused.
    Kept as repository paths (`/repo/src/a.py`, `src//a.py` are `src/a.py`): the pre-tool hook
    looks a file up by that path."""
    if any(not s.strip() for s in about):
        raise AnchorError("an empty --about: give a file, a glob or file:symbol in the repository")
    out = []
    for given in about:
        spec = without_call_parens(mem.guard(given, redact=False, where="about").strip())
        odd = about_form_error(spec, lambda name: defined_in(repo, GREP_DEFINES, name))
        if odd:
            raise AnchorError(odd)
        anchor = parse(spec)
        out.append(str(Anchor(repo_path(repo, anchor.path), anchor.symbol)))
    return out



def _refuse_missing(index: AnchorIndex, specs: list[str]) -> None:
    """An anchor names code that exists in the repository (a glob may match nothing yet)."""
    repo = os.path.normpath(index.repo)
    for spec in specs:
        anchor = parse(spec)
        # an anchor names the repository's own code, never a file outside it (`../`, `/etc/…`);
        # read as written, so a link inside the repository stays the repository's
        where = os.path.normpath(os.path.join(repo, anchor.path))
        if os.path.commonpath([repo, where]) != repo:
            raise AnchorError(f"{anchor.path} is outside the repository {index.repo}; an anchor "
                              "names a file in it (a path relative to its top)") from None
        if anchor.is_glob:
            continue
        found = index.fingerprint(anchor)
        if found is None and os.path.isdir(where) and not anchor.symbol:
            raise AnchorError(f"{anchor.path} is a folder; an anchor names a file, or a glob "
                              f"for what the folder holds: '{anchor.path}/**'")
        if found is None:
            raise AnchorError(f"{anchor.path}: no such file in {index.repo}; an anchor names an "
                              "existing file (a glob such as 'src/new/**' may match files to come)")
        if found == "":
            raise AnchorError(f"{anchor.path} defines no {anchor.symbol}; name the function, class "
                              "or constant as the file spells it")


def reanchor(mem, item_id: str, about: list[str] | None = None):
    """Pin an item to the code as it is now (accepting that the change leaves it true), or
    set what it is about (`about`; an empty list removes its anchors). Returns the item."""
    from lorestack.memory_layers.event_archive import item_not_event
    from lorestack.memory_layers.models import now_utc

    loaded = item_not_event(mem, item_id, "only memory items have anchors (`lorestack "
                            "remember … --about PATH` writes one)")
    if loaded.item.scope != "project":
        raise AnchorError(f"{loaded.item.id} is global memory: only project items have anchors")
    if loaded.item.status == "archived":  # nothing checks an archived item against the code
        by = loaded.item.superseded_by
        raise AnchorError(f"{loaded.item.id} is archived{f' (superseded by {by})' if by else ''}"
                          f", and only active items are checked against the code; anchor "
                          f"{by or 'an active item'}, or `lorestack restore {loaded.item.id}` "
                          "first")
    index = index_for(mem, look_again=True)
    if index is None:
        raise AnchorError("anchors need a project memory (`lorestack init` in the repository)")
    item = loaded.item.model_copy(deep=True)
    item.body = loaded.item.body
    specs = list(item.anchors) if about is None else _said_specs(mem, about, index.repo)
    if about is None and not specs:
        raise AnchorError(f"{item.id} has no anchors; give them with --about PATH[:SYMBOL]")
    if about is None:  # accepting: a renamed file is pinned under its new name
        commit = str((item.model_extra or {}).get("anchor_commit") or "")
        pinned = dict((item.model_extra or {}).get("anchored") or {})
        # read as repository paths (an item from before they were kept so), written so now
        specs = [_follow_rename(index, str(index.anchor(spec)), commit,
                                str(pinned.get(str(index.anchor(spec))) or pinned.get(spec) or ""))
                 for spec in specs]
        _refuse_gone(index, item.id, specs, mem.settings.guard.entropy_threshold)
    if about:
        _refuse_missing(index, specs)
    fields = index.pin(specs) if specs else {"anchored": {}}
    item.anchors = specs
    for key, value in fields.items():
        setattr(item, key, value)
    if not specs and item.model_extra:
        item.model_extra.pop("anchor_commit", None)
    item.updated = now_utc()
    mem.store_for(item.scope).update(loaded, item)
    index.save()
    return item


def _follow_rename(index: AnchorIndex, spec: str, commit: str, then: str = "") -> str:
    """`spec` with its file's new name when git saw it renamed since `commit` (or, that commit
    gone from the history, a tracked file holds the pinned content `then`), or with the file
    its symbol moved to, else as is."""
    anchor = parse(spec)
    now = None if anchor.is_glob else index.fingerprint(anchor)
    if anchor.is_glob or now:
        return spec
    if now == "":  # the file is there, the symbol is not: it may have moved to another file
        moved = index.symbol_moved(anchor, then)
    else:
        moved = index._renamed(anchor.path, commit, then, anchor.symbol)
    return str(Anchor(moved, anchor.symbol)) if moved else spec


def _refuse_gone(index: AnchorIndex, item_id: str, specs: list[str], threshold: float) -> None:
    """Accepting pins an item to code that is there: to a deleted file (not renamed) or a
    removed symbol it would say "re-anchored" and leave the item "may be stale" for good.
    The message names the anchor and the id as everything prints them: a key typed into them
    by hand redacted (the id sealed)."""
    from lorestack.memory_layers.sealed_names import seal
    from lorestack.memory_layers.secret_guard import redact_for_reading

    item_id = seal(item_id, threshold)
    for spec in specs:
        anchor = parse(spec)
        found = None if anchor.is_glob else index.fingerprint(anchor)
        if anchor.is_glob or found:
            continue
        where = redact_for_reading(anchor.path, threshold)[0]
        what = f"{where} is gone" if found is None else \
            f"{where} defines no {anchor.symbol} any more"
        raise AnchorError(
            f"{item_id}: {what}, so there is no code to pin it to; nothing was changed. Say where "
            f"that code went (`lorestack anchors set {item_id} --about PATH[:SYMBOL]`) or, if "
            f"the item is no longer about code, `lorestack anchors set {item_id} --clear`")


@dataclass
class OldFormAnchors:
    """An item whose file keeps anchors as written before they were stored as repository
    paths (`/repo/src/a.py`, `src//a.py`): read right everywhere, but not what the file says."""

    item_id: str
    renames: list[tuple[str, str]]  # (as the file has it, as a repository path)
    rewritten: bool = False


def old_form_anchors(mem, rewrite: bool = False) -> list[OldFormAnchors]:
    """The project items with anchors in the old form; with `rewrite`, each is written with
    repository paths (its anchors and the names its fingerprints are pinned under). The
    fingerprints and commit are kept, so nothing is accepted: changed code stays stale."""
    index = index_for(mem)
    if index is None:
        return []
    store = mem.require_project().store
    found = []
    # active items only: an archived one's anchors are never checked (`anchors set` refuses
    # it), and its file is the record of what was forgotten or superseded
    for loaded in store.load_all(include_archived=False).items:
        item = loaded.item
        renames = [(spec, str(index.anchor(spec))) for spec in item.anchors]
        renames = [(old, new) for old, new in renames if old != new]
        if not renames:
            continue
        one = OldFormAnchors(item.id, renames)
        found.append(one)
        if rewrite:
            new = item.model_copy(deep=True)
            new.body = item.body
            new.anchors = list(dict.fromkeys(str(index.anchor(s)) for s in item.anchors))
            pinned = dict((item.model_extra or {}).get("anchored") or {})
            new.anchored = {str(index.anchor(k)): v for k, v in pinned.items()}
            store.replace(loaded.path, new, loaded.checksum)  # a form, not a change: same date
            one.rewritten = True
    return found
