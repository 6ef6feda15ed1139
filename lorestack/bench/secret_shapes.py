"""The secret corpus's tools (value shapes, note wrappers) and its benign look-alikes:
digests, ids, identifiers and placeholders that a secret guard must let pass. The credentials
and the scoring are in secret_corpus.py.
"""

from __future__ import annotations

import random
import string
import uuid
from collections.abc import Callable
from dataclasses import dataclass

B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = B62 + "+/"
URLSAFE = B62 + "-_"
AWS32 = string.ascii_uppercase + "234567"


@dataclass(frozen=True)
class Sample:
    kind: str
    text: str
    secret: str  # the value that must not survive ("" for benign samples)


class _Gen:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def s(self, n: int, alphabet: str = B62) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def mixed(self, n: int, alphabet: str = B62) -> str:
        """Random, but with a capital, a small letter and a digit (as real generators ensure)."""
        while True:
            v = self.s(n, alphabet)
            if (
                any(c.isupper() for c in v)
                and any(c.islower() for c in v)
                and any(c.isdigit() for c in v)
            ):
                return v

    def password(self) -> str:
        words = ["river", "Falcon", "blue", "Tango", "maple", "Orbit", "cedar", "Nimbus"]
        shapes = [
            lambda: self.mixed(self.rng.randint(12, 20), B62 + "!#%^*-_"),
            lambda: (
                f"{self.rng.choice(words)}-{self.rng.randint(10, 9999)}-{self.rng.choice(words)}!"
            ),
            lambda: self.mixed(self.rng.randint(10, 16)),
        ]
        return self.rng.choice(shapes)()

    def pick(self, *options: str) -> str:
        return self.rng.choice(options)

    def wrapped(self, value: str, least: int, every: int = 0) -> str:
        """`value` broken by line breaks: every `every` characters, else once at random."""
        if every:
            return "\n".join(value[i : i + every] for i in range(0, len(value), every))
        cut = self.rng.randint(least, len(value) - 2)
        return value[:cut] + "\n" + value[cut:]


NOTE_WRAPPERS = [
    "{x}",
    "Note from standup: {x}",
    "{x} (ask Priya before rotating it)",
    "Deploy checklist, step 3: {x}",
    "- {x}",
    "TODO remove this later: {x}",
    "Blocked on staging yesterday, the fix was: {x}",
    "FYI {x} -- works from the VPN only",
]


