"""The pages' writes: edit or archive an item, accept or reject pending claims, re-run doctor.

Archiving and review go through the application layer as the CLI and MCP do (the store, its
locks, atomic writes and checksum check); an edit through the store the CLI uses,
after the secret guard. Each form carries the checksum of the file as the page showed it, so
a hand edit made in between is reported and nothing is overwritten.
"""

from __future__ import annotations

from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request

from lorestack.core.errors import ConcurrentEdit, InputRejected, LorestackError, SecretDetected
from lorestack.integrations.viewer.app import redirect, render
from lorestack.integrations.viewer.state import ViewerState
from lorestack.memory_layers.input_check import check_input_text
from lorestack.memory_layers.sealed_names import seal, seal_path

SPECIAL_IDS = ("project", "profile")


def _state(request: Request) -> ViewerState:
    state: ViewerState = request.app.state.viewer
    state.inventory.refresh()
    return state


async def _form(request: Request) -> dict[str, list[str]]:
    form = await request.form()
    out: dict[str, list[str]] = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            out.setdefault(key, []).append(value)
    return out


def _one(form: dict[str, list[str]], key: str, default: str = "") -> str:
    values = form.get(key)
    return values[0] if values else default


# ---- items ---------------------------------------------------------------------------------
async def edit_item(request: Request):
    form = await _form(request)
    return await run_in_threadpool(_edit, request, form)


def _summary(state: ViewerState, item_id: str):
    from lorestack.integrations.viewer.item_pages import find_summary

    summary = find_summary(state, item_id)
    if summary is None:
        # a raw id typed into the address is told sealed, as the pages name it
        threshold = state.mem.settings.guard.entropy_threshold
        raise HTTPException(404, f"no memory item with id '{seal(item_id, threshold)}'")
    return summary


def _sealed_path(state: ViewerState, path) -> str:
    """A file's path as the pages show it: a name typed around a key, sealed."""
    return seal_path(str(path), state.mem.settings.guard.entropy_threshold)


def _edit(request: Request, form: dict[str, list[str]]):
    from lorestack.integrations.viewer.pages import load_current
    from lorestack.memory_layers.models import MemoryItem
    from lorestack.memory_layers.store import LoadedItem

    state = _state(request)
    summary = _summary(state, request.path_params["item_id"])
    item_id = summary.id  # as the pages print it, whatever name the address used
    current = load_current(state, summary)
    if current.item.status == "archived":
        raise LorestackError(f"'{item_id}' is archived; archived items are kept as they were")
    expected = _one(form, "checksum")
    title = _one(form, "title").strip()
    body = _one(form, "body").replace("\r\n", "\n")
    tags = [t.strip() for t in _one(form, "tags").split(",") if t.strip()]
    redact = _one(form, "redact") == "1"
    values = {"title": title, "body": body, "tags": ", ".join(tags), "checksum": expected}
    if expected != current.checksum:
        return _item_again(request, summary, current, values, conflict=True)
    if not title:
        return _item_again(request, summary, current, values, error="the title cannot be empty")
    try:
        # as `remember` refuses them: a NUL byte would save a file every reader skips as
        # binary (no size limit here: a long item written by hand stays editable)
        for text, where in ((title, "the title"), (body, "the text")):
            check_input_text(text, where=where)
        data = current.item.frontmatter()
        data.update(
            title=state.mem.guard(title, redact=redact, where="title"),
            tags=[state.mem.guard(t, redact=redact, where="tags") for t in tags],
        )
        new = MemoryItem.model_validate({**data, **(current.item.model_extra or {})})
        new.body = state.mem.guard(body, redact=redact, where="text")
        store = state.mem.store_for("global" if summary.scope == "global" else "project")
        store.update(LoadedItem(current.item, current.path, expected), new)
    except ConcurrentEdit:
        return _item_again(request, summary, load_current(state, summary), values, conflict=True)
    except SecretDetected as exc:  # the form's checkbox, not the CLI's --redact
        error = f'{exc.refusal()} Remove it, or tick "store secrets redacted" and save again.'
        return _item_again(request, summary, current, values, error=error, status=422)
    except InputRejected as exc:
        return _item_again(request, summary, current, values, error=str(exc), status=422)
    state.inventory.refresh(paths=[current.path])
    return redirect(request, f"/items/{item_id}", f"saved {item_id} ({current.path.name})")


def _item_again(
    request: Request,
    summary,
    current,
    values: dict,
    *,
    conflict: bool = False,
    error: str = "",
    status: int | None = None,
):
    """The item page again, with what was typed kept and the reason it was not saved."""
    message = error or (
        f"{current.path} changed on disk since this page was shown (edited by hand or by "
        "another process). Nothing was overwritten: the page now shows the file as it is; "
        "your text is kept in the form so you can apply it again."
    )
    return _rerender_item(
        request, _state(request), summary, values, message, status or (409 if conflict else 400)
    )


