"""Concepts a rule names in words and a change shows in code: a sentence that names one
("runtime dependencies", "the real network", "a new storage component") also applies where
those spellings occur (applies-to keywords only — never a forbidden term). Written for the
tuning cases' misses (tests/guardrail_tuning_cases.py), from general knowledge.
"""

from __future__ import annotations

import re
from functools import lru_cache

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
    # the image a Dockerfile builds on is its FROM line, not the word "from" anywhere
    # (fourteenth session: "copy the wheels from the build stage" made it apply)
    "image": ["dockerfile", r"/^\+?\s*from\s+\S+(\s+as\s+\S+)?\s*$/"],
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


# Written in the twelfth session, from general knowledge, for rules that name a category
# where a proposal names a product of it ("a second queueing system" / RabbitMQ, "a search
# engine" / Elasticsearch, "another date library" / dayjs): the well-known members of
# each category, not only those of any tuning case. A spelling the rule itself names is
# never added (the one the rule chose: "Kafka is our one message broker").
CATEGORIES = True
_CATEGORIES: dict[str, list[str]] = {
    "broker": ["kafka", "rabbitmq", "amqp", "activemq", "nats", "sqs", "kinesis",
               "zeromq", "pub/sub", "service bus", "eventbridge"],
    "queu": ["kafka", "rabbitmq", "amqp", "activemq", "nats", "sqs", "kinesis",
             "zeromq", "pub/sub", "service bus", "celery", "dramatiq", "huey", "sidekiq",
             "resque"],
    "search": ["elasticsearch", "opensearch", "solr", "meilisearch", "typesense", "algolia",
               "lucene"],
    "cach": ["memcached", "redis", "hazelcast", "ehcache", "valkey", "keydb"],
    "orm$": ["peewee", "tortoise-orm", "pony.orm", "sqlmodel", "prisma", "typeorm", "sequelize",
             "hibernate", "gorm", "activerecord", "mongoengine", "sqlalchemy",
             "django.db"],
    "http$": ["aiohttp", "urllib3", "pycurl", "treq", "httplib2"],
    "date$": ["moment.js", "dayjs", "luxon", "date-fns", "pendulum", "js-joda"],
    "css-in-js": ["styled-components", "@emotion", "styled.", "jss", "stitches",
                  "vanilla-extract", "goober"],
    "redux": ["zustand", "mobx", "recoil", "jotai", "vuex", "pinia", "react-redux",
              "@reduxjs"],
    "tracing": ["ddtrace", "dd-trace", "newrelic", "new relic", "appdynamics", "dynatrace",
                "elastic-apm", "instana"],
    "analytic": ["gtag", "googletagmanager", "google analytics", "hotjar", "mixpanel",
                 "@amplitude", "posthog", "fbq", "facebook pixel", "clarity.ms"],
    "cdn": ["jsdelivr", "unpkg", "cdnjs", "fonts.googleapis", "fonts.gstatic",
            "ajax.googleapis", "code.jquery.com", "use.typekit"],
    "font": ["fonts.googleapis", "fonts.gstatic", "use.typekit", "fonts.bunny"],
    "mail": ["smtp", "sendgrid", "mailgun", "postmark", "mandrill", "sparkpost", "mailchimp"],
    "factor$": ["2fa", "two-factor", "mfa", "totp", "authenticator"],
    "dump": ["pg_dump", "mysqldump", "mongodump", "pg_dumpall"],
    "iam$": ["aws_iam_role", "aws_iam_policy", "aws_iam_role_policy", "aws_iam_user",
             "google_project_iam", "azurerm_role_assignment"],
    "singleton": ["_instance", "getinstance", "get_instance"],
    "storag": ["mariadb", "couchdb", "neo4j", "clickhouse", "influxdb", "cockroachdb",
               "scylla", "bigtable", "firestore", "opensearch", "solr", "nats", "sqs"],
    "databas": ["mariadb", "couchdb", "neo4j", "clickhouse", "influxdb", "cockroachdb",
                "scylla", "bigtable", "firestore", "mssql"],
    # fourteenth session, from general knowledge (the twelfth batch's categories)
    "logging$": ["loguru", "logbook", "structlog", "log4j", "logback", "winston", "pino",
                 "bunyan", "zerolog", "slf4j"],
    "framework$": ["vue", "svelte", "angular", "ember", "preact", "solid-js", "flask",
                   "sanic", "bottle", "tornado", "django", "rails", "nestjs", "fastapi"],
    "runner$": ["jest", "mocha", "jasmine", "karma", "vitest", "cypress", "playwright"],
    # Vite builds with Rollup (`rollupOptions` in every Vite config): Rollup by its config
    "bundler$": ["webpack", "parcel", "rollup.config", "@rollup", "esbuild", "vite",
                 "turbopack", "browserify", "snowpack"],
    "chart": ["chart.js", "d3", "highcharts", "echarts", "plotly", "recharts", "nivo",
              "apexcharts"],
    "icon": ["fontawesome", "@fortawesome", "react-icons", "heroicons", "lucide",
             "material-icons", "feather-icons", "ionicons"],
    "validation$": ["marshmallow", "cerberus", "jsonschema", "voluptuous", "schematics",
                    "zod", "yup", "joi", "ajv", "pydantic"],
    "tracking$": ["sentry", "bugsnag", "rollbar", "raygun", "honeybadger", "airbrake"],
    "monitoring$": ["prometheus", "grafana", "influxdb", "victoriametrics", "datadog",
                    "new relic", "zabbix", "nagios"],
    "sms$": ["twilio", "vonage", "nexmo", "plivo", "messagebird", "sinch"],
    "experiment": ["optimizely", "vwo", "growthbook", "statsig", "split.io", "eppo"],
    "serverless": ["aws_lambda_function", "lambda function", "cloud function",
                   "azure functions", "cloudflare workers", "chalice"],
    "websocket": ["socketio", "socket.io", "websockets", "pusher", "ably"],
    "graphql": ["strawberry", "graphene", "ariadne", "apollo", "hasura"],
    "vpn$": ["wireguard", "openvpn", "ipsec", "zerotier", "tailscale", "strongswan"],
}

