"""A labelled set for consolidation's merge threshold: a claim against an item memory holds.

`True`: the claim is about the same thing as the item (restates, confirms, refines it, or
turns down an alternative to it), so merging it in as more evidence is right. `False`: the
claim shares the project's vocabulary (same tools, same files, same kind of sentence) but is
about something else; merging it would attach unrelated evidence to a person's item.

Written by hand for lorestack before the threshold was calibrated on it; the first run on
the thresholds of the time is recorded in FIRST_RUN. It is a calibration set (the threshold is
chosen on it), so it is not a held-out figure.
"""

from __future__ import annotations

# (claim, existing item, same subject?)
PAIRS: list[tuple[str, str, bool]] = [
    # --- same subject -------------------------------------------------------------------------
    ("We run the background jobs on Redis streams now.",
     "Background jobs run on Redis streams (moved from RabbitMQ in March).", True),
    ("Rejected moving the job queue back to RabbitMQ: Redis streams cover our volume.",
     "Background jobs run on Redis streams (moved from RabbitMQ in March).", True),
    ("Tests use click's CliRunner, not subprocess, for CLI commands.",
     "Use CliRunner for CLI tests; never spawn subprocesses in unit tests.", True),
    ("Decided against switching the test runner from pytest to unittest.",
     "The test suite runs on pytest with the xdist plugin.", True),
    ("Pinned urllib3 below 2 because the vendored proxy code breaks with 2.x.",
     "urllib3 stays pinned to <2 until the proxy handling is rewritten.", True),
    ("The API is served by uvicorn behind nginx on port 8080.",
     "Production serves the API with uvicorn behind nginx (port 8080).", True),
    ("Keep the Postgres connection pool at 20; higher caused lock contention.",
     "Postgres pool size is 20 connections per worker.", True),
    ("Ruff replaces flake8 and isort for linting.",
     "Linting is ruff only (flake8 and isort were dropped).", True),
    ("Releases are cut from the main branch with a signed tag.",
     "Release process: tag main with a signed tag, CI publishes the wheel.", True),
    ("We considered GraphQL for the public API but kept REST.",
     "The public API is REST with OpenAPI docs; no GraphQL.", True),
    ("Feature flags live in LaunchDarkly, not in environment variables.",
     "Feature flags are managed in LaunchDarkly.", True),
    ("Migrations run with alembic before each deploy.",
     "Database migrations: alembic upgrade head runs in the deploy job.", True),
    ("Never log request bodies: they carry customer addresses.",
     "Do not log HTTP request bodies (PII).", True),
    ("The frontend builds with Vite; webpack was removed.",
     "Frontend bundling uses Vite.", True),
    ("Python 3.8 support stays until the 3.0 release.",
     "We support Python 3.8 through the 2.x series; dropping it waits for 3.0.", True),
    ("Proxy settings are read from NO_PROXY and HTTPS_PROXY only.",
     "Proxy configuration comes from the NO_PROXY/HTTPS_PROXY environment variables.", True),
    ("Turned down the idea of caching sessions in memcached; Redis already holds them.",
     "Sessions are stored in Redis with a 24 h TTL.", True),
    ("The nightly backup goes to the S3 bucket in eu-west-1.",
     "Backups: nightly dump to S3 (eu-west-1), kept 30 days.", True),
    ("Error codes are prefixed with the component, e.g. BIL- for billing.",
     "Every error code starts with its component prefix (BIL-, IDN-, PAY-).", True),
    ("Dependabot PRs are merged only after the integration suite passes.",
     "Dependency update PRs need a green integration run before merge.", True),
    ("We keep httpbin as a pytest fixture rather than an external service.",
     "Tests use the pytest-httpbin fixture instead of a live httpbin.", True),
    # --- same vocabulary, other subject --------------------------------------------------------
    ("Rejected switching the test suite to subprocess-based httpbin.",
     "Proxy caveat: requests honours NO_PROXY only for exact host matches.", False),
    ("Rejected moving the job queue back to RabbitMQ: Redis streams cover our volume.",
     "Sessions are stored in Redis with a 24 h TTL.", False),
    ("Decided against switching the test runner from pytest to unittest.",
     "Tests use the pytest-httpbin fixture instead of a live httpbin.", False),
    ("Pinned urllib3 below 2 because the vendored proxy code breaks with 2.x.",
     "Proxy configuration comes from the NO_PROXY/HTTPS_PROXY environment variables.", False),
    ("Keep the Postgres connection pool at 20; higher caused lock contention.",
     "Database migrations: alembic upgrade head runs in the deploy job.", False),
    ("Ruff replaces flake8 and isort for linting.",
     "Type checking runs mypy in strict mode on the core package.", False),
    ("Releases are cut from the main branch with a signed tag.",
     "Feature branches are rebased on main before review.", False),
    ("We considered GraphQL for the public API but kept REST.",
     "The admin API is internal and needs a VPN connection.", False),
    ("Feature flags live in LaunchDarkly, not in environment variables.",
     "Secrets are read from environment variables injected by the platform.", False),
    ("Migrations run with alembic before each deploy.",
     "The deploy job waits for the smoke tests before switching traffic.", False),
    ("Never log request bodies: they carry customer addresses.",
     "Log lines are JSON with the request id as a field.", False),
    ("The frontend builds with Vite; webpack was removed.",
     "The frontend's unit tests run with Vitest in CI.", False),
    ("Python 3.8 support stays until the 3.0 release.",
     "The 3.0 release renames the Session class to Client.", False),
    ("The nightly backup goes to the S3 bucket in eu-west-1.",
     "User uploads are stored in S3 with a CloudFront cache in front.", False),
    ("Error codes are prefixed with the component, e.g. BIL- for billing.",
     "Billing invoices are generated on the first day of each month.", False),
    ("Dependabot PRs are merged only after the integration suite passes.",
     "The integration suite needs Docker and takes about 12 minutes.", False),
    ("We run the background jobs on Redis streams now.",
     "Redis is deployed as a managed ElastiCache cluster with two replicas.", False),
    ("Tests use click's CliRunner, not subprocess, for CLI commands.",
     "The CLI prints JSON with --json and tables otherwise.", False),
    ("The API is served by uvicorn behind nginx on port 8080.",
     "Grafana dashboards run on port 3000 behind the same nginx.", False),
    ("Turned down the idea of caching sessions in memcached; Redis already holds them.",
     "Background jobs run on Redis streams (moved from RabbitMQ in March).", False),
    ("We keep httpbin as a pytest fixture rather than an external service.",
     "Never run the integration tests against production services.", False),
]

# thresholds of the time (similar 0.5 for a turned-down change, duplicate 0.7 otherwise), first
# run: see the commit that added this set
FIRST_RUN = "merged right 17 of 21, wrong merges 1 of 21 (0.658), missed 4"
