"""Texts in Spanish (the default) and English: engine errors and interface strings.

Every error the engine raises carries a stable ``code`` and ``params``
(:mod:`espadas.engine.errors`); :func:`error_text` says it in the player's
language and falls back to the error's English message for a code it does not
know. :func:`translate` gives any text of the catalog.

>>> from espadas.engine import IllegalPlay
>>> err = IllegalPlay("must_follow", "you must follow hearts: ...", card="AS", suit="H")
>>> error_text(err)
'Debes asistir a corazones: no puedes jugar A♠.'
>>> error_text(err, "en")
'You must follow hearts: you may not play A♠.'
>>> translate("ui.bid_nil", "es"), seat_name(3, 4, "es"), seat_name(3, 4, "en")
('Nil', 'O', 'W')
"""

from __future__ import annotations

from typing import Any

from espadas.engine.card import Card
from espadas.engine.errors import EspadasError, InvalidDeal, InvalidRules, ParseError, RuleError
from espadas.engine.rules import CHOICES, OPTIONS, PRESETS

LANGS = ("es", "en")
DEFAULT_LANG = "es"

Template = str | tuple[str, ...]
"""One text per language; a tuple holds variants, the first whose parameters are
all given wins (an error raised with fewer parameters gets a plainer text)."""

TRANSLATED = (RuleError, InvalidRules, ParseError, InvalidDeal)
"""Errors whose codes the catalog says in every language. Record errors
(``RecordError``, ``ReplayError``) reuse some of these codes for other things and
carry their details only in the English message, which is what they show."""

SEAT_LETTERS = {"es": ("N", "E", "S", "O"), "en": ("N", "E", "S", "W")}

