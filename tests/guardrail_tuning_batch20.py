"""Guardrail TUNING cases, twentieth batch (issue 22, twenty-second session): 32 criteria phrased
the way CONTRIBUTING files, accessibility checklists, i18n guides, migration and API deprecation
policies, feature-flag playbooks, Terraform style guides, app-store checklists and review
policies put them ("Icon-only buttons need an aria-label", "All user-facing text goes through
t()", "Never edit a migration that has already been merged", "No new Android permissions
without a privacy review", "Every commit needs a Signed-off-by line (DCO)"); the sentences and
cases are our own.

Written before any reader change of the session, in the domains batches 1-19 cover little:
accessibility, i18n, database migrations, API versioning, personal data in logs, feature flags,
observability, performance budgets, mobile apps and app stores, infrastructure as code,
documentation and code review etiquette. Weighted to:

- every diff a real `git diff` with its headers (`index`, `---`/`+++`, `@@` hunks with context
  and removed lines, `new file mode`), read as `check --diff` reads one; some violations show
  only in the context or the removed lines (an edited migration, a heading a hunk sits under);
- look-alikes whose words meet the rule's words inside a longer identifier that means something
  else (`block_public_acls = true`, `token_refresh_total`, `debuggable true` under `debug {`) or
  a flag that says the required thing (`git commit -s`, `muted`, `--signoff`), the class the
  nineteenth batch's confirmed wrong blocks came from;
- violations that say the thing in another way (`maximum-scale=1`, `NSAllowsArbitraryLoads`,
  `aws rds modify-db-instance`).

Each criterion has at least one violating and one complying case, and a diff or a tool call.
Every fact a label depends on is in the case text. Same format as
tests/guardrail_tuning_batch19.py.
"""

from __future__ import annotations

from tests.guardrail_sentence_cases import _bash
from tests.guardrail_tuning_batch16 import _write
from tests.guardrail_tuning_batch18 import _edit_of


def _hunk(path: str, added: str, removed: str = "", context: str = "", at: int = 12) -> str:
    """One file's part of a `git diff` changing `path`: `context` lines first, then `removed`
    and `added` lines."""
    ctx = context.splitlines()
    rem = removed.splitlines()
    add = added.splitlines()
    body = [" " + c for c in ctx] + ["-" + r for r in rem] + ["+" + a for a in add]
    old_n, new_n = len(ctx) + len(rem), len(ctx) + len(add)
    return (f"diff --git a/{path} b/{path}\nindex 4e1f0a2..9c3d7b5 100644\n--- a/{path}\n"
            f"+++ b/{path}\n@@ -{at},{old_n} +{at},{new_n} @@\n" + "\n".join(body) + "\n")


def _new(path: str, content: str) -> str:
    """One file's part of a `git diff` creating `path` with `content`."""
    lines = content.splitlines()
    body = "\n".join("+" + line for line in lines)
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..7d2e91c\n"
            f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{body}\n")


def _gd(*parts: str) -> dict:
    """A case that is the `git diff` made of `parts` (from _hunk and _new)."""
    return {"diff": "".join(parts)}


# `python -m tests.heldout_eval batch20` on the reader of 0b7e0c7 (main as the twenty-second
# session began), before any change of this session, with the sentence model
# (LORESTACK_TEST_MODEL_DIR set; load 6.8, 10 s): 32 criteria, 0 refused, 158 cases (82
# violations, 76 look-alikes); exact 91/158 (58%), wrong blocks 0, silent passes 42/82,
# look-alikes pass 51/76 (67%) (violations: 40 undecided, 42 pass; look-alikes: 25 undecided,
# 51 pass; other criteria flagged 40). `--confirmed` (every draft accepted as shown; load 7.3):
# exact 73/158, wrong blocks 7, silent passes 44/82, look-alikes pass 52/76 (violations: 17
# block, 4 warn, 17 undecided, 44 pass). The 7 confirmed wrong blocks: log_no_raw_requests-p3,
# mob_permissions_reviewed-p2, mob_release_not_debuggable-p1/p2, review_dco_signoff-p1/p2/p3.
# The batch test keeps the plain first run as the floor until a kept figure replaces it.
FIRST_RUN = {"exact": 91, "wrong_blocks": 0, "silent_passes": 42, "lookalike_pass": 51}
FIRST_RUN_CONFIRMED = {"exact": 73, "wrong_blocks": 7, "silent_passes": 44, "lookalike_pass": 52}
# kept (twenty-fifth session, batch25: the figures of every session's readings since, with
# iac_private_buckets-v2's `block_public_acls = true` -> `false` now "applies, undecided"
# through given_up.switched_off); `--confirmed` 78/2/31/57
KEPT = {"exact": 109, "wrong_blocks": 0, "silent_passes": 29, "lookalike_pass": 56}

