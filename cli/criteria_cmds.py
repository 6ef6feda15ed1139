"""`lorestack criteria test|edit`: author and try out decision criteria, and the draft
`remember --type criterion` prints."""

from __future__ import annotations

import click

from lorestack.cli.check_cmds import _proposal, _quiet_stdout, _repo_dir, diff_options
from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json, words_argument


@click.group()
def criteria():
    """Author and try out decision criteria."""


@criteria.command(name="test")
@click.argument("criterion_id")
@words_argument("text")
@click.option(
    "--file", "file", type=click.Path(dir_okay=False), help="Read the proposal from a file."
)
@diff_options
@click.option(
    "--llm/--no-llm", default=None, help="Ask the configured LLM when the rules cannot decide."
)
@click.option(
    "--confirm", is_flag=True, help="Then accept its reading as shown (see `criteria confirm`)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON.")
@click.pass_context
def criteria_test(ctx, criterion_id, text, file, diff_rev, staged, llm, confirm, as_json):
    """Show step by step how CRITERION_ID would judge a proposal (TEXT, '-' for stdin, --file,
    --diff or --staged; they combine as in `check`)."""
    from lorestack.guardrail.replies import describe
    from lorestack.guardrail.trace import test_criterion

    mem = open_memory(ctx)
    proposal = _proposal(text, file, diff_rev, staged, _repo_dir(mem))
    with _quiet_stdout():
        trace = test_criterion(mem, criterion_id, proposal, llm=llm)
    if confirm:
        from lorestack.guardrail.authoring import confirm_criterion

        confirm_criterion(mem, criterion_id)
    if as_json:
        emit_json(trace)
        return
    click.echo(f"{trace.id}: {trace.title}")
    if not trace.counts:
        click.echo(
            f"  status {trace.status}"
            + (f", superseded by {trace.superseded_by}" if trace.superseded_by else "")
            + ": `lorestack check` skips it"
        )
    for problem in trace.problems:
        click.echo(f"  problem: {problem}")
    _show_sentence(trace.sentence)
    rules = trace.rules
    if rules:
        click.echo(f"  judged by: {rules['judged_by']}")
        click.echo(f"  applies: {', '.join(rules['triggers']) or 'no'}")
        for ignored in rules["ignored_negated"]:
            click.echo(f"  ignored: {ignored}")
        click.echo(f"  rules: {rules['status']}: {rules['reason']}")
        if rules["quote"]:
            click.echo(f'  evidence: "{rules["quote"]}"')
    if trace.finding is not None:
        click.echo(describe(trace.finding))
    click.echo(f"would answer: {trace.verdict if trace.counts else 'nothing (skipped)'}")
    if confirm:
        click.echo(f"confirmed: {trace.id} now decides by the reading above")


def _show_sentence(sentence: dict | None) -> None:
    if sentence is None:
        return
    click.echo(f"  no stored terms: read from the sentence ({sentence['kind']})")
    for step in sentence["steps"]:
        click.echo(f"    {step}")
    for name in ("forbid", "require", "alternatives", "unless"):
        if sentence[name]:
            click.echo(f"    {name}: {' ; '.join(sentence[name])}")


def describe_draft(spec, drafted_by: str = "", item_id: str = "", sentence: str = "") -> list[str]:
    """What the guardrail understood of a criterion, and how to confirm or correct it (as
    `remember`, `criteria edit` and `criteria confirm` print it)."""
    from lorestack.guardrail.understood import understand

    return understand(spec, sentence or spec.condition, item_id).lines()


@criteria.command(name="edit")
@click.argument("criterion_id")
@click.option("--keyword", multiple=True, help="Replace the keywords it applies to (repeatable).")
@click.option("--applies-path", multiple=True, help="Replace the path globs it applies to.")
@click.option("--topic", multiple=True, help="Replace the topics it applies to.")
@click.option("--forbid", multiple=True, help="Replace the forbidden terms (repeatable).")
@click.option("--require", multiple=True, help="Replace the required terms (repeatable).")
@click.option("--unless", multiple=True, help="Replace the exempting terms (repeatable).")
@click.option("--verdict", type=click.Choice(["warn", "block"]), help="What a violation means.")
@click.option("--rationale", help="Why the rule exists.")
@click.option("--redraft", is_flag=True, help="Draft the terms again from the sentence.")
@click.option(
    "--clear-terms",
    is_flag=True,
    help="Drop forbid/require/unless: `check` then reads the sentence itself.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the edited criterion as JSON.")
@click.pass_context
def criteria_edit(
    ctx, criterion_id, keyword, applies_path, topic, forbid, require, unless, verdict,
    rationale, redraft, clear_terms, as_json,
):  # fmt: skip
    """Change what CRITERION_ID applies to, forbids, requires or exempts (given parts only)."""
    from lorestack.guardrail.authoring import edit_criterion

    mem = open_memory(ctx)
    with _quiet_stdout():
        edited = edit_criterion(
            mem,
            criterion_id,
            keywords=list(keyword) or None,
            paths=list(applies_path) or None,
            topics=list(topic) or None,
            forbid=list(forbid) or None,
            require=list(require) or None,
            unless=list(unless) or None,
            verdict=verdict,
            rationale=rationale,
            redraft=redraft,
            clear_terms=clear_terms,
        )
    if as_json:
        emit_json({"item": edited.item, "path": edited.path})
        return
    click.echo(f"edited criterion {edited.item.id} → {edited.path}")
    for line in describe_draft(edited.item.criterion, item_id=edited.item.id):
        click.echo(line)


@criteria.command(name="confirm")
@click.argument("criterion_id")
@click.option("--json", "as_json", is_flag=True, help="Print the confirmed criterion as JSON.")
@click.pass_context
def criteria_confirm(ctx, criterion_id, as_json):
    """Accept CRITERION_ID's drafted reading as shown: from now on it decides (blocks or
    warns as the criterion says) instead of answering "applies, undecided"."""
    from lorestack.guardrail.authoring import confirm_criterion

    mem = open_memory(ctx)
    confirmed = confirm_criterion(mem, criterion_id)
    if as_json:
        emit_json({"item": confirmed.item, "path": confirmed.path})
        return
    click.echo(f"confirmed criterion {confirmed.item.id} → {confirmed.path}")
    for line in describe_draft(confirmed.item.criterion, item_id=confirmed.item.id):
        click.echo(line)


COMMANDS = [criteria]