# Engine errors, by code. A key "code.phase" is a variant for that phase.
ERRORS: dict[str, dict[str, Template]] = {
    # game flow (WrongPhase, NotYourTurn, GameOver, RuleError)
    "not_your_turn": {
        "es": ("No es tu turno: le toca a {seat_name}.", "No es tu turno."),
        "en": ("It is not your turn: {seat_name} is to act.", "It is not your turn."),
    },
    "nobody_to_act": {
        "es": "Ahora no toca apostar ni jugar.",
        "en": "No bid or play is due now.",
    },
    "game_over": {"es": "La partida ha terminado.", "en": "The game is over."},
    "bad_seat": {"es": "Ese asiento no existe.", "en": "That is not a seat."},
    "not_dealing": {"es": "Ya hay una mano en curso.", "en": "A hand is already in progress."},
    "no_hand": {"es": "No hay ninguna mano en curso.", "en": "No hand is in progress."},
    "not_bidding": {"es": "Ahora no toca apostar.", "en": "No bid is due now."},
    "not_bidding.playing": {
        "es": "Las apuestas han terminado: juega una carta.",
        "en": "Bidding is over: play a card.",
    },
    "bids_due": {
        "es": "Primero se apuesta: todavía no se juegan cartas.",
        "en": "Bids are due before any card is played.",
    },
    "not_playing": {"es": "Ahora no toca jugar una carta.", "en": "No card is due now."},
    "not_playing.hand_end": {
        "es": "La mano ha terminado: pulsa Enter para seguir.",
        "en": "The hand is over: press Enter to go on.",
    },
    "hand_not_over": {"es": "La mano aún no ha terminado.", "en": "The hand is not over yet."},
    "not_final": {
        "es": "La partida aún no está decidida.",
        "en": "The game is not decided yet.",
    },
    "hand_over": {"es": "Esta mano ha terminado.", "en": "This hand is over."},
    "not_waiting": {
        "es": "La mesa no está esperando a ese jugador.",
        "en": "The game is not waiting for that player.",
    },
    "unknown_action": {"es": "Esa acción no existe.", "en": "That is not an action."},
    "after_end": {
        "es": ("La jugada {play} llega después del final de la partida.",),
        "en": ("Play {play} comes after the game ended.",),
    },
    # accusations (IllegalAccusation)
    "renege_prevented": {
        "es": "En esta mesa el renuncio está impedido: no hay nada que acusar.",
        "en": "Renege is prevented at this table: there is nothing to accuse.",
    },
    "against_partner": {
        "es": (
            "{by_name} y {against_name} son pareja: solo se puede acusar a un rival.",
            "Solo se puede acusar a un rival.",
        ),
        "en": (
            "{by_name} and {against_name} are partners: you may only accuse an opponent.",
            "You may only accuse an opponent.",
        ),
    },
    # bids (IllegalBid)
    "blind_nil_off": {
        "es": "En esta mesa no se juega Nil a ciegas.",
        "en": "Blind nil is not played at this table.",
    },
    "blind_nil_looked": {
        "es": "Nil a ciegas solo se puede apostar antes de mirar las cartas.",
        "en": "Blind nil is only for a player who has not looked at their cards.",
    },
    "bid_type": {
        "es": (
            "«{value}» no es una apuesta: apuesta un número de 0 (Nil) a {max}.",
            "Eso no es una apuesta: una apuesta es un número, Nil o Nil a ciegas.",
        ),
        "en": (
            "{value} is not a bid: bid a number 0 (Nil) to {max}.",
            "That is not a bid: a bid is a number, Nil or blind nil.",
        ),
    },
    "bid_range": {
        "es": ("Una apuesta es Nil (0) o de 1 a {max}, no {value}.",),
        "en": ("A bid is Nil (0) or 1 to {max}, not {value}.",),
    },
    "suicide_nil": {
        "es": "Suicida: tu pareja apostó un número, así que debes apostar Nil.",
        "en": "Suicide: your partner bid a number, so you must bid Nil.",
    },
    "suicide_min": {
        "es": "Suicida: apuesta Nil o 4 o más.",
        "en": "Suicide: bid Nil or 4 or more.",
    },
    "no_hell": {
        "es": (
            "Sin infierno: las apuestas no pueden sumar el número de bazas;"
            " no puedes apostar {value_name}.",
            "Sin infierno: las apuestas no pueden sumar el número de bazas.",
        ),
        "en": (
            "No hell: the bids may not add up to the number of tricks;"
            " you may not bid {value_name}.",
            "No hell: the bids may not add up to the number of tricks.",
        ),
    },
    # plays (IllegalPlay)
    "card_type": {
        "es": ("{card} no es una carta.", "Eso no es una carta como QH."),
        "en": ("{card} is not a card.", "That is not a card such as QH."),
    },
    "not_in_hand": {
        "es": ("{card} no está en tu mano.",),
        "en": ("{card} is not in your hand.",),
    },
    "first_lead": {
        "es": ("La primera baza se sale con {card}.",),
        "en": ("The first trick is led with {card}.",),
    },
    "spades_not_broken": {
        "es": (
            "Las espadas no están rotas: no puedes salir con {card} mientras tengas otro palo.",
        ),
        "en": ("Spades are not broken: you may not lead {card} while you hold another suit.",),
    },
    "must_follow": {
        "es": ("Debes asistir a {suit_name}: no puedes jugar {card}.",),
        "en": ("You must follow {suit_name}: you may not play {card}.",),
    },
    "first_trick_spade": {
        "es": (
            "En la primera baza no se juegan espadas mientras tengas otro palo:"
            " no puedes jugar {card}.",
        ),
        "en": (
            "No spades in the first trick while you hold another suit: you may not play {card}.",
        ),
    },
    # rules (InvalidRules)
    "unknown_preset": {
        "es": ("Modalidad desconocida «{preset}»; las modalidades son {presets}.",),
        "en": ("Unknown preset {preset!r}; the presets are {presets}.",),
    },
    "unknown_side": {
        "es": ("Lado desconocido «{side}».",),
        "en": ("Unknown side {side!r}.",),
    },
    "unknown_option": {
        "es": ("Opción desconocida «{option}»; las opciones son {options}.",),
        "en": ("Unknown option {option!r}; the options are {options}.",),
    },
    "option_value": {
        "es": ("{option} debe ser {choices}, no {value_text}.",),
        "en": ("{option} must be {choices}, not {value_text}.",),
    },
    "rules_type": {
        "es": 'Las reglas deben ser un objeto como {{"preset": "sala"}}.',
        "en": 'Rules must be an object such as {{"preset": "sala"}}.',
    },
    "players": {
        "es": "El número de jugadores debe ser 3, 4, 5 o 6, no {players}.",
        "en": "Players must be 3, 4, 5 or 6, not {players}.",
    },
    "target": {
        "es": "La meta debe ser un número positivo de puntos, no {target}.",
        "en": "The target must be a positive number of points, not {target}.",
    },
    "mercy": {
        "es": "El suelo de piedad (mercy) debe ser negativo o null.",
        "en": "Mercy must be a negative floor or null.",
    },
    "partnerships": {
        "es": "Las parejas necesitan 4 jugadores; con {players} pon partnerships=false.",
        "en": "Partnerships need 4 players; with {players} set partnerships=false.",
    },
    "suicide": {
        "es": "Suicida necesita parejas (4 jugadores, partnerships=true).",
        "en": "Suicide needs partnerships (4 players, partnerships=true).",
    },
    "suicide_no_hell": {
        "es": "Suicida y sin infierno no pueden ir juntos; elige uno.",
        "en": "Suicide and no_hell cannot both be on; choose one.",
    },
    "renege_individual": {
        "es": "renege=allowed necesita parejas; las partidas individuales usan renege=prevented.",
        "en": "renege=allowed needs partnerships; individual games use renege=prevented.",
    },
    # text (ParseError)
    "card_index": {
        "es": ("El índice de una carta va de 0 a 51, no {value}.",),
        "en": ("A card index is 0..51, not {value}.",),
    },
    "cardset_mask": {
        "es": ("{value} no es una máscara de 52 cartas.",),
        "en": ("{value} is not a 52-card mask.",),
    },
    "card_syntax": {
        "es": (
            "«{text}» no es una carta: escribe un valor (2-9, T o 10, J, Q, K, A)"
            " y un palo (S, H, D, C o ♠ ♥ ♦ ♣), como AS o 10H.",
        ),
        "en": (
            "{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A)"
            " and a suit (S, H, D, C or ♠ ♥ ♦ ♣), as in AS or 10H.",
        ),
    },
    "hand_syntax": {
        "es": (
            "«{text}»: «{rank}» no es un valor de carta.",
            "«{text}» no es una mano: escribe cuatro palos separados por puntos,"
            " espadas primero, como AKQ.JT9.8765.432.",
        ),
        "en": (
            "{text!r}: {rank!r} is not a rank.",
            "{text!r} is not a hand: write four suits separated by dots,"
            " spades first, as in AKQ.JT9.8765.432.",
        ),
    },
    "hand_duplicate": {
        "es": ("«{text}»: {card} aparece dos veces.",),
        "en": ("{text!r}: {card} appears twice.",),
    },
    # deals (InvalidDeal)
    "deal_hands": {
        "es": ("Un reparto no tiene {hands} manos.",),
        "en": ("A deal does not have {hands} hands.",),
    },
    "deal_mask": {
        "es": ("La mano {seat} no es un conjunto de cartas.",),
        "en": ("Hand {seat} is not a set of cards.",),
    },
    "deal_size": {
        "es": ("La mano {seat} no tiene el número de cartas que toca.",),
        "en": ("Hand {seat} does not have the right number of cards.",),
    },
    "deal_duplicate": {
        "es": ("{card} se reparte dos veces.",),
        "en": ("{card} is dealt twice.",),
    },
    "deal_removed": {
        "es": ("{card} se quita de la baraja con este número de jugadores.",),
        "en": ("{card} is removed from the deck with this number of players.",),
    },
}

