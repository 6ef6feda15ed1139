"""The loader's invariants, for random stores and budgets from 0 to 20k tokens.

Counted independently with tiktoken: the context never exceeds the budget; the resident tier
comes first; no id appears twice; every item shown is shown whole (its whole text is there).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lorestack.retrieval.hits import LightHit
from lorestack.retrieval.tokens import ensure_offline_cache

ensure_offline_cache()
ENC = tiktoken.get_encoding("cl100k_base")
NOW = datetime(2025, 3, 14, 12, 0, tzinfo=timezone.utc)
CATALOG = re.compile(r"^- (\S+) · ", re.MULTILINE)

# bodies that stress the block rules: fences, slashes, odd whitespace, CJK, emoji, CRLF
pieces = st.sampled_from([
    "word", "/api/v1/users", "~~~~", "~~~~~~ inner fence", "```py", "  indented", "\t", "\r\n",
    "\n\n", "naïve", "日本語のテキスト", "🙂", "'s", "x = 1;", "#", "- bullet", " ", "...",
    "ABCdefGHI", "12345678", "\u00a0", "\u2028", "end.", "/", "###", "conf 1.00",
])
body_text = st.lists(pieces, min_size=0, max_size=40).map("".join)
titles = st.lists(st.sampled_from(["Use", "Redis", "never", "/tmp", "日本", "fix", "auth", "v2"]),
                  min_size=1, max_size=6).map(" ".join)
item_spec = st.tuples(st.sampled_from(["fact", "decision", "caveat", "preference", "criterion"]),
                      titles, body_text, st.floats(0, 1), st.integers(0, 400),
                      st.sampled_from(["project", "global"]), st.integers(1, 30))
event_spec = st.tuples(st.sampled_from(["progress", "todo", "blocker", "note", "rejected"]),
                       body_text.filter(lambda t: t.strip()), st.integers(0, 20))
tier_sets = st.sampled_from([("resident", "catalog", "topk"), ("resident",), ("catalog",),
                             ("topk",), ("resident", "topk"), ("catalog", "topk")])


def _build(root: Path, items, events):
    from lorestack.memory_layers.journal import render_event
    from lorestack.memory_layers.markdown import serialize_item
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import (
        TYPE_FOLDERS,
        AppliesTo,
        CriterionSpec,
        JournalEvent,
        MemoryItem,
        new_id,
    )

    Memory.init(root)
    Memory.init(root, global_=True, home=root / "home")
    mem = Memory.open(root, home=root / "home")
    ids = []
    for n, (kind, title, body, importance, age, scope, repeat) in enumerate(items):
        crit = (CriterionSpec(applies_to=AppliesTo(keywords=["x"]), condition="c", verdict="block")
                if kind == "criterion" else None)
        when = NOW - timedelta(days=age)
        item = MemoryItem(id=new_id(kind), type=kind, title=f"{title} {n}", body=body * repeat,
                          importance=importance, created=when, updated=when,
                          criterion=crit, scope=scope)
        # plain writes (the store's fsync per file would dominate the test's runtime)
        base = (root / "home") if scope == "global" else (root / ".memory")
        folder = base / TYPE_FOLDERS[kind]
        (folder / f"item-{n}.md").write_text(serialize_item(item), "utf-8")
        ids.append(item.id)
    event_ids = []
    for kind, text, age in events:
        event = JournalEvent(kind=kind, text=text, time=NOW - timedelta(days=age, minutes=1))
        with open(mem.journal.day_file(event.time.date()), "a", encoding="utf-8") as fh:
            fh.write(render_event(event))
        event_ids.append((event.id, event.time))
    return Memory.open(root, home=root / "home"), ids, event_ids


@pytest.mark.slow  # 60 generated stores
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(items=st.lists(item_spec, max_size=12), events=st.lists(event_spec, max_size=8),
       budget=st.integers(0, 20000), tiers=tier_sets, data=st.data())
def test_context_never_exceeds_budget_and_shows_whole_items(items, events, budget, tiers, data):
    from lorestack.memory_layers.journal import Journal
    from lorestack.retrieval.loader import assemble_context
    from lorestack.retrieval.render_context import item_body, normalise_block, short_id

    root = Path(tempfile.mkdtemp(prefix="loader-prop-"))
    try:
        mem, ids, event_ids = _build(root, items, events)
        pool = [LightHit(i, "fact") for i in ids]
        pool += [LightHit(e, "event", None, t) for e, t in event_ids]
        hits = data.draw(st.lists(st.sampled_from(pool), max_size=10)) if pool else []
        exclude = data.draw(st.lists(st.sampled_from(ids), max_size=3)) if ids else []
        first = assemble_context(mem, budget=budget, tiers=tiers, hits=hits,
                                 exclude_ids=exclude, retrieval="none", now=NOW)
        # the second run counts nothing afresh: only cached per-block counts, summed
        result = assemble_context(mem, budget=budget, tiers=tiers, hits=hits,
                                  exclude_ids=exclude, retrieval="none", now=NOW)
        assert result.cache_warm
        assert result.text == first.text
        text = result.text
        exact = len(ENC.encode(text, disallowed_special=()))
        assert exact <= budget
        assert result.tokens == exact
        # the per-block sums were exact: no safety-net trimming was needed
        assert not any("differed" in n for n in first.notes)
        assert not any(d.reason.startswith("trimmed") for d in first.dropped)

        # sections in order: resident, catalog, top-k
        positions = [text.find(h) for h in ("\n## Resident", "\n## Catalog", "\n## Recent")]
        present = [p for p in positions if p >= 0]
        assert present == sorted(present)

        # no id twice (item lines and catalog lines together), excluded ids never shown
        by_path = {}
        for li in [*mem.project_store.load_all(False).items, *mem.global_store.load_all(False).items]:
            by_path[li.path.as_posix()] = li.item.id
            by_path[li.path.relative_to(root).as_posix()] = li.item.id
        listed = [by_path.get(p, p) for p in CATALOG.findall(text)]
        assert len(listed) == len(set(listed))
        assert not set(listed) & set(result.full_ids)
        assert len(result.full_ids) == len(set(result.full_ids))
        loaded = {li.item.id: li.item for li in mem.load_items(include_archived=False).items}
        events_by_id = {e.id: e for e in Journal(mem.project).read_all().events}
        for item_id in result.full_ids:  # items and todos carry their short id, once
            event = events_by_id.get(item_id)
            if item_id in ("project", "profile") or (event and event.kind not in ("todo", "blocker")):
                continue
            assert len(re.findall(rf"~{re.escape(short_id(item_id))}\b", text)) == 1, item_id
        assert not set(exclude) & {*listed, *result.full_ids}

        # whole items only: each shown item's (or event's) full text is in the context
        flat = " ".join(text.split())
        for item_id in result.full_ids:
            if item_id in loaded:
                expected = item_body(loaded[item_id])
            else:
                expected = normalise_block(events_by_id[item_id].text)
            assert " ".join(expected.split()) in flat, item_id
        assert set(result.ids) == {*result.full_ids, *listed}
    finally:
        shutil.rmtree(root, ignore_errors=True)
