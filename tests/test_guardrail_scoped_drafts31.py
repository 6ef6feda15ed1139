"""Issue 22 (thirty-first session, fix31): drafts that dropped the qualifier limiting the
forbidden act, and complying proposals that name the forbidden thing as what they take away.
What `remember` shows is what a confirmation accepts; our own sentences and proposals, real
files, git and the model, criteria confirmed as shown.

- listed_places.py: "No force pushes to protected branches (trunk, stable/*)" forbade
  'trunk' and 'stable' (and '*'): the list names the place of the act, not more forbidden
  things. The act keeps its command forms (`push --force`) and the list is its scope; the
  place must be named in the act's own step.
- scope_code.py: "Don't put onMouseOver on a <td> or <li>" forbade onMouseOver anywhere (the
  elements, written as markup, were not read as scope words); "… in the web console or with
  `gcloud`" lost its means (a "with" after a place).
- subject_scope.py: "The /metrics endpoint must not query the database" forbade 'database'
  everywhere; the subject the sentence writes as code is where the act is forbidden.
- named_as_removed.py: "Replace the document.write call … with …", "… so document.write fails
  lint" name the forbidden thing as what they take away or what a check fails on: asked.
- value_words.py: "(hostNetwork: true)" made 'true' a forbidden word of its own."""

from __future__ import annotations

import pytest

from lorestack.guardrail import (
    listed_places,
    named_as_removed,
    scope_code,
    sentences,
    subject_scope,
    value_words,
)
from lorestack.guardrail.terms import PreparedText, find_term
from tests.conftest import answers_of, bash_call, confirmed_git_store, new_file_diff

CRITERIA = {
    "fp": ("No force pushes to protected branches (trunk, stable/*). Rewrite your own topic branches freely.", "block"),
    "hover": ("Don't put onMouseOver on a <td> or <li>; use a focusable control instead.", "block"),
    "fw": ("Never change firewall rules in the web console or with `gcloud`; they live in Terraform.", "block"),
    "metrics": ("The /metrics endpoint must not query the database; it reads counters kept in memory.", "block"),
    "dw": ("Never use document.write in the storefront.", "block"),
}

VIOLATIONS = [  # still blocked
    ("fp-v1", "fp", bash_call("git push --force origin trunk")),
    ("fp-v2", "fp", bash_call("git rebase -i HEAD~2 && git push -f origin stable/3.1")),
    ("hover-v1", "hover", new_file_diff("web/Row.tsx", ["<td className='price' onMouseOver={showTip}>{p}</td>"])),
    ("fw-v1", "fw", "Change the firewall rules with gcloud so port 22 is open to the office"),
    ("metrics-v1", "metrics", "Make the /metrics endpoint query the database for the queue length"),
    ("dw-v1", "dw", "Use document.write to add the promo banner to the storefront"),
]
NOT_THE_ACT = [  # blocked before: the qualifier that limits the act is not there
    ("fp-p1", "fp", bash_call("git push origin trunk")),
    ("fp-p2", "fp", bash_call("git fetch origin && git rebase origin/trunk && git push --force-with-lease origin topic/search")),
    ("fp-p3", "fp", "Force-push my topic branch after squashing the fixups"),
    ("hover-p1", "hover", new_file_diff("web/Row.tsx", ["<button type='button' onMouseOver={showTip}>?</button>"])),
    ("hover-p2", "hover", new_file_diff("web/List.tsx", ["<li className='sep' />", "<button onMouseOver={showTip}>?</button>"])),
    ("fw-p1", "fw", new_file_diff("infra/network/rules.tf", ["# firewall rules for the public API", "locals { api_ports = [443] }"])),
    ("metrics-p1", "metrics", "Add a database index on orders.created_at for the nightly report"),
    ("dw-p1", "dw", "Replace the document.write call in the footer with a DOM insert"),
    ("dw-p2", "dw", "Turn on the lint rule for the storefront so document.write fails lint"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    sentences._read_cached.cache_clear()
    with confirmed_git_store(tmp_path_factory.mktemp("scoped31"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


def test_violations_still_block(store):
    assert answers_of(store, VIOLATIONS) == {c[0]: "block" for c in VIOLATIONS}


def test_the_act_without_its_qualifier_is_not_blocked(store):
    got = answers_of(store, NOT_THE_ACT)
    assert "block" not in got.values(), got


def _scopes(sentence: str) -> dict:
    sentences._read_cached.cache_clear()
    return sentences.read_sentence(sentence).scopes


def test_without_listed_places_the_branches_are_forbidden(monkeypatch):
    s = CRITERIA["fp"][0]
    assert "trunk" not in sentences.read_sentence(s).forbid
    assert _scopes(s)["push force"] == ("trunk", "stable")
    monkeypatch.setattr(listed_places, "ON", False)
    sentences._read_cached.cache_clear()
    assert "trunk" in sentences.read_sentence(s).forbid


def test_a_list_after_the_object_still_names_forbidden_things():
    d = sentences.read_sentence("Never add new brokers (kafka, nats) to the platform")
    assert {"kafka", "nats"} <= {f.removeprefix("added:") for f in d.forbid}


def test_without_scope_code_the_elements_and_the_means_are_lost(monkeypatch):
    assert _scopes(CRITERIA["hover"][0])["onmouseover"] == ("td", "li")
    assert "gcloud" in _scopes(CRITERIA["fw"][0])["firewall rules"]
    monkeypatch.setattr(scope_code, "ON", False)
    assert not _scopes(CRITERIA["hover"][0]).get("onmouseover")
    assert not _scopes(CRITERIA["fw"][0]).get("firewall rules")


def test_without_subject_scope_the_objects_are_forbidden_anywhere(monkeypatch):
    assert "/metrics" in _scopes(CRITERIA["metrics"][0])["database"]
    assert not _scopes("Services must not query the database directly").get("database")
    monkeypatch.setattr(subject_scope, "ON", False)
    assert not _scopes(CRITERIA["metrics"][0]).get("database")


def test_without_named_as_removed_the_lint_rule_blocks(store, monkeypatch):
    monkeypatch.setattr(named_as_removed, "ON", False)
    assert answers_of(store, [NOT_THE_ACT[-1]])["dw-p2"] == "block"


def test_without_the_same_step_the_other_step_blocks(store, monkeypatch):
    monkeypatch.setattr(listed_places, "SAME_STEP", False)
    assert answers_of(store, [NOT_THE_ACT[1]])["fp-p2"] == "block"


def test_a_value_is_no_forbidden_word_of_its_own(monkeypatch):
    s = "No host networking for pods (hostNetwork: true) outside the ingress namespace."
    sentences._read_cached.cache_clear()
    forbid = sentences.read_sentence(s).forbid
    assert "true" not in forbid and any("hostnetwork" in f for f in forbid)
    yaml = PreparedText.of("+      hostNetwork: true\n", change=True, code=True)
    assert any(find_term(yaml, t) for t in forbid)  # with its key, as YAML writes it
    assert not any(find_term(PreparedText.of("run(cmd, check=True)", code=True), t) for t in forbid)
    monkeypatch.setattr(value_words, "ON", False)
    sentences._read_cached.cache_clear()
    assert "true" in sentences.read_sentence(s).forbid
