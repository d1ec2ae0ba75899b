"""``espadas play``: a whole game in the terminal against robots.

The human sits at seat 0; every other seat is a robot of one level (``--robots``:
``normal`` by default, or ``aleatorio`` or ``experto``).
Input is read line by line (piped input works; end of input quits), and the
game's record is saved at the end or on quitting.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from espadas.cli.options import add_rules_arguments, rules_from_args
from espadas.engine import (
    BLIND_NIL,
    Action,
    Bid,
    Card,
    CardSet,
    Game,
    InvalidRules,
    Look,
    NextHand,
    ParseError,
    Play,
    PlayerView,
    RuleError,
    Rules,
    Suit,
    Trick,
)
from espadas.i18n import DEFAULT_LANG, LANGS, bid_name, error_text, seat_name, translate
from espadas.robots import RandomRobot, Robot
from espadas.robots.registry import LEVELS, make_robot

HUMAN = 0
HUMAN_NAME = "human"
ROBOT_NAME = "robot:random"

HELP_WORDS = frozenset({"?", "ayuda", "help"})
QUIT_WORDS = frozenset({"q", "salir", "quit", "exit"})
LOOK_WORDS = frozenset({"mirar", "look"})
NIL_WORDS = frozenset({"nil"})
BLIND_WORDS = frozenset({"ciegas", "a ciegas", "nil a ciegas", "blind", "blind nil", "blind_nil"})
ACCUSE_WORDS = frozenset({"acusar", "accuse"})
SEAT_WORDS = {
    "n": 0, "norte": 0, "north": 0,
    "e": 1, "este": 1, "east": 1,
    "s": 2, "sur": 2, "south": 2,
    "o": 3, "oeste": 3, "w": 3, "west": 3,
}  # fmt: skip


# Commands: what a line of input asks for ---------------------------------------
@dataclass(frozen=True)
class Word:
    """A command word: ``help``, ``quit``, ``enter`` (an empty line) or ``look``."""

    name: str


@dataclass(frozen=True)
class Accusing:
    """``acusar E``: the accused seat, ``None`` when the text names no seat."""

    against: int | None


@dataclass(frozen=True)
class Move:
    """A bid or a card, for the engine to accept or refuse."""

    action: Action


@dataclass(frozen=True)
class Unknown:
    """Text that is neither a command, a bid nor a card."""

    text: str


Command = Word | Accusing | Move | Unknown
Outcome = Literal["done", "again", "quit"]


def parse_command(text: str, players: int = 4) -> Command:
    """Reads one line of input. Bids and cards are only recognised here; whether
    they are allowed now is the engine's decision.

    >>> parse_command("10h"), parse_command(" Nil "), parse_command("acusar O")
    (Move(action=Play(card=Card('TH'))), Move(action=Bid(value=0)), Accusing(against=3))
    """
    t = " ".join(text.strip().lower().split())
    first, _, rest = t.partition(" ")
    if t == "":
        return Word("enter")
    if t in HELP_WORDS:
        return Word("help")
    if t in QUIT_WORDS:
        return Word("quit")
    if t in LOOK_WORDS:
        return Word("look")
    if first in ACCUSE_WORDS:
        return Accusing(parse_seat(rest, players))
    return parse_move(t) or Unknown(text.strip())


def parse_move(t: str) -> Command | None:
    """A bid (``3``, ``nil``, ``ciegas``) or a card (``AS``, ``10h``, ``A♠``)."""
    if t in NIL_WORDS:
        return Move(Bid(0))
    if t in BLIND_WORDS:
        return Move(Bid(BLIND_NIL))
    if t.isascii() and t.isdigit():
        return Move(Bid(int(t)))
    try:
        return Move(Play(Card.parse(t.replace(" ", ""))))
    except ParseError:
        return None


def parse_seat(text: str, players: int) -> int | None:
    """``E``, ``oeste``, ``W`` (4 players) or a seat number."""
    t = text.strip().lower()
    if players == 4 and t in SEAT_WORDS:
        return SEAT_WORDS[t]
    if t.isascii() and t.isdigit() and int(t) < players:
        return int(t)
    return None


# Input and output ------------------------------------------------------------------
class Console(Protocol):
    """Where the game reads lines and writes text."""

    def ask(self, prompt: str) -> str | None:
        """One line of input (without its newline), ``None`` at the end of input."""
        ...

    def say(self, text: str) -> None:
        """Writes one line."""
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


def make_robots(rules: Rules, seed: int, level: str = "aleatorio") -> dict[int, Robot]:
    """One robot of ``level`` per seat but the human's, each seeded from ``seed``."""
    if level == "aleatorio":
        return {
            seat: RandomRobot(random.Random(f"espadas-robot:{seed}:{seat}"))
            for seat in range(rules.players)
            if seat != HUMAN
        }
    return {
        seat: make_robot(level, seed * 10 + seat) for seat in range(rules.players) if seat != HUMAN
    }


