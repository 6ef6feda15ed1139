"""Issue 22, twenty-fourth session: a requirement carried by a verb no obligation cue reads
("Every alerting rule carries a severity label", "CronJobs set concurrencyPolicy: Forbid",
"DAGs are declared with catchup=False") drafted nothing, so a look-alike that shows the thing
asked as the violation that leaves it out did (bucket A1 of tests.lookalike_buckets, 39
look-alikes of eight batches). The thing, named as code or as a label's name, is now required
(lorestack/guardrail/sentence_needs.py). The criteria and proposals here are our own. Real
files, the real MiniLM model."""

from __future__ import annotations

import re

from lorestack.guardrail import sentence_needs as N
from lorestack.guardrail.sentences import _read_cached, read_sentence
from tests import heldout_eval as E
from tests.conftest import answers_of


def test_what_a_verb_carries_is_required():
    assert N.needs("Every Grafana dashboard carries a team tag")[0] == ["team"]
    assert N.needs("Every Celery task declares max_retries and a soft_time_limit")[0] == [
        "max_retries", "soft_time_limit"]
    assert N.needs("Each PVC carries the owner and backup_policy labels")[0] == [
        "owner", "backup_policy"]
    pair = N.needs("Compose services are declared with restart=always")[0]
    assert len(pair) == 1 and pair[0].startswith("/") and "always" in pair[0]
    assert N.needs("Log files end in a suffix such as _json or _ndjson")[0] == ["_json | _ndjson"]
    run = N.needs("Every deploy script starts with set -eu before anything else")[0]
    assert [N.shown_pair(t) for t in run] == ["set -eu"]
    # a run of code words is wanted in a row: "the index … without CONCURRENTLY" is no run
    index = N.needs("Indexes are created with CREATE INDEX CONCURRENTLY")[0][0]
    assert N.shown_pair(index) == "CREATE INDEX CONCURRENTLY"
    assert re.search(index[1:-1], "CREATE INDEX CONCURRENTLY orders_idx ON orders", re.I)
    assert not re.search(index[1:-1], "Create the orders index without CONCURRENTLY", re.I)


def test_what_is_not_named_or_not_the_whole_rule_is_not_required():
    assert N.needs("Every endpoint sets a sensible timeout")[0] == []  # plain words
    assert N.needs("A status has a text label or an icon")[0] == []  # one way unnamed
    assert N.needs("Buttons carry a size label, small or large")[0] == ["size"]  # its values
    # another clause states a rule of its own: the thing alone does not keep it
    assert N.needs("Every workflow declares a permissions block; write-all is never ok")[0] == []
    assert N.needs("Tokens are never kept in localStorage; the server sets an httpOnly "
                   "cookie")[0] == []
    # a parenthesised list gives examples of another thing: `set -x` is no verb there
    assert N.needs("CI steps never dump the environment (env, printenv, set -x)")[0] == []


def test_the_draft_shows_the_requirement():
    _read_cached.cache_clear()
    draft = read_sentence("Every Grafana dashboard carries a team tag")
    assert (draft.kind, draft.require) == ("obligation", ["team"])
    assert any("wants 'team'" in s for s in draft.steps)
    # a need missing.py reads keeps that reading (a new file's licence header)
    assert read_sentence("Every new source file must start with the MIT licence header").require == []


CRITERIA = {
    "dash": ("Every Grafana dashboard carries a team tag", "block"),
    "bucket": ("Every S3 bucket carries an owner tag", "block"),
}
_DASH = "dashboards/payments.json"
_TF = "infra/buckets.tf"
CASES = [  # (id, key, proposal, guessed answer now, before; confirmed answer now, before)
    ("dash-p", "dash", {"text": '{"title": "Payments latency", "tags": ["team:payments"], '
                                '"panels": []}', "paths": [_DASH]},
     "pass", "undecided", "pass", "undecided"),
    ("dash-v", "dash", {"text": '{"title": "Payments latency", "tags": ["latency"], '
                                '"panels": []}', "paths": [_DASH]},
     # confirmed: blocked until the twenty-ninth session; meaning_needs (29th session): the confirmed rule applied by meaning alone and the proposal does not say
     # 'grafana': asked; fix30 (30th session, thing_in_code): the file under dashboards/ is a
     # dashboard, the subject of "Every Grafana dashboard carries …": blocks again
     "undecided", "undecided", "block", "undecided"),
    ("bucket-p", "bucket", {"text": 'resource "aws_s3_bucket" "exports" {\n  bucket = "acme-'
                                    'exports"\n  tags = { owner = "payments" }\n}',
                            "paths": [_TF]},
     "pass", "undecided", "pass", "undecided"),
    ("bucket-v", "bucket", {"text": 'resource "aws_s3_bucket" "exports" {\n  bucket = "acme-'
                                    'exports"\n  tags = { env = "prod" }\n}', "paths": [_TF]},
     "undecided", "undecided", "block", "undecided"),
]


def _answers(tmp_path, name: str, confirmed: bool) -> dict[str, str]:
    _read_cached.cache_clear()
    store = E.build(tmp_path / name, CRITERIA, confirmed=confirmed)
    return answers_of(store, CASES)


def test_a_lookalike_showing_the_thing_passes_a_violation_still_asks(tmp_path, monkeypatch):
    assert _answers(tmp_path, "guess-on", False) == {c[0]: c[3] for c in CASES}
    assert _answers(tmp_path, "confirmed-on", True) == {c[0]: c[5] for c in CASES}
    monkeypatch.setattr(N, "ENABLED", False)
    assert _answers(tmp_path, "guess-off", False) == {c[0]: c[4] for c in CASES}
    assert _answers(tmp_path, "confirmed-off", True) == {c[0]: c[6] for c in CASES}


def test_remember_shows_what_it_requires():
    from lorestack.guardrail.drafting import draft_rules
    from lorestack.guardrail.understood import understand
    from lorestack.memory_layers.models import CriterionSpec

    sentence = "Every Deployment sets revisionHistoryLimit: 3"
    spec = draft_rules(sentence, CriterionSpec(verdict="block")).spec
    lines = understand(spec, sentence, "crit-x").lines()
    assert "  answers 'applies, undecided' (a warn, exit 1) on: revisionHistoryLimit: 3 (or " \
           "revisionHistoryLimit=3) not set on a code line of the change (prose never sets " \
           "it)" in lines
    assert any("a guess" in line for line in lines)


def test_a_list_with_a_thing_in_plain_words_is_not_required_in_part():
    assert N.needs("Release emails carry an X-Campaign-Id header and a plain-text part")[0] == []
    assert N.needs("Release emails carry an X-Campaign-Id header")[0] == ["x-campaign-id"]


def test_a_part_of_a_camelcase_name_is_no_negation(monkeypatch):
    # `onDelete` named the handler; it did not delete the aria-label after it
    from lorestack.guardrail import term_cues
    from lorestack.guardrail.terms import PreparedText, term_hits

    def negated(text: str) -> list[str]:
        return [h.negated_by for h in term_hits(PreparedText.of(text), "aria-label", [])]

    assert negated('<button onClick={onDelete} aria-label="Delete order">') == [""]
    assert negated("Delete the aria-label of the close button") == ["delete"]
    monkeypatch.setattr(term_cues, "CAMEL_PARTS_NO_CUE", False)
    assert negated('<button onClick={onDelete} aria-label="Delete order">') == ["delete"]
