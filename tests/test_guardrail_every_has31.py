"""Issue 22 (thirty-first session, sil31; review30's "every X has Y" cause): a rule that says
what each X has with a plain present-tense verb ("Every new code file opens with the copyright
notice", "Each public method in the client/ folder has a docstring") had no need cue for
missing.py, so a change adding an X without the Y matched no word of the rule and passed in
silence. every_has.py reads the verb after a universal subject as the need cue; a new file
of code is the subject "new … file" whatever its first line, and a folder the subject names
bounds it. Our own sentences."""

from __future__ import annotations

import pytest

from lorestack.guardrail import every_has, missing
from lorestack.guardrail.sentences import _read_cached
from tests import heldout_eval as E
from tests.conftest import answers_of, edit_diff, new_file_diff


@pytest.fixture
def fresh(monkeypatch):
    missing.read_need.cache_clear()
    _read_cached.cache_clear()
    yield monkeypatch
    missing.read_need.cache_clear()
    _read_cached.cache_clear()


def test_the_verb_after_a_universal_subject_is_the_need_cue(fresh):
    need = missing.read_need("Every new code file opens with the copyright notice of the company.", True)
    assert need is not None and need.subject == "a new source file"
    assert need.wanted == "the copyright notice of the company"
    need = missing.read_need("Each public method in the client/ folder has a docstring.", True)
    assert need is not None and need.subject == "a function"
    need = missing.read_need("All exported classes carry type annotations on their methods.", True)
    assert need is not None and need.subject == "a class"
    # the verb reads only the subject's code form: "what it wants is there" stays for needs
    assert missing.wanted_present("Every Deployment sets replicas: 3", "replicas: 30", []) is None
    # nor does the drafting's reading change (sentences.py asks read_need without it)
    assert missing.read_need("Each public method in the client/ folder has a docstring.") is None
    # no universal subject, or a negated clause: nothing read
    assert missing.read_need("The parser has a docstring.", True) is None
    assert missing.read_need("Every job never sets a retry count.", True) is None
    fresh.setattr(every_has, "ON", False)  # before: no need cue, nothing read
    missing.read_need.cache_clear()
    assert missing.read_need("Every new code file opens with the copyright notice of the company.", True) is None


CRITERIA = {
    "head": ("Every new code file opens with the copyright notice of the company.", "warn"),
    "doc": ("Each public method in the client/ folder has a docstring.", "warn"),
}
CASES = [
    # a new Python file whose first line is a def: still a new file of code
    ("head-v", "head", new_file_diff("pkg/cache.py", ["def get(key):", "    return STORE[key]"])),
    ("head-p", "head", new_file_diff("pkg/cache.py", [
        "# Copyright 2026 Example Ltd.", "def get(key):", "    return STORE[key]"])),
    ("doc-v", "doc", edit_diff("client/api.py", ["pass"], [
        "def fetch_orders(self, since):", "    return self._get('/orders', since=since)"])),
    ("doc-p", "doc", edit_diff("client/api.py", ["pass"], [
        "def fetch_orders(self, since):", '    """The orders placed since `since`."""',
        "    return self._get('/orders', since=since)"])),
    # outside the folder the subject names: not this rule's subject
    ("doc-out", "doc", edit_diff("server/views.py", ["pass"], [
        "def fetch_orders(request):", "    return render(request, 'orders.html')"])),
]


def test_an_added_subject_without_what_it_has_is_asked(tmp_path, fresh):
    store = E.build(tmp_path / "every31", CRITERIA)
    assert answers_of(store, CASES) == {
        "head-v": "undecided", "head-p": "pass",
        "doc-v": "undecided", "doc-p": "pass", "doc-out": "pass"}


def test_before_the_reading_the_absence_passed(tmp_path, fresh):
    fresh.setattr(every_has, "ON", False)
    store = E.build(tmp_path / "every31off", CRITERIA)
    got = answers_of(store, CASES)
    assert got["head-v"] == "pass" and got["doc-v"] == "pass"
