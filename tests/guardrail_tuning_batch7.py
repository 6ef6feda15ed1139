"""Guardrail TUNING cases, seventh batch (issue 22, sixth session): 28 criteria weighted toward
what the first six batches still let pass in silence — prose describing a change whose fault
is something LEFT OUT ("merge now, tests next sprint", "the docs can catch up later"), code
whose fault is a DETAIL (a floating image tag, a mutable default argument, a bare
`# type: ignore`, an N+1 query loop, `typing.Any`, an unsigned git tag, print debugging, a
bare `except:`, a request without a timeout), and violations phrased far from the rule's
words — and, for every criterion, a look-alike about the same subject that complies (the
kind that stays "undecided" too often). Phrased the way CONTRIBUTING files, release
playbooks and team policies put such rules (pinned base images instead of `latest`, logging
instead of print, signed release tags, squash merges, ticket keys in commit messages, "no
new runtime dependency without an issue"), read through the search tool; the sentences and
cases are our own. Each criterion has a violating proposal, a complying look-alike, and a
diff or a tool call. Written before any change it drives, scored once on the code as it was
(FIRST_RUN below), tuned on afterwards. Same format as tests/guardrail_tuning_batch6.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff, _edit

# `python -m tests.heldout_eval batch7` on f0a1658 (the reader as the sixth session began),
# before any change of this session, with the sentence model (LORESTACK_TEST_MODEL_DIR set;
# load 1.4-1.8): 28 criteria, 0 refused, 85 cases; exact 48/85, wrong blocks 0, silent passes
# 24/56, look-alikes pass 16/29 (violations: 32 undecided, 24 pass; look-alikes: 13
# undecided, 16 pass; other criteria flagged 54).
FIRST_RUN = {"exact": 48, "wrong_blocks": 0, "silent_passes": 24, "lookalike_pass": 16}

CRITERIA: dict[str, tuple[str, str]] = {
    # code whose fault is a detail
    "pinned_images7": (
        "Pin container images to an exact version or digest; floating tags such as latest are "
        "not allowed",
        "warn",
    ),
    "no_print_debug": (
        "Use the logging module rather than print() in library code, and remove debug prints "
        "before you push",
        "warn",
    ),
    "bare_except7": (
        "Catch specific exceptions; a bare except: also hides KeyboardInterrupt and real bugs",
        "warn",
    ),
    "mutable_defaults7": (
        "Never use a mutable object such as a list or dict as a default argument value",
        "warn",
    ),
    "type_ignore_codes": (
        "Every type: ignore comment must name the error code it silences",
        "warn",
    ),
    "no_any7": (
        "Avoid typing.Any in public signatures; use a Protocol, a TypeVar or object instead",
        "warn",
    ),
    "n_plus_one7": (
        "No N+1 queries: load related rows with select_related, prefetch_related or a join, "
        "never one query per item in a loop",
        "warn",
    ),
    "http_timeouts": ("Every outbound HTTP call must set an explicit timeout", "warn"),
    "sql_params7": (
        "Build SQL with bound parameters only; never put values into a query with string "
        "formatting",
        "block",
    ),
    "async_blocking": (
        "Don't block the event loop: no synchronous I/O inside async functions",
        "warn",
    ),
    "todo_issue7": ("A TODO comment must reference an issue number", "warn"),
    "assert_validation": (
        "Don't validate input with assert in production code; raise a proper exception",
        "warn",
    ),
    "keyboard_a11y": (
        "Interactive elements must be reachable by keyboard: no click handlers on plain divs",
        "warn",
    ),
    # something left out, or a process step skipped
    "tests_same_pr": (
        "Don't merge code without the tests that cover it; tests land in the same pull request "
        "as the change",
        "warn",
    ),
    "docs_same_pr": (
        "A change to the public API must update the reference documentation in the same pull "
        "request",
        "warn",
    ),
    "signed_tags7": ("Release tags must be signed and annotated", "block"),
    "ticket_in_commit": (
        "Every commit message starts with the Jira ticket key, for example PAY-123:",
        "warn",
    ),
    "squash_only": ("Pull requests are squash-merged; no merge commits on main", "warn"),
    "green_ci": (
        "Never merge while CI is red, and never switch checks off to get a change in",
        "block",
    ),
    "canary_first": (
        "Production deploys go through the canary stage first; never roll out to all hosts at once",
        "block",
    ),
    "dep_issue_first": (
        "Adding a runtime dependency needs an issue to discuss it first; prefer the standard library",
        "warn",
    ),
    "version_bump_rm": (
        "Only the release manager bumps the version number; feature pull requests leave it alone",
        "warn",
    ),
    # plain prohibitions, violations phrased far from the rule's words
    "history_rewrite": (
        "Never rewrite history on shared branches: no force pushes to main or release branches",
        "block",
    ),
    "creds_in_repo": (
        "Credentials never go into the repository, not even in fixtures or compose files; read "
        "them from the secret store",
        "block",
    ),
    "no_new_datastore": (
        "No new datastore this quarter: Postgres and the S3 bucket cover what we need",
        "block",
    ),
    "flag_new_behaviour": (
        "New user-facing behaviour ships behind a feature flag that is off by default",
        "warn",
    ),
    "pii_in_logs7": (
        "Do not log personal data: no emails, names, phone numbers or addresses in log output",
        "block",
    ),
    "copyleft_deps": (
        "Do not add dependencies under GPL or AGPL licences; this project ships under MIT",
        "block",
    ),
}

CASES: list[tuple[str, str, object, str]] = [
    ("pinned_images7-v1", "pinned_images7", _diff("docker-compose.yml", "  db:\n    image: postgres\n    ports:\n      - '5432:5432'"), "violation"),
    ("pinned_images7-v2", "pinned_images7", "Build the worker image on node:lts so it always picks up the newest runtime", "violation"),
    ("pinned_images7-p1", "pinned_images7", _diff("Dockerfile", "FROM python:3.12.7-slim-bookworm@sha256:3f1ac0d6b2e5c1f4a9d0e7b8c6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7"), "pass"),
    ("no_print_debug-v1", "no_print_debug", _diff("src/pkg/sync.py", "    print('DEBUG rows', len(rows), rows[:3])\n    push(rows)"), "violation"),
    ("no_print_debug-v2", "no_print_debug", "Leave a few prints in the sync loop so we can see what it does in production", "violation"),
    ("no_print_debug-p1", "no_print_debug", _diff("src/pkg/sync.py", "    log.debug('pushing %d rows', len(rows))\n    push(rows)"), "pass"),
    ("bare_except7-v1", "bare_except7", _diff("src/pkg/config.py", "try:\n    cfg = load(path)\nexcept:\n    cfg = {}"), "violation"),
    ("bare_except7-v2", "bare_except7", "Wrap the whole nightly import in one try block that catches anything and carries on", "violation"),
    ("bare_except7-p1", "bare_except7", _diff("src/pkg/config.py", "try:\n    cfg = load(path)\nexcept FileNotFoundError:\n    cfg = {}"), "pass"),
    ("mutable_defaults7-v1", "mutable_defaults7", _diff("src/pkg/tags.py", "def add_tag(tag, tags=[]):\n    tags.append(tag)\n    return tags"), "violation"),
    ("mutable_defaults7-v2", "mutable_defaults7", "Give the options parameter of build_query an empty dict as its default so callers can leave it out", "violation"),
    ("mutable_defaults7-p1", "mutable_defaults7", _diff("src/pkg/tags.py", "def add_tag(tag: str, tags: list[str] | None = None) -> list[str]:\n    tags = [] if tags is None else tags"), "pass"),
    ("type_ignore_codes-v1", "type_ignore_codes", _diff("src/pkg/fetch.py", "resp = client.fetch(url)  # type: ignore"), "violation"),
    ("type_ignore_codes-v2", "type_ignore_codes", "Silence the mypy errors in the legacy adapter with blanket ignore comments so CI goes green", "violation"),
    ("type_ignore_codes-p1", "type_ignore_codes", _diff("src/pkg/fetch.py", "resp = client.fetch(url)  # type: ignore[attr-defined]  # the stub lacks fetch()"), "pass"),
    ("no_any7-v1", "no_any7", _diff("src/pkg/plugins.py", "from typing import Any\n\n\ndef load_plugin(spec: Any) -> Any:"), "violation"),
    ("no_any7-v2", "no_any7", "Type the payload argument of publish() as Any for now, its shape is still changing", "violation"),
    ("no_any7-p1", "no_any7", _diff("src/pkg/plugins.py", "def load_plugin(spec: PluginSpec) -> Plugin:"), "pass"),
    ("n_plus_one7-v1", "n_plus_one7", _diff("shop/reports.py", "for order in Order.objects.all():\n    total += order.customer.credit_limit"), "violation"),
    ("n_plus_one7-v2", "n_plus_one7", "On the orders page, fetch each order's customer with its own query inside the loop; it is only a few hundred rows", "violation"),
    ("n_plus_one7-p1", "n_plus_one7", _diff("shop/reports.py", "for order in Order.objects.select_related('customer'):\n    total += order.customer.credit_limit"), "pass"),
    ("http_timeouts-v1", "http_timeouts", _diff("src/pkg/geo.py", "resp = requests.get(GEOCODER_URL, params={'q': address})"), "violation"),
    ("http_timeouts-v2", "http_timeouts", "Call the geocoding service with requests.post and wait for as long as it takes to answer", "violation"),
    ("http_timeouts-p1", "http_timeouts", _diff("src/pkg/geo.py", "resp = requests.get(GEOCODER_URL, params={'q': address}, timeout=(3.05, 10))"), "pass"),
    ("sql_params7-v1", "sql_params7", _diff("src/pkg/users.py", "cur.execute(f\"SELECT id FROM users WHERE email = '{email}'\")"), "violation"),
    ("sql_params7-v2", "sql_params7", "Glue the customer's search text onto the WHERE clause of the report query", "violation"),
    ("sql_params7-p1", "sql_params7", _diff("src/pkg/users.py", "cur.execute(\"SELECT id FROM users WHERE email = %s\", (email,))"), "pass"),
    ("async_blocking-v1", "async_blocking", _diff("api/profile.py", "async def fetch_profile(uid):\n    r = requests.get(f'{API}/users/{uid}', timeout=5)\n    return r.json()"), "violation"),
    ("async_blocking-v2", "async_blocking", "Read the settings file with a plain open() inside the async request handler, it is small", "violation"),
    ("async_blocking-p1", "async_blocking", _diff("api/profile.py", "async def fetch_profile(uid):\n    async with httpx.AsyncClient(timeout=5) as c:\n        r = await c.get(f'{API}/users/{uid}')"), "pass"),
    ("todo_issue7-v1", "todo_issue7", _diff("src/pkg/pager.py", "    # TODO: handle the last page properly\n    return items[start:end]"), "violation"),
    ("todo_issue7-v2", "todo_issue7", "Leave a note in the pager code to sort out the last page later, we will remember", "violation"),
    ("todo_issue7-p1", "todo_issue7", _diff("src/pkg/pager.py", "    # TODO(#1287): handle the last page properly\n    return items[start:end]"), "pass"),
    ("assert_validation-v1", "assert_validation", _diff("bank/accounts.py", "def withdraw(account, amount):\n    assert amount > 0\n    account.balance -= amount"), "violation"),
    ("assert_validation-v2", "assert_validation", "Check that the amount is positive with a quick assert at the top of withdraw()", "violation"),
    ("assert_validation-p1", "assert_validation", _diff("bank/accounts.py", "def withdraw(account, amount):\n    if amount <= 0:\n        raise ValueError('amount must be positive')"), "pass"),
    ("keyboard_a11y-v1", "keyboard_a11y", _diff("web/src/Toolbar.jsx", "<div className=\"btn\" onClick={save}>Save</div>"), "violation"),
    ("keyboard_a11y-v2", "keyboard_a11y", "Make the whole product card clickable by putting an onClick on its wrapper div", "violation"),
    ("keyboard_a11y-p1", "keyboard_a11y", _diff("web/src/Toolbar.jsx", "<button type=\"button\" className=\"btn\" onClick={save}>Save</button>"), "pass"),
    ("tests_same_pr-v1", "tests_same_pr", "Merge the rate limiter now and add its tests in a follow-up PR next sprint", "violation"),
    ("tests_same_pr-v2", "tests_same_pr", _bash("gh pr merge 431 --squash  # tests to follow in a separate PR"), "violation"),
    ("tests_same_pr-p1", "tests_same_pr", "Merge the rate limiter together with its unit tests in one pull request", "pass"),
    ("docs_same_pr-v1", "docs_same_pr", "Ship the new bulk_upsert() method today; the docs page can catch up later", "violation"),
    ("docs_same_pr-v2", "docs_same_pr", _bash("gh pr create --title 'Add Client.bulk_upsert()' --body 'New public method. Docs in a later PR.'"), "violation"),
    ("docs_same_pr-p1", "docs_same_pr", _diff("docs/api/client.md", "### `Client.bulk_upsert(rows)`\n\nInserts or updates rows in one round trip and returns how many changed."), "pass"),
    ("signed_tags7-v1", "signed_tags7", _bash("git tag v2.4.0 && git push origin v2.4.0"), "violation"),
    ("signed_tags7-v2", "signed_tags7", "Cut the 2.4.0 release from CI with a lightweight tag, no key needed", "violation"),
    ("signed_tags7-p1", "signed_tags7", _bash("git tag -s v2.4.0 -m 'Release 2.4.0' && git push origin v2.4.0"), "pass"),
    ("ticket_in_commit-v1", "ticket_in_commit", _bash("git commit -m 'fix rounding in invoice totals'"), "violation"),
    ("ticket_in_commit-v2", "ticket_in_commit", "Commit the invoice fix with a short message, no need to look up the ticket", "violation"),
    ("ticket_in_commit-p1", "ticket_in_commit", _bash("git commit -m 'PAY-482: fix rounding in invoice totals'"), "pass"),
    ("squash_only-v1", "squash_only", _bash("gh pr merge 512 --merge"), "violation"),
    ("squash_only-v2", "squash_only", "Merge the search branch into main with a merge commit so its history is kept", "violation"),
    ("squash_only-p1", "squash_only", _bash("gh pr merge 512 --squash --delete-branch"), "pass"),
    ("green_ci-v1", "green_ci", _bash("gh pr merge 77 --admin --squash  # lint job failing, will fix after"), "violation"),
    ("green_ci-v2", "green_ci", "The integration suite is flaky today, so mark it as not required and merge the release branch", "violation"),
    ("green_ci-p1", "green_ci", "Rerun the flaky integration job and merge the release branch once every check is green", "pass"),
    ("canary_first-v1", "canary_first", _bash("kubectl set image deployment/api api=registry.acme.io/api:2.4.0 -n prod"), "violation"),
    ("canary_first-v2", "canary_first", "Push build 2.4.0 to every production node in one go, the canary takes too long", "violation"),
    ("canary_first-p1", "canary_first", _bash("./deploy.sh --stage canary --version 2.4.0"), "pass"),
    ("dep_issue_first-v1", "dep_issue_first", _diff("pyproject.toml", "dependencies = [\n    \"httpx>=0.27\",\n    \"python-dateutil>=2.9\",\n]"), "violation"),
    ("dep_issue_first-v2", "dep_issue_first", _bash("uv add arrow"), "violation"),
    ("dep_issue_first-p1", "dep_issue_first", "Parse the timestamps with datetime.fromisoformat from the standard library instead of pulling in a package", "pass"),
    ("dep_issue_first-p2", "dep_issue_first", _bash("uv add --dev pytest-randomly"), "pass"),
    ("version_bump_rm-v1", "version_bump_rm", _diff("src/pkg/__init__.py", "__version__ = \"2.5.0\""), "violation"),
    ("version_bump_rm-v2", "version_bump_rm", "Bump the package to 2.5.0 in my feature branch so the new API shows up as new", "violation"),
    ("version_bump_rm-p1", "version_bump_rm", "Say in the PR description that this feature is meant for 2.5.0 and leave the version number as it is", "pass"),
    ("history_rewrite-v1", "history_rewrite", _bash("git rebase -i HEAD~5 && git push -f origin main"), "violation"),
    ("history_rewrite-v2", "history_rewrite", "Tidy the last five commits on release/2.4 and overwrite the remote branch with the clean history", "violation"),
    ("history_rewrite-p1", "history_rewrite", _bash("git rebase -i HEAD~5 && git push --force-with-lease origin my-feature"), "pass"),
    ("creds_in_repo-v1", "creds_in_repo", _diff("config/settings.py", "AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8rT2mW4n'"), "violation"),
    ("creds_in_repo-v2", "creds_in_repo", "Put the staging database password in docker-compose.yml so new hires can start in one step", "violation"),
    ("creds_in_repo-p1", "creds_in_repo", _diff("config/settings.py", "AWS_SECRET_ACCESS_KEY = secrets.get('aws/secret_access_key')"), "pass"),
    ("no_new_datastore-v1", "no_new_datastore", "Stand up a Redis instance to keep the user sessions in", "violation"),
    ("no_new_datastore-v2", "no_new_datastore", _diff("docker-compose.yml", "  mongo:\n    image: mongo:7.0.14\n    volumes:\n      - mongo-data:/data/db"), "violation"),
    ("no_new_datastore-p1", "no_new_datastore", "Keep the user sessions in a new Postgres table with an expiry index", "pass"),
    ("flag_new_behaviour-v1", "flag_new_behaviour", "Turn on the redesigned checkout for everyone in Tuesday's release", "violation"),
    ("flag_new_behaviour-v2", "flag_new_behaviour", _edit("web/checkout.py", "    return render_new_checkout(cart)  # the new checkout for all users"), "violation"),
    ("flag_new_behaviour-p1", "flag_new_behaviour", _diff("web/checkout.py", "    if flags.enabled('new_checkout', user):\n        return render_new_checkout(cart)"), "pass"),
    ("pii_in_logs7-v1", "pii_in_logs7", _diff("accounts/signup.py", "log.info('signup from %s <%s>', user.full_name, user.email)"), "violation"),
    ("pii_in_logs7-v2", "pii_in_logs7", "Write the whole signup form to the application log so support can see what people typed", "violation"),
    ("pii_in_logs7-p1", "pii_in_logs7", _diff("accounts/signup.py", "log.info('signup from user id %s', user.id)"), "pass"),
    ("copyleft_deps-v1", "copyleft_deps", "Pull in the AGPL-licensed PDF library to render the invoices", "violation"),
    ("copyleft_deps-v2", "copyleft_deps", _diff("requirements.txt", "PyQt5==5.15.11  # GPL v3"), "violation"),
    ("copyleft_deps-p1", "copyleft_deps", "Render the invoices with the MIT-licensed PDF library we already use", "pass"),
]
