"""A labelled corpus for the secret guard: credentials inside ordinary dev notes, and benign
look-alikes (digests, ids, identifiers, placeholders) that must pass.

Every value is generated fresh from `random.Random(seed)` in the provider's documented
shape, and every sample sits in one of several note templates, so a run measures the
detector on text it was not tuned on. The value shapes and the benign look-alikes are in
secret_shapes.py. `lorestack bench secrets` and tests/test_secret_corpus.py both use it.
"""

from __future__ import annotations

import base64
import random
import string
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from lorestack.bench.secret_shapes import (  # noqa: F401  (Sample is this module's too)
    AWS32,
    B62,
    B64,
    HEX,
    NOTE_WRAPPERS,
    URLSAFE,
    Sample,
    _Gen,
    benign_samples,
)


def _credentials(g: _Gen) -> dict[str, Callable[[], tuple[str, str]]]:
    """kind -> () -> (sentence, secret)."""
    s, mixed, pick = g.s, g.mixed, g.pick

    def pair(template: str, value: str) -> tuple[str, str]:
        return template.format(v=value), value

    return {
        "aws access key id": lambda: pair(
            "aws key id {v} is for the backup bucket",
            pick("AKIA", "ASIA") + s(16, string.ascii_uppercase + "234567"),
        ),
        "aws secret access key": lambda: pair("AWS_SECRET_ACCESS_KEY={v}", s(40, B64)),
        "github classic pat": lambda: pair("use {v} for the release workflow", "ghp_" + s(36)),
        "github oauth": lambda: pair("oauth token gho_ {v}", "gho_" + s(36)),
        "github fine-grained pat": lambda: pair(
            "export GH_TOKEN={v}", "github_pat_" + s(22) + "_" + s(59)
        ),
        "gitlab pat": lambda: pair("gitlab token is {v}", "glpat-" + s(20, URLSAFE)),
        "gitlab runner token": lambda: pair(
            "register the runner with {v}", "glrt-" + s(20, URLSAFE)
        ),
        "slack bot token": lambda: pair(
            "slack bot: {v}", f"xoxb-{s(12, string.digits)}-{s(13, string.digits)}-{s(24)}"
        ),
        "slack user token": lambda: pair(
            "my slack token {v}",
            f"xoxp-{s(12, string.digits)}-{s(12, string.digits)}-{s(13, string.digits)}-{s(32, HEX)}",
        ),
        "slack webhook": lambda: pair(
            "alerts go to {v}",
            f"https://hooks.slack.com/services/T{s(10, string.ascii_uppercase + string.digits)}/B{s(10, string.ascii_uppercase + string.digits)}/{s(24)}",
        ),
        "stripe secret key": lambda: pair("stripe key {v}", "sk_live_" + s(24)),
        "stripe restricted key": lambda: pair("reporting uses {v}", "rk_live_" + s(24)),
        "stripe webhook secret": lambda: pair("STRIPE_WEBHOOK_SECRET is {v}", "whsec_" + s(32)),
        "openai key": lambda: pair("openai: {v}", "sk-proj-" + s(48, URLSAFE)),
        "anthropic key": lambda: pair("claude key {v}", "sk-ant-api03-" + s(93, URLSAFE) + "AA"),
        "google api key": lambda: pair("maps key {v}", "AIza" + s(35, URLSAFE)),
        "google oauth client secret": lambda: pair(
            "oauth client secret for the web app: {v}", "GOCSPX-" + s(28, URLSAFE)
        ),
        "google oauth access token": lambda: pair(
            "bearer from gcloud: {v}", "ya29." + s(120, URLSAFE)
        ),
        "rsa private key": lambda: pair(
            "the deploy key:\n{v}",
            "-----BEGIN RSA PRIVATE KEY-----\n"
            + "\n".join(s(64, B64) for _ in range(4))
            + "\n-----END RSA PRIVATE KEY-----",
        ),
        "openssh private key": lambda: pair(
            "{v}",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
            + s(40, B64)
            + "\n"
            + s(70, B64)
            + "\n-----END OPENSSH PRIVATE KEY-----",
        ),
        "pgp private key": lambda: pair(
            "{v}",
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
            + s(64, B64)
            + "\n"
            + s(64, B64)
            + "\n-----END PGP PRIVATE KEY BLOCK-----",
        ),
        "age secret key": lambda: pair(
            "sops age key {v}",
            "AGE-SECRET-KEY-1" + s(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper()),
        ),
        "digitalocean token": lambda: pair(
            "doctl auth init with {v}", pick("dop_v1_", "doo_v1_") + s(64, HEX)
        ),
        "shopify token": lambda: pair(
            "shopify app uses {v}", pick("shpat_", "shpss_", "shpca_", "shppa_") + s(32, HEX)
        ),
        "databricks token": lambda: pair("databricks workspace token {v}", "dapi" + s(32, HEX)),
        "vault service token": lambda: pair("VAULT_TOKEN={v}", "hvs." + s(90, URLSAFE)),
        "vault batch token": lambda: pair("batch token for CI: {v}", "hvb." + s(120, URLSAFE)),
        "terraform cloud token": lambda: pair(
            "tfc token {v}", s(14) + ".atlasv1." + s(67, URLSAFE)
        ),
        "npm token": lambda: pair("//registry.npmjs.org/:_authToken={v}", "npm_" + s(36)),
        "pypi token": lambda: pair("twine password {v}", "pypi-AgEIcHlwaS5vcmc" + s(70, URLSAFE)),
        "twilio auth token": lambda: (lambda sid, tok: (f"twilio account {sid} auth {tok}", tok))(
            "AC" + s(32, HEX), s(32, HEX)
        ),
        "twilio api key": lambda: pair("twilio api key {v}", "SK" + s(32, HEX)),
        "sendgrid key": lambda: pair("sendgrid {v}", "SG." + s(22, URLSAFE) + "." + s(43, URLSAFE)),
        "mailgun key": lambda: pair("mailgun api {v}", "key-" + s(32, HEX)),
        "mailchimp key": lambda: pair(
            "mailchimp: {v}", s(32, HEX) + "-us" + str(g.rng.randint(1, 21))
        ),
        "discord bot token": lambda: pair(
            "discord bot token {v}",
            pick("M", "N", "O") + s(25, B62) + "." + s(6, URLSAFE) + "." + s(38, URLSAFE),
        ),
        "discord webhook": lambda: pair(
            "post releases to {v}",
            f"https://discord.com/api/webhooks/{s(18, string.digits)}/{s(68, URLSAFE)}",
        ),
        "telegram bot token": lambda: pair(
            "telegram bot {v}", f"{g.rng.randint(10**8, 10**10 - 1)}:AA{s(33, URLSAFE)}"
        ),
        "hugging face token": lambda: pair("HF_TOKEN={v}", "hf_" + s(34, string.ascii_letters)),
        "linear key": lambda: pair("linear api {v}", "lin_api_" + s(40)),
        "notion token": lambda: pair(
            "notion integration {v}", "ntn_" + s(11, string.digits) + s(35)
        ),
        "postman key": lambda: pair("postman {v}", f"PMAK-{s(24, HEX)}-{s(34, HEX)}"),
        "doppler token": lambda: pair("doppler service token {v}", "dp.st." + s(43)),
        "pulumi token": lambda: pair("PULUMI_ACCESS_TOKEN {v}", "pul-" + s(40, HEX)),
        "sentry auth token": lambda: pair("sentry-cli uses {v}", "sntryu_" + s(64, HEX)),
        "grafana service account": lambda: pair("grafana sa {v}", f"glsa_{s(32)}_{s(8, HEX)}"),
        "new relic key": lambda: pair(
            "newrelic user key {v}", "NRAK-" + s(27, string.ascii_uppercase + string.digits)
        ),
        "atlassian token": lambda: pair(
            "jira api token {v}", "ATATT3xFfGF0" + s(180, URLSAFE + "=")
        ),
        "docker hub pat": lambda: pair(
            "docker login -u ci --password-stdin <<< {v}", "dckr_pat_" + s(27, URLSAFE)
        ),
        "groq key": lambda: pair("groq {v}", "gsk_" + s(52)),
        "tailscale key": lambda: pair("tailscale up --authkey={v}", f"tskey-auth-{s(16)}-{s(33)}"),
        "azure storage key": lambda: pair(
            "DefaultEndpointsProtocol=https;AccountName=prodlogs;AccountKey={v};EndpointSuffix=core.windows.net",
            s(86, B64) + "==",
        ),
        "azure client secret": lambda: pair(
            "AZURE_CLIENT_SECRET={v}",
            s(3, URLSAFE) + str(g.rng.randint(0, 9)) + "Q~" + s(34, URLSAFE),
        ),
        "jwt": lambda: pair(
            "session cookie {v}",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + s(60, URLSAFE) + "." + s(43, URLSAFE),
        ),
        "postgres url": lambda: pair(
            "DATABASE_URL=postgres://app:{v}@db.internal:5432/app", g.password()
        ),
        "mysql url": lambda: pair("connect with mysql://root:{v}@10.0.0.12/shop", g.password()),
        "mongodb url": lambda: pair(
            "mongo is at mongodb+srv://svc:{v}@cluster0.ab12c.mongodb.net/prod", g.password()
        ),
        "redis url no user": lambda: pair(
            "cache: redis://:{v}@cache.internal:6379/0", g.password()
        ),
        "amqp url": lambda: pair("broker amqp://guest:{v}@rabbit:5672/", g.password()),
        "curl basic user": lambda: pair(
            "curl -u deploy:{v} https://ci.internal/api/json", g.password()
        ),
        "basic auth header": lambda: (
            lambda pw: (
                f"curl -H 'Authorization: Basic {base64.b64encode(f'admin:{pw}'.encode()).decode()}' https://api.internal",
                base64.b64encode(f"admin:{pw}".encode()).decode(),
            )
        )(g.password()),
        "bearer header": lambda: pair("Authorization: Bearer {v}", s(40, URLSAFE)),
        "prose password": lambda: pair(
            pick(
                "the staging password is {v}",
                "staging db password is {v} for now",
                "the admin password was reset to {v}",
            ),
            g.password(),
        ),
        "passphrase": lambda: pair(
            pick("passphrase: {v}", "the GPG passphrase is {v}"), g.password()
        ),
        "secret assignment": lambda: pair(
            pick("secret = {v}", "client_secret: {v}", 'JWT_SECRET="{v}"'), mixed(24)
        ),
        "env password": lambda: pair("DB_PASSWORD={v}", g.password()),
        "yaml password": lambda: pair("password: {v}", g.password()),
        "json api key": lambda: pair('{{"api_key": "{v}", "region": "eu"}}', mixed(32)),
        "password flag": lambda: pair("psql setup: createuser app --password {v}", g.password()),
        "mysql -p": lambda: pair("mysql -u root -p{v} shop < dump.sql", g.password()),
        "generic random token": lambda: pair(
            pick(
                "the webhook signing value is {v}",
                "partner key {v} (staging)",
                "use {v} as the shared key",
            ),
            mixed(g.rng.choice((24, 28, 32, 40))),
        ),
        "short key pw": lambda: pair("ssh deploy@bastion, pw: {v}", g.password()),
        "credential pair": lambda: pair("credentials admin/{v} for the router UI", g.password()),
        "aws secret in prose": lambda: pair(
            "aws secret {v} for the backup user",
            s(12, B62) + "/" + s(8, B62) + "/" + s(18, B62),
        ),
        "aws session token": lambda: pair("session token {v}", "FwoGZXIvYXdzE" + s(150, B64)),
        "api key as uuid": lambda: pair(
            "heroku api key {v}", str(uuid.UUID(int=g.rng.getrandbits(128)))
        ),
        "google app password": lambda: pair(
            "gmail app password: {v}", " ".join(s(4, string.ascii_lowercase) for _ in range(4))
        ),
        "redis-cli -a": lambda: pair("redis-cli -h cache.internal -a {v} ping", g.password()),
        "netrc": lambda: pair(
            "~/.netrc has machine api.heroku.com login ops@example.com password {v}", s(36, HEX)
        ),
        "hex api key in prose": lambda: pair("datadog api key: {v}", s(32, HEX)),
        "url query token": lambda: pair(
            "https://api.example.com/v1/export?format=csv&access_token={v}", s(32)
        ),
        # a token wrapped by a terminal or an editor when pasted: split by a line break
        "aws key wrapped": lambda: pair(
            "aws key id {v} is for the nightly export", g.wrapped("AKIA" + s(16, AWS32), 6)
        ),
        "github token wrapped": lambda: pair(
            "pasted from the settings page:\n{v}\nexpires in 30 days",
            g.wrapped("ghp_" + s(36), 8),
        ),
        "fine-grained pat wrapped twice": lambda: pair(
            "GH_TOKEN=\n{v}", g.wrapped("github_pat_" + s(22) + "_" + s(59), 10, every=40)
        ),
        # a key glued to a name by '-' or '_' (a cookie, a config key, a log field)
        "token glued after a name": lambda: pair(
            pick("cookie was sess-{v}", "logged cfg_{v} at start", "prod-{v} in the old env"),
            pick(
                "ghp_" + s(36),
                "AKIA" + s(16, AWS32),
                "glpat-" + s(20, URLSAFE),
                "sk_live_" + s(24),
            ),
        ),
    }