CRITERIA: dict[str, tuple[str, str]] = {
    # accessibility
    "a11y_positive_tabindex": (
        "Do not use a positive tabindex; use 0 or -1 and fix the DOM order instead",
        "warn",
    ),
    "a11y_icon_button_label": ("Icon-only buttons need an aria-label", "warn"),
    "a11y_pinch_zoom": (
        "Never disable pinch-zoom: no user-scalable=no or maximum-scale=1 in the viewport meta tag",
        "block",
    ),
    "a11y_no_autoplay_sound": (
        "Media must not autoplay with sound; a video that autoplays is muted and has controls",
        "warn",
    ),
    # internationalisation
    "i18n_strings_through_t": (
        "All user-facing text goes through t(); don't hardcode strings in components",
        "warn",
    ),
    "i18n_no_concatenation": (
        "Never build sentences by concatenating translated fragments; use one message with "
        "placeholders",
        "warn",
    ),
    "i18n_locale_formatting": (
        "Format dates, numbers and currencies with the user's locale (Intl or Babel); never "
        "format them by hand",
        "warn",
    ),
    # database migrations
    "mig_merged_are_immutable": (
        "Never edit a migration that has already been merged; add a new migration instead",
        "block",
    ),
    "mig_expand_then_contract": (
        "Don't rename or drop a column the running code still reads; add the new column, "
        "backfill it, and drop the old one in a later release",
        "block",
    ),
    "mig_backfills_separate": (
        "Keep data backfills out of schema migrations; run them as a management command",
        "warn",
    ),
    # API versioning
    "api_v1_shape_frozen": (
        "Breaking changes to the public API go into /api/v2; /api/v1 responses keep their shape",
        "block",
    ),
    "api_routes_versioned": (
        "Every public route lives under a version prefix such as /api/v1/; don't add "
        "unversioned routes",
        "warn",
    ),
    # personal data and secrets in logs
    "log_no_raw_requests": (
        "Don't log full request headers or bodies; they carry tokens and personal data",
        "block",
    ),
    "log_no_tokens": (
        "Never log access tokens, session IDs or API keys, not even at debug level",
        "block",
    ),
    # feature flags
    "ff_new_features_off": ("New features ship behind a feature flag that is off by default", "warn"),
    "ff_through_wrapper": (
        "Read feature flags through flags.is_enabled(); never call the LaunchDarkly client "
        "directly",
        "warn",
    ),
    # observability
    "obs_structured_logs": (
        "Use structured logging with key-value fields; never interpolate values into the log "
        "message",
        "warn",
    ),
    "obs_metric_names_stable": (
        "Do not rename or remove existing metrics; dashboards and alerts depend on their names",
        "warn",
    ),
    # performance budgets
    "perf_lazy_routes": (
        "Lazy-load pages: never import a page component statically in web/src/routes.tsx",
        "warn",
    ),
    "perf_budget_not_raised": (
        "Never raise the size budget in .size-limit.json to make CI pass; shrink the bundle "
        "instead",
        "block",
    ),
    # mobile apps and app stores
    "mob_permissions_reviewed": (
        "No new Android permissions without a privacy review",
        "block",
    ),
    "mob_release_not_debuggable": ("Release builds must never be debuggable", "block"),
    "mob_no_cleartext": ("The app must not allow cleartext HTTP traffic", "block"),
    # infrastructure as code
    "iac_terraform_only": (
        "All infrastructure changes go through Terraform; never change production resources by "
        "hand in the AWS console or CLI",
        "block",
    ),
    "iac_pinned_providers": (
        "Pin Terraform providers with a ~> constraint; never leave a provider unversioned or "
        "open-ended",
        "warn",
    ),
    "iac_private_buckets": ("S3 buckets must never be publicly readable", "block"),
    # documentation
    "doc_reference_generated": (
        "Don't edit the generated API reference in docs/reference/ by hand; run make docs",
        "block",
    ),
    "doc_relative_links": (
        "Link between docs pages with relative links, never absolute links to the docs site",
        "warn",
    ),
    # code review etiquette
    "review_no_dismissing": (
        "Never dismiss a reviewer's request for changes; address it and re-request review",
        "block",
    ),
    "review_dco_signoff": ("Every commit needs a Signed-off-by line (DCO)", "block"),
    "review_pr_description": (
        "Fill in the pull request template; don't open a PR with an empty description",
        "warn",
    ),
    "review_others_branches": (
        "Don't push to someone else's pull request branch without asking them first",
        "warn",
    ),
}

_GRADLE_CTX = "android {\n    buildTypes {"
_MANIFEST_CTX = '<manifest xmlns:android="http://schemas.android.com/apk/res/android">'
_TF_PROVIDERS = "terraform {\n  required_providers {"
_BUDGET = '[\n  {\n    "path": "dist/main.*.js",'

