"""The labelled guardrail set: criteria as a user would record them, and (proposal, expected
verdict, criteria expected to fire) cases — the classics, path-scoped rules, superseded and
archived criteria, and look-alikes that must pass.

A proposal is a string (prose) or a dict: {"text": added text, "paths": [...]} for a diff, or
{"payload": {...}, "client": ...} for a client's pre-tool hook payload.
"""

from __future__ import annotations

# key -> keyword arguments for operations.remember (criterion spec under "spec")
CRITERIA: dict[str, dict] = {
    "cron": dict(
        text="No cron for one-off tasks",
        spec=dict(
            keywords=["one-off", "one-time", "ad-hoc", "run once"],
            forbid=["cron", "crontab", "systemd timer"],
            verdict="block",
            rationale="one-off jobs left in crontab get forgotten and rerun months later",
        ),
    ),
    "storage": dict(
        text="No new storage component this quarter",
        spec=dict(
            keywords=[
                "database",
                "datastore",
                "storage",
                "cache",
                "queue",
                "redis",
                "postgres",
                "mongodb",
                "kafka",
                "elasticsearch",
                "memcached",
            ],
            forbid=[
                r"/\b(add|adding|introduc\w*|new|spin(ning)? up|provision\w*|"
                r"stand(ing)? up|deploy\w*)\b(\W+\w+){0,3}?\W+(database|datastore|redis|"
                r"postgres\w*|mongo\w*|dynamodb|elasticsearch|kafka|cassandra|memcached|"
                r"cache|queue)s?\b/"
            ],
            unless=["ADR"],
            verdict="block",
            rationale="the ops team can run only what we already have until Q3",
        ),
    ),
    "reuse": dict(
        text="New projects must reuse existing user or content assets",
        spec=dict(
            keywords=["new project", "new app", "new service", "greenfield"],
            require=[r"/\breus(e|es|ing)\b|existing (user|content|asset)/"],
            verdict="block",
            rationale="every new silo of users/content cost us a migration later",
        ),
    ),
    "infra": dict(
        text="Nothing under infra/ without a review note",
        spec=dict(
            paths=["infra/**"],
            require=["review note"],
            verdict="block",
            rationale="infra changes reach production directly",
        ),
    ),
    "generated": dict(
        text="Never edit generated code under gen/",
        spec=dict(
            paths=["gen/**"],
            forbid=["path:gen/**"],
            verdict="block",
            rationale="gen/ is overwritten by `make proto`",
        ),
    ),
    "changelog": dict(
        text="Changes under src/ update CHANGELOG.md",
        spec=dict(paths=["src/**"], require=["path:CHANGELOG.md"], verdict="warn"),
    ),
    "migrations": dict(
        text="Database migrations must be reversible",
        spec=dict(paths=["migrations/**"], require=["/def downgrade|reversible/"], verdict="warn"),
    ),
    "force_push": dict(
        text="Never force-push to main",
        spec=dict(
            keywords=["push"],
            forbid=[
                r"/push\b[^\n;&|]*(--force\b|\s-f\b)[^\n;&|]*\bmain\b|"
                r"push\b[^\n;&|]*\bmain\b[^\n;&|]*(--force\b|\s-f\b)/"
            ],
            verdict="block",
        ),
    ),
    "deps": dict(
        text="New dependencies need a written justification",
        spec=dict(
            keywords=["pip install", "npm install", "new dependency", "add dependency"],
            require=["because | justification | needed for"],
            verdict="warn",
        ),
    ),
    "sudo": dict(
        text="No sudo in project scripts",
        scope="global",
        spec=dict(keywords=["sudo"], forbid=["sudo"], verdict="block"),
    ),
    "api_compat": dict(
        text="Keep the public API backwards compatible", spec=dict(keywords=["api", "endpoint"])
    ),  # not decidable: notes only
    # superseded: the old rule must no longer fire, the new one must
    "js_old": dict(
        text="No TypeScript in the frontend",
        spec=dict(keywords=["frontend"], forbid=["typescript"], verdict="block"),
    ),
    "js_new": dict(
        text="New frontend files are TypeScript, not JavaScript",
        supersedes="js_old",
        spec=dict(
            paths=["frontend/**"],
            forbid=["path:frontend/**/*.js | path:frontend/**/*.jsx"],
            verdict="warn",
        ),
    ),
    # archived with `forget`: must not fire
    "friday": dict(
        text="No deploys on Fridays",
        forget=True,
        spec=dict(keywords=["deploy"], forbid=["friday"], verdict="block"),
    ),
}

