"""The number of examples a property test asks of hypothesis, by profile.

The suite loads the ``ci`` profile (tests/conftest.py); ``scripts/test --fast`` loads
``fast``, which bounds every test to the profile's count, including the tests that ask
for more than the default because their inputs are many (random games, names)."""

from __future__ import annotations

import os


def examples(wanted: int) -> int:
    """``wanted`` examples, or the ``fast`` profile's bound when that profile runs."""
    if os.environ.get("HYPOTHESIS_PROFILE") == "fast":
        return min(wanted, FAST_EXAMPLES)
    return wanted


FAST_EXAMPLES = 20
"""Examples per property test under the ``fast`` profile."""
