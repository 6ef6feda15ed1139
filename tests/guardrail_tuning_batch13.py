"""Guardrail TUNING cases, thirteenth batch (issue 22, fifteenth session): 43 criteria on
subjects the first twelve batches do not cover, phrased the way CONTRIBUTING files and team
policies put them (read through the search tool for their manner: "No --force pushes or
modifying the Git history in any way", "Keep dependencies to a minimum", "A pull-request
must not be merged until CI has finished successfully"); the sentences and cases are our own.

Written before any reader change of the session, weighted to everyday code review rules
whose violations are code in a diff or a shell command that never says the rule's words —
`xml.etree` on a request body, `signature == expected`, `redirect(request.GET['next'])`,
`open(os.path.join(UPLOAD_DIR, name))`, `!important`, `export default`, `raw: any`, an icon-
only button, `@Autowired` fields, `java.util.Date`, Kotlin `!!`, `strcpy`, `_ = f.Close()`,
`context.Background()` in a handler's goroutine, `from ...accounts`, `global _client`, a
table without timestamps, `<int:pk>` in a public URL, a dependency from a git URL, `"*"` in
package.json, a metric label holding a user id, a unit-less metric name, an f-string log
message, a hard-coded test port, `jest -u`, `printenv` in CI, real customers in fixtures,
supervisord, `apt-get upgrade`, a NodePort service, a module pinned to a branch, `terraform
apply` from a laptop, `rm -rf "$DIR/"*`, `fetchall()` of a whole table, `concurrencyPolicy:
Allow`, an `ALTER TABLE` without `lock_timeout`, `key={i}`, a branch without a ticket key —
and to look-alikes on the same subject that comply (`hmac.compare_digest`, `${DIR:?}`,
`terraform plan`, `concurrencyPolicy: Forbid`, `key={todo.id}`). Eleven subjects drafted
first turned out to be in batches 8 and 9 already (yaml.safe_load, the secrets module, innerHTML,
CORS, form labels, pathlib, SELECT *, notebook outputs, CREATE INDEX CONCURRENTLY, inline
lint switches, edited migrations); they were replaced before the first run.
Each criterion has at least one violating and one complying case, and a diff or a tool call.
Every fact a label depends on is in the case text. Same format as
tests/guardrail_tuning_batch12.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff

# `python -m tests.heldout_eval batch13` on the reader of bed9128 (main as the fifteenth
# session began), before any change of this session, with the sentence model
# (LORESTACK_TEST_MODEL_DIR set; load 6.1-6.9, 44 s): 43 criteria, 0 refused, 172 cases
# (86 violations, 86 look-alikes); exact 99/172 (58%), wrong blocks 0, silent passes 42/86,
# look-alikes pass 55/86 (64%) (violations: 44 undecided, 42 pass; look-alikes: 31
# undecided, 55 pass; other criteria flagged 49). The batch test keeps this first run as the
# floor until a kept figure replaces it.
FIRST_RUN = {"exact": 99, "wrong_blocks": 0, "silent_passes": 42, "lookalike_pass": 55}
# fifteenth session (in-sample: the batch's writer changed the reader after its first run):
# commands and code forms said in words (gloss.py) — `git checkout -b fix-login-redirect`
# under the branch-name rule, `export default` under "named exports only": 101 / 40 / 55
# (load 2.5), no look-alike lost.
# sixteenth session: a symbol spelling is a term ("No !! in Kotlin code", "don't use
# !important", "never with =="), and `!!` / `!important` no longer split the sentence (which
# had made "in Kotlin code" a recommended way): 4 violations surface (kotlin_no_bang-v1/v2,
# no_important-v1/v2); 2 look-alikes answer "applies, undecided" — `event.type == 'invoice.paid'`
# under the signature rule's `==`, and kotlin_no_bang-p1, which passed only as taking that
# bogus "recommended way" — and a removal look-alike passes (taken_away.py): 104 / 36 / 54.
KEPT = {"exact": 104, "wrong_blocks": 0, "silent_passes": 36, "lookalike_pass": 54}
KEPT_LOOKALIKE_COST = 1  # against the first run's 55

CRITERIA: dict[str, tuple[str, str]] = {
    # security in code
    "defused_xml": (
        "XML from customers is parsed with defusedxml only; the standard library XML parsers "
        "are not safe against entity expansion",
        "warn",
    ),
    "secure_cookies": (
        "Session cookies are always set with Secure, HttpOnly and SameSite",
        "warn",
    ),
    "no_internal_names_public": (
        "The public SDK repository must not mention internal hostnames, IP addresses or "
        "customer names",
        "warn",
    ),
    # frontend and styles
    "no_important": (
        "Please don't use !important in stylesheets; fix the selector's specificity instead",
        "warn",
    ),
    "named_exports": (
        "TypeScript modules use named exports only; no default exports",
        "warn",
    ),
    "ts_unknown_not_any": (
        "Don't type values as any in TypeScript; use unknown and narrow it",
        "warn",
    ),
    # JVM, Kotlin, C, Go
    "constructor_injection": (
        "Spring beans get their dependencies through the constructor; no field injection with "
        "@Autowired",
        "warn",
    ),
    "java_time": (
        "New Java code uses java.time; java.util.Date and Calendar are not to be used",
        "warn",
    ),
    "kotlin_no_bang": (
        "No !! in Kotlin code; handle null with ?. , ?: or an early return",
        "warn",
    ),
    "c_bounded_strings": (
        "C code must not call strcpy, strcat or sprintf; use the bounded variants such as "
        "snprintf",
        "block",
    ),
    "go_no_discard_err": (
        "Go code never discards an error with the blank identifier; handle it or return it",
        "warn",
    ),
    "go_ctx_goroutines": (
        "Goroutines started from a request handler take the request's context so they stop "
        "when it is cancelled",
        "warn",
    ),
    # Python style
    "absolute_imports": (
        "Use absolute imports; relative imports that climb out of the package with .. are not "
        "accepted",
        "warn",
    ),
    "no_global_stmt": (
        "Don't use the global statement to share state between functions",
        "warn",
    ),
    # databases and migrations
    "timestamps_columns": (
        "Every new table gets created_at and updated_at columns",
        "warn",
    ),
    "public_ids": (
        "Auto-increment ids never appear in public URLs; expose the public_id instead",
        "warn",
    ),
    # dependencies and repository hygiene
    "registry_releases_only": (
        "Dependencies are installed from the package registry at a released version, never "
        "from a git URL or a local path",
        "warn",
    ),
    "no_range_star": (
        "Dependency versions in package.json are never * or latest",
        "warn",
    ),
    "no_internal_wiki_links": (
        "The public documentation never links to the internal wiki or to Jira tickets",
        "warn",
    ),
    # observability
    "metric_label_cardinality": (
        "Never put user ids, emails or request ids into Prometheus label values; the series "
        "count explodes",
        "block",
    ),
    "metric_units": (
        "Prometheus metric names end in their base unit, such as _seconds or _bytes",
        "warn",
    ),
    "log_constant_messages": (
        "Log messages are constant strings; variables go into the structured fields, not into "
        "an f-string",
        "warn",
    ),
    # tests and CI
    "no_fixed_test_ports": (
        "Tests never bind to a hard-coded port; listen on port 0 and read the port back",
        "warn",
    ),
    "no_blind_snapshots": (
        "Don't update Jest snapshots wholesale with -u to make CI pass; review every changed "
        "snapshot",
        "warn",
    ),
    "no_env_dump_ci": (
        "CI steps never print secrets or dump the environment (env, printenv, set -x) into the "
        "job log",
        "block",
    ),
    "fake_customer_fixtures": (
        "Test fixtures contain no real customer data; generate it with Faker",
        "warn",
    ),
    # containers and infrastructure
    "one_process_container": (
        "One process per container: no supervisord or init scripts that start several "
        "daemons in one image",
        "warn",
    ),
    "no_apt_upgrade": (
        "Dockerfiles don't run apt-get upgrade or dist-upgrade; rebuild on a newer base image "
        "instead",
        "warn",
    ),
    "ingress_not_nodeport": (
        "Services are exposed through the Ingress controller; we don't create NodePort or "
        "LoadBalancer services",
        "warn",
    ),
    "tf_module_versions": (
        "Terraform modules are pinned to a released version; never point a module source at a "
        "branch",
        "warn",
    ),
    "atlantis_apply": (
        "terraform apply runs only in Atlantis after the plan is approved on the pull request; "
        "nobody applies from a laptop",
        "block",
    ),
    "rm_rf_guard": (
        "Shell scripts never run rm -rf on a path built from a variable that could be empty; "
        "guard it with ${VAR:?}",
        "block",
    ),
    # added before the first run, replacing subjects an earlier batch already had
    "ssrf_allowlist": (
        "Outgoing requests to a URL a user gave us go through the fetch proxy's allowlist; "
        "services never fetch such URLs directly",
        "block",
    ),
    "constant_time_compare": (
        "Signatures and tokens are compared with hmac.compare_digest, never with ==",
        "block",
    ),
    "safe_redirects": (
        "Redirect targets taken from a query parameter are checked against our own hosts; "
        "no open redirects",
        "block",
    ),
    "path_traversal": (
        "A file path built from user input is resolved and checked to stay inside the upload "
        "directory before it is opened",
        "block",
    ),
    "icon_button_labels": (
        "Buttons that show only an icon carry an aria-label",
        "warn",
    ),
    "keyword_only_flags": (
        "Boolean parameters of public functions are keyword-only; no positional flag "
        "arguments",
        "warn",
    ),
    "stream_large_exports": (
        "Exports of whole tables stream rows with a server-side cursor; never fetchall() a "
        "large table into memory",
        "warn",
    ),
    "cronjob_no_overlap": (
        "Kubernetes CronJobs set concurrencyPolicy: Forbid so a slow run never overlaps the "
        "next one",
        "warn",
    ),
    "migration_lock_timeout": (
        "Migrations that lock a busy table set a lock_timeout first, so they fail fast "
        "instead of queueing traffic behind them",
        "warn",
    ),
    "stable_react_keys": (
        "Don't use the array index as the key of a React list whose items can be reordered, "
        "inserted or removed; use the item's id",
        "warn",
    ),
    "branch_names": (
        "Branch names start with the ticket key, for example feature/PAY-123-short-name",
        "warn",
    ),
}

# (case id, criterion key, proposal, expected)
CASES: list[tuple[str, str, object, str]] = [
    ("defused_xml-v1", "defused_xml", _diff("integrations/invoices/parse.py", "import xml.etree.ElementTree as ET\n\ntree = ET.fromstring(request.body)\ntotal = tree.findtext('Total')"), "violation"),
    ("defused_xml-v2", "defused_xml", "Read the customers' SAML metadata uploads with lxml.etree.parse, it is faster", "violation"),
    ("defused_xml-p1", "defused_xml", _diff("integrations/invoices/parse.py", "from defusedxml.ElementTree import fromstring\n\ntree = fromstring(request.body)\ntotal = tree.findtext('Total')"), "pass"),
    ("defused_xml-p2", "defused_xml", _diff("tools/gen_sitemap.py", "# our own sitemap, built from our routes\nroot = ET.Element('urlset')\nfor url in routes():\n    ET.SubElement(root, 'url').text = url"), "pass"),
    ("secure_cookies-v1", "secure_cookies", _diff("web/session.py", "response.set_cookie('session', sid, max_age=3600)"), "violation"),
    ("secure_cookies-v2", "secure_cookies", "Drop the HttpOnly flag on the session cookie so the SPA can read it", "violation"),
    ("secure_cookies-p1", "secure_cookies", _diff("web/session.py", "response.set_cookie('session', sid, max_age=3600, secure=True, httponly=True, samesite='Lax')"), "pass"),
    ("secure_cookies-p2", "secure_cookies", "Shorten the session cookie's lifetime from a day to an hour and keep its flags as they are", "pass"),
    ("no_internal_names_public-v1", "no_internal_names_public", _diff("sdk/examples/quickstart.py", "client = Client(base_url='http://billing-db-01.corp.acme.internal:8080')"), "violation"),
    ("no_internal_names_public-v2", "no_internal_names_public", "Add an example to the SDK README showing how Globex Bank calls our reconciliation endpoint, with their account layout", "violation"),
    ("no_internal_names_public-p1", "no_internal_names_public", _diff("sdk/examples/quickstart.py", "client = Client(base_url='https://api.example.com')"), "pass"),
    ("no_internal_names_public-p2", "no_internal_names_public", "Add a quickstart to the SDK README that uses example.com and a made-up customer", "pass"),
    ("no_important-v1", "no_important", _diff("web/styles/buttons.css", ".btn-primary {\n  background: var(--brand) !important;\n}"), "violation"),
    ("no_important-v2", "no_important", "The modal's close button is still grey; force its colour with !important in the theme file", "violation"),
    ("no_important-p1", "no_important", _diff("web/styles/buttons.css", ".toolbar .btn-primary {\n  background: var(--brand);\n}"), "pass"),
    ("no_important-p2", "no_important", "Remove the two !important overrides from the modal styles and fix the selector order", "pass"),
    ("named_exports-v1", "named_exports", _diff("web/src/components/OrderTable.tsx", "export default function OrderTable({ orders }: Props) {\n  return <Table rows={orders} />;\n}"), "violation"),
    ("named_exports-v2", "named_exports", "Turn the date helpers module into a single default-exported object so imports are shorter", "violation"),
    ("named_exports-p1", "named_exports", _diff("web/src/components/OrderTable.tsx", "export function OrderTable({ orders }: Props) {\n  return <Table rows={orders} />;\n}"), "pass"),
    ("named_exports-p2", "named_exports", "Rename the exported formatPrice helper to formatMoney and update its imports", "pass"),
    ("ts_unknown_not_any-v1", "ts_unknown_not_any", _diff("web/src/api/parse.ts", "export function parseEvent(raw: any) {\n  return raw.payload.items;\n}"), "violation"),
    ("ts_unknown_not_any-v2", "ts_unknown_not_any", "Cast the websocket message to any so we can read its fields without writing a type", "violation"),
    ("ts_unknown_not_any-p1", "ts_unknown_not_any", _diff("web/src/api/parse.ts", "export function parseEvent(raw: unknown): Item[] {\n  if (!isEvent(raw)) throw new Error('bad event');\n  return raw.payload.items;\n}"), "pass"),
    ("ts_unknown_not_any-p2", "ts_unknown_not_any", "Write a type guard for the websocket message and narrow it before reading its fields", "pass"),
    ("constructor_injection-v1", "constructor_injection", _diff("src/main/java/com/acme/orders/OrderService.java", "@Service\npublic class OrderService {\n    @Autowired\n    private PaymentClient payments;\n}"), "violation"),
    ("constructor_injection-v2", "constructor_injection", "Annotate the repository field in InvoiceService with @Autowired instead of passing it in", "violation"),
    ("constructor_injection-p1", "constructor_injection", _diff("src/main/java/com/acme/orders/OrderService.java", "@Service\npublic class OrderService {\n    private final PaymentClient payments;\n\n    public OrderService(PaymentClient payments) {\n        this.payments = payments;\n    }\n}"), "pass"),
    ("constructor_injection-p2", "constructor_injection", "Make InvoiceService's repository a final field set by its constructor", "pass"),
    ("java_time-v1", "java_time", _diff("src/main/java/com/acme/billing/Invoice.java", "private Date issuedAt = new Date();\n\npublic boolean isOverdue() {\n    return new Date().after(dueDate);\n}"), "violation"),
    ("java_time-v2", "java_time", "Compute the renewal date with Calendar.getInstance() and add one month to it", "violation"),
    ("java_time-p1", "java_time", _diff("src/main/java/com/acme/billing/Invoice.java", "private Instant issuedAt = Instant.now(clock);\n\npublic boolean isOverdue() {\n    return LocalDate.now(clock).isAfter(dueDate);\n}"), "pass"),
    ("java_time-p2", "java_time", "Compute the renewal date with LocalDate.plusMonths(1)", "pass"),
    ("kotlin_no_bang-v1", "kotlin_no_bang", _diff("app/src/main/kotlin/com/acme/cart/CartViewModel.kt", "val total = cart.value!!.items.sumOf { it.price }"), "violation"),
    ("kotlin_no_bang-v2", "kotlin_no_bang", "The user is always logged in on that screen, so just force-unwrap currentUser with !! there", "violation"),
    ("kotlin_no_bang-p1", "kotlin_no_bang", _diff("app/src/main/kotlin/com/acme/cart/CartViewModel.kt", "val total = cart.value?.items?.sumOf { it.price } ?: 0"), "pass"),
    ("kotlin_no_bang-p2", "kotlin_no_bang", "Return early from the profile screen when currentUser is null", "pass"),
    ("c_bounded_strings-v1", "c_bounded_strings", _diff("src/net/url.c", "char buf[256];\nstrcpy(buf, host);\nstrcat(buf, path);"), "violation"),
    ("c_bounded_strings-v2", "c_bounded_strings", _diff("src/log.c", "char line[128];\nsprintf(line, \"%s: %s\", level, msg);"), "violation"),
    ("c_bounded_strings-p1", "c_bounded_strings", _diff("src/log.c", "char line[128];\nsnprintf(line, sizeof line, \"%s: %s\", level, msg);"), "pass"),
    ("c_bounded_strings-p2", "c_bounded_strings", "Replace the last strcpy in url.c with snprintf and add a test for a 300-byte host", "pass"),
    ("go_no_discard_err-v1", "go_no_discard_err", _diff("internal/export/writer.go", "_ = f.Close()\nbody, _ := io.ReadAll(resp.Body)"), "violation"),
    ("go_no_discard_err-v2", "go_no_discard_err", "Ignore the error json.Unmarshal returns in the webhook handler; the payload is always valid", "violation"),
    ("go_no_discard_err-p1", "go_no_discard_err", _diff("internal/export/writer.go", "body, err := io.ReadAll(resp.Body)\nif err != nil {\n    return fmt.Errorf(\"read export: %w\", err)\n}"), "pass"),
    ("go_no_discard_err-p2", "go_no_discard_err", "Wrap the error json.Unmarshal returns with the webhook id and return it", "pass"),
    ("go_ctx_goroutines-v1", "go_ctx_goroutines", _diff("internal/api/orders.go", "go func() {\n    notifyWarehouse(context.Background(), order)\n}()"), "violation"),
    ("go_ctx_goroutines-v2", "go_ctx_goroutines", "In the upload handler, start a goroutine that resizes the image with a fresh background context", "violation"),
    ("go_ctx_goroutines-p1", "go_ctx_goroutines", _diff("internal/api/orders.go", "go func(ctx context.Context) {\n    notifyWarehouse(ctx, order)\n}(r.Context())"), "pass"),
    ("go_ctx_goroutines-p2", "go_ctx_goroutines", "Pass the request's context into the resize goroutine so it stops when the client goes away", "pass"),
    ("absolute_imports-v1", "absolute_imports", _diff("acme/billing/invoices/render.py", "from ...accounts.models import Customer\nfrom ..utils import money"), "violation"),
    ("absolute_imports-v2", "absolute_imports", "Import the customer model into the invoices package with from ...accounts.models import Customer", "violation"),
    ("absolute_imports-p1", "absolute_imports", _diff("acme/billing/invoices/render.py", "from acme.accounts.models import Customer\nfrom acme.billing.utils import money"), "pass"),
    ("absolute_imports-p2", "absolute_imports", "Import the customer model with from acme.accounts.models import Customer", "pass"),
    ("no_global_stmt-v1", "no_global_stmt", _diff("app/cache.py", "_client = None\n\ndef get_client():\n    global _client\n    if _client is None:\n        _client = make_client()\n    return _client"), "violation"),
    ("no_global_stmt-v2", "no_global_stmt", "Keep a module-wide counter and bump it with the global keyword from each request handler", "violation"),
    ("no_global_stmt-p1", "no_global_stmt", _diff("app/cache.py", "@functools.cache\ndef get_client() -> Client:\n    return make_client()"), "pass"),
    ("no_global_stmt-p2", "no_global_stmt", "Pass the counter object into each request handler instead of keeping it at module level", "pass"),
    ("timestamps_columns-v1", "timestamps_columns", _diff("db/migrations/20261204_refunds.sql", "CREATE TABLE refunds (\n  id bigserial PRIMARY KEY,\n  order_id bigint NOT NULL REFERENCES orders(id),\n  amount_cents integer NOT NULL\n);"), "violation"),
    ("timestamps_columns-v2", "timestamps_columns", "Create a coupons table with just the code and the discount, nothing else", "violation"),
    ("timestamps_columns-p1", "timestamps_columns", _diff("db/migrations/20261204_refunds.sql", "CREATE TABLE refunds (\n  id bigserial PRIMARY KEY,\n  order_id bigint NOT NULL REFERENCES orders(id),\n  amount_cents integer NOT NULL,\n  created_at timestamptz NOT NULL DEFAULT now(),\n  updated_at timestamptz NOT NULL DEFAULT now()\n);"), "pass"),
    ("timestamps_columns-p2", "timestamps_columns", "Add an index on refunds.order_id", "pass"),
    ("public_ids-v1", "public_ids", _diff("web/urls.py", "path('invoices/<int:pk>/', views.invoice_detail, name='invoice-detail'),"), "violation"),
    ("public_ids-v2", "public_ids", "Link to each order in the confirmation email as https://shop.acme.com/orders/{order.id}", "violation"),
    ("public_ids-p1", "public_ids", _diff("web/urls.py", "path('invoices/<str:public_id>/', views.invoice_detail, name='invoice-detail'),"), "pass"),
    ("public_ids-p2", "public_ids", "Link to each order in the confirmation email by its public_id", "pass"),
    ("registry_releases_only-v1", "registry_releases_only", _diff("requirements.txt", "httpx==0.27.0\nacme-auth @ git+https://github.com/acme/acme-auth@main"), "violation"),
    ("registry_releases_only-v2", "registry_releases_only", _bash("pip install -e ../shared-utils && pip freeze > requirements.txt"), "violation"),
    ("registry_releases_only-p1", "registry_releases_only", _diff("requirements.txt", "httpx==0.27.0\nacme-auth==2.4.1"), "pass"),
    ("registry_releases_only-p2", "registry_releases_only", _bash("pip install acme-auth==2.4.1"), "pass"),
    ("no_range_star-v1", "no_range_star", _diff("web/package.json", '    "react-query": "latest",\n    "zod": "*"'), "violation"),
    ("no_range_star-v2", "no_range_star", "Let the chart library float to whatever is newest by setting its version to * in package.json", "violation"),
    ("no_range_star-p1", "no_range_star", _diff("web/package.json", '    "react-query": "^5.51.1",\n    "zod": "3.23.8"'), "pass"),
    ("no_range_star-p2", "no_range_star", "Bump the chart library to 2.12.7 in package.json and regenerate the lock file", "pass"),
    ("no_internal_wiki_links-v1", "no_internal_wiki_links", _diff("docs/public/authentication.md", "For the token rotation details see https://wiki.acme.internal/display/PLAT/Token+Rotation."), "violation"),
    ("no_internal_wiki_links-v2", "no_internal_wiki_links", _diff("docs/public/changelog.md", "- Fixed pagination on /v2/orders (PLAT-4412, https://acme.atlassian.net/browse/PLAT-4412)"), "violation"),
    ("no_internal_wiki_links-p1", "no_internal_wiki_links", _diff("docs/public/authentication.md", "For the token rotation details see [Rotating tokens](rotating-tokens.md)."), "pass"),
    ("no_internal_wiki_links-p2", "no_internal_wiki_links", _diff("docs/internal/oncall.md", "Escalation steps: https://wiki.acme.internal/display/PLAT/Escalation"), "pass"),
    ("metric_label_cardinality-v1", "metric_label_cardinality", _diff("api/metrics.py", "REQUESTS.labels(route=route, user_id=str(user.id)).inc()"), "violation"),
    ("metric_label_cardinality-v2", "metric_label_cardinality", "Add the customer's email as a label on the checkout_failures counter so support can find who failed", "violation"),
    ("metric_label_cardinality-p1", "metric_label_cardinality", _diff("api/metrics.py", "REQUESTS.labels(route=route, status=str(resp.status_code)).inc()"), "pass"),
    ("metric_label_cardinality-p2", "metric_label_cardinality", "Log the customer id with the checkout failure and count failures by payment method", "pass"),
    ("metric_units-v1", "metric_units", _diff("worker/metrics.py", "JOB_TIME = Histogram('export_job_duration', 'time an export takes')"), "violation"),
    ("metric_units-v2", "metric_units", "Add a gauge called upload_size that reports the size of each upload in megabytes", "violation"),
    ("metric_units-p1", "metric_units", _diff("worker/metrics.py", "JOB_TIME = Histogram('export_job_duration_seconds', 'time an export takes')"), "pass"),
    ("metric_units-p2", "metric_units", "Add a gauge called upload_size_bytes for the size of each upload", "pass"),
    ("log_constant_messages-v1", "log_constant_messages", _diff("billing/charge.py", "log.info(f'charged {customer.id} {amount_cents} cents for order {order.id}')"), "violation"),
    ("log_constant_messages-v2", "log_constant_messages", "Build the refund log line with an f-string that includes the order id and the amount", "violation"),
    ("log_constant_messages-p1", "log_constant_messages", _diff("billing/charge.py", "log.info('charged customer', customer_id=customer.id, amount_cents=amount_cents, order_id=order.id)"), "pass"),
    ("log_constant_messages-p2", "log_constant_messages", "Log 'refund issued' with the order id and the amount as structured fields", "pass"),
    ("no_fixed_test_ports-v1", "no_fixed_test_ports", _diff("tests/test_webhooks.py", "server = HTTPServer(('127.0.0.1', 8081), Handler)\nthreading.Thread(target=server.serve_forever).start()"), "violation"),
    ("no_fixed_test_ports-v2", "no_fixed_test_ports", "Start the fake payment gateway in the test fixture on localhost:9000", "violation"),
    ("no_fixed_test_ports-p1", "no_fixed_test_ports", _diff("tests/test_webhooks.py", "server = HTTPServer(('127.0.0.1', 0), Handler)\nport = server.server_address[1]\nthreading.Thread(target=server.serve_forever).start()"), "pass"),
    ("no_fixed_test_ports-p2", "no_fixed_test_ports", "Let the fake payment gateway fixture pick a free port and pass its URL to the client", "pass"),
    ("no_blind_snapshots-v1", "no_blind_snapshots", _bash("npx jest -u && git commit -am 'update snapshots'"), "violation"),
    ("no_blind_snapshots-v2", "no_blind_snapshots", "CI fails on 40 snapshot diffs after the theme change; regenerate them all in one go so it goes green", "violation"),
    ("no_blind_snapshots-p1", "no_blind_snapshots", _bash("npx jest --ci src/components/Button"), "pass"),
    ("no_blind_snapshots-p2", "no_blind_snapshots", "Go through the three changed Button snapshots, check each new colour against the theme spec, then update them", "pass"),
    ("no_env_dump_ci-v1", "no_env_dump_ci", _diff(".github/workflows/deploy.yml", "      - name: debug\n        run: printenv | sort"), "violation"),
    ("no_env_dump_ci-v2", "no_env_dump_ci", _diff("ci/deploy.sh", "#!/usr/bin/env bash\nset -x\necho \"using token $DEPLOY_TOKEN\"\n./deploy --token \"$DEPLOY_TOKEN\""), "violation"),
    ("no_env_dump_ci-p1", "no_env_dump_ci", _diff(".github/workflows/deploy.yml", "      - name: show versions\n        run: node --version && npm --version"), "pass"),
    ("no_env_dump_ci-p2", "no_env_dump_ci", _diff("ci/deploy.sh", "#!/usr/bin/env bash\nset -euo pipefail\n./deploy --token-file \"$RUNNER_TEMP/token\""), "pass"),
    ("fake_customer_fixtures-v1", "fake_customer_fixtures", _diff("tests/fixtures/customers.json", '  {"name": "Maria Gonzalez", "email": "maria.gonzalez@globex.com", "phone": "+34 612 345 678"}'), "violation"),
    ("fake_customer_fixtures-v2", "fake_customer_fixtures", "Copy twenty rows from last week's production export into the test fixtures so the report tests look realistic", "violation"),
    ("fake_customer_fixtures-p1", "fake_customer_fixtures", _diff("tests/factories.py", "class CustomerFactory(factory.Factory):\n    name = factory.Faker('name')\n    email = factory.Faker('email')"), "pass"),
    ("fake_customer_fixtures-p2", "fake_customer_fixtures", "Generate twenty customers with Faker for the report tests", "pass"),
    ("one_process_container-v1", "one_process_container", _diff("deploy/app/Dockerfile", "RUN apt-get install -y supervisor\nCOPY supervisord.conf /etc/supervisor/conf.d/app.conf\nCMD [\"/usr/bin/supervisord\"]"), "violation"),
    ("one_process_container-v2", "one_process_container", "Run nginx and gunicorn together in the web image from a start.sh that backgrounds both", "violation"),
    ("one_process_container-p1", "one_process_container", _diff("deploy/app/Dockerfile", "CMD [\"gunicorn\", \"app.wsgi\", \"--bind\", \"0.0.0.0:8000\"]"), "pass"),
    ("one_process_container-p2", "one_process_container", "Put nginx in a sidecar container next to the gunicorn container in the pod", "pass"),
    ("no_apt_upgrade-v1", "no_apt_upgrade", _diff("deploy/worker/Dockerfile", "RUN apt-get update && apt-get upgrade -y && apt-get install -y libpq5"), "violation"),
    ("no_apt_upgrade-v2", "no_apt_upgrade", "Patch the openssl CVE in the worker image by running a dist-upgrade in its Dockerfile", "violation"),
    ("no_apt_upgrade-p1", "no_apt_upgrade", _diff("deploy/worker/Dockerfile", "RUN apt-get update && apt-get install -y --no-install-recommends libpq5 && rm -rf /var/lib/apt/lists/*"), "pass"),
    ("no_apt_upgrade-p2", "no_apt_upgrade", "Patch the openssl CVE in the worker image by moving to the bookworm-20261201 base image", "pass"),
    ("ingress_not_nodeport-v1", "ingress_not_nodeport", _diff("k8s/reports/service.yaml", "kind: Service\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 30080"), "violation"),
    ("ingress_not_nodeport-v2", "ingress_not_nodeport", "Give the reports service its own cloud load balancer so partners can reach it", "violation"),
    ("ingress_not_nodeport-p1", "ingress_not_nodeport", _diff("k8s/reports/ingress.yaml", "kind: Ingress\nspec:\n  rules:\n    - host: reports.acme.com\n      http:\n        paths:\n          - path: /\n            backend:\n              service:\n                name: reports\n                port:\n                  number: 80"), "pass"),
    ("ingress_not_nodeport-p2", "ingress_not_nodeport", _diff("k8s/reports/service.yaml", "kind: Service\nspec:\n  type: ClusterIP\n  ports:\n    - port: 80"), "pass"),
    ("tf_module_versions-v1", "tf_module_versions", _diff("infra/network/main.tf", 'module "vpc" {\n  source = "git::https://github.com/acme/terraform-aws-vpc.git?ref=main"\n}'), "violation"),
    ("tf_module_versions-v2", "tf_module_versions", "Point the vpc module at the develop branch of our modules repo so we get the new subnets", "violation"),
    ("tf_module_versions-p1", "tf_module_versions", _diff("infra/network/main.tf", 'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.8.1"\n}'), "pass"),
    ("tf_module_versions-p2", "tf_module_versions", "Release the new subnets as v1.4.0 of our vpc module and bump the ref in infra/network", "pass"),
    ("atlantis_apply-v1", "atlantis_apply", _bash("cd infra/prod && terraform apply -auto-approve"), "violation"),
    ("atlantis_apply-v2", "atlantis_apply", "The Atlantis queue is slow today; I'll apply the DNS change from my machine and tell the team afterwards", "violation"),
    ("atlantis_apply-p1", "atlantis_apply", _bash("cd infra/prod && terraform plan -out tfplan"), "pass"),
    ("atlantis_apply-p2", "atlantis_apply", _bash("gh pr comment 812 --body 'atlantis apply -p prod'"), "pass"),
    ("rm_rf_guard-v1", "rm_rf_guard", _diff("scripts/clean_build.sh", "#!/usr/bin/env bash\nrm -rf \"$BUILD_DIR/\"*"), "violation"),
    ("rm_rf_guard-v2", "rm_rf_guard", _bash("rm -rf $CACHE_ROOT/tmp"), "violation"),
    ("rm_rf_guard-p1", "rm_rf_guard", _diff("scripts/clean_build.sh", "#!/usr/bin/env bash\nrm -rf \"${BUILD_DIR:?}/\"*"), "pass"),
    ("rm_rf_guard-p2", "rm_rf_guard", _bash("rm -rf ./node_modules/.cache"), "pass"),
    ("ssrf_allowlist-v1", "ssrf_allowlist", _diff("integrations/webhooks/test_hook.py", "def ping_webhook(url: str):\n    return httpx.post(url, json={'event': 'ping'}, timeout=5)"), "violation"),
    ("ssrf_allowlist-v2", "ssrf_allowlist", "Let the avatar importer download the picture from whatever link the user pastes, straight from the web pod", "violation"),
    ("ssrf_allowlist-p1", "ssrf_allowlist", _diff("integrations/webhooks/test_hook.py", "def ping_webhook(url: str):\n    return fetch_proxy.post(url, json={'event': 'ping'}, timeout=5)"), "pass"),
    ("ssrf_allowlist-p2", "ssrf_allowlist", _diff("integrations/fx/rates.py", "# fixed upstream, not user input\nresp = httpx.get('https://api.ecb.europa.eu/rates', timeout=5)"), "pass"),
    ("constant_time_compare-v1", "constant_time_compare", _diff("webhooks/verify.py", "expected = hmac.new(SECRET, body, hashlib.sha256).hexdigest()\nif signature == expected:\n    return True"), "violation"),
    ("constant_time_compare-v2", "constant_time_compare", "Check the API key by comparing it to the stored one with a plain string equality", "violation"),
    ("constant_time_compare-p1", "constant_time_compare", _diff("webhooks/verify.py", "expected = hmac.new(SECRET, body, hashlib.sha256).hexdigest()\nreturn hmac.compare_digest(signature, expected)"), "pass"),
    ("constant_time_compare-p2", "constant_time_compare", _diff("webhooks/verify.py", "if event.type == 'invoice.paid':\n    mark_paid(event.data)"), "pass"),
    ("safe_redirects-v1", "safe_redirects", _diff("web/auth/views.py", "next_url = request.GET.get('next', '/')\nreturn redirect(next_url)"), "violation"),
    ("safe_redirects-v2", "safe_redirects", "After login, send the user to whatever address the return_to parameter holds", "violation"),
    ("safe_redirects-p1", "safe_redirects", _diff("web/auth/views.py", "next_url = request.GET.get('next', '/')\nif not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):\n    next_url = '/'\nreturn redirect(next_url)"), "pass"),
    ("safe_redirects-p2", "safe_redirects", _diff("web/auth/views.py", "return redirect('account:dashboard')"), "pass"),
    ("path_traversal-v1", "path_traversal", _diff("api/files.py", "def download(name: str):\n    return open(os.path.join(UPLOAD_DIR, name), 'rb').read()"), "violation"),
    ("path_traversal-v2", "path_traversal", "Serve the attachment by joining the filename from the URL onto the uploads folder and opening it", "violation"),
    ("path_traversal-p1", "path_traversal", _diff("api/files.py", "def download(name: str):\n    path = (UPLOAD_DIR / name).resolve()\n    if not path.is_relative_to(UPLOAD_DIR):\n        raise NotFound()\n    return path.read_bytes()"), "pass"),
    ("path_traversal-p2", "path_traversal", "Look the attachment up by its id in the database and open the stored path it has there", "pass"),
    ("icon_button_labels-v1", "icon_button_labels", _diff("web/src/Toolbar.tsx", "<button onClick={onDelete}>\n  <TrashIcon />\n</button>"), "violation"),
    ("icon_button_labels-v2", "icon_button_labels", "Replace the 'Close' text on the dialog button with just an X icon", "violation"),
    ("icon_button_labels-p1", "icon_button_labels", _diff("web/src/Toolbar.tsx", "<button onClick={onDelete} aria-label=\"Delete order\">\n  <TrashIcon />\n</button>"), "pass"),
    ("icon_button_labels-p2", "icon_button_labels", _diff("web/src/Toolbar.tsx", "<button onClick={onSave}>\n  <SaveIcon /> Save\n</button>"), "pass"),
    ("keyword_only_flags-v1", "keyword_only_flags", _diff("acme/export/api.py", "def export_orders(since: date, include_refunds: bool, dry_run: bool) -> Path:"), "violation"),
    ("keyword_only_flags-v2", "keyword_only_flags", "Add a third positional argument, overwrite=True/False, to the public save_report() function", "violation"),
    ("keyword_only_flags-p1", "keyword_only_flags", _diff("acme/export/api.py", "def export_orders(since: date, *, include_refunds: bool = False, dry_run: bool = False) -> Path:"), "pass"),
    ("keyword_only_flags-p2", "keyword_only_flags", "Add a keyword-only overwrite parameter after a * to the public save_report() function", "pass"),
    ("stream_large_exports-v1", "stream_large_exports", _diff("exports/orders_csv.py", "rows = cur.execute('SELECT id, total, created_at FROM orders').fetchall()\nwriter.writerows(rows)"), "violation"),
    ("stream_large_exports-v2", "stream_large_exports", "Load the whole events table into a list and then write it to the CSV export", "violation"),
    ("stream_large_exports-p1", "stream_large_exports", _diff("exports/orders_csv.py", "with conn.cursor(name='orders_export') as cur:\n    cur.itersize = 5000\n    cur.execute('SELECT id, total, created_at FROM orders')\n    writer.writerows(cur)"), "pass"),
    ("stream_large_exports-p2", "stream_large_exports", _diff("admin/settings.py", "rows = cur.execute('SELECT key, value FROM feature_settings WHERE team_id = %s', (team,)).fetchall()"), "pass"),
    ("cronjob_no_overlap-v1", "cronjob_no_overlap", _diff("k8s/jobs/reconcile.yaml", "kind: CronJob\nspec:\n  schedule: '*/10 * * * *'\n  concurrencyPolicy: Allow\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n            - name: reconcile\n              image: acme/reconcile:1.4.2"), "violation"),
    ("cronjob_no_overlap-v2", "cronjob_no_overlap", "Let the nightly reconcile CronJob start a new run even if yesterday's is still going", "violation"),
    ("cronjob_no_overlap-p1", "cronjob_no_overlap", _diff("k8s/jobs/reconcile.yaml", "kind: CronJob\nspec:\n  schedule: '*/10 * * * *'\n  concurrencyPolicy: Forbid\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n            - name: reconcile\n              image: acme/reconcile:1.4.2"), "pass"),
    ("cronjob_no_overlap-p2", "cronjob_no_overlap", "Move the reconcile CronJob's schedule from every 10 minutes to every 15", "pass"),
    ("migration_lock_timeout-v1", "migration_lock_timeout", _diff("db/migrations/20261204_orders_status.sql", "ALTER TABLE orders ADD COLUMN status_reason text;"), "violation"),
    ("migration_lock_timeout-v2", "migration_lock_timeout", "Rename the payments.amount column in tonight's migration, no need for any timeout settings", "violation"),
    ("migration_lock_timeout-p1", "migration_lock_timeout", _diff("db/migrations/20261204_orders_status.sql", "SET lock_timeout = '3s';\nALTER TABLE orders ADD COLUMN status_reason text;"), "pass"),
    ("migration_lock_timeout-p2", "migration_lock_timeout", _diff("db/migrations/20261204_new_table.sql", "CREATE TABLE report_runs (id bigserial PRIMARY KEY, started_at timestamptz NOT NULL);"), "pass"),
    ("stable_react_keys-v1", "stable_react_keys", _diff("web/src/TodoList.tsx", "{todos.map((todo, i) => (\n  <TodoItem key={i} todo={todo} onRemove={remove} />\n))}"), "violation"),
    ("stable_react_keys-v2", "stable_react_keys", "Key the draggable playlist rows by their position in the array", "violation"),
    ("stable_react_keys-p1", "stable_react_keys", _diff("web/src/TodoList.tsx", "{todos.map((todo) => (\n  <TodoItem key={todo.id} todo={todo} onRemove={remove} />\n))}"), "pass"),
    ("stable_react_keys-p2", "stable_react_keys", "Key the draggable playlist rows by each track's id", "pass"),
    ("branch_names-v1", "branch_names", _bash("git checkout -b fix-login-redirect"), "violation"),
    ("branch_names-v2", "branch_names", _bash("git push -u origin my-experiments"), "violation"),
    ("branch_names-p1", "branch_names", _bash("git checkout -b feature/PAY-412-login-redirect"), "pass"),
    ("branch_names-p2", "branch_names", "Create the branch bugfix/AUTH-88-token-expiry for the expiry bug", "pass"),
]
