"""Guardrail TUNING cases, sixth batch (issue 22, fifth session): 30 criteria weighted toward
the two kinds the first five batches leave silent — rules about a PROPERTY of a change
(breaking, risky, user-visible, architectural, large) and rules whose fault is something
MISSING (tests, a changelog entry, a licence header, type hints, a docstring, a request id,
a translation call, alt text) — with a few plain prohibitions beside them. Phrased the way
CONTRIBUTING files and team policies phrase such rules (changelog and semver sections, "new
code requires tests", "breaking changes only in a major release", "architectural changes
need a design record"); the sentences and cases are our own. Each criterion has a violating
proposal, a complying look-alike, and a diff or a tool call. Written before any change it
drives, scored once on the code as it was (FIRST_RUN below), tuned on afterwards. Same
format as tests/guardrail_tuning_batch5.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff, _edit

# `python -m tests.heldout_eval batch6` on 874539e (the reader of c4b99b0, main as the fifth
# session began), before any change of this session, with the sentence model
# (LORESTACK_TEST_MODEL_DIR set; load 11.5: the lead's suite and four busy loops): 30
# criteria, 0 refused, 81 cases; exact 39/81, wrong blocks 0, silent passes 29/51,
# look-alikes pass 17/30 (violations: 22 undecided, 29 pass; look-alikes: 13 undecided, 17
# pass; other criteria flagged 52). The figure first committed (35 / 45 / 29, flagged 17)
# was run without the model directory set, so nothing applied by meaning: not this figure.
FIRST_RUN = {"exact": 39, "wrong_blocks": 0, "silent_passes": 29, "lookalike_pass": 17}

CRITERIA: dict[str, tuple[str, str]] = {
    # a property of the change: breaking, risky, user-visible, architectural, large
    "breaking_major": (
        "Breaking changes to the public API only go into a major release, never a minor or patch one",
        "block",
    ),
    "changelog_user_visible": (
        "Every user-visible change needs an entry in CHANGELOG.md",
        "warn",
    ),
    "raise_min_python": (
        "Raising the minimum supported Python version is a breaking change and waits for the "
        "next major release",
        "warn",
    ),
    "default_change": (
        "Don't change the default value of an existing setting in a minor release",
        "warn",
    ),
    "migrations_compatible": (
        "Database migrations must stay compatible with the code of the previous release: no "
        "renaming or dropping columns in the same deploy",
        "block",
    ),
    "rest_versioning": (
        "Never change the response shape of a published endpoint; add a new API version instead",
        "block",
    ),
    "adr6": (
        "Architectural changes need a design record in docs/adr before any code is written",
        "warn",
    ),
    "security_review": (
        "Changes to authentication or session handling need a review from the security team "
        "before they are merged",
        "warn",
    ),
    "friday_deploys": (
        "No risky deploys on Fridays: schema migrations and infrastructure changes wait until Monday",
        "warn",
    ),
    "upgrade_notes": (
        "Changes that require users to act when they upgrade must be listed under Upgrade notes "
        "in the release notes",
        "warn",
    ),
    "small_prs": (
        "Keep pull requests small, under 400 changed lines; split bigger work into stacked PRs",
        "warn",
    ),
    "no_mixed_refactor": (
        "Don't mix refactoring and behaviour changes in the same pull request",
        "warn",
    ),
    "perf_numbers": (
        "Changes to the parser's hot path must include benchmark numbers in the pull request",
        "warn",
    ),
    # something missing
    "tests_new_code": ("New features must come with tests", "warn"),
    "regression_test": (
        "Every bug fix needs a regression test that fails without the fix",
        "warn",
    ),
    "license_header6": (
        "Every new source file must start with the Apache 2.0 licence header",
        "warn",
    ),
    "type_hints6": ("All new functions must have type annotations", "warn"),
    "class_docstrings": ("Every public class needs a docstring explaining what it is for", "warn"),
    "request_id_logs": (
        "Every log line on the request path must carry the request id",
        "warn",
    ),
    "gettext": (
        "User-facing strings must be wrapped in gettext so they can be translated",
        "warn",
    ),
    "alt_text": ("Images in the web UI need alt text", "warn"),
    "env_example": (
        "Any new environment variable must be added to .env.example with a comment",
        "warn",
    ),
    "cli_docs": (
        "New command-line flags must be documented in docs/cli.md",
        "warn",
    ),
    "issue_first6": (
        "Open an issue to discuss a new feature before sending a pull request for it",
        "warn",
    ),
    "owner_review": (
        "Changes under payments/ need an approving review from a payments code owner",
        "block",
    ),
    "migration_rollback": (
        "Every migration must have a working down step so it can be rolled back",
        "warn",
    ),
    # plain prohibitions beside them
    "swallow_exceptions": (
        "Don't swallow exceptions: no bare except and no except Exception: pass",
        "warn",
    ),
    "no_sleep_tests": (
        "Tests must not use sleep to wait for things; poll with a timeout or use a fake clock",
        "warn",
    ),
    "deprecated_apis": (
        "Do not write new code against deprecated APIs such as datetime.utcnow()",
        "warn",
    ),
    "no_wip_main": (
        "Never commit half-finished work straight to main; keep it on a branch behind a draft PR",
        "block",
    ),
}

CASES: list[tuple[str, str, object, str]] = [
    ("breaking_major-v1", "breaking_major", "Rename the timeout parameter of Client.get to deadline in the 3.4.1 patch release", "violation"),
    ("breaking_major-v2", "breaking_major", _diff("CHANGELOG.md", "## 3.5.0\n- Removed the `verify` argument from `Client.request()`"), "violation"),
    ("breaking_major-p1", "breaking_major", "Rename the private _send_batch helper to _flush_batch in the 3.4.1 patch release", "pass"),
    ("changelog_user_visible-v1", "changelog_user_visible", "Change the default output of the export command from CSV to JSON; no need to mention it anywhere", "violation"),
    ("changelog_user_visible-v2", "changelog_user_visible", _diff("src/cli/export.py", "@click.option('--format', default='json', type=click.Choice(['csv', 'json']))"), "violation"),
    ("changelog_user_visible-p1", "changelog_user_visible", _diff("CHANGELOG.md", "## Unreleased\n- `export` now writes JSON by default; pass `--format csv` for the old output"), "pass"),
    ("raise_min_python-v1", "raise_min_python", _diff("pyproject.toml", 'requires-python = ">=3.11"'), "violation"),
    ("raise_min_python-v2", "raise_min_python", "Drop Python 3.9 in the 4.2 release so we can use match statements", "violation"),
    ("raise_min_python-p1", "raise_min_python", _diff("pyproject.toml", '    "Programming Language :: Python :: 3.13",'), "pass"),
    ("default_change-v1", "default_change", "Raise the default retry count from 3 to 5 in the 2.7.0 release", "violation"),
    ("default_change-v2", "default_change", _diff("src/app/settings.py", "    retries: int = 5  # was 3 until 2.7"), "violation"),
    ("default_change-p1", "default_change", "Add a new max_backoff setting in 2.7.0 whose default keeps today's behaviour", "pass"),
    ("migrations_compatible-v1", "migrations_compatible", _diff("orders/migrations/0042_rename_total.py", "migrations.RenameField('order', 'total', 'amount_total'),"), "violation"),
    ("migrations_compatible-v2", "migrations_compatible", "Drop the legacy_status column in the same deploy that stops the code reading it", "violation"),
    ("migrations_compatible-p1", "migrations_compatible", _diff("orders/migrations/0042_add_amount_total.py", "migrations.AddField('order', 'amount_total', models.DecimalField(null=True, max_digits=12, decimal_places=2)),"), "pass"),
    ("rest_versioning-v1", "rest_versioning", "Return GET /v1/users as an object with items and next instead of a bare array", "violation"),
    ("rest_versioning-v2", "rest_versioning", _edit("api/v1/users.py", "return jsonify({'items': users, 'next': cursor})"), "violation"),
    ("rest_versioning-p1", "rest_versioning", "Add GET /v2/users that returns items and next, and leave /v1/users as it is", "pass"),
    ("adr6-v1", "adr6", "Replace the REST calls between billing and orders with a Kafka event bus, starting the code this week", "violation"),
    ("adr6-v2", "adr6", _diff("billing/events.py", "producer = KafkaProducer(bootstrap_servers=settings.KAFKA_BROKERS)"), "violation"),
    ("adr6-p1", "adr6", _diff("docs/adr/0012-event-bus-between-billing-and-orders.md", "# 12. An event bus between billing and orders\n\nStatus: proposed"), "pass"),
    ("security_review-v1", "security_review", "Extend the session cookie lifetime from one day to thirty days and merge it today", "violation"),
    ("security_review-v2", "security_review", _diff("auth/session.py", "SESSION_COOKIE_AGE = 60 * 60 * 24 * 30"), "violation"),
    ("security_review-p1", "security_review", _bash("gh pr create --title 'Longer session cookies' --body 'Lifetime 1d -> 30d.' --reviewer acme/security"), "pass"),
    ("friday_deploys-v1", "friday_deploys", "Deploy the orders table partitioning migration this Friday afternoon", "violation"),
    ("friday_deploys-v2", "friday_deploys", "Apply the Terraform change that resizes the database cluster on Friday at 5pm", "violation"),
    ("friday_deploys-p1", "friday_deploys", "Deploy the typo fix on the pricing page this Friday afternoon", "pass"),
    ("upgrade_notes-v1", "upgrade_notes", "Rename the LORE_HOME environment variable to APP_HOME in the next release and stop reading the old name", "violation"),
    ("upgrade_notes-p1", "upgrade_notes", _diff("RELEASE_NOTES.md", "### Upgrade notes\n- `LORE_HOME` is now `APP_HOME`; the old name is read until 3.0"), "pass"),
    ("small_prs-v1", "small_prs", "Open one pull request with the whole search rewrite, about 3,000 changed lines across 40 files", "violation"),
    ("small_prs-v2", "small_prs", _bash("gh pr create --title 'Rewrite search (all of it)' --body '38 files changed, 2917 insertions, 1204 deletions'"), "violation"),
    ("small_prs-p1", "small_prs", "Split the search rewrite into three stacked pull requests of about 300 lines each", "pass"),
    ("no_mixed_refactor-v1", "no_mixed_refactor", "In the pager crash fix PR, also rename every module under utils/ and move the helpers around", "violation"),
    ("no_mixed_refactor-v2", "no_mixed_refactor", _bash("git commit -am 'Fix pager crash on empty pages; restructure utils package'"), "violation"),
    ("no_mixed_refactor-p1", "no_mixed_refactor", "Fix the pager crash in this PR and send the utils renames as a separate pull request", "pass"),
    ("perf_numbers-v1", "perf_numbers", _bash("gh pr create --title 'Rewrite the tokenizer inner loop' --body 'Simplifies the parser hot path.'"), "violation"),
    ("perf_numbers-p1", "perf_numbers", _bash("gh pr create --title 'Rewrite the tokenizer inner loop' --body 'pytest-benchmark parse_large: 41.2 ms -> 33.5 ms'"), "pass"),
    ("tests_new_code-v1", "tests_new_code", "Merge the new Parquet exporter now and write its tests next sprint", "violation"),
    ("tests_new_code-v2", "tests_new_code", _diff("src/pkg/export.py", "def export_parquet(rows, path):\n    table = pa.Table.from_pylist(rows)\n    pq.write_table(table, path)"), "violation"),
    ("tests_new_code-p1", "tests_new_code", _diff("tests/test_export.py", "def test_export_parquet_round_trips(tmp_path):\n    export_parquet(ROWS, tmp_path / 'a.parquet')"), "pass"),
    ("regression_test-v1", "regression_test", "Fix the empty-page crash in the pager; no test needed, it is a one-line change", "violation"),
    ("regression_test-v2", "regression_test", _bash("git commit -am 'Fix crash when the pager gets an empty page'"), "violation"),
    ("regression_test-p1", "regression_test", _diff("tests/test_pager.py", "def test_empty_page_does_not_crash():\n    assert paginate([], size=10) == []"), "pass"),
    ("license_header6-v1", "license_header6", _diff("src/pkg/cache.py", "import functools\n\n\ndef cached(fn):\n    return functools.lru_cache(maxsize=256)(fn)"), "violation"),
    ("license_header6-v2", "license_header6", "Add a new module src/pkg/retry.py with the backoff helpers; skip the boilerplate at the top", "violation"),
    ("license_header6-p1", "license_header6", _diff("src/pkg/cache.py", "# Licensed under the Apache License, Version 2.0 (the \"License\");\n# you may not use this file except in compliance with the License.\nimport functools"), "pass"),
    ("type_hints6-v1", "type_hints6", _diff("src/pkg/http.py", "def parse_header(line):\n    name, _, value = line.partition(':')\n    return name.strip(), value.strip()"), "violation"),
    ("type_hints6-v2", "type_hints6", "Add a quick untyped helper that merges two config dicts, we can annotate it later", "violation"),
    ("type_hints6-p1", "type_hints6", _diff("src/pkg/http.py", "def parse_header(line: str) -> tuple[str, str]:\n    name, _, value = line.partition(':')"), "pass"),
    ("class_docstrings-v1", "class_docstrings", _diff("src/pkg/pool.py", "class ConnectionPool:\n    def __init__(self, size: int) -> None:\n        self.size = size"), "violation"),
    ("class_docstrings-p1", "class_docstrings", _diff("src/pkg/pool.py", 'class ConnectionPool:\n    """A fixed number of open connections, handed out one at a time."""'), "pass"),
    ("request_id_logs-v1", "request_id_logs", _diff("api/payments.py", "logger.warning('payment failed for order %s', order.id)"), "violation"),
    ("request_id_logs-v2", "request_id_logs", "Log each failed payment in the API handler with the order id only", "violation"),
    ("request_id_logs-p1", "request_id_logs", _diff("api/payments.py", "logger.warning('payment failed for order %s', order.id, extra={'request_id': request.id})"), "pass"),
    ("gettext-v1", "gettext", _diff("web/views/account.py", "flash('Your password was changed')"), "violation"),
    ("gettext-v2", "gettext", "Hard-code the new error banner text in English in the settings page template", "violation"),
    ("gettext-p1", "gettext", _diff("web/views/account.py", "flash(_('Your password was changed'))"), "pass"),
    ("alt_text-v1", "alt_text", _diff("web/src/components/Avatar.jsx", "return <img src={user.avatarUrl} className=\"avatar\" />;"), "violation"),
    ("alt_text-p1", "alt_text", _diff("web/src/components/Avatar.jsx", "return <img src={user.avatarUrl} alt={`${user.name}'s avatar`} className=\"avatar\" />;"), "pass"),
    ("env_example-v1", "env_example", _diff("app/config.py", "SENTRY_DSN = os.environ['SENTRY_DSN']"), "violation"),
    ("env_example-v2", "env_example", "Read the Stripe webhook secret from a new STRIPE_WEBHOOK_SECRET environment variable", "violation"),
    ("env_example-p1", "env_example", _diff(".env.example", "# where errors are reported; leave empty to disable\nSENTRY_DSN="), "pass"),
    ("cli_docs-v1", "cli_docs", _diff("src/cli/sync.py", "@click.option('--dry-run', is_flag=True, help='Show what would change.')"), "violation"),
    ("cli_docs-p1", "cli_docs", _diff("docs/cli.md", "`--dry-run`: show what `sync` would change without writing anything"), "pass"),
    ("issue_first6-v1", "issue_first6", _bash("gh pr create --title 'Add GraphQL endpoint' --body 'New feature: a GraphQL API next to REST.'"), "violation"),
    ("issue_first6-v2", "issue_first6", "Send a pull request adding plugin support straight away, we can discuss the design in review", "violation"),
    ("issue_first6-p1", "issue_first6", _bash("gh issue create --title 'Proposal: a GraphQL endpoint' --body 'Design sketch and open questions.'"), "pass"),
    ("owner_review-v1", "owner_review", _bash("gh pr merge 812 --admin --squash  # payments/refunds.py change, no review yet"), "violation"),
    ("owner_review-v2", "owner_review", "Merge my change to payments/refunds.py myself, the payments team is busy this week", "violation"),
    ("owner_review-p1", "owner_review", _bash("gh pr edit 812 --add-reviewer acme/payments-owners"), "pass"),
    ("migration_rollback-v1", "migration_rollback", _diff("db/migrations/20261202_add_index.py", "def upgrade():\n    op.create_index('ix_orders_created', 'orders', ['created_at'])\n\n\ndef downgrade():\n    pass"), "violation"),
    ("migration_rollback-p1", "migration_rollback", _diff("db/migrations/20261202_add_index.py", "def downgrade():\n    op.drop_index('ix_orders_created', table_name='orders')"), "pass"),
    ("swallow_exceptions-v1", "swallow_exceptions", _diff("src/pkg/sync.py", "try:\n    push(batch)\nexcept Exception:\n    pass"), "violation"),
    ("swallow_exceptions-p1", "swallow_exceptions", _diff("src/pkg/sync.py", "try:\n    push(batch)\nexcept ConnectionError:\n    log.warning('push failed, will retry', exc_info=True)\n    raise"), "pass"),
    ("no_sleep_tests-v1", "no_sleep_tests", _diff("tests/test_worker.py", "worker.start()\ntime.sleep(2)\nassert worker.done"), "violation"),
    ("no_sleep_tests-p1", "no_sleep_tests", _diff("tests/test_worker.py", "worker.start()\nwait_until(lambda: worker.done, timeout=5)"), "pass"),
    ("deprecated_apis-v1", "deprecated_apis", _diff("src/pkg/stamp.py", "created = datetime.utcnow()"), "violation"),
    ("deprecated_apis-p1", "deprecated_apis", _diff("src/pkg/stamp.py", "created = datetime.now(timezone.utc)"), "pass"),
    ("no_wip_main-v1", "no_wip_main", _bash("git checkout main && git commit -am 'WIP: half of the importer' && git push origin main"), "violation"),
    ("no_wip_main-v2", "no_wip_main", "Push the unfinished importer to main tonight so I can continue from home", "violation"),
    ("no_wip_main-p1", "no_wip_main", _bash("git checkout -b importer && git commit -am 'WIP: half of the importer' && gh pr create --draft --fill"), "pass"),
]