def cards_text(cards: CardSet) -> str:
    """``A♠ K♠ 7♠  Q♥ J♥  10♦  8♣ 2♣``: spades, hearts, diamonds, clubs, high to low."""
    order = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    groups = [" ".join(c.symbol for c in cards.suit(s).cards()) for s in order]
    return "  ".join(g for g in groups if g) or "—"


# The game at the terminal ------------------------------------------------------------
class TerminalGame:
    """A game between the human at seat 0 and robots, played through a console."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        lang: str = DEFAULT_LANG,
        console: Console | None = None,
        robots: dict[int, Robot] | None = None,
        level: str = "aleatorio",
    ) -> None:
        self.rules = rules
        self.level = level
        self.seed = seed
        self.lang = lang
        self.console: Console = console or StdConsole()
        self.game = Game.new(rules, seed=seed)
        self.robots = robots if robots is not None else make_robots(rules, seed, level)

    # words ----------------------------------------------------------------------
    def t(self, code: str, **params: Any) -> str:
        return translate(code, self.lang, **params)

    def say(self, code: str, **params: Any) -> None:
        text = self.t(code, **params)
        self.console.say(text[:1].upper() + text[1:])

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

    # the loop -----------------------------------------------------------------------
    def play(self) -> bool:
        """Plays until the game is over (True) or the human quits (False)."""
        self.intro()
        while self.game.phase != "game_over":
            seat = self.game.to_act
            if seat is not None and seat != HUMAN:
                self.robot_turn(seat)
            elif not self.human_turn():
                self.say("ui.quit")
                return False
        self.report_result()
        return True

    def intro(self) -> None:
        r = self.rules
        self.say("ui.start", preset=r.preset, players=r.players, target=r.target, seed=self.seed)
        if r.partnerships:
            self.say("ui.seat_partner", seat=seat_name(HUMAN, 4, self.lang), partner=self.label(2))
        else:
            self.say("ui.seat_alone", seat=HUMAN, last=r.players - 1)
        if r.renege == "allowed":
            self.say("ui.renege_note")
        self.say("ui.help_hint")
        self.announce_hand()

    def robot_turn(self, seat: int) -> None:
        action = self.robots[seat].act(self.game.view_for(seat))
        self.act(seat, action, by=seat)

    def human_turn(self) -> bool:
        """Prompts until the human's input changes the game; False when they quit."""
        if self.game.phase in ("bidding", "playing"):
            self.show_status()
        while True:
            text = self.console.ask(self.prompt())
            if text is None:
                return False
            outcome = self.handle(parse_command(text, self.rules.players))
            if outcome != "again":
                return outcome == "done"

    def prompt(self) -> str:
        phase = self.game.phase
        if phase == "bidding":
            return self.t("ui.prompt_bid")
        if phase == "playing":
            return self.t("ui.prompt_play")
        return self.t("ui.prompt_end" if self.game.over else "ui.prompt_next")

    # input --------------------------------------------------------------------------
    def handle(self, command: Command) -> Outcome:
        if isinstance(command, Word):
            return self.handle_word(command.name)
        if isinstance(command, Accusing):
            return self.accuse(command.against)
        if isinstance(command, Move):
            if self.game.phase == "hand_end":
                self.say_press_enter()
                return "again"
            return self.try_action(command.action)
        self.say("ui.unknown_input", text=command.text)
        return "again"

    def handle_word(self, name: str) -> Outcome:
        if name == "quit":
            return "quit"
        if name == "help":
            self.show_help()
            return "again"
        if name == "look":
            if Look(HUMAN) in self.game.view_for(HUMAN).legal:
                return self.try_action(Look(HUMAN))
            self.say("ui.already_looked")
            return "again"
        if self.game.phase == "hand_end":
            return self.try_action(self.game.legal_actions()[0])
        self.say("ui.help_hint")
        return "again"

    def try_action(self, action: Action) -> Outcome:
        try:
            self.act(HUMAN, action)
        except RuleError as err:
            self.console.say(error_text(err, self.lang, players=self.rules.players))
            return "again"
        return "done"

    def accuse(self, against: int | None) -> Outcome:
        if against is None:
            self.say("ui.accuse_who")
            return "again"
        try:
            accusation = self.game.accuse(HUMAN, against)
        except RuleError as err:
            self.console.say(error_text(err, self.lang, players=self.rules.players))
            return "again"
        self.say("ui.accusation", against=self.label(against))
        verdict = "ui.accusation_true" if accusation.true else "ui.accusation_false"
        self.say(verdict, against=self.label(against))
        return "done"

    # applying actions and telling what happened ----------------------------------------
    def act(self, seat: int, action: Action, by: int | None = None) -> None:
        """Applies ``action`` (raises and changes nothing if refused), then reports it."""
        finished = len(self.game.finished)
        tricks = len(self.game.hand.winners)
        self.game.apply(action, by=by)
        if isinstance(action, Bid):
            self.report_bid(seat, action)
        elif isinstance(action, Play) and len(self.game.hand.winners) > tricks:
            self.report_trick()
        if len(self.game.finished) > finished:
            self.report_hand()
        if isinstance(action, NextHand):
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
        done = self.game.finished[-1]
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

    # what the human sees ----------------------------------------------------------------
    def show_status(self) -> None:
        view = self.game.view_for(HUMAN)
        self.console.say("")
        self.say("ui.bids", items=self.by_seat(tuple(bid_name(b, self.lang) for b in view.bids)))
        if self.rules.partnerships:
            contracts = [str(view.contract(s)) for s in range(self.rules.sides)]
            self.say("ui.contracts", items=self.by_side(contracts))
        if view.phase == "playing":
            self.show_trick(view)
            self.say("ui.tricks_taken", items=self.by_seat(view.tricks_taken))
        self.say("ui.scores", items=self.scores_text(view.scores, view.bags))
        if view.hand is None:
            self.say("ui.hand_hidden")
        else:
            self.say("ui.your_hand", cards=cards_text(view.hand))
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
        self.say("ui.help_bid_words")

    def help_cards(self, view: PlayerView) -> None:
        proper = self.game.hand.proper_plays()
        self.say("ui.help_cards", items=cards_text(proper))
        if len(view.legal) > len(proper):
            self.say("ui.help_renege")
        self.say("ui.help_card_words")

    # the record ------------------------------------------------------------------------
    def record(self) -> dict[str, object]:
        robot = ROBOT_NAME if self.level == "aleatorio" else f"robot:{self.level}"
        names = [HUMAN_NAME] + [robot] * (self.rules.players - 1)
        return self.game.record(names)

    def save(self, path: Path) -> bool:
        """Writes the record as indented JSON and says where; False if it could not."""
        text = json.dumps(self.record(), indent=2, ensure_ascii=False) + "\n"
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.say("ui.save_failed", path=path, error=exc)
            return False
        self.say("ui.saved", path=path)
        return True


