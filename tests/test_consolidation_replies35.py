"""A model that answers badly, a provider that turns calls away, and a journal merged with
its conflict unresolved, as a consolidation run meets them (litellm's real HTTP path to a
scripted server on 127.0.0.1)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.consolidation.checkpoint import Checkpoint
from lorestack.consolidation.job import run_consolidation
from tests.test_consolidation import BASE, SEED, items_by_id, seed
from tests.test_consolidation_llm import EVENT_ID, ONE, _prompt, direct_mem, responder

KEY = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"


def _leaky(request: dict) -> str:
    """A model that repeats a key: in a claim, in a skip reason, as a cited event id."""
    prompt = _prompt(request)
    events = EVENT_ID.findall(prompt)
    shown = prompt.split("Existing items")[0]
    if "tailwind" in shown:
        return json.dumps({"skip": True, "reason": f"the key {KEY} is no fact"})
    if "Redis" in shown:
        return json.dumps({"claim": "The job queue moved to Redis streams.",
                           "cited_events": [KEY]})
    return json.dumps({"claim": f"Deploys authenticate to the queue with {KEY} always.",
                       "title": f"Queue key {KEY}", "type": "fact", "confidence": 0.8,
                       "cited_events": events})


def test_a_key_the_model_repeats_reaches_no_report_and_no_file(repo, fake_llm):
    """Before: the claim's file was redacted, but the report (stdout, --json, the cron log)
    printed the claim's title with the key, and the plan file under .memory/.index held it
    until the step was applied; a skip reason or cited id carrying a key was printed too."""
    fake_llm(responder=_leaky)
    seed(direct_mem(repo))
    result = CliRunner().invoke(cli, ["consolidate", "--json", "--no-commit"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["added"] or report["proposed"], report["steps"]
    assert any("no fact" in s["reason"] for s in report["skipped"]), report["skipped"]
    assert any("unknown event ids" in s["reason"] for s in report["skipped"]), report["skipped"]
    assert KEY[:16] not in result.output and "[REDACTED" in result.output
    for path in (repo / ".memory").rglob("*"):
        if path.is_file():
            assert KEY[:16].encode() not in path.read_bytes(), path


def test_half_a_surrogate_pair_in_a_reply_is_replaced_not_a_crash(repo, fake_llm):
    """Before: a reply whose JSON escaped half an emoji (`\\ud83d`) ended the whole run with
    'unexpected TypeError: TextEncodeInput must be …' (the tokenizer), nothing consolidated."""
    fake_llm(responder=lambda request: json.dumps({
        "claim": "The job queue runs on PostgreSQL \\ud83d for now.", "type": "decision",
        "title": "Queue \\udcff on PostgreSQL", "cited_events": EVENT_ID.findall(_prompt(request))
    }).replace("\\\\u", "\\u"))
    mem = direct_mem(repo)
    seed(mem, rows=ONE)
    report = run_consolidation(mem, now=BASE + timedelta(days=1))
    items = list(items_by_id(mem).values())
    assert report.added and len(items) == 1
    assert "The job queue runs on PostgreSQL \ufffd for now." in items[0].body
    assert "\ufffd" in items[0].title


def test_a_reply_of_pages_is_no_claim(repo, fake_llm):
    """Before: a model answering a 500 kB 'claim' got it written as an item, a file past
    limits.max_file_bytes that every later merge into it skipped ('will not rewrite it')."""
    server = fake_llm(responder=lambda request: json.dumps({
        "claim": "The queue " + "is fast " * 60_000, "type": "fact",
        "cited_events": EVENT_ID.findall(_prompt(request))}))
    mem = direct_mem(repo)
    seed(mem, rows=ONE)
    report = run_consolidation(mem, now=BASE + timedelta(days=1))
    assert items_by_id(mem) == {} and not report.changed
    assert len(server.requests) == 3  # refused and asked again, as any invalid reply
    assert "at most 2000" in report.skipped[0].reason and not report.skipped[0].final


@pytest.mark.parametrize(("status", "calls", "named"),
                         [(401, 1, "AuthenticationError"), (429, 3, "RateLimitError")])
def test_a_provider_that_turns_calls_away_stops_the_run_and_drops_nothing(repo, fake_llm,
                                                                          status, calls, named):
    """Before: a wrong key (401) or an exhausted quota (429) was blamed on each cluster in
    turn: one failed call per cluster every night, each counted, and after max_failures
    nights every cluster was 'dropped' — its events never consolidated once the key was
    fixed. Now the run stops at the first such answer and the events wait, uncounted."""
    server = fake_llm(responder=lambda request: {"status": status})
    mem = direct_mem(repo, **{"consolidation.max_failures": 1})
    seed(mem)
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert report.stopped.startswith("the model turned the call away"), report.stopped
    assert named in report.stopped
    assert len(server.requests) == calls and report.skipped == [] and not report.changed
    state = Checkpoint(mem.project).load_state()
    assert not any(state.failures.values())
    assert "ev-pg000001" not in state.processed and "ev-css00001" not in state.processed
    server.responder = responder  # the key is fixed
    back = run_consolidation(direct_mem(repo), now=BASE + timedelta(days=6))
    assert back.stopped == "" and back.added
    titles = {i.title for i in items_by_id(mem).values()}
    assert {"Job queue on PostgreSQL", "CSS: tailwind"} <= titles


def test_an_event_with_an_unresolved_merge_conflict_waits(repo):
    """Before: an event whose text a git merge left as '<<<<<<< HEAD … ======= … >>>>>>>'
    became a claim with the markers and both versions in it (one titled '<<<<<<< HEAD')."""
    mem = direct_mem(repo)
    rows = [row for row in SEED if row[0] in ("ev-pg000001", "ev-css00001")]
    seed(mem, rows=rows)
    day = mem.project.journal_dir / f"{(BASE + timedelta(days=4)).date().isoformat()}.md"
    clean = day.read_text("utf-8")
    conflicted = clean.replace(
        "The CSS build uses tailwind via postcss\n",
        "<<<<<<< HEAD\nThe CSS build uses tailwind via postcss\n=======\n"
        "The CSS build uses sass now\n>>>>>>> feature\n")
    assert conflicted != clean
    day.write_text(conflicted, "utf-8")
    report = run_consolidation(mem, now=BASE + timedelta(days=5))
    cited = {e for item in items_by_id(mem).values() for e in item.source.events}
    assert "ev-pg000001" in cited and "ev-css00001" not in cited
    assert any("ev-css00001" in n and "conflict markers" in n and day.name in n
               for n in report.notes), report.notes
    assert "ev-css00001" not in Checkpoint(mem.project).load_state().processed
    day.write_text(clean, "utf-8")  # the person settles it
    later = run_consolidation(direct_mem(repo), now=BASE + timedelta(days=5))
    assert later.added and "ev-css00001" in {
        e for item in items_by_id(mem).values() for e in item.source.events}


def test_a_run_the_model_stopped_exits_1(repo, fake_llm):
    """Before: `consolidate` with a wrong key said 'stopped early … 8 event(s) wait' and 'nothing
    changed' with exit 0, `--require-llm` included: a systemd timer or a script saw success."""
    fake_llm(responder=lambda request: {"status": 401})
    seed(direct_mem(repo))
    for args in (["consolidate", "--no-diff"], ["consolidate", "--json", "--require-llm"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 1, (args, result.output)
        assert "the model turned the call away" in result.output and "Traceback" not in result.output
    assert json.loads(result.output)["model_failed"] is True


def test_a_server_failing_with_500s_stops_the_run_and_drops_nothing(repo, fake_llm):
    """Before: a server answering 500 (or garbage bytes, or timing out) on every call was
    blamed on each cluster in turn, 3 calls each, every failure counted; after max_failures
    nights every cluster was dropped and its events never consolidated. Now such a failure is
    not counted, and a second one in a row stops the run: the events wait."""
    server = fake_llm(responder=lambda request: {"status": 500})
    mem = direct_mem(repo, **{"consolidation.max_failures": 1})
    seed(mem)
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert report.stopped.startswith("the model's server failed twice in a row"), report.stopped
    assert report.model_failed and len(server.requests) == 6  # two clusters, 3 attempts each
    assert len(report.skipped) == 1 and not report.skipped[0].final
    state = Checkpoint(mem.project).load_state()
    assert not any(state.failures.values()) and "ev-pg000001" not in state.processed
    server.responder = responder
    back = run_consolidation(direct_mem(repo), now=BASE + timedelta(days=6))
    assert back.stopped == "" and {"Job queue on PostgreSQL", "CSS: tailwind"} <= {
        i.title for i in items_by_id(mem).values()}


def test_conflict_markers_between_journal_entries_are_named_as_such(repo):
    """Before: a day file where git left both sides' appended entries inside '<<<<<<< HEAD …
    >>>>>>> other' had each marker line called 'text outside any entry: … record it with
    `lorestack log`' (doctor, consolidate): advice to log '<<<<<<< HEAD' as an event."""
    mem = direct_mem(repo)
    seed(mem, rows=[row for row in SEED if row[1] == 4])  # two entries on one day
    day = mem.project.journal_dir / f"{(BASE + timedelta(days=4)).date().isoformat()}.md"
    head, first, second = day.read_text("utf-8").split("## ")
    day.write_text(f"{head}<<<<<<< HEAD\n## {first}=======\n## {second}>>>>>>> other\n", "utf-8")
    journal = mem.require_project().journal.read_all()
    assert {e.id for e in journal.events} == {"ev-rd000001", "ev-css00001"}
    problems = [str(p) for p in journal.problems]
    assert len(problems) == 1 and "git conflict markers between entries" in problems[0], problems
    assert not any("record it with" in p for p in problems)