def _rerender_item(request, state, summary, values, message, status):
    from lorestack.integrations.viewer import pages

    context = pages.item_context(request, summary)
    context.update(conflict=message, form=values)
    return render(request, "item.html", status=status, active="items", **context)


async def archive_item(request: Request):
    form = await _form(request)
    return await run_in_threadpool(_archive, request, form)


def _archive(request: Request, form: dict[str, list[str]]):
    from lorestack.integrations.viewer.pages import load_current

    state = _state(request)
    summary = _summary(state, request.path_params["item_id"])
    item_id = summary.id  # as the pages print it, whatever name the address used
    current = load_current(state, summary)
    reason = _one(form, "reason").strip()
    expected = _one(form, "checksum")
    values = {"checksum": expected, "reason": reason}
    if item_id in SPECIAL_IDS:
        raise LorestackError(f"{current.path.name} is the identity card/profile; edit it instead")
    if current.item.status == "archived":
        raise LorestackError(f"'{item_id}' is already archived ({_sealed_path(state, current.path)})")
    if not reason:
        return _rerender_item(
            request,
            state,
            summary,
            values,
            "say why: a reason is required so the archive explains itself",
            400,
        )
    if expected != current.checksum:
        return _rerender_item(
            request,
            state,
            summary,
            values,
            f"{_sealed_path(state, current.path)} changed on disk since this page was shown; "
            "nothing was archived. Look at it again first.",
            409,
        )
    from lorestack.app.models import ChangeRequest
    from lorestack.app.opening import given
    from lorestack.app.writing import change
    from lorestack.memory_layers.sealed_names import unseal_path

    try:  # `lorestack forget ID --reason …`, as the CLI and MCP do it
        archived = str(change(ChangeRequest(action="forget", id=item_id, reason=reason),
                              given(state.mem)).archived)
    except ConcurrentEdit as exc:
        return _rerender_item(request, state, summary, values, str(exc), 409)
    # sealed when the file is named after a key: shown so, refreshed by its real path
    target = Path(unseal_path(archived))
    state.inventory.refresh(paths=[current.path, target])
    return redirect(request, f"/items/{item_id}", f"archived {item_id} to {archived}")


# ---- review --------------------------------------------------------------------------------
async def review(request: Request):
    form = await _form(request)
    return await run_in_threadpool(_review, request, form)


def _review(request: Request, form: dict[str, list[str]]):
    from lorestack.integrations.viewer.review import pending_claims
    from lorestack.memory_layers.fsutil import file_checksum

    state = _state(request)
    if _one(form, "accept_one"):
        action, chosen = "accept", [_one(form, "accept_one")]
    elif _one(form, "reject_one"):
        action, chosen = "reject", [_one(form, "reject_one")]
    else:
        action, chosen = _one(form, "action"), form.get("ids", [])
    if action not in ("accept", "reject"):
        raise LorestackError("choose accept or reject")
    if not chosen:
        return redirect(request, "/review", "nothing selected: tick the claims first")
    pending = {p.id: p for p in pending_claims(state)}
    missing = [i for i in chosen if i not in pending]
    stale = [
        i
        for i in chosen
        if i in pending and file_checksum(pending[i].path) != _one(form, f"sum_{i}")
    ]
    ready = [i for i in chosen if i in pending and i not in stale]
    lines = []
    if ready:
        from lorestack.app.models import ReviewRequest
        from lorestack.app.opening import given
        from lorestack.app.upkeep import review as app_review

        single = chosen[0] if len(chosen) == 1 else ""
        reason = ((_one(form, f"reason_{single}") if single else "") or _one(form, "reason")
                  if action == "reject" else "")
        answer = app_review(ReviewRequest(action="accept" if action == "accept" else "reject",
                                          ids=ready, reason=reason),
                            given(state.mem))
        result = answer.result or {}
        lines += [f"accepted {i}" for i in result.get("accepted", [])]
        lines += [f"archived {i} (replaced)" for i in result.get("archived", [])]
        lines += [f"rejected {i} (archived)" for i in result.get("rejected", [])]
        lines += [f"note: {n}" for n in result.get("notes", [])]
    lines += [f"{i} is no longer pending (already reviewed?)" for i in missing]
    lines += [
        f"{i} changed on disk since the page was shown; nothing done, look at it again"
        for i in stale
    ]
    state.inventory.refresh(paths=[pending[i].path for i in ready])
    return redirect(request, "/review", "; ".join(lines))


# ---- doctor --------------------------------------------------------------------------------
async def rerun_doctor(request: Request):
    started = _state(request).start_doctor()
    return redirect(request, "/", "doctor started" if started else "doctor is already running")
