"""Issue 22 (twenty-sixth session, fix26): what "without X" requires, met only inside one name.
"Don't load the chat widget without the visitor consenting" requires 'visitor consenting'; a
change that sets `window.visitorConsenting = true` and then loads the widget met it through the
name's split words and passed, guessed and confirmed. A name is no proof that the act guards
what the rule is about (the twenty-fifth session's review): "applies, undecided". The phrase in
words still meets it. Our own sentence and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence
from tests.conftest import confirmed_answer, confirmed_git_store, new_file_diff

CRITERIA = {"chat": ("Don't load the chat widget without the visitor consenting", "block")}




@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("name26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


def test_the_requirement_is_the_phrase():
    assert read_sentence(CRITERIA["chat"][0]).require == ["visitor consenting"]


def test_a_name_that_holds_the_phrase_asks(store):
    change = new_file_diff("web/chat.js", ["export function boot() {", "  window.visitorConsenting = true;",
                                  "  loadChatWidget();", "}"])
    assert confirmed_answer(store, "chat", change) == "undecided"


def test_the_phrase_in_words_meets_it(store):
    assert confirmed_answer(store, "chat", "Load the chat widget after the visitor consenting "
                                           "in the banner") == "pass"
