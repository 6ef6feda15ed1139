"""Guardrail TUNING cases, fourteenth batch (issue 22, sixteenth session): 44 criteria on
subjects the first thirteen batches do not cover, phrased the way contribution guides and
engineering standards put them (read through the search tool for their manner: "Each function
does one thing", "Prefer pathlib.Path over string paths", "No silent failures: avoid empty
except blocks", "Keep an element's public API clean. Do not expose internals"); the sentences
and cases are our own.

Written before any reader change of the session. Weighted to look-alikes: each criterion has a
complying case on the rule's own subject, often naming the very thing the rule forbids in order
to keep it away or to say it is handled (`===`, `rel="noopener noreferrer"`, `raise ... from
err`, `catchup=False`, `for_each`, `SCAN`, `ex=300`, `%w`), since complying look-alikes answered
"applies, undecided" are the warning people switch the hook off for. Violations are code, a
manifest or a shell command more often than prose: loose `==` in JavaScript, `var`, a floating
promise, `target="_blank"` alone, a raw `<img>` in a Next.js page, `outline: none`,
`'unsafe-inline'` in a CSP, `import pytz`, a raise without `from`, `(\\w+\\s?)+$` on a request
field, `logging.getLogger("app")`, assigning to a frozen value object, `iterrows()`, a
hard-coded schema in a dbt model, an Airflow DAG without `catchup`, CSV in the curated zone,
an unseeded training run, a Deployment without a PodDisruptionBudget, an image tag in a Helm
template, `count` over names in Terraform, the Ansible `shell` module, `0.0.0.0/0` on port
22, integer enums and `null` lists in API responses, an endpoint without a body limit,
commented-out code, `.idea/`, a tag named `release-2.4`, a composition rule for passwords,
AES-ECB, a secret in a `NEXT_PUBLIC_` variable, `OFFSET 50000`, an HTTP call inside
`transaction.atomic()`, Redis `KEYS`, a cache write without a TTL, `%v` on an error, `init()`
opening a database, `Optional` fields in Java, `async void`, unquoted `$file`, bash features
under `#!/bin/sh`, a new Android permission, a token in `UserDefaults`, `LIKE '%...'`.
Each criterion has at least one violating and one complying case, and a diff or a tool call.
Every fact a label depends on is in the case text. Same format as
tests/guardrail_tuning_batch13.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff

# `python -m tests.heldout_eval batch14` on the reader of b7cc61a (main as the sixteenth
# session began), before any change of this session, with the sentence model
# (LORESTACK_TEST_MODEL_DIR set; load 2.3-2.6, 12 s): 44 criteria, 0 refused, 176 cases
# (88 violations, 88 look-alikes); exact 108/176 (61%), wrong blocks 0, silent passes 30/88,
# look-alikes pass 50/88 (57%) (violations: 58 undecided, 30 pass; look-alikes: 38
# undecided, 50 pass; other criteria flagged 85). The batch test keeps this first run as the
# floor until a kept figure replaces it.
FIRST_RUN = {"exact": 108, "wrong_blocks": 0, "silent_passes": 30, "lookalike_pass": 50}
# sixteenth session (in-sample: the batch's writer changed the reader after its first run):
# a removal of what a rule forbids keeps it (taken_away.py: "Replace the last loose
# comparisons in cart.js with ===") and a proposal that spells what a rule wants keeps it
# (spellings.py: rel="noopener noreferrer", catchup=False, #!/usr/bin/env): 112 / 30 / 54,
# no violation changes answer.
# seventeenth session: the word a forbidden phrase spells as code is a term of its own
# (code_heads.py: `<img`, OFFSET): 115 / 27 / 54.
KEPT = {"exact": 115, "wrong_blocks": 0, "silent_passes": 27, "lookalike_pass": 54}

CRITERIA: dict[str, tuple[str, str]] = {
    # JavaScript, TypeScript and the web page
    "js_strict_equality": (
        "Use === and !== in JavaScript; loose == comparisons are not accepted",
        "warn",
    ),
    "no_var": (
        "No var declarations in new JavaScript; use const, or let when the value changes",
        "warn",
    ),
    "floating_promises": (
        "Every promise is awaited or returned; don't leave a floating promise",
        "warn",
    ),
    "noopener_links": (
        'Links that open in a new tab with target="_blank" carry rel="noopener noreferrer"',
        "warn",
    ),
    "next_image": (
        "Pages in the Next.js app render images through next/image, not a plain <img> tag",
        "warn",
    ),
    "focus_outline": (
        "Never remove the focus outline (outline: none) without giving focused elements another "
        "visible style",
        "warn",
    ),
    "csp_no_unsafe_inline": (
        "Our Content-Security-Policy never allows 'unsafe-inline' or 'unsafe-eval' for scripts",
        "block",
    ),
    "no_public_env_secrets": (
        "Secret keys never go into NEXT_PUBLIC_ or VITE_ variables; everything with that prefix "
        "ships to the browser",
        "block",
    ),
    # Python
    "py_zoneinfo": (
        "Time zones come from the standard library's zoneinfo; don't add pytz",
        "warn",
    ),
    "raise_from": (
        "When you raise a new exception inside an except block, chain it with raise ... from err",
        "warn",
    ),
    "redos": (
        "Regular expressions applied to user input must not contain nested quantifiers such as "
        "(a+)+; they can hang the worker",
        "block",
    ),
    "logger_name": (
        "Modules get their logger with logging.getLogger(__name__); no hard-coded logger names",
        "warn",
    ),
    "frozen_value_objects": (
        "Value objects are frozen dataclasses; code never assigns to their fields after creation",
        "warn",
    ),
    # data and ML
    "pandas_iterrows": (
        "Pipeline code doesn't loop over DataFrames with iterrows or itertuples; use vectorised "
        "column operations",
        "warn",
    ),
    "dbt_ref": (
        "dbt models select from other models with ref() or source(); never hard-code a "
        "schema-qualified table name",
        "warn",
    ),
    "airflow_catchup": (
        "Airflow DAGs are declared with catchup=False unless the DAG is meant to backfill "
        "history",
        "warn",
    ),
    "parquet_lake": (
        "Data written to the curated zone of the lake is Parquet; no CSV or JSON files land there",
        "warn",
    ),
    "train_seed": (
        "Training scripts fix and log their random seed so a run can be reproduced",
        "warn",
    ),
    # infrastructure
    "pdb_replicas": (
        "Every Deployment with more than one replica has a PodDisruptionBudget",
        "warn",
    ),
    "helm_values_tags": (
        "Helm templates never hard-code an image tag; the tag comes from values.yaml",
        "warn",
    ),
    "tf_for_each": (
        "Terraform resources that exist once per name use for_each, not count",
        "warn",
    ),
    "ansible_modules": (
        "Ansible tasks use a proper module; the command and shell modules are a last resort and "
        "need changed_when",
        "warn",
    ),
    "sg_open_world": (
        "Security groups never allow ingress from 0.0.0.0/0 except on ports 80 and 443 of the "
        "public load balancer",
        "block",
    ),
    # API design
    "api_enum_strings": (
        'Enum values in API responses are strings such as "shipped", never integers',
        "warn",
    ),
    "empty_arrays": (
        "List fields in API responses are an empty array when there is nothing, never null",
        "warn",
    ),
    "body_size_limit": (
        "Every endpoint that accepts uploads or JSON bodies sets a maximum request size",
        "warn",
    ),
    # repository hygiene and releases
    "no_commented_code": (
        "Don't commit commented-out code; delete it, the history keeps it",
        "warn",
    ),
    "no_ide_files": (
        "Editor and IDE settings such as .idea/ and .vscode/ are not committed",
        "warn",
    ),
    "tag_format": (
        "Release tags are named vMAJOR.MINOR.PATCH, for example v2.4.1",
        "warn",
    ),
    # security
    "password_policy": (
        "Password rules follow NIST 800-63B: at least 12 characters, no composition rules and no "
        "forced periodic rotation",
        "warn",
    ),
    "aes_gcm": (
        "Data is encrypted with AES-GCM through our crypto helper; never ECB mode, a static IV "
        "or a hand-rolled cipher",
        "block",
    ),
    "ios_keychain": (
        "On iOS, tokens and passwords are kept in the Keychain, never in UserDefaults",
        "block",
    ),
    "android_permissions": (
        "New Android permissions in AndroidManifest.xml need a privacy review before they ship",
        "warn",
    ),
    # databases and caches
    "keyset_pagination": (
        "Large tables are paged with keyset pagination on an indexed column; no OFFSET past the "
        "first few pages",
        "warn",
    ),
    "no_http_in_txn": (
        "Never call an external HTTP API while a database transaction is open",
        "warn",
    ),
    "redis_no_keys": (
        "Production code never calls the Redis KEYS command; iterate with SCAN",
        "block",
    ),
    "cache_ttl": (
        "Nothing is put into the cache without an expiry; every cache write sets a TTL",
        "warn",
    ),
    "sql_like_leading": (
        "Search queries don't use LIKE with a leading wildcard on large tables; use the trigram "
        "index or the search API",
        "warn",
    ),
    # Go, Java, C#
    "go_wrap_errors": (
        "Go errors are wrapped with fmt.Errorf and %w so callers can use errors.Is; don't "
        "flatten them with %v",
        "warn",
    ),
    "go_no_init": (
        "Go packages don't use init() functions for side effects such as opening connections or "
        "reading config",
        "warn",
    ),
    "java_optional": (
        "Java Optional is a return type only; never use it for fields or method parameters",
        "warn",
    ),
    "csharp_async_void": (
        "C# methods are never async void, except event handlers; return a Task",
        "warn",
    ),
    # shell
    "shell_quote": (
        'Shell scripts quote every variable expansion: "$file", not $file',
        "warn",
    ),
    "bash_shebang": (
        "Scripts that use bash features start with #!/usr/bin/env bash, never #!/bin/sh",
        "warn",
    ),
}

# (case id, criterion key, proposal, expected)
CASES: list[tuple[str, str, object, str]] = [
    ("js_strict_equality-v1", "js_strict_equality", _diff("web/src/cart.js", "if (item.quantity == '0') {\n  removeItem(item.id);\n}"), "violation"),
    ("js_strict_equality-v2", "js_strict_equality", "In the checkout script compare the coupon code with == so that numbers and strings both match", "violation"),
    ("js_strict_equality-p1", "js_strict_equality", _diff("web/src/cart.js", "if (item.quantity === 0) {\n  removeItem(item.id);\n}"), "pass"),
    ("js_strict_equality-p2", "js_strict_equality", "Replace the last loose comparisons in cart.js with === so the lint rule eqeqeq can be turned on", "pass"),
    ("no_var-v1", "no_var", _diff("web/src/menu.js", "var open = false;\nvar toggle = document.querySelector('#menu-toggle');"), "violation"),
    ("no_var-v2", "no_var", "Declare the counters in the new analytics.js with var so they are hoisted to the top of the function", "violation"),
    ("no_var-p1", "no_var", _diff("web/src/menu.js", "let open = false;\nconst toggle = document.querySelector('#menu-toggle');"), "pass"),
    ("no_var-p2", "no_var", "Turn on the no-var lint rule now that menu.js uses const and let", "pass"),
    ("floating_promises-v1", "floating_promises", _diff("web/src/save.ts", "function onSave(form: Form) {\n  api.saveDraft(form.values);\n  showToast('Saved');\n}"), "violation"),
    ("floating_promises-v2", "floating_promises", "Fire off the audit log write without waiting for it, so the request returns faster; if it fails nobody needs to know", "violation"),
    ("floating_promises-p1", "floating_promises", _diff("web/src/save.ts", "async function onSave(form: Form) {\n  await api.saveDraft(form.values);\n  showToast('Saved');\n}"), "pass"),
    ("floating_promises-p2", "floating_promises", "Make onSave async and await the draft save before the toast appears", "pass"),
    ("noopener_links-v1", "noopener_links", _diff("web/src/Footer.tsx", '<a href="https://status.acme.com" target="_blank">Status</a>'), "violation"),
    ("noopener_links-v2", "noopener_links", "Open the partner's help centre link in a new tab with target=_blank; the rel attribute is noise", "violation"),
    ("noopener_links-p1", "noopener_links", _diff("web/src/Footer.tsx", '<a href="https://status.acme.com" target="_blank" rel="noopener noreferrer">Status</a>'), "pass"),
    ("noopener_links-p2", "noopener_links", _diff("web/src/Footer.tsx", '<a href="/pricing">Pricing</a>'), "pass"),
    ("next_image-v1", "next_image", _diff("app/pricing/page.tsx", '<img src="/hero.png" alt="Pricing plans" width={1200} height={600} />'), "violation"),
    ("next_image-v2", "next_image", "On the Next.js landing page put the team photo in with a plain img element, it is just one picture", "violation"),
    ("next_image-p1", "next_image", _diff("app/pricing/page.tsx", "import Image from 'next/image';\n\n<Image src=\"/hero.png\" alt=\"Pricing plans\" width={1200} height={600} />"), "pass"),
    ("next_image-p2", "next_image", "Give the hero Image on the pricing page the priority prop so it loads first", "pass"),
    ("focus_outline-v1", "focus_outline", _diff("web/src/styles/buttons.css", ".btn:focus {\n  outline: none;\n}"), "violation"),
    ("focus_outline-v2", "focus_outline", "Designers dislike the blue ring around clicked links; hide the focus outline across the site", "violation"),
    ("focus_outline-p1", "focus_outline", _diff("web/src/styles/buttons.css", ".btn:focus-visible {\n  outline: 2px solid var(--focus-ring);\n  outline-offset: 2px;\n}"), "pass"),
    ("focus_outline-p2", "focus_outline", "Make the focus ring on buttons thicker and use the brand colour for it", "pass"),
    ("csp_no_unsafe_inline-v1", "csp_no_unsafe_inline", _diff("web/next.config.js", "{ key: 'Content-Security-Policy', value: \"script-src 'self' 'unsafe-inline' https://js.stripe.com\" }"), "violation"),
    ("csp_no_unsafe_inline-v2", "csp_no_unsafe_inline", "The chat widget needs eval; add 'unsafe-eval' to script-src in the security headers", "violation"),
    ("csp_no_unsafe_inline-p1", "csp_no_unsafe_inline", _diff("web/next.config.js", "{ key: 'Content-Security-Policy', value: \"script-src 'self' 'nonce-\" + nonce + \"' https://js.stripe.com\" }"), "pass"),
    ("csp_no_unsafe_inline-p2", "csp_no_unsafe_inline", "Allow https://js.stripe.com in script-src of the Content-Security-Policy for the new checkout", "pass"),
    ("no_public_env_secrets-v1", "no_public_env_secrets", _diff("web/.env.production", "NEXT_PUBLIC_STRIPE_SECRET_KEY=sk_live_51Hx..."), "violation"),
    ("no_public_env_secrets-v2", "no_public_env_secrets", "Expose the OpenAI API key to the Vite frontend as VITE_OPENAI_KEY so the browser can call the model directly", "violation"),
    ("no_public_env_secrets-p1", "no_public_env_secrets", _diff("web/.env.production", "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_51Hx...\nSTRIPE_SECRET_KEY=${STRIPE_SECRET_KEY}"), "pass"),
    ("no_public_env_secrets-p2", "no_public_env_secrets", "Add NEXT_PUBLIC_SENTRY_DSN so the browser reports its errors to Sentry", "pass"),
    ("py_zoneinfo-v1", "py_zoneinfo", _diff("billing/schedule.py", "import pytz\n\nberlin = pytz.timezone('Europe/Berlin')"), "violation"),
    ("py_zoneinfo-v2", "py_zoneinfo", _bash("uv add pytz"), "violation"),
    ("py_zoneinfo-p1", "py_zoneinfo", _diff("billing/schedule.py", "from zoneinfo import ZoneInfo\n\nberlin = ZoneInfo('Europe/Berlin')"), "pass"),
    ("py_zoneinfo-p2", "py_zoneinfo", "Remove pytz from the dependencies now that schedule.py uses zoneinfo", "pass"),
    ("raise_from-v1", "raise_from", _diff("payments/gateway.py", "try:\n    resp = client.charge(amount)\nexcept httpx.HTTPError:\n    raise PaymentFailed('charge failed')"), "violation"),
    ("raise_from-v2", "raise_from", "In the importer, catch the KeyError and raise a ValueError in its place; the original traceback only confuses people", "violation"),
    ("raise_from-p1", "raise_from", _diff("payments/gateway.py", "try:\n    resp = client.charge(amount)\nexcept httpx.HTTPError as err:\n    raise PaymentFailed('charge failed') from err"), "pass"),
    ("raise_from-p2", "raise_from", _diff("payments/gateway.py", "if amount <= 0:\n    raise ValueError('amount must be positive')"), "pass"),
    ("redos-v1", "redos", _diff("api/validators.py", "NAME = re.compile(r'^(\\w+\\s?)+$')\n\ndef valid_name(value):\n    return NAME.match(request.json['name'])"), "violation"),
    ("redos-v2", "redos", "Validate the email field of the signup form with the pattern ^([a-zA-Z0-9]+)*@example\\.com$", "violation"),
    ("redos-p1", "redos", _diff("api/validators.py", "NAME = re.compile(r'^[\\w ]{1,80}$')\n\ndef valid_name(value):\n    return NAME.match(request.json['name'])"), "pass"),
    ("redos-p2", "redos", "Put a length check of 80 characters in front of the name pattern in validators.py", "pass"),
    ("logger_name-v1", "logger_name", _diff("shop/orders/service.py", "import logging\n\nlog = logging.getLogger('shop')"), "violation"),
    ("logger_name-v2", "logger_name", "Have every module in the billing package log through logging.getLogger(\"billing\") so it all lands under one name", "violation"),
    ("logger_name-p1", "logger_name", _diff("shop/orders/service.py", "import logging\n\nlog = logging.getLogger(__name__)"), "pass"),
    ("logger_name-p2", "logger_name", "Set the level of the shop.orders logger to DEBUG in the logging config while we chase the refund bug", "pass"),
    ("frozen_value_objects-v1", "frozen_value_objects", _diff("shop/pricing.py", "price = Money(amount=100, currency='EUR')\nprice.amount = price.amount * 2"), "violation"),
    ("frozen_value_objects-v2", "frozen_value_objects", "Drop frozen=True from the Address dataclass so the checkout can fix the postcode in place", "violation"),
    ("frozen_value_objects-p1", "frozen_value_objects", _diff("shop/pricing.py", "price = Money(amount=100, currency='EUR')\ndoubled = dataclasses.replace(price, amount=price.amount * 2)"), "pass"),
    ("frozen_value_objects-p2", "frozen_value_objects", _diff("shop/values.py", "@dataclass(frozen=True)\nclass Address:\n    street: str\n    postcode: str"), "pass"),
    ("pandas_iterrows-v1", "pandas_iterrows", _diff("pipelines/revenue.py", "for _, row in orders.iterrows():\n    orders.at[_, 'net'] = row['gross'] - row['tax']"), "violation"),
    ("pandas_iterrows-v2", "pandas_iterrows", "In the churn pipeline walk the customers frame row by row with itertuples and fill in the segment column", "violation"),
    ("pandas_iterrows-p1", "pandas_iterrows", _diff("pipelines/revenue.py", "orders['net'] = orders['gross'] - orders['tax']"), "pass"),
    ("pandas_iterrows-p2", "pandas_iterrows", "Compute the churn segment column with numpy.select over the whole frame", "pass"),
    ("dbt_ref-v1", "dbt_ref", _diff("models/marts/fct_orders.sql", "select * from analytics.stg_orders o\njoin analytics.stg_customers c on c.id = o.customer_id"), "violation"),
    ("dbt_ref-v2", "dbt_ref", "In the revenue mart read straight from raw.stripe.charges, it saves declaring a source", "violation"),
    ("dbt_ref-p1", "dbt_ref", _diff("models/marts/fct_orders.sql", "select * from {{ ref('stg_orders') }} o\njoin {{ ref('stg_customers') }} c on c.id = o.customer_id"), "pass"),
    ("dbt_ref-p2", "dbt_ref", _diff("models/staging/sources.yml", "sources:\n  - name: stripe\n    schema: raw_stripe\n    tables:\n      - name: charges"), "pass"),
    ("airflow_catchup-v1", "airflow_catchup", _diff("dags/daily_invoices.py", "with DAG('daily_invoices', start_date=datetime(2021, 1, 1), schedule='@daily') as dag:\n    build = PythonOperator(task_id='build', python_callable=build_invoices)"), "violation"),
    ("airflow_catchup-v2", "airflow_catchup", "Turn catchup on for the daily_invoices DAG; it only sends today's invoices but the default is fine", "violation"),
    ("airflow_catchup-p1", "airflow_catchup", _diff("dags/daily_invoices.py", "with DAG('daily_invoices', start_date=datetime(2021, 1, 1), schedule='@daily', catchup=False) as dag:\n    build = PythonOperator(task_id='build', python_callable=build_invoices)"), "pass"),
    ("airflow_catchup-p2", "airflow_catchup", "Add a retries=2 default to the daily_invoices DAG's default_args", "pass"),
    ("parquet_lake-v1", "parquet_lake", _diff("jobs/export_orders.py", "df.to_csv('s3://acme-lake/curated/orders/2026-12-04.csv', index=False)"), "violation"),
    ("parquet_lake-v2", "parquet_lake", _bash("aws s3 cp events.json s3://acme-lake/curated/events/"), "violation"),
    ("parquet_lake-p1", "parquet_lake", _diff("jobs/export_orders.py", "df.to_parquet('s3://acme-lake/curated/orders/dt=2026-12-04/part-0.parquet', index=False)"), "pass"),
    ("parquet_lake-p2", "parquet_lake", _bash("aws s3 cp vendor_feed.csv s3://acme-lake/raw/vendor_feed/"), "pass"),
    ("train_seed-v1", "train_seed", _diff("ml/train.py", "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)\nmodel = RandomForestClassifier(n_estimators=300)"), "violation"),
    ("train_seed-v2", "train_seed", "Let the fine-tuning script pick a fresh random seed each run and don't bother writing it down", "violation"),
    ("train_seed-p1", "train_seed", _diff("ml/train.py", "SEED = 1234\nlog.info('seed', extra={'seed': SEED})\nX_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=SEED)"), "pass"),
    ("train_seed-p2", "train_seed", "Raise the number of trees in the training script from 300 to 500", "pass"),
    ("pdb_replicas-v1", "pdb_replicas", _diff("deploy/checkout/deployment.yaml", "kind: Deployment\nmetadata:\n  name: checkout\nspec:\n  replicas: 4"), "violation"),
    ("pdb_replicas-v2", "pdb_replicas", "Scale the search API to three replicas; we can think about disruption budgets later", "violation"),
    ("pdb_replicas-p1", "pdb_replicas", _diff("deploy/checkout/pdb.yaml", "kind: PodDisruptionBudget\nmetadata:\n  name: checkout\nspec:\n  minAvailable: 3\n  selector:\n    matchLabels:\n      app: checkout"), "pass"),
    ("pdb_replicas-p2", "pdb_replicas", _diff("deploy/cron-runner/deployment.yaml", "kind: Deployment\nmetadata:\n  name: cron-runner\nspec:\n  replicas: 1"), "pass"),
    ("helm_values_tags-v1", "helm_values_tags", _diff("charts/api/templates/deployment.yaml", "containers:\n  - name: api\n    image: ghcr.io/acme/api:1.42.0"), "violation"),
    ("helm_values_tags-v2", "helm_values_tags", "Write the worker's image version straight into the chart's deployment template so nobody forgets to set it", "violation"),
    ("helm_values_tags-p1", "helm_values_tags", _diff("charts/api/templates/deployment.yaml", "containers:\n  - name: api\n    image: \"{{ .Values.image.repository }}:{{ .Values.image.tag }}\""), "pass"),
    ("helm_values_tags-p2", "helm_values_tags", _diff("charts/api/values.yaml", "image:\n  repository: ghcr.io/acme/api\n  tag: 1.42.0"), "pass"),
    ("tf_for_each-v1", "tf_for_each", _diff("infra/buckets.tf", "resource \"aws_s3_bucket\" \"team\" {\n  count  = length(var.team_names)\n  bucket = \"acme-${var.team_names[count.index]}\"\n}"), "violation"),
    ("tf_for_each-v2", "tf_for_each", "Create one IAM user per contractor in Terraform by indexing the names list with count.index", "violation"),
    ("tf_for_each-p1", "tf_for_each", _diff("infra/buckets.tf", "resource \"aws_s3_bucket\" \"team\" {\n  for_each = toset(var.team_names)\n  bucket   = \"acme-${each.key}\"\n}"), "pass"),
    ("tf_for_each-p2", "tf_for_each", _diff("infra/bastion.tf", "resource \"aws_instance\" \"bastion\" {\n  count = var.enable_bastion ? 1 : 0\n  ami   = var.ami\n}"), "pass"),
    ("ansible_modules-v1", "ansible_modules", _diff("ansible/roles/web/tasks/main.yml", "- name: install nginx\n  shell: apt-get install -y nginx"), "violation"),
    ("ansible_modules-v2", "ansible_modules", "In the db role create the postgres user with a command task running createuser, every run", "violation"),
    ("ansible_modules-p1", "ansible_modules", _diff("ansible/roles/web/tasks/main.yml", "- name: install nginx\n  ansible.builtin.apt:\n    name: nginx\n    state: present"), "pass"),
    ("ansible_modules-p2", "ansible_modules", _diff("ansible/roles/web/tasks/main.yml", "- name: check the nginx config\n  command: nginx -t\n  changed_when: false"), "pass"),
    ("sg_open_world-v1", "sg_open_world", _diff("infra/sg.tf", "ingress {\n  from_port   = 22\n  to_port     = 22\n  protocol    = \"tcp\"\n  cidr_blocks = [\"0.0.0.0/0\"]\n}"), "violation"),
    ("sg_open_world-v2", "sg_open_world", _bash("aws ec2 authorize-security-group-ingress --group-id sg-0a12 --protocol tcp --port 5432 --cidr 0.0.0.0/0"), "violation"),
    ("sg_open_world-p1", "sg_open_world", _diff("infra/sg.tf", "ingress {\n  from_port   = 443\n  to_port     = 443\n  protocol    = \"tcp\"\n  cidr_blocks = [\"0.0.0.0/0\"]  # public load balancer\n}"), "pass"),
    ("sg_open_world-p2", "sg_open_world", _bash("aws ec2 authorize-security-group-ingress --group-id sg-0a12 --protocol tcp --port 5432 --source-group sg-0b34"), "pass"),
    ("api_enum_strings-v1", "api_enum_strings", _diff("api/serializers/order.py", "def to_json(order):\n    return {'id': order.public_id, 'status': order.status.value}  # 0 pending, 1 paid, 2 shipped"), "violation"),
    ("api_enum_strings-v2", "api_enum_strings", "Return the shipment state as a number in the tracking endpoint, 3 for delivered, to keep the payload small", "violation"),
    ("api_enum_strings-p1", "api_enum_strings", _diff("api/serializers/order.py", "def to_json(order):\n    return {'id': order.public_id, 'status': order.status.name.lower()}  # 'pending', 'paid', 'shipped'"), "pass"),
    ("api_enum_strings-p2", "api_enum_strings", "Add \"returned\" to the documented values of the order status field", "pass"),
    ("empty_arrays-v1", "empty_arrays", _diff("api/serializers/order.py", "'items': [line.to_json() for line in order.lines] if order.lines else None,"), "violation"),
    ("empty_arrays-v2", "empty_arrays", "When a customer has no saved addresses, answer addresses: null in the profile response", "violation"),
    ("empty_arrays-p1", "empty_arrays", _diff("api/serializers/order.py", "'items': [line.to_json() for line in order.lines],"), "pass"),
    ("empty_arrays-p2", "empty_arrays", "When a customer has no saved addresses, answer addresses: [] in the profile response", "pass"),
    ("body_size_limit-v1", "body_size_limit", _diff("api/routes/imports.py", "@router.post('/imports')\nasync def upload(file: UploadFile):\n    data = await file.read()\n    return start_import(data)"), "violation"),
    ("body_size_limit-v2", "body_size_limit", "Accept avatar uploads of any size on the new profile endpoint; we can shrink them afterwards", "violation"),
    ("body_size_limit-p1", "body_size_limit", _diff("api/routes/imports.py", "MAX_IMPORT_BYTES = 20 * 1024 * 1024\n\n@router.post('/imports')\nasync def upload(file: UploadFile):\n    data = await read_limited(file, MAX_IMPORT_BYTES)\n    return start_import(data)"), "pass"),
    ("body_size_limit-p2", "body_size_limit", "Lower the maximum request size for avatar uploads from 10 MB to 5 MB", "pass"),
    ("no_commented_code-v1", "no_commented_code", _diff("shop/cart.py", "def total(cart):\n    # for item in cart.items:\n    #     if item.discount:\n    #         apply_discount(item)\n    return sum(i.price for i in cart.items)"), "violation"),
    ("no_commented_code-v2", "no_commented_code", "Comment out the old tax calculation instead of deleting it, in case we need it again", "violation"),
    ("no_commented_code-p1", "no_commented_code", _diff("shop/cart.py", "def total(cart):\n    # discounts are applied when the item is added, not here\n    return sum(i.price for i in cart.items)"), "pass"),
    ("no_commented_code-p2", "no_commented_code", "Delete the commented-out tax calculation in cart.py; it is in the history if we need it", "pass"),
    ("no_ide_files-v1", "no_ide_files", _bash("git add .idea/workspace.xml .idea/misc.xml && git commit -m 'project settings'"), "violation"),
    ("no_ide_files-v2", "no_ide_files", _diff(".vscode/settings.json", "{\n  \"editor.formatOnSave\": true,\n  \"python.defaultInterpreterPath\": \"/Users/kim/.venvs/shop/bin/python\"\n}"), "violation"),
    ("no_ide_files-p1", "no_ide_files", _diff(".gitignore", ".idea/\n.vscode/\n*.iml"), "pass"),
    ("no_ide_files-p2", "no_ide_files", _diff(".editorconfig", "[*.py]\nindent_style = space\nindent_size = 4"), "pass"),
    ("tag_format-v1", "tag_format", _bash("git tag -s release-2.4 -m 'Release 2.4' && git push origin release-2.4"), "violation"),
    ("tag_format-v2", "tag_format", "Tag tonight's release as 2024.12-final so marketing can find it", "violation"),
    ("tag_format-p1", "tag_format", _bash("git tag -s v2.4.1 -m 'Release 2.4.1' && git push origin v2.4.1"), "pass"),
    ("tag_format-p2", "tag_format", "List the release tags since v2.0.0 in the upgrade guide", "pass"),
    ("password_policy-v1", "password_policy", _diff("accounts/validators.py", "if not re.search(r'[A-Z]', pw) or not re.search(r'[0-9]', pw) or not re.search(r'[^\\w]', pw):\n    raise ValidationError('Use an upper-case letter, a digit and a symbol')"), "violation"),
    ("password_policy-v2", "password_policy", "Make everyone change their password every 90 days and reject passwords shorter than 8 characters", "violation"),
    ("password_policy-p1", "password_policy", _diff("accounts/validators.py", "if len(pw) < 12:\n    raise ValidationError('Use at least 12 characters')\nif pw.lower() in BREACHED:\n    raise ValidationError('This password appears in a breach list')"), "pass"),
    ("password_policy-p2", "password_policy", "Show a strength meter under the password field on the signup page", "pass"),
    ("aes_gcm-v1", "aes_gcm", _diff("vault/encrypt.py", "cipher = AES.new(key, AES.MODE_ECB)\nblob = cipher.encrypt(pad(data, 16))"), "violation"),
    ("aes_gcm-v2", "aes_gcm", "Encrypt the exported reports with AES-CBC and a fixed IV stored next to the key, so they decrypt the same everywhere", "violation"),
    ("aes_gcm-p1", "aes_gcm", _diff("vault/encrypt.py", "from acme.crypto import seal\n\nblob = seal(key, data)  # AES-256-GCM, random 96-bit nonce"), "pass"),
    ("aes_gcm-p2", "aes_gcm", "Rotate the data key that the crypto helper uses for the exported reports", "pass"),
    ("ios_keychain-v1", "ios_keychain", _diff("ios/Acme/Auth/Session.swift", "UserDefaults.standard.set(token.accessToken, forKey: \"accessToken\")"), "violation"),
    ("ios_keychain-v2", "ios_keychain", "Cache the refresh token in the iOS app's user defaults so the login survives a restart", "violation"),
    ("ios_keychain-p1", "ios_keychain", _diff("ios/Acme/Auth/Session.swift", "try keychain.set(token.accessToken, key: \"accessToken\", accessibility: .afterFirstUnlock)"), "pass"),
    ("ios_keychain-p2", "ios_keychain", _diff("ios/Acme/Settings/Preferences.swift", "UserDefaults.standard.set(true, forKey: \"prefersDarkMode\")"), "pass"),
    ("android_permissions-v1", "android_permissions", _diff("android/app/src/main/AndroidManifest.xml", "<uses-permission android:name=\"android.permission.ACCESS_FINE_LOCATION\" />"), "violation"),
    ("android_permissions-v2", "android_permissions", "Ask for READ_CONTACTS in the Android app so people can invite friends; ship it in Thursday's release", "violation"),
    ("android_permissions-p1", "android_permissions", _diff("android/app/src/main/res/values/strings.xml", "<string name=\"invite_friends\">Invite friends</string>"), "pass"),
    ("android_permissions-p2", "android_permissions", "Remove the unused CAMERA permission from AndroidManifest.xml", "pass"),
    ("keyset_pagination-v1", "keyset_pagination", _diff("api/repos/events.py", "cur.execute('SELECT id, kind FROM events ORDER BY id LIMIT 100 OFFSET %s', (page * 100,))"), "violation"),
    ("keyset_pagination-v2", "keyset_pagination", "Let the audit log export jump straight to page 5000 with LIMIT and OFFSET", "violation"),
    ("keyset_pagination-p1", "keyset_pagination", _diff("api/repos/events.py", "cur.execute('SELECT id, kind FROM events WHERE id > %s ORDER BY id LIMIT 100', (after_id,))"), "pass"),
    ("keyset_pagination-p2", "keyset_pagination", "Return the next page's cursor in the events endpoint as an opaque string", "pass"),
    ("no_http_in_txn-v1", "no_http_in_txn", _diff("orders/service.py", "with transaction.atomic():\n    order = Order.objects.create(cart=cart)\n    stripe.PaymentIntent.create(amount=order.total, currency='eur')"), "violation"),
    ("no_http_in_txn-v2", "no_http_in_txn", "Inside the signup transaction, call the CRM's REST API to create the contact before committing", "violation"),
    ("no_http_in_txn-p1", "no_http_in_txn", _diff("orders/service.py", "with transaction.atomic():\n    order = Order.objects.create(cart=cart)\ntransaction.on_commit(lambda: charge_later.delay(order.id))"), "pass"),
    ("no_http_in_txn-p2", "no_http_in_txn", "After the signup transaction commits, queue a job that creates the contact in the CRM", "pass"),
    ("redis_no_keys-v1", "redis_no_keys", _diff("cache/cleanup.py", "for key in redis.keys('session:*'):\n    redis.delete(key)"), "violation"),
    ("redis_no_keys-v2", "redis_no_keys", _bash("redis-cli -h cache.prod.internal KEYS 'cart:*' | xargs redis-cli -h cache.prod.internal DEL"), "violation"),
    ("redis_no_keys-p1", "redis_no_keys", _diff("cache/cleanup.py", "for key in redis.scan_iter(match='session:*', count=500):\n    redis.delete(key)"), "pass"),
    ("redis_no_keys-p2", "redis_no_keys", "Expire cart keys after seven days so they clean themselves up", "pass"),
    ("cache_ttl-v1", "cache_ttl", _diff("catalog/views.py", "cache.set(f'product:{pid}', serialize(product))"), "violation"),
    ("cache_ttl-v2", "cache_ttl", "Keep the exchange rates in Redis forever; we overwrite them each morning anyway", "violation"),
    ("cache_ttl-p1", "cache_ttl", _diff("catalog/views.py", "cache.set(f'product:{pid}', serialize(product), timeout=300)"), "pass"),
    ("cache_ttl-p2", "cache_ttl", "Shorten the product cache's expiry from ten minutes to five", "pass"),
    ("sql_like_leading-v1", "sql_like_leading", _diff("search/customers.py", "cur.execute(\"SELECT id, name FROM customers WHERE name LIKE %s\", ('%' + q + '%',))"), "violation"),
    ("sql_like_leading-v2", "sql_like_leading", "Find orders by partial reference with ILIKE '%' || :ref || '%' on the orders table", "violation"),
    ("sql_like_leading-p1", "sql_like_leading", _diff("search/customers.py", "cur.execute(\"SELECT id, name FROM customers WHERE name LIKE %s\", (q + '%',))"), "pass"),
    ("sql_like_leading-p2", "sql_like_leading", "Add a trigram index on customers.name for the name search", "pass"),
    ("go_wrap_errors-v1", "go_wrap_errors", _diff("internal/store/orders.go", "if err != nil {\n\treturn fmt.Errorf(\"load order %s: %v\", id, err)\n}"), "violation"),
    ("go_wrap_errors-v2", "go_wrap_errors", "In the Go store package, return errors.New(err.Error()) with the message so callers get a plain error", "violation"),
    ("go_wrap_errors-p1", "go_wrap_errors", _diff("internal/store/orders.go", "if err != nil {\n\treturn fmt.Errorf(\"load order %s: %w\", id, err)\n}"), "pass"),
    ("go_wrap_errors-p2", "go_wrap_errors", _diff("internal/store/orders.go", "if errors.Is(err, sql.ErrNoRows) {\n\treturn nil, ErrNotFound\n}"), "pass"),
    ("go_no_init-v1", "go_no_init", _diff("internal/db/db.go", "var pool *sql.DB\n\nfunc init() {\n\tpool, _ = sql.Open(\"postgres\", os.Getenv(\"DATABASE_URL\"))\n}"), "violation"),
    ("go_no_init-v2", "go_no_init", "Load the feature config file in an init function of the Go flags package so it is ready before main runs", "violation"),
    ("go_no_init-p1", "go_no_init", _diff("internal/db/db.go", "func Open(url string) (*sql.DB, error) {\n\treturn sql.Open(\"postgres\", url)\n}"), "pass"),
    ("go_no_init-p2", "go_no_init", _diff("cmd/api/main.go", "func main() {\n\tpool, err := db.Open(os.Getenv(\"DATABASE_URL\"))\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n}"), "pass"),
    ("java_optional-v1", "java_optional", _diff("src/main/java/com/acme/Customer.java", "private Optional<String> middleName;"), "violation"),
    ("java_optional-v2", "java_optional", "Change sendInvoice to take an Optional<Discount> parameter instead of overloading it", "violation"),
    ("java_optional-p1", "java_optional", _diff("src/main/java/com/acme/CustomerRepository.java", "public Optional<Customer> findByEmail(String email) {\n    return Optional.ofNullable(byEmail.get(email));\n}"), "pass"),
    ("java_optional-p2", "java_optional", "Give sendInvoice an overload without the discount argument", "pass"),
    ("csharp_async_void-v1", "csharp_async_void", _diff("src/Acme.Orders/OrderService.cs", "public async void SyncOrdersAsync()\n{\n    await _client.PullAsync();\n}"), "violation"),
    ("csharp_async_void-v2", "csharp_async_void", "Make the C# ReportBuilder.Refresh method async void so callers don't have to await it", "violation"),
    ("csharp_async_void-p1", "csharp_async_void", _diff("src/Acme.Orders/OrderService.cs", "public async Task SyncOrdersAsync()\n{\n    await _client.PullAsync();\n}"), "pass"),
    ("csharp_async_void-p2", "csharp_async_void", _diff("src/Acme.Desktop/MainWindow.xaml.cs", "private async void RefreshButton_Click(object sender, RoutedEventArgs e)\n{\n    await _vm.RefreshAsync();\n}"), "pass"),
    ("shell_quote-v1", "shell_quote", _diff("scripts/archive.sh", "for file in $(ls $SRC); do\n  cp $SRC/$file $DEST/\ndone"), "violation"),
    ("shell_quote-v2", "shell_quote", "In the backup script pass $target to tar without quotes, none of our paths have spaces", "violation"),
    ("shell_quote-p1", "shell_quote", _diff("scripts/archive.sh", "for file in \"$SRC\"/*; do\n  cp \"$file\" \"$DEST/\"\ndone"), "pass"),
    ("shell_quote-p2", "shell_quote", "Run shellcheck on scripts/ in CI", "pass"),
    ("bash_shebang-v1", "bash_shebang", _diff("scripts/release.sh", "#!/bin/sh\nset -euo pipefail\nfiles=(dist/*.whl)\n[[ ${#files[@]} -gt 0 ]] || exit 1"), "violation"),
    ("bash_shebang-v2", "bash_shebang", "Start the new deploy script with #!/bin/sh; it uses arrays and [[ ]] but sh is everywhere", "violation"),
    ("bash_shebang-p1", "bash_shebang", _diff("scripts/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\nfiles=(dist/*.whl)\n[[ ${#files[@]} -gt 0 ]] || exit 1"), "pass"),
    ("bash_shebang-p2", "bash_shebang", _diff("docker/entrypoint.sh", "#!/bin/sh\nset -eu\nexec gunicorn app:app --bind \"0.0.0.0:$PORT\""), "pass"),
]
