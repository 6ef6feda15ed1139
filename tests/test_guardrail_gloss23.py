"""Issue 22, twenty-third session: code forms the sentence model cannot read, said in words
(lorestack/guardrail/gloss.py): a date formatted by hand, text written straight into the UI, a
sentence glued from translated fragments, an API route with no version, a positive tabindex, an
intranet host name, and cleartext HTTP allowed. Our own criteria and proposals; real files and
the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import meaning
from lorestack.guardrail.gloss import gloss, path_gloss
from tests import heldout_eval as E
from tests.conftest import confirmed_answer
from tests.guardrail_sentence_cases import _diff

UI = "hard-coded user-facing text shown in the UI, untranslated: "


def test_dates_formatted_by_hand():
    assert gloss('    label = f"{when.month}/{when.day}/{when.year}"') == "a date formatted by hand as month/day/year"
    assert gloss("const s = `${when.getMonth() + 1}/${when.getDate()}`;") == "a date formatted by hand as month/day/year"
    assert gloss("    return when.strftime('%d/%m/%Y')") == "a date formatted by hand as month/day/year"
    assert gloss('    key = f"reports/{d:%Y}/{d:%m}.csv"') is None  # a path, shown to nobody


def test_text_written_straight_into_the_ui():
    assert gloss("  <h2>Delivery address</h2>") == UI + "Delivery address"
    assert gloss('    snackbar.show("Settings saved for everyone")') == UI + "Settings saved for everyone"
    assert gloss("  <h2>{t('address.title')}</h2>") is None
    assert gloss('  console.log("mounted address form")') is None
    assert gloss("label = t('greeting.hello') + name + t('greeting.end')") == (
        "a sentence built by concatenating translated fragments with +")


def test_routes_tabindex_hosts_and_cleartext():
    assert gloss('@app.get("/api/invoices/{invoice_id}")') == (
        "HTTP endpoint invoices/{invoice id} without a version prefix such as /v1/, an unversioned API route")
    assert gloss('@app.get("/api/v2/invoices/{invoice_id}")').startswith("HTTP endpoint get")
    assert gloss("router.post('/api/payouts', createPayout);").startswith("HTTP endpoint payouts without")
    assert gloss('<a href="#main" tabindex="3">Skip</a>') == "positive tabindex 3, a custom keyboard tab order"
    assert gloss('<div tabIndex={0} onKeyDown={open}>') is None
    assert gloss("Details: https://build-07.corp.example.com/job/12") == (
        "link to the internal hostname build-07.corp.example.com on the private network")
    assert gloss('<application android:usesCleartextTraffic="true">') == (
        "allow cleartext HTTP traffic: unencrypted plain http connections")
    assert gloss("BASE_URL = 'http://payments.example.net/api'") == (
        "plain http:// address payments.example.net: unencrypted cleartext HTTP")
    assert not gloss("BASE_URL = 'http://localhost:8000'").startswith("plain http")
    assert gloss("BASE_URL = 'https://payments.example.net/api'") is None


def test_cloud_changes_by_hand():
    """Second change: a cloud CLI call that changes something (describe/get/list do not)."""
    assert gloss("aws elbv2 modify-listener --listener-arn arn:x --port 8443") == (
        "change cloud resources by hand from the aws command line: elbv2 modify-listener --listener-arn arn:x --port 8443")
    assert gloss("gcloud sql instances patch orders-db --tier db-custom-4-16384") == (
        "change cloud resources by hand from the gcloud command line: sql instances patch orders-db --tier db-custom-4-16384")
    assert gloss("gcloud compute firewall-rules delete allow-ssh").startswith(
        "change cloud resources by hand from the gcloud command line")
    assert gloss("aws ec2 describe-instances --filters Name=tag:env,Values=prod") is None
    assert gloss("aws iam create-access-key --user-name ci") == "create a long-lived access key"


def test_ordinary_code_is_not_given_these_meanings():
    """A review of the forms above (the session's end): lines where each meaning is wrong."""
    assert gloss('    key = now.strftime("backups/%Y/%m/%d/dump.sql")') is None  # a storage path
    assert gloss('    <string name="delivery_title">Delivery address</string>') is None  # strings.xml
    assert gloss("    <value>Delivery address</value>") is None  # a .resx file
    assert gloss("<summary>Show the full log</summary>") is None  # a Markdown fold
    assert gloss("<key>NSAllowsArbitraryLoads</key><false/>") is None  # switched off
    assert gloss("<key>NSAllowsArbitraryLoads</key><true/>") == (
        "allow cleartext HTTP traffic: unencrypted plain http connections")
    assert gloss('  "$schema": "http://json-schema.org/draft-07/schema#",') is None
    assert gloss('<project xmlns="http://maven.apache.org/POM/4.0.0">') is None
    for command in ("gcloud config set project orders-prod", "az account set --subscription ops",
                    "aws configure set region eu-west-1", "aws logs start-query --log-group-name api",
                    "aws athena start-query-execution --query-string 'select 1'"):
        assert not (gloss(command) or "").startswith("change cloud resources"), command


def test_ci_configuration_and_vendored_code_by_their_paths():
    """Third change: the kind of a changed file, where the lines say nothing (`python:` in
    .travis.yml, `- run: make` in .circleci/config.yml, C code under vendor/)."""
    assert path_gloss(".travis.yml") == "YAML configuration file, Travis CI pipeline configuration: travis yml"
    assert "CircleCI pipeline configuration" in path_gloss(".circleci/config.yml")
    assert path_gloss("ci/Jenkinsfile") == "Jenkins pipeline: ci Jenkinsfile"
    assert "GitHub Actions CI workflow" in path_gloss(".github/workflows/test.yml")
    assert path_gloss("vendor/zlib/inflate.c") == "vendored third-party library code: vendor zlib inflate c"
    assert path_gloss("third_party/six/six.py").startswith("vendored third-party library code")
    assert path_gloss("src/vendors/list.py") is None  # a folder named for the business's vendors
    assert path_gloss("docs/ci.md") is None


CRITERIA = {
    "catalogue_copy": ("UI strings must be localised", "warn"),
    "encrypted_transport": ("Our mobile apps never permit unencrypted connections", "warn"),
    "versioned_endpoints": ("Public endpoints carry a version segment such as /v2/", "warn"),
}
CASES = [
    ("copy-v", "catalogue_copy", _diff("web/src/Address.tsx", "      <h2>Delivery address</h2>"), "undecided"),
    ("copy-p", "catalogue_copy", _diff("web/src/Address.tsx", "      <h2>{t('address.title')}</h2>"), "pass"),
    ("transport-v", "encrypted_transport", _diff("android/app/src/main/AndroidManifest.xml", '    <application android:usesCleartextTraffic="true">'), "undecided"),
    ("transport-p", "encrypted_transport", _diff("android/app/src/main/AndroidManifest.xml", '    <application android:allowBackup="false">'), "pass"),
    ("endpoints-v", "versioned_endpoints", _diff("api/payouts.py", '@router.post("/api/payouts")\ndef create_payout(body: PayoutIn):'), "undecided"),
    ("endpoints-p", "versioned_endpoints", _diff("api/payouts.py", '@router.post("/api/v2/payouts")\ndef create_payout(body: PayoutIn):'), "pass"),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "gloss23", CRITERIA)


@pytest.mark.parametrize("gloss_on", [True, False])
def test_the_new_forms_make_code_apply_by_meaning(store, monkeypatch, gloss_on):
    monkeypatch.setattr(meaning, "GLOSS", gloss_on)
    for case, key, raw, expected in CASES:
        # with the gloss a violation applies (a guess: undecided) and its look-alike passes;
        # without it the violation passes in silence
        got = confirmed_answer(store, key, raw)
        assert got == (expected if gloss_on else "pass"), (case, got)
