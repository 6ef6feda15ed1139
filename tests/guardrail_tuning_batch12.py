"""Guardrail TUNING cases, twelfth batch (issue 22, fourteenth session): 47 criteria on
subjects the first eleven batches do not cover, phrased the way CONTRIBUTING files and team
engineering standards put them (read through the search tool: "Only fully managed storage
services are to be used for hosting a database", "All other database engines are
prohibited", "Logging should be done using the tracing library to ensure consistent log
output"); the sentences and cases are our own.

Weighted, like the eleventh batch, to what fails (written before any reader change of the
session):
- violations that share few words with their rule: a NAMED PRODUCT, often only its CLIENT
  LIBRARY in a diff, where the rule names a category ("import pymysql" under "our one
  Postgres cluster … no other SQL database", "from pymemcache…" under "no separate
  key-value or cache server", "import smtplib" under "never talk to a mail server"), a
  paraphrase, or a tool call that never says the rule's words (`twine upload dist/*` under
  "never to a public registry", `FROM python:3.12-slim` under "never on images pulled from
  Docker Hub");
- look-alikes that share many words with their rule but comply: the chosen product's own
  client ("import asyncpg" under "our one Postgres cluster"), a member named to remove it
  ("delete the leftover jest.config.js"), the read-only or local variant (`aws route53
  list-resource-record-sets`, a self-signed certificate for a laptop-only proxy), a
  Dockerfile whose comment says "from" but whose FROM line is the hardened image.
Each criterion has at least one violating and one complying case, and a diff or a tool call.
Every fact a label depends on is in the case text. Same format as
tests/guardrail_tuning_batch11.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff

# `python -m tests.heldout_eval batch12` on the reader of 2ef408b (main as the fourteenth
# session began), before any change of this session, with the sentence model
# (LORESTACK_TEST_MODEL_DIR set; load 1.2-2.2, 24.6 s): 47 criteria, 0 refused, 191 cases
# (97 violations, 94 look-alikes); exact 95/191 (50%), wrong blocks 0, silent passes 66/97,
# look-alikes pass 64/94 (68%) (violations: 31 undecided, 66 pass; look-alikes: 30
# undecided, 64 pass; other criteria flagged 140). It ran twice on that same reader: the
# first run's summary line was cut off by `tail` when it was printed; the listing of wrong
# answers it did print is the second run's. The batch test keeps this first run as the
# floor until a kept figure replaces it.
FIRST_RUN = {"exact": 95, "wrong_blocks": 0, "silent_passes": 66, "lookalike_pass": 64}
# fourteenth session, in-sample (the batch's writer changed the reader after its first
# run): the new categories and client modules (concepts.py), a member match as a guess that
# keeps where the member is only taken away (judging.py), the FROM line as the image: exact
# 120, silent passes 44, look-alikes 67 (load 7.9, 25 s).
# Then the lead (same session) let meaning apply again where a criterion's only keywords are
# category members (a guessed scope): on batches 1-10 (not read for the change above) it had
# let 2 violations pass in silence (no_print_debug, batch 7); here it costs 2 look-alikes
# (pydantic_validation-p1/p2 use the product the rule chose and now answer "applies,
# undecided"): 118 / 44 / 65, and tuning-1-11 is back at 700/0/163/291 (from 699/0/165/292).
# fifteenth session: commands, imports, DDL and file kinds said in words (gloss.py): `mvn …`
# and a pom.xml under "no new Maven builds", `twine upload` under "never to a public
# registry", a settings.yaml under "no new YAML config files": 123 / 39 / 65 (load 2.5).
KEPT = {"exact": 123, "wrong_blocks": 0, "silent_passes": 39, "lookalike_pass": 65}

CRITERIA: dict[str, tuple[str, str]] = {
    # one chosen product per category: the rule names the category (and maybe its choice),
    # a violation names another member of it, often only through its client library
    "managed_db_only": (
        "Databases run only as managed services in RDS; teams don't run a database server of "
        "their own in a container or on a VM",
        "block",
    ),
    "one_sql_db": (
        "Relational data lives in our one Postgres cluster; please don't add MySQL or any "
        "other SQL database next to it",
        "warn",
    ),
    "one_log_lib": (
        "Services log through structlog; don't add a second logging library",
        "warn",
    ),
    "one_task_queue": (
        "Background jobs run on Celery; we don't introduce another task queue",
        "warn",
    ),
    "sessions_in_db": (
        "Sessions are stored in the main database; no separate key-value or cache server is "
        "set up for them",
        "warn",
    ),
    "mail_via_notifications": (
        "Outgoing email is sent by the notifications service; other services never talk to a "
        "mail server or an email API themselves",
        "block",
    ),
    "search_team_api": (
        "Product search is served by the search team's API; services don't index documents "
        "into a search cluster of their own",
        "warn",
    ),
    "pytest_only": (
        "Python tests are written for pytest; no new unittest-style test classes",
        "warn",
    ),
    "react_only": (
        "The web app is built with React; no other UI framework gets added to it",
        "warn",
    ),
    "vitest_only": (
        "Frontend unit tests run on Vitest; don't add a second test runner",
        "warn",
    ),
    "vite_only": (
        "JavaScript is bundled with Vite; don't set up another bundler",
        "warn",
    ),
    "recharts_only": (
        "Charts in the dashboard use Recharts; please don't pull in another charting library",
        "warn",
    ),
    "ds_icons": (
        "Icons come from our design-system package; don't add a third-party icon library",
        "warn",
    ),
    "pydantic_validation": (
        "Request bodies are validated with pydantic models, not with another schema or "
        "validation library",
        "warn",
    ),
    "fastapi_only": (
        "Our HTTP APIs are written in FastAPI; don't add another web framework",
        "warn",
    ),
    "toml_config": (
        "Service configuration is TOML; no new YAML or INI config files",
        "warn",
    ),
    "mkdocs_only": (
        "Documentation is built with MkDocs; don't start a second documentation toolchain",
        "warn",
    ),
    "uv_only": (
        "Python dependencies are managed with uv; don't add Poetry or Pipenv files",
        "warn",
    ),
    "gradle_only": (
        "JVM services build with Gradle; no new Maven builds",
        "warn",
    ),
    "sentry_only": (
        "Errors are reported to Sentry; don't wire up another error-tracking service",
        "warn",
    ),
    "datadog_metrics": (
        "Metrics and dashboards live in Datadog; teams don't run a monitoring stack of their own",
        "warn",
    ),
    "twilio_only": (
        "Text messages go out through Twilio only; don't integrate another SMS gateway",
        "warn",
    ),
    "push_fcm": (
        "Mobile push notifications are sent through Firebase Cloud Messaging; no other push "
        "provider",
        "warn",
    ),
    "experiments_service": (
        "A/B tests run through our experiments service; no third-party experimentation SDKs",
        "warn",
    ),
    "litellm_only": (
        "Code calls language models through LiteLLM, never through one provider's own SDK",
        "warn",
    ),
    "rest_not_graphql": (
        "Public APIs are REST with JSON bodies; we don't expose GraphQL",
        "warn",
    ),
    "sse_not_ws": (
        "Live updates reach the browser as server-sent events; we don't run WebSocket servers",
        "warn",
    ),
    "rn_only": (
        "The mobile app is React Native; no screens are written natively in Swift or Kotlin",
        "warn",
    ),
    "k8s_not_serverless": (
        "Everything runs on the Kubernetes platform; we don't deploy serverless functions",
        "warn",
    ),
    # infrastructure and operations
    "hardened_base": (
        "Container images build on our hardened base images in ECR, never on images pulled "
        "from Docker Hub",
        "block",
    ),
    "artifactory_only": (
        "Internal packages are published only to our Artifactory, never to a public registry",
        "block",
    ),
    "dns_terraform": (
        "DNS records are changed only through Terraform; nobody edits them by hand in a "
        "console or with a CLI",
        "block",
    ),
    "acme_certs": (
        "TLS certificates for anything customers reach are issued by cert-manager; no "
        "self-signed certificates in front of users",
        "block",
    ),
    "no_default_ns": (
        "Nothing is deployed into the default namespace; every workload runs in its team's "
        "namespace",
        "warn",
    ),
    "tailnet_only": (
        "Internal hosts are reached only over the Tailscale network; no SSH port is opened to "
        "the internet and no other VPN is set up",
        "block",
    ),
    "mesh_mtls": (
        "Services authenticate to each other with the mesh's mutual TLS; no shared API keys "
        "between internal services",
        "warn",
    ),
    "stdout_logs": (
        "Applications log to stdout only; a service never writes its own log files",
        "warn",
    ),
    # data
    "stripe_cards": (
        "Card payments go through Stripe; we never store card numbers in our own database",
        "block",
    ),
    "uploads_s3": (
        "User uploads go straight to S3; nothing is written to the container's local disk",
        "warn",
    ),
    "warehouse_analytics": (
        "Analytics queries run against the Snowflake warehouse, never against the production "
        "database",
        "warn",
    ),
    "no_sheets_source": (
        "Spreadsheets are never a source of truth: no service reads its data or settings from "
        "Google Sheets",
        "warn",
    ),
    "iso_dates": (
        "Timestamps in API responses are ISO 8601 strings, never Unix epoch numbers",
        "warn",
    ),
    "ai_gateway": (
        "Customer data is never sent to an outside AI provider; use the internal model gateway",
        "block",
    ),
    # code and process
    "legacy_frozen": (
        "The legacy/ package is frozen: no new code goes into it until it is removed",
        "warn",
    ),
    "crowdin_locales": (
        "Translations are managed in Crowdin; the generated locale files are never edited by "
        "hand",
        "warn",
    ),
    "upstream_legal": (
        "Contributions to outside open-source projects need legal's approval before the pull "
        "request is opened",
        "warn",
    ),
    "incident_channel": (
        "Production incidents are coordinated in the #incident channel, not in direct messages",
        "warn",
    ),
}

# (case id, criterion key, proposal, expected)
CASES: list[tuple[str, str, object, str]] = [
    ("managed_db_only-v1", "managed_db_only", _diff("docker-compose.prod.yml", "services:\n  orders-db:\n    image: mongo:7\n    volumes:\n      - orders-data:/data/db\n    restart: always"), "violation"),
    ("managed_db_only-v2", "managed_db_only", _bash("helm install orders-pg bitnami/postgresql --namespace orders --set primary.persistence.size=50Gi"), "violation"),
    ("managed_db_only-v3", "managed_db_only", "Spin up MariaDB on an EC2 instance for the reporting team; we'll patch it ourselves", "violation"),
    ("managed_db_only-p1", "managed_db_only", "Point the orders service at the RDS Postgres instance that Terraform already created", "pass"),
    ("managed_db_only-p2", "managed_db_only", _diff("infra/orders/rds.tf", 'resource "aws_db_instance" "orders" {\n  engine         = "postgres"\n  instance_class = "db.t4g.medium"\n  multi_az       = true\n}'), "pass"),
    ("one_sql_db-v1", "one_sql_db", _diff("services/billing/db.py", "import pymysql\n\nconn = pymysql.connect(host=settings.BILLING_DB_HOST, user='billing', database='billing')"), "violation"),
    ("one_sql_db-v2", "one_sql_db", "Stand up a MariaDB instance for the billing ledger, it's what the vendor's tool expects", "violation"),
    ("one_sql_db-p1", "one_sql_db", _diff("services/billing/db.py", "import asyncpg\n\npool = await asyncpg.create_pool(dsn=settings.POSTGRES_DSN, min_size=2, max_size=10)"), "pass"),
    ("one_sql_db-p2", "one_sql_db", "Add a billing schema to the Postgres cluster and give the billing service its own role there", "pass"),
    ("one_log_lib-v1", "one_log_lib", _diff("services/api/app/main.py", "from loguru import logger\n\nlogger.add(sys.stderr, level='INFO')\nlogger.info('api started')"), "violation"),
    ("one_log_lib-v2", "one_log_lib", _bash("uv add logbook"), "violation"),
    ("one_log_lib-p1", "one_log_lib", _diff("services/api/app/main.py", "import structlog\n\nlog = structlog.get_logger()\nlog.info('api started', version=__version__)"), "pass"),
    ("one_log_lib-p2", "one_log_lib", "Replace the last loguru call in the worker with structlog and drop loguru from the dependencies", "pass"),
    ("one_task_queue-v1", "one_task_queue", _diff("services/reports/tasks.py", "import dramatiq\n\n@dramatiq.actor(max_retries=3)\ndef export_report(report_id):\n    build_export(report_id)"), "violation"),
    ("one_task_queue-v2", "one_task_queue", "Run the PDF exports on RQ workers, they're simpler than what we have", "violation"),
    ("one_task_queue-p1", "one_task_queue", _diff("services/reports/tasks.py", "from celery import shared_task\n\n@shared_task(bind=True, max_retries=3)\ndef export_report(self, report_id):\n    build_export(report_id)"), "pass"),
    ("one_task_queue-p2", "one_task_queue", "Move the PDF export out of the request handler into a Celery task", "pass"),
    ("sessions_in_db-v1", "sessions_in_db", _diff("web/sessions.py", "from pymemcache.client.base import Client\n\nsession_store = Client(('sessions-cache', 11211))"), "violation"),
    ("sessions_in_db-v2", "sessions_in_db", _diff("docker-compose.yml", "  session-store:\n    image: valkey/valkey:7\n    ports: ['6379:6379']"), "violation"),
    ("sessions_in_db-p1", "sessions_in_db", _diff("web/settings.py", "SESSION_ENGINE = 'django.contrib.sessions.backends.db'\nSESSION_COOKIE_AGE = 60 * 60 * 24 * 14"), "pass"),
    ("sessions_in_db-p2", "sessions_in_db", "Add an index on the sessions table's expire_date so the nightly cleanup stays fast", "pass"),
    ("mail_via_notifications-v1", "mail_via_notifications", _diff("services/invoices/send.py", "import smtplib\n\nwith smtplib.SMTP('smtp.office365.com', 587) as s:\n    s.starttls()\n    s.send_message(msg)"), "violation"),
    ("mail_via_notifications-v2", "mail_via_notifications", _bash("pip install sendgrid && echo sendgrid >> services/invoices/requirements.txt"), "violation"),
    ("mail_via_notifications-v3", "mail_via_notifications", "Have the invoices service hand its PDFs to Postmark directly so customers get them faster", "violation"),
    ("mail_via_notifications-p1", "mail_via_notifications", _diff("services/invoices/send.py", "resp = httpx.post(f'{NOTIFICATIONS_URL}/v1/emails', json={'template': 'invoice', 'to': customer.email, 'attachments': [pdf_id]})"), "pass"),
    ("mail_via_notifications-p2", "mail_via_notifications", "Remove the old smtplib fallback from the invoices service; the notifications service sends everything now", "pass"),
    ("search_team_api-v1", "search_team_api", _diff("services/catalog/indexer.py", "from opensearchpy import OpenSearch\n\nclient = OpenSearch(hosts=['catalog-os:9200'])\nclient.index(index='products', body=doc)"), "violation"),
    ("search_team_api-v2", "search_team_api", _diff("services/catalog/indexer.py", "import pysolr\n\nsolr = pysolr.Solr('http://catalog-solr:8983/solr/products')\nsolr.add([doc])"), "violation"),
    ("search_team_api-p1", "search_team_api", _diff("services/catalog/search.py", "resp = httpx.get(f'{SEARCH_API}/v2/products', params={'q': query, 'limit': 20})"), "pass"),
    ("search_team_api-p2", "search_team_api", "Send product changes to the search team's ingestion endpoint so their index picks them up", "pass"),
    ("pytest_only-v1", "pytest_only", _diff("tests/test_invoice.py", "import unittest\n\nclass InvoiceTests(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([1, 2]), 3)"), "violation"),
    ("pytest_only-v2", "pytest_only", "Write the new rounding checks as a TestCase subclass with setUp and assertEqual", "violation"),
    ("pytest_only-p1", "pytest_only", _diff("tests/test_invoice.py", "import pytest\n\n@pytest.mark.parametrize('items,expected', [([1, 2], 3), ([], 0)])\ndef test_total(items, expected):\n    assert total(items) == expected"), "pass"),
    ("pytest_only-p2", "pytest_only", "Convert the last unittest TestCase classes in tests/legacy to plain pytest functions", "pass"),
    ("react_only-v1", "react_only", _bash("cd web && npm install vue@3 @vitejs/plugin-vue"), "violation"),
    ("react_only-v2", "react_only", "Build the new settings page in Svelte, it's small enough to try it", "violation"),
    ("react_only-p1", "react_only", _diff("web/src/pages/Settings.tsx", "export function Settings() {\n  const [tab, setTab] = useState('profile');\n  return <Tabs value={tab} onChange={setTab} />;\n}"), "pass"),
    ("react_only-p2", "react_only", _bash("cd web && npm install react@18.3.1 react-dom@18.3.1"), "pass"),
    ("vitest_only-v1", "vitest_only", _bash("cd web && npm install --save-dev jest ts-jest @types/jest"), "violation"),
    ("vitest_only-v2", "vitest_only", _diff("web/package.json", '  "devDependencies": {\n    "mocha": "^10.4.0",\n    "chai": "^5.1.0"'), "violation"),
    ("vitest_only-p1", "vitest_only", _diff("web/vitest.config.ts", "export default defineConfig({\n  test: { environment: 'jsdom', coverage: { provider: 'v8' } },\n});"), "pass"),
    ("vitest_only-p2", "vitest_only", "Delete the leftover jest.config.js now that every frontend test runs under Vitest", "pass"),
    ("vite_only-v1", "vite_only", _diff("web/webpack.config.js", "module.exports = {\n  entry: './src/admin.tsx',\n  output: { path: __dirname + '/dist-admin' },\n};"), "violation"),
    ("vite_only-v2", "vite_only", _bash("cd web && npm install --save-dev parcel && npx parcel build src/embed.html"), "violation"),
    ("vite_only-p1", "vite_only", _diff("web/vite.config.ts", "export default defineConfig({\n  build: { rollupOptions: { input: { admin: 'admin.html', main: 'index.html' } } },\n});"), "pass"),
    ("vite_only-p2", "vite_only", "Add the embeddable widget as a second entry point in the Vite build", "pass"),
    ("recharts_only-v1", "recharts_only", _bash("cd dashboard && npm install chart.js react-chartjs-2"), "violation"),
    ("recharts_only-v2", "recharts_only", _diff("dashboard/src/Revenue.tsx", "import * as d3 from 'd3';\n\nconst x = d3.scaleTime().domain(extent).range([0, width]);"), "violation"),
    ("recharts_only-p1", "recharts_only", _diff("dashboard/src/Revenue.tsx", "import { LineChart, Line, XAxis, Tooltip } from 'recharts';\n\n<LineChart data={rows}><Line dataKey=\"revenue\" /></LineChart>"), "pass"),
    ("recharts_only-p2", "recharts_only", "Replace the last Highcharts graph on the usage page with a Recharts bar chart", "pass"),
    ("ds_icons-v1", "ds_icons", _bash("cd web && npm install @fortawesome/fontawesome-free"), "violation"),
    ("ds_icons-v2", "ds_icons", _diff("web/src/components/UserMenu.tsx", "import { FiUser, FiLogOut } from 'react-icons/fi';"), "violation"),
    ("ds_icons-p1", "ds_icons", _diff("web/src/components/UserMenu.tsx", "import { UserIcon, LogOutIcon } from '@acme/design-system/icons';"), "pass"),
    ("ds_icons-p2", "ds_icons", "Add a new 'export' icon SVG to the design-system package and release it as 4.2.0", "pass"),
    ("pydantic_validation-v1", "pydantic_validation", _diff("api/orders/schemas.py", "from marshmallow import Schema, fields\n\nclass OrderIn(Schema):\n    sku = fields.Str(required=True)\n    qty = fields.Int(required=True)"), "violation"),
    ("pydantic_validation-v2", "pydantic_validation", _diff("api/orders/views.py", "import jsonschema\n\njsonschema.validate(instance=body, schema=ORDER_SCHEMA)"), "violation"),
    ("pydantic_validation-p1", "pydantic_validation", _diff("api/orders/schemas.py", "from pydantic import BaseModel, Field\n\nclass OrderIn(BaseModel):\n    sku: str\n    qty: int = Field(gt=0)"), "pass"),
    ("pydantic_validation-p2", "pydantic_validation", "Add a validator to the OrderIn pydantic model that rejects quantities above 999", "pass"),
    ("fastapi_only-v1", "fastapi_only", _bash("pip install flask flask-restx && touch services/admin/app.py"), "violation"),
    ("fastapi_only-v2", "fastapi_only", _diff("services/admin/app.py", "from sanic import Sanic\n\napp = Sanic('admin')\n\n@app.get('/health')\nasync def health(request):\n    return text('ok')"), "violation"),
    ("fastapi_only-p1", "fastapi_only", _diff("services/admin/app.py", "from fastapi import APIRouter\n\nrouter = APIRouter(prefix='/admin')\n\n@router.get('/health')\nasync def health():\n    return {'ok': True}"), "pass"),
    ("fastapi_only-p2", "fastapi_only", "Port the last Flask blueprint in the admin service to a FastAPI router and drop Flask", "pass"),
    ("toml_config-v1", "toml_config", _diff("services/ingest/settings.yaml", "batch_size: 500\nretry:\n  attempts: 3\n  backoff_seconds: 2"), "violation"),
    ("toml_config-v2", "toml_config", _diff("services/ingest/config.py", "import configparser\n\ncfg = configparser.ConfigParser()\ncfg.read('ingest.ini')"), "violation"),
    ("toml_config-p1", "toml_config", _diff("services/ingest/config.toml", "batch_size = 500\n\n[retry]\nattempts = 3\nbackoff_seconds = 2"), "pass"),
    ("toml_config-p2", "toml_config", "Convert the ingest service's last settings.ini to config.toml and delete the ini file", "pass"),
    ("mkdocs_only-v1", "mkdocs_only", _bash("pip install sphinx && sphinx-quickstart docs-api --quiet -p acme-api -a platform"), "violation"),
    ("mkdocs_only-v2", "mkdocs_only", "Put the API guide on a Docusaurus site of its own, it looks nicer", "violation"),
    ("mkdocs_only-p1", "mkdocs_only", _diff("mkdocs.yml", "nav:\n  - Home: index.md\n  - API guide: api/guide.md"), "pass"),
    ("mkdocs_only-p2", "mkdocs_only", "Delete the old Sphinx conf.py and _build folder left over from 2019; MkDocs builds everything now", "pass"),
    ("uv_only-v1", "uv_only", _diff("Pipfile", "[packages]\nhttpx = \"*\"\n\n[requires]\npython_version = \"3.12\""), "violation"),
    ("uv_only-v2", "uv_only", _bash("poetry init --no-interaction && poetry add httpx"), "violation"),
    ("uv_only-p1", "uv_only", _bash("uv add httpx && uv lock"), "pass"),
    ("uv_only-p2", "uv_only", "Delete the stale Pipfile and Pipfile.lock; uv.lock is the only lockfile now", "pass"),
    ("gradle_only-v1", "gradle_only", _diff("services/ledger/pom.xml", "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <artifactId>ledger</artifactId>\n</project>"), "violation"),
    ("gradle_only-v2", "gradle_only", _bash("mvn archetype:generate -DgroupId=com.acme -DartifactId=ledger -DinteractiveMode=false"), "violation"),
    ("gradle_only-p1", "gradle_only", _diff("services/ledger/build.gradle.kts", "plugins {\n    kotlin(\"jvm\") version \"2.0.0\"\n}\ndependencies {\n    implementation(project(\":common\"))\n}"), "pass"),
    ("gradle_only-p2", "gradle_only", "Remove the last pom.xml from the payments module now that its Gradle build is green", "pass"),
    ("sentry_only-v1", "sentry_only", _bash("cd web && npm install @bugsnag/js @bugsnag/plugin-react"), "violation"),
    ("sentry_only-v2", "sentry_only", _diff("services/api/app/errors.py", "import rollbar\n\nrollbar.init(settings.ROLLBAR_TOKEN, environment='production')"), "violation"),
    ("sentry_only-p1", "sentry_only", _diff("services/api/app/errors.py", "import sentry_sdk\n\nsentry_sdk.init(dsn=settings.SENTRY_DSN, traces_sample_rate=0.1)"), "pass"),
    ("sentry_only-p2", "sentry_only", "Remove the old Raygun snippet from index.html; Sentry catches those errors already", "pass"),
    ("datadog_metrics-v1", "datadog_metrics", _bash("helm install monitoring prometheus-community/kube-prometheus-stack -n payments"), "violation"),
    ("datadog_metrics-v2", "datadog_metrics", "Run a Grafana and InfluxDB pair on our team's VM for the payment latency graphs", "violation"),
    ("datadog_metrics-p1", "datadog_metrics", _diff("services/payments/metrics.py", "from datadog import statsd\n\nstatsd.histogram('payments.latency', elapsed, tags=['route:charge'])"), "pass"),
    ("datadog_metrics-p2", "datadog_metrics", "Build the payment latency dashboard in Datadog and link it from the runbook", "pass"),
    ("twilio_only-v1", "twilio_only", _diff("services/auth/otp.py", "import vonage\n\nclient = vonage.Client(key=settings.VONAGE_KEY, secret=settings.VONAGE_SECRET)\nclient.sms.send_message({'to': phone, 'text': code})"), "violation"),
    ("twilio_only-v2", "twilio_only", "Sign up for Plivo and send the login codes for Indian numbers through it, it's cheaper there", "violation"),
    ("twilio_only-p1", "twilio_only", _diff("services/auth/otp.py", "from twilio.rest import Client\n\nclient.messages.create(to=phone, from_=settings.TWILIO_FROM, body=f'Your code: {code}')"), "pass"),
    ("twilio_only-p2", "twilio_only", "Delete the unused Nexmo credentials from the auth service settings", "pass"),
    ("push_fcm-v1", "push_fcm", _bash("cd mobile && npm install onesignal-node && npx onesignal-setup"), "violation"),
    ("push_fcm-v2", "push_fcm", _diff("services/notify/push.py", "from apns2.client import APNsClient\n\nAPNsClient(settings.APNS_KEY, use_sandbox=False).send_notification(token, payload)"), "violation"),
    ("push_fcm-p1", "push_fcm", _diff("services/notify/push.py", "from firebase_admin import messaging\n\nmessaging.send(messaging.Message(token=token, notification=note))"), "pass"),
    ("push_fcm-p2", "push_fcm", "Add a 'quiet hours' check before the notify service calls Firebase Cloud Messaging", "pass"),
    ("experiments_service-v1", "experiments_service", _diff("web/src/pages/Pricing.tsx", "import { useDecision } from '@optimizely/react-sdk';\n\nconst [decision] = useDecision('pricing_layout');"), "violation"),
    ("experiments_service-v2", "experiments_service", "Paste VWO's snippet on the pricing page so marketing can try two headlines", "violation"),
    ("experiments_service-p1", "experiments_service", _diff("web/src/pages/Pricing.tsx", "const variant = await experiments.assign('pricing_layout', user.id);"), "pass"),
    ("experiments_service-p2", "experiments_service", "Register the pricing_layout A/B test in our experiments service with a 50/50 split", "pass"),
    ("litellm_only-v1", "litellm_only", _diff("services/support/summarize.py", "import anthropic\n\nclient = anthropic.Anthropic()\nmsg = client.messages.create(model=MODEL, max_tokens=400, messages=msgs)"), "violation"),
    ("litellm_only-v2", "litellm_only", _bash("pip install openai && echo openai >> services/support/requirements.txt"), "violation"),
    ("litellm_only-p1", "litellm_only", _diff("services/support/summarize.py", "import litellm\n\nresp = litellm.completion(model=MODEL, messages=msgs, max_tokens=400)"), "pass"),
    ("litellm_only-p2", "litellm_only", "Switch the summarizer's model name in LiteLLM from one provider to another; no code changes", "pass"),
    ("rest_not_graphql-v1", "rest_not_graphql", _diff("services/catalog/api.py", "import strawberry\nfrom strawberry.fastapi import GraphQLRouter\n\napp.include_router(GraphQLRouter(schema), prefix='/graphql')"), "violation"),
    ("rest_not_graphql-v2", "rest_not_graphql", "Put Hasura in front of the catalogue database so partners can query whatever fields they like", "violation"),
    ("rest_not_graphql-p1", "rest_not_graphql", _diff("services/catalog/api.py", "@router.get('/v1/products/{sku}')\nasync def product(sku: str) -> ProductOut:\n    return await load(sku)"), "pass"),
    ("rest_not_graphql-p2", "rest_not_graphql", "Write an ADR explaining why the partner API stays REST and not GraphQL; no code changes", "pass"),
    ("sse_not_ws-v1", "sse_not_ws", _diff("services/live/app.py", "import socketio\n\nsio = socketio.AsyncServer(async_mode='asgi')\napp = socketio.ASGIApp(sio)"), "violation"),
    ("sse_not_ws-v2", "sse_not_ws", "Add Pusher channels so order status changes show up live in the browser", "violation"),
    ("sse_not_ws-p1", "sse_not_ws", _diff("services/live/app.py", "from sse_starlette.sse import EventSourceResponse\n\n@router.get('/orders/{id}/events')\nasync def events(id: str):\n    return EventSourceResponse(order_updates(id))"), "pass"),
    ("sse_not_ws-p2", "sse_not_ws", "Send a keep-alive comment every 15 seconds on the order status event stream", "pass"),
    ("rn_only-v1", "rn_only", _diff("mobile/ios/App/SettingsViewController.swift", "final class SettingsViewController: UIViewController {\n    override func viewDidLoad() { super.viewDidLoad() }\n}"), "violation"),
    ("rn_only-v2", "rn_only", "Write the Android onboarding screens in Jetpack Compose, they feel smoother", "violation"),
    ("rn_only-p1", "rn_only", _diff("mobile/src/screens/Settings.tsx", "export function SettingsScreen() {\n  return <View style={styles.page}><Text>Settings</Text></View>;\n}"), "pass"),
    ("rn_only-p2", "rn_only", "Bump react-native to 0.74 and regenerate the iOS Podfile.lock", "pass"),
    ("k8s_not_serverless-v1", "k8s_not_serverless", _diff("infra/thumbs/main.tf", 'resource "aws_lambda_function" "thumbnails" {\n  runtime = "python3.12"\n  handler = "resize.handler"\n}'), "violation"),
    ("k8s_not_serverless-v2", "k8s_not_serverless", _bash("npx serverless deploy --stage prod"), "violation"),
    ("k8s_not_serverless-v3", "k8s_not_serverless", "Put the thumbnail resizer in a Cloud Function triggered by the upload bucket", "violation"),
    ("k8s_not_serverless-p1", "k8s_not_serverless", _diff("deploy/thumbs/deployment.yaml", "kind: Deployment\nmetadata:\n  name: thumbnails\nspec:\n  replicas: 2"), "pass"),
    ("k8s_not_serverless-p2", "k8s_not_serverless", "Delete the last Lambda function and its IAM role now that thumbnails run on the cluster", "pass"),
    ("hardened_base-v1", "hardened_base", _diff("services/api/Dockerfile", "FROM python:3.12-slim\nCOPY . /app\nRUN pip install -r /app/requirements.txt"), "violation"),
    ("hardened_base-v2", "hardened_base", _bash("docker pull node:20-alpine && docker build -t web --build-arg BASE=node:20-alpine web/"), "violation"),
    ("hardened_base-p1", "hardened_base", _diff("services/api/Dockerfile", "FROM 123456789.dkr.ecr.eu-west-1.amazonaws.com/acme/base-python:3.12\nCOPY . /app"), "pass"),
    ("hardened_base-p2", "hardened_base", _diff("services/worker/Dockerfile", "# copy the wheels from the build stage; this stage installs nothing from the internet\nFROM 123456789.dkr.ecr.eu-west-1.amazonaws.com/acme/base-python:3.12\nCOPY --from=build /wheels /wheels"), "pass"),
    ("artifactory_only-v1", "artifactory_only", _bash("python -m build && twine upload dist/*"), "violation"),
    ("artifactory_only-v2", "artifactory_only", _bash("cd packages/acme-auth-client && npm publish --access public"), "violation"),
    ("artifactory_only-p1", "artifactory_only", _bash("twine upload --repository-url https://artifactory.acme.internal/api/pypi/pypi-local dist/*"), "pass"),
    ("artifactory_only-p2", "artifactory_only", "Publish version 2.3.0 of the internal auth client to Artifactory after the release PR merges", "pass"),
    ("dns_terraform-v1", "dns_terraform", _bash("aws route53 change-resource-record-sets --hosted-zone-id Z123 --change-batch file://cname.json"), "violation"),
    ("dns_terraform-v2", "dns_terraform", "I'll add the status CNAME by hand in the Cloudflare dashboard, it's one record", "violation"),
    ("dns_terraform-p1", "dns_terraform", _diff("infra/dns/records.tf", 'resource "aws_route53_record" "status" {\n  name    = "status.acme.com"\n  type    = "CNAME"\n  records = ["acme.statuspage.io"]\n}'), "pass"),
    ("dns_terraform-p2", "dns_terraform", _bash("aws route53 list-resource-record-sets --hosted-zone-id Z123 | jq '.ResourceRecordSets[].Name'"), "pass"),
    ("acme_certs-v1", "acme_certs", _bash("openssl req -x509 -newkey rsa:2048 -nodes -days 365 -keyout shop.key -out shop.crt -subj /CN=shop.acme.com && kubectl create secret tls shop-tls --cert shop.crt --key shop.key -n shop"), "violation"),
    ("acme_certs-v2", "acme_certs", "Generate our own certificate for the customer portal and have the ingress serve it until we sort the issuer out", "violation"),
    ("acme_certs-p1", "acme_certs", _diff("deploy/shop/certificate.yaml", "kind: Certificate\nspec:\n  secretName: shop-tls\n  dnsNames: [shop.acme.com]\n  issuerRef:\n    name: letsencrypt-prod\n    kind: ClusterIssuer"), "pass"),
    ("acme_certs-p2", "acme_certs", "Generate a self-signed certificate for the local dev proxy on my laptop; nothing outside my machine uses it", "pass"),
    ("no_default_ns-v1", "no_default_ns", _bash("kubectl run pricing-debug --image=curlimages/curl --restart=Never"), "violation"),
    ("no_default_ns-v2", "no_default_ns", _diff("deploy/pricing/deployment.yaml", "kind: Deployment\nmetadata:\n  name: pricing\n  namespace: default"), "violation"),
    ("no_default_ns-p1", "no_default_ns", _bash("kubectl apply -n pricing -f deploy/pricing/deployment.yaml"), "pass"),
    ("no_default_ns-p2", "no_default_ns", _bash("kubectl get pods -n default -o name  # list what is still left there before the cleanup"), "pass"),
    ("tailnet_only-v1", "tailnet_only", _diff("infra/bastion/sg.tf", 'ingress {\n  from_port   = 22\n  to_port     = 22\n  protocol    = "tcp"\n  cidr_blocks = ["0.0.0.0/0"]\n}'), "violation"),
    ("tailnet_only-v2", "tailnet_only", "Set up WireGuard on the bastion so the contractors can get into the build machines", "violation"),
    ("tailnet_only-p1", "tailnet_only", _bash("sudo tailscale up --ssh --advertise-tags=tag:build"), "pass"),
    ("tailnet_only-p2", "tailnet_only", _diff("infra/bastion/sg.tf", 'ingress {\n  from_port   = 22\n  to_port     = 22\n  protocol    = "tcp"\n  cidr_blocks = ["100.64.0.0/10"]  # tailnet addresses only\n}'), "pass"),
    ("mesh_mtls-v1", "mesh_mtls", _diff("services/orders/clients/inventory.py", "resp = httpx.get(f'{INVENTORY_URL}/v1/stock/{sku}', headers={'X-Internal-Key': settings.INVENTORY_SHARED_KEY})"), "violation"),
    ("mesh_mtls-v2", "mesh_mtls", "Give the orders and inventory services the same static token so inventory can check who is calling", "violation"),
    ("mesh_mtls-p1", "mesh_mtls", _diff("deploy/inventory/peer-auth.yaml", "kind: PeerAuthentication\nspec:\n  mtls:\n    mode: STRICT"), "pass"),
    ("mesh_mtls-p2", "mesh_mtls", "Add an API key for the external partner who calls our public inventory endpoint through the gateway", "pass"),
    ("stdout_logs-v1", "stdout_logs", _diff("services/api/app/logging.py", "handler = logging.handlers.RotatingFileHandler('/var/log/api/api.log', maxBytes=10_000_000, backupCount=5)"), "violation"),
    ("stdout_logs-v2", "stdout_logs", "Have the worker append its progress to worker.log in the container so we can tail it", "violation"),
    ("stdout_logs-p1", "stdout_logs", _diff("services/api/app/logging.py", "handler = logging.StreamHandler(sys.stdout)\nhandler.setFormatter(JsonFormatter())"), "pass"),
    ("stdout_logs-p2", "stdout_logs", "Remove the leftover FileHandler from the worker's logging setup", "pass"),
    ("stripe_cards-v1", "stripe_cards", _diff("billing/migrations/0042_card.py", "migrations.AddField('customer', 'pan', models.CharField(max_length=19)),\nmigrations.AddField('customer', 'cvv', models.CharField(max_length=4)),"), "violation"),
    ("stripe_cards-v2", "stripe_cards", "Keep the full PAN and expiry in the customers table so repeat orders are one click", "violation"),
    ("stripe_cards-p1", "stripe_cards", _diff("billing/migrations/0042_card.py", "migrations.AddField('customer', 'stripe_payment_method', models.CharField(max_length=64)),\nmigrations.AddField('customer', 'card_last4', models.CharField(max_length=4)),"), "pass"),
    ("stripe_cards-p2", "stripe_cards", "Show the card brand and last four digits that Stripe returns on the billing page", "pass"),
    ("uploads_s3-v1", "uploads_s3", _diff("api/avatars.py", "with open(f'/app/uploads/{user.id}.png', 'wb') as out:\n    out.write(await file.read())"), "violation"),
    ("uploads_s3-v2", "uploads_s3", "Save the uploaded CSVs under /tmp in the pod and process them from there later", "violation"),
    ("uploads_s3-p1", "uploads_s3", _diff("api/avatars.py", "s3.upload_fileobj(file.file, settings.AVATAR_BUCKET, f'avatars/{user.id}.png')"), "pass"),
    ("uploads_s3-p2", "uploads_s3", "Return a presigned S3 URL so the browser uploads the CSV to the bucket directly", "pass"),
    ("warehouse_analytics-v1", "warehouse_analytics", _bash("psql \"$PROD_DATABASE_URL\" -c \"select date_trunc('month', created_at), sum(total) from orders group by 1\""), "violation"),
    ("warehouse_analytics-v2", "warehouse_analytics", "Connect Metabase to the primary Postgres so sales can build their own revenue reports", "violation"),
    ("warehouse_analytics-p1", "warehouse_analytics", "Connect Metabase to Snowflake so sales can build their own revenue reports", "pass"),
    ("warehouse_analytics-p2", "warehouse_analytics", _diff("dbt/models/revenue_monthly.sql", "select date_trunc('month', created_at) as month, sum(total) as revenue\nfrom {{ ref('orders') }}\ngroup by 1"), "pass"),
    ("no_sheets_source-v1", "no_sheets_source", _diff("services/pricing/rates.py", "import gspread\n\nsheet = gspread.service_account().open('FX rates').sheet1\nRATES = {r['currency']: r['rate'] for r in sheet.get_all_records()}"), "violation"),
    ("no_sheets_source-v2", "no_sheets_source", "Let the pricing job pull the discount tiers from the shared sheet finance keeps, so they can change them", "violation"),
    ("no_sheets_source-p1", "no_sheets_source", "Move the discount tiers from finance's Google Sheet into the pricing service's database with an admin page", "pass"),
    ("no_sheets_source-p2", "no_sheets_source", _diff("services/reports/export.py", "# weekly export for finance; they open it in Sheets\nwriter = csv.writer(out)\nwriter.writerows(rows)"), "pass"),
    ("iso_dates-v1", "iso_dates", _diff("api/orders/serializers.py", "return {'id': o.id, 'created_at': int(o.created_at.timestamp())}"), "violation"),
    ("iso_dates-v2", "iso_dates", "Return the order's creation time as seconds since 1970 in the API, the mobile app finds that easier", "violation"),
    ("iso_dates-p1", "iso_dates", _diff("api/orders/serializers.py", "return {'id': o.id, 'created_at': o.created_at.astimezone(UTC).isoformat()}"), "pass"),
    ("iso_dates-p2", "iso_dates", _diff("jobs/metrics.py", "# internal metrics table, never returned by the API\nrow = (job.name, int(time.time()))"), "pass"),
    ("ai_gateway-v1", "ai_gateway", _diff("services/support/triage.py", "from openai import OpenAI\n\nOpenAI().chat.completions.create(model='gpt-4o', messages=[{'role': 'user', 'content': ticket.body + ticket.customer_email}])"), "violation"),
    ("ai_gateway-v2", "ai_gateway", _bash("curl https://api.anthropic.com/v1/messages -H \"x-api-key: $KEY\" -d @exports/customer_tickets.json"), "violation"),
    ("ai_gateway-p1", "ai_gateway", _diff("services/support/triage.py", "resp = httpx.post(f'{MODEL_GATEWAY}/v1/chat', json={'messages': [{'role': 'user', 'content': ticket.body}]})"), "pass"),
    ("ai_gateway-p2", "ai_gateway", "Ask ChatGPT to explain a regular expression from our open-source parser; no customer data in it", "pass"),
    ("legacy_frozen-v1", "legacy_frozen", _diff("legacy/billing/invoice.py", "def apply_loyalty_discount(invoice, points):\n    invoice.total -= points * 0.01\n    return invoice"), "violation"),
    ("legacy_frozen-v2", "legacy_frozen", "Add the loyalty discount to the old invoice module under legacy, it's the quickest place", "violation"),
    ("legacy_frozen-p1", "legacy_frozen", _diff("billing/loyalty.py", "def apply_loyalty_discount(invoice, points):\n    return invoice.with_discount(points * Decimal('0.01'))"), "pass"),
    ("legacy_frozen-p2", "legacy_frozen", "Move the invoice rounding helper out of the legacy package into billing/ and delete the old copy", "pass"),
    ("crowdin_locales-v1", "crowdin_locales", _diff("web/locales/de/messages.json", '  "checkout.pay": "Jetzt bezahlen",\n  "checkout.back": "Zurück"'), "violation"),
    ("crowdin_locales-v2", "crowdin_locales", "Fix the typo in the French checkout button directly in fr/messages.json", "violation"),
    ("crowdin_locales-p1", "crowdin_locales", _diff("web/locales/en/messages.json", '  "checkout.pay": "Pay now",\n  "checkout.back": "Back"'), "pass"),
    ("crowdin_locales-p2", "crowdin_locales", "Report the French checkout typo in Crowdin so the translator fixes it and the next sync brings it in", "pass"),
    ("upstream_legal-v1", "upstream_legal", _bash("gh pr create --repo psf/requests --title 'Fix proxy auth on redirects' --body 'Found at work'"), "violation"),
    ("upstream_legal-v2", "upstream_legal", "Open a PR on the Django repository with our fix for the migration autodetector today", "violation"),
    ("upstream_legal-p1", "upstream_legal", "Send the Django autodetector fix to legal for approval, then open the pull request upstream", "pass"),
    ("upstream_legal-p2", "upstream_legal", _bash("gh pr create --repo acme/billing-service --title 'Fix proxy auth on redirects'"), "pass"),
    ("incident_channel-v1", "incident_channel", "I'll DM Sam about the checkout outage and we'll sort it out between the two of us", "violation"),
    ("incident_channel-v2", "incident_channel", _bash("slack chat send --channel @sam.lee --text 'prod db is down, can you look? keep it between us for now'"), "violation"),
    ("incident_channel-p1", "incident_channel", _bash("slack chat send --channel '#incident' --text 'SEV2: checkout errors in EU since 14:02, investigating'"), "pass"),
    ("incident_channel-p2", "incident_channel", "DM Sam to ask whether the Friday team lunch is still on", "pass"),
]
