"""Operations that read memory: list, show, search, context, and check (the guardrail's
verdict). What leaves the process is redacted: a secret typed into a file by hand is not
repeated."""

from __future__ import annotations

from lorestack.app.models import (
    CheckRequest,
    CheckResponse,
    ContextRequest,
    ContextResponse,
    ListRequest,
    ListResponse,
    SearchRequest,
    SearchResponse,
    ShowRequest,
    ShowResponse,
)
from lorestack.app.opening import Opener, jsonable, open_memory
from lorestack.memory_layers.secret_guard import redact_for_reading


def list_(request: ListRequest, opener: Opener = open_memory) -> ListResponse:
    """Items by type, layer and status, in layer order, oldest first (each in the one item
    shape, `app/item_json.py`)."""
    from lorestack.app.item_json import listed_item, named
    from lorestack.memory_layers.listing import display_status, list_items

    mem = opener(request.caller, True)
    include_events = request.type == "event" or request.layer == "L3"
    listing = list_items(mem, item_type=request.type, layer=request.layer,
                         status=None if request.status == "all" else request.status,
                         include_events=include_events, redact=True,
                         offset=request.offset, limit=request.limit)
    # `frontmatter()` is JSON already (one walk fewer per item: seconds at 10k items)
    threshold = mem.settings.guard.entropy_threshold
    rows = [{**listed_item(it, it.frontmatter(), str(listing.paths.get(it.id, ""))),
             "shown_status": display_status(it)}
            for it in listing.items]
    if listing.named:  # an id or file name holding a key (typed by hand) is shown redacted
        rows = [named(r, threshold) if r["id"] in listing.named else r for r in rows]
    return ListResponse(items=rows, total=listing.total,
                        problems=[str(p) for p in listing.problems if not _was_read(p, listing)],
                        notes=[str(p) for p in listing.problems if _was_read(p, listing)])


def _was_read(problem, listing) -> bool:
    """A note on a file listed all the same (read truncated, a day saved as UTF-16), not a
    file skipped."""
    return getattr(problem, "read", False) or str(getattr(problem, "path", "")) in listing.read


def show(request: ShowRequest, opener: Opener = open_memory) -> ShowResponse:
    """One item (with its file) or journal event, by full or short id."""
    from lorestack.memory_layers.listing import show as do_show
    from lorestack.memory_layers.models import JournalEvent

    mem = opener(request.caller, True)
    found = do_show(mem, request.id, redact=True)
    if isinstance(found, JournalEvent):
        return ShowResponse(kind="event", item=jsonable(found))
    from lorestack.app.item_json import named
    from lorestack.memory_layers.hand_edits import archived_in_live_folder, hidden_note
    from lorestack.memory_layers.sealed_names import sealed_line

    threshold = mem.settings.guard.entropy_threshold
    shown = named({"id": found.item.id, "path": str(found.path)}, threshold)
    notes = []  # what the body shown is not (all of the file), or why `list` leaves it out
    if found.note:
        notes.append(sealed_line(found.note, found.path, threshold) + " (the body shown is cut)")
    if archived_in_live_folder(mem, found.path, found.item):
        notes.append(hidden_note(shown["id"], found.path.parent.name))
    return ShowResponse(kind="item", item={**jsonable(found.item.frontmatter()),
                                           "body": found.item.body, "id": shown["id"]},
                        path=shown["path"], notes=notes)


def search(request: SearchRequest, opener: Opener = open_memory) -> SearchResponse:
    """Ranked items and events for the query (each in the one item shape, plus `score` and
    `explain`); k defaults to `retrieval.k`. With `about`, only what is anchored to that place
    (an empty query lists it)."""
    from lorestack.app.item_json import hit_item, named
    from lorestack.retrieval.index import search as run_search

    mem = opener(request.caller, False)
    warnings: list[str] = []
    k = request.k or mem.settings.retrieval.k
    threshold = mem.settings.guard.entropy_threshold
    anchored: set[str] | None = None
    if request.about:
        from lorestack.retrieval.about import anchored_to

        items = anchored_to(mem, request.about)
        if not request.query.strip() or request.query == "-":  # the place is the question
            return SearchResponse(hits=[], anchored=[named(
                {"id": i.id, "type": i.type, "title": redact_for_reading(i.title, threshold)[0],
                 "path": "", "anchors": [redact_for_reading(a, threshold)[0] for a in i.anchors],
                 "updated": i.updated.isoformat()}, threshold) for i in items])
        anchored = {i.id for i in items}
    hits = run_search(
        mem, request.query, k=k if anchored is None else max(k, 200),
        types=list(request.types) or None, layers=list(request.layers) or None,
        mode=request.mode, include_status=tuple(request.statuses) or ("active",),
        explain=request.explain,
    )
    if anchored is not None:
        hits = [h for h in hits if h.id in anchored][:k]
    from lorestack.retrieval.loader import unreadable_files

    warnings.extend(f"unreadable memory file skipped: {p}" for p in unreadable_files(mem)[:20])
    return SearchResponse(hits=[named(hit_item(jsonable(h.as_dict()), h.doc.tags), threshold)
                                for h in hits], warnings=warnings)


def context(request: ContextRequest, opener: Opener = open_memory) -> ContextResponse:
    """What a session would receive within the budget (default `loader.budget`)."""
    from lorestack.retrieval.loader import assemble_context

    mem = opener(request.caller, False)
    if request.about:
        from lorestack.retrieval.about import about_context

        budget = request.budget if request.budget is not None else mem.settings.loader.budget
        found = about_context(mem, request.about, budget)
        return ContextResponse(text=found.text, tokens=found.tokens, budget=budget,
                               encoding=mem.settings.tokens.encoding, ids=list(found.ids),
                               full_ids=list(found.ids), tiers={}, dropped=[],
                               about=found.path, left_out=list(found.left_out))
    result = assemble_context(mem, query=request.query, budget=request.budget,
                              tiers=tuple(request.tiers), recent=request.recent,
                              retrieval=request.mode)
    if mem.project is None:  # e.g. run outside the project, or before `lorestack init`
        where = request.caller.root or request.caller.cwd or "this folder"
        result.notes.insert(0, f"no project memory: no .memory/ in {where} or above (only the "
                               "global memory was read); run `lorestack init` in your project")
    return ContextResponse(
        text=result.text, tokens=result.tokens, budget=result.budget, encoding=result.encoding,
        ids=list(result.ids), full_ids=list(result.full_ids), tiers=jsonable(result.tiers),
        dropped=jsonable(result.dropped), notes=list(result.notes), overhead=result.overhead,
    )


def check(request: CheckRequest, opener: Opener = open_memory) -> CheckResponse:
    """Hold a proposal against the criteria; the guardrail's result and exit code unchanged."""
    from lorestack.guardrail.check import check as do_check
    from lorestack.guardrail.proposals import Proposal

    mem = opener(request.caller, True)
    proposal = (Proposal.model_validate(request.proposal) if request.proposal is not None else
                Proposal(source="text", text=request.text, label=request.label,
                         paths=list(request.paths)))
    result = do_check(mem, proposal, retrieval=request.retrieval, llm=request.llm)
    judge = None
    if result.undecided:
        from lorestack.guardrail.replies import judge_request

        judge = judge_request(result)
    return CheckResponse(result=result.model_dump(mode="json"),
                         exit_code=result.exit_code(request.strict), judge_request=judge)
