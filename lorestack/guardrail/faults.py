"""Well-known faults whose fault is a detail of the code or the command: a bare `except:`, a
mutable default argument, a bare `# type: ignore`, `typing.Any`, a floating image tag, an
HTTP call without a timeout, print debugging, an N+1 query loop, an unsigned git tag, SQL
built by string formatting, blocking I/O in an async function, a click handler on a div, a
force push, a merge commit, a credential written as a literal, personal data in a log call,
a new datastore, a runtime dependency added by a command. Neither the rule's words nor the
sentence model see these (`FROM postgres` is far from "a floating tag").

Each entry: (what in the criterion's sentence names the fault, the fault's form in a
proposal, the SUBJECT's form — the code or command the fault is a detail of). It only
answers for a guessed reading and never blocks: the fault shows -> "applies, undecided";
the subject shows and the fault does not -> kept (a pass: `except FileNotFoundError:`
under "catch specific exceptions"). Nothing of it shows -> it says nothing. Written from
general knowledge of these code forms for the seventh tuning batch's misses
(tests/guardrail_tuning_batch7.py); measured switched off in docs/guardrail-log.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lorestack.guardrail.everyday_faults import everyday_fault

ENABLED = True

_DEF = r"^\s*(?:async\s+)?def\s+\w+\s*\("
_LOG = r"\b(?:logger|logging|log)\.(?:debug|info|warning|warn|error|exception|critical)\("
_IMAGE = r"^\s*(?:FROM|-?\s*image:)\s+"
_HTTP = r"\b(?:requests|httpx)\.(?:get|post|put|patch|delete|head|request)\("
_STORES = (
    "redis|mongo(?:db)?|cassandra|elasticsearch|opensearch|dynamodb|couchdb|neo4j|"
    "memcached|clickhouse|influxdb|mysql|mariadb|cockroachdb|scylladb|etcd|sqlite"
)
_MSG = r"\bgit\s+commit\b[^\n]*?\s-\w*m\s*['\"]"  # up to a commit message's first character
_SQL = r"\b(?:SELECT\b.*?\bFROM|INSERT\s+INTO|UPDATE\b.*?\bSET|DELETE\s+FROM|WHERE)\b"  # in a string
_DEP_CMD = r"\b(?:pip3?\s+install|uv\s+(?:add|pip\s+install)|poetry\s+add|npm\s+(?:install|i)|yarn\s+add|pnpm\s+add|cargo\s+add)\b"

# (label, sentence regex, fault regex, subject regex); regexes on the proposal run with re.M
_FAULTS: tuple[tuple[str, str, str, str], ...] = (
    ("a bare or swallowing except",
     r"(?i)\bbare\s+except|specific\s+exceptions|swallow\w*\s+exceptions|broad\s+exceptions",
     r"\bexcept\s*:|^\s*except\s*\(?\s*(?:Exception|BaseException)\b"
     r"|(?i:\bcatch(?:es|ing)?\s+(?:everything|anything|all\s+exceptions)\b)",
     r"^\s*except\b"),
    ("a mutable default argument", r"(?i)\bmutable\b[^.;]*\bdefault",
     r"\bdef\s+\w+\s*\([^)]*=\s*(?:\[\s*\]|\{\s*\}|set\(\)|dict\(\)|list\(\))"
     r"|(?i:\b(?:an?\s+)?(?:empty\s+)?(?:dict|list|set)\s+as\s+(?:its|the|a)\s+default\b)",
     _DEF),
    ("a bare type: ignore", r"(?i)type:\s*ignore",
     r"#\s*type:\s*ignore(?!\[)|(?i:\bblanket\s+(?:type[:\s]*)?ignore)",
     r"#\s*type:\s*ignore"),
    ("typing.Any", r"typing\.Any\b",
     r"(?::|->)\s*Any\b|\[Any\]|\bimport\s+(?:[\w, ]+,\s*)?Any\b|\bas\s+Any\b",
     _DEF + r"[^)]*:\s*\w"),
    # "pin a version or digest": a digest is one way, a fixed version another (a floating tag)
    ("an image not pinned by digest", r"(?i)(?<!version or )(?<!tag or )\bdigests?\b(?!\s+or\b)",
     _IMAGE + r"(?![^\n]*@sha256:)\S|(?i:\b(?:base|image)\b[^.;]*\b[a-z][\w./-]*:[\w.-]+\b)",
     _IMAGE + r"\S"),
    ("a floating image tag",
     r"(?i)\bimages?\b[^.;]*\b(?:pin\w*|floating|digest)\b|\b(?:pin\w*|floating)\b[^.;]*\bimages?\b"
     r"|\bpin\w*\s+(?:a\s+|to\s+a\s+)?(?:version|tag)\s+or\s+(?:a\s+)?digest\b",
     _IMAGE + r"(?![^\n]*@sha256:)[\w./-]+(?::(?:latest|lts|stable|edge|current|\d+))?\s*$"
     r"|(?i:\b[\w./-]+:(?:latest|lts|stable|edge)\b)",
     _IMAGE + r"\S"),
    ("an HTTP call without a timeout", r"(?i)\btimeouts?\b[^.;]*\b(?:http|call|request)|\b(?:http|call|request)\w*\b[^.;]*\btimeouts?\b",
     _HTTP + r"(?![^\n]*\btimeout\b)|(?i:\bas\s+long\s+as\s+it\s+takes\b|\bwithout\s+a\s+timeout\b)",
     _HTTP + r"|\burlopen\("),
    ("print debugging", r"(?i)\bprint\(\)|\bprints\b|\bprint\s+(?:statements?|debugging)",
     r"^\s*print\(|(?i:\b(?:leave|add|keep|put)\w*\s+(?:a\s+few\s+|some\s+)?prints\b)",
     _LOG + r"|^\s*print\("),
    ("a query per item in a loop", r"(?i)\bN\+1\b|\bquery\s+per\b|\bqueries\s+in\s+a\s+loop",
     r"^\s*for\s+\w+\s+in\s+[\w.]+\.objects\.(?:all|filter)\((?![^\n]*(?:select|prefetch)_related)"
     r"|(?i:\bown\s+query\b|\bquery\s+(?:per|for\s+each)\b|\bquery\b[^.;]*\binside\s+the\s+loop)",
     r"\.objects\.|\b(?:select|prefetch)_related\("),
    ("an unsigned tag", r"(?i)\btags?\b[^.;]*\b(?:signed|sign|gpg)\b|\bsign\w*\b[^.;]*\btags?\b",
     r"\bgit\s+tag\b(?![^\n]*\s(?:-[a-zA-Z]*[su]\b|--sign|--local-user|-d\b|-l\b))"
     r"|(?i:\blightweight\s+tag|\bunsigned\s+tag)",
     r"\bgit\s+tag\b"),
    ("SQL built by string formatting",
     r"(?i)\b(?:sql|quer(?:y|ies))\b[^.;]*\b(?:bound|parameters?|placeholders?|formatting|concatenat\w*|interpolat\w*)",
     r"\.execute\(\s*f['\"]|\.execute\([^)\n]*(?:%\s*\(|\.format\(|['\"]\s*\+)"
     # SQL built on a line of its own, then executed by name (fix28b: `sql = "… LIKE '%" + term`)
     r"|\bf(['\"])(?:(?!\1).)*" + _SQL + r"(?:(?!\1).)*\{"
     r"|(['\"])(?:(?!\2).)*" + _SQL + r"(?:(?!\2).)*\2\s*(?:\+|%\s*[(\w]|\.format\()"
     r"|(?i:\b(?:glue|concatenate|splice|paste|append)\w*\b[^.;]*\b(?:where|query|sql)\b)",
     r"\.execute\("),
    ("blocking I/O in an async function",
     r"(?i)\bevent\s+loop\b|\b(?:blocking|synchronous|sync)\s+(?:I/O|calls?)\b[^.;]*\basync\b",
     r"\basync\s+def\b[\s\S]*?(?:\brequests\.\w+\(|\bopen\(|\btime\.sleep\(|\burlopen\()"
     r"|(?i:\b(?:plain\s+open\(\)|requests\.\w+|time\.sleep)[^.;]*\basync\b)",
     r"\basync\s+def\b"),
    ("a click handler on a plain element",
     r"(?i)\bclick\s+handlers?\b|\bonclick\b|\breachable\s+by\s+keyboard",
     r"<(?:div|span|li|td)\b[^>]*\bonClick=|(?i:\bonClick\b[^.;]*\b(?:div|span)\b)",
     r"\bonClick="),
    ("a force push", r"(?i)\bforce[- ]push\w*|\brewrite\s+history",
     r"\bpush\b(?=[^\n]*\s(?:-[a-zA-Z]*f\b|--force))[^\n]*(?:\s|:|refs/heads/)(?:main|master|develop|release\S*)(?=\s*(?:$|[;&|)]))"
     # a `+` refspec forces that one ref (`git push origin +main`, `+HEAD:refs/heads/main`)
     r"|\bpush\b[^\n]*\s\+(?:\S*:)?(?:refs/heads/)?(?:main|master|develop|release\S*)(?=\s*(?:$|[;&|)]))"
     r"|(?i:\boverwrite\s+the\s+remote\b|\brewrite\s+(?:the\s+)?history\b)",
     r"\bgit\s+push\b"),
    ("a merge commit", r"(?i)\bmerge\s+commits?\b|\bsquash[- ]merg",
     r"\bgh\s+pr\s+merge\b(?![^\n]*--(?:squash|rebase)\b)|\bgit\s+merge\s+--no-ff\b"
     r"|(?i:\bwith\s+a\s+merge\s+commit\b)",
     r"\bgh\s+pr\s+merge\b|\bgit\s+merge\b"),
    ("a credential written as a literal",
     r"(?i)\b(?:credentials?|secrets?|passwords?|private\s+keys?)\b[^.;]*\b(?:repository|repo|commit\w*|code)\b",
     r"(?i)\b\w*(?:secret|password|passwd|token|api_?key)\w*\s*[:=]\s*['\"][^'\"\s]{8,}['\"]"
     r"|(?im:^\s*(?:export\s+)?\w*(?:secret|password|passwd|token|api_?key)\w*\s*[:=]\s*[\w!@#%^&*+/.~-]{4,}\s*$)",
     r"(?i)\b\w*(?:secret|password|passwd|token|api_?key)\w*\s*[:=]\s*\S"),
    ("personal data in a log call",
     r"(?i)\b(?:personal\s+data|pii|e-?mail\s+addresses|emails|phone\s+numbers?)\b[^.;]*\blog|\blog\w*\b[^.;]*\b(?:personal\s+data|pii|emails)\b",
     _LOG + r"[^\n]*\.(?:e_?mail|full_name|first_name|last_name|name|phone\w*|address|ssn|birth\w*)\b",
     _LOG),
    ("a commit message without the ticket key",
     r"(?i)\bcommit\s+messages?\b[^.;]*\b(?:ticket|jira|issue)\s+(?:keys?|ids?|numbers?)\b",
     _MSG + r"(?![A-Z][A-Z0-9]+-\d+\b)", _MSG),
    ("a commit subject that is no Conventional Commit", r"(?i)\bconventional\s+commits?\b",
     _MSG + r"(?!(?:feat|fix|docs|chore|refactor|test|perf|build|ci|style|revert)(?:\([^)]*\))?!?:)",
     _MSG),
    ("a commit subject over 50 characters",
     r"(?i)\bsubject\b[^.;]*\b(?:under|at\s+most|no\s+longer\s+than|max\w*)\s+50\b",
     _MSG + r"[^'\"\n]{51}", ""),  # the subject's other rules (its mood) are not read: never kept
    ("a new datastore",
     r"(?i)\bnew\s+(?:datastores?|data\s+stores?|databases?|storage\s+components?)\b",
     rf"(?i)\b(?:{_STORES})\b", ""),
    ("a runtime dependency",
     r"(?i)\b(?:new|add\w*|runtime)\b[^.;]*\bdependenc(?:y|ies)\b",
     _DEP_CMD + r"(?![^\n]*(?:--dev\b|-D\b|--group\s+dev|--save-dev|-r\s))",
     _DEP_CMD),
)


@dataclass(frozen=True)
class Fault:
    label: str
    shown: bool  # True: the fault shows; False: its subject shows and the fault does not
    line: str


@lru_cache(maxsize=512)
def _faults_of(sentence: str) -> tuple[tuple[str, str, str, str], ...]:
    return tuple(f for f in _FAULTS if re.search(f[1], sentence))


def _line(text: str, start: int) -> str:
    return text[text.rfind("\n", 0, start) + 1 :].split("\n", 1)[0].strip()


def judge_fault(sentence: str, text: str) -> Fault | None:
    """The fault the sentence names, shown in the proposal (or only its subject); None
    when the sentence names none of these faults or nothing of it shows."""
    if not ENABLED:
        return None
    found = _faults_of(sentence)
    for label, _, fault, _ in found:
        exempt = {w.lower() for w in re.findall(rf"(?i)\b(?:{_STORES})\b", sentence)}
        for m in re.finditer(fault, text, re.M):
            if label == "a new datastore" and m.group(0).lower() in exempt:
                continue  # a store the rule itself names as the one to use
            return Fault(label, True, _line(text, m.start()))
    everyday = everyday_fault(sentence, text)  # the same faults in everyday forms: only asks
    if everyday is not None:
        return Fault(everyday[0], True, _line(text, everyday[1]))
    for label, _, _, subject in found:
        hit = re.search(subject, text, re.M) if subject else None
        if hit is not None:
            return Fault(label, False, _line(text, hit.start()))
    return None
