"""Change a stored criterion's decidable form: `lorestack criteria edit ID`, and accept a
drafted one as shown: `lorestack criteria confirm ID`.

A draft read from the sentence is a guess and never blocks; terms the person typed, edited
or confirmed are theirs and decide (block or warn as the criterion says).

Only the parts given change; `redraft` reads the sentence again (the rules' draft, or the
LLM's when configured) and `clear_terms` drops forbid/require/unless (and the drafted
alternatives) so `check` reads the sentence itself at check time. Writes go through the
store's lock and checksum (a file edited meanwhile is never overwritten) and through the
secret guard, like `remember`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lorestack.core.errors import LorestackError
from lorestack.guardrail.drafting import DraftResult, draft_criterion

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import MemoryItem


@dataclass
class EditedCriterion:
    item: MemoryItem
    path: Path
    draft: DraftResult | None = None


def edit_criterion(
    mem: Memory,
    item_id: str,
    *,
    keywords: list[str] | None = None,
    paths: list[str] | None = None,
    topics: list[str] | None = None,
    forbid: list[str] | None = None,
    require: list[str] | None = None,
    unless: list[str] | None = None,
    verdict: str | None = None,
    rationale: str | None = None,
    redraft: bool = False,
    clear_terms: bool = False,
) -> EditedCriterion:
    """Apply the given changes (None = keep) to criterion `item_id` and save it."""
    from lorestack.memory_layers.operations import _guard_item

    loaded = mem.get(item_id)
    item = loaded.item.model_copy(deep=True)
    if item.type != "criterion" or item.criterion is None:
        raise LorestackError(f"'{item_id}' is a {item.type}, not a criterion")
    spec = item.criterion
    if clear_terms or redraft:
        # alternatives are only ever drafted: the old reading's go with it
        spec.forbid, spec.require, spec.unless, spec.alternatives = [], [], [], []
    a = spec.applies_to
    a.keywords = list(keywords) if keywords is not None else a.keywords
    a.paths = list(paths) if paths is not None else a.paths
    a.topics = list(topics) if topics is not None else a.topics
    spec.forbid = list(forbid) if forbid is not None else spec.forbid
    spec.require = list(require) if require is not None else spec.require
    spec.unless = list(unless) if unless is not None else spec.unless
    spec.verdict = verdict or spec.verdict  # type: ignore[assignment]
    spec.rationale = rationale if rationale is not None else spec.rationale
    drafted = None
    # the person chose the deciding terms: theirs now (a confirmed draft stays one); a
    # changed verdict, rationale or scope leaves a drafted reading a guess (eleventh
    # session: `--verdict block` alone made a guess block)
    if forbid is not None or require is not None or clear_terms:
        spec.drafted = "confirmed" if spec.drafted == "confirmed" else ""
    if redraft:
        drafted = draft_criterion(mem.settings, spec.condition or item.body, spec)
        item.criterion = spec = drafted.spec
    missing = spec.missing_parts()
    if missing:
        raise LorestackError(f"criterion {item_id} would not be decidable: missing {missing[0]}")
    if spec.blank_terms() or spec.regex_problems():
        raise LorestackError("; ".join(spec.blank_terms() or spec.regex_problems()))
    item = _guard_item(mem, item, None)
    mem.store_for(item.scope).update(loaded, item)
    return EditedCriterion(item, loaded.path, drafted)


def confirm_criterion(mem: Memory, item_id: str) -> EditedCriterion:
    """Accept criterion `item_id`'s drafted terms as they stand (a criterion stored without
    terms gets the rules' reading of its sentence). Raises when there is nothing to accept."""
    from lorestack.guardrail.drafting import draft_rules
    from lorestack.memory_layers.operations import _guard_item

    loaded = mem.get(item_id)
    item = loaded.item.model_copy(deep=True)
    if item.type != "criterion" or item.criterion is None:
        raise LorestackError(f"'{item_id}' is a {item.type}, not a criterion")
    spec = item.criterion
    drafted = None
    if not (spec.forbid or spec.require):
        drafted = draft_rules(spec.condition or item.body, spec)
        spec = drafted.spec
    if not (spec.forbid or spec.require):
        raise LorestackError(
            f"nothing to confirm: the rules read no forbidden or required terms from "
            f"'{item.title}'; give them with `lorestack criteria edit {item_id} --forbid …` "
            "(or configure an LLM to judge it)"
        )
    spec.drafted = "confirmed"
    item.criterion = spec
    item = _guard_item(mem, item, None)
    mem.store_for(item.scope).update(loaded, item)
    return EditedCriterion(item, loaded.path, drafted)
