"""The secret guard's context rules: a credential recognised by what stands around it (a
keyword, a URL's userinfo, a header, a command-line flag, a password said in words), where the
value alone has no documented shape. Provider token shapes and the shared helpers live in
`secret_rules`; `ALL_RULES` is both tables, in the order the guard tries them.
"""

from __future__ import annotations

import re

from lorestack.memory_layers.secret_rules import (
    PROVIDER_RULES,
    Rule,
    _basic_ok,
    _bearer_ok,
    _r,
    _value_ok,
    is_placeholder,
    looks_like_password,
)

# ---- context rules: a keyword, a URL's userinfo, a header, a command-line flag -------------
_SECRET_WORD = (
    r"(?:(?<![A-Za-z])|(?-i:(?=[A-Z])))"
    r"(?:pass(?:word|wd|phrase|code)?|pwd|pw(?![a-z])|secret|token|api[_\-\s]?key|apikey|"
    r"access[_\-\s]?key|private[_\-\s]?key|client[_\-\s]?secret|auth[_\-\s]?token|"
    r"credentials?|session[_\-\s]?key|signing[_\-\s]?key|encryption[_\-\s]?key|"
    r"master[_\-\s]?key|secret[_\-\s]?key|bearer|pin)"
)
# a key that *names* such a thing but holds a count, a name or a place
_NOT_SECRET_KEY = re.compile(
    r"(?i)(?:tokens\b|tokeni[sz]|_?(?:count|len|length|limit|size|ttl|expiry|expires|timeout|"
    r"files?|paths?|names?|ids?|types?|env|url|endpoint|header|field|prefix|hint|policy|rotation|"
    r"min|max|budget|usage|encoding|format|details|dict)$|^(?:max|min|num|n)_|keyword|keyboard|"
    r"pass(?:ed|es|ing|age|ive|port|enger|through|over)|password_?(?:reset|policy|hash|strength|length))"
)

# a quoted value may hold spaces ("blue whale 42"); an unquoted one ends at a space or , ;
_VALUE = r"(?P<q>['\"`])?(?P<v>(?(q)[^'\"`\n]{4,200}?|[^\s'\"`,;]{4,200}))(?(q)(?P=q))"


# what joins a password word to its value in prose: "is", "was set to", "reads", a colon
_VERB = (r"(?:\s+(?:(?:was\s+|is\s+|has\s+been\s+)?(?:set|changed|reset|rotated|updated)\s+to|"
         r"(?:is|was)\s+(?:now|still)|is|was|are|as|=|reads|becomes)\s*:?\s+|\s*:\s*)")


def _assignment_ok(m: re.Match[str]) -> bool:
    key = m.group("key")
    value = m.group("v").rstrip(".,;:)")
    if _NOT_SECRET_KEY.search(key) or is_placeholder(value):
        return False
    password_key = bool(re.search(r"(?i)pass|pwd|pw\b|pin\b|passcode", key))
    if re.fullmatch(r"\d+(?:\.\d+)?", value) and not password_key:
        return False  # counts, prices, ports
    if re.fullmatch(r"[A-Z]?[a-z]+(?: [A-Z]?[a-z]+)*", value):
        # a plain word is a variable, a type or prose in code and notes; only a password field
        # holds one as a value ("password: correcthorsebattery")
        return password_key and len(value) >= 8 and value.lower() == value
    if m.group("q"):
        return True  # quoted values are deliberate
    plain_key = "_" not in key and not key.isupper() and "-" not in key
    if m.group("sep") in ("=", ":=") and not plain_key:
        return True
    return len(value) >= 6 and (looks_like_password(value) or not plain_key)


def _cred_pair_ok(m: re.Match[str]) -> bool:
    value = m.group("v").rstrip(".,;:)")
    return (
        not is_placeholder(value)
        and len(value) >= 6
        and bool(re.search(r"[0-9]", value))
        and bool(re.search(r"[A-Za-z]", value))
    )


def _prose_ok(m: re.Match[str]) -> bool:
    value = m.group("v").rstrip(".,;:)")
    if is_placeholder(value) or len(value) < 6:
        return False
    if re.fullmatch(r"[A-Z]?[a-z]+(?: [A-Z]?[a-z]+)*", value):
        return False  # "the token is tokens", "password is required"
    if m.group("bare") is not None:
        # "password Xk9#mQ2v" with no verb: a password noun, and a value that cannot be a word
        if not re.fullmatch(r"(?i)pass(?:word|wd|phrase|code)|pwd|pw", m.group("key")):
            return False
        if value.startswith("-") or "=" in value:
            return False  # "pass --strict", "password override=True"
        if m.group("q"):
            return True
        return (
            len(value) >= 8
            and bool(re.search(r"[0-9]", value))
            and bool(re.search(r"[A-Za-z]", value))
            and bool(re.search(r"[A-Z]|[^A-Za-z0-9]", value))
        )
    if m.group("q"):
        return True
    return looks_like_password(value) and not re.fullmatch(
        r"\d{1,5}(?:[.,]\d+)?%?|v?\d+(?:\.\d+)+", value
    )