# The Python (and a few JavaScript) client modules of category members, for diffs that
# only import them ("import pika" is RabbitMQ): client -> the product it is named after.
# A client of the product the rule itself chooses is that choice ("Kafka is our one
# broker": confluent_kafka complies), never added.
_CLIENTS: dict[str, dict[str, str]] = {
    "broker": {"pika": "rabbitmq", "aio_pika": "rabbitmq", "kombu": "amqp",
               "zmq": "zeromq", "pyzmq": "zeromq", "confluent_kafka": "kafka",
               "aiokafka": "kafka", "kafkajs": "kafka", "amqplib": "amqp"},
    "search": {"opensearchpy": "opensearch", "pysolr": "solr"},
    "cach": {"pymemcache": "memcached", "pylibmc": "memcached", "aiomcache": "memcached"},
    "mail": {"smtplib": "smtp", "aiosmtplib": "smtp", "nodemailer": "smtp"},
    "databas": {"pymongo": "mongodb", "psycopg": "postgres", "psycopg2": "postgres",
                "asyncpg": "postgres", "pymysql": "mysql", "aiomysql": "mysql",
                "mysqlclient": "mysql", "mysql.connector": "mysql"},
}
for _same in ("queu",):
    _CLIENTS[_same] = _CLIENTS["broker"]
_CLIENTS["storag"] = _CLIENTS["databas"]


def _stems():
    yield from ((stem_, spellings, False) for stem_, spellings in _CONCEPTS.items())
    if CATEGORIES:
        yield from ((stem_, spellings, True) for stem_, spellings in _CATEGORIES.items())


def _named(spelling: str, named: set[str], joined: str) -> bool:
    return spelling in named or _named_bare(spelling, joined)


def _clients(stem_: str, named: set[str], joined: str) -> list[str]:
    """The client modules of `stem_`'s members, but for the product the rule names."""
    return [c for c, product in _CLIENTS.get(stem_, {}).items()
            if not (_named(c, named, joined) or _named(product, named, joined))]


def _bare(text: str) -> str:
    return re.sub(r"[\s.\-_/@'()]+", "", text.lower().replace(".js", ""))


def _named_bare(spelling: str, joined: str) -> bool:
    bare = _bare(spelling)
    return len(bare) >= 4 and bare in joined


def concept_keywords(
    words: list[str], sentence: str = "", chosen: str | None = None, forbidden: tuple = ()
) -> list[str]:
    """Spellings of the concepts `words` name; a stem ending in '$' names a whole word
    (or its plural): 'orm$' is ORM, never 'format'. A category's member the sentence itself
    names (as a word) is the one the rule chose, never added. `chosen`: the sentence without
    what it forbids — a product named only there is no choice; one that is itself a
    `forbidden` term ("please don't add MySQL") brings its clients (fifteenth session)."""
    chosen = sentence if chosen is None else chosen
    named = set(re.findall(r"[a-z0-9][a-z0-9.\-/@]*[a-z0-9]", chosen.lower()))
    # another spelling of a member it names is the same choice ("New Relic" / newrelic,
    # "Moment" / moment.js): compared without separators and a '.js' ending
    joined = _bare(chosen)
    out = _forbidden_clients(forbidden, named, joined)
    for w in words:
        for stem_, spellings, category in _stems():
            whole = stem_.endswith("$")
            if w in (stem_[:-1], stem_[:-1] + "s") if whole else w.startswith(stem_):
                out.extend(
                    s for s in spellings if s not in out
                    and not (category and _named(s, named, joined))
                )
                if category:
                    out.extend(c for c in _clients(stem_, named, joined) if c not in out)
    return out


def _forbidden_clients(forbidden: tuple, named: set[str], joined: str) -> list[str]:
    """The client modules of a product that is itself a forbidden term ('added:mysql'),
    unless the rule also names it outside what it forbids (then it is its choice)."""
    terms = {re.sub(r"^(added|changed):", "", t.strip().lower()) for t in forbidden}
    return list(dict.fromkeys(
        client for clients in _CLIENTS.values() for client, product in clients.items()
        if product in terms and not _named(product, named, joined)
    ))


@lru_cache(maxsize=4096)
def category_members(sentence: str) -> frozenset[str]:
    """The spellings a rule reaches only as members of a category it names (a guess: the
    rule never names them): every category spelling and client that is not also a concept's
    spelling, less those the sentence itself names."""
    named = set(re.findall(r"[a-z0-9][a-z0-9.\-/@]*[a-z0-9]", sentence.lower()))
    joined = _bare(sentence)
    concept = {s for spellings in _CONCEPTS.values() for s in spellings}
    members = {s for spellings in _CATEGORIES.values() for s in spellings}
    members |= {c for clients in _CLIENTS.values() for c in clients}
    return frozenset(s for s in members - concept if not _named(s, named, joined))
