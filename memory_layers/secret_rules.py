"""The secret guard's rule table: provider token shapes and the contexts that mark a credential.

Written for lorestack, in our own words and patterns. The provider list follows the kinds
the trusted scanners cover (gitleaks' provider rules, detect-secrets' plugins, credsweeper's
rule set were the checklist): every shape here is a documented, prefix-anchored token
format, so a match is a credential with very few false positives. Rules that need context
(a keyword, a URL's userinfo, a header) live beside them; unanchored random tokens are left
to the entropy test in `secret_guard`.

Why not load a maintained rule file at run time: of the PyPI packages checked, credsweeper
ships its rules as YAML but pulls in ~30 dependencies (pandas, lxml, pdfminer, onnxruntime
model) and relies on its ML model to keep its keyword rules' false positives down; the
gitleaks wrappers ship the Go binary, not the rules; trufflehogregexes is unmaintained since
2018; detect-secrets (a dependency already) covers about 25 providers, returns some values
by prefix only and costs ~100 ms of imports. detect-secrets stays the reference:
tests/test_secret_corpus.py checks that whatever it catches in a note we catch too, and
`lorestack bench secrets --baseline` scores it on the same corpus.

A rule is data: a kind (what the redaction says), a pattern, the group whose span is the
secret (0 = the whole match), lower-case hints of which at least one must occur in the text
for the rule to be tried at all (the cheap pre-filter that keeps prose fast), and an optional
check on the matched value.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Rule:
    kind: str
    source: str
    group: int | str = 0
    hints: tuple[str, ...] = ()  # lower-case: matched in lowered text; else case-sensitive
    check: Callable[[re.Match[str]], bool] | None = None
    flags: int = 0

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        # compiled on first use: most rules never run on prose, and a hook pays for imports
        return re.compile(self.source, self.flags)

    def may_match(self, text: str, lower: str) -> bool:
        if not self.hints:
            return True
        return any(h in (text if h != h.lower() else lower) for h in self.hints)


def _r(
    kind: str,
    pattern: str,
    hints: str | tuple[str, ...],
    group: int | str = 0,
    check: Callable[[re.Match[str]], bool] | None = None,
    flags: int = 0,
) -> Rule:
    if isinstance(hints, str):
        hints = (hints,)
    return Rule(kind, pattern, group, tuple(hints), check, flags)


# a token may not continue a longer word on either side; on the left a '-' or '_' may glue
# it to a name (sess-ghp_..., prod_AKIA...): the prefixes are distinctive enough
_L = r"(?<![A-Za-z0-9])"
_R = r"(?![A-Za-z0-9_\-])"
# an AWS key id has a fixed length, so a name glued after it (AKIA...-prod, AKIA..._old)
# cannot be part of the key
_R_FIXED = r"(?![A-Za-z0-9])"

# ---- values that are not credentials ---------------------------------------------------
_PLACEHOLDER_WORDS = {
    "pw",
    "pwd",
    "user",
    "username",
    "true",
    "false",
    "none",
    "null",
    "nil",
    "undefined",
    "required",
    "optional",
    "changeme",
    "change-me",
    "changeit",
    "example",
    "redacted",
    "hidden",
    "secret",
    "password",
    "passwd",
    "pass",
    "token",
    "xxx",
    "todo",
    "tbd",
    "unset",
    "empty",
    "default",
    "string",
    "str",
    "env",
    "placeholder",
    "your-token",
    "your_token",
    "mypassword",
    "dummy",
    "sample",
    "test",
}
_PLACEHOLDER_SHAPE = re.compile(
    r"""^(?:
        \$\{?[A-Za-z_][\w.]*\}?          # $VAR, ${VAR}
      | \$\(.* | `.*                     # $(command), `command`
      | \{.*\}                            # {{ template }}, {name}, {f(x)}
      | <[^<>]*>                          # <your-token>
      | %\(?\w*\)?s                       # %s, %(pw)s
      | \[REDACTED[^\]]*\]?               # our own marker
      | ([*xX.#•_\-])\1{2,}               # ****, xxxx, ....
      | (?:your|my|the)[_\-]\w+           # your_api_key
      | [A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+     # an env variable's NAME, not its value
      | (?:process\.env|os\.environ|env|getenv|os\.getenv|secrets|vault|settings|config)\b.*
      | [A-Za-z_][\w.]*[(\[].*            # a call or a subscript: getpass(), t.Callable[...]
      | \(.*                              # an expression in parentheses
      | [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+   # attribute access: settings.SECRET_KEY
      | _*[a-z]+(?:_[a-z]+)+_*            # a snake_case name: a variable, not a value
      | [a-z]+(?:[A-Z][a-z]+)+            # a camelCase name
      | (?:[A-Z][a-z]+){2,}               # a PascalCase name
      | (?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-]*)*  # a path: /run/secrets/db, ~/.pgpass
    )$""",
    re.VERBOSE,
)


def is_placeholder(value: str) -> bool:
    v = value.strip().strip("'\"`").rstrip(".,;:)")
    v = re.sub(r"^(?:Bearer|Basic|Token|Bot)\s+", "", v)
    if not v:
        return True
    if v.lower() in _PLACEHOLDER_WORDS:
        return True
    if not _PLACEHOLDER_SHAPE.match(v):
        return False
    # a "path" with capitals and digits mixed through it is a base64 key that has slashes
    mixed = re.search(r"[A-Z]", v) and re.search(r"[a-z]", v) and re.search(r"[0-9]", v)
    return not (v[:1] in "/~." and mixed and len(v) >= 20)


def looks_like_password(value: str) -> bool:
    """Not a plain word: a digit, a symbol or a capital after the first letter."""
    v = value.strip("'\"`")
    return bool(re.search(r"[0-9]|[^A-Za-z]|.[A-Z]", v))


def _value_ok(group: int | str = "v", *, strict: bool = False) -> Callable[[re.Match[str]], bool]:
    def check(m: re.Match[str]) -> bool:
        value = m.group(group)
        if is_placeholder(value):
            return False
        return looks_like_password(value) if strict else True

    return check


def _basic_ok(m: re.Match[str]) -> bool:
    """`Basic xxx` carries base64 of `user:password`."""
    raw = m.group("v")
    try:
        decoded = base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


def _bearer_ok(m: re.Match[str]) -> bool:
    v = m.group("v")
    if is_placeholder(v):
        return False
    return len(v) >= 12 and bool(re.search(r"[0-9]", v)) and bool(re.search(r"[A-Za-z]", v))


# ---- provider tokens: documented prefixes and shapes -------------------------------------
PROVIDER_RULES: list[Rule] = [
    _r(
        "aws access key",
        _L + r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z2-7]{16}" + _R_FIXED,
        ("akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "aipa"),
    ),
    _r(
        "github token",
        _L + r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    _r(
        "gitlab token",
        _L + r"(?:gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent|ffct|wt)-[A-Za-z0-9_\-.]{20,}"
        r"|GR1348941[A-Za-z0-9_\-]{20,})",
        (
            "glpat-",
            "gldt-",
            "glptt-",
            "glrt-",
            "glcbt-",
            "gloas-",
            "glsoat-",
            "glft-",
            "glimt-",
            "glagent-",
            "glffct-",
            "glwt-",
            "gr1348941",
        ),
    ),
    _r("slack token", _L + r"xox[abposre]-[A-Za-z0-9\-]{10,}", "xox"),
    _r("slack token", _L + r"xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+", "xapp-"),
    _r(
        "slack webhook",
        r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+\-]{20,}",
        "hooks.slack.com",
    ),
    _r(
        "stripe key",
        _L + r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}",
        ("sk_live", "sk_test", "rk_live", "rk_test", "pk_live", "pk_test"),
    ),
    _r("stripe webhook secret", _L + r"whsec_[A-Za-z0-9]{24,}", "whsec_"),
    _r("api key", _L + r"sk-(?:[a-z]{2,8}-)*[A-Za-z0-9_\-]{20,}", "sk-"),
    _r("google api key", _L + r"AIza[0-9A-Za-z_\-]{35}", "aiza"),
    _r("google oauth secret", _L + r"GOCSPX-[A-Za-z0-9_\-]{20,}", "gocspx-"),
    _r("google oauth token", _L + r"ya29\.[0-9A-Za-z_\-]{20,}", "ya29."),
    _r("google refresh token", _L + r"1//0[0-9A-Za-z_\-]{30,}", "1//0"),
    _r(
        "private key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        "private key",
    ),
    _r(
        "putty private key",
        # the private half of a .ppk file (its public lines are public)
        r"Private-Lines:\s*\d+\s*\n(?:[A-Za-z0-9+/=]+\n)*[A-Za-z0-9+/=]*",
        "Private-Lines",
    ),
    _r("age secret key", _L + r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", "age-secret-key-"),
    _r("digitalocean token", _L + r"do[opr]_v1_[a-f0-9]{64}", ("dop_v1_", "doo_v1_", "dor_v1_")),
    _r(
        "shopify token",
        _L + r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + _R,
        ("shpat_", "shpss_", "shpca_", "shppa_"),
    ),
    _r("databricks token", _L + r"dapi[a-f0-9]{32}(?:-\d)?" + _R, "dapi"),
    _r("vault token", _L + r"hv[sbr]\.[A-Za-z0-9_\-]{24,}", ("hvs.", "hvb.", "hvr.")),
    _r(
        "vault token",
        r"(?i:vault)[^\n]{0,40}?" + _L + r"(?P<v>s\.[A-Za-z0-9]{24})" + _R,
        "vault",
        "v",
    ),
    _r("terraform token", _L + r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}", "atlasv1"),
    _r("npm token", _L + r"npm_[A-Za-z0-9]{36}" + _R, "npm_"),
    _r("pypi token", _L + r"pypi-AgE[A-Za-z0-9_\-]{50,}", "pypi-age"),
    _r("twilio api key", _L + r"SK[0-9a-fA-F]{32}" + _R, "SK"),
    # an account SID names the account the auth token unlocks; detect-secrets flags it too
    _r("twilio account sid", _L + r"AC[a-f0-9]{32}" + _R, "AC"),
    _r("sendgrid key", _L + r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}", "SG."),
    _r("mailgun key", _L + r"key-[0-9a-f]{32}" + _R, "key-"),
    _r("mailchimp key", _L + r"[0-9a-f]{32}-us\d{1,2}" + _R, "-us"),
    _r(
        "discord token",
        _L + r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}" + _R,
        ("M", "N", "O"),
    ),
    _r(
        "zapier webhook",
        r"https?://hooks\.zapier\.com/hooks/catch/\d+/[A-Za-z0-9]+/?",
        "hooks.zapier.com",
    ),
    _r("new relic license key", _L + r"[a-f0-9]{36}NRAL" + _R, "NRAL"),
    _r(
        "discord webhook",
        r"https?://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{30,}",
        "discord",
    ),
    _r("telegram bot token", r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_\-]{32,34}" + _R, ":aa"),
    _r("heroku key", _L + r"HRKU-[A-Za-z0-9_\-]{40,}", "hrku-"),
    _r("hugging face token", _L + r"(?:hf|api_org)_[A-Za-z]{30,}" + _R, ("hf_", "api_org_")),
    _r("linear key", _L + r"lin_(?:api|oauth)_[A-Za-z0-9]{32,}", "lin_"),
    _r(
        "notion token",
        _L + r"(?:secret_[A-Za-z0-9]{43}|ntn_\d{11}[A-Za-z0-9]{35})" + _R,
        ("secret_", "ntn_"),
    ),
    _r("postman key", _L + r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", "pmak-"),
    _r("doppler token", _L + r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{36,}", "dp."),
    _r("pulumi token", _L + r"pul-[a-f0-9]{40}" + _R, "pul-"),
    _r("sentry token", _L + r"(?:sntrys_[A-Za-z0-9+/=_\-]{40,}|sntryu_[a-f0-9]{64})", "sntry"),
    _r(
        "grafana token",
        _L + r"(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
        r"|eyJrIjoi[A-Za-z0-9+/=]{40,})",
        ("glc_", "glsa_", "eyjrijoi"),
    ),
    _r("new relic key", _L + r"NR(?:AK|JS|II|AA)-[A-Za-z0-9]{19,32}" + _R, "NR"),
    _r("atlassian token", _L + r"(?:ATATT3|ATCTT3)[A-Za-z0-9_\-=]{50,}", ("atatt3", "atctt3")),
    _r("bitbucket token", _L + r"ATBB[A-Za-z0-9_=.\-]{28,}", "atbb"),
    _r("circleci token", _L + r"CCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}", "ccipat_"),
    _r("dropbox token", _L + r"sl\.(?:u\.)?[A-Za-z0-9_\-]{100,}", "sl."),
    _r("cloudflare origin key", _L + r"v1\.0-[a-f0-9]{24}-[a-f0-9]{140,}", "v1.0-"),
    _r(
        "azure storage key",
        r"(?i:AccountKey)\s*=\s*(?P<v>[A-Za-z0-9+/]{80,}={0,2})",
        "accountkey",
        "v",
    ),
    _r("azure client secret", _L + r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}" + _R, "q~"),
    _r("azure sas signature", r"[?&]sig=(?P<v>[A-Za-z0-9%+/=]{30,})", "sig=", "v"),
    _r("supabase token", _L + r"sbp_(?:oauth_)?[a-f0-9]{40}" + _R, "sbp_"),
    _r("docker hub token", _L + r"dckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}", "dckr_"),
    _r("groq key", _L + r"gsk_[A-Za-z0-9]{48,}", "gsk_"),
    _r("xai key", _L + r"xai-[A-Za-z0-9]{60,}", "xai-"),
    _r("perplexity key", _L + r"pplx-[A-Za-z0-9]{40,}", "pplx-"),
    _r("replicate token", _L + r"r8_[A-Za-z0-9]{37}" + _R, "r8_"),
    _r("tavily key", _L + r"tvly-(?:dev-)?[A-Za-z0-9]{28,}", "tvly-"),
    _r("langsmith key", _L + r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", "lsv2_"),
    _r("figma token", _L + r"figd_[A-Za-z0-9_\-]{38,}", "figd_"),
    _r("planetscale token", _L + r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.=]{32,}", "pscale_"),
    _r("prefect key", _L + r"pnu_[A-Za-z0-9]{36}" + _R, "pnu_"),
    _r("rubygems key", _L + r"rubygems_[a-f0-9]{48}" + _R, "rubygems_"),
    _r("shippo token", _L + r"shippo_(?:live|test)_[a-f0-9]{40}" + _R, "shippo_"),
    _r("typeform token", _L + r"tfp_[A-Za-z0-9_\-.=]{50,}", "tfp_"),
    _r("clojars token", _L + r"CLOJARS_[a-z0-9]{60}" + _R, "clojars_"),
    _r(
        "square token",
        _L + r"(?:sq0atp-[A-Za-z0-9_\-]{22}|sq0csp-[A-Za-z0-9_\-]{43}|EAAA[A-Za-z0-9_\-+=]{60})",
        ("sq0atp-", "sq0csp-", "eaaa"),
    ),
    _r("facebook token", _L + r"EAA[A-Za-z0-9]{90,}", "EAA"),
    _r(
        "braintree token",
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",
        "access_token$",
    ),
    _r("mapbox token", _L + r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}", "sk.eyj"),
    _r(
        "tailscale key",
        _L + r"tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{20,}",
        "tskey-",
    ),
    _r("netlify token", _L + r"nfp_[A-Za-z0-9]{36}" + _R, "nfp_"),
    _r("1password token", _L + r"ops_eyJ[A-Za-z0-9+/=_\-]{100,}", "ops_eyj"),
    _r(
        "1password secret key",
        _L
        + r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
        "A3-",
    ),
    _r("alibaba key", _L + r"LTAI[A-Za-z0-9]{17,21}" + _R, "LTAI"),
    _r(
        "yandex key",
        _L
        + r"(?:AQVN[A-Za-z0-9_\-]{35,38}|YC[A-Za-z0-9_\-]{38}|t1\.[A-Z0-9a-z_\-]+={0,2}\.[A-Z0-9a-z_\-]{86,}={0,2})",
        ("AQVN", "YC", "t1."),
    ),
    _r(
        "twitter bearer token",
        _L + r"AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{30,}",
        "aaaaaaaaaaaaaaaaaaaaa",
    ),
    _r("artifactory token", _L + r"AKC[a-zA-Z0-9]{60,}" + _R, "AKC"),
    _r("jwt", _L + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", "eyj"),
    _r("infracost key", _L + r"ico-[A-Za-z0-9]{32}" + _R, "ico-"),
    _r("octopus key", _L + r"API-[A-Z0-9]{26}" + _R, "API-"),
    _r(
        "fly.io token",
        _L + r"(?:FlyV1 fm\d_[A-Za-z0-9+/=_\-,]{50,}|fo1_[A-Za-z0-9_\-]{43})",
        ("flyv1", "fo1_"),
    ),
    _r("flutterwave key", _L + r"FLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{32}-X", "flw"),
    _r("readme key", _L + r"rdme_[a-z0-9]{70}" + _R, "rdme_"),
    _r("easypost key", _L + r"EZ[AT]K[A-Za-z0-9]{54}" + _R, "EZ"),
    _r(
        "snyk / okta style token",
        r"(?i:okta|snyk)[^\n]{0,30}?[:=]\s*['\"]?(?P<v>[A-Za-z0-9_\-]{32,44})",
        ("okta", "snyk"),
        "v",
    ),
]

# Twilio: an auth token is 32 hex digits, which is also what an MD5 looks like; it counts
# only beside an account SID or the words that name it.
TWILIO_SID = re.compile(r"(?<![A-Za-z0-9])AC[a-f0-9]{32}(?![A-Za-z0-9])")
TWILIO_TOKEN = re.compile(r"(?<![A-Za-z0-9])[a-f0-9]{32}(?![A-Za-z0-9])")
TWILIO_WORDS = re.compile(r"(?i)twilio|auth[_\s\-]?token")
