"""``espadas play``: whole games through the command, refused input, quitting,
records that replay, and the terminal game driven by a strategy."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.main import main
from espadas.cli.play.grammar import Accusing, Move, Unknown, Word, parse_command
from espadas.cli.play.screen import cards_text
from espadas.cli.play.session import TerminalGame, make_robots
from espadas.engine import (
    BLIND_NIL,
    CARDS,
    Bid,
    Card,
    CardSet,
    ConfirmEnd,
    Game,
    Look,
    NextHand,
    Play,
    Rules,
)
from espadas.engine.record import game_record, rebuild, replay_summary

SIDES_ES = {"ns": "N–S", "ew": "E–O"}


class LoopingStdin:
    """Endless piped input that needs no knowledge of the game: an empty line, a
    bid of 3, then every card, over and over. Refused lines change nothing, so
    every prompt is eventually answered (bid, card, Enter)."""

    CYCLE = ("", "3", *(str(c) for c in CARDS))

    def __init__(self, limit: int = 200_000) -> None:
        self.lines: Iterator[str] = (self.CYCLE[i % len(self.CYCLE)] for i in range(limit))

    def readline(self, size: int = -1) -> str:
        line = next(self.lines, None)
        return "" if line is None else line + "\n"

    def isatty(self) -> bool:
        return False


def play_main(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: LoopingStdin | str,
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin) if isinstance(stdin, str) else stdin)
    code = main(["play", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def human_hand(rules: Rules, seed: int) -> CardSet:
    return CardSet(Game.new(rules, seed=seed).hands[0].deal[0])


# whole games ------------------------------------------------------------------------
def test_full_game_from_piped_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    code, out = play_main(
        monkeypatch, capsys, ["--seed", "2", "--record", str(record)], LoopingStdin()
    )
    assert code == 0
    winner = re.search(r"Fin de la partida: gana (\S+) \(", out)
    assert winner is not None, out[-2000:]
    assert f"Registro guardado en {record}" in out
    game = rebuild(load(record))
    summary = replay_summary(game)
    assert summary["winner"] is not None
    assert SIDES_ES[summary["winner"]] == winner.group(1)
    assert game.phase == "hand_end" and game.over
    assert "Semilla: 2" in out and "Fin de la mano 1." in out
    assert "La mano ha terminado: pulsa Enter para la siguiente." in out
    assert "La partida está decidida: pulsa Enter para terminarla." in out


def test_same_seed_same_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outs = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        _, out = play_main(monkeypatch, capsys, ["--seed", "9", "--record", str(path)], "3\n" * 30)
        outs.append(out.replace(str(path), "FILE"))
    assert outs[0] == outs[1]
    assert load(tmp_path / "a.json") == load(tmp_path / "b.json")


def answer_from_legal(table: TerminalGame, rng: random.Random) -> str:
    """What a player might type for a random legal action, in varied spellings."""
    view = table.game.view_for(0)
    if not view.legal:
        return ""
    action = rng.choice(view.legal)
    if isinstance(action, Look):
        return rng.choice(["mirar", "look"])
    if isinstance(action, Bid):
        if action.value == BLIND_NIL:
            return rng.choice(["ciegas", "blind"])
        return rng.choice(["nil", "0"]) if action.value == 0 else str(action.value)
    if isinstance(action, NextHand | ConfirmEnd):
        return ""
    assert isinstance(action, Play)
    card = action.card
    return rng.choice([str(card), str(card).lower(), card.symbol, card.symbol.lower()])


class ScriptConsole:
    """A console that answers with a function and keeps everything said."""

    def __init__(self, answer: Callable[[str], str | None]) -> None:
        self.answer = answer
        self.lines: list[str] = []

    def ask(self, prompt: str) -> str | None:
        line = self.answer(prompt)
        self.lines.append(prompt + (line or ""))
        return line

    def say(self, text: str) -> None:
        self.lines.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def strategy_game(rules: Rules, seed: int, lang: str, prompts: int) -> tuple[TerminalGame, str]:
    rng = random.Random(seed)
    count = 0

    def answer(prompt: str) -> str | None:
        nonlocal count
        count += 1
        return "q" if count > prompts else answer_from_legal(table, rng)

    console = ScriptConsole(answer)
    table = TerminalGame(rules, seed, lang, console)
    table.play()
    return table, console.text


@pytest.mark.parametrize(
    ("preset", "options"),
    [("estandar", {}), ("pagat", {}), ("cien", {}), ("sala", {"players": 5})],
)
def test_strategy_plays_every_preset(preset: str, options: dict[str, int]) -> None:
    rules = Rules.from_preset(preset, **options)
    table, text = strategy_game(rules, 4, "es", prompts=40)
    assert "No entiendo" not in text
    rebuilt = rebuild(table.record())
    assert (
        game_record(rebuilt, ["human"] + ["robot:aleatorio"] * (rules.players - 1))
        == table.record()
    )
    assert "Fin de la mano 1." in text


def test_strategy_game_to_the_end_in_english() -> None:
    table, text = strategy_game(Rules(), 21, "en", prompts=10_000)
    assert table.game.phase == "game_over"
    result = table.game.result
    assert result is not None
    side = {"ns": "N–S", "ew": "E–W"}[table.rules.side_name(result.winner)]
    assert f"Game over: {side} wins (" in text
    assert replay_summary(rebuild(table.record()))["winner"] == table.rules.side_name(result.winner)


# refused input ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "refusal", "not_understood"),
    [
        ("es", "{card} no está en tu mano.", "No entiendo «XX»."),
        ("en", "{card} is not in your hand.", "I do not understand 'XX'."),
    ],
)
def test_refused_card_is_explained_and_the_game_goes_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    refusal: str,
    not_understood: str,
) -> None:
    hand = human_hand(Rules(), 5)
    missing = next(c for c in CARDS if c not in hand)
    held = hand.cards()[0]
    record = tmp_path / "r.json"
    script = f"3\nXX\n{missing}\n{held.symbol}\nq\n"
    code, out = play_main(
        monkeypatch, capsys, ["--seed", "5", "--lang", lang, "--record", str(record)], script
    )
    assert code == 0
    assert refusal.format(card=missing.symbol) in out
    assert not_understood in out
    assert re.search(rf"(tú|you) {re.escape(held.symbol)} —", out), "the card was played"
    plays = load(record)["hands"][0]["plays"]
    assert plays[3] == str(held)


def test_must_follow_in_a_renege_prevented_game() -> None:
    """In pagat a card that does not follow suit is refused, in Spanish, and the
    same prompt asks again."""
    rng = random.Random(1)
    tried: list[str] = []

    def answer(prompt: str) -> str | None:
        view = table.game.view_for(0)
        trick = view.trick
        if not tried and trick and trick.cards and view.held is not None:
            led = trick.cards[0].suit
            if view.held.suit(led):
                off = [c for c in view.held if c.suit != led]
                if off:
                    tried.append(str(off[0]))
                    return str(off[0])
        if len(console.lines) > 3000:
            return "q"
        return answer_from_legal(table, rng)

    console = ScriptConsole(answer)
    table = TerminalGame(Rules.from_preset("pagat"), 3, "es", console)
    table.play()
    assert tried
    at = console.lines.index(f"Tu carta: {tried[0]}")
    assert console.lines[at + 1].startswith("Debes asistir a ")
    assert console.lines[at + 1].endswith(f": no puedes jugar {Card(tried[0]).symbol}.")
    assert console.lines[at + 2].startswith("Tu carta: ")


def test_help_lists_the_legal_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "?\n3\n?\nq\n"
    _, out = play_main(
        monkeypatch, capsys, ["--seed", "5", "--record", str(tmp_path / "r")], script
    )
    assert "Apuestas posibles: Nil, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13" in out
    assert "Cartas posibles: " in out
    assert "acusar E" in out
    # estandar plays no blind nil: the help names neither blind nil nor looking
    assert "ciegas" not in out and "mirar" not in out


def test_help_names_blind_nil_where_it_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--preset", "cien", "--seed", "5", "--record", str(tmp_path / "r")]
    _, out = play_main(monkeypatch, capsys, argv, "?\nq\n")
    assert "Nil a ciegas, mirar" in out
    assert "«ciegas» para Nil a ciegas; «mirar» para ver tus cartas." in out


# quitting and the record --------------------------------------------------------------
@pytest.mark.parametrize("stdin", ["q\n", "salir\n", "quit\n", ""])
def test_quitting_early_saves_a_partial_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str
) -> None:
    record = tmp_path / "partial.json"
    code, out = play_main(monkeypatch, capsys, ["--seed", "8", "--record", str(record)], stdin)
    assert code == 0
    assert "Partida interrumpida." in out
    data = load(record)
    assert len(data["hands"]) == 1 and data["hands"][0]["plays"] == []
    assert len(data["hands"][0]["bids"]) == 3, "the robots bid before the human"
    assert replay_summary(rebuild(data))["winner"] is None


def test_default_record_path_and_printed_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play_main(monkeypatch, capsys, ["--lang", "en"], "quit\n")
    assert code == 0
    seed = re.search(r"Seed: (\d+)", out)
    assert seed is not None and int(seed.group(1)) < 2**63
    files = list(tmp_path.glob("espadas-*.record.json"))
    assert len(files) == 1
    assert re.fullmatch(r"espadas-\d{8}-\d{6}\.record\.json", files[0].name)
    assert f"Record saved to {files[0].name}" in out
    assert load(files[0])["players"] == ["human", "robot:normal", "robot:normal", "robot:normal"]


def test_individual_game_has_robots_in_every_other_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "sala5.json"
    argv = ["--preset", "sala", "--set", "players=5", "--seed", "3", "--record", str(record)]
    code, out = play_main(monkeypatch, capsys, argv, "2\nq\n")
    assert code == 0
    data = load(record)
    assert data["rules"]["players"] == 5 and data["rules"]["preset"] == "sala"
    assert len(data["players"]) == 5
    assert 2 in data["hands"][0]["bids"]
    assert "Asiento" in out or "asiento" in out
    rebuild(data)


def test_invalid_rules_are_refused_in_spanish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play_main(monkeypatch, capsys, ["--set", "renege=maybe"], "")
    assert code == 2
    assert "Reglas no válidas: renege debe ser uno de allowed, prevented, no maybe." in out
    code, out = play_main(monkeypatch, capsys, ["--set", "target"], "")
    assert code == 2


def test_a_record_that_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "no" / "such" / "dir.json"
    code, out = play_main(monkeypatch, capsys, ["--seed", "1", "--record", str(record)], "q\n")
    assert code == 1
    assert f"No se pudo guardar el registro en {record}" in out


# accusations ------------------------------------------------------------------------------
def test_false_accusation_ends_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "acc.json"
    script = "acusar S\nacusar\nacusar E\n"
    code, out = play_main(monkeypatch, capsys, ["--seed", "5", "--record", str(record)], script)
    assert code == 0
    assert "N y S son pareja" in out
    assert "¿A quién acusas?" in out
    assert "Es falso: E no renunció en esta mano." in out
    assert "Fin de la partida: gana E–O (N–S acusó en falso)." in out
    data = load(record)
    assert data["hands"][0]["accusation"] == {"by": 0, "against": 1, "after_play": 0}
    summary = replay_summary(rebuild(data))
    assert (summary["winner"], summary["reason"]) == ("ew", "false_accusation")


def test_accusing_where_renege_is_prevented_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--preset", "pagat", "--seed", "5", "--record", str(tmp_path / "r.json")]
    _, out = play_main(monkeypatch, capsys, argv, "accuse W\nq\n")
    assert "renuncio está impedido" in out
    assert "Partida interrumpida." in out


# blind nil -----------------------------------------------------------------------------------
def scripted(rules: Rules, seed: int, lines: list[str]) -> tuple[TerminalGame, str]:
    feed = iter(lines)
    console = ScriptConsole(lambda prompt: next(feed, None))
    table = TerminalGame(rules, seed, "es", console)
    table.play()
    return table, console.text


def test_look_then_blind_nil_is_refused() -> None:
    table, text = scripted(Rules.from_preset("cien"), 6, ["?", "mirar", "mirar", "ciegas", "nil"])
    assert "Tus cartas están boca abajo" in text
    assert "Apuestas posibles: Nil, 1," in text and "Nil a ciegas, mirar" in text
    assert "Ya ves tus cartas." in text
    assert "Nil a ciegas solo se puede apostar antes de mirar las cartas." in text
    assert "Apuestas Nil." in text
    assert table.game.hands[0].bids[0] == 0 and not table.game.hands[0].blind[0]


def test_blind_nil_bid() -> None:
    table, text = scripted(Rules.from_preset("cien"), 6, ["ciegas"])
    assert "Apuestas Nil a ciegas." in text
    assert table.game.hands[0].blind[0]
    assert "Tu mano: " in text, "the hand is shown once the bid is made"


# parsing and display -------------------------------------------------------------------------
def test_parse_command() -> None:
    assert parse_command("") == Word("enter")
    assert parse_command(" ? ") == parse_command("ayuda") == parse_command("HELP") == Word("help")
    assert parse_command("Q") == parse_command("salir") == Word("quit")
    assert parse_command("mirar") == parse_command("look") == Word("look")
    assert parse_command("7") == Move(Bid(7))
    assert parse_command("nil") == parse_command("0") == Move(Bid(0))
    assert parse_command("Ciegas") == parse_command("blind nil") == Move(Bid(BLIND_NIL))
    for text in ("AS", "as", "A♠", "a♠"):
        assert parse_command(text) == Move(Play(Card("AS")))
    assert parse_command("10h") == parse_command("th") == Move(Play(Card("TH")))
    assert parse_command("td") == parse_command("10 ♦") == Move(Play(Card("TD")))
    assert parse_command("acusar E") == Accusing(1)
    assert parse_command("accuse w") == parse_command("acusar oeste") == Accusing(3)
    assert parse_command("acusar") == parse_command("acusar Z") == Accusing(None)
    assert parse_command("acusar 4", players=5) == Accusing(4)
    assert parse_command("hola") == Unknown("hola")


def test_cards_text_sorts_spades_hearts_diamonds_clubs_high_to_low() -> None:
    hand = CardSet.parse("K2.-.T9.AQ3")
    assert cards_text(hand) == "K♠ 2♠  10♦ 9♦  A♣ Q♣ 3♣"


@pytest.mark.parametrize("level", ["aleatorio", "normal"])
def test_robot_level_at_the_table(
    level: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "r.json"
    args = ["--seed", "6", "--robots", level, "--record", str(path), "--preset", "pagat"]
    code, _ = play_main(monkeypatch, capsys, args, "q\n")
    assert code == 0
    record = load(path)
    expected = f"robot:{level}"
    assert record["players"][1:] == [expected] * 3
    # the first bid (seat 1, left of the human dealer) is that level's robot's bid
    rules = Rules.from_preset("pagat")
    fresh = Game.new(rules, seed=6)
    robot = make_robots(rules, 6, level)[1]
    assert robot.act(fresh.view_for(1)) == Bid(record["hands"][0]["bids"][0])


def test_records_written_with_the_old_robot_name_still_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    code, _ = play_main(monkeypatch, capsys, ["--seed", "4", "--record", str(path)], "3\n" * 20)
    record = load(path)
    assert code == 0 and record["players"][1:] == ["robot:normal"] * 3
    record["players"] = ["human"] + ["robot:random"] * 3  # as play wrote them before
    game = rebuild(record)
    assert game_record(game, record["players"]) == record


def board_at(rules: Rules, seed: int, done: Callable[[Game], object]) -> tuple[TerminalGame, str]:
    """Robots play every seat (seat 0 too) until ``done(game)``; the terminal game
    and the board it draws for seat 0 then."""
    from espadas.cli.play.board import RichConsole

    table = TerminalGame(rules, seed, "es", ScriptConsole(lambda prompt: None))
    game = table.game
    robots = make_robots(rules, seed, "normal")
    robots[0] = make_robots(rules, seed + 1, "normal")[1]
    while not done(game):
        seat = game.to_act
        assert seat is not None
        game.apply(robots[seat].act(game.view_for(seat)))
    out = io.StringIO()
    table.screen.console = RichConsole(file=out, width=90)
    table.screen.show_status()
    return table, out.getvalue()


def test_the_terminal_board_shows_seats_trick_scores_and_hand_by_suit() -> None:
    table, text = board_at(
        Rules(),
        5,
        lambda g: g.phase == "playing" and g.to_act == 0 and g.view_for(0).trick,
    )
    view = table.game.view_for(0)
    assert view.held is not None and view.trick is not None
    for word in ("Apuestas", "Bazas ganadas", "Contratos", "Puntos", "Te toca jugar."):
        assert word in text
    for suit, name in zip("SHDC", ("espadas", "corazones", "diamantes", "tréboles"), strict=True):
        cards = " ".join(c.symbol for c in view.held.cards() if str(c)[1] == suit)
        line = next(line for line in text.splitlines() if f" {name} " in line)
        assert (cards or "—") in line
    for card in view.trick.cards:
        assert card.symbol in text


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_the_terminal_board_shows_the_two_of_clubs_in_the_trick(seed: int) -> None:
    # the 2♣ is card 0, a false int: the board once left its seat's cell empty
    table, text = board_at(
        Rules(first_lead="two_of_clubs"),
        seed,
        lambda g: g.phase == "playing" and g.to_act == 0,
    )
    trick = table.game.view_for(0).trick
    if trick is None or not trick.cards:
        pytest.skip("seat 0 holds the 2♣ with this seed")
    assert trick.cards[0] == Card("2C")
    leader = table.screen.label(trick.leader)
    row = next(line for line in text.splitlines() if line.strip("│ ").startswith(leader))
    assert "2♣" in row
