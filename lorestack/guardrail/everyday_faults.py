"""Well-known faults in the forms they take every day (issue 22, twenty-ninth session).

faults.py reads a rule that names a well-known fault and looks for the fault's form in a
proposal. Some faults are named in everyday words its sentence patterns do not know, and
show in forms no word of the rule occurs in, so nothing applied, or meaning applied and the
forbidden-act gate let the proposal pass (a line of YAML reads as noise to the model):

- an image deployed with the `latest` tag ("Never deploy images tagged :latest"): an
  `image:` line whose tag is `latest` or that has no tag, `kubectl set image … =repo:latest`;
- a secret shipped inside the app ("API keys never go into the app bundle"): a key, token or
  secret written as a literal in app code, in an Android string resource or an iOS plist, or
  "hard-code the … token into …" said in prose;
- a port open to the whole internet ("No SSH open to the world"): `0.0.0.0/0` (or `::/0`)
  together with the port the rule names (22 for SSH, 3389 for RDP, the usual port of a
  database it names);
- CORS open to every origin ("Never set CORS to allow any origin"): `allow_origins=['*']`,
  `origin: '*'`, `Access-Control-Allow-Origin: *`, "allow all origins";
- a list returned unbounded ("List endpoints must paginate"): a page size set to None, a
  whole queryset returned as the response, "return all … in one response";
- an outside call inside a database transaction ("Don't call external services inside a
  database transaction"): an HTTP or payment call indented under `with transaction.atomic()`,
  "send … from inside the … transaction";
- personal data copied raw ("Don't put raw email addresses or phone numbers into the
  warehouse; hash them first"): an email or phone field selected or copied on a line with no
  hashing or masking.

Each answers only for a guessed reading and only one way: the fault shows -> "applies,
undecided"; it never keeps a rule (no "only the subject shows" side), so it can only turn a
pass into a question, never a question into a pass.
"""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_IMAGE_LINE = r"^[ \t+-]*image:\s*['\"]?"
_SERVICE_PORTS = {
    "ssh": "22", "rdp": "3389", "remote desktop": "3389", "postgres": "5432",
    "postgresql": "5432", "mysql": "3306", "mariadb": "3306", "redis": "6379",
    "mongo": "27017", "mongodb": "27017", "elasticsearch": "9200", "memcached": "11211",
}
_WORLD = r"(?:0\.0\.0\.0/0|::/0)"
_HASHED = r"(?i)\b(?:sha\w*|hash\w*|md5|mask\w*|encrypt\w*|pseudonymi[sz]\w*|tokeni[sz]\w*|redact\w*)"

