"""Ebbinghaus forgetting: retention = exp(-age / strength), strength in days per type.

Access reinforces (each recall multiplies strength by 1 + access_boost, capped at
max_strength_factor). Strength 0 means the type never fades; caveats and human-confirmed
criteria never fade whatever the configuration says.
"""

from __future__ import annotations

import math
from datetime import datetime

from lorestack.core.settings import DecaySettings

FRESHNESS_DAYS = 30.0


def strength_days(item_type: str, settings: DecaySettings, access_count: int = 0) -> float:
    base = float(getattr(settings, item_type, 0.0) or 0.0)
    if base <= 0:
        return 0.0
    factor = min((1.0 + settings.access_boost) ** max(0, access_count), settings.max_strength_factor)
    return base * factor


def retention(item_type: str, updated: datetime, now: datetime, settings: DecaySettings, *,
              access_count: int = 0, last_access: datetime | None = None,
              human_confirmed: bool = False) -> float:
    """How much of the item is still 'remembered', in (0, 1]."""
    if item_type == "caveat" or (item_type == "criterion" and human_confirmed):
        return 1.0
    strength = strength_days(item_type, settings, access_count)
    if strength <= 0:
        return 1.0
    reviewed = max(updated, last_access) if last_access else updated
    age_days = max(0.0, (now - reviewed).total_seconds() / 86400.0)
    return math.exp(-age_days / strength)


def freshness(updated: datetime, now: datetime) -> float:
    """Plain recency, type-independent: newer information is more likely current."""
    age_days = max(0.0, (now - updated).total_seconds() / 86400.0)
    return math.exp(-age_days / FRESHNESS_DAYS)