# Interface strings of the terminal game.
UI: dict[str, dict[str, Template]] = {
    "ui.you": {"es": "tú", "en": "you"},
    "ui.seat": {"es": "asiento {seat}", "en": "seat {seat}"},
    "ui.suit.S": {"es": "espadas", "en": "spades"},
    "ui.suit.H": {"es": "corazones", "en": "hearts"},
    "ui.suit.D": {"es": "diamantes", "en": "diamonds"},
    "ui.suit.C": {"es": "tréboles", "en": "clubs"},
    "ui.bid_nil": {"es": "Nil", "en": "Nil"},
    "ui.bid_blind": {"es": "Nil a ciegas", "en": "Blind nil"},
    "ui.no_bid": {"es": "—", "en": "—"},
    "ui.choices_int": {"es": "un número entero", "en": "an integer"},
    "ui.choices_int_null": {"es": "un número entero o null", "en": "an integer or null"},
    "ui.choices_one_of": {"es": "uno de {items}", "en": "one of {items}"},
    "ui.start": {
        "es": "Espadas — modalidad {preset}, {players} jugadores, meta {target}. Semilla: {seed}",
        "en": "Espadas — preset {preset}, {players} players, target {target}. Seed: {seed}",
    },
    "ui.seat_partner": {
        "es": "Tu asiento: {seat}; tu pareja: {partner}. Los demás son robots.",
        "en": "Your seat: {seat}; your partner: {partner}. The others are robots.",
    },
    "ui.seat_alone": {
        "es": "Tu asiento: {seat} (de 0 a {last}); cada uno juega para sí. Los demás son robots.",
        "en": "Your seat: {seat} (of 0 to {last}); each plays for themself. The others are robots.",
    },
    "ui.renege_note": {
        "es": "Renuncio permitido: escribe «acusar E» u «acusar O» si crees que un rival renunció.",
        "en": "Renege allowed: type 'accuse E' or 'accuse W' if you think an opponent reneged.",
    },
    "ui.help_hint": {
        "es": "Escribe ? para ver qué puedes hacer, o «salir» para dejar la partida.",
        "en": "Type ? to see what you can do, or 'quit' to leave the game.",
    },
    "ui.hand_start": {
        "es": "── Mano {number} · reparte {dealer} ──",
        "en": "── Hand {number} · {dealer} deals ──",
    },
    "ui.hand_start_you": {
        "es": "── Mano {number} · repartes tú ──",
        "en": "── Hand {number} · you deal ──",
    },
    "ui.bids": {"es": "Apuestas: {items}", "en": "Bids: {items}"},
    "ui.contracts": {"es": "Contratos: {items}", "en": "Contracts: {items}"},
    "ui.trick_lead": {
        "es": "Baza {number}: sale {leader}.",
        "en": "Trick {number}: {leader} leads.",
    },
    "ui.trick_lead_you": {
        "es": "Baza {number}: sales tú.",
        "en": "Trick {number}: you lead.",
    },
    "ui.trick_now": {"es": "Baza {number}: {items}", "en": "Trick {number}: {items}"},
    "ui.tricks_taken": {"es": "Bazas ganadas: {items}", "en": "Tricks taken: {items}"},
    "ui.scores": {"es": "Puntos: {items}", "en": "Score: {items}"},
    "ui.score_item": {
        "es": "{side} {points} ({bags} sacos)",
        "en": "{side} {points} ({bags} bags)",
    },
    "ui.your_hand": {"es": "Tu mano: {cards}", "en": "Your hand: {cards}"},
    "ui.hand_hidden": {
        "es": "Tus cartas están boca abajo: «mirar» para verlas, «ciegas» para Nil a ciegas.",
        "en": "Your cards are face down: 'look' to see them, 'blind' to bid blind nil.",
    },
    "ui.turn_bid": {"es": "Te toca apostar.", "en": "Your turn to bid."},
    "ui.turn_play": {"es": "Te toca jugar.", "en": "Your turn to play."},
    "ui.prompt_bid": {"es": "Tu apuesta: ", "en": "Your bid: "},
    "ui.prompt_play": {"es": "Tu carta: ", "en": "Your card: "},
    "ui.prompt_next": {
        "es": "Enter para la siguiente mano: ",
        "en": "Enter for the next hand: ",
    },
    "ui.prompt_end": {
        "es": "Enter para terminar la partida: ",
        "en": "Enter to end the game: ",
    },
    "ui.bid_made": {"es": "{seat} apuesta {bid}.", "en": "{seat} bids {bid}."},
    "ui.you_bid": {"es": "Apuestas {bid}.", "en": "You bid {bid}."},
    "ui.trick_done": {
        "es": "Baza {number}: {items} — se la lleva {winner}.",
        "en": "Trick {number}: {items} — {winner} takes it.",
    },
    "ui.trick_done_you": {
        "es": "Baza {number}: {items} — te la llevas tú.",
        "en": "Trick {number}: {items} — you take it.",
    },
    "ui.hand_over": {"es": "Fin de la mano {number}.", "en": "End of hand {number}."},
    "ui.hand_score": {"es": "Puntos de la mano: {items}", "en": "This hand: {items}"},
    "ui.totals": {"es": "Totales: {items}", "en": "Totals: {items}"},
    "ui.boston": {
        "es": "¡Boston! {side} se lleva todas las bazas.",
        "en": "Boston! {side} took every trick.",
    },
    "ui.decided": {
        "es": "La partida está decidida.",
        "en": "The game is decided.",
    },
    "ui.decided_renege": {
        "es": "La partida está decidida; aún puedes acusar un renuncio antes de terminar.",
        "en": "The game is decided; you may still accuse a renege before it ends.",
    },
    "ui.game_over": {
        "es": "Fin de la partida: gana {side} ({reason}).",
        "en": "Game over: {side} wins ({reason}).",
    },
    "ui.game_over_you": {
        "es": "Fin de la partida: ganas tú ({reason}).",
        "en": "Game over: you win ({reason}).",
    },
    "ui.you_won": {"es": "¡Has ganado!", "en": "You won!"},
    "ui.you_lost": {"es": "Has perdido.", "en": "You lost."},
    "ui.reason.target": {
        "es": "llega a la meta de {target}",
        "en": "reached the target of {target}",
    },
    "ui.reason.mercy": {
        "es": "un lado cayó a {mercy} o menos",
        "en": "a side fell to {mercy} or below",
    },
    "ui.reason.renege": {"es": "{loser} renunció", "en": "{loser} reneged"},
    "ui.reason.false_accusation": {
        "es": "{loser} acusó en falso",
        "en": "{loser} made a false accusation",
    },
    "ui.reason.abandon": {"es": "{loser} abandonó", "en": "{loser} abandoned"},
    "ui.reason.timeout": {"es": "{loser} agotó el tiempo", "en": "{loser} ran out of time"},
    "ui.help_bids": {"es": "Apuestas posibles: {items}", "en": "Possible bids: {items}"},
    "ui.help_bid_words": {
        "es": "Escribe un número; «nil» o 0 para Nil; «ciegas» para Nil a ciegas;"
        " «mirar» para ver tus cartas.",
        "en": "Type a number; 'nil' or 0 for Nil; 'blind' for blind nil; 'look' to see your cards.",
    },
    "ui.help_look": {"es": "mirar", "en": "look"},
    "ui.help_cards": {"es": "Cartas posibles: {items}", "en": "Possible cards: {items}"},
    "ui.help_card_words": {
        "es": "Escribe la carta como AS, 10h, td o A♠.",
        "en": "Type the card as AS, 10h, td or A♠.",
    },
    "ui.help_renege": {
        "es": "Renuncio permitido: también puedes jugar otra carta, pero si un rival"
        " te acusa, pierdes la partida.",
        "en": "Renege allowed: you may also play another card, but if an opponent"
        " accuses you, you lose the game.",
    },
    "ui.help_next": {
        "es": "La mano ha terminado: pulsa Enter para la siguiente.",
        "en": "The hand is over: press Enter for the next one.",
    },
    "ui.help_end": {
        "es": "La partida está decidida: pulsa Enter para terminarla.",
        "en": "The game is decided: press Enter to end it.",
    },
    "ui.help_commands": {
        "es": "Otras órdenes: ? (ayuda), salir.",
        "en": "Other commands: ? (help), quit.",
    },
    "ui.help_accuse": {
        "es": "Acusar de renuncio: «acusar E» o «acusar O».",
        "en": "Accuse of a renege: 'accuse E' or 'accuse W'.",
    },
    "ui.unknown_input": {
        "es": "No entiendo «{text}». Escribe ? para ver qué puedes hacer.",
        "en": "I do not understand {text!r}. Type ? to see what you can do.",
    },
    "ui.accuse_who": {
        "es": "¿A quién acusas? Escribe, por ejemplo, «acusar E».",
        "en": "Whom do you accuse? Type, for example, 'accuse E'.",
    },
    "ui.accusation": {
        "es": "Acusas a {against} de renuncio.",
        "en": "You accuse {against} of a renege.",
    },
    "ui.accusation_true": {
        "es": "Es cierto: {against} renunció en esta mano.",
        "en": "True: {against} reneged in this hand.",
    },
    "ui.accusation_false": {
        "es": "Es falso: {against} no renunció en esta mano.",
        "en": "False: {against} did not renege in this hand.",
    },
    "ui.already_looked": {"es": "Ya ves tus cartas.", "en": "You already see your cards."},
    "ui.quit": {"es": "Partida interrumpida.", "en": "Game interrupted."},
    "ui.saved": {"es": "Registro guardado en {path}", "en": "Record saved to {path}"},
    "ui.save_failed": {
        "es": "No se pudo guardar el registro en {path}: {error}",
        "en": "Could not save the record to {path}: {error}",
    },
    "ui.bad_rules": {"es": "Reglas no válidas: {error}", "en": "Invalid rules: {error}"},
    # espadas verify
    "ui.verify_ok": {"es": "Mano {hand}: correcta", "en": "Hand {hand}: correct"},
    "ui.verify_mismatch": {
        "es": "Mano {hand}: NO coincide (compromiso {expected}, calculado {actual})",
        "en": "Hand {hand}: does NOT match (commitment {expected}, computed {actual})",
    },
    "ui.verify_no_commitment": {
        "es": "Mano {hand}: sin compromiso",
        "en": "Hand {hand}: no commitment",
    },
    "ui.verify_no_salt": {
        "es": "Mano {hand}: sin sal (compromiso {expected})",
        "en": "Hand {hand}: no salt (commitment {expected})",
    },
    "ui.verify_all_ok": {
        "es": "Todas las manos ({count}) coinciden con su compromiso.",
        "en": "Every hand ({count}) matches its commitment.",
    },
    "ui.verify_no_hands": {
        "es": "El registro no tiene manos: nada que verificar.",
        "en": "The record has no hands: nothing to verify.",
    },
    "ui.verify_failed": {
        "es": "Fallan {bad} de {count} manos: {items}.",
        "en": "{bad} of {count} hands fail: {items}.",
    },
    "ui.verify_bad_record": {
        "es": "Registro no válido: {error}",
        "en": "Invalid record: {error}",
    },
    # API refusals that are not table rules
    "api.too_many": {
        "es": "Demasiadas peticiones: espera un momento.",
        "en": "Too many requests: wait a moment.",
    },
    "api.bad_origin": {
        "es": "Petición de otro sitio rechazada.",
        "en": "Request from another site refused.",
    },
    "api.csrf": {
        "es": "Falta el código de seguridad de la página (CSRF): recarga la página.",
        "en": "The page's security token (CSRF) is missing: reload the page.",
    },
    "api.too_big": {
        "es": "La petición es demasiado grande.",
        "en": "The request is too big.",
    },
    "api.not_found": {
        "es": "No existe esa mesa.",
        "en": "There is no such table.",
    },
    "api.no_session": {
        "es": "Primero elige tu nombre.",
        "en": "Choose your name first.",
    },
    "api.bad_request": {
        "es": "Petición no válida: {detail}",
        "en": "Invalid request: {detail}",
    },
    "api.bad_link": {
        "es": "Ese enlace para continuar no es válido.",
        "en": "That resume link is not valid.",
    },
    # e-mail notices
    "mail.turn.subject": {
        "es": "Espadas: te toca en la mesa de {creator}",
        "en": "Espadas: your turn at {creator}'s table",
    },
    "mail.turn.lead": {
        "es": "Te toca {what} en la mesa de {creator}.",
        "en": "It is your turn to {what} at {creator}'s table.",
    },
    "mail.reminder_half.subject": {
        "es": "Espadas: la mesa de {creator} te espera",
        "en": "Espadas: {creator}'s table is waiting for you",
    },
    "mail.reminder_half.lead": {
        "es": "La mesa de {creator} te espera desde hace {hours} horas.",
        "en": "{creator}'s table has been waiting for you for {hours} hours.",
    },
    "mail.reminder_90.subject": {
        "es": "Espadas: último aviso en la mesa de {creator}",
        "en": "Espadas: last reminder at {creator}'s table",
    },
    "mail.reminder_90.lead": {
        "es": "Si no juegas antes del {deadline}, la otra pareja podrá cerrar la partida.",
        "en": "If you do not play by {deadline}, the other side may close the game.",
    },
    "mail.claimable.subject": {
        "es": "Espadas: puedes cerrar la partida en la mesa de {creator}",
        "en": "Espadas: you may close the game at {creator}'s table",
    },
    "mail.claimable.lead": {
        "es": "{name} no jugó a tiempo: puedes cerrar la partida, y su pareja pierde.",
        "en": "{name} did not play in time: you may close the game, and their side loses.",
    },
    "mail.digest.subject": {
        "es": "Espadas: mesas que te esperan",
        "en": "Espadas: tables waiting for you",
    },
    "mail.digest.lead": {
        "es": "Estas mesas esperan que juegues:",
        "en": "These tables are waiting for you:",
    },
    "mail.bid": {"es": "apostar", "en": "bid"},
    "mail.play": {"es": "jugar", "en": "play"},
    "mail.since": {
        "es": "Desde la última vez que miraste:",
        "en": "Since you last looked:",
    },
    "mail.open": {"es": "Abrir la mesa: {url}", "en": "Open the table: {url}"},
    "mail.resume": {
        "es": "Tu enlace privado para seguir en cualquier dispositivo: {url}",
        "en": "Your private link to continue on any device: {url}",
    },
    "mail.unsubscribe": {
        "es": "No más avisos de esta mesa: {url}",
        "en": "No more notices from this table: {url}",
    },
    "mail.confirm.subject": {
        "es": "Espadas: confirma tu correo",
        "en": "Espadas: confirm your e-mail",
    },
    "mail.confirm.body": {
        "es": "Para recibir avisos de Espadas en este correo, abre este enlace: {url}",
        "en": "To get Espadas notices at this address, open this link: {url}",
    },
    "mail.event.bid": {"es": "{name} apostó {bid}", "en": "{name} bid {bid}"},
    "mail.event.play": {"es": "{name} jugó {card}", "en": "{name} played {card}"},
    "mail.event.deal": {"es": "Nueva mano", "en": "New hand"},
    "mail.push.turn": {"es": "¡Tu turno!", "en": "Your turn!"},
    "page.confirmed": {
        "es": "Correo confirmado: recibirás avisos cuando te toque.",
        "en": "E-mail confirmed: you will get notices when it is your turn.",
    },
    "page.bad_confirm": {
        "es": "Ese enlace de confirmación no es válido (¿ya lo usaste?).",
        "en": "That confirmation link is not valid (already used?).",
    },
    "page.unsubscribed": {
        "es": "Listo: no recibirás más avisos por correo de esta mesa.",
        "en": "Done: you will get no more e-mail notices from this table.",
    },
    "page.unsubscribed_all": {
        "es": "Listo: no recibirás más avisos por correo.",
        "en": "Done: you will get no more e-mail notices.",
    },
    "page.bad_unsubscribe": {
        "es": "Ese enlace para darte de baja no es válido.",
        "en": "That unsubscribe link is not valid.",
    },
    "api.bad_email": {
        "es": "Esa dirección de correo no parece válida.",
        "en": "That e-mail address does not look valid.",
    },
    "api.bad_mode": {
        "es": "Los avisos pueden estar activados, desactivados o en resumen diario.",
        "en": "Notices may be on, off or a daily digest.",
    },
    "api.bad_subscription": {
        "es": "El navegador envió una suscripción no válida: {detail}",
        "en": "The browser sent an invalid subscription: {detail}",
    },
    "api.no_push": {
        "es": "Este servidor no envía avisos push.",
        "en": "This server does not send push notices.",
    },
    "api.not_found_path": {
        "es": "No existe esa dirección.",
        "en": "There is no such address.",
    },
}

