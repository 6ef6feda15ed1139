"""Session start without a query: remembered items before a busy day's routine lines."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

FACTS = [
    "The API is served by FastAPI 0.110 behind nginx",
    "Postgres 16 is the primary database, on port 5433",
    "CI runs on GitHub Actions with a self-hosted runner",
    "The mobile client talks to /api/v2 only",
]
RULE = "Don't add new runtime dependencies without discussing it first"


def _busy_day(mem, now):
    """17 remembered items and 40 routine events logged the same day."""
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec, JournalEvent
    from lorestack.memory_layers.operations import remember

    for text in FACTS:
        remember(mem, text, "fact")
    for text in ("Never deploy on Fridays after 3pm", "Do not edit generated protobuf files",
                 "The staging DB is shared with QA: never truncate tables"):
        remember(mem, text, "caveat")
    for text, keyword in ((RULE, "dependency"),
                          ("Prefer small pull requests under 400 lines", "pull request"),
                          ("Every public endpoint needs an integration test", "endpoint")):
        remember(mem, text, "criterion", criterion=CriterionSpec(
            applies_to=AppliesTo(keywords=[keyword]), condition=text, verdict="warn"))
    for text in ("We chose Redis streams over RabbitMQ for the job queue",
                 "Auth tokens are JWT signed with RS256", "Feature flags live in LaunchDarkly",
                 "Logs are shipped with vector to Loki"):
        remember(mem, text, "decision")
    for text in ("Use British spelling in user-facing text",
                 "Answer with code first, then a short explanation",
                 "Keep commit messages in the imperative"):
        remember(mem, text, "preference")
    start = now.replace(hour=8, minute=0)
    events = [JournalEvent(text=f"ran the test suite: {200 + n} passed, 0 failed in {30 + n}s",
                           time=start + timedelta(minutes=10 * n), kind="progress")
              for n in range(20)]
    events += [JournalEvent(text=f"edited src/app/routes_{n}.py and re-ran the linter",
                            time=start + timedelta(minutes=10 * n + 5), kind="note")
               for n in range(20)]
    events.append(JournalEvent(text="blocked: the staging certificate expired",
                               time=start + timedelta(minutes=3), kind="blocker"))
    mem.journal.append_many(events)


def test_a_busy_day_does_not_push_remembered_facts_out(mem):
    from lorestack.retrieval.loader import assemble_context

    now = datetime(2026, 3, 4, 17, 0, tzinfo=timezone.utc)
    _busy_day(mem, now)
    result = assemble_context(mem, query=None, budget=900, now=now, sync=False)
    assert result.tokens <= 900
    for fact in FACTS:
        assert f"- {fact} ~" in result.text, (fact, result.dropped)
    # the day is summarised: its notable event and newest routine lines, and how many others
    assert "blocked: the staging certificate expired" in result.text
    assert "routes_19.py" in result.text
    assert "routes_3.py " not in result.text
    assert "earlier routine events not shown (" in result.text
    # remembered items come before the day's log
    assert result.text.index(FACTS[0]) < result.text.index("routes_19.py")


def test_a_criterion_that_is_its_own_condition_is_written_once(mem):
    from lorestack.retrieval.loader import assemble_context

    now = datetime(2026, 3, 4, 17, 0, tzinfo=timezone.utc)
    _busy_day(mem, now)
    result = assemble_context(mem, query=None, budget=2000, now=now, sync=False)
    assert result.text.count(RULE) == 1
    assert "applies to: keyword dependency" in result.text