# (case id, proposal, expected verdict, criteria expected to fire)
CASES: list[tuple[str, object, str, set[str]]] = [
    # -- no cron for one-off tasks
    ("cron-1", "Add a cron job to run the one-off data migration tonight", "block", {"cron"}),
    ("cron-2", "One-off cleanup: put it in crontab and let it run at 3am", "block", {"cron"}),
    ("cron-3", "Run the one-time backfill with a systemd timer", "block", {"cron"}),
    ("cron-4", "Run the one-off migration by hand; no cron needed", "pass", set()),
    (
        "cron-5",
        "For this ad-hoc import, instead of cron we trigger it manually once",
        "pass",
        set(),
    ),
    ("cron-6", "Add a cron job for the nightly backup", "pass", set()),  # recurring: fine
    (
        "cron-7",
        "The one-off script runs once from the CLI, without any crontab entry",
        "pass",
        set(),
    ),
    # -- no new storage component this quarter
    ("storage-1", "Add Redis as a cache for user sessions", "block", {"storage"}),
    ("storage-2", "Introduce a new Memcached layer in front of the API", "block", {"storage"}),
    ("storage-3", "Spin up a Kafka queue for order events", "block", {"storage"}),
    ("storage-4", "Store sessions in the existing Postgres database", "pass", set()),
    ("storage-5", "We will not add a new database; reuse the orders table", "pass", set()),
    ("storage-6", "Add a column to the existing orders table in Postgres", "pass", set()),
    ("storage-7", "Add Redis for rate limiting, approved in ADR-14", "pass", set()),
    ("storage-8", "Avoid adding a cache for now, measure first", "pass", set()),
    # -- new projects must reuse existing assets
    (
        "reuse-1",
        "Start a new project for the recipes app with its own user database",
        "block",
        {"reuse"},
    ),
    (
        "reuse-2",
        "Start a new project for recipes that reuses the existing user accounts",
        "pass",
        set(),
    ),
    ("reuse-3", "Greenfield service for invoices, built from scratch", "block", {"reuse"}),
    ("reuse-4", "New service for search that does not reuse anything", "block", {"reuse"}),
    ("reuse-5", "Refactor the project build scripts", "pass", set()),  # look-alike
    # -- nothing under infra/ without a review note
    (
        "infra-1",
        {"text": 'resource "aws_s3_bucket" "logs" {}', "paths": ["infra/main.tf"]},
        "block",
        {"infra"},
    ),
    (
        "infra-2",
        {
            "text": "Review note: approved by Ana (ticket OPS-7)\nbucket = true",
            "paths": ["infra/main.tf"],
        },
        "pass",
        set(),
    ),
    ("infra-3", {"text": "print('hi')", "paths": ["src/app.py", "CHANGELOG.md"]}, "pass", set()),
    (
        "infra-4",
        {"text": "# infrastructure notes", "paths": ["infrastructure/README.md"]},
        "pass",
        set(),
    ),  # look-alike path
    ("infra-5", "Change infra/terraform/vpc.tf without a review note", "block", {"infra"}),
    (
        "infra-6",
        {
            "payload": {
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": "{repo}/infra/dns.tf", "content": 'record "www" {}'},
            }
        },
        "block",
        {"infra"},
    ),
    # -- generated code, changelog, migrations (path terms and regexes)
    ("gen-1", {"text": "x = 1", "paths": ["gen/api_pb2.py"]}, "block", {"generated"}),
    (
        "gen-2",
        {
            "payload": {
                "tool_name": "Edit",
                "tool_input": {
                    "file_path": "{repo}/gen/user_pb2.py",
                    "old_string": "a",
                    "new_string": "b",
                },
            }
        },
        "block",
        {"generated"},
    ),
    (
        "gen-3",
        {"text": "def generate(): ...", "paths": ["src/generator.py", "CHANGELOG.md"]},
        "pass",
        set(),
    ),  # look-alike
    ("changelog-1", {"text": "def f(): pass", "paths": ["src/app.py"]}, "warn", {"changelog"}),
    (
        "changelog-2",
        {"text": "def f(): pass\n- fixed f", "paths": ["src/app.py", "CHANGELOG.md"]},
        "pass",
        set(),
    ),
    (
        "migrations-1",
        {
            "text": "def upgrade():\n    op.add_column('t', 'c')",
            "paths": ["migrations/0042_add_c.py"],
        },
        "warn",
        {"migrations"},
    ),
    (
        "migrations-2",
        {
            "text": "def upgrade(): ...\ndef downgrade(): ...",
            "paths": ["migrations/0043_drop_c.py"],
        },
        "pass",
        set(),
    ),
    # -- tool calls: force push, dependencies, sudo (a global criterion)
    (
        "push-1",
        {
            "payload": {
                "tool_name": "Bash",
                "tool_input": {"command": "git push --force origin main"},
            }
        },
        "block",
        {"force_push"},
    ),
    (
        "push-2",
        {"payload": {"tool_name": "Bash", "tool_input": {"command": "git push origin main"}}},
        "pass",
        set(),
    ),
    (
        "push-3",
        {
            "payload": {
                "tool_name": "Bash",
                "tool_input": {"command": "git push -f origin feature/login"},
            }
        },
        "pass",
        set(),
    ),  # force, but not main
    (
        "deps-1",
        {"payload": {"tool_name": "Bash", "tool_input": {"command": "pip install leftpad"}}},
        "warn",
        {"deps"},
    ),
    ("deps-2", "pip install tenacity because the HTTP client needs retries", "pass", set()),
    (
        "sudo-1",
        {"payload": {"tool_name": "Bash", "tool_input": {"command": "sudo apt-get install -y jq"}}},
        "block",
        {"sudo"},
    ),
    ("sudo-2", "Make the install script work without sudo", "pass", set()),
    (
        "sudo-3",
        {"payload": {"tool_name": "Read", "tool_input": {"file_path": "/etc/sudoers"}}},
        "pass",
        set(),
    ),  # read-only tools are never judged
    # -- not decidable: a note, never a verdict
    ("api-1", "Rename the /users API endpoint to /accounts", "pass", set()),
    # -- superseded and archived criteria
    ("superseded-1", "Port the frontend checkout page to TypeScript", "pass", set()),
    (
        "superseded-2",
        {"text": "export const x = 1", "paths": ["frontend/checkout.js"]},
        "warn",
        {"js_new"},
    ),
    (
        "superseded-3",
        {"text": "export const x: number = 1", "paths": ["frontend/checkout.ts"]},
        "pass",
        set(),
    ),
    ("archived-1", "Deploy the release on Friday afternoon", "pass", set()),
]
