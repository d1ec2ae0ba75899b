"""What ``espadas play`` shows: the consoles it reads and writes through, and the
:class:`Screen`, which says everything that happens in the player's language.

Every message is one line of text from the catalog (:mod:`espadas.i18n`), written
with :meth:`Console.say`, so that piped input gives a transcript that reads like
a session. A console that can draw a board (a :class:`BoardConsole`: on a
terminal, :class:`espadas.cli.play.board.RichConsole`) shows the player's turn
as a board instead of lines.

>>> from espadas.engine import CardSet
>>> cards_text(CardSet.parse("K2.-.T9.AQ3"))
'K♠ 2♠  10♦ 9♦  A♣ Q♣ 3♣'
"""

from __future__ import annotations

import sys
from typing import Any, Protocol, cast

from espadas.engine import Bid, CardSet, Game, Look, PlayerView, Suit, Trick
from espadas.i18n import bid_name, seat_name, translate

HUMAN = 0
"""The human's seat."""
SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order of the suits in a hand: spades, hearts, diamonds, clubs."""


class Console(Protocol):
    """Where the game reads lines and writes text."""

    def ask(self, prompt: str) -> str | None:
        """One line of input (without its newline), ``None`` at the end of input."""
        ...

    def say(self, text: str) -> None:
        """Writes one line."""
        ...


class BoardConsole(Console, Protocol):
    """A console that draws the player's turn as a board."""

    def board(self, screen: Screen, view: PlayerView) -> None:
        """Shows ``view`` (the human's) with the words of ``screen``."""
        ...


class StdConsole:
    """Standard input and output; echoes answers when the input is not a terminal,
    so that a transcript of piped input reads like a session."""

    def __init__(self) -> None:
        isatty = getattr(sys.stdin, "isatty", None)
        self.echo = not (callable(isatty) and isatty())

    def ask(self, prompt: str) -> str | None:
        try:
            line = input(prompt)
        except EOFError:
            print()
            return None
        if self.echo:
            print(line)
        return line

    def say(self, text: str) -> None:
        print(text, flush=True)


def cards_text(cards: CardSet) -> str:
    """``A♠ K♠ 7♠  Q♥ J♥  10♦  8♣ 2♣``: spades, hearts, diamonds, clubs, high to low."""
    groups = [" ".join(c.symbol for c in cards.suit(s).cards()) for s in SUIT_ORDER]
    return "  ".join(g for g in groups if g) or "—"