CONTEXT_RULES: list[Rule] = [
    # KEY = value, KEY: value, "key": "value" (.env, YAML, JSON, code)
    _r(
        "secret assignment",
        r"(?i)(?<![A-Za-z0-9_\-.])(?P<key>[A-Za-z0-9_\-.]{0,40}?"
        + _SECRET_WORD
        + r"[A-Za-z0-9_\-]{0,40})['\"]?"
        r"[ \t]*(?P<sep>:=|=>|==|=|:)[ \t]*" + _VALUE,
        ("pass", "pw", "secret", "token", "key", "auth", "credential", "bearer", "pin"),
        "v",
        _assignment_ok,
    ),
    # prose: "the staging password is X", "passphrase: X", "the token was set to X"
    _r(
        "password in prose",
        r"(?i)\b(?P<key>"
        + _SECRET_WORD
        + r")s?\b"
        # "… for the test box is X": a place of up to six words, then a verb or a colon (never
        # the verb-less form, which would take the place's first word for the value)
        r"(?:\s+(?:for|of|on|to)\s+[\w.\-]+(?:\s+[\w.\-]+){0,6}?(?:\s*\([^()\n]{0,40}\))?" + _VERB
        + r"|(?:\s*\([^()\n]{0,40}\))?(?:" + _VERB + r"|\s+(?P<bare>)))" + _VALUE,
        ("pass", "pw", "secret", "token", "key", "credential", "pin"),
        "v",
        _prose_ok,
    ),
    # "credentials admin/S3cret!x", "login: deploy:Tr0ub4dor"
    _r(
        "password in prose",
        r"(?i)\b(?:creds|credentials|logins?)\b(?:\s+(?:for|on|to|of)\s+[\w.\-]+(?:\s+[\w.\-]+){0,3}?)?"
        r"\s*(?:are|is|:)?\s*(?P<u>[\w.\-@]{2,40})\s?[/:]\s?(?P<v>[^\s/'\"`,;]{6,64})",
        ("cred", "login"),
        "v",
        _cred_pair_ok,
    ),
    # scheme://user:password@host, including an empty user (redis://:pw@host); the password
    # runs to the last `@` before the host, as drivers split it (`p@ssw0rd` typed unescaped)
    _r(
        "password in url",
        r"(?i)\b[a-z][a-z0-9+.\-]{1,30}://(?P<u>[^\s:/@'\"`]*):(?P<v>[^\s/'\"`]{3,})@[^\s/@'\"`]",
        "://",
        "v",
        _value_ok(),
    ),
    # ?password=..., &token=...
    _r(
        "credential in url query",
        r"(?i)[?&;](?:password|passwd|pwd|pass|token|access_token|auth_token|api_?key|apikey|"
        r"secret|client_secret|private_token|key)=(?P<v>[^&\s#'\"]{6,})",
        ("pass", "pwd", "token", "key", "secret"),
        "v",
        _value_ok(),
    ),
    # Authorization: Basic / Bearer / Token ...
    _r(
        "basic auth header",
        r"\bBasic\s+(?P<v>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])",
        "basic",
        "v",
        _basic_ok,
        re.IGNORECASE,
    ),
    _r(
        "bearer token",
        r"(?i)\b(?:Bearer|token)\s+(?P<v>[A-Za-z0-9_\-.~+/]{12,}=*)",
        ("bearer", "token"),
        "v",
        _bearer_ok,
    ),
    _r(
        "authorization header",
        r"(?i)\b(?:authorization|x-api-key|api-key|x-auth-token|private-token|x-access-token)['\"]?\s*[:=]\s*['\"]?"
        r"(?:(?:Basic|Bearer|Token|Bot|Digest|ApiKey|SSWS)\s+)?(?P<v>[^\s'\"`]{8,})",
        ("authorization", "api-key", "auth-token", "private-token", "access-token"),
        "v",
        _bearer_ok,
    ),
    # curl -u user:password, --user user:password
    _r(
        "password on command line",
        r"(?:\s|^)(?:-u|--user|--proxy-user)[\s=]*['\"]?(?P<u>[^\s:'\"`]+):(?P<v>[^\s'\"`]{3,})",
        ("-u", "--user"),
        "v",
        _value_ok(),
    ),
    # --password X, --token=X, -pSECRET (mysql)
    _r(
        "password on command line",
        r"(?i)(?:\s|^)--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|auth-token)"
        r"(?:[ \t]+|=)['\"]?(?P<v>[^\s'\"]{4,})",
        ("pass", "token", "key", "secret"),
        "v",
        _value_ok(),
    ),
    _r(
        "password on command line",
        r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?\s-p(?P<v>[^\s'\"]{3,})",
        "mysql",
        "v",
        _value_ok(),
    ),
    _r(
        "password on command line",
        r"\b(?:docker|podman|nerdctl|helm|buildah|skopeo)\s+(?:registry\s+)?login\b[^\n]{0,200}?\s(?:-p|--password)[\s=]+['\"]?(?P<v>[^\s'\"]{3,})",
        "login",
        "v",
        _value_ok(),
    ),
    # a secret word followed by a long hex value: "signing secret 8f74…", "api key: 3b9a…"
    _r(
        "secret hex value",
        r"(?i)\b(?:secret|token|password|passphrase|api[\s_\-]?key|access[\s_\-]?key|auth[\s_\-]?key|"
        r"signing[\s_\-]?key|private[\s_\-]?key|master[\s_\-]?key|license[\s_\-]?key)s?\b[\s:=\-]{1,4}(?:is\s+)?['\"]?"
        r"(?P<v>[0-9a-fA-F]{32,128}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
        r"(?![0-9A-Za-z])",
        ("secret", "token", "pass", "key"),
        "v",
    ),
    # Google app passwords are shown as four groups of four letters
    _r(
        "app password",
        r"(?i)\bapp[\s_\-]?password\b\W{0,4}(?:is\s+)?['\"]?(?P<v>[a-z]{4}(?:\s?[a-z]{4}){3})\b",
        "password",
        "v",
    ),
    # redis-cli -a PASSWORD; .netrc "machine host login me password SECRET"
    _r(
        "password on command line",
        r"\bredis-cli\b[^\n]{0,200}?\s(?:-a|--pass)\s+['\"]?(?P<v>[^\s'\"]{3,})",
        "redis-cli",
        "v",
        _value_ok(),
    ),
    _r(
        "password in netrc",
        r"(?i)\bmachine\s+\S+(?:\s+login\s+\S+)?\s+password\s+(?P<v>\S{3,})",
        "machine",
        "v",
        _value_ok(),
    ),
    # ~/.pgpass lines: host:port:database:user:password
    _r(
        "password in pgpass",
        r"(?m)(?i:pgpass)[^\n]{0,200}?\s(?:[\w.\-*]+):(?:\d+|\*):(?:[\w.\-*]+):(?:[\w.\-*@]+):(?P<v>\S{4,})",
        "pgpass",
        "v",
        _value_ok(),
    ),
    _r(
        "password on command line",
        r"(?i)\b(?:sshpass\s+-p|htpasswd\s+-b\S*\s+\S+\s+\S+|PGPASSWORD=|MYSQL_PWD=)\s*['\"]?(?P<v>[^\s'\"]{3,})",
        ("sshpass", "htpasswd", "pgpassword", "mysql_pwd"),
        "v",
        _value_ok(),
    ),
]

# ---- passwords said in words --------------------------------------------------------------
# Words that start or fill a sentence about a password without being one: "the password is
# stored in the vault", "my password for the VPN expired again".
_NOT_A_PASSPHRASE = frozenset("""
a an the in on at to of for from by via with without under into onto out up down over not no
now still also just only same different too very quite stored kept saved managed rotated
expired required optional needed missing wrong broken changed reset shared written listed set
available invalid weak strong long short ok okay there here it that this
these those what which who whom when where how why be been being is are was were will would
should could can may might must has have had our your my their his her its we you they them us
and or but if then so than as because while until unless please same usual default new old
""".split())
# user names that mark a `user/secret` or `user:secret` pair wherever it stands
_ADMIN_USERS = (r"(?:admin|administrator|root|deploy|deployer|ops|guest|ubuntu|postgres|sa|pi|"
                r"ec2-user|elastic|jenkins|grafana|ci|svc[_\-]\w+|[\w\-]+-bot|[\w\-]+bot)")


# what stands before a slash in a branch name or a path, never a user
_NOT_USERS = frozenset("feature features fix fixes bugfix hotfix release releases src lib docs "
                       "doc test tests app apps api main master dev develop origin refs heads "
                       "tags remotes upstream chore ci build dist assets static public read input".split())


def _passphrase_ok(m: re.Match[str]) -> bool:
    words = m.group("v").lower().split()
    return 3 <= len(words) <= 6 and not any(w in _NOT_A_PASSPHRASE for w in words)


def _mixed_ok(m: re.Match[str]) -> bool:
    """A value that holds letters and a digit, and is no path, version or file name."""
    value = m.group("v").rstrip(".,;:)!")
    return (_cred_pair_ok(m) and not re.search(r"[./\\]", value)
            and not re.fullmatch(r"v?\d+(?:[.\-]\d+)*[a-z]?", value, re.I))


def _set_to_ok(m: re.Match[str]) -> bool:
    """A value a password was set to: quoted, or not a word, a number or a version."""
    value = m.group("v").rstrip(".,;:)")
    if is_placeholder(value) or len(value) < 6:
        return False
    if m.group("q"):
        return True
    return looks_like_password(value) and not re.fullmatch(
        r"[A-Za-z]+|\d+(?:[.,]\d+)?%?|v?\d+(?:\.\d+)+", value)


SPOKEN_RULES: list[Rule] = [
    # "my password for the VPN is correct horse battery staple"
    _r(
        "password in prose",
        r"(?i)\b(?:pass(?:word|phrase)?|pw)\b(?:\s+(?:for|of|on|to)\s+[\w.\-]+(?:\s+[\w.\-]+){0,5}?)?"
        r"\s+(?:is|was|=|:)\s*:?\s+(?P<v>[a-z]{3,12}(?:[ \t]+[a-z]{3,12}){2,5})"
        r"(?=\s*$|\s*[.,;!(\n]|\s+(?:and|but|so)\b)",
        ("pass", "pw"),
        "v",
        _passphrase_ok,
    ),
    # "login for X is admin, password sunshine3136", "account ops, password welcome7010"
    _r(
        "password in prose",
        r"(?i)\b(?:logins?|account|user(?:name)?)\b[^\n.;]{0,50}?,?\s+(?:and\s+)?"
        r"(?:pass(?:word|wd)?|pw)\s*:?\s+['\"]?(?P<v>[^\s'\"`,;]{6,64})",
        ("login", "account", "user"),
        "v",
        _mixed_ok,
    ),
    # "admin/admin123", "deploy:Tr0ub4dor" beside a user name that marks it
    _r(
        "password in prose",
        r"(?i)(?<![\w/.\-])" + _ADMIN_USERS + r"\s?[/:]\s?(?P<v>[^\s/'\"`,;]{6,64})",
        ("admin", "root", "deploy", "ops", "guest", "ubuntu", "postgres", "sa", "pi", "elastic",
         "jenkins", "grafana", "ci", "svc", "bot"),
        "v",
        _mixed_ok,
    ),
    # "login for X is admin / summer2024", "X creds deploy/Tr0ub4dor", "use ops:admin7422 for X"
    _r(
        "password in prose",
        r"(?i)\b(?:logins?|creds|credentials|account|use|user(?:name)?)\b[^\n.;]{0,50}?"
        r"(?<![\w/.\-])(?P<u>[A-Za-z][\w.\-@]{1,30})\s*[/:]\s*(?P<v>[^\s/'\"`,;]{6,64})",
        ("login", "cred", "account", "use"),
        "v",
        _mixed_ok,
    ),
    # "prod db: seth/qwerty4188": a place, a colon, then user/secret (not a branch or a path)
    _r(
        "password in prose",
        r"(?i)\b[\w.\-]+(?:[ \t][\w.\-]+)?:[ \t]+(?P<u>[a-z][\w.\-]{1,30})/(?P<v>[^\s/'\"`,;]{6,64})",
        ":",
        "v",
        lambda m: _mixed_ok(m) and m.group("u").lower() not in _NOT_USERS,
    ),
    # "changed the db password to X", "reset the staging pw to 'X'": the verb before the noun
    _r(
        "password in prose",
        r"(?i)\b(?:set|changed?|reset|rotated?|updated?)\b[^\n.;]{0,40}?\b"
        r"(?:pass(?:word|phrase)|pwd|pw|secret|token|api[_\-\s]?key)\s+to\s+" + _VALUE,
        ("set", "chang", "reset", "rotat", "updat"),
        "v",
        _set_to_ok,
    ),
    # "log into X as seth with Summer8641", "sign in to X with seth and Letmein5626#"
    _r(
        "password in prose",
        r"(?i)\b(?:log(?:ged)?\s*(?:in|on)(?:to)?|sign(?:ed)?\s+(?:in|on)(?:\s+to)?)\b[^\n.;]{0,60}?"
        r"\b(?:with|using)\s+(?:[\w.\-@]+\s+(?:and|/)\s+)?['\"]?(?P<v>[^\s'\"`,;]{6,64})",
        ("log", "sign"),
        "v",
        _mixed_ok,
    ),
]

ALL_RULES: list[Rule] = PROVIDER_RULES + CONTEXT_RULES + SPOKEN_RULES
