"""The ``experto`` robot: search by sampling and play-outs — and ``omnisciente``.

For each decision ``experto`` deals the cards it cannot see at random,
consistently with its view (cards played, voids shown), by the compiled kernel
(:mod:`espadas.robots.kernel`), and weighs each deal by soft evidence: how well
it fits the bids made, read as ``normal`` makes them (``BID_SIGMA``), and the
cards the others played (the hand is replayed with the play-out policy; each
card it would not have played costs a factor ``MISS``, ``MISS_PARTNER`` for the
partner's). It draws ``OVERSAMPLE`` times the deals it needs and keeps them in
proportion to these weights. It then plays every candidate action out to the end of the
hand many times with the kernel. With ``EXACT_CARDS`` cards or fewer left, and
at most ``EXACT_TOTAL`` in all the hands (so that the search stays within the
budget with 5 or 6 players), it searches the rest of each sampled hand exactly
(compiled alpha-beta). It
chooses the action with the best expected score difference between its side
and the others — bags (each worth −10, their long-run cost), Nil, target and
mercy included — not the most tricks. Bids are chosen the same way: each
candidate bid, Nil included, is scored over the same play-outs, the bids still
to come guessed as ``normal`` would make them with the sampled hands.

The rule-based habits of ``normal`` are its guide: when the search finds no
action clearly better than the one ``normal`` would take (by ``PLAY_MARGIN`` or
``BID_MARGIN`` points, ``NIL_MARGIN`` when the habit protects a Nil of its own
side), ``experto`` takes that one, so sampling noise does not turn into mistakes.

The work per decision is a fixed number of play-outs (``budget_ms`` times a
rate measured on a 2-core machine), so a robot is deterministic for its seed.

``omnisciente`` is the same search given every hand (a
:class:`~espadas.engine.FullView`): the arena uses it to measure how far the
others are from perfect information. It is never offered at a table.

The package: :mod:`~espadas.robots.expert.robot` (the robots),
:mod:`~espadas.robots.expert.inference` (sampling and likelihoods),
:mod:`~espadas.robots.expert.estimates` (hand estimates by the thousand, guessed
bids, the warm-up) and :mod:`~espadas.robots.expert.values` (what an outcome is
worth, exact search).
"""

from espadas.robots.expert.estimates import guess_bids, hand_estimates, warm_up
from espadas.robots.expert.inference import bid_likelihoods, play_likelihoods, sample_deals
from espadas.robots.expert.robot import ExpertRobot, OmniscientRobot

__all__ = [
    "ExpertRobot",
    "OmniscientRobot",
    "bid_likelihoods",
    "guess_bids",
    "hand_estimates",
    "play_likelihoods",
    "sample_deals",
    "warm_up",
]
