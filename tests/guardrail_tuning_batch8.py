"""Guardrail TUNING cases, eighth batch (issue 22, seventh session): 28 criteria on subjects the
first seven batches barely touch (money and time in the database, module and service
boundaries, tokens in URLs or browser storage, CSRF, retries, pagination, error bodies,
retention, test isolation, ownership, deploys from a laptop, generated code, lint
suppressions, online index builds, release notes), phrased the way CONTRIBUTING files,
engineering "red lines" and accepted architecture decision records put them ("will not be
accepted", "we will not use X in new code", "existing files are grandfathered", "must not
run around the clock"), read through the search tool; the sentences and cases are our own.

Weighted to what the held-out figures say is weak in general: LOOK-ALIKES that share the
rule's subject and words but comply — they name the forbidden thing in order to remove or
avoid it, name it as a past state ("used to … until March"), quote the rule, or do what is
required in other words ("build the index online") — and VIOLATIONS phrased without the
rule's keywords ("keep the invoice total as a double", "talk to the mail server before it
redirects"). Each criterion has a violating proposal, a complying look-alike, and a diff or
a tool call. Written before any change it drives, scored once on the code as it was
(FIRST_RUN below), tuned on afterwards. Same format as tests/guardrail_tuning_batch7.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff, _edit

# `python -m tests.heldout_eval batch8` on cbaee4e (the reader as the seventh session began),
# before any change of this session, with the sentence model (LORESTACK_TEST_MODEL_DIR set;
# load 6.9-7.7): 28 criteria, 0 refused, 114 cases (57 violations, 57 look-alikes); exact
# 56/114, wrong blocks 0, silent passes 37/57, look-alikes pass 36/57 (violations: 20
# undecided, 37 pass; look-alikes: 21 undecided, 36 pass; other criteria flagged 30).
FIRST_RUN = {"exact": 56, "wrong_blocks": 0, "silent_passes": 37, "lookalike_pass": 36}
# at the end of the ninth session (after its review fixes): the floor its test keeps
KEPT = {"exact": 60, "wrong_blocks": 0, "silent_passes": 33, "lookalike_pass": 36}

CRITERIA: dict[str, tuple[str, str]] = {
    # data: money, time, storage of tokens
    "money_decimal": (
        "Never use floats for money; amounts are integer cents or Decimal",
        "block",
    ),
    "utc_storage": ("Store timestamps in UTC; never save local time to the database", "block"),
    "token_in_url": (
        "Never put tokens or API keys in a URL or query string; send them in a header",
        "block",
    ),
    "token_storage": (
        "Auth tokens are never kept in localStorage; the server sets an httpOnly cookie",
        "block",
    ),
    "no_csrf_off": ("Never switch off CSRF protection on an endpoint that accepts a form", "block"),
    "error_details": (
        "Error responses shown to users must not include stack traces or other internal details",
        "warn",
    ),
    "log_retention": (
        "Raw request logs are deleted after 30 days; nothing keeps them longer",
        "warn",
    ),
    # architecture decisions (ADR style)
    "no_jquery": (
        "We will not use jQuery in new frontend code; the plain DOM APIs cover what we need",
        "warn",
    ),
    "ts_only": (
        "Every new source file under src/ is TypeScript; existing .js files are grandfathered",
        "warn",
    ),
    "own_database": (
        "Services never read another service's database; go through its API or its events",
        "block",
    ),
    "module_boundaries": (
        "A module imports another module only through its public package, never from its "
        "internal folder",
        "warn",
    ),
    "aws_only": (
        "All our infrastructure stays on AWS; resources at another cloud provider will not be "
        "accepted",
        "block",
    ),
    "mail_in_worker": (
        "Emails are sent by the background worker, never inside the web request",
        "warn",
    ),
    "backoff_retries": (
        "Retries back off exponentially with jitter; no tight retry loops",
        "warn",
    ),
    "paginate_lists": (
        "List endpoints are paginated; an endpoint never returns an unbounded collection",
        "warn",
    ),
    "error_status": (
        "API errors answer with a 4xx or 5xx status, never 200 with the error in the body",
        "warn",
    ),
    "idempotent_webhooks": (
        "Payment webhook handlers must be idempotent: the same event delivered twice never "
        "charges twice",
        "block",
    ),
    # operations
    "dev_env_hours": (
        "Development and test environments must not run around the clock; they shut down "
        "outside working hours or scale to zero",
        "warn",
    ),
    "pipeline_deploys": (
        "Deploys go out through the pipeline only; nobody deploys from a laptop",
        "block",
    ),
    "bot_credentials_ci": (
        "CI authenticates with a bot account or a deploy key, never with a person's own "
        "credentials",
        "block",
    ),
    "service_owner": (
        "A new service needs an owning team and an on-call rotation before it reaches production",
        "warn",
    ),
    "online_indexes": (
        "Indexes on large tables are created with CREATE INDEX CONCURRENTLY; a plain CREATE "
        "INDEX locks writes",
        "warn",
    ),
    # code and process
    "no_inline_lint_off": (
        "Don't switch lint rules off inline; fix the code, or change the rule for everyone in "
        "the config",
        "warn",
    ),
    "generated_code": (
        "Generated code under gen/ is never edited by hand; change the .proto file and "
        "regenerate",
        "warn",
    ),
    "isolated_tests": (
        "Tests must not depend on each other's state or on the order they run in",
        "warn",
    ),
    "python_matrix": (
        "Every Python version we support stays in the CI test matrix",
        "warn",
    ),
    "release_notes_prose": (
        "Release notes are written for users; a raw list of commits will not be accepted",
        "warn",
    ),
    "form_labels": (
        "Every form field needs a visible label; placeholder text is not a label",
        "warn",
    ),
}

CASES: list[tuple[str, str, object, str]] = [
    ("money_decimal-v1", "money_decimal", _diff("billing/invoice.py", "    total = sum(float(line.price) * line.qty for line in lines)"), "violation"),
    ("money_decimal-v2", "money_decimal", "Keep the invoice total as a double and round it to two places at the end, that is good enough", "violation"),
    ("money_decimal-p1", "money_decimal", "Replace the float price field on LineItem with an integer number of cents", "pass"),
    ("money_decimal-p2", "money_decimal", _diff("billing/invoice.py", "    total = sum(Decimal(line.price) * line.qty for line in lines)"), "pass"),
    ("money_decimal-p3", "money_decimal", "Add the line 'no floats for money' to the billing section of CONTRIBUTING.md", "pass"),
    ("utc_storage-v1", "utc_storage", _diff("orders/models.py", "    order.created_at = datetime.now()  # server clock, Berlin"), "violation"),
    ("utc_storage-v2", "utc_storage", "Save the order time as Berlin wall-clock time so the reports match what the shop sees", "violation"),
    ("utc_storage-p1", "utc_storage", "Convert the order time to Europe/Berlin only when the report is rendered; the column stays in UTC", "pass"),
    ("utc_storage-p2", "utc_storage", _diff("orders/models.py", "    order.created_at = datetime.now(timezone.utc)"), "pass"),
    ("token_in_url-v1", "token_in_url", _diff("client/weather.py", "resp = httpx.get(f'{BASE}/forecast?city={city}&apikey={API_KEY}', timeout=5)"), "violation"),
    ("token_in_url-v2", "token_in_url", "Append the session secret as ?auth= to the download links in the emails so they work without a login", "violation"),
    ("token_in_url-p1", "token_in_url", _diff("client/weather.py", "resp = httpx.get(f'{BASE}/forecast', params={'city': city}, headers={'X-Api-Key': API_KEY}, timeout=5)"), "pass"),
    ("token_in_url-p2", "token_in_url", "Move the API key out of the query string of the weather client and into a request header", "pass"),
    ("token_storage-v1", "token_storage", _diff("web/src/auth.ts", "localStorage.setItem('access_token', resp.token);"), "violation"),
    ("token_storage-v2", "token_storage", "Remember the JWT in the browser's storage so the tab stays logged in after a reload", "violation"),
    ("token_storage-p1", "token_storage", "Stop writing the access token to localStorage; the login endpoint now sets it as a cookie the script cannot read", "pass"),
    ("token_storage-p2", "token_storage", _diff("api/auth.py", "resp.set_cookie('session', token, httponly=True, secure=True, samesite='Lax')"), "pass"),
    ("no_csrf_off-v1", "no_csrf_off", _diff("shop/views.py", "@csrf_exempt\ndef update_cart(request):"), "violation"),
    ("no_csrf_off-v2", "no_csrf_off", "Let the cart form post without the anti-forgery token, the AJAX call keeps getting a 403", "violation"),
    ("no_csrf_off-p1", "no_csrf_off", "Send the CSRF token in the X-CSRFToken header from the AJAX call so the cart form keeps its protection", "pass"),
    ("no_csrf_off-p2", "no_csrf_off", _diff("shop/views.py", "@require_POST\ndef update_cart(request):"), "pass"),
    ("error_details-v1", "error_details", _diff("api/errors.py", "    return jsonify(error=traceback.format_exc()), 500"), "violation"),
    ("error_details-v2", "error_details", "Show the full exception text on the error page so customers can paste it into a support ticket", "violation"),
    ("error_details-p1", "error_details", _diff("api/errors.py", "    log.exception('unhandled error, ref %s', ref)\n    return jsonify(error='internal error', ref=ref), 500"), "pass"),
    ("error_details-p2", "error_details", "Log the traceback on the server and give the customer only a reference number to quote", "pass"),
    ("log_retention-v1", "log_retention", _diff("infra/logging.tf", "  retention_in_days = 365"), "violation"),
    ("log_retention-v2", "log_retention", "Archive every raw access log to Glacier forever in case we ever need to look something up", "violation"),
    ("log_retention-p1", "log_retention", _diff("infra/logging.tf", "  retention_in_days = 30"), "pass"),
    ("log_retention-p2", "log_retention", "Keep the aggregated daily request counts for a year and let the raw logs expire after a month", "pass"),
    ("no_jquery-v1", "no_jquery", _diff("web/static/menu.js", "$('.menu-toggle').on('click', () => $('.menu').toggle());"), "violation"),
    ("no_jquery-v2", "no_jquery", "Toggle the new sidebar with $('.sidebar').slideToggle() like the old admin pages do", "violation"),
    ("no_jquery-p1", "no_jquery", "Remove the last jQuery call from the admin pages and use document.querySelector there instead", "pass"),
    ("no_jquery-p2", "no_jquery", _diff("web/static/menu.js", "document.querySelector('.menu-toggle').addEventListener('click', () => menu.classList.toggle('open'));"), "pass"),
    ("ts_only-v1", "ts_only", _diff("src/utils/formatDate.js", "export function formatDate(d) {\n  return d.toISOString().slice(0, 10);\n}"), "violation"),
    ("ts_only-v2", "ts_only", "Drop a quick formatDate.js next to the other helpers in src/utils, no need for types there", "violation"),
    ("ts_only-p1", "ts_only", _diff("src/legacy/pager.js", "  const last = Math.ceil(total / size);"), "pass"),
    ("ts_only-p2", "ts_only", _diff("src/utils/formatDate.ts", "export function formatDate(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}"), "pass"),
    ("own_database-v1", "own_database", "Let the reporting service query the orders service's Postgres directly for the monthly totals", "violation"),
    ("own_database-v2", "own_database", _diff("reporting/config.yaml", "orders_dsn: postgres://reporting@orders-db.internal:5432/orders"), "violation"),
    ("own_database-p1", "own_database", "Have the reporting service consume the OrderPlaced events instead of reading the orders database", "pass"),
    ("own_database-p2", "own_database", _diff("reporting/client.py", "resp = orders_api.get('/v1/orders/summary', params={'month': month}, timeout=5)"), "pass"),
    ("module_boundaries-v1", "module_boundaries", _diff("billing/service.py", "from accounts.internal.repo import AccountRepo"), "violation"),
    ("module_boundaries-v2", "module_boundaries", "Borrow the password hashing helper buried in the accounts code for billing rather than copying it", "violation"),
    ("module_boundaries-p1", "module_boundaries", _diff("billing/service.py", "from accounts import get_account"), "pass"),
    ("module_boundaries-p2", "module_boundaries", "Export the hashing helper from the accounts package so billing no longer reaches into accounts/internal", "pass"),
    ("aws_only-v1", "aws_only", "Host the image thumbnails on Google Cloud Storage, its egress is cheaper", "violation"),
    ("aws_only-v2", "aws_only", _diff("infra/main.tf", "provider \"azurerm\" {\n  features {}\n}"), "violation"),
    ("aws_only-p1", "aws_only", "We moved off Azure in 2023; put the new thumbnails bucket in S3 like everything else", "pass"),
    ("aws_only-p2", "aws_only", _diff("infra/main.tf", "resource \"aws_s3_bucket\" \"thumbnails\" {\n  bucket = \"acme-thumbnails\"\n}"), "pass"),
    ("mail_in_worker-v1", "mail_in_worker", _diff("accounts/views.py", "def signup(request):\n    user = create_user(request.POST)\n    smtp.send_message(welcome_message(user))\n    return redirect('/welcome')"), "violation"),
    ("mail_in_worker-v2", "mail_in_worker", "Have the signup view talk to the mail server itself before it redirects", "violation"),
    ("mail_in_worker-p1", "mail_in_worker", _diff("accounts/views.py", "    send_welcome_mail.delay(user.id)\n    return redirect('/welcome')"), "pass"),
    ("mail_in_worker-p2", "mail_in_worker", "Queue the welcome email for the worker instead of sending it from the signup view", "pass"),
    ("backoff_retries-v1", "backoff_retries", _diff("sync/client.py", "while True:\n    try:\n        return fetch()\n    except ConnectionError:\n        continue"), "violation"),
    ("backoff_retries-v2", "backoff_retries", "If the upstream fails, just call it again straight away until it answers", "violation"),
    ("backoff_retries-p1", "backoff_retries", _diff("sync/client.py", "for attempt in range(5):\n    try:\n        return fetch()\n    except ConnectionError:\n        time.sleep(min(30, 2 ** attempt) + random.random())"), "pass"),
    ("backoff_retries-p2", "backoff_retries", "Wrap the upstream calls with tenacity's wait_random_exponential and a stop after five attempts", "pass"),
    ("paginate_lists-v1", "paginate_lists", _diff("api/views.py", "    return jsonify([c.to_dict() for c in Customer.query.all()])"), "violation"),
    ("paginate_lists-v2", "paginate_lists", "Have GET /customers send every customer in one response, the admin UI filters them client-side", "violation"),
    ("paginate_lists-p1", "paginate_lists", "GET /customers returned every row until last week; it now takes a cursor and at most 100 items", "pass"),
    ("paginate_lists-p2", "paginate_lists", _diff("api/views.py", "    page = Customer.query.order_by(Customer.id).paginate(page=p, per_page=50)\n    return jsonify(items=[c.to_dict() for c in page.items], next=page.next_num)"), "pass"),
    ("error_status-v1", "error_status", _diff("api/orders.py", "    return jsonify({'ok': False, 'error': 'order not found'}), 200"), "violation"),
    ("error_status-v2", "error_status", "Answer failed lookups as a success and put the failure reason in a message field, the mobile app handles it", "violation"),
    ("error_status-p1", "error_status", _diff("api/orders.py", "    return jsonify({'error': 'order not found'}), 404"), "pass"),
    ("error_status-p2", "error_status", "The old orders endpoint answered 200 with an error body; the new one answers 404 when the order is missing", "pass"),
    ("idempotent_webhooks-v1", "idempotent_webhooks", _diff("payments/webhooks.py", "def on_event(evt):\n    charge_customer(evt['data']['customer'], evt['data']['amount'])"), "violation"),
    ("idempotent_webhooks-v2", "idempotent_webhooks", "Create the charge as soon as each Stripe notification arrives; Stripe only sends it once anyway", "violation"),
    ("idempotent_webhooks-p1", "idempotent_webhooks", _diff("payments/webhooks.py", "def on_event(evt):\n    if ProcessedEvent.objects.filter(event_id=evt['id']).exists():\n        return\n    ProcessedEvent.objects.create(event_id=evt['id'])"), "pass"),
    ("idempotent_webhooks-p2", "idempotent_webhooks", "Record each webhook's event id before charging and skip ids we have already seen", "pass"),
    ("dev_env_hours-v1", "dev_env_hours", "Keep the staging cluster up all weekend so the demo starts instantly on Monday", "violation"),
    ("dev_env_hours-v2", "dev_env_hours", _bash("aws autoscaling delete-scheduled-action --auto-scaling-group-name dev-nodes --scheduled-action-name nightly-stop"), "violation"),
    ("dev_env_hours-p1", "dev_env_hours", _diff("infra/dev/schedule.tf", "  recurrence       = \"0 19 * * MON-FRI\"\n  desired_capacity = 0"), "pass"),
    ("dev_env_hours-p2", "dev_env_hours", "The test environment used to run around the clock; since the nightly shutdown it costs a third as much", "pass"),
    ("pipeline_deploys-v1", "pipeline_deploys", _bash("kubectl apply -f k8s/prod/ --context prod-eu"), "violation"),
    ("pipeline_deploys-v2", "pipeline_deploys", "Run the release script from my machine, the pipeline is queued behind three other jobs", "violation"),
    ("pipeline_deploys-p1", "pipeline_deploys", _bash("gh workflow run deploy.yml -f env=prod -f version=3.1.0"), "pass"),
    ("pipeline_deploys-p2", "pipeline_deploys", "Nobody has deployed from a laptop since March; trigger the production pipeline for 3.1.0", "pass"),
    ("bot_credentials_ci-v1", "bot_credentials_ci", "Use my GitHub token in the release workflow until the bot account is set up", "violation"),
    ("bot_credentials_ci-v2", "bot_credentials_ci", _diff(".github/workflows/release.yml", "        env:\n          GH_TOKEN: ${{ secrets.ALICE_PERSONAL_PAT }}"), "violation"),
    ("bot_credentials_ci-p1", "bot_credentials_ci", _diff(".github/workflows/release.yml", "        env:\n          GH_TOKEN: ${{ secrets.RELEASE_BOT_TOKEN }}"), "pass"),
    ("bot_credentials_ci-p2", "bot_credentials_ci", "The release job used Bob's personal token until March; it signs in as the release bot now", "pass"),
    ("service_owner-v1", "service_owner", "Launch the recommendations service in production next week; we'll work out who looks after it later", "violation"),
    ("service_owner-v2", "service_owner", _diff("services/recs/service.yaml", "name: recs\nowner: TBD\noncall: none"), "violation"),
    ("service_owner-p1", "service_owner", _diff("services/recs/service.yaml", "name: recs\nowner: team-discovery\noncall: pagerduty:discovery-primary"), "pass"),
    ("service_owner-p2", "service_owner", "The discovery team owns the recommendations service and carries its pager from the first day in production", "pass"),
    ("online_indexes-v1", "online_indexes", _diff("migrations/0042_orders_email.sql", "CREATE INDEX orders_email_idx ON orders (email);"), "violation"),
    ("online_indexes-v2", "online_indexes", "Add an index on orders.email in the next migration, the ordinary way", "violation"),
    ("online_indexes-p1", "online_indexes", _diff("migrations/0042_orders_email.sql", "CREATE INDEX CONCURRENTLY orders_email_idx ON orders (email);"), "pass"),
    ("online_indexes-p2", "online_indexes", "Build the orders.email index online so the table keeps taking writes while it runs", "pass"),
    ("no_inline_lint_off-v1", "no_inline_lint_off", _diff("web/src/api.ts", "// eslint-disable-next-line @typescript-eslint/no-explicit-any\nexport function parse(x: any) {"), "violation"),
    ("no_inline_lint_off-v2", "no_inline_lint_off", _diff("src/pkg/io.py", "def load(path):  # noqa: C901"), "violation"),
    ("no_inline_lint_off-v3", "no_inline_lint_off", "Hush the complexity warning on load() with a comment on that line so the linter stops failing", "violation"),
    ("no_inline_lint_off-p1", "no_inline_lint_off", "Remove the eslint-disable comments from api.ts by typing the parser properly", "pass"),
    ("no_inline_lint_off-p2", "no_inline_lint_off", _diff(".eslintrc.json", "  \"rules\": { \"no-console\": \"off\" }"), "pass"),
    ("generated_code-v1", "generated_code", _edit("gen/orders_pb2.py", "    'discount_cents': _descriptor.FieldDescriptor(name='discount_cents', number=7),"), "violation"),
    ("generated_code-v2", "generated_code", "Patch the missing field straight into the Python stubs so we don't have to run protoc again", "violation"),
    ("generated_code-p1", "generated_code", _bash("buf generate && git add gen/ proto/orders.proto"), "pass"),
    ("generated_code-p2", "generated_code", "Add discount_cents to orders.proto and regenerate the stubs", "pass"),
    ("isolated_tests-v1", "isolated_tests", _diff("tests/test_cart.py", "def test_add():\n    CART.add('apple')\n\n\ndef test_total():\n    assert CART.total() == 1  # needs test_add first"), "violation"),
    ("isolated_tests-v2", "isolated_tests", "Let test_checkout reuse the user that test_signup created, it saves a few seconds", "violation"),
    ("isolated_tests-p1", "isolated_tests", _diff("tests/test_cart.py", "def test_total(cart_with_apple):\n    assert cart_with_apple.total() == 1"), "pass"),
    ("isolated_tests-p2", "isolated_tests", "Run the suite under pytest-randomly so we notice when one test starts relying on another", "pass"),
    ("python_matrix-v1", "python_matrix", "Trim the test matrix to the newest Python only so CI finishes faster", "violation"),
    ("python_matrix-v2", "python_matrix", _diff(".github/workflows/tests.yml", "        python-version: ['3.13']  # 3.10-3.12 dropped to save minutes"), "violation"),
    ("python_matrix-p1", "python_matrix", "Add Python 3.14 to the test matrix next to the versions already there", "pass"),
    ("python_matrix-p2", "python_matrix", _diff(".github/workflows/tests.yml", "        python-version: ['3.10', '3.11', '3.12', '3.13']"), "pass"),
    ("release_notes_prose-v1", "release_notes_prose", _bash("git log --oneline v3.0.0..HEAD > RELEASE_NOTES.md && git add RELEASE_NOTES.md"), "violation"),
    ("release_notes_prose-v2", "release_notes_prose", "Paste the shortlog output into the 3.1 announcement and publish it", "violation"),
    ("release_notes_prose-p1", "release_notes_prose", "Write the 3.1 release notes as three short paragraphs on what users will notice, with a link to the full commit log at the end", "pass"),
    ("release_notes_prose-p2", "release_notes_prose", _diff("RELEASE_NOTES.md", "## 3.1.0\n\nExports are up to four times faster, and CSV files now keep their column order."), "pass"),
    ("form_labels-v1", "form_labels", _diff("web/src/Login.jsx", "<input type=\"email\" placeholder=\"Email\" />"), "violation"),
    ("form_labels-v2", "form_labels", "Drop the captions above the login fields and show the hints inside the boxes, it looks cleaner", "violation"),
    ("form_labels-p1", "form_labels", _diff("web/src/Login.jsx", "<label htmlFor=\"email\">Email</label>\n<input id=\"email\" type=\"email\" />"), "pass"),
    ("form_labels-p2", "form_labels", "Keep the placeholder as an example address and add a label element above the email field", "pass"),
]