# The sub-command ------------------------------------------------------------------------
def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a game in the terminal against robots",
        description="Play a whole game in the terminal against robots (Spanish by default).",
    )
    add_rules_arguments(p)
    p.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default es)")
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    p.add_argument(
        "--robots",
        choices=LEVELS,
        default="normal",
        help="the level of the robots at the table (default normal)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="where to save the game record (default espadas-YYYYmmdd-HHMMSS.record.json)",
    )
    p.set_defaults(run=run)


def default_record_path() -> Path:
    return Path(f"espadas-{datetime.now():%Y%m%d-%H%M%S}.record.json")


def rules_or_none(args: argparse.Namespace) -> Rules | None:
    """The rules the arguments ask for, or ``None`` after saying why they are refused."""
    try:
        return rules_from_args(args.preset, args.sets)
    except InvalidRules as err:
        error = error_text(err, args.lang)
    except ValueError as err:
        error = str(err)
    print(translate("ui.bad_rules", args.lang, error=error), file=sys.stderr)
    return None


def _tolerant_stdout() -> None:
    """A terminal that cannot show ♠ gets a replacement character, not a crash."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if callable(reconfigure):
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")


def run(args: argparse.Namespace) -> int:
    rules = rules_or_none(args)
    if rules is None:
        return 2
    _tolerant_stdout()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    path = Path(args.record) if args.record else default_record_path()
    table = TerminalGame(rules, seed, args.lang, StdConsole(), level=args.robots)
    try:
        table.play()
    except KeyboardInterrupt:
        table.console.say("")
        table.say("ui.quit")
    return 0 if table.save(path) else 1