# Table and API errors (the tables layer and the server), by code.
TABLE_ERRORS: dict[str, dict[str, Template]] = {
    "not_seated": {
        "es": "Solo quienes están sentados a esta mesa pueden hacer eso.",
        "en": "Only the players seated at this table may do that.",
    },
    "not_creator": {
        "es": "Solo quien armó la mesa puede hacer eso.",
        "en": "Only the table's creator may do that.",
    },
    "already_started": {
        "es": "La partida ya empezó.",
        "en": "The game has already started.",
    },
    "not_started": {
        "es": "La partida todavía no empezó.",
        "en": "The game has not started yet.",
    },
    "no_partners": {
        "es": "Es una partida individual: no hay parejas.",
        "en": "This is an individual game: there are no partners.",
    },
    "bad_partner": {
        "es": "Tu compañero es uno de los asientos 1, 2 o 3.",
        "en": "Your partner is one of the seats 1, 2 or 3.",
    },
    "bad_robot": {
        "es": "No hay un robot «{level}». Elige entre: {levels}.",
        "en": "There is no robot “{level}”. Choose one of: {levels}.",
    },
    "seat_taken": {
        "es": "El asiento {seat} no está libre.",
        "en": "Seat {seat} is not empty.",
    },
    "not_robot": {
        "es": "Solo se puede liberar el asiento de un robot.",
        "en": "Only a robot's seat can be freed.",
    },
    "seats_empty": {
        "es": "Faltan jugadores: invita a alguien o completa con robots.",
        "en": "Seats are empty: invite someone or add robots.",
    },
    "bad_action": {
        "es": "Esa acción no existe.",
        "en": "That action does not exist.",
    },
    "bad_bid": {
        "es": "Una apuesta es un número de bazas, nil o blind_nil.",
        "en": "A bid is a number of tricks, nil or blind_nil.",
    },
    "bad_card": {
        "es": "Una carta se escribe como AS, 10H o QD.",
        "en": "A card is written like AS, 10H or QD.",
    },
    "no_claim": {
        "es": "Nadie está haciendo esperar a la mesa.",
        "en": "Nobody is keeping the table waiting.",
    },
    "no_claim_own": {
        "es": "No puedes cerrar la partida contra tu propia pareja.",
        "en": "You cannot close the game on your own side.",
    },
    "claim_early": {
        "es": "Todavía no pasó el tiempo límite del turno (se cumple el {at}).",
        "en": "The turn limit has not passed yet (it does at {at}).",
    },
    "not_finished": {
        "es": "La revancha se juega cuando termina la partida.",
        "en": "A rematch follows a finished game.",
    },
    "rematch_exists": {
        "es": "La revancha ya está abierta.",
        "en": "The rematch is already open.",
    },
    "busy": {
        "es": "La mesa está ocupada; vuelve a intentarlo.",
        "en": "The table is busy; try again.",
    },
    "no_look": {
        "es": "Tus cartas ya están a la vista.",
        "en": "Your cards are already face up.",
    },
    "bad_target": {
        "es": "La meta es de {allowed} puntos con este preset.",
        "en": "The target is {allowed} points with this preset.",
    },
    "robot_renege": {
        "es": "Un robot no puede renunciar.",
        "en": "A robot may not renege.",
    },
}