def benign_samples(g: _Gen) -> dict[str, Callable[[], str]]:
    s, pick = g.s, g.pick
    return {
        "npm integrity sha512": lambda: f'"integrity": "sha512-{s(86, B64)}=="',
        "npm integrity sha1": lambda: f"integrity sha1-{s(27, B64)}=",
        "git sha": lambda: f"fixed in commit {s(40, HEX)}",
        "short git sha": lambda: f"reverted {s(7, HEX)} and {s(7, HEX)}",
        "uuid": lambda: f"tenant id {uuid.UUID(int=g.rng.getrandbits(128))}",
        "md5 checksum": lambda: f"md5 of the tarball is {s(32, HEX)}",
        "sha256 checksum": lambda: f"sha256sum: {s(64, HEX)}  release.tar.gz",
        "docker digest": lambda: f"image app@sha256:{s(64, HEX)}",
        "go.sum line": lambda: f"github.com/pkg/errors v0.9.1 h1:{s(43, B64)}=",
        "camelCase identifier": lambda: pick(
            "MyVeryLongComponentNameForTheDashboardView2024 renders slowly",
            "handleUserSessionRefreshTokenExpiry is called twice",
            "AbstractSingletonProxyFactoryBean2 is back",
        ),
        "snake_case identifier": lambda: (
            "test_checkout_handles_expired_payment_token_gracefully is flaky"
        ),
        "kebab id": lambda: (
            f"pod api-gateway-{s(10, HEX)}-{s(5, string.ascii_lowercase + string.digits)} restarted"
        ),
        "env var reference": lambda: pick(
            "DB_PASSWORD=${DB_PASSWORD}",
            "password: ${{ secrets.DB_PASSWORD }}",
            "export API_KEY=$API_KEY",
        ),
        "placeholder": lambda: pick(
            "OPENAI_API_KEY=<your-api-key>",
            "password: changeme",
            "token: xxxxxxxxxxxx",
            'api_key = "YOUR_API_KEY"',
            "password=********",
        ),
        "url without credentials": lambda: (
            "see https://github.com/org/repo/blob/main/src/app.py#L120"
        ),
        "postgres url no password": lambda: "DATABASE_URL=postgres://localhost:5432/app",
        "url with placeholder password": lambda: (
            "postgres://user:password@localhost/db in the README example"
        ),
        "prose about passwords": lambda: pick(
            "the password is required for the admin page",
            "the staging password is stored in 1Password",
            "password reset emails go through SES now",
            "passwords are hashed with argon2id",
        ),
        "prose about secrets": lambda: pick(
            "the secret is stored in vault",
            "set SECRET_KEY in the vault, never in code",
            "secret: sauce is caching",
            "rotate the client secret every 90 days",
        ),
        "prose about tokens": lambda: pick(
            "token: budget is 600 per prompt",
            "the token is valid for 3600 seconds",
            "max_tokens = 100000",
            "tokenizer = cl100k_base",
        ),
        "api key field docs": lambda: "the api_key field is required in config",
        "config key name": lambda: 'api_key_env = "OPENAI_API_KEY"',
        "semver and dates": lambda: (
            f"bumped to v{g.rng.randint(1, 9)}.{g.rng.randint(0, 30)}.{g.rng.randint(0, 99)} on 2024-05-{g.rng.randint(10, 28)}T10:00:00Z"
        ),
        "jira key": lambda: f"see PAY-{g.rng.randint(100, 9999)} and OPS-{g.rng.randint(10, 999)}",
        "aws arn": lambda: f"arn:aws:iam::{s(12, string.digits)}:role/deploy-role",
        "s3 url": lambda: f"s3://company-artifacts/builds/{s(8, HEX)}/app.zip",
        "email": lambda: "ping jane.doe@example.com about the quota",
        "ipv6": lambda: "fe80::1ff:fe23:4567:890a on the bastion",
        "file path": lambda: "/var/lib/postgresql/15/main/pg_wal/000000010000000000000042",
        "ssh public key": lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{s(43, B64)} jane@laptop",
        "rsa public key line": lambda: (
            f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{s(60, B64)} ci@runner"
        ),
        "certificate": lambda: (
            "-----BEGIN CERTIFICATE-----\n"
            + s(64, B64)
            + "\n"
            + s(64, B64)
            + "\n-----END CERTIFICATE-----"
        ),
        "public key": lambda: (
            "-----BEGIN PUBLIC KEY-----\n" + s(64, B64) + "\n-----END PUBLIC KEY-----"
        ),
        "ipfs cid": lambda: (
            "pinned at Qm" + s(44, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        ),
        "stripe object ids": lambda: f"refund for pi_{s(24)} on cus_{s(14)}",
        "data uri": lambda: f"icon: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{s(40, B64)}",
        "hex color and numbers": lambda: "use #1f2937 for the header; p95 went from 420ms to 180ms",
        "ethereum address": lambda: f"contract at 0x{s(40, HEX)}",
        "pgp fingerprint": lambda: " ".join(s(4, "0123456789ABCDEF") for _ in range(10)),
        "bcrypt cost": lambda: "bcrypt cost factor is 12; argon2 memory 64 MiB",
        "k8s secret ref": lambda: "secretKeyRef: name: db-credentials key: password",
        "password policy": lambda: "password_min_length = 12 and password_policy: strict",
        "lockfile resolved": lambda: (
            f'resolved "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz#{s(40, HEX)}"'
        ),
        "base32 lowercase id": lambda: f"job id {s(26, string.ascii_lowercase + '234567')}",
        "random word pairs": lambda: (
            "shipping notes: PaymentGatewayTimeoutRetryPolicy and OrderFulfillmentWorkerV2"
        ),
        "python import path": lambda: (
            "from lorestack.retrieval.render_context import normalise_block"
        ),
        "git branch": lambda: "branch feature/PAY-1234-retry-webhook-delivery-on-5xx merged",
        "url query no secret": lambda: (
            "https://example.com/search?q=redis+streams&page=2&sort=desc"
        ),
        "keyword with number": lambda: "token_count: 1532 and key_count = 87",
        "cli flag placeholder": lambda: "run `deploy --token $DEPLOY_TOKEN --env staging`",
        "base64 config blob": lambda: "kubectl get cm app -o yaml (the data is plain json)",
        "session id prose": lambda: "session key rotation is handled by the gateway",
        "youtube link": lambda: "demo at https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "license key wording": lambda: "MIT license; key points are in docs/adr/0007-auth.md",
        "bearer word prose": lambda: "we use bearer tokens from the identity service, not cookies",
        "google docs link": lambda: (
            f"spec: https://docs.google.com/document/d/1{s(43, URLSAFE)}/edit"
        ),
        "camel path": lambda: (
            "see src/components/UserProfileCard2024/index.tsx and pkg/apiV2Handlers"
        ),
        "login prose": lambda: pick(
            "login page redirects to /auth/callback",
            "credentials are in the team vault",
            "login via SSO/okta only",
        ),
        "github actions secret ref": lambda: "env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
        # line breaks between token-like pieces that are not one token
        "checksums one per line": lambda: "\n".join(
            f"{s(64, HEX)}  dist/pkg-{i}.tar.gz" for i in range(3)
        ),
        "commit list": lambda: "\n".join(s(40, HEX) for _ in range(4)),
        "hard-wrapped prose": lambda: (
            "the ghp_ prefix marks a classic token; AKIA marks an\nAWS key id and sk_live_\n"
            "a Stripe secret: rotate_the_staging_credentials\nbefore_the_freeze"
        ),
        "names glued by dashes": lambda: pick(
            "risk-assessment-template-for-the-payments-team",
            "task-skeleton-generator-config_v2",
            "desk_booking_service-ask_priya_first",
        ),
    }