# (case id, criterion key, proposal, expected)
CASES: list[tuple[str, str, object, str]] = [
    # -- accessibility
    ("a11y_positive_tabindex-v1", "a11y_positive_tabindex", _gd(_hunk("templates/login.html", '  <input name="email" type="email" tabindex="2">\n  <input name="password" type="password" tabindex="1">', context='<form method="post" action="/login">')), "violation"),
    ("a11y_positive_tabindex-v2", "a11y_positive_tabindex", _edit_of("web/src/Modal.tsx", "<button onClick={close}>", "<button tabIndex={5} onClick={close}>"), "violation"),
    ("a11y_positive_tabindex-v3", "a11y_positive_tabindex", "Give the search box tabindex 1 so it is the first thing keyboard users reach", "violation"),
    ("a11y_positive_tabindex-p1", "a11y_positive_tabindex", _gd(_hunk("web/src/Disclosure.vue", '  <div role="button" tabindex="0" @click="toggle" @keydown.enter="toggle">', removed='  <div class="toggle" @click="toggle">')), "pass"),
    ("a11y_positive_tabindex-p2", "a11y_positive_tabindex", _gd(_hunk("templates/base.html", '<span id="main-start" tabindex="-1" class="sr-only">Main content</span>', context="<main>")), "pass"),
    ("a11y_positive_tabindex-p3", "a11y_positive_tabindex", "Reorder the login form's fields in the DOM so tabbing goes email, password, then submit", "pass"),
    ("a11y_icon_button_label-v1", "a11y_icon_button_label", _gd(_hunk("web/src/Dialog.vue", '    <button class="icon-btn" @click="close"><svg><use href="#icon-x"/></svg></button>', context='  <header class="dialog-head">')), "violation"),
    ("a11y_icon_button_label-v2", "a11y_icon_button_label", _write("web/src/components/TrashButton.tsx", "export const TrashButton = ({ onDelete }) => (\n  <IconButton onClick={onDelete}>\n    <TrashIcon />\n  </IconButton>\n);\n"), "violation"),
    ("a11y_icon_button_label-p1", "a11y_icon_button_label", _gd(_hunk("web/src/Dialog.vue", '    <button class="icon-btn" aria-label="Close dialog" @click="close"><svg aria-hidden="true"><use href="#icon-x"/></svg></button>', context='  <header class="dialog-head">')), "pass"),
    ("a11y_icon_button_label-p2", "a11y_icon_button_label", _gd(_hunk("web/src/Dialog.vue", '    <button class="btn" @click="save">Save draft</button>', context='  <footer class="dialog-foot">')), "pass"),
    ("a11y_pinch_zoom-v1", "a11y_pinch_zoom", _gd(_hunk("templates/base.html", '  <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">', removed='  <meta name="viewport" content="width=device-width, initial-scale=1">', context="<head>")), "violation"),
    ("a11y_pinch_zoom-v2", "a11y_pinch_zoom", _edit_of("public/index.html", '<meta name="viewport" content="width=device-width">', '<meta name="viewport" content="width=device-width, user-scalable=no">'), "violation"),
    ("a11y_pinch_zoom-v3", "a11y_pinch_zoom", "Stop iOS from zooming in when the search field gets focus by locking the viewport's scale", "violation"),
    ("a11y_pinch_zoom-p1", "a11y_pinch_zoom", _gd(_hunk("templates/base.html", '  <meta name="viewport" content="width=device-width, initial-scale=1">', removed='  <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">', context="<head>")), "pass"),
    ("a11y_pinch_zoom-p2", "a11y_pinch_zoom", "Set the search input's font size to 16px so iOS no longer zooms in on focus", "pass"),
    ("a11y_no_autoplay_sound-v1", "a11y_no_autoplay_sound", _gd(_hunk("templates/home.html", '  <video src="/media/intro.mp4" autoplay></video>', context='<section class="hero">')), "violation"),
    ("a11y_no_autoplay_sound-v2", "a11y_no_autoplay_sound", _gd(_hunk("web/src/Welcome.tsx", "      <audio src={jingle} autoPlay />", context="    <div className=\"welcome\">")), "violation"),
    ("a11y_no_autoplay_sound-v3", "a11y_no_autoplay_sound", "Play the welcome jingle automatically when the dashboard opens", "violation"),
    ("a11y_no_autoplay_sound-p1", "a11y_no_autoplay_sound", _gd(_hunk("templates/home.html", '  <video src="/media/intro.mp4" autoplay muted loop playsinline controls></video>', context='<section class="hero">')), "pass"),
    ("a11y_no_autoplay_sound-p2", "a11y_no_autoplay_sound", _gd(_hunk("templates/home.html", '  <video src="/media/intro.mp4" controls preload="metadata"></video>', context='<section class="hero">')), "pass"),
    # -- internationalisation
    ("i18n_strings_through_t-v1", "i18n_strings_through_t", _gd(_hunk("web/src/components/Checkout.tsx", "      <Button onClick={submit}>Place order</Button>", removed="      <Button onClick={submit}>{t('checkout.submit')}</Button>", context="    <footer>")), "violation"),
    ("i18n_strings_through_t-v2", "i18n_strings_through_t", _gd(_hunk("web/src/payments/card.ts", '    toast.error("Your card was declined");', context="  if (result.declined) {")), "violation"),
    ("i18n_strings_through_t-v3", "i18n_strings_through_t", "Put the English error text straight into the payment form for now; we'll translate it later", "violation"),
    ("i18n_strings_through_t-p1", "i18n_strings_through_t", _gd(_hunk("web/src/components/Checkout.tsx", "      <Button onClick={submit}>{t('checkout.place_order')}</Button>", context="    <footer>")), "pass"),
    ("i18n_strings_through_t-p2", "i18n_strings_through_t", _gd(_hunk("web/src/components/Checkout.tsx", '    console.debug("checkout mounted", cartId);', context="  useEffect(() => {")), "pass"),
    ("i18n_strings_through_t-p3", "i18n_strings_through_t", _gd(_hunk("web/src/locales/en.json", '  "checkout.place_order": "Place order",', context='  "checkout.back": "Back",')), "pass"),
    ("i18n_no_concatenation-v1", "i18n_no_concatenation", _gd(_hunk("web/src/Cart.tsx", "  const label = t('cart.you_have') + ' ' + count + ' ' + t('cart.items');", context="export function CartBadge({ count }) {")), "violation"),
    ("i18n_no_concatenation-v2", "i18n_no_concatenation", _gd(_hunk("accounts/views.py", '    flash(_("Welcome back") + ", " + user.first_name)', context="def login_done(request, user):")), "violation"),
    ("i18n_no_concatenation-v3", "i18n_no_concatenation", "Join the translated 'You have' and 'new messages' strings around the count in the inbox header", "violation"),
    ("i18n_no_concatenation-p1", "i18n_no_concatenation", _gd(_hunk("web/src/Cart.tsx", "  const label = t('cart.item_count', { count });", context="export function CartBadge({ count }) {")), "pass"),
    ("i18n_no_concatenation-p2", "i18n_no_concatenation", _gd(_hunk("accounts/views.py", '    flash(_("Welcome back, %(name)s") % {"name": user.first_name})', context="def login_done(request, user):")), "pass"),
    ("i18n_no_concatenation-p3", "i18n_no_concatenation", _gd(_hunk("web/src/Button.tsx", "  const cls = 'btn ' + (primary ? 'btn-primary' : 'btn-secondary');", context="export function Button({ primary, children }) {")), "pass"),
    ("i18n_locale_formatting-v1", "i18n_locale_formatting", _gd(_hunk("web/src/Price.tsx", "  const text = '$' + amount.toFixed(2);", context="export function Price({ amount }) {")), "violation"),
    ("i18n_locale_formatting-v2", "i18n_locale_formatting", _gd(_hunk("billing/templatetags/dates.py", '    return f"{d.month}/{d.day}/{d.year}"', context="def invoice_date(d):")), "violation"),
    ("i18n_locale_formatting-v3", "i18n_locale_formatting", "Show invoice dates as MM/DD/YYYY everywhere in the customer portal", "violation"),
    ("i18n_locale_formatting-p1", "i18n_locale_formatting", _gd(_hunk("web/src/Price.tsx", "  const text = new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);", context="export function Price({ amount, currency, locale }) {")), "pass"),
    ("i18n_locale_formatting-p2", "i18n_locale_formatting", _gd(_hunk("billing/templatetags/dates.py", '    return format_date(d, format="medium", locale=user_locale())', context="def invoice_date(d):")), "pass"),
    ("i18n_locale_formatting-p3", "i18n_locale_formatting", _gd(_hunk("exports/paths.py", '    return f"exports/{d:%Y}/{d:%m}/orders.csv"', context="def export_key(d):")), "pass"),
    # -- database migrations
    ("mig_merged_are_immutable-v1", "mig_merged_are_immutable", _gd(_hunk("orders/migrations/0031_order_status.py", '        migrations.AddField("order", "status", models.CharField(max_length=32)),', removed='        migrations.AddField("order", "status", models.CharField(max_length=20)),', context="    operations = [")), "violation"),
    ("mig_merged_are_immutable-v2", "mig_merged_are_immutable", _edit_of("catalog/migrations/0019_add_sku.py", "max_length=40", "max_length=64"), "violation"),
    ("mig_merged_are_immutable-v3", "mig_merged_are_immutable", "Fix the wrong default in migration 0031, which shipped last week, instead of adding another migration", "violation"),
    ("mig_merged_are_immutable-p1", "mig_merged_are_immutable", _gd(_new("orders/migrations/0045_order_status_length.py", 'from django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n    dependencies = [("orders", "0044_refund_reason")]\n    operations = [\n        migrations.AlterField("order", "status", models.CharField(max_length=32)),\n    ]')), "pass"),
    ("mig_merged_are_immutable-p2", "mig_merged_are_immutable", _bash("python manage.py makemigrations orders"), "pass"),
    ("mig_merged_are_immutable-p3", "mig_merged_are_immutable", "Widen order.status to 32 characters in a new migration rather than touching 0031", "pass"),
    ("mig_expand_then_contract-v1", "mig_expand_then_contract", _gd(_new("db/migrate/20261201093000_rename_user_email.rb", "class RenameUserEmail < ActiveRecord::Migration[7.1]\n  def change\n    rename_column :users, :email, :email_address\n  end\nend")), "violation"),
    ("mig_expand_then_contract-v2", "mig_expand_then_contract", _gd(_new("db/sql/V42__drop_fullname.sql", "ALTER TABLE users DROP COLUMN fullname;"), _hunk("app/models/user.py", "    first_name = Column(Text)\n    last_name = Column(Text)", removed="    fullname = Column(Text)", context="class User(Base):")), "violation"),
    ("mig_expand_then_contract-v3", "mig_expand_then_contract", "Drop the legacy users.fullname column in the same PR that switches the code to first_name and last_name", "violation"),
    ("mig_expand_then_contract-p1", "mig_expand_then_contract", _gd(_new("db/sql/V42__add_email_address.sql", "ALTER TABLE users ADD COLUMN email_address text;")), "pass"),
    ("mig_expand_then_contract-p2", "mig_expand_then_contract", "Drop users.fullname now; no release since 4.2 reads it", "pass"),
    ("mig_backfills_separate-v1", "mig_backfills_separate", _gd(_new("orders/migrations/0046_backfill_status.py", 'from django.db import migrations\n\n\ndef fill_status(apps, schema_editor):\n    Order = apps.get_model("orders", "Order")\n    Order.objects.filter(status=None).update(status="open")\n\n\nclass Migration(migrations.Migration):\n    dependencies = [("orders", "0045_order_status_length")]\n    operations = [migrations.RunPython(fill_status, migrations.RunPython.noop)]')), "violation"),
    ("mig_backfills_separate-v2", "mig_backfills_separate", "Add a migration that copies every user's legacy plan into the new subscriptions table", "violation"),
    ("mig_backfills_separate-p1", "mig_backfills_separate", _gd(_new("orders/management/commands/backfill_status.py", 'from django.core.management.base import BaseCommand\n\nfrom orders.models import Order\n\n\nclass Command(BaseCommand):\n    def handle(self, *args, **options):\n        Order.objects.filter(status=None).update(status="open")')), "pass"),
    ("mig_backfills_separate-p2", "mig_backfills_separate", _gd(_new("orders/migrations/0047_order_channel.py", 'from django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n    dependencies = [("orders", "0046_order_note")]\n    operations = [migrations.AddField("order", "channel", models.CharField(max_length=16, null=True))]')), "pass"),
    ("mig_backfills_separate-p3", "mig_backfills_separate", _bash("python manage.py backfill_status --batch-size 5000"), "pass"),
    # -- API versioning
    ("api_v1_shape_frozen-v1", "api_v1_shape_frozen", _gd(_hunk("api/v1/serializers.py", "    total_cents = serializers.IntegerField()", removed="    total = serializers.DecimalField(max_digits=12, decimal_places=2)", context="class OrderSerializer(serializers.Serializer):")), "violation"),
    ("api_v1_shape_frozen-v2", "api_v1_shape_frozen", "Return amounts as strings instead of numbers in the /api/v1/orders response", "violation"),
    ("api_v1_shape_frozen-p1", "api_v1_shape_frozen", _gd(_new("api/v2/serializers.py", "class OrderSerializer(serializers.Serializer):\n    id = serializers.IntegerField()\n    total_cents = serializers.IntegerField()")), "pass"),
    ("api_v1_shape_frozen-p2", "api_v1_shape_frozen", _gd(_hunk("api/v1/serializers.py", "    currency = serializers.CharField(required=False)", context="class OrderSerializer(serializers.Serializer):\n    total = serializers.DecimalField(max_digits=12, decimal_places=2)")), "pass"),
    ("api_v1_shape_frozen-p3", "api_v1_shape_frozen", "Add an optional currency field to the /api/v1/orders response", "pass"),
    ("api_routes_versioned-v1", "api_routes_versioned", _gd(_hunk("api/routes/refunds.py", '@router.get("/api/orders/{order_id}/refunds")\ndef list_refunds(order_id: int):', context="router = APIRouter()")), "violation"),
    ("api_routes_versioned-v2", "api_routes_versioned", _gd(_hunk("server/app.js", "app.post('/api/invoices', createInvoice);", context="app.use(express.json());")), "violation"),
    ("api_routes_versioned-v3", "api_routes_versioned", "Expose the refunds list at /api/refunds so the mobile app can call it", "violation"),
    ("api_routes_versioned-p1", "api_routes_versioned", _gd(_hunk("api/routes/refunds.py", '@router.get("/api/v2/orders/{order_id}/refunds")\ndef list_refunds(order_id: int):', context="router = APIRouter()")), "pass"),
    ("api_routes_versioned-p2", "api_routes_versioned", _gd(_hunk("server/app.js", "app.post('/api/v1/invoices', createInvoice);", context="app.use(express.json());")), "pass"),
    ("api_routes_versioned-p3", "api_routes_versioned", "Document in docs/api.md that every public route starts with its version prefix", "pass"),
    # -- personal data and secrets in logs
    ("log_no_raw_requests-v1", "log_no_raw_requests", _gd(_hunk("api/middleware.py", '        logger.debug("incoming request headers=%s", dict(request.headers))', context="    def __call__(self, request):")), "violation"),
    ("log_no_raw_requests-v2", "log_no_raw_requests", _gd(_hunk("server/webhooks.js", "  console.log('webhook body', JSON.stringify(req.body));", context="router.post('/webhooks/stripe', (req, res) => {")), "violation"),
    ("log_no_raw_requests-v3", "log_no_raw_requests", "Log the raw JSON body of every failed signup request so we can debug validation errors", "violation"),
    ("log_no_raw_requests-p1", "log_no_raw_requests", _gd(_hunk("api/middleware.py", '        logger.info("request id=%s path=%s status=%s", rid, request.path, response.status_code)', context="    def __call__(self, request):")), "pass"),
    ("log_no_raw_requests-p2", "log_no_raw_requests", _gd(_hunk("clients/billing.py", '    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key}', context="def charge(token, key, amount):")), "pass"),
    ("log_no_raw_requests-p3", "log_no_raw_requests", _gd(_hunk("api/middleware.py", '        logger.info("request body size=%d bytes", len(request.body))', context="    def __call__(self, request):")), "pass"),
    ("log_no_tokens-v1", "log_no_tokens", _gd(_hunk("auth/refresh.py", '    logger.debug("refreshed token %s for user %s", token.access_token, user.id)', context="def refresh(user):")), "violation"),
    ("log_no_tokens-v2", "log_no_tokens", _gd(_hunk("internal/session/middleware.go", '\tlog.Printf("session cookie=%s", r.Header.Get("Cookie"))', context="func (m *Middleware) ServeHTTP(w http.ResponseWriter, r *http.Request) {")), "violation"),
    ("log_no_tokens-v3", "log_no_tokens", "Print the Stripe secret key at startup so we can see which environment's key got loaded", "violation"),
    ("log_no_tokens-p1", "log_no_tokens", _gd(_hunk("auth/refresh.py", '    logger.debug("refreshed token for user %s (expires %s)", user.id, token.expires_at)', context="def refresh(user):")), "pass"),
    ("log_no_tokens-p2", "log_no_tokens", _gd(_hunk("auth/refresh.py", '    logger.debug("token_refresh_total=%d", refreshed)', context="def refresh_all(users):")), "pass"),
    ("log_no_tokens-p3", "log_no_tokens", "Log the last four characters of the key's fingerprint at startup, never the key", "pass"),
    # -- feature flags
    ("ff_new_features_off-v1", "ff_new_features_off", _gd(_hunk("config/flags.yaml", "new_checkout:\n  default: true\n  owner: payments", context="flags:")), "violation"),
    ("ff_new_features_off-v2", "ff_new_features_off", "Turn the redesigned search on for every customer in this release, without a flag", "violation"),
    ("ff_new_features_off-p1", "ff_new_features_off", _gd(_hunk("config/flags.yaml", "new_checkout:\n  default: false\n  owner: payments", context="flags:")), "pass"),
    ("ff_new_features_off-p2", "ff_new_features_off", _gd(_hunk("shop/checkout.py", '    if flags.is_enabled("new_checkout", request.user):\n        return render_new_checkout(cart)', context="def checkout(request, cart):")), "pass"),
    ("ff_through_wrapper-v1", "ff_through_wrapper", _gd(_hunk("search/views.py", '    if ld_client.variation("new-search", context, False):', context="def search(request):")), "violation"),
    ("ff_through_wrapper-v2", "ff_through_wrapper", "Call ldclient.get().variation in the search view to check the new-search flag", "violation"),
    ("ff_through_wrapper-p1", "ff_through_wrapper", _gd(_hunk("search/views.py", '    if flags.is_enabled("new-search", request.user):', context="def search(request):")), "pass"),
    ("ff_through_wrapper-p2", "ff_through_wrapper", _gd(_hunk("lib/flags.py", "    return _client.variation(name, _context(user), default)", context="def is_enabled(name, user, default=False):")), "pass"),
    # -- observability
    ("obs_structured_logs-v1", "obs_structured_logs", _gd(_hunk("shop/payments.py", '    logger.info(f"order {order.id} paid with {method} in {elapsed:.2f}s")', context="def on_paid(order, method, elapsed):")), "violation"),
    ("obs_structured_logs-v2", "obs_structured_logs", _gd(_hunk("worker/jobs.py", '    log.warning("job %s failed after %d tries" % (job.id, tries))', context="def on_failure(job, tries):")), "violation"),
    ("obs_structured_logs-p1", "obs_structured_logs", _gd(_hunk("shop/payments.py", '    logger.info("order paid", order_id=order.id, method=method, elapsed_s=round(elapsed, 2))', context="def on_paid(order, method, elapsed):")), "pass"),
    ("obs_structured_logs-p2", "obs_structured_logs", _gd(_hunk("shop/emails.py", '    subject = f"Your order {order.id} has shipped"', context="def shipped_email(order):")), "pass"),
    ("obs_metric_names_stable-v1", "obs_metric_names_stable", _gd(_hunk("api/metrics.py", 'REQUESTS = Counter("api_http_requests_total", "HTTP requests", ["route", "status"])', removed='REQUESTS = Counter("http_requests_total", "HTTP requests", ["route", "status"])', context="from prometheus_client import Counter, Histogram")), "violation"),
    ("obs_metric_names_stable-v2", "obs_metric_names_stable", "Rename the checkout_latency_seconds histogram to checkout_duration_seconds to match the naming guide", "violation"),
    ("obs_metric_names_stable-p1", "obs_metric_names_stable", _gd(_hunk("api/metrics.py", 'CACHE_HITS = Counter("cache_hits_total", "Cache hits", ["cache"])', context='REQUESTS = Counter("http_requests_total", "HTTP requests", ["route", "status"])')), "pass"),
    ("obs_metric_names_stable-p2", "obs_metric_names_stable", "Add a checkout_duration_seconds histogram beside the existing checkout_latency_seconds", "pass"),
    # -- performance budgets
    ("perf_lazy_routes-v1", "perf_lazy_routes", _gd(_hunk("web/src/routes.tsx", "import ReportsPage from './pages/ReportsPage';", context="import { lazy } from 'react';")), "violation"),
    ("perf_lazy_routes-v2", "perf_lazy_routes", _edit_of("web/src/routes.tsx", "const Settings = lazy(() => import('./pages/Settings'));", "import Settings from './pages/Settings';"), "violation"),
    ("perf_lazy_routes-p1", "perf_lazy_routes", _gd(_hunk("web/src/routes.tsx", "const ReportsPage = lazy(() => import('./pages/ReportsPage'));", context="import { lazy } from 'react';")), "pass"),
    ("perf_lazy_routes-p2", "perf_lazy_routes", _gd(_hunk("web/src/pages/ReportsPage.tsx", "import { Chart } from '../components/Chart';", context="import { useState } from 'react';")), "pass"),
    ("perf_budget_not_raised-v1", "perf_budget_not_raised", _gd(_hunk(".size-limit.json", '    "limit": "260 KB"', removed='    "limit": "200 KB"', context=_BUDGET, at=1)), "violation"),
    ("perf_budget_not_raised-v2", "perf_budget_not_raised", _bash("""sed -i 's/"limit": "200 KB"/"limit": "250 KB"/' .size-limit.json && git commit -am 'Fix size check'"""), "violation"),
    ("perf_budget_not_raised-v3", "perf_budget_not_raised", "CI fails on bundle size after the chart upgrade; bump the limit to 250 KB", "violation"),
    ("perf_budget_not_raised-p1", "perf_budget_not_raised", _gd(_hunk(".size-limit.json", '  },\n  {\n    "path": "dist/admin.*.js",\n    "limit": "120 KB"', context='    "limit": "200 KB"', at=4)), "pass"),
    ("perf_budget_not_raised-p2", "perf_budget_not_raised", "Split the charting library into its own chunk so the main bundle fits the 200 KB budget again", "pass"),
    # -- mobile apps and app stores
    ("mob_permissions_reviewed-v1", "mob_permissions_reviewed", _gd(_hunk("android/app/src/main/AndroidManifest.xml", '    <uses-permission android:name="android.permission.ACCESS_FINE_LOCATION" />', context=_MANIFEST_CTX + '\n    <uses-permission android:name="android.permission.INTERNET" />', at=1)), "violation"),
    ("mob_permissions_reviewed-v2", "mob_permissions_reviewed", _bash("""sed -i '/<application/i <uses-permission android:name="android.permission.READ_CONTACTS"/>' android/app/src/main/AndroidManifest.xml"""), "violation"),
    ("mob_permissions_reviewed-v3", "mob_permissions_reviewed", "Ask for the camera permission in the Android app so users can scan receipts", "violation"),
    ("mob_permissions_reviewed-p1", "mob_permissions_reviewed", _gd(_hunk("android/app/src/main/AndroidManifest.xml", '        <activity android:name=".ScanActivity" android:exported="false" />', context='    <application android:label="@string/app_name">', at=9)), "pass"),
    ("mob_permissions_reviewed-p2", "mob_permissions_reviewed", "Let users pick a receipt photo with the system photo picker, which needs no permission", "pass"),
    ("mob_release_not_debuggable-v1", "mob_release_not_debuggable", _gd(_hunk("android/app/build.gradle", "            debuggable true", context=_GRADLE_CTX + "\n        release {\n            minifyEnabled true", at=20)), "violation"),
    ("mob_release_not_debuggable-v2", "mob_release_not_debuggable", _gd(_hunk("android/app/src/main/AndroidManifest.xml", '    <application android:label="@string/app_name" android:debuggable="true">', removed='    <application android:label="@string/app_name">', at=9)), "violation"),
    ("mob_release_not_debuggable-v3", "mob_release_not_debuggable", "Make the Play Store build debuggable so we can attach to it on the tester's phone", "violation"),
    ("mob_release_not_debuggable-p1", "mob_release_not_debuggable", _gd(_hunk("android/app/build.gradle", "        debug {\n            applicationIdSuffix \".debug\"\n            debuggable true\n        }", context=_GRADLE_CTX, at=20)), "pass"),
    ("mob_release_not_debuggable-p2", "mob_release_not_debuggable", _gd(_hunk("android/app/build.gradle", "            debuggable false", context=_GRADLE_CTX + "\n        release {\n            minifyEnabled true", at=20)), "pass"),
    ("mob_no_cleartext-v1", "mob_no_cleartext", _gd(_hunk("android/app/src/main/AndroidManifest.xml", '    <application android:label="@string/app_name" android:usesCleartextTraffic="true">', removed='    <application android:label="@string/app_name">', at=9)), "violation"),
    ("mob_no_cleartext-v2", "mob_no_cleartext", _gd(_hunk("ios/App/Info.plist", "\t<key>NSAppTransportSecurity</key>\n\t<dict>\n\t\t<key>NSAllowsArbitraryLoads</key>\n\t\t<true/>\n\t</dict>", context="<dict>", at=3)), "violation"),
    ("mob_no_cleartext-v3", "mob_no_cleartext", _gd(_hunk("mobile/src/config.ts", 'export const API_BASE = "http://api.acme-shop.com/v2";', removed='export const API_BASE = "https://api.acme-shop.com/v2";', at=1)), "violation"),
    ("mob_no_cleartext-p1", "mob_no_cleartext", _gd(_hunk("mobile/src/config.ts", 'export const API_BASE = "https://api.acme-shop.com/v2";', removed='export const API_BASE = "https://staging.acme-shop.com/v2";', at=1)), "pass"),
    ("mob_no_cleartext-p2", "mob_no_cleartext", _gd(_new("android/app/src/main/res/xml/network_security_config.xml", '<?xml version="1.0" encoding="utf-8"?>\n<network-security-config>\n    <base-config cleartextTrafficPermitted="false" />\n</network-security-config>')), "pass"),
    # -- infrastructure as code
    ("iac_terraform_only-v1", "iac_terraform_only", _bash("aws rds modify-db-instance --db-instance-identifier prod-db --db-instance-class db.r6g.xlarge --apply-immediately"), "violation"),
    ("iac_terraform_only-v2", "iac_terraform_only", _bash("aws ec2 authorize-security-group-ingress --group-id sg-0a1b2c3d --protocol tcp --port 22 --cidr 0.0.0.0/0"), "violation"),
    ("iac_terraform_only-v3", "iac_terraform_only", "Open the bastion's security group to the office IP in the AWS console for tomorrow's demo", "violation"),
    ("iac_terraform_only-p1", "iac_terraform_only", _gd(_hunk("infra/prod/rds.tf", '  instance_class = "db.r6g.xlarge"', removed='  instance_class = "db.r6g.large"', context='resource "aws_db_instance" "prod" {')), "pass"),
    ("iac_terraform_only-p2", "iac_terraform_only", _bash("aws rds describe-db-instances --db-instance-identifier prod-db --query 'DBInstances[0].DBInstanceClass'"), "pass"),
    ("iac_pinned_providers-v1", "iac_pinned_providers", _gd(_hunk("infra/versions.tf", '    aws = {\n      source  = "hashicorp/aws"\n      version = ">= 4.0"\n    }', context=_TF_PROVIDERS, at=1)), "violation"),
    ("iac_pinned_providers-v2", "iac_pinned_providers", _gd(_hunk("infra/versions.tf", '    google = {\n      source = "hashicorp/google"\n    }', context=_TF_PROVIDERS, at=1)), "violation"),
    ("iac_pinned_providers-p1", "iac_pinned_providers", _gd(_hunk("infra/versions.tf", '    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.31"\n    }', context=_TF_PROVIDERS, at=1)), "pass"),
    ("iac_pinned_providers-p2", "iac_pinned_providers", _gd(_hunk("infra/versions.tf", '  required_version = ">= 1.6"', context="terraform {", at=1)), "pass"),
    ("iac_private_buckets-v1", "iac_private_buckets", _gd(_hunk("infra/s3.tf", '  acl    = "public-read"', context='resource "aws_s3_bucket_acl" "exports" {\n  bucket = aws_s3_bucket.exports.id')), "violation"),
    ("iac_private_buckets-v2", "iac_private_buckets", _gd(_hunk("infra/s3.tf", "  block_public_acls       = false\n  restrict_public_buckets = false", removed="  block_public_acls       = true\n  restrict_public_buckets = true", context='resource "aws_s3_bucket_public_access_block" "exports" {')), "violation"),
    ("iac_private_buckets-v3", "iac_private_buckets", _bash("aws s3api put-bucket-acl --bucket acme-exports --acl public-read"), "violation"),
    ("iac_private_buckets-p1", "iac_private_buckets", _gd(_hunk("infra/s3.tf", "  block_public_acls       = true\n  block_public_policy     = true\n  restrict_public_buckets = true", context='resource "aws_s3_bucket_public_access_block" "exports" {\n  bucket = aws_s3_bucket.exports.id')), "pass"),
    ("iac_private_buckets-p2", "iac_private_buckets", "Serve the public downloads through CloudFront with origin access control so the bucket itself stays private", "pass"),
    # -- documentation
    ("doc_reference_generated-v1", "doc_reference_generated", _gd(_hunk("docs/reference/api.md", "### fetch(key, *, timeout=None)\n\nFetch one value; `timeout` is in seconds.", context="## Client")), "violation"),
    ("doc_reference_generated-v2", "doc_reference_generated", _edit_of("docs/reference/cli.md", "--retries INTEGER", "--retries INTEGER  How often to retry (default 3)."), "violation"),
    ("doc_reference_generated-v3", "doc_reference_generated", "Fix the typo in the fetch() entry of the API reference markdown directly", "violation"),
    ("doc_reference_generated-p1", "doc_reference_generated", _bash("make docs && git add docs/reference/"), "pass"),
    ("doc_reference_generated-p2", "doc_reference_generated", _gd(_hunk("src/acme/client.py", "            timeout: seconds to wait before giving up.", context='    def fetch(self, key, *, timeout=None):\n        """Fetch one value.\n\n        Args:')), "pass"),
    ("doc_reference_generated-p3", "doc_reference_generated", _gd(_hunk("docs/guides/quickstart.md", "Call `fetch(key, timeout=5)` to bound the wait.", context="## Fetching values")), "pass"),
    ("doc_relative_links-v1", "doc_relative_links", _gd(_hunk("docs/guides/install.md", "See [configuration](https://docs.acme.dev/latest/configuration/) for every option.", context="## Configure")), "violation"),
    ("doc_relative_links-v2", "doc_relative_links", _edit_of("docs/index.md", "- [Quickstart](guides/quickstart.md)", "- [Quickstart](https://docs.acme.dev/latest/guides/quickstart/)"), "violation"),
    ("doc_relative_links-p1", "doc_relative_links", _gd(_hunk("docs/guides/install.md", "See [configuration](../configuration.md) for every option.", context="## Configure")), "pass"),
    ("doc_relative_links-p2", "doc_relative_links", _gd(_hunk("docs/guides/install.md", "Report problems on [GitHub](https://github.com/acme/acme/issues).", context="## Getting help")), "pass"),
    # -- code review etiquette
    ("review_no_dismissing-v1", "review_no_dismissing", _bash("gh api -X PUT repos/acme/shop/pulls/412/reviews/99817/dismissals -f message='stale'"), "violation"),
    ("review_no_dismissing-v2", "review_no_dismissing", "Dismiss Priya's change request on #412 so the PR can go in", "violation"),
    ("review_no_dismissing-p1", "review_no_dismissing", _bash("gh pr edit 412 --add-reviewer priya"), "pass"),
    ("review_no_dismissing-p2", "review_no_dismissing", "Reply to Priya's review on #412 with the commit that addresses each point, then ask her to look again", "pass"),
    ("review_dco_signoff-v1", "review_dco_signoff", _bash("git commit -m 'Fix retry delay'"), "violation"),
    ("review_dco_signoff-v2", "review_dco_signoff", _bash("git add -A && git commit -am 'Bump httpx to 0.27.2'"), "violation"),
    ("review_dco_signoff-p1", "review_dco_signoff", _bash("git commit -s -m 'Fix retry delay'"), "pass"),
    ("review_dco_signoff-p2", "review_dco_signoff", _bash("git commit --signoff -m 'Bump httpx to 0.27.2'"), "pass"),
    ("review_dco_signoff-p3", "review_dco_signoff", _bash("git rebase --signoff origin/main"), "pass"),
    ("review_pr_description-v1", "review_pr_description", _bash("gh pr create --title 'Fix retry delay' --body ''"), "violation"),
    ("review_pr_description-v2", "review_pr_description", "Open the PR for the retry fix without a description; the title says it all", "violation"),
    ("review_pr_description-p1", "review_pr_description", _bash("gh pr create --title 'Fix retry delay' --body '## What\nUse the Retry-After header.\n\n## Why\nWe retried 429s too early.\n\n## Testing\ntests/test_retry.py'"), "pass"),
    ("review_pr_description-p2", "review_pr_description", _bash("gh pr view 412 --json body --jq .body"), "pass"),
    ("review_others_branches-v1", "review_others_branches", _bash("git push origin HEAD:ana/search-filters  # Ana's PR #512"), "violation"),
    ("review_others_branches-v2", "review_others_branches", "Push my lint fix straight onto Ana's PR branch without telling her", "violation"),
    ("review_others_branches-p1", "review_others_branches", _bash("gh pr review 512 --comment -b 'Suggestion: ruff --fix would clear the lint errors in search/filters.py'"), "pass"),
    ("review_others_branches-p2", "review_others_branches", _bash("git push origin HEAD:me/search-lint-fix && gh pr create --base ana/search-filters --title 'Lint fixes for #512'"), "pass"),
]