def generate(seed: int | None = None) -> tuple[list[Sample], list[Sample]]:
    """(credential samples, benign samples), one of each kind, values fresh from `seed`."""
    rng = random.Random(seed)
    g = _Gen(rng)
    creds = []
    for kind, make in _credentials(g).items():
        sentence, secret = make()
        creds.append(Sample(kind, rng.choice(NOTE_WRAPPERS).format(x=sentence), secret))
    benign = [
        Sample(kind, rng.choice(NOTE_WRAPPERS).format(x=make()), "")
        for kind, make in benign_samples(g).items()
    ]
    return creds, benign


@dataclass
class CorpusScore:
    seed: int
    credential_kinds: int
    benign_kinds: int
    blocked: int
    fully_redacted: int
    false_positives: int
    missed: list[str]
    leaked: list[str]
    flagged_benign: list[str]

    @property
    def blocked_pct(self) -> float:
        return 100.0 * self.blocked / max(1, self.credential_kinds)

    @property
    def false_positive_pct(self) -> float:
        return 100.0 * self.false_positives / max(1, self.benign_kinds)


def score(seed: int, entropy_threshold: float = 4.2) -> CorpusScore:
    """Blocked: the guard refuses the note. Fully redacted: no piece of the secret survives."""
    from lorestack.memory_layers.secret_guard import find_secrets, redact_all

    creds, benign = generate(seed)
    missed, leaked, flagged = [], [], []
    blocked = redacted = 0
    for sample in creds:
        if find_secrets(sample.text, entropy_threshold):
            blocked += 1
        else:
            missed.append(sample.kind)
            continue
        clean = redact_all(sample.text, entropy_threshold)[0]
        pieces = [p for p in sample.secret.replace("\n", " ").split() if len(p) >= 6]
        if any(p in clean for p in pieces) or any(
            sample.secret[i : i + 8] in clean for i in range(0, max(1, len(sample.secret) - 8), 4)
        ):
            leaked.append(sample.kind)
        else:
            redacted += 1
    for sample in benign:
        if find_secrets(sample.text, entropy_threshold):
            flagged.append(sample.kind)
    return CorpusScore(
        seed, len(creds), len(benign), blocked, redacted, len(flagged), missed, leaked, flagged
    )
