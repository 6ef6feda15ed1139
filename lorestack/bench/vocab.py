"""Word pools for the synthetic coding-memory benchmark (see bench_generate.py).

Plain data, kept apart from the generator so the scenario logic stays readable. Order
matters: the generator draws from these lists with a seeded `random.Random`, so editing a
list changes every generated set (and the committed tests/data/bench_small.jsonl).
"""

from __future__ import annotations

PROJECT_NAMES = [
    "ledgerline", "pixelforge", "tidewater", "quillstack", "orbitdesk", "harbormaster",
    "saltmine", "brightpath", "cobaltcart", "fernweh", "lumenboard", "granary",
]

PEOPLE = ["Priya", "Marco", "Lena", "Tomás", "Aiko", "Sven", "Nadia", "Omar", "Jules", "Chen"]

# component name, error-code prefix, nouns used in identifiers and prose
COMPONENTS = [
    ("billing", "BIL", ["invoice", "ledger", "tax_rate"]),
    ("identity", "IDN", ["login", "refresh", "mfa"]),
    ("search", "SRCH", ["query", "facet", "ranking"]),
    ("notifications", "NTF", ["push", "digest", "template"]),
    ("payments", "PAY", ["charge", "refund", "payout"]),
    ("ingest", "ING", ["batch", "upload", "parser"]),
    ("reporting", "RPT", ["report", "chart", "rollup"]),
    ("scheduler", "SCH", ["job", "cron", "lease"]),
    ("gateway", "GW", ["route", "rate_limit", "proxy"]),
    ("catalog", "CAT", ["product", "variant", "price"]),
    ("inventory", "INV", ["stock", "reservation", "warehouse"]),
    ("webhooks", "WH", ["delivery", "signature", "retry"]),
    ("sync", "SYN", ["device", "cursor", "conflict"]),
    ("media", "MED", ["thumbnail", "upload", "transcode"]),
    ("accounts", "ACC", ["profile", "invite", "team"]),
    ("audit", "AUD", ["trail", "export", "retention"]),
]

VERBS = ["sync", "flush", "resolve", "apply", "compute", "parse", "render", "retry",
         "reconcile", "validate", "load", "merge", "schedule", "normalize", "encode"]

# stack: file extension, source root, lock file, libraries with a starting version
STACKS = {
    "python": {
        "ext": "py", "src": "src", "lock": "requirements/base.txt", "style": "snake",
        "libs": [("pydantic", "2.5.3"), ("httpx", "0.25.2"), ("sqlalchemy", "2.0.25"),
                 ("celery", "5.3.6"), ("fastapi", "0.109.0"), ("alembic", "1.13.1"),
                 ("redis", "5.0.1"), ("pytest", "7.4.4"), ("boto3", "1.34.20"),
                 ("structlog", "23.3.0")],
    },
    "typescript": {
        "ext": "ts", "src": "packages", "lock": "pnpm-lock.yaml", "style": "camel",
        "libs": [("react", "18.2.0"), ("vite", "5.0.12"), ("prisma", "5.8.1"), ("zod", "3.22.4"),
                 ("typescript", "5.3.3"), ("eslint", "8.56.0"), ("next", "14.0.4"),
                 ("vitest", "1.2.1"), ("axios", "1.6.5"), ("pino", "8.17.2")],
    },
    "go": {
        "ext": "go", "src": "internal", "lock": "go.mod", "style": "camel",
        "libs": [("gin", "1.9.1"), ("pgx", "5.5.2"), ("zap", "1.26.0"), ("cobra", "1.8.0"),
                 ("testify", "1.8.4"), ("grpc-go", "1.60.1"), ("chi", "5.0.11"),
                 ("sqlc", "1.25.0"), ("viper", "1.18.2"), ("otel", "1.21.0")],
    },
}

# symptom, cause, fix; {noun} and {func} are filled per component
BUGS = [
    ("duplicate {noun} rows after a timeout",
     "the retry loop re-sent the request without the idempotency key",
     "thread the idempotency key through `{func}`"),
    ("{noun} totals off by one cent", "float rounding inside `{func}`",
     "switch the arithmetic to Decimal with banker's rounding"),
    ("500s under load", "`{func}` never returned its DB connection to the pool",
     "wrap the session in a context manager"),
    ("stale {noun} data served for hours", "the cache key built in `{func}` ignored the tenant id",
     "add the tenant id to the cache key"),
    ("a deadlock on {noun} writes", "two workers took row locks in opposite order in `{func}`",
     "lock rows sorted by primary key"),
    ("{noun} dates shifted by one hour", "`{func}` parsed naive timestamps as local time",
     "normalise to UTC at the API boundary"),
    ("steady memory growth in the worker", "`{func}` appended every {noun} to a module-level list",
     "stream the rows instead of collecting them"),
    ("401s right after a deploy", "the JWT audience checked in `{func}` still named the old host",
     "read the audience from settings"),
    ("empty {noun} pages at the end of a listing", "an off-by-one in the cursor logic of `{func}`",
     "compare the cursor with >= instead of >"),
    ("a crash on non-ASCII {noun} names", "`{func}` encoded strings as latin-1",
     "encode as UTF-8 end to end"),
    ("slow {noun} listings", "N+1 queries issued by `{func}`", "eager-load the relation with a join"),
    ("random {noun} ordering in exports", "`{func}` sorted only by created_at, which has ties",
     "add the id as a tie-breaker"),
]

