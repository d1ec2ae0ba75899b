"""The game loop of ``espadas play``: the human at seat 0 against robots.

:class:`TerminalGame` asks the robots and the human in turn, hands each line the
human types to the grammar (:mod:`espadas.cli.play.grammar`), applies what it
means, and lets the :class:`~espadas.cli.play.screen.Screen` tell what happened.
The record names the human ``human`` and each robot ``robot:LEVEL``
(``robot:aleatorio``, ``robot:normal``…), as the tables do; records written before
under ``robot:random`` load all the same (names are free text).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from espadas.cli.play.grammar import Accusing, Command, Move, Outcome, Word, parse_command
from espadas.cli.play.screen import HUMAN, Console, Screen, StdConsole
from espadas.engine import Action, Bid, Game, Look, NextHand, Play, RuleError, Rules
from espadas.engine.record import game_record
from espadas.i18n import DEFAULT_LANG, error_text
from espadas.robots import RandomRobot, Robot
from espadas.robots.registry import make_robot

HUMAN_NAME = "human"


def robot_name(level: str) -> str:
    """The name of a robot of ``level`` in a record: ``robot:aleatorio``."""
    return f"robot:{level}"


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
        self.screen = Screen(self.game, lang, self.console)

    def say(self, code: str, **params: Any) -> None:
        self.screen.say(code, **params)

    # the loop -----------------------------------------------------------------------
    def play(self) -> bool:
        """Plays until the game is over (True) or the human quits (False)."""
        self.screen.intro(self.seed)
        while self.game.phase != "game_over":
            seat = self.game.to_act
            if seat is not None and seat != HUMAN:
                self.robot_turn(seat)
            elif not self.human_turn():
                self.say("ui.quit")
                return False
        self.screen.report_result()
        return True

    def robot_turn(self, seat: int) -> None:
        action = self.robots[seat].act(self.game.view_for(seat))
        self.act(seat, action, by=seat)

    def human_turn(self) -> bool:
        """Prompts until the human's input changes the game; False when they quit."""
        if self.game.phase in ("bidding", "playing"):
            self.screen.show_status()
        while True:
            text = self.console.ask(self.screen.prompt())
            if text is None:
                return False
            outcome = self.handle(parse_command(text, self.rules.players))
            if outcome != "again":
                return outcome == "done"

    # input --------------------------------------------------------------------------
    def handle(self, command: Command) -> Outcome:
        if isinstance(command, Word):
            return self.handle_word(command.name)
        if isinstance(command, Accusing):
            return self.accuse(command.against)
        if isinstance(command, Move):
            if self.game.phase == "hand_end":
                self.screen.say_press_enter()
                return "again"
            return self.try_action(command.action)
        self.say("ui.unknown_input", text=command.text)
        return "again"

    def handle_word(self, name: str) -> Outcome:
        if name == "quit":
            return "quit"
        if name == "help":
            self.screen.show_help()
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
        label = self.screen.label(against)
        self.say("ui.accusation", against=label)
        verdict = "ui.accusation_true" if accusation.true else "ui.accusation_false"
        self.say(verdict, against=label)
        return "done"

    # applying actions -------------------------------------------------------------------
    def act(self, seat: int, action: Action, by: int | None = None) -> None:
        """Applies ``action`` (raises and changes nothing if refused), then reports it."""
        finished = len(self.game.scored)
        tricks = len(self.game.hand.winners)
        self.game.apply(action, by=by)
        if isinstance(action, Bid):
            self.screen.report_bid(seat, action)
        elif isinstance(action, Play) and len(self.game.hand.winners) > tricks:
            self.screen.report_trick()
        if len(self.game.scored) > finished:
            self.screen.report_hand()
        if isinstance(action, NextHand):
            self.screen.announce_hand()

    # the record ------------------------------------------------------------------------
    def record(self) -> dict[str, object]:
        names = [HUMAN_NAME] + [robot_name(self.level)] * (self.rules.players - 1)
        return game_record(self.game, names)

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
