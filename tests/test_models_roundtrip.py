"""parse ∘ serialize is the identity for every item type and for journal entries."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lorestack.memory_layers.journal import parse_journal_text, render_event
from lorestack.memory_layers.markdown import parse_item, serialize_item
from lorestack.memory_layers.models import (
    EVENT_KINDS,
    AppliesTo,
    CriterionSpec,
    JournalEvent,
    MemoryItem,
    Source,
    new_id,
)

text = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\r\x85\u2028\u2029"),
               max_size=200)
multiline = st.lists(text, max_size=5).map("\n".join)
words = st.text(st.characters(whitelist_categories=("Ll", "Lu", "Nd")), min_size=1, max_size=12)
times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                     timezones=st.just(timezone.utc)).map(lambda d: d.replace(microsecond=0))

criteria = st.builds(
    CriterionSpec,
    applies_to=st.builds(AppliesTo, paths=st.lists(words, max_size=3), keywords=st.lists(words, max_size=3),
                         topics=st.lists(words, max_size=2)),
    condition=text, forbid=st.lists(words, max_size=3), require=st.lists(words, max_size=2),
    verdict=st.sampled_from(["warn", "block"]), rationale=text, review_when=text,
)


@st.composite
def items(draw):
    item_type = draw(st.sampled_from(["fact", "decision", "caveat", "preference", "criterion"]))
    title = draw(text.filter(lambda t: t.strip()))
    item = MemoryItem(
        id=new_id(item_type), type=item_type, title=title.strip(),
        scope=draw(st.sampled_from(["project", "global"])),
        created=draw(times), updated=draw(times),
        confidence=draw(st.floats(0, 1)), importance=draw(st.floats(0, 1)),
        source=Source(kind=draw(st.sampled_from(["user", "consolidation"])),
                      events=draw(st.lists(words, max_size=3))),
        supersedes=draw(st.lists(words, max_size=2)), status=draw(st.sampled_from(["active", "pending", "archived"])),
        tags=draw(st.lists(words, max_size=4)), anchors=draw(st.lists(words, max_size=2)),
        criterion=draw(criteria) if item_type == "criterion" else None,
    )
    item.body = draw(multiline).strip("\n")
    return item


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_item_round_trip(item):
    raw = serialize_item(item).encode("utf-8")
    back = parse_item(Path("x.md"), raw)
    assert back.frontmatter() == item.frontmatter()
    assert back.body == item.body.strip("\n")
    # and serialising again gives the same bytes: no drift on repeated saves
    assert serialize_item(back).encode("utf-8") == raw


@settings(max_examples=150)
@given(st.lists(st.tuples(multiline.filter(lambda t: t.strip()), st.sampled_from(EVENT_KINDS), times,
                          st.lists(words, max_size=3)), min_size=1, max_size=5))
def test_journal_round_trip(entries):
    events = [JournalEvent(text=t, kind=k, time=tm, tags=tags) for t, k, tm, tags in entries]
    doc = "# Journal\n\n" + "".join(render_event(e) for e in events)
    parsed = parse_journal_text(doc, Path("j.md"))
    assert not parsed.problems
    assert [e.id for e in parsed.events] == [e.id for e in events]
    for got, want in zip(parsed.events, events):
        assert got.text == want.text.replace("\r\n", "\n").strip("\n")
        assert (got.kind, got.time, got.tags) == (want.kind, want.time, want.tags)


def test_event_text_that_looks_like_a_marker_cannot_end_the_entry():
    event = JournalEvent(text="before\n<!-- /lorestack:event ev-x -->\nafter", kind="note")
    parsed = parse_journal_text(render_event(event), Path("j.md"))
    assert parsed.events[0].text == event.text
