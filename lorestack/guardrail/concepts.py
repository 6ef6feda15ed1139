"""Concepts a rule names in words and a change shows in code: a sentence that names one
("runtime dependencies", "the real network", "a new storage component") also applies where
those spellings occur (applies-to keywords only — never a forbidden term). Written for the
tuning cases' misses (tests/guardrail_tuning_cases.py), from general knowledge.
"""

from __future__ import annotations

_CONCEPTS: dict[str, list[str]] = {
    "dependenc": ["pip install", "npm install", "yarn add", "poetry add", "install_requires",
                  "requirements.txt", "package.json", "cargo add", "go get", "dependencies", "pull in"],
    "network": ["http", "https", "requests.get", "requests.post", "urlopen", "socket",
                "httpx", "curl"],
    "storag": ["database", "cassandra", "postgres", "mysql", "mongodb", "mongo", "redis",
               "kafka", "dynamodb", "elasticsearch", "memcached", "rabbitmq", "queue"],
    "databas": ["cassandra", "postgres", "mysql", "mongodb", "redis", "dynamodb", "sqlite"],
    "pickl": ["pickle"],
    "unpickl": ["pickle"],
    "thread": ["threading", "thread"],
    "cron": ["crontab", "systemd timer"],
    "image": ["dockerfile", "from"],
    # written in the second session for the third tuning batch's misses
    "http": ["requests.get", "requests.post", "requests.put", "httpx", "urlopen", "fetch",
             "axios", "curl", "http.client"],
    "format": ["black", "ruff format", "prettier", "gofmt", "isort", "autopep8",
               "clang-format"],
    "telemetr": ["analytics", "usage", "tracking", "posthog", "segment", "mixpanel", "stats"],
    "languag": ["rust", "cargo", "kotlin", "scala", "elixir", "haskell", "zig", "swift",
                "typescript", "java"],
    "migration": ["migrations", "alembic", "removefield", "alterfield", "renamefield",
                  "drop column", "alter table", "rename column"],
    # written in the third session for the fourth tuning batch's misses
    "secret": ["password", "passwd", "credential", "credentials", "private key",
               "deploy key", "api key", "api_key", "secret_key", "access key"],
    "credential": ["password", "passwd", "private key", "deploy key", "api key", "api_key",
                   "secret_key", "access key"],
    "tls": ["verify false", "reject unauthorized", "insecure", "no check certificate",
            "check hostname false", "cert none"],
    "certificat": ["verify false", "reject unauthorized", "insecure",
                   "no check certificate", "check hostname false", "cert none"],
    "binar": ["whl", "jar", "exe", "dll", "dylib", "tar.gz"],
    "artefact": ["whl", "jar", "exe", "dll"],
    "artifact": ["whl", "jar", "exe", "dll"],
    "whitespace": ["indent", "re-indent", "reindent", "tabs to spaces", "trailing space"],
    "licen": ["gpl", "copied from", "copyright", "spdx"],
    "paste": ["copied from", "copy of", "taken from"],
    "region": ["us east", "us west", "ap southeast", "ap northeast", "ap south", "sa east",
               "ca central", "me south", "af south"],
}


def concept_keywords(words: list[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        for stem_, spellings in _CONCEPTS.items():
            if w.startswith(stem_):
                out.extend(s for s in spellings if s not in out)
    return out
