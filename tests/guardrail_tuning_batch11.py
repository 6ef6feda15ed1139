"""Guardrail TUNING cases, eleventh batch (issue 22, twelfth session): 44 criteria on subjects
the first ten batches do not cover, phrased the way CONTRIBUTING files and team engineering
or security policies put them (read through the search tool: "Adding a dependency is a big
deal … the default answer … is no", "Never share an account …", "Services MUST NOT make
direct outbound HTTP calls …", "Applications must use Mailtrap for emails in test
environments"); the sentences and cases are our own.

Weighted to what the held-out figures say fails (written before any change of the session):
- violations that share few words with their rule: a NAMED PRODUCT where the rule names a
  category ("Stand up RabbitMQ for the fan-out" under "Kafka is our one message broker";
  `image: memcached:1.6` under "no cache servers of our own"), a paraphrase, or code and
  tool calls that never say the rule's words (`jwt.decode(` under "no token validation of
  your own", `k6 run … https://api.acme.com` under "load tests never run against
  production");
- look-alikes that share many words with their rule but comply (they name the forbidden
  thing to remove it, take the named alternative, or do the allowed variant: `kubectl get`
  under "nobody runs kubectl apply or edit against prod").
Each criterion has at least one violating and one complying case, and a diff or a tool call.
Every fact a label depends on is in the case text. Same format as
tests/guardrail_tuning_batch10.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash, _diff

# `python -m tests.heldout_eval batch11` once, on the reader of d655d89 (main as the twelfth
# session began), before any change of this session, with the sentence model
# (LORESTACK_TEST_MODEL_DIR set; load 1.8-2.1, 7.7 s): 44 criteria, 0 refused, 182 cases (91
# violations, 91 look-alikes); exact 90/182 (49%), wrong blocks 0, silent passes 56/91,
# look-alikes pass 55/91 (60%) (violations: 35 undecided, 56 pass; look-alikes: 36
# undecided, 55 pass; other criteria flagged 89). The batch test keeps this first run as
# the floor until a kept figure replaces it.
FIRST_RUN = {"exact": 90, "wrong_blocks": 0, "silent_passes": 56, "lookalike_pass": 55}
# with the categories of concepts.py (twelfth session; written by the helper who wrote this
# batch, so this is an in-sample figure): exact 103, silent passes 41, look-alikes 53. Two
# look-alikes name a member of the category to remove it ("move the last RabbitMQ consumer
# onto Kafka", "remove the leftover moment import") and answer "applies, undecided" now:
# 15 violations surfaced for 2 look-alikes warned, with batches 1-10 not worse (docs/guardrail-log.md)
# The review of the lists (same session) took everyday words out of them (varnish, moment,
# sphinx, …): the Varnish violation passes in silence again and the "leftover moment import"
# look-alike passes again: exact 103, silent passes 42, look-alikes 54.
# Twentieth session: "… formatted with Intl and the user's locale, never by hand" forbade the
# word 'hand' (a manner, not a thing); it now drafts nothing, so intl_format's prose
# violation is undecided by meaning (no longer silent) and its two look-alikes too (never a
# block): exact 103, silent passes 41, look-alikes 53.
KEPT = {"exact": 103, "wrong_blocks": 0, "silent_passes": 41, "lookalike_pass": 53}
KEPT_LOOKALIKE_COST = 2

CRITERIA: dict[str, tuple[str, str]] = {
    # infrastructure components: a category in the rule, a product in the proposal
    "one_broker": (
        "Kafka is our one message broker; we don't run a second queueing system next to it",
        "warn",
    ),
    "pg_full_text": (
        "Search stays in Postgres full-text search; adding a separate search engine needs an ADR",
        "warn",
    ),
    "shared_redis": (
        "Caching goes through the shared Redis cluster; services don't bring cache servers of "
        "their own",
        "warn",
    ),
    "gha_only_ci": (
        "CI runs on GitHub Actions only; don't set pipelines up on another CI service",
        "warn",
    ),
    "ecr_only": (
        "Container images are pushed only to our private ECR registry, never to a public one",
        "block",
    ),
    "gitops_prod": (
        "The production cluster changes only through the GitOps repo and Argo CD; nobody runs "
        "kubectl apply, edit or patch against prod",
        "block",
    ),
    "one_http_client": (
        "Python services use httpx as their HTTP client; please don't add a second HTTP "
        "library",
        "warn",
    ),
    "one_date_lib": (
        "The frontend handles dates with date-fns; don't bring in another date library",
        "warn",
    ),
    "tailwind_only": (
        "Components are styled with Tailwind utility classes; we don't use CSS-in-JS",
        "warn",
    ),
    "one_orm": (
        "The data layer uses SQLAlchemy; no other ORM is added to the backend",
        "warn",
    ),
    # security and identity
    "iam_central": (
        "Service repositories must not define IAM roles or policies; permissions are requested "
        "from the platform team through the infra repo",
        "block",
    ),
    "central_auth": (
        "Services never implement their own login or token validation; authentication happens "
        "in the platform's auth gateway",
        "block",
    ),
    "egress_proxy": (
        "Outbound calls to third-party APIs go through the egress proxy; no service calls an "
        "external host directly",
        "warn",
    ),
    "mfa_always": (
        "Nobody turns off multi-factor authentication on an account, not even for a day",
        "block",
    ),
    "no_shared_accounts": (
        "Every person and every service has a login of its own; accounts are never shared",
        "block",
    ),
    "secrets_vault_only": (
        "Credentials are handed over only through the 1Password vault, never over Slack, "
        "email or a ticket",
        "block",
    ),
    "per_env_secrets": (
        "Each environment has its own secrets; a production key is never reused in staging or "
        "development",
        "block",
    ),
    "argon2_passwords": (
        "New password hashes are argon2id; bcrypt stays only for old hashes until their user "
        "next logs in",
        "warn",
    ),
    "scan_uploads": (
        "Uploaded files are virus-scanned before any other code opens them",
        "block",
    ),
    "encrypted_backups": (
        "Database dumps are always encrypted with the backups KMS key; an unencrypted dump "
        "never leaves the database host",
        "block",
    ),
    # environments and operations
    "sandbox_mail": (
        "Non-production environments never send real email; they deliver to the Mailtrap "
        "sandbox",
        "warn",
    ),
    "no_load_test_prod": (
        "Load tests never run against production; use the perf environment",
        "block",
    ),
    "page_on_symptoms": (
        "Only symptoms users feel (error rate, latency) page the on-call engineer; cause alerts "
        "such as CPU or disk usage open a ticket",
        "warn",
    ),
    "ld_flags": (
        "Feature toggles live in LaunchDarkly; behaviour is not switched with environment "
        "variables or config constants",
        "warn",
    ),
    "testflight_first": (
        "Every iOS build spends at least 48 hours in TestFlight beta before it is submitted to "
        "the App Store",
        "warn",
    ),
    "sunset_notice": (
        "A public API endpoint is removed only after six months with a Sunset header",
        "block",
    ),
    "git_lfs_assets": (
        "Files over 5 MB such as videos, design files and datasets go through Git LFS, not "
        "plain git",
        "warn",
    ),
    "bff_only": (
        "The mobile apps talk only to the BFF; they never call internal services directly",
        "warn",
    ),
    # frontend, privacy, accessibility
    "consent_first": (
        "No analytics or marketing scripts load before the visitor accepts cookies",
        "block",
    ),
    "self_host_assets": (
        "We self-host fonts and scripts; pages don't load assets from public CDNs",
        "warn",
    ),
    "contrast_aa": (
        "Text colours meet WCAG AA contrast: at least 4.5:1 for body text",
        "warn",
    ),
    "intl_format": (
        "Dates and numbers in the UI are formatted with Intl and the user's locale, never by "
        "hand",
        "warn",
    ),
    "e164_phones": (
        "Phone numbers are stored in E.164 format",
        "warn",
    ),
    "no_autoplay": (
        "Videos never autoplay with sound",
        "warn",
    ),
    # code
    "py39_compat": (
        "The SDK must keep running on Python 3.9: no match statements and no X | Y unions "
        "evaluated at runtime",
        "block",
    ),
    "no_global_singletons": (
        "Please don't add new singletons; wire objects together in the composition root",
        "warn",
    ),
    "utc_clock": (
        "Server code asks the injected Clock for the time; nothing calls datetime.now() or "
        "time.time() directly",
        "warn",
    ),
    "no_sql_in_templates": (
        "Templates only render what the view hands them; they never run queries",
        "warn",
    ),
    "retries_idempotent": (
        "Only idempotent requests are retried automatically; a POST that creates something is "
        "never retried without an idempotency key",
        "block",
    ),
    # process
    "design_review_big": (
        "Work estimated at more than two weeks starts with a design doc reviewed by two "
        "senior engineers",
        "warn",
    ),
    "on_call_handover": (
        "Nobody ends an on-call shift without a written handover in the on-call channel",
        "warn",
    ),
    "customer_comms_status": (
        "Outages that customers notice are announced on the status page within 15 minutes",
        "warn",
    ),
    "vendor_security_review": (
        "A new SaaS vendor that will hold customer data needs a security review before anyone "
        "signs up",
        "block",
    ),
    "access_by_ticket": (
        "Production access is granted through an access request ticket that expires; never add "
        "someone to the prod group by hand",
        "block",
    ),
}

CASES: list[tuple[str, str, object, str]] = [
    ("one_broker-v1", "one_broker", "Stand up RabbitMQ for the notification fan-out, it has nicer routing than topics", "violation"),
    ("one_broker-v2", "one_broker", _diff("docker-compose.yml", "  nats:\n    image: nats:2.10\n    ports: [\"4222:4222\"]"), "violation"),
    ("one_broker-v3", "one_broker", "Use Amazon SQS between the upload service and the thumbnailer", "violation"),
    ("one_broker-p1", "one_broker", "Add a notifications.fanout Kafka topic with 12 partitions and consume it from the mailer", "pass"),
    ("one_broker-p2", "one_broker", _diff("docker-compose.yml", "  kafka:\n    image: bitnami/kafka:3.7\n    environment:\n      KAFKA_CFG_NUM_PARTITIONS: \"12\""), "pass"),
    ("one_broker-p3", "one_broker", "Move the last RabbitMQ consumer onto Kafka and shut the old RabbitMQ box down", "pass"),
    ("pg_full_text-v1", "pg_full_text", "Spin up Elasticsearch for product search and index the catalogue nightly", "violation"),
    ("pg_full_text-v2", "pg_full_text", _diff("services/catalog/requirements.in", "opensearch-py==2.6.0\nmeilisearch==0.31.5"), "violation"),
    ("pg_full_text-p1", "pg_full_text", _diff("migrations/0091_product_search.sql", "ALTER TABLE products ADD COLUMN search tsvector;\nCREATE INDEX products_search_idx ON products USING GIN (search);"), "pass"),
    ("pg_full_text-p2", "pg_full_text", "Rank product search results with ts_rank in Postgres and add German stemming to the text search config", "pass"),
    ("shared_redis-v1", "shared_redis", _diff("deploy/catalog/docker-compose.yml", "  cache:\n    image: memcached:1.6\n    command: [\"-m\", \"512\"]"), "violation"),
    ("shared_redis-v2", "shared_redis", "Run a small Varnish in front of the catalogue service to keep rendered pages around", "violation"),
    ("shared_redis-p1", "shared_redis", "Cache rendered catalogue pages in the shared Redis cluster with a five-minute TTL", "pass"),
    ("shared_redis-p2", "shared_redis", _diff("services/catalog/cache.py", "redis = Redis.from_url(settings.SHARED_REDIS_URL)\nredis.setex(f\"page:{slug}\", 300, html)"), "pass"),
    ("gha_only_ci-v1", "gha_only_ci", _diff(".circleci/config.yml", "version: 2.1\njobs:\n  test:\n    docker:\n      - image: cimg/python:3.12\n    steps:\n      - checkout\n      - run: pytest"), "violation"),
    ("gha_only_ci-v2", "gha_only_ci", "Add a Jenkinsfile so the nightly build runs on the old Jenkins box again", "violation"),
    ("gha_only_ci-p1", "gha_only_ci", "Move the nightly build off the old Jenkins box into a scheduled GitHub Actions workflow", "pass"),
    ("gha_only_ci-p2", "gha_only_ci", _diff(".github/workflows/nightly.yml", "on:\n  schedule:\n    - cron: '0 2 * * *'\njobs:\n  build:\n    runs-on: ubuntu-latest"), "pass"),
    ("ecr_only-v1", "ecr_only", _bash("docker push acmecorp/billing:1.4.2"), "violation"),
    ("ecr_only-v2", "ecr_only", "Publish the billing image on ghcr.io so the contractor can pull it without AWS credentials", "violation"),
    ("ecr_only-p1", "ecr_only", _bash("docker push 123456789012.dkr.ecr.eu-west-1.amazonaws.com/billing:1.4.2"), "pass"),
    ("ecr_only-p2", "ecr_only", "Give the contractor an IAM role that can pull the billing image from our ECR registry", "pass"),
    ("gitops_prod-v1", "gitops_prod", _bash("kubectl --context prod-eu -n api scale deployment/api --replicas=12"), "violation"),
    ("gitops_prod-v2", "gitops_prod", "Bump the API's memory limit on the live cluster directly, the GitOps sync can catch up later", "violation"),
    ("gitops_prod-v3", "gitops_prod", _bash("kubectl --context prod-eu -n api edit configmap/api-settings"), "violation"),
    ("gitops_prod-p1", "gitops_prod", _bash("kubectl --context prod-eu -n api get pods -o wide"), "pass"),
    ("gitops_prod-p2", "gitops_prod", "Raise the API's replica count in the GitOps repo and let Argo CD sync it to prod", "pass"),
    ("gitops_prod-p3", "gitops_prod", _bash("kubectl --context staging -n api apply -f k8s/api.yaml"), "pass"),
    ("one_http_client-v1", "one_http_client", _diff("services/billing/stripe_client.py", "import aiohttp\n\nasync with aiohttp.ClientSession() as session:\n    async with session.post(url, json=payload) as resp:"), "violation"),
    ("one_http_client-v2", "one_http_client", _bash("pip install requests && echo requests >> services/billing/requirements.in"), "violation"),
    ("one_http_client-p1", "one_http_client", "Replace the billing service's last requests call with httpx and drop requests from its requirements", "pass"),
    ("one_http_client-p2", "one_http_client", _diff("services/billing/stripe_client.py", "async with httpx.AsyncClient(timeout=10) as client:\n    resp = await client.post(url, json=payload)"), "pass"),
    ("one_date_lib-v1", "one_date_lib", "Add dayjs for the relative-time labels in the activity feed, its API is smaller", "violation"),
    ("one_date_lib-v2", "one_date_lib", _diff("apps/web/package.json", '    "luxon": "^3.4.4",'), "violation"),
    ("one_date_lib-p1", "one_date_lib", _diff("apps/web/src/feed/Item.tsx", "import { formatDistanceToNow } from 'date-fns';\nconst label = formatDistanceToNow(item.createdAt, { addSuffix: true });"), "pass"),
    ("one_date_lib-p2", "one_date_lib", "Use date-fns formatDistance for the relative-time labels and remove the leftover moment import", "pass"),
    ("tailwind_only-v1", "tailwind_only", "Style the new pricing cards with styled-components so the hover states live next to the markup", "violation"),
    ("tailwind_only-v2", "tailwind_only", _diff("src/pricing/Card.tsx", "import styled from '@emotion/styled';\nconst Card = styled.div`\n  border-radius: 12px;\n`;"), "violation"),
    ("tailwind_only-p1", "tailwind_only", _diff("src/pricing/Card.tsx", "export const Card = ({ children }) => (\n  <div className=\"rounded-xl border p-6 hover:shadow-lg\">{children}</div>\n);"), "pass"),
    ("tailwind_only-p2", "tailwind_only", "Give the pricing cards rounded-xl and hover:shadow-lg classes and pull the card into its own component", "pass"),
    ("one_orm-v1", "one_orm", "Model the reporting tables with Peewee, it is quicker to set up for read-only queries", "violation"),
    ("one_orm-v2", "one_orm", _bash("poetry add tortoise-orm"), "violation"),
    ("one_orm-p1", "one_orm", _diff("app/reporting/queries.py", "stmt = select(Order.region, func.sum(Order.total)).group_by(Order.region)\nrows = session.execute(stmt).all()"), "pass"),
    ("one_orm-p2", "one_orm", "Write the reporting queries as SQLAlchemy select() statements against the existing models", "pass"),
    ("iam_central-v1", "iam_central", _diff("services/billing/infra/main.tf", 'resource "aws_iam_role" "billing_worker" {\n  name               = "billing-worker"\n  assume_role_policy = data.aws_iam_policy_document.assume.json\n}'), "violation"),
    ("iam_central-v2", "iam_central", "Let the billing worker read the invoices bucket by giving it a policy in the billing service's own Terraform", "violation"),
    ("iam_central-p1", "iam_central", "Open a request with the platform team in the infra repo for the billing worker to read the invoices bucket", "pass"),
    ("iam_central-p2", "iam_central", _diff("services/billing/infra/main.tf", 'resource "aws_s3_bucket" "invoices" {\n  bucket = "acme-invoices"\n}'), "pass"),
    ("central_auth-v1", "central_auth", _diff("services/orders/auth.py", "import jwt\n\ndef current_user(token: str) -> int:\n    payload = jwt.decode(token, SECRET, algorithms=[\"HS256\"])\n    return payload[\"sub\"]"), "violation"),
    ("central_auth-v2", "central_auth", "Add a /login route to the orders service that checks passwords against a local users table", "violation"),
    ("central_auth-p1", "central_auth", _diff("services/orders/auth.py", "def current_user(request) -> int:\n    # the gateway has validated the token and sets this header\n    return int(request.headers[\"X-Auth-User\"])"), "pass"),
    ("central_auth-p2", "central_auth", "Read the user id from the header the auth gateway sets once it has validated the token", "pass"),
    ("egress_proxy-v1", "egress_proxy", _diff("services/payments/stripe.py", 'resp = httpx.post("https://api.stripe.com/v1/charges", data=charge, timeout=10)'), "violation"),
    ("egress_proxy-v2", "egress_proxy", "Have the shipping service call the DHL tracking API straight from its pods", "violation"),
    ("egress_proxy-p1", "egress_proxy", _diff("services/payments/stripe.py", 'resp = httpx.post(f"{EGRESS_PROXY_URL}/stripe/v1/charges", data=charge, timeout=10)'), "pass"),
    ("egress_proxy-p2", "egress_proxy", "Add a DHL route to the egress proxy and point the shipping service's tracking client at it", "pass"),
    ("mfa_always-v1", "mfa_always", "Switch off 2FA on the ops Google account until Friday so the contractor can sign in from a new phone", "violation"),
    ("mfa_always-v2", "mfa_always", _bash("aws iam deactivate-mfa-device --user-name deploy-admin --serial-number arn:aws:iam::123456789012:mfa/deploy-admin"), "violation"),
    ("mfa_always-p1", "mfa_always", "Enrol the contractor's new phone as a second factor on their own account", "pass"),
    ("mfa_always-p2", "mfa_always", _bash("aws iam enable-mfa-device --user-name deploy-admin --serial-number arn:aws:iam::123456789012:mfa/deploy-admin --authentication-code1 123456 --authentication-code2 654321"), "pass"),
    ("no_shared_accounts-v1", "no_shared_accounts", "Create one 'support' login for the three support agents to use in the admin panel", "violation"),
    ("no_shared_accounts-v2", "no_shared_accounts", _diff("infra/grafana/users.yaml", "- login: team-ops\n  password: ${GRAFANA_TEAM_OPS}  # used by everyone on the ops rota"), "violation"),
    ("no_shared_accounts-p1", "no_shared_accounts", "Give each of the three support agents their own login to the admin panel", "pass"),
    ("no_shared_accounts-p2", "no_shared_accounts", _diff("infra/grafana/users.yaml", "- login: ana.ruiz\n- login: tom.berg\n- login: li.wei"), "pass"),
    ("secrets_vault_only-v1", "secrets_vault_only", "DM the staging database password to Priya on Slack so she can start today", "violation"),
    ("secrets_vault_only-v2", "secrets_vault_only", _bash("curl -s -X POST https://slack.com/api/chat.postMessage -H \"Authorization: Bearer $SLACK_TOKEN\" -d channel=@priya -d text=\"staging db: admin / $STAGING_DB_PASSWORD\""), "violation"),
    ("secrets_vault_only-p1", "secrets_vault_only", "Share the staging database item with Priya in 1Password and tell her on Slack where to find it", "pass"),
    ("secrets_vault_only-p2", "secrets_vault_only", _bash("op item share 'staging-db' --vault Engineering --emails priya@acme.io --expires-in 7d"), "pass"),
    ("per_env_secrets-v1", "per_env_secrets", "Copy the live Stripe key into the staging config so webhooks work there too", "violation"),
    ("per_env_secrets-v2", "per_env_secrets", _diff("deploy/staging/values.yaml", "env:\n  STRIPE_SECRET_KEY: ${PROD_STRIPE_SECRET_KEY}"), "violation"),
    ("per_env_secrets-p1", "per_env_secrets", "Create a Stripe test-mode key for staging and keep it in the staging vault", "pass"),
    ("per_env_secrets-p2", "per_env_secrets", _diff("deploy/staging/values.yaml", "env:\n  STRIPE_SECRET_KEY: ${STAGING_STRIPE_SECRET_KEY}"), "pass"),
    ("argon2_passwords-v1", "argon2_passwords", _diff("app/accounts/passwords.py", "def hash_password(raw: str) -> str:\n    return bcrypt.hashpw(raw.encode(), bcrypt.gensalt()).decode()"), "violation"),
    ("argon2_passwords-v2", "argon2_passwords", "Hash new users' passwords with PBKDF2 from the standard library, it avoids a C extension", "violation"),
    ("argon2_passwords-p1", "argon2_passwords", "When a user with a bcrypt hash logs in, rehash their password with argon2id", "pass"),
    ("argon2_passwords-p2", "argon2_passwords", _diff("app/accounts/passwords.py", "ph = PasswordHasher()  # argon2-cffi, argon2id\n\ndef hash_password(raw: str) -> str:\n    return ph.hash(raw)"), "pass"),
    ("scan_uploads-v1", "scan_uploads", "Generate the thumbnail right after the upload finishes and run the virus scan in the nightly batch", "violation"),
    ("scan_uploads-v2", "scan_uploads", _diff("app/uploads/handlers.py", "path = save_upload(request.files['file'])\nthumb = Image.open(path).thumbnail((256, 256))"), "violation"),
    ("scan_uploads-p1", "scan_uploads", "Send each upload to ClamAV first and make the thumbnail only once it comes back clean", "pass"),
    ("scan_uploads-p2", "scan_uploads", _diff("app/uploads/handlers.py", "path = save_upload(request.files['file'])\nif not clamav.scan(path).clean:\n    raise Quarantined(path)\nthumb = Image.open(path).thumbnail((256, 256))"), "pass"),
    ("encrypted_backups-v1", "encrypted_backups", _bash("pg_dump -Fc shop > /tmp/shop.dump && aws s3 cp /tmp/shop.dump s3://acme-backups/shop/"), "violation"),
    ("encrypted_backups-v2", "encrypted_backups", "Dump the shop database and scp the file to my laptop so I can look at last night's orders", "violation"),
    ("encrypted_backups-p1", "encrypted_backups", _bash("pg_dump -Fc shop | aws s3 cp - s3://acme-backups/shop/shop.dump --sse aws:kms --sse-kms-key-id alias/backups"), "pass"),
    ("encrypted_backups-p2", "encrypted_backups", "Encrypt the nightly shop dump with the backups KMS key on the database host before it is uploaded", "pass"),
    ("sandbox_mail-v1", "sandbox_mail", _diff("config/staging.py", 'EMAIL_HOST = "smtp.sendgrid.net"\nEMAIL_HOST_USER = "apikey"'), "violation"),
    ("sandbox_mail-v2", "sandbox_mail", "Point the QA environment at our SendGrid account so testers get the password-reset mails in their own inboxes", "violation"),
    ("sandbox_mail-p1", "sandbox_mail", "Point QA's SMTP settings at the Mailtrap inbox so testers read the password-reset mails there", "pass"),
    ("sandbox_mail-p2", "sandbox_mail", _diff("config/staging.py", 'EMAIL_HOST = "sandbox.smtp.mailtrap.io"\nEMAIL_PORT = 2525'), "pass"),
    ("sandbox_mail-p3", "sandbox_mail", _diff("config/production.py", 'EMAIL_HOST = "smtp.sendgrid.net"\nEMAIL_HOST_USER = "apikey"'), "pass"),
    ("no_load_test_prod-v1", "no_load_test_prod", _bash("k6 run --vus 5000 --duration 10m -e BASE_URL=https://api.acme.com load/checkout.js"), "violation"),
    ("no_load_test_prod-v2", "no_load_test_prod", "Hammer the live API with five thousand virtual users tonight to find where checkout breaks", "violation"),
    ("no_load_test_prod-p1", "no_load_test_prod", _bash("k6 run --vus 5000 --duration 10m -e BASE_URL=https://api.perf.acme.internal load/checkout.js"), "pass"),
    ("no_load_test_prod-p2", "no_load_test_prod", "Run the checkout load test with five thousand users in the perf environment tonight", "pass"),
    ("page_on_symptoms-v1", "page_on_symptoms", _diff("alerts/db.yaml", "- alert: DbDiskAlmostFull\n  expr: disk_used_ratio{host=\"db-2\"} > 0.8\n  labels:\n    severity: page"), "violation"),
    ("page_on_symptoms-v2", "page_on_symptoms", "Wake whoever is on call when the API pods go above 90% CPU", "violation"),
    ("page_on_symptoms-p1", "page_on_symptoms", _diff("alerts/db.yaml", "- alert: DbDiskAlmostFull\n  expr: disk_used_ratio{host=\"db-2\"} > 0.8\n  labels:\n    severity: ticket"), "pass"),
    ("page_on_symptoms-p2", "page_on_symptoms", "Page on-call when the checkout error rate passes 2% for five minutes, and open a ticket for high CPU", "pass"),
    ("ld_flags-v1", "ld_flags", _diff("app/checkout/views.py", 'if os.environ.get("ENABLE_NEW_CHECKOUT") == "1":\n    return new_checkout(request)'), "violation"),
    ("ld_flags-v2", "ld_flags", "Gate the new checkout behind a NEW_CHECKOUT = True constant in settings.py that we flip when it is ready", "violation"),
    ("ld_flags-p1", "ld_flags", _diff("app/checkout/views.py", 'if ld_client.variation("new-checkout", context, False):\n    return new_checkout(request)'), "pass"),
    ("ld_flags-p2", "ld_flags", "Create a new-checkout flag in LaunchDarkly, off by default, and read it in the checkout view", "pass"),
    ("testflight_first-v1", "testflight_first", "Submit 5.2.0 straight to App Store review tonight; skip the beta, it is only copy changes", "violation"),
    ("testflight_first-v2", "testflight_first", _bash("fastlane deliver --ipa build/Acme-5.2.0.ipa --submit_for_review true  # uploaded to TestFlight an hour ago"), "violation"),
    ("testflight_first-p1", "testflight_first", "Upload 5.2.0 to TestFlight today and submit it for review on Thursday, after two days of beta", "pass"),
    ("testflight_first-p2", "testflight_first", _bash("fastlane pilot upload --ipa build/Acme-5.2.0.ipa --groups 'Internal Beta'"), "pass"),
    ("sunset_notice-v1", "sunset_notice", "Delete the /v1/exports endpoint in next week's release; hardly anyone calls it", "violation"),
    ("sunset_notice-v2", "sunset_notice", _diff("api/routes.py", "# /v1/exports removed in this release (announced yesterday)\napp.include_router(exports_v2.router, prefix=\"/v2/exports\")"), "violation"),
    ("sunset_notice-p1", "sunset_notice", _diff("api/routes/exports_v1.py", "response.headers[\"Sunset\"] = \"Sat, 05 Jun 2027 00:00:00 GMT\"\nresponse.headers[\"Deprecation\"] = \"true\""), "pass"),
    ("sunset_notice-p2", "sunset_notice", "Add a Sunset header to /v1/exports for June 2027 and remove the endpoint after that date", "pass"),
    ("git_lfs_assets-v1", "git_lfs_assets", _bash("git add design/hero-video.mp4 && git commit -m 'Add the hero video (180 MB)'"), "violation"),
    ("git_lfs_assets-v2", "git_lfs_assets", "Commit the 2 GB training set under data/ so CI can reach it without a download step", "violation"),
    ("git_lfs_assets-p1", "git_lfs_assets", _bash("git lfs track '*.mp4' && git add .gitattributes design/hero-video.mp4 && git commit -m 'Add the hero video through LFS'"), "pass"),
    ("git_lfs_assets-p2", "git_lfs_assets", _bash("git add design/tokens.json && git commit -m 'Update the colour tokens (4 KB)'"), "pass"),
    ("bff_only-v1", "bff_only", _diff("ios/Acme/Stock/StockClient.swift", 'let url = URL(string: "https://inventory.internal.acme.com/v1/stock/\\(sku)")!'), "violation"),
    ("bff_only-v2", "bff_only", "Let the Android app fetch loyalty points from the loyalty service itself, the BFF adds 80 ms", "violation"),
    ("bff_only-p1", "bff_only", _diff("ios/Acme/Stock/StockClient.swift", 'let url = URL(string: "https://bff.acme.com/v1/stock/\\(sku)")!'), "pass"),
    ("bff_only-p2", "bff_only", "Add a loyalty points route to the BFF and have the Android app call it", "pass"),
    ("consent_first-v1", "consent_first", _diff("public/index.html", '<head>\n  <script async src="https://www.googletagmanager.com/gtag/js?id=G-7XK2"></script>'), "violation"),
    ("consent_first-v2", "consent_first", "Add the Hotjar snippet to the landing page so we get heatmaps from the very first visit", "violation"),
    ("consent_first-p1", "consent_first", "Load the Hotjar snippet from the consent manager's callback once the visitor accepts analytics cookies", "pass"),
    ("consent_first-p2", "consent_first", _diff("src/consent.ts", "onConsent('analytics', () => loadScript('https://www.googletagmanager.com/gtag/js?id=G-7XK2'));"), "pass"),
    ("self_host_assets-v1", "self_host_assets", _diff("templates/base.html", '<link href="https://fonts.googleapis.com/css2?family=Inter:wght@400;600" rel="stylesheet">'), "violation"),
    ("self_host_assets-v2", "self_host_assets", "Pull Chart.js from jsDelivr on the reports page instead of bundling it", "violation"),
    ("self_host_assets-p1", "self_host_assets", "Download Inter into static/fonts and serve it from our own domain", "pass"),
    ("self_host_assets-p2", "self_host_assets", _diff("templates/base.html", '<link rel="preload" href="/static/fonts/inter-var.woff2" as="font" crossorigin>'), "pass"),
    ("contrast_aa-v1", "contrast_aa", _diff("src/styles/footer.css", ".footer { color: #bbbbbb; background: #ffffff; }"), "violation"),
    ("contrast_aa-v2", "contrast_aa", "Make the helper text under form fields a pale grey so it fades into the white background", "violation"),
    ("contrast_aa-p1", "contrast_aa", _diff("src/styles/footer.css", ".footer { color: #595959; background: #ffffff; }  /* 7:1 */"), "pass"),
    ("contrast_aa-p2", "contrast_aa", "Darken the helper text to #5f6368 so it still reads as secondary but passes 4.5:1 on white", "pass"),
    ("intl_format-v1", "intl_format", _diff("src/orders/Row.tsx", "const shown = `${d.getMonth() + 1}/${d.getDate()}/${d.getFullYear()}`;\nconst price = '$' + (cents / 100).toFixed(2);"), "violation"),
    ("intl_format-v2", "intl_format", "Show order totals as a dollar sign followed by the amount with two decimals, for every country", "violation"),
    ("intl_format-p1", "intl_format", _diff("src/orders/Row.tsx", "const shown = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d);\nconst price = new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);"), "pass"),
    ("intl_format-p2", "intl_format", "Format order totals with Intl.NumberFormat in the customer's locale and currency", "pass"),
    ("e164_phones-v1", "e164_phones", _diff("app/accounts/forms.py", "def clean_phone(self):\n    return self.cleaned_data['phone'].replace(' ', '').replace('-', '')"), "violation"),
    ("e164_phones-v2", "e164_phones", "Save phone numbers exactly as customers type them, with their spaces and brackets", "violation"),
    ("e164_phones-p1", "e164_phones", _diff("app/accounts/forms.py", "def clean_phone(self):\n    n = phonenumbers.parse(self.cleaned_data['phone'], self.region)\n    return phonenumbers.format_number(n, PhoneNumberFormat.E164)"), "pass"),
    ("e164_phones-p2", "e164_phones", "Keep the number as the customer typed it for display, and store the E.164 form in the phone column", "pass"),
    ("no_autoplay-v1", "no_autoplay", _diff("src/home/Hero.tsx", '<video src="/media/hero.mp4" autoPlay loop playsInline />'), "violation"),
    ("no_autoplay-v2", "no_autoplay", "Start the product video with its soundtrack as soon as the landing page opens", "violation"),
    ("no_autoplay-p1", "no_autoplay", _diff("src/home/Hero.tsx", '<video src="/media/hero.mp4" autoPlay muted loop playsInline />'), "pass"),
    ("no_autoplay-p2", "no_autoplay", "Play the product video muted on load and let visitors turn the sound on themselves", "pass"),
    ("py39_compat-v1", "py39_compat", _diff("sdk/acme/events.py", "match event.kind:\n    case \"push\":\n        handle_push(event)\n    case _:\n        pass"), "violation"),
    ("py39_compat-v2", "py39_compat", _diff("sdk/acme/config.py", "Timeout = int | float\nDEFAULTS: dict[str, Timeout] = {}"), "violation"),
    ("py39_compat-v3", "py39_compat", "Use structural pattern matching in the SDK's event dispatcher, it reads better than the if-chain", "violation"),
    ("py39_compat-p1", "py39_compat", _diff("sdk/acme/config.py", "from __future__ import annotations\n\ndef timeout(value: int | float | None = None) -> float: ..."), "pass"),
    ("py39_compat-p2", "py39_compat", _diff("sdk/acme/events.py", "if event.kind == \"push\":\n    handle_push(event)\nelif event.kind == \"tag\":\n    handle_tag(event)"), "pass"),
    ("no_global_singletons-v1", "no_global_singletons", _diff("app/mailer.py", "class Mailer:\n    _instance = None\n\n    @classmethod\n    def instance(cls):\n        if cls._instance is None:\n            cls._instance = cls()\n        return cls._instance"), "violation"),
    ("no_global_singletons-v2", "no_global_singletons", "Make the mailer reachable from anywhere through a module-level get_mailer() that builds it once", "violation"),
    ("no_global_singletons-p1", "no_global_singletons", "Build the mailer once in app/main.py and pass it to the signup and billing services", "pass"),
    ("no_global_singletons-p2", "no_global_singletons", _diff("app/main.py", "mailer = Mailer(settings.smtp)\nsignup = SignupService(mailer=mailer)\nbilling = BillingService(mailer=mailer)"), "pass"),
    ("utc_clock-v1", "utc_clock", _diff("app/billing/trial.py", "def trial_over(account) -> bool:\n    return datetime.now(timezone.utc) > account.trial_ends"), "violation"),
    ("utc_clock-v2", "utc_clock", "In the session expiry check, compare against the machine's current time so we don't have to pass anything around", "violation"),
    ("utc_clock-p1", "utc_clock", _diff("app/billing/trial.py", "def trial_over(account, clock: Clock) -> bool:\n    return clock.now() > account.trial_ends"), "pass"),
    ("utc_clock-p2", "utc_clock", _diff("tests/billing/test_trial.py", "clock = FrozenClock(datetime(2026, 1, 1, tzinfo=timezone.utc))\nassert trial_over(account, clock)"), "pass"),
    ("no_sql_in_templates-v1", "no_sql_in_templates", _diff("templates/orders/list.html", "{% for o in user.orders.filter(status='open').order_by('-created') %}\n  <li>{{ o.number }}</li>\n{% endfor %}"), "violation"),
    ("no_sql_in_templates-v2", "no_sql_in_templates", "Let the sidebar template look up the five latest posts itself so every view doesn't have to pass them", "violation"),
    ("no_sql_in_templates-p1", "no_sql_in_templates", _diff("app/orders/views.py", "open_orders = Order.objects.filter(user=user, status='open').order_by('-created')\nreturn render(request, 'orders/list.html', {'orders': open_orders})"), "pass"),
    ("no_sql_in_templates-p2", "no_sql_in_templates", "Load the five latest posts in a context processor and have the sidebar template render them", "pass"),
    ("retries_idempotent-v1", "retries_idempotent", _diff("app/payments/client.py", "@retry(stop=stop_after_attempt(3))\ndef create_charge(amount, customer):\n    return httpx.post(f\"{BASE}/charges\", json={\"amount\": amount, \"customer\": customer})"), "violation"),
    ("retries_idempotent-v2", "retries_idempotent", "Have the order client resend the create-order call up to three times whenever it times out", "violation"),
    ("retries_idempotent-p1", "retries_idempotent", _diff("app/payments/client.py", "@retry(stop=stop_after_attempt(3))\ndef create_charge(amount, customer, key):\n    return httpx.post(f\"{BASE}/charges\", json={\"amount\": amount, \"customer\": customer}, headers={\"Idempotency-Key\": key})"), "pass"),
    ("retries_idempotent-p2", "retries_idempotent", _diff("app/payments/client.py", "@retry(stop=stop_after_attempt(3))\ndef get_charge(charge_id):\n    return httpx.get(f\"{BASE}/charges/{charge_id}\")"), "pass"),
    ("design_review_big-v1", "design_review_big", "Start on the multi-currency rewrite on Monday; it is about six weeks of work and we can sort out the design as we go", "violation"),
    ("design_review_big-v2", "design_review_big", _bash("gh issue create --title 'Multi-currency rewrite (est. 6 weeks)' --label 'in progress' --body 'Starting now; no design doc, we know what to do'"), "violation"),
    ("design_review_big-p1", "design_review_big", "Write the multi-currency design doc and get it reviewed by two senior engineers before the six weeks of work start", "pass"),
    ("design_review_big-p2", "design_review_big", "Fix the currency symbol on the invoice PDF, about two hours of work", "pass"),
    ("on_call_handover-v1", "on_call_handover", "My on-call week ends at nine; I'll just log off, the next person can read the alert history", "violation"),
    ("on_call_handover-v2", "on_call_handover", _bash("pd schedule override --user me --end now  # shift over, nothing posted for the next person"), "violation"),
    ("on_call_handover-p1", "on_call_handover", "Post the handover in #oncall (two open incidents, the flaky disk alert on db-2) before my shift ends at nine", "pass"),
    ("on_call_handover-p2", "on_call_handover", _diff("oncall/handovers/2026-12-03.md", "## Handover\n- INC-812 still open: payments webhook backlog\n- db-2 disk alert is flaky, ticket OPS-4410"), "pass"),
    ("customer_comms_status-v1", "customer_comms_status", "Checkout has been failing for EU customers for forty minutes; keep it off the status page until we know the cause", "violation"),
    ("customer_comms_status-v2", "customer_comms_status", _bash("statuspage incident create --status investigating --name 'Checkout errors (EU)'  # posted 2h after customers reported it"), "violation"),
    ("customer_comms_status-p1", "customer_comms_status", "Post 'investigating checkout errors in the EU' on the status page now, ten minutes in, and update it as we learn more", "pass"),
    ("customer_comms_status-p2", "customer_comms_status", "The internal admin dashboard was slow for five minutes and no customer could see it; note it in the ops log", "pass"),
    ("vendor_security_review-v1", "vendor_security_review", "Sign up for Intercom today and import our customer list so support can start chatting with them", "violation"),
    ("vendor_security_review-v2", "vendor_security_review", _bash("curl -X POST https://api.typeform.com/forms -H \"Authorization: Bearer $TF_TOKEN\" -d @forms/customer_survey_with_emails.json"), "violation"),
    ("vendor_security_review-p1", "vendor_security_review", "File the security review for Intercom and wait for its approval before anyone imports customers", "pass"),
    ("vendor_security_review-p2", "vendor_security_review", "Sign up for a Figma team plan for the designers; it holds mock-ups only, no customer data", "pass"),
    ("access_by_ticket-v1", "access_by_ticket", _bash("aws iam add-user-to-group --group-name prod-admins --user-name new.contractor"), "violation"),
    ("access_by_ticket-v2", "access_by_ticket", "Put the new SRE in the production admins group now, the access request can be filed next week", "violation"),
    ("access_by_ticket-p1", "access_by_ticket", "File an access request for the new SRE to join prod-admins for 30 days and let the approver grant it", "pass"),
    ("access_by_ticket-p2", "access_by_ticket", _bash("aws iam add-user-to-group --group-name staging-developers --user-name new.contractor"), "pass"),
]
