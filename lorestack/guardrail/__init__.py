"""The decision guardrail: proposals, rules, the judge, client replies, pre-commit."""
