"""`memstrata bench …`: retrieval quality, latency and throughput benchmarks."""

from __future__ import annotations

import click


@click.group()
def bench():
    """Measure retrieval quality, latency and embedding throughput."""


COMMANDS = [bench]
