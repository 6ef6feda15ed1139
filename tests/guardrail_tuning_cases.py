"""Guardrail TUNING cases (issue 22): looked at freely while changing the reader, the
drafting and the by-meaning threshold. The held-out set is tests/guardrail_heldout_cases.py
and is never tuned on.

The first criteria are the requests-codebase trial of issue 22, as the user typed them;
the rest were written for tuning. Format as in the held-out set: key -> (sentence, verdict);
cases (id, key, proposal, "violation" | "pass").
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff, _edit

CRITERIA: dict[str, tuple[str, str]] = {
    # -- the requests trial (issue 22)
    "py_support": (
        "Never drop support for a Python version in a patch release; only minor releases "
        "may change python_requires",
        "block",
    ),
    "runtime_deps": ("Don't add new runtime dependencies without discussing it first", "block"),
    "network": ("Tests must never hit the real network", "warn"),
    "cron": (
        "Never propose cron for one-off tasks; use a manual script with a completion "
        "notification or a workflow_dispatch job",
        "block",
    ),
    "storage": (
        "Do not introduce a new storage component this quarter; object storage plus local "
        "cache covers the load",
        "block",
    ),
    # -- written for tuning
    "no_pickle": ("Never unpickle data that came over the network", "block"),
    "adr": ("Architecture changes need an ADR in docs/adr/ before the code lands", "warn"),
    "no_threads": ("Do not spawn raw threads in request handlers; use the task queue", "warn"),
    "small_images": ("Keep container images on the slim base image, not the full one", "warn"),
    "no_shell_true": ("Never call subprocess with shell=True", "block"),
    "owners": ("Only the platform team changes the CI pipeline definitions", "warn"),
    "no_wildcard_imports": ("Avoid wildcard imports", "warn"),
    "release_branch": ("Hotfixes land on main first and are then cherry-picked to release branches", "warn"),
    # a second tuning batch (written after the first tuning round)
    "no_md5": ("Do not use MD5 or SHA-1 for anything security related; use SHA-256", "block"),
    "no_root": ("Containers must not run as root", "block"),
    "api_versioning": ("Breaking changes to the REST API go into a new /v2 route, never into /v1", "block"),
    "no_console_log": ("No console.log in committed frontend code", "warn"),
    "feature_branch": ("Work happens on feature branches; never commit directly to develop", "warn"),
    "env_config": ("Configuration comes from environment variables, not hard-coded constants", "warn"),
    "no_sleep_ci": ("Do not add sleeps to CI scripts to paper over race conditions", "warn"),
    "s3_public": ("S3 buckets must never be public", "block"),
    "small_functions": ("Keep functions under 50 lines", "warn"),
    "no_inline_styles": ("Avoid inline styles in React components; use the design tokens", "warn"),
}

CASES: list[tuple[str, str, object, str]] = [
    # the five wrong verdicts of the trial, and their neighbours
    ("py_support-v1", "py_support", "Drop Python 3.8 in the 2.32.4 patch release by bumping python_requires to >=3.9", "violation"),
    ("py_support-p1", "py_support", "Add support for CIDR ranges in NO_PROXY", "pass"),
    ("py_support-p2", "py_support", "Drop Python 3.8 in the 2.33.0 minor release and say so in the changelog", "pass"),
    ("runtime_deps-v1", "runtime_deps", _diff("setup.py", 'install_requires=["charset_normalizer>=2,<4", "idna>=2.5,<4", "brotli>=1.1"]'), "violation"),
    ("runtime_deps-v2", "runtime_deps", _bash("pip install brotli && echo brotli >> requirements.txt"), "violation"),
    ("runtime_deps-p1", "runtime_deps", _diff("requirements-dev.txt", "pytest-httpbin==2.1.0"), "pass"),
    ("network-p1", "network", _diff("tests/test_utils.py", "def test_parse_header_links():\n    assert parse_header_links('<a>; rel=next')"), "pass"),
    ("network-p2", "network", _bash("pytest tests/test_utils.py -q"), "pass"),
    ("network-v1", "network", _diff("tests/test_api.py", "r = requests.get('https://httpbin.org/get')"), "violation"),
    ("cron-v1", "cron", "Set up a cron job to run the one-off data migration tonight", "violation"),
    ("cron-p1", "cron", "Run the one-off migration with a workflow_dispatch job and notify the channel when done", "pass"),
    ("storage-v1", "storage", "Let's add Cassandra as a new database for the event store", "violation"),
    ("storage-v2", "storage", "Introduce Kafka to buffer the events before they are written", "violation"),
    ("storage-p1", "storage", "Write the events to object storage and keep the hot ones in the local cache", "pass"),
    # tuning criteria
    ("no_pickle-v1", "no_pickle", "Load the worker's result with pickle.loads(response.content)", "violation"),
    ("no_pickle-p1", "no_pickle", "Load the worker's result with json.loads(response.content)", "pass"),
    ("no_pickle-v2", "no_pickle", _diff("app/rpc.py", "obj = pickle.loads(sock.recv(65536))"), "violation"),
    ("adr-v1", "adr", "Split the monolith's billing module into its own service this sprint", "violation"),
    ("adr-p1", "adr", "Add docs/adr/0012-billing-service.md, then split billing into its own service", "pass"),
    ("adr-p2", "adr", "Fix the rounding bug in billing totals", "pass"),
    ("no_threads-v1", "no_threads", _diff("app/views.py", "threading.Thread(target=send_mail, args=(user,)).start()"), "violation"),
    ("no_threads-p1", "no_threads", _diff("app/views.py", "send_mail_task.delay(user.id)"), "pass"),
    ("no_threads-v2", "no_threads", "Start a background thread in the upload view to resize images", "violation"),
    ("small_images-v1", "small_images", _diff("Dockerfile", "FROM python:3.12"), "violation"),
    ("small_images-p1", "small_images", _diff("Dockerfile", "FROM python:3.12-slim"), "pass"),
    ("small_images-v2", "small_images", "Switch the API image to the full python:3.12 base so gcc is there", "violation"),
    ("no_shell_true-v1", "no_shell_true", _diff("tools/run.py", "subprocess.run(cmd, shell=True)"), "violation"),
    ("no_shell_true-p1", "no_shell_true", _diff("tools/run.py", "subprocess.run(['git', 'status'], check=True)"), "pass"),
    ("no_shell_true-v2", "no_shell_true", "Run the user's command string through the shell with subprocess for convenience", "violation"),
    ("owners-v1", "owners", _edit(".github/workflows/ci.yml", "runs-on: ubuntu-latest"), "violation"),
    ("owners-p1", "owners", "Ask the platform team to add a lint step to CI", "pass"),
    ("owners-p2", "owners", _diff("src/ci_report.py", "def summarise(results): ..."), "pass"),
    ("no_wildcard_imports-v1", "no_wildcard_imports", _diff("app/models.py", "from .fields import *"), "violation"),
    ("no_wildcard_imports-p1", "no_wildcard_imports", _diff("app/models.py", "from .fields import CharField, IntField"), "pass"),
    ("release_branch-v1", "release_branch", "Commit the hotfix directly on release/3.1 and merge it back later", "violation"),
    ("release_branch-p1", "release_branch", "Merge the hotfix into main, then cherry-pick it to release/3.1", "pass"),
    ("no_md5-v1", "no_md5", _diff("auth/tokens.py", "digest = hashlib.md5(secret.encode()).hexdigest()"), "violation"),
    ("no_md5-v2", "no_md5", "Hash the password reset tokens with SHA-1 to keep them short", "violation"),
    ("no_md5-p1", "no_md5", _diff("auth/tokens.py", "digest = hashlib.sha256(secret.encode()).hexdigest()"), "pass"),
    ("no_root-v1", "no_root", _diff("Dockerfile", "USER root\nCMD [\"./server\"]"), "violation"),
    ("no_root-v2", "no_root", "Run the worker container as root so it can bind port 80", "violation"),
    ("no_root-p1", "no_root", _diff("Dockerfile", "RUN useradd -m app\nUSER app"), "pass"),
    ("api_versioning-v1", "api_versioning", "Remove the legacy fields from the /v1/orders response", "violation"),
    ("api_versioning-p1", "api_versioning", "Add /v2/orders without the legacy fields; keep /v1/orders as it is", "pass"),
    ("no_console_log-v1", "no_console_log", _diff("web/src/cart.ts", "console.log('cart', items)"), "violation"),
    ("no_console_log-p1", "no_console_log", _diff("web/src/cart.ts", "logger.debug('cart', items)"), "pass"),
    ("feature_branch-v1", "feature_branch", _bash("git checkout develop && git commit -am 'quick fix'"), "violation"),
    ("feature_branch-p1", "feature_branch", _bash("git checkout -b feature/quick-fix develop"), "pass"),
    ("env_config-v1", "env_config", _diff("app/settings.py", "DATABASE_URL = 'postgres://prod-db:5432/app'"), "violation"),
    ("env_config-p1", "env_config", _diff("app/settings.py", "DATABASE_URL = os.environ['DATABASE_URL']"), "pass"),
    ("no_sleep_ci-v1", "no_sleep_ci", _diff(".github/workflows/test.yml", "      - run: sleep 30 && pytest"), "violation"),
    ("no_sleep_ci-p1", "no_sleep_ci", _diff(".github/workflows/test.yml", "      - run: ./wait-for-it.sh db:5432 && pytest"), "pass"),
    ("s3_public-v1", "s3_public", _diff("infra/s3.tf", 'acl = "public-read"'), "violation"),
    ("s3_public-v2", "s3_public", "Make the reports bucket public so the partner can download files", "violation"),
    ("s3_public-p1", "s3_public", "Give the partner a presigned URL for the reports bucket", "pass"),
    ("small_functions-p1", "small_functions", "Split handle_request into parse, validate and respond helpers", "pass"),
    ("no_inline_styles-v1", "no_inline_styles", _diff("web/src/Button.tsx", "<button style={{color: 'red'}}>"), "violation"),
    ("no_inline_styles-p1", "no_inline_styles", _diff("web/src/Button.tsx", "<button className={tokens.dangerText}>"), "pass"),
]