# (label, what in the criterion's sentence names it, the fault's form in a proposal (re.M))
_EVERYDAY: tuple[tuple[str, str, str], ...] = (
    ("an image deployed with the latest tag",
     r"(?i):latest\b|\blatest\s+(?:image\s+)?tags?\b|\btagged\s+(?:as\s+)?['\"`]?latest\b",
     _IMAGE_LINE + r"(?![^\n]*@sha256:)[\w./-]+(?::latest)?['\"]?\s*$"
     r"|\bkubectl\s+set\s+image\b[^\n]*=[\w./-]+:latest\b|--image[= ][\w./-]+:latest\b"
     r"|(?i:\b(?:deploy|ship|roll\s+out|release)\w*\b[^.;\n]*:latest\b)"),
    ("a secret shipped inside the app",
     r"(?i)\b(?:api\s+keys?|secret\s+keys?|(?:access|auth|api)\s+tokens?|secrets?|credentials?)\b"
     r"[^.;]*\b(?:app|apps|bundle[ds]?|client|frontend|mobile|binary|apk|ipa|shipped|embedded)\b",
     r"(?i)\b\w*(?:secret|password|token|api_?key)\w*\s*[:=]\s*['\"][^'\"\s]{12,}['\"]"
     r"|(?i:<string\s+name=['\"]\w*(?:secret|token|api_?key|password)\w*['\"][^>]*>[^<\s]{8,}</string>)"
     r"|(?i:<key>\w*(?:secret|token|api_?key|password)\w*</key>\s*<string>[^<\s]{8,}</string>)"
     r"|(?i:\bhard-?cod\w*\b[^.;\n]*\b(?:keys?|tokens?|secrets?|passwords?|credentials?)\b)"),
    ("a port open to the whole internet",
     r"(?i)\b(?:open|exposed?|reachable|accessible)\b[^.;]*\b(?:world|internet|public|everyone"
     r"|anyone|anywhere|any\s+ip)\b",
     ""),  # the form depends on the port the sentence names: _open_port
    ("CORS open to every origin",
     r"(?i)\bcors\b[^.;]*\b(?:any|all|every|wildcard)\b|\b(?:any|all|every)\s+origins?\b",
     r"\ballow_origins\s*=\s*\[\s*['\"]\*['\"]|\borigin\s*:\s*['\"]\*['\"]"
     r"|(?i:access-control-allow-origin['\"]?\s*[:,]\s*['\"]?\*)"
     r"|\bCORS_(?:ALLOW_ALL_ORIGINS|ORIGIN_ALLOW_ALL)\s*=\s*True\b"
     r"|(?i:\ballow\w*\s+(?:all|any|every)\s+origins?\b)"),
    ("a list returned unbounded",
     r"(?i)\bpaginat\w*|\bunbounded\s+(?:lists?|results?|queries|responses?)",
     r"(?i:\b\w*page_?size\w*\s*[:=]\s*(?:None|null|nil|0|-1|false)\b)"
     r"|\breturn\s+\w*Response\(\s*\[[^\]\n]*\.objects\.all\(\)"
     r"|(?i:\breturn\w*\s+(?:all|every)\b[^.;\n]*\b(?:in\s+one|at\s+once|in\s+a\s+single)\b)"),
    ("an outside call inside a database transaction",
     r"(?i)\b(?:external|remote|outside|third-party|network|http)\b[^.;]*\btransactions?\b",
     r"^([ \t+]*)with\s+(?:transaction\.atomic\(\)|\w+\.begin\(\)|\w+\.transaction\(\))[^\n]*:"
     r"[ \t]*\n(?:\1[ \t]+[^\n]*\n)*?\1[ \t]+[^\n]*\b(?:requests|httpx|stripe|boto3|smtplib"
     r"|urllib|send_mail|send_email)\b"
     r"|(?i:\b(?:send|call|post|charge|email|notify|fetch)\w*\b[^.;\n]*\b(?:inside|within|from\s+inside)"
     r"\b[^.;\n]*\btransactions?\b)"),
    ("personal data copied raw",
     r"(?i)\b(?:raw|plain(?:text)?|unhashed|unmasked)\s+(?:e-?mails?|e-?mail\s+addresses"
     r"|phone\s+numbers?|personal\s+data|pii)\b",
     r"(?im)^(?!.*" + _HASHED[4:] + r")[^\n]*(?:['\"](?:e_?mail|phone(?:_number)?)['\"]\s*:"
     r"|\bselect\b[^\n]*\b(?:e_?mail|phone(?:_number)?)\b)"),
)


def _open_port(sentence: str) -> str:
    """The fault's form for "… open to the world": the world's range together with a port
    the sentence names (`port 22`) or a service's usual port (SSH -> 22); '' for none."""
    ports = set(re.findall(r"(?i)\bports?\s+(\d{2,5})\b", sentence))
    low = sentence.lower()
    ports |= {p for name, p in _SERVICE_PORTS.items() if re.search(rf"\b{name}\b", low)}
    if not ports:
        return ""
    port = "|".join(sorted(ports))
    # within one block or one command: nothing between them closes it
    return (rf"(?<![\d.])(?:{port})(?![\d.])[^{{}}]{{0,240}}?{_WORLD}"
            rf"|{_WORLD}[^{{}}]{{0,240}}?(?<![\d.:/])(?:{port})(?![\d.])")


def everyday_fault(sentence: str, text: str) -> tuple[str, int] | None:
    """(the fault's label, where it shows in `text`) for a fault the sentence names in
    everyday words, or None."""
    if not ON:
        return None
    for label, named, form in _EVERYDAY:
        if not re.search(named, sentence):
            continue
        if label == "a port open to the whole internet":
            form = _open_port(sentence)
        m = re.search(form, text, re.M) if form else None
        if m is not None:
            return label, m.start()
    return None
