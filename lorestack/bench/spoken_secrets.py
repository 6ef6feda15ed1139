"""Passwords said in words: a labelled set written before the rules that catch them.

People type credentials into notes the way they say them: "Seth said the pw for the test box
is letmein123", "login for grafana: admin/admin123", "my password for the VPN is correct
horse battery staple". Each kind below has several phrasings; the value is drawn fresh for a
seed, so a rule cannot learn one string. The look-alikes talk about passwords, logins and
paths without holding one, and must pass.

`CREDENTIALS`/`LOOK_ALIKES` were scored once on the rules as they stood when the set was
written (`FIRST_RUN`), then used to write the rules: they are tuning cases now. `HELD_OUT_*`
was written after that, before any further rule change, and scored once (`HELD_OUT_FIRST_RUN`);
it is only reported, never tuned on. `lorestack bench secrets` reports both per kind.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from lorestack.bench.secret_corpus import Sample

# Scored once, before any rule for these kinds was written (seeds 1, 2 and 3 alike):
FIRST_RUN = "blocked 12/26 said-in-words credentials; 0/27 look-alikes flagged"

_SERVICES = ["the test box", "staging", "grafana", "the NAS", "jenkins", "the build server",
             "the office wifi", "prod db", "the VPN", "rabbitmq", "the router", "kibana"]
_USERS = ["admin", "deploy", "root", "ops", "seth", "ci-bot", "grafana", "svc_backup"]
_WORDS = ["correct", "horse", "battery", "staple", "purple", "monkey", "dishwasher", "orbit",
          "maple", "lantern", "quiet", "river", "copper", "violin", "tundra", "pepper"]
_BASES = ["letmein", "admin", "summer", "welcome", "dragon", "sunshine", "hunter", "qwerty"]


class _Values:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def weak(self) -> str:
        """What people actually pick: a word and a number, sometimes a capital or a mark."""
        base = self.rng.choice(_BASES)
        if self.rng.random() < 0.4:
            base = base.capitalize()
        return base + str(self.rng.randint(1, 9999)) + self.rng.choice(["", "", "!", "#"])

    def phrase(self) -> str:
        return " ".join(self.rng.sample(_WORDS, self.rng.randint(3, 4)))

    def service(self) -> str:
        return self.rng.choice(_SERVICES)

    def user(self) -> str:
        return self.rng.choice(_USERS)


# kind -> phrasings; {s} service, {u} user, {v} value (a weak password), {p} a passphrase
CREDENTIALS: dict[str, list[str]] = {
    "pw is": [
        "Seth said the pw for {s} is {v}",
        "pw for {s} is {v}, don't share it",
        "fyi the pw is {v}",
        "{s} pw: {v}",
    ],
    "pass is": [
        "pass for {s}: {v}",
        "the pass for {s} is {v}",
        "wifi pass is {v}",
    ],
    "password for X is": [
        "the password for {s} is {v}",
        "my password for {s} is {v}",
        "password on {s} was changed to {v} today",
        "password for the {u} account on {s} is {v}",
    ],
    "passwd/login is": [
        "passwd: {v}",
        "the login for {s} is {u} / {v}",
        "login for {s} is {u}, password {v}",
    ],
    "passphrase in words": [
        "my password for {s} is {p}",
        "the passphrase for {s} is {p}",
        "password is {p} (all lowercase)",
    ],
    "user/pass pair": [
        "login for {s}: {u}/{v}",
        "{s} creds {u}/{v}",
        "{s}: {u}/{v} works for now",
    ],
    "user:pass pair": [
        "{s} login is {u}:{v}",
        "use {u}:{v} for {s}",
        "creds for {s} are {u}:{v}",
    ],
    "login pair in prose": [
        "log into {s} as {u} with {v}",
        "{s} account {u}, password {v}",
        "sign in to {s} with {u} and {v}",
    ],
}

# must pass: they speak of passwords, logins and slashes without holding a credential
LOOK_ALIKES: dict[str, list[str]] = {
    "password policy": [
        "the password policy is 12 characters",
        "password length must be at least 14 now",
        "pw length is 10 minimum for contractors",
    ],
    "password how-to": [
        "reset your password at /account",
        "the password for {s} is stored in 1Password",
        "the password for {s} is in the vault under ops/staging",
        "password is required for the admin login",
        "my password for {s} expired again",
        "the pw reset flow is broken on {s}",
    ],
    "login how-to": [
        "login for {s} goes through SSO now",
        "login: use your GitHub account",
        "log into {s} as {u} with your ssh key",
        "sign in to {s} with Google and the hardware key",
    ],
    "paths and pairs": [
        "the admin/settings page moved",
        "see the admin/users endpoint for the list",
        "chown www-data:www-data on the upload folder",
        "the input/output ratio is 2:1",
        "client/server split stays as it is",
        "read/write access for {u} on {s}",
        "run it as {u}:{u} inside the container",
        "the ratio of deploy/rollback was 20:1 last month",
    ],
    "passing words": [
        "pass the --verbose flag to see it",
        "the test should pass on {s} now",
        "passes locally, fails on {s}",
        "we passed the audit for {s}",
        "credentials for {s} live in the secret manager",
        "the login page on {s} loads in 2 s",
    ],
}


# written after the rules for the set above, with phrasings that set does not use
HELD_OUT_CREDENTIALS: dict[str, list[str]] = {
    "password at/in a place": [
        "the wifi password at the office is {v} btw",
        "{u}'s password on the shared laptop is {v}",
        "root password is now {v}",
    ],
    "question and answer": [
        "db password? it's {v}",
        "pwd for the staging mysql: {v}",
    ],
    "passphrase in words": [
        "the VPN passphrase: {p}",
        "wifi password = {p}",
    ],
    "pairs": [
        "credentials: {u} / {v}",
        "jenkins login -> {u} / {v}",
        "ssh in as {u}, pw {v}",
        "{s} login {u} and password {v}",
    ],
}
HELD_OUT_LOOK_ALIKES: dict[str, list[str]] = {
    "talk about passwords": [
        "the password at the office changed last week",
        "{u}'s password on the shared laptop expired",
        "db password rotation is monthly",
        "the VPN passphrase lives in the team vault",
        "pwd prints the working directory",
    ],
    "pairs that are not credentials": [
        "root / home split is 50:50",
        "credentials: ask {u} on Slack",
        "ssh in as {u} with the usual key",
        "{s} login admin page is slow",
        "the root/src folder has 120 files",
        "use python3:latest for the image",
        "login v2/v3 flows are merged",
        "grant admin:read to the reporting role",
    ],
}
HELD_OUT_FIRST_RUN = "blocked 7/11, 0/13 look-alikes flagged (seeds 1-3 alike)"


@dataclass
class SpokenScore:
    blocked: int = 0
    credentials: int = 0
    flagged: int = 0
    look_alikes: int = 0
    per_kind: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind -> (hit, total)
    missed: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)


def generate(seed: int, held_out: bool = False) -> tuple[list[Sample], list[Sample]]:
    """(credentials, look-alikes) with values and names drawn for this seed."""
    rng = random.Random(seed)
    v = _Values(rng)
    creds = []
    cred_set, benign_set = ((HELD_OUT_CREDENTIALS, HELD_OUT_LOOK_ALIKES) if held_out
                            else (CREDENTIALS, LOOK_ALIKES))
    for kind, phrasings in cred_set.items():
        for phrasing in phrasings:
            value = v.phrase() if "{p}" in phrasing else v.weak()
            text = phrasing.format(s=v.service(), u=v.user(), v=value, p=value)
            creds.append(Sample(kind, text, value))
    benign = [Sample(kind, phrasing.format(s=v.service(), u=v.user()), "")
              for kind, phrasings in benign_set.items() for phrasing in phrasings]
    return creds, benign


def score(seed: int, entropy_threshold: float = 4.2, held_out: bool = False) -> SpokenScore:
    """How many credentials the guard refuses (and whose value redaction removes), how many
    look-alikes it flags, per kind."""
    from lorestack.memory_layers.secret_guard import find_secrets, redact

    creds, benign = generate(seed, held_out)
    out = SpokenScore(credentials=len(creds), look_alikes=len(benign))
    for sample in creds:
        found = find_secrets(sample.text, entropy_threshold)
        caught = bool(found) and sample.secret not in redact(sample.text, found)
        hit, total = out.per_kind.get(sample.kind, (0, 0))
        out.per_kind[sample.kind] = (hit + caught, total + 1)
        out.blocked += caught
        if not caught:
            out.missed.append(sample.text)
    for sample in benign:
        flagged = bool(find_secrets(sample.text, entropy_threshold))
        hit, total = out.per_kind.get(sample.kind, (0, 0))
        out.per_kind[sample.kind] = (hit + flagged, total + 1)
        out.flagged += flagged
        if flagged:
            out.false_positives.append(sample.text)
    return out
