"""Code said in words, for the sentence model: a criterion is written in words ("public
functions need a docstring", "commit messages …", "container base images …") and a
change shows code (`def retry(fn):`, `git commit -m '…'`, `FROM python:3.12`), which
all-MiniLM-L6-v2 reads as noise (cosine 0.00-0.20 to the rule it breaks). A line that has
one of these common forms also gets a gloss — what the line is, in the words a rule would
use, with the line's own names — compared as one more proposal unit. It only widens where
a criterion applies by meaning; it never makes a term, so it never decides a violation.
"""

from __future__ import annotations

import re

_NAME = r"[\w.\-/:@]+"
# (pattern, gloss template): the template's {0}, {1} … are the pattern's groups
_FORMS: list[tuple[re.Pattern[str], str]] = [
    # first: a lint rule switched off on a line says more than the line's own form
    (re.compile(r"(?:#|//|/\*)\s*(?:noqa|eslint-disable|pylint:\s*disable|rubocop:disable|nolint)\S*\s*(.*)|@SuppressWarnings\S*\s*(.*)"),
     "switch a lint rule off inline for this line {0}{1}"),
    # twenty-second session: forms whose meaning is in a flag or a value (`-f`, `+main`,
    # `--no-verify`, `-k`, `runAsUser: 0`, `>=0.27`, a licence id), read as what each does;
    # before the command's own form, which says less
    (re.compile(r"\bgit\s+push\b(?=[^\n]*\s(?:-[a-zA-Z]*f\b|--force))(.*)|\bgit\s+push\b([^\n]*\s\+\S+.*)"),
     "force push that overwrites the remote branch history {0}{1}"),
    (re.compile(r"\bgit\s+(?:commit|push|merge|am)\b[^\n]*?\s--no-verify\b(.*)"
                r"|\bgit\s+commit\b[^\n]*?\s-[a-zA-Z]*n[a-zA-Z]*\b(.*)"
                r"|\b(?:SKIP=\S+|HUSKY=0)\s+git\s+\w+(.*)"),
     "bypass the git hooks: skip the pre-commit and commit-msg hooks {0}{1}{2}"),
    (re.compile(r"\bcurl\b[^\n]*\s(?:-[a-zA-Z]*k[a-zA-Z]*|--insecure)\b|--no-check-certificate\b"
                r"|\bverify\s*=\s*False\b|\brejectUnauthorized\s*:\s*false\b|\bInsecureSkipVerify\s*:\s*true\b"
                r"|NODE_TLS_REJECT_UNAUTHORIZED\W+0\b|\bssl_?verify\W+false\b|_create_unverified_context\b"
                r"|\bCERT_NONE\b|\bcheck_hostname\s*=\s*False\b|--insecure-skip-tls-verify\b|\bstrict-ssl\W+false\b", re.I),
     "turn off TLS certificate verification: an insecure connection that trusts any certificate"),
    (re.compile(r"\brunAsUser\s*:\s*0\b|^\s*USER\s+(?:0|root)\b|^\s*user\s*:\s*['\"]?(?:0|root)\b"
                r"|\bdocker\s+run\b[^\n]*\s(?:--user[= ]|-u\s+)(?:0|root)\b"),
     "the container runs as the root user, superuser root (uid 0)"),
    (re.compile(r"\bprivileged\s*:\s*true\b|--privileged\b"),
     "privileged container, root access to the host"),
    # a literal port a server binds (`('127.0.0.1', 8081)`, `.listen(3000)`, `localhost:9000`)
    (re.compile(r"\(\s*['\"](?:[\d.]+|localhost|0\.0\.0\.0)?['\"]\s*,\s*([1-9]\d{1,4})\s*\)|\.listen\(\s*([1-9]\d{1,4})\b"
                r"|\blocalhost:([1-9]\d{1,4})\b"),
     "listen on the fixed hard-coded port {0}{1}{2}"),
    # a copyleft licence named in a line (an SPDX id, a comment beside a dependency)
    (re.compile(r"(?<![\w-])((?:A|L)?GPL(?:-?v?[23](?:\.[01])?)?(?:-only|-or-later|\+)?|GNU\s+(?:Affero|Lesser)?\s*General\s+Public\s+Licen[cs]e)(?![\w-])"),
     "copyleft licence {0} (GNU General Public License)"),
    # a requirement that allows a range of versions (`httpx>=0.27`, `"lodash": "^4.17"`,
    # `httpx = "*"`) or none at all written into a requirements file
    (re.compile(r"^\s*['\"]?([A-Za-z][\w.\-]*(?:\[[\w,.\-]+\])?)\s*((?:>=|~=|>|\^|~|<=|<)\s*v?\d[\w.*]*(?:\s*,\s*[<>!=]=?\s*[\d.*]+)*)['\"]?,?\s*(?:#.*)?$"
                r"|^\s*['\"]?([@\w][\w.\-/@]*)['\"]?\s*[:=]\s*['\"]((?:\^|~|>=|>)\s*v?\d[\w.]*)['\"],?\s*$"),
     "dependency {0}{2} with a version range {1}{3}, not pinned"),
    (re.compile(r"^\s*['\"]?([@\w][\w.\-/@]*)['\"]?\s*[:=]\s*['\"](?:\*|latest)['\"],?\s*$"),
     "dependency {0} with any version at all, always the latest, not pinned"),
    (re.compile(r"\becho\s+['\"]?([A-Za-z][\w.\-]*(?:\[[\w,]+\])?)['\"]?\s*>>?\s*\S*requirements[\w.\-]*\.(?:txt|in)\b"),
     "dependency {0} added to the requirements with no version"),
    # twenty-third session: forms behind silent passes the sentence model cannot read (a date
    # formatted by hand, UI text, an API route, a tab order, an intranet host, cleartext
    # HTTP), said as what each does
    (re.compile(r"(?:\.month|getMonth\(\)[^/]{0,6})\}?\s*/\s*\$?\{?[\w.]*(?:\.day|getDate\(\))"
                r"|%[md]/%[md]/%[Yy]"),  # year last: `%Y/%m/%d` is a storage path
     "a date formatted by hand as month/day/year"),
    (re.compile(r"\b(?:t|_|gettext|i18n\.t|\$t)\(\s*['\"][^'\"]*['\"]\s*\)\s*\+|\+\s*(?:t|_|gettext|i18n\.t|\$t)\(\s*['\"]"),
     "a sentence built by concatenating translated fragments with +"),
    # (the tags of translation files and a Markdown fold hold text where it belongs)
    (re.compile(r"<(?!(?:string|value|item|source|target|summary)\b)(\w+)[^<>]*>\s*([A-Z][a-z']*(?:\s+[\w',.!?]+)+)\s*</\1>"
                r"|\b(?:toast|alert|flash|notify|snackbar|messages)(?:\.\w+)?\(\s*(?:request\s*,\s*)?"
                r"['\"`]([A-Z][^'\"`{}]*\s[^'\"`{}]*)['\"`]"),
     "hard-coded user-facing text shown in the UI, untranslated: {1}{2}"),
    (re.compile(r"(?:@\w+\.(?:get|post|put|patch|delete|route)|\b(?:app|router)\.(?:get|post|put|patch|delete|route))"
                r"\(\s*['\"]/?api/(?!v\d)([^'\"]*)"),
     "HTTP endpoint {0} without a version prefix such as /v1/, an unversioned API route"),
    (re.compile(r"\btab[iI]ndex\s*=\s*\{?\s*['\"]?([1-9]\d*)"), "positive tabindex {0}, a custom keyboard tab order"),
    (re.compile(r"https?://([\w-]+(?:\.[\w-]+)*\.(?:internal|corp|intranet|lan)(?:\.[\w-]+)*)\b"),
     "link to the internal hostname {0} on the private network"),
    (re.compile(r"usesCleartextTraffic\W+true|cleartextTrafficPermitted\W+true|(?:NSAllowsArbitraryLoads|NSExceptionAllowsInsecureHTTPLoads)(?!\W*(?:</key>\s*)?<false)"),
     "allow cleartext HTTP traffic: unencrypted plain http connections"),
    (re.compile(r"^(?!.*(?:xmlns|\$schema|schemaLocation)).*?['\"]http://(?!localhost|127\.|0\.0\.0\.0|\[::1\]|schemas\.|www\.w3\.org)([\w-]+(?:\.[\w-]+)+)"),
     "plain http:// address {0}: unencrypted cleartext HTTP"),
    (re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\((.*)"), "new function {0} ({1}"),
    (re.compile(r"^\s*(?:export\s+)?(?:async\s+)?function\s+(\w+)\s*\((.*)"), "new function {0} ({1}"),
    (re.compile(r"^\s*class\s+(\w+)"), "new class {0}"),
    (re.compile(rf"^\s*FROM\s+({_NAME})(?!.*\simport\s)", re.I), "container base image {0}"),
    (re.compile(r"^\s*(ENV|ARG)\s+(\w+)", re.I), "container image build setting {1}"),
    (re.compile(r"^\s*RUN\s+(.*)"), "container image build step: {0}"),
    (re.compile(r"\bgit\s+commit\b.*?-\w*m\s+['\"]([^'\"]*)"), "commit message: {0}"),
    (re.compile(r"\bgit\s+tag\b(.*)"), "create release tag {0}"),
    (re.compile(r"\bgit\s+merge\s+(.*)"), "merge branch {0}"),
    (re.compile(r"\bgit\s+rebase\s+(.*)"), "rebase branch onto {0}"),
    (re.compile(r"\bgh\s+pr\s+create\b(.*)"), "open a pull request {0}"),
    (re.compile(r"\bgh\s+pr\s+merge\b(.*)"), "merge a pull request {0}"),
    (re.compile(r"\b(?:npm|yarn|pnpm)\s+(?:install|add|i)\s+(.*)"), "add JavaScript dependency {0}"),
    (re.compile(r"\b(?:pip|uv pip|poetry)\s+(?:install|add)\s+(.*)"), "add Python dependency {0}"),
    (re.compile(r"\bssh\s+(\S+)\s*(.*)"), "remote shell on server {0}: {1}"),
    (re.compile(r"\b(?:psql|mysql)\b.*?(?:-c|-e)\s+['\"]([^'\"]*)"), "run SQL on the database: {0}"),
    (re.compile(r"\bpg_dump\b(.*)"), "dump the database {0}"),
    (re.compile(r"\b(?:logger|logging|log)\.(?:debug|info|warning|warn|error|exception)\((.*)"),
     "write to the logs: {0}"),
    (re.compile(r"^\s*-?\s*alert:\s*(\w+)"), "monitoring alert {0}"),
    (re.compile(r"^\s*image:\s*(\S+)"), "service container image {0}"),
    (re.compile(r"^\s*version\s*[=:]\s*['\"]?([\w.\-]+)"), "package version number {0}"),
    (re.compile(r"^\s*#+\s*\[?v?(\d+\.\d+(?:\.\d+)?)\]?"), "release notes section of version {0}"),
    (re.compile(r"['\"]\s*%\s*[\w(]|['\"]\.format\("), "string formatting with % or str.format"),
    (re.compile(r"^\s*import\s+\w+\s+from\s+['\"]([^'\"]+)"), "import JavaScript library {0}"),
    (re.compile(r"#\s*type:\s*ignore\b(.*)"), "type checker ignore comment {0}"),
    # fifteenth session: commands and code forms the tuning batches' silent passes showed
    # (batches 1-13), from general knowledge of what each one does
    (re.compile(r"\bkubectl\s+(apply|set|edit|patch|delete|scale|rollout|run|exec|create)\b(.*)"),
     "change the Kubernetes cluster by hand with kubectl {0} {1}"),
    (re.compile(r"\bhelm\s+(install|upgrade|uninstall)\b(.*)"), "deploy to the cluster by hand with helm {0} {1}"),
    (re.compile(r"\bterraform\s+(apply|destroy|import)\b(.*)"), "terraform {0} of the infrastructure {1}"),
    (re.compile(r"\bgit\s+(?:checkout\s+-b|switch\s+-c|branch)\s+([^\s-]\S*)"), "new git branch named {0}"),
    (re.compile(r"\bgit\s+push\b(.*)"), "push commits to the remote repository {0}"),
    (re.compile(r"\b(?:twine\s+upload|npm\s+publish|poetry\s+publish|gem\s+push)\b(.*)"),
     "publish the package to a package registry {0}"),
    (re.compile(r"\bmvn\s+(.*)"), "Maven build {0}"),
    # twenty-first session: code forms behind the silent passes of batches 1-18, said as
    # what each form does (general knowledge of the form, never of a case)
    (re.compile(r"\bchmod\b.*?(?:\b0?o?777\b|\b[ao]\+w)"), "make files world-writable for everyone (777)"),
    (re.compile(r"\btraceback\.(?:format_exc|print_exc)\(|\.printStackTrace\(|\b(?:err|error|e)\.stack\b"),
     "the exception's stack trace"),
    (re.compile(r"\.(?:query|objects)\.all\(\)|\.fetchall\(\)"), "load every row of the table at once"),
    (re.compile(r"\b(?:random\.(?:random|randint|choice|shuffle|uniform)|Math\.random)\("), "random numbers from an unseeded generator"),
    (re.compile(r"\|\s*safe\b|\bmark_safe\(|autoescape\s+off|dangerouslySetInnerHTML|\.innerHTML\s*="),
     "insert content as raw HTML without escaping"),
    (re.compile(r"^\s*#[\w-]+\s*[{,]"), "CSS ID selector"),
    (re.compile(r"\bdatetime\.(?:now\(\)|utcnow\(\)|today\(\))"), "naive local time from the server clock"),
    (re.compile(r"^\s*@Autowired\b"), "field injection with @Autowired"),
    (re.compile(r"\bkey=\{(?:i|idx|index)\}"), "array index as the React list key"),
    (re.compile(r"\.timestamp\(\)|\btime\.time\(\)|\bDate\.now\(\)"), "Unix epoch timestamp number"),
    (re.compile(r"^\s*(?:_\s*=|\w+\s*,\s*_\s*:?=)"), "discard a result or error with the blank identifier _"),
    (re.compile(r"^\s*(?:#|//)\s*(?:for|if|while|return|def|else|elif|try)\b.*[:;{(]"), "commented-out code"),
    (re.compile(r"\bgit\s+filter-(?:repo|branch)\b|\bbfg\b"), "rewrite the git history"),
    # twenty-second session: an image named without a registry host is Docker Hub's
    (re.compile(r"\bdocker\s+push\s+(?:--?\S+\s+)*((?!localhost\b)[\w-]+(?:/[\w.-]+)?(?::[\w.-]+)?)(?=\s|$|;|&)"),
     "push container image {0} on Docker Hub, the public registry"),
    (re.compile(r"\bdocker\s+push\s+(\S+)"), "push container image {0} to a registry"),
    (re.compile(r"\bgo\s+get\s+(\S+)"), "add Go dependency {0}"),
    (re.compile(r"\bcreate-access-key\b"), "create a long-lived access key"),
    (re.compile(r"\b(?:deactivate|delete)-(?:virtual-)?mfa-device\b"), "turn off multi-factor authentication"),
    (re.compile(r"\bchmod\s+(.*)"), "change file permissions {0}"),
    (re.compile(r"\brm\s+-\w*r\w*\s+(.*)"), "delete files and folders recursively {0}"),
    (re.compile(r"\bslack\s+\w+\s+send\b.*?--channel\s+(\S+)(.*)"), "send a chat message to {0}: {1}"),
    (re.compile(r"\b(?:printenv|set\s+-x)\b"), "print the environment variables and commands to the log"),
    (re.compile(r"\b(?:pdb\.set_trace|breakpoint)\(\)|^\s*debugger\b\s*;?\s*$"), "debugger breakpoint left in the code"),
    (re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))"), "import Python library {0}{1}"),
    (re.compile(r"\bopen\((.*?),\s*['\"][wa]b?['\"]"), "write a file to the local disk {0}"),
    (re.compile(r"^\s*CREATE\s+TABLE\s+(\w+)", re.I), "new database table {0}"),
    (re.compile(r"^\s*ALTER\s+TABLE\s+(\w+)\s+(.*)", re.I), "change the database table {0}: {1}"),
    (re.compile(r"\bAddField\(\s*['\"](\w+)['\"],\s*['\"](\w+)"), "new database column {1} on {0}"),
    (re.compile(r"^\s*export\s+default\b(.*)"), "default export {0}"),
    (re.compile(r"\$\(['\"]([^'\"]+)['\"]\)"), "jQuery selector {0}"),
    (re.compile(r"^\s*kind:\s*(\w+)"), "Kubernetes {0} manifest"),
    (re.compile(r"@\w+\.(get|post|put|patch|delete)\(\s*['\"]([^'\"]+)"), "HTTP endpoint {0} {1}"),
    # twenty-third session, last (the specific cloud commands above say more): a cloud CLI
    # call that changes something
    # (not the CLI's own settings, a login, or a query: `gcloud config set`, `aws logs start-query`)
    (re.compile(r"\b(aws|gcloud|az)\s+(?!(?:config|configure|account|auth|login|logout|init|logs|athena|sts)\b)"
                r"((?:[\w-]+\s+){1,3}?)((?:create|delete|modify|put|update|authorize|revoke|"
                r"request|attach|detach|set|run|terminate|stop|start|disable|enable|add|remove|change|"
                r"patch|register|deregister|reboot|restore|associate|disassociate)[\w-]*)(.*)"),
     "change cloud resources by hand from the {0} command line: {1} {2} {3}"),
]
_IDENT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|_+")


def _words(text: str) -> str:
    """Identifiers as words: `cache_ttl_seconds` -> "cache ttl seconds"."""
    return " ".join(_IDENT.sub(" ", text).split())


def gloss(line: str) -> str | None:
    """What `line` is, in words, if it has a common code or command form; else None."""
    for pattern, template in _FORMS:
        m = pattern.search(line)
        if m:
            said = template.format(*(_words(g or "").strip() for g in m.groups()))
            return " ".join(said.split())[:200]
    return None


# what a changed file is, by its name, for the kinds of file a rule names as a tool or a
# format (a build file, a notebook, a config format, a migration); never a programming
# language's source file: a rule about Go or shell scripts would then apply to every change
# in that language (measured: "Go library packages return errors …" and "Install scripts
# must never call sudo" each lost a complying look-alike)
_FILE_KINDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(^|/)pom\.xml$"), "Maven build file"), (re.compile(r"\.tf$"), "Terraform configuration"),
    (re.compile(r"\.ipynb$"), "Jupyter notebook"), (re.compile(r"\.ya?ml$"), "YAML configuration file"),
    (re.compile(r"\.ini$"), "INI configuration file"), (re.compile(r"\.sql$"), "SQL file"),
    (re.compile(r"(^|/)migrations?/"), "database migration"),
    (re.compile(r"(^|/)Dockerfile"), "Dockerfile for a container image"),
    # twenty-second session: a package manager's own files, by name
    (re.compile(r"(^|/)Pipfile(\.lock)?$"), "Pipenv Pipfile"), (re.compile(r"(^|/)poetry\.lock$"), "Poetry lock file"),
    (re.compile(r"(^|/)yarn\.lock$"), "Yarn lock file"), (re.compile(r"(^|/)pnpm-lock\.yaml$"), "pnpm lock file"),
    (re.compile(r"(^|/)package-lock\.json$"), "npm lock file"), (re.compile(r"(^|/)Gemfile(\.lock)?$"), "Ruby Bundler Gemfile"),
    # twenty-third session: a CI service's own configuration, vendored code
    (re.compile(r"(^|/)\.travis\.ya?ml$"), "Travis CI pipeline configuration"),
    (re.compile(r"(^|/)\.circleci/"), "CircleCI pipeline configuration"),
    (re.compile(r"(^|/)Jenkinsfile$"), "Jenkins pipeline"), (re.compile(r"(^|/)\.gitlab-ci\.ya?ml$"), "GitLab CI pipeline"),
    (re.compile(r"(^|/)\.github/workflows/"), "GitHub Actions CI workflow"),
    (re.compile(r"(^|/)(?:vendor|third_party|third-party)/"), "vendored third-party library code"),
]


def path_gloss(path: str) -> str | None:
    """What a changed file is, in words, with its path's names: `legacy/billing/invoice.py`
    is no kind, `services/ledger/pom.xml` "Maven build file: services ledger pom xml"; else
    None."""
    kinds = [k for pattern, k in _FILE_KINDS if pattern.search(path)]
    if not kinds:
        return None
    names = _words(re.sub(r"[/.\-]+", " ", path))
    return " ".join(f"{', '.join(kinds)}: {names}".split())[:200]
