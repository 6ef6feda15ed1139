"""Issue 22 (seventeenth session): a forbidden noun phrase ("the deprecated findAndModify
helper method", "TRUNCATE statements") is also met by the word the sentence spells as code,
which is what a violation's code shows; a phrase with no such word stays whole. Real files
and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.code_heads import code_heads
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _diff
from tests.test_guardrail_labelled import make_proposal

MODIFY = "Our handlers never use the deprecated findAndModify helper method"
TRUNCATE = "No TRUNCATE statements in data migrations; delete old rows in batches"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    criteria = {"modify": (MODIFY, "warn"), "truncate": (TRUNCATE, "warn")}
    base = tmp_path_factory.mktemp("heads")
    with isolated_env(base):
        return E.build(base, criteria)


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("modify", _diff("api/orders.js", "const doc = await orders.findAndModify({ query: { _id: id }, update: { $set: patch } });"), "undecided"),
        ("modify", _diff("api/orders.js", "const doc = await orders.findOneAndUpdate({ _id: id }, { $set: patch });"), "pass"),
        ("truncate", _diff("migrations/0042_reset_events.sql", "TRUNCATE TABLE events;"), "undecided"),
    ],
)
def test_the_code_spelling_of_a_forbidden_phrase(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected


def test_which_words_are_spelled_as_code():
    assert "findandmodify" in read_sentence(MODIFY).forbid
    # upper case alone: the whole word (eighteenth session: `for key in redis.scan_iter(…)`
    # met 'keys' by its stem)
    assert code_heads("redis keys command", "never calls the Redis KEYS command") == [
        r"/\bkeys\b/"]
    # an acronym, a hyphenated adjective, a flag: no code spelling
    assert code_heads("external http", "Never call an external HTTP API") == []
    assert code_heads("hard-coded logger names", "no hard-coded logger names") == []
    assert code_heads("set -x", "never run `set -x` in CI") == []
    assert code_heads("keys", "the Redis KEYS command") == []  # one word: already a term


KEYS = "Use SCAN instead of the Redis KEYS command"


@pytest.fixture(scope="module")
def keys_store(tmp_path_factory):
    base = tmp_path_factory.mktemp("keys")
    with isolated_env(base):
        return E.build(base, {"keys": (KEYS, "block")})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # nineteenth session: prose naming the command as the rule writes it applies (a guess:
        # undecided, never a block); it passed in silence
        ("Clear the stale sessions with KEYS session:* and a DEL on each key", "undecided"),
        ("Find the expired carts with KEYS cart:* before the nightly cleanup", "undecided"),
        # the word in lower case is no sign of the command
        ("Rotate the API keys of the staging tenants every night", "pass"),
    ],
)
def test_prose_naming_the_command_in_its_case(keys_store, text, expected):
    mem, ids = keys_store
    result = check(mem, make_proposal(text, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids["keys"]) == expected


def test_a_pasted_policy_is_read_once_per_word(monkeypatch):
    """A criterion file with a long pasted text (the busy run of the thirty-second session:
    'rule text' 20,000 times, read to 16 KB) was read word by word for every word of the
    phrase, each word again at each of its places: 10.5 million tests of a spelling and
    20 s of one `check` quiet (over 120 s under load). Each distinct word is read once now;
    what it finds is unchanged."""
    from lorestack.guardrail import code_heads as module

    calls = []
    real = module._spelled_as_code

    def counted(word, upper=True):
        calls.append(word)
        return real(word, upper)

    monkeypatch.setattr(module, "_spelled_as_code", counted)
    sentence = "No rule text may call findAndModify. " + "rule text " * 1_500
    term = "rule text " * 1_500 + "findandmodify"
    assert module.code_heads(term, sentence) == ["findandmodify"]
    calls.clear()
    module.code_heads(term, sentence)
    # each of the 3 distinct words at each of its ~1,500 places at most, not once per repetition
    assert len(calls) < 3 * 1_600 * 2, len(calls)