# decision topics: (topic, [(option, why it wins, why it loses)])
DECISIONS = [
    ("background job queue", [
        ("Redis streams", "we already run Redis and consumer groups cover our retry needs",
         "we would need our own dead-letter handling"),
        ("Kafka", "it scales to any throughput", "it is far too much operational weight for three people"),
        ("SQS", "it is fully managed", "there is no local emulator we trust for integration tests"),
        ("RabbitMQ", "routing keys fit the fan-out", "nobody wants to own Erlang clustering"),
    ]),
    ("primary database", [
        ("Postgres 16", "JSONB plus row-level security, and everyone knows it",
         "logical replication setup is fiddly"),
        ("MySQL 8", "managed offerings are cheap", "its JSON support is weaker and DDL is not transactional"),
        ("MongoDB", "schemaless documents suit the early model", "we need multi-row transactions"),
        ("CockroachDB", "it survives a region loss", "latency and price make no sense for one region"),
    ]),
    ("cache layer", [
        ("Redis", "it is already deployed and supports per-key TTLs", "a second Redis role to monitor"),
        ("Memcached", "it is dead simple", "it has no persistence and none of the data structures we need"),
        ("an in-process LRU", "zero network hops", "each pod would hold a different view of the data"),
        ("Varnish", "great at HTTP caching", "our hot path is internal calls, not HTTP responses"),
    ]),
    ("deploy target", [
        ("Fly.io", "one command deploys with private networking included", "fewer regions than AWS"),
        ("Kubernetes on EKS", "the industry default", "the cluster would need a dedicated operator"),
        ("Heroku", "the smoothest developer experience", "pricing jumps and there is no private networking"),
        ("plain EC2 with Ansible", "full control", "we would end up with snowflake servers again"),
    ]),
    ("frontend state management", [
        ("Zustand", "tiny API and the store is easy to test", "less structure for big teams"),
        ("Redux Toolkit", "great devtools", "too much boilerplate for our dashboard"),
        ("MobX", "very little code", "its implicit reactivity confused reviewers"),
        ("React context alone", "no dependency at all", "it caused re-render storms on the dashboard"),
    ]),
    ("API style for the mobile client", [
        ("REST with an OpenAPI spec", "we can generate the Kotlin client from the spec",
         "more round trips on some screens"),
        ("GraphQL", "clients ask for exactly what they need", "caching and N+1 resolvers get painful"),
        ("gRPC-web", "strict schemas", "it needs a proxy and browser tooling is poor"),
        ("tRPC", "end-to-end types", "it is TypeScript only and the mobile app is Kotlin"),
    ]),
    ("feature flag system", [
        ("self-hosted Unleash", "open source with gradual rollouts", "one more service to run"),
        ("LaunchDarkly", "polished targeting rules", "the per-seat price is steep for us"),
        ("plain environment variables", "no moving parts", "flipping one needs a redeploy"),
        ("a homegrown flags table", "fully ours", "nobody wants to build targeting rules"),
    ]),
    ("tracing and metrics stack", [
        ("OpenTelemetry with Grafana Tempo", "vendor neutral and cheap to store",
         "dashboards take effort"),
        ("Datadog", "everything in one place", "the bill at our log volume would be huge"),
        ("Jaeger on its own", "simple tracing", "it gives us no metrics"),
        ("New Relic", "easy agents", "the agent overhead showed up in our benchmarks"),
    ]),
    ("full-text search backend", [
        ("Postgres full-text search", "no extra cluster and it is transactional with our data",
         "ranking is basic"),
        ("Elasticsearch", "powerful relevance tuning", "another cluster to babysit"),
        ("Meilisearch", "fast and typo tolerant", "its per-tenant filtering did not convince us"),
        ("Algolia", "zero ops", "customer data would leave our region"),
    ]),
    ("PDF generation", [
        ("WeasyPrint", "HTML and CSS templates the designers already write", "slow on huge tables"),
        ("headless Chrome", "pixel perfect output", "it eats memory on the worker nodes"),
        ("wkhtmltopdf", "battle tested", "it is unmaintained"),
        ("ReportLab", "fine-grained control", "we would lay out every page by hand"),
    ]),
]

