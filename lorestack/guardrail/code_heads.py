"""The word of a forbidden noun phrase that the sentence spells as code.

"Production code never calls the Redis KEYS command" drafts `redis keys command`, "Do not
use the deprecated componentWillMount lifecycle method" drafts `deprecated componentwillmount
lifecycle`, "no OFFSET past the first few pages" drafts `offset past first few pages`: whole
phrases that a violation's code (`redis.keys('session:*')`, `componentWillMount() {`,
`LIMIT 100 OFFSET %s`) never spells. The word the sentence itself writes as code — camelCase,
an upper-case keyword that is no common acronym, a dotted or underscored name, `@name`,
`<tag>` — is what the code shows, so it is a forbidden term of its own (with the phrase's
gate), unless it is one word of an upper-case run ("FOR UPDATE"). So is Y's of "use X instead
of Y" and "prefer X over Y" (never X's: SCAN in "Use SCAN instead of the Redis KEYS command" is
the way, not the fault). A phrase without such a word is left as it is: its head word alone
("logger", "promise", "image") names the rule's subject as often as what it forbids.
"""

from __future__ import annotations

import re

from lorestack.guardrail.value_words import keyed

# upper-case words people write in prose: they name a subject, not a code spelling
_ACRONYMS = frozenset(
    "api apis http https json csv sql url urls ci cd pr prs ui ux ide aws gcp iam sdk sdks "
    "cli orm tls ssl ssh dns pii gdpr vat xml yaml html css rest rpc grpc jwt mfa sms eu us "
    "utc iso db qa sla slo ios os cpu gpu ram id ids ip tcp udp cdn oss npm pdf png svg "
    "kpi crm erp hr it ai ml llm gpt saas aes rsa md sha otel smtp imap ftp sftp vpn "
    "ttl dns s3 ecr gke eks k8s cors csrf xss csp sso oauth ldap saml nfs ssd hdd".split()
)
_CODE_CHARS = re.compile(r"[_.@<>()#$]")
# a product's name in its brand's style, one lower-case letter before the capitals ("iOS",
# "iPhone", "eBay") or a system's "OS" after lower case ("macOS", "tvOS"): a name people
# write in prose, not a code spelling (twenty-ninth session, fix29: "Never submit an iOS build
# …" forbade 'ios' alone, and `cd ios && pod install` blocked once confirmed)
_BRAND = re.compile(r"[a-z][A-Z][A-Za-z]*|[a-z]+OS")
BRAND_NAMES = True


def _spelled_as_code(word: str, upper: bool = True) -> bool:
    if _CODE_CHARS.search(word):
        return True
    if re.search(r"[a-z][A-Z]", word):  # camelCase
        return not (BRAND_NAMES and _BRAND.fullmatch(word))
    if not upper:
        return False
    letters = re.sub(r"[^A-Za-z]", "", word)
    return len(letters) >= 3 and letters.isupper() and letters.lower() not in _ACRONYMS


def _in_caps_run(sentence: str, start: int, end: int) -> bool:
    """An upper-case word next to another ("FOR UPDATE", "GROUP BY"): one keyword of several
    words, which its last word alone does not spell."""
    before = sentence[:start].split()[-1:]
    after = sentence[end:].split()[:1]
    return any(len(w) > 1 and w.isupper() and w.isalpha() for w in before + after)


def code_heads(term: str, sentence: str, *, upper: bool = True) -> list[str]:
    """The words of a multi-word `term` that `sentence` writes as code; one written so only by
    upper case (KEYS) as a whole-word /regex/, so that `for key in …` is no hit by its stem.
    `upper=False`: not by upper case alone (a keyword: "KEYS" forbids `redis.keys(`, but
    "cart keys" in prose is no sign the rule applies), save the word in its own upper case,
    matched case-sensitively (nineteenth session: "Clear the sessions with KEYS session:*")."""
    words = term.split()
    if len(words) < 2:
        return []
    out = []
    for w in dict.fromkeys(words):  # each word once: a pasted policy repeats its words
        if not re.match(r"[a-z]", w):  # `-x` of `set -x`: a flag, not a name
            continue
        for m in re.finditer(r"[@<]?[\w.]*" + re.escape(w) + r"[\w.()>]*", sentence, re.I):
            token = m.group(0)
            if token.lower().strip("@<>().") == w.strip(".") and _spelled_as_code(token, upper):
                if _spelled_as_code(token, upper=False):
                    out.append(w)
                elif not _in_caps_run(sentence, m.start(), m.end()):  # KEYS: that word only,
                    out.append(rf"/\b{re.escape(w)}\b/")  # not `key` by its stem
                break
            if (not upper and token.isupper() and _spelled_as_code(token)
                    and not _in_caps_run(sentence, m.start(), m.end())):
                # a keyword: KEYS written as the sentence writes it ("with KEYS session:*"),
                # never "cart keys" in prose
                out.append(rf"/(?-i:\b{re.escape(token)}\b)/")
                break
    return keyed(words, out)  # 'true' of `privileged: true`: with its key (value_words.py)