CATALOG: dict[str, dict[str, Template]] = {**ERRORS, **UI, **TABLE_ERRORS}


def seat_name(seat: int, players: int = 4, lang: str = DEFAULT_LANG) -> str:
    """``N``/``E``/``S``/``O`` (``W`` in English) with 4 players, else ``asiento 3``."""
    if players == 4 and 0 <= seat < 4:
        return SEAT_LETTERS[_lang(lang)][seat]
    return _fill(_template("ui.seat", lang) or "{seat}", {"seat": seat})


def suit_name(suit_char: str, lang: str = DEFAULT_LANG) -> str:
    """``espadas``, ``corazones``, … for ``S``, ``H``, ``D``, ``C``."""
    return translate(f"ui.suit.{suit_char.upper()}", lang)


def bid_name(value: object, lang: str = DEFAULT_LANG) -> str:
    """``Nil``, ``Nil a ciegas``, a number, or a dash for no bid yet."""
    if value is None:
        return translate("ui.no_bid", lang)
    if value == "blind_nil":
        return translate("ui.bid_blind", lang)
    if value == 0 and not isinstance(value, bool):
        return translate("ui.bid_nil", lang)
    return str(value)


def translate(code: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    """The text for ``code`` in ``lang`` (English where the language lacks it).
    An unknown code gives the code itself. Raises ``KeyError`` when a parameter
    the text needs is missing."""
    template = _template(_variant(code, params), lang)
    if template is None:
        return code
    return _fill(template, _derived(params, lang))


def error_text(err: EspadasError, lang: str = DEFAULT_LANG, *, players: int = 4) -> str:
    """What ``err`` means, in ``lang``; its English message for a code without a
    text (or raised with parameters the text cannot use)."""
    known = isinstance(err, TRANSLATED) and err.code in ERRORS
    if not known and err.code not in TABLE_ERRORS:
        return err.message
    try:
        return translate(err.code, lang, players=players, **err.params)
    except (KeyError, IndexError, ValueError):
        return err.message


def has_text(code: str, lang: str) -> bool:
    """Whether the catalog holds ``code`` in ``lang`` itself (no fallback)."""
    return lang in CATALOG.get(code, {})


def _template(code: str, lang: str) -> Template | None:
    entry = CATALOG.get(code, {})
    return entry.get(_lang(lang)) or entry.get("en")


def _lang(lang: str) -> str:
    return lang if lang in LANGS else DEFAULT_LANG


def _variant(code: str, params: dict[str, Any]) -> str:
    phase = params.get("phase")
    if isinstance(phase, str) and f"{code}.{phase}" in CATALOG:
        return f"{code}.{phase}"
    return code


def _fill(template: Template, params: dict[str, Any]) -> str:
    variants = (template,) if isinstance(template, str) else template
    missing: KeyError | None = None
    for text in variants:
        try:
            return text.format_map(params)
        except KeyError as exc:
            missing = exc
    raise missing or KeyError(variants)


def _derived(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """The parameters plus the names a text may want: seats, suits, cards, bids."""
    out = dict(params)
    players = params.get("players", 4)
    for key in ("seat", "by", "against"):
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[f"{key}_name"] = seat_name(value, players, lang)
    suit = params.get("suit")
    if isinstance(suit, str) and suit.upper() in "SHDC" and len(suit) == 1:
        out["suit_name"] = suit_name(suit, lang)
    card = params.get("card")
    if isinstance(card, str):
        out["card"] = _card_symbol(card)
    if "value" in params:
        out["value_name"] = bid_name(params["value"], lang)
        out["value_text"] = _show(params["value"])
    if isinstance(params.get("option"), str):
        out["choices"] = _choices(params["option"], lang)
    out.setdefault("presets", ", ".join(PRESETS))
    out.setdefault("options", ", ".join(OPTIONS))
    return out


def _card_symbol(text: str) -> str:
    try:
        return Card.parse(text).symbol
    except ParseError:
        return text


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _choices(option: str, lang: str) -> str:
    allowed = CHOICES.get(option)
    if allowed is None:
        return translate("ui.choices_int_null" if option == "mercy" else "ui.choices_int", lang)
    items = ", ".join(_show(a) for a in allowed)
    return translate("ui.choices_one_of", lang, items=items)
