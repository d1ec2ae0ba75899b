"""The player's turn at ``espadas play`` drawn on a terminal with ``rich``.

:class:`RichConsole` is the terminal's console: plain lines for every message,
as :class:`~espadas.cli.play.screen.StdConsole` writes them, and at each of the
player's turns a board: a table of the seats (bids, tricks taken, the card each
one played to the trick in progress; the seat to act in bold), the sides'
contracts and scores, and the hand by suit, the cards that may be played in bold
and the others dimmed. Its words come from the screen's catalog lines.

>>> import io
>>> from espadas.engine import Game, Rules
>>> from espadas.cli.play.screen import Screen
>>> game = Game.new(Rules(), seed=1)
>>> console = RichConsole(file=io.StringIO(), width=60)
>>> Screen(game, "en", console).show_status()
>>> text = console.terminal.file.getvalue()
>>> [line.strip("│╭╮─ ") for line in text.splitlines() if "spades" in line or "Hand" in line]
['Hand 1 · you deal', 'spades   Q♠ 6♠ 5♠ 3♠']
"""

from __future__ import annotations

from typing import IO

from rich import box
from rich.console import Console as Terminal
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from espadas.cli.play.screen import HUMAN, SUIT_ORDER, Screen, StdConsole
from espadas.engine import Card, CardSet, PlayerView, Suit
from espadas.i18n import bid_name, translate

RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})


class RichConsole(StdConsole):
    """A terminal: standard input, lines and boards on standard output (or on
    ``file``, ``width`` columns wide, for tests)."""

    def __init__(self, file: IO[str] | None = None, width: int | None = None) -> None:
        super().__init__()
        self.file = file
        self.terminal = Terminal(file=file, width=width, highlight=False)

    def say(self, text: str) -> None:
        if self.file is None:
            super().say(text)
        else:
            self.file.write(text + "\n")

    def board(self, screen: Screen, view: PlayerView) -> None:
        """Draws the board of the player's turn."""
        self.terminal.print(board(screen, view))


def card_text(card: Card, style: str = "") -> Text:
    """A card for the board, red for hearts and diamonds."""
    colour = "red" if card.suit in RED else ""
    return Text(card.symbol, style=" ".join(s for s in (colour, style) if s))


def board(screen: Screen, view: PlayerView) -> RenderableType:
    """The player's turn as a ``rich`` board: the seats, the sides, the hand."""
    n = screen.rules.players
    playing = view.phase == "playing"
    number = len(view.tricks) + 1
    seats = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    seats.add_column("")
    seats.add_column(screen.heading("ui.bids"), justify="right")
    played: dict[int, Card] = {}
    if playing:
        seats.add_column(screen.heading("ui.tricks_taken"), justify="right")
        seats.add_column(screen.heading("ui.trick_now", number=number), justify="center")
        if view.trick is not None:
            played = {(view.trick.leader + i) % n: c for i, c in enumerate(view.trick.cards)}
    for seat in range(n):
        name = Text(screen.label(seat), style="bold" if seat == view.to_act else "")
        row: list[RenderableType] = [name, bid_name(view.bids[seat], screen.lang)]
        if playing:
            card = played.get(seat)
            row += [str(view.tricks_taken[seat]), card_text(card) if card is not None else ""]
        seats.add_row(*row)
    sides = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    sides.add_column("")
    if screen.rules.partnerships:
        sides.add_column(screen.heading("ui.contracts"), justify="right")
    sides.add_column(screen.heading("ui.scores"), justify="right")
    for side in range(screen.rules.sides):
        contract = [str(view.contract(side))] if screen.rules.partnerships else []
        score = screen.t("ui.score_item", side="", points=view.scores[side], bags=view.bags[side])
        sides.add_row(screen.side_label(side), *contract, score.strip())
    tables = Table.grid(padding=(0, 3))
    tables.add_row(seats, sides)
    turn = screen.t("ui.turn_bid" if view.phase == "bidding" else "ui.turn_play")
    key = "ui.hand_start_you" if view.dealer == HUMAN else "ui.hand_start"
    title = screen.t(key, number=view.hand_number, dealer=screen.label(view.dealer))
    title = title.strip("─ ")
    return Panel(Group(tables, hand_board(screen, view)), title=title, subtitle=turn, expand=False)


def hand_board(screen: Screen, view: PlayerView) -> RenderableType:
    """The hand by suit, one line a suit; the cards that may be played in bold."""
    if view.held is None:
        return Text(screen.t("ui.hand_hidden"))
    hand = Table.grid(padding=(0, 1))
    hand.add_column()
    hand.add_column()
    playable = view.proper_plays if view.phase == "playing" else CardSet()
    for suit in SUIT_ORDER:
        cards = view.held.suit(suit).cards()
        line = Text()
        if not cards:
            line.append("—", style="dim")
        for card in cards:
            style = "bold" if card in playable else ("dim" if playable else "")
            line.append_text(card_text(card, style))
            line.append(" ")
        name = translate(f"ui.suit.{'CDHS'[int(suit)]}", screen.lang)
        hand.add_row(Text(name, style="red" if suit in RED else ""), line)
    return hand
