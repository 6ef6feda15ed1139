"""Issue 22 (nineteenth session): "X instead of Y" said without "use" or "prefer" in front.

"Call yaml.safe_load instead of yaml.load …", "Hash passwords with argon2 in place of md5",
"Replace os.system calls with subprocess.run", "Switch from moment to date-fns",
"asyncio.get_event_loop() is deprecated; use …", "…, not with sudo pip", "Favour the logger
over console.log" were read as nothing: confirmed, they blocked nothing. Y is the forbidden
thing (its code word a term), X the recommended way, never a term; a flag is a whole word
(`git push --force` is not the start of `--force-with-lease`).

Real files, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _bash, _diff
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "yaml": ("Call yaml.safe_load instead of yaml.load on anything a user uploads", "block"),
    "md5": ("Hash API tokens with sha256 in place of md5", "block"),
    "system": ("Replace os.system calls with subprocess.run", "block"),
    "moment": ("Switch from moment to dayjs in the admin frontend", "block"),
    "loop": ("asyncio.get_event_loop() is deprecated; use asyncio.get_running_loop()", "block"),
    "sudo": ("Install tools into a virtualenv, not with sudo pip", "block"),
    "force": ("Push with --force-with-lease, never with a plain git push --force", "block"),
    "console": ("Favour the logger over console.log in server code", "block"),
    "exec": ("Spawn processes with execFile instead of the exec function", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("contrasts")
    with isolated_env(base):
        yield E.build(base, CRITERIA, confirmed=True)


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("yaml", _diff("api/upload.py", "spec = yaml.load(body, Loader=yaml.Loader)"), "block"),
        ("yaml", _diff("api/upload.py", "spec = yaml.safe_load(body)"), "pass"),
        ("md5", _diff("auth/tokens.py", "digest = hashlib.md5(token).hexdigest()"), "block"),
        ("md5", _diff("auth/tokens.py", "digest = hashlib.sha256(token).hexdigest()"), "pass"),
        ("system", _diff("ops/dump.py", "os.system('pg_dump app > out.sql')"), "block"),
        ("system", _diff("ops/dump.py", "subprocess.run(['pg_dump', 'app'], check=True)"), "pass"),
        ("moment", _diff("admin/src/when.js", "import moment from 'moment';"), "block"),
        ("moment", _diff("admin/src/when.js", "import dayjs from 'dayjs';"), "pass"),
        ("loop", _diff("svc/run.py", "loop = asyncio.get_event_loop()"), "block"),
        ("loop", _diff("svc/run.py", "loop = asyncio.get_running_loop()"), "pass"),
        ("sudo", _bash("sudo pip install black"), "block"),
        # (close to "install tools" by meaning: undecided, never a block)
        ("sudo", _bash("python -m venv .venv && .venv/bin/pip install black"), "no block"),
        ("force", _bash("git push --force origin topic"), "block"),
        ("force", _bash("git push --force-with-lease origin topic"), "pass"),
        ("console", _diff("server/app.ts", "console.log('started', port);"), "block"),
        ("console", _diff("server/app.ts", "logger.info({ port }, 'started');"), "pass"),
        # the way begins with the forbidden word: execFile is no exec
        ("exec", _diff("tools/thumbs.js", "exec(`convert ${f} out.png`, done);"), "block"),
        ("exec", _diff("tools/thumbs.js", "execFile('convert', [f, 'out.png'], done);"), "pass"),
    ],
)
def test_a_confirmed_contrast_forbids_what_it_replaces(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    got = E.answer(result, ids[key])
    assert got != "block" if expected == "no block" else got == expected, got


@pytest.mark.parametrize(
    ("sentence", "forbidden", "recommended"),
    [
        ("Call yaml.safe_load instead of yaml.load on anything a user uploads", "yaml.load",
         "yaml.safe_load"),
        ("Hash API tokens with sha256 in place of md5", "md5", "sha256"),
        ("Replace os.system calls with subprocess.run", "os.system", "subprocess.run"),
        ("Switch from moment to dayjs in the admin frontend", "moment", "dayjs"),
        ("Favour the logger over console.log in server code", "console.log", "logger"),
        ("Read settings through config.get() instead of reaching into os.environ directly",
         "os.environ", "config.get"),
    ],
)
def test_the_way_recommended_is_never_a_term(sentence, forbidden, recommended):
    d = read_sentence(sentence)
    assert forbidden in d.forbid and recommended in d.alternatives
    assert not any(recommended in f for f in d.forbid), d.forbid


def test_a_contrast_after_a_stated_ban_only_explains_it():
    # the ban is stated; "instead of a number of milliseconds" adds no term of its own (it
    # cost batch 15 a confirmed look-alike: "wait for the @search alias" went undecided)
    d = read_sentence("No fixed waits in Cypress tests; wait on an alias or an assertion "
                      "instead of a number of milliseconds")
    assert d.forbid == ["fixed waits"], d.forbid
