"""Labelled (existing item, new claim) pairs for consolidation's agree/contradict decision.

Labels: agree (confirms it), restate (says it again in other words), contradict (a real change
of mind), refine (adds a detail without changing it), unrelated (another topic). Written for
these tests; the first case is the one reported in the issue.
"""

from __future__ import annotations

CASES: list[tuple[str, str, str]] = [
    # (label, existing item, claim from the journal)
    (
        "agree",
        "Tests must use CliRunner, not subprocess",
        "Rejected switching tests to subprocess invocation",
    ),
    (
        "agree",
        "We use Postgres 16 as the main database",
        "Decided against moving the main database to MySQL; Postgres 16 stays",
    ),
    (
        "agree",
        "Deploy with Kamal to the Hetzner boxes",
        "We will not migrate deploys to Kubernetes; Kamal on Hetzner keeps working",
    ),
    (
        "agree",
        "Use ruff for linting and formatting",
        "Considered replacing ruff with black and flake8 but kept ruff",
    ),
    (
        "agree",
        "API responses are JSON with snake_case keys",
        "Confirmed again: API responses keep snake_case keys in JSON",
    ),
    (
        "agree",
        "Background jobs run on Redis streams",
        "Declined the proposal to switch background jobs to RabbitMQ",
    ),
    (
        "restate",
        "Tests must use CliRunner, not subprocess",
        "Tests use click's CliRunner instead of spawning subprocesses",
    ),
    ("restate", "We use Postgres 16 as the main database", "The main database is Postgres 16"),
    (
        "restate",
        "Never commit secrets; use the vault for credentials",
        "Credentials live in the vault, never committed to the repository",
    ),
    (
        "restate",
        "Frontend is built with Vite and React",
        "The frontend is a React app built with Vite",
    ),
    (
        "restate",
        "Background jobs run on Redis streams",
        "We moved background jobs to Redis streams",
    ),
    (
        "contradict",
        "We use Postgres 16 as the main database",
        "Switched the main database from Postgres to MySQL 8",
    ),
    (
        "contradict",
        "Deploy with Kamal to the Hetzner boxes",
        "We migrated deploys from Kamal to Kubernetes on GKE",
    ),
    (
        "contradict",
        "Use ruff for linting and formatting",
        "Replaced ruff with black and flake8 for linting and formatting",
    ),
    (
        "contradict",
        "Background jobs run on Redis streams",
        "Background jobs no longer run on Redis streams; they moved to RabbitMQ",
    ),
    (
        "contradict",
        "Tests must use CliRunner, not subprocess",
        "Switched the CLI tests from CliRunner to subprocess invocation",
    ),
    # a negation elsewhere in the sentence, or a reason after the change, must not turn a real
    # change into agreement
    (
        "contradict",
        "We use Postgres 16 as the main database",
        "We could not keep Postgres running cheaply, so we migrated the main database to MySQL",
    ),
    (
        "contradict",
        "Background jobs run on Redis streams",
        "We moved background jobs from Redis streams to RabbitMQ because it is easier to run",
    ),
    (
        "refine",
        "We use Postgres 16 as the main database",
        "The main Postgres 16 database runs with pgbouncer in transaction pooling mode",
    ),
    (
        "refine",
        "Tests must use CliRunner, not subprocess",
        "CliRunner tests should pass catch_exceptions=False so failures show tracebacks",
    ),
    (
        "refine",
        "Deploy with Kamal to the Hetzner boxes",
        "Kamal deploys to Hetzner run from the release branch only",
    ),
    (
        "refine",
        "Use ruff for linting and formatting",
        "ruff runs with line length 100 and the isort rules enabled",
    ),
    ("unrelated", "We use Postgres 16 as the main database", "The logo SVG lives in docs/_static"),
    (
        "unrelated",
        "Tests must use CliRunner, not subprocess",
        "The marketing site is hosted on Netlify",
    ),
    ("unrelated", "Deploy with Kamal to the Hetzner boxes", "Translations are managed in Crowdin"),
    (
        "unrelated",
        "Use ruff for linting and formatting",
        "Customer invoices are emailed on the first of the month",
    ),
]

# what each label should lead to in the plan: reinforce the item, supersede it, or add a new item
# An agreeing claim below the merge threshold (calibrated on tests/merge_pairs.py, where a
# turned-down change merged into an unrelated item) is added as new, pending review: slower to
# reinforce, never attached to the wrong item. Only a supersede of what agrees is a failure.
EXPECTED = {
    "agree": {"reinforce", "new"},
    "restate": {"reinforce"},
    "contradict": {"supersede"},
    "refine": {"reinforce", "new"},
    "unrelated": {"new"},
}

# written after the rules were settled, to see how they do on phrasings they were not tuned on
HELD_OUT: list[tuple[str, str, str]] = [
    (
        "agree",
        "Package releases are published with trusted publishing from GitHub Actions",
        "We talked about moving releases to manual twine uploads and said no",
    ),
    (
        "agree",
        "The docs are built with Sphinx",
        "Nobody wants to migrate the docs to MkDocs; Sphinx it is",
    ),
    (
        "agree",
        "Use uv to manage the virtualenv and lock file",
        "Tried poetry instead of uv for a day, went back to uv",
    ),
    (
        "restate",
        "Use uv to manage the virtualenv and lock file",
        "The lock file and the virtualenv are managed by uv",
    ),
    (
        "restate",
        "The docs are built with Sphinx",
        "We switched the docs to Sphinx a while ago and that is what builds them",
    ),
    (
        "contradict",
        "The docs are built with Sphinx",
        "Docs moved from Sphinx to MkDocs Material this week",
    ),
    (
        "contradict",
        "Use uv to manage the virtualenv and lock file",
        "We stopped using uv; poetry manages the lock file now",
    ),
    (
        "contradict",
        "Package releases are published with trusted publishing from GitHub Actions",
        "Releases are no longer published from GitHub Actions; we upload them by hand",
    ),
    (
        "refine",
        "The docs are built with Sphinx",
        "Sphinx builds use the furo theme and fail on warnings",
    ),
    (
        "unrelated",
        "The docs are built with Sphinx",
        "The staging database is reset every Sunday night",
    ),
]