# knowledge updates: (thing, [(name, where)], question templates)
MIGRATIONS = [
    ("CI", [("Jenkins", "ci/Jenkinsfile"), ("GitHub Actions", ".github/workflows/ci.yml"),
            ("Buildkite", ".buildkite/pipeline.yml")],
     ["Where do our CI builds run these days?", "Which CI system are we on at the moment?"]),
    ("container registry", [("Docker Hub", "the acme org"), ("GHCR", "ghcr.io under the org"),
                            ("ECR", "the eu-west-1 account")],
     ["Which registry should I push images to now?", "Where do our container images live currently?"]),
    ("error tracking", [("self-hosted Sentry", "sentry.internal"), ("Sentry SaaS", "the EU region"),
                        ("Rollbar", "the team workspace")],
     ["What do we use for error tracking right now?", "Where do exceptions get reported these days?"]),
    ("log shipping", [("Fluentd", "a DaemonSet"), ("Vector", "a sidecar per pod"),
                      ("the OpenTelemetry collector", "the gateway deployment")],
     ["What ships our logs at the moment?", "Which agent forwards logs nowadays?"]),
    ("linting", [("flake8 plus isort", "setup.cfg"), ("ruff", "pyproject.toml"),
                 ("ruff with the preview rules", "ruff.toml")],
     ["Which linter setup is current?", "What are we linting with now?"]),
    ("on-call paging", [("PagerDuty", "the primary schedule"), ("Opsgenie", "the team rotation"),
                        ("Grafana OnCall", "the shared escalation chain")],
     ["Which tool pages the on-call person now?", "What do we use for paging these days?"]),
]

# rules stated once, early: (statement, question, answer, item type when seeded as L1/L2)
RULES = [
    ("Preference: keep pull requests under {n} changed lines; split anything bigger before review.",
     "How large can a PR get before I should break it up?", "{n} changed lines", "preference"),
    (("For the {table} table every migration needs a reversible down step and a dry run on "
      "staging before it merges."),
     "I'm writing a schema change for {table} - what has to happen before it can merge?",
     "a reversible down step and a staging dry run", "criterion"),
    (("Never run `make reset-db` against staging: it drops the {schema} schema and reseeding "
      "takes three hours."),
     "Can I just wipe the staging database with the make target?", "no - it drops {schema}",
     "caveat"),
    ("I prefer table-driven tests with plain asserts; no test class hierarchies in new tests.",
     "What style should new tests be written in?", "table-driven tests with plain asserts",
     "preference"),
    ("New dependencies get a license check first: nothing AGPL or SSPL ships in {project}.",
     "Are there any rules about pulling in a new library?", "license check, no AGPL or SSPL",
     "criterion"),
    ("Commit messages: ticket id first, then imperative mood, like `{ticket}-123 Add export`.",
     "How do I format commit messages in this repo?", "ticket id first, imperative mood",
     "preference"),
    ("No dependency bumps on Fridays; releases go out Monday to Thursday only.",
     "Is it fine to ship a library upgrade at the end of the week?",
     "no - releases Monday to Thursday only", "criterion"),
    ("Anything public under api/v1 stays for two releases with a deprecation notice before removal.",
     "Can I delete the old endpoint from the v1 API right away?",
     "no - two releases with a deprecation notice", "criterion"),
    ("Log lines must never contain email addresses; log the hashed user id instead.",
     "Can I put the user's email in the failed-login log message?", "no - hashed user id",
     "caveat"),
    ("Keep explanations short: show the diff first, then at most three bullets of why.",
     "How do you want me to present a change?", "diff first, at most three bullets",
     "preference"),
    ("Unfinished features go behind a flag in {flagfile}; no long-lived branches.",
     "Should I keep the half-done onboarding on its own branch for a while?",
     "no - behind a flag in {flagfile}", "preference"),
]

TABLES = ["users", "orders", "invoices", "accounts", "subscriptions", "events"]
SCHEMAS = ["tenant_data", "analytics", "core", "billing_v2"]

OUTAGE_CAUSES = [
    "the TLS certificate on {host} expired",
    "a migration held a lock on the {noun} table",
    "the disk on {host} filled up with debug logs",
    "build {build} of {component} crash-looped on start",
    "DNS for {host} still pointed at the old load balancer",
    "the connection limit on the primary database was hit",
]
# follow-up actions done the next day (never name the outage itself)
FOLLOW_UPS = [
    "Added an expiry alert for every certificate under monitoring/alerts/{slug}.yaml.",
    "Set a lock_timeout of 5s for all migrations in scripts/migrate.{ext}.",
    "Moved debug logging behind LOG_LEVEL and capped log volumes on {host}.",
    "Added a readiness probe and a canary step to deploy/{slug}.yaml.",
    "Lowered the DNS TTL for {host} to 60 seconds and documented the cut-over steps.",
    "Put PgBouncer in front of the primary and capped pool sizes per service.",
]

RELEASE_FEATURES = [
    "bulk {noun} export", "{noun} search filters", "dark mode for the dashboard",
    "SAML login", "CSV import for {noun}s", "webhook retries with backoff", "audit log viewer",
    "per-tenant rate limits", "{noun} archiving", "faster {noun} listing", "two-factor recovery codes",
    "a public status page", "usage-based billing preview", "Slack notifications",
]
