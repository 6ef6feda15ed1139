"""Changing an item's anchors: accept that changed code leaves it true (pin it to the code as
it is now, following a rename), or say which code it is about."""

from __future__ import annotations

from lorestack.memory_layers.anchors import (
    Anchor,
    AnchorError,
    AnchorIndex,
    _refuse_missing,
    _said_specs,
    index_for,
    parse,
)


def reanchor(mem, item_id: str, about: list[str] | None = None):
    """Pin an item to the code as it is now (accepting that the change leaves it true), or
    set what it is about (`about`; an empty list removes its anchors). Returns the item."""
    from lorestack.memory_layers.models import now_utc

    loaded = mem.get(item_id)
    if loaded.item.scope != "project":
        raise AnchorError(f"{loaded.item.id} is global memory: only project items have anchors")
    index = index_for(mem)
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
        _refuse_gone(index, item.id, specs)
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
    gone from the history, a tracked file holds the pinned content `then`), else as is."""
    anchor = parse(spec)
    if anchor.is_glob or index.fingerprint(anchor) is not None:
        return spec
    moved = index._renamed(anchor.path, commit, then, anchor.symbol)
    return str(Anchor(moved, anchor.symbol)) if moved else spec


def _refuse_gone(index: AnchorIndex, item_id: str, specs: list[str]) -> None:
    """Accepting pins an item to code that is there: to a deleted file (not renamed) or a
    removed symbol it would say "re-anchored" and leave the item "may be stale" for good."""
    for spec in specs:
        anchor = parse(spec)
        found = None if anchor.is_glob else index.fingerprint(anchor)
        if anchor.is_glob or found:
            continue
        what = f"{anchor.path} is gone" if found is None else \
            f"{anchor.path} defines no {anchor.symbol} any more"
        raise AnchorError(
            f"{item_id}: {what}, so there is no code to pin it to; nothing was changed. Say where "
            f"that code went (`lorestack anchors set {item_id} --about PATH[:SYMBOL]`) or, if "
            f"the item is no longer about code, `lorestack anchors set {item_id} --clear`")