class Screen:
    """Everything the game says about ``game`` to the human at seat 0, in ``lang``."""

    def __init__(self, game: Game, lang: str, console: Console) -> None:
        self.game = game
        self.rules = game.rules
        self.lang = lang
        self.console = console

    # words ----------------------------------------------------------------------
    def t(self, code: str, **params: Any) -> str:
        return translate(code, self.lang, **params)

    def say(self, code: str, **params: Any) -> None:
        text = self.t(code, **params)
        self.console.say(text[:1].upper() + text[1:])

    def heading(self, code: str, **params: Any) -> str:
        """A catalog line without its items, as a column heading: ``Apuestas``."""
        text = self.t(code, items="", **params).strip().rstrip(":").strip()
        return text[:1].upper() + text[1:]

    def label(self, seat: int) -> str:
        """``tú`` for the human, else ``E``, ``S``, ``O`` or ``asiento 3``."""
        if seat == HUMAN:
            return self.t("ui.you")
        return seat_name(seat, self.rules.players, self.lang)

    def side_label(self, side: int) -> str:
        """``N–S``/``E–O`` with partnerships, else the seat's label."""
        if not self.rules.partnerships:
            return self.label(side)
        a, b = self.rules.seats_of(side)
        players = self.rules.players
        return f"{seat_name(a, players, self.lang)}–{seat_name(b, players, self.lang)}"

    def by_seat(self, values: tuple[Any, ...]) -> str:
        return " · ".join(f"{self.label(s)} {v}" for s, v in enumerate(values))

    def by_side(self, values: list[str]) -> str:
        return " · ".join(f"{self.side_label(s)} {v}" for s, v in enumerate(values))

    def trick_items(self, trick: Trick) -> str:
        n = self.rules.players
        return ", ".join(
            f"{self.label((trick.leader + i) % n)} {card.symbol}"
            for i, card in enumerate(trick.cards)
        )

    def scores_text(self, scores: tuple[int, ...], bags: tuple[int, ...]) -> str:
        return " · ".join(
            self.t("ui.score_item", side=self.side_label(s), points=p, bags=bags[s])
            for s, p in enumerate(scores)
        )

    def prompt(self) -> str:
        phase = self.game.phase
        if phase == "bidding":
            return self.t("ui.prompt_bid")
        if phase == "playing":
            return self.t("ui.prompt_play")
        return self.t("ui.prompt_end" if self.game.over else "ui.prompt_next")

    # what happened --------------------------------------------------------------
    def intro(self, seed: int) -> None:
        r = self.rules
        self.say("ui.start", preset=r.preset, players=r.players, target=r.target, seed=seed)
        if r.partnerships:
            self.say("ui.seat_partner", seat=seat_name(HUMAN, 4, self.lang), partner=self.label(2))
        else:
            self.say("ui.seat_alone", seat=HUMAN, last=r.players - 1)
        if r.renege == "allowed":
            self.say("ui.renege_note")
        self.say("ui.help_hint")
        self.announce_hand()

    def report_bid(self, seat: int, action: Bid) -> None:
        bid = bid_name(action.value, self.lang)
        if seat == HUMAN:
            self.say("ui.you_bid", bid=bid)
        else:
            self.say("ui.bid_made", seat=self.label(seat), bid=bid)

    def report_trick(self) -> None:
        tricks = self.game.public_view().tricks
        trick = tricks[-1]
        key = "ui.trick_done_you" if trick.winner == HUMAN else "ui.trick_done"
        winner = self.label(trick.winner if trick.winner is not None else HUMAN)
        self.say(key, number=len(tricks), items=self.trick_items(trick), winner=winner)

    def report_hand(self) -> None:
        view = self.game.public_view()
        done = self.game.scored[-1]
        self.say("ui.hand_over", number=view.hand_number)
        self.say("ui.tricks_taken", items=self.by_seat(view.tricks_taken))
        self.say("ui.hand_score", items=self.by_side([f"{p:+d}" for p in done.score.points]))
        self.say("ui.totals", items=self.scores_text(done.totals, tuple(done.score.bags)))
        if done.boston is not None:
            self.say("ui.boston", side=self.side_label(done.boston))
        if self.game.over:
            renege = self.rules.renege == "allowed"
            self.say("ui.decided_renege" if renege else "ui.decided")

    def announce_hand(self) -> None:
        view = self.game.public_view()
        self.console.say("")
        key = "ui.hand_start_you" if view.dealer == HUMAN else "ui.hand_start"
        self.say(key, number=view.hand_number, dealer=self.label(view.dealer))

    def report_result(self) -> None:
        result = self.game.result
        if result is None:
            return
        rules = self.rules
        loser = "" if result.loser is None else self.side_label(result.loser)
        reason = self.t(
            f"ui.reason.{result.reason}", target=rules.target, mercy=rules.mercy, loser=loser
        )
        self.console.say("")
        you_alone = result.winner == HUMAN and not rules.partnerships
        key = "ui.game_over_you" if you_alone else "ui.game_over"
        self.say(key, side=self.side_label(result.winner), reason=reason)
        self.say(
            "ui.totals", items=self.scores_text(tuple(self.game.scores), tuple(self.game.bags))
        )
        won = rules.side_of(HUMAN) == result.winner
        self.say("ui.you_won" if won else "ui.you_lost")

    # the player's turn ----------------------------------------------------------
    def show_status(self) -> None:
        view = self.game.view_for(HUMAN)
        self.console.say("")
        if callable(getattr(self.console, "board", None)):
            cast(BoardConsole, self.console).board(self, view)
            return
        self.say("ui.bids", items=self.by_seat(tuple(bid_name(b, self.lang) for b in view.bids)))
        if self.rules.partnerships:
            contracts = [str(view.contract(s)) for s in range(self.rules.sides)]
            self.say("ui.contracts", items=self.by_side(contracts))
        if view.phase == "playing":
            self.show_trick(view)
            self.say("ui.tricks_taken", items=self.by_seat(view.tricks_taken))
        self.say("ui.scores", items=self.scores_text(view.scores, view.bags))
        if view.held is None:
            self.say("ui.hand_hidden")
        else:
            self.say("ui.your_hand", cards=cards_text(view.held))
        self.say("ui.turn_bid" if view.phase == "bidding" else "ui.turn_play")

    def show_trick(self, view: PlayerView) -> None:
        trick = view.trick
        number = len(view.tricks) + 1
        if trick is None or not trick.cards:
            leader = view.to_act if view.to_act is not None else HUMAN
            key = "ui.trick_lead_you" if leader == HUMAN else "ui.trick_lead"
            self.say(key, number=number, leader=self.label(leader))
        else:
            self.say("ui.trick_now", number=number, items=self.trick_items(trick))

    # help -----------------------------------------------------------------------
    def show_help(self) -> None:
        view = self.game.view_for(HUMAN)
        if view.phase == "bidding":
            self.help_bids(view)
        elif view.phase == "playing":
            self.help_cards(view)
        elif view.phase == "hand_end":
            self.say_press_enter()
        if self.rules.renege == "allowed":
            self.say("ui.help_accuse")
        self.say("ui.help_commands")

    def say_press_enter(self) -> None:
        self.say("ui.help_end" if self.game.over else "ui.help_next")

    def help_bids(self, view: PlayerView) -> None:
        items = [bid_name(a.value, self.lang) for a in view.legal if isinstance(a, Bid)]
        if Look(HUMAN) in view.legal:
            items.append(self.t("ui.help_look"))
        self.say("ui.help_bids", items=", ".join(items))
        # blind nil and looking are named only where the table plays blind nil
        self.say("ui.help_bid_words" if self.game.rules.blind_nil else "ui.help_bid_words_plain")

    def help_cards(self, view: PlayerView) -> None:
        proper = self.game.hand.proper_plays()
        self.say("ui.help_cards", items=cards_text(proper))
        if len(view.legal) > len(proper):
            self.say("ui.help_renege")
        self.say("ui.help_card_words")
