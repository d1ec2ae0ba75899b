#!/usr/bin/env node
// A robot for Espadas in JavaScript: the espadas-robot/1 protocol (one JSON
// request a line on standard input, one JSON answer a line on standard output).
// It bids its sure tricks (aces, kings, and spades from the queen up, plus one
// for every spade past the fourth) and plays simply: when following, the
// lowest card that wins the trick or else its lowest card; when leading, its
// highest card outside spades.
//   espadas match cmd:"node docs/examples/robot.js" aleatorio --deals 20
const readline = require("readline");

const RANKS = "23456789TJQKA";
const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => card[1];

function bid(request) {
  const hand = request.hand;
  let tricks = hand.filter((c) => c[0] === "A" || (c[0] === "K" && suit(c) !== "S")).length;
  const spades = hand.filter((c) => suit(c) === "S");
  tricks += spades.filter((c) => "KQ".includes(c[0])).length;
  tricks += Math.max(0, spades.length - 4);
  const numbers = request.legal.filter((b) => Number.isInteger(b) && b > 0);
  const wanted = Math.max(1, tricks);
  return numbers.includes(wanted) ? wanted : numbers[0] ?? request.legal[0];
}

function beats(card, best) {
  if (suit(card) === suit(best)) return rank(card) > rank(best);
  return suit(card) === "S" && suit(best) !== "S";
}

function play(request) {
  const legal = [...request.legal].sort((a, b) => rank(a) - rank(b));
  const cards = request.trick.cards;
  if (cards.length === 0) {
    const plain = legal.filter((c) => suit(c) !== "S");
    return (plain.length ? plain : legal)[(plain.length ? plain : legal).length - 1];
  }
  let best = cards[0];
  for (const c of cards.slice(1)) if (beats(c, best)) best = c;
  return legal.find((c) => beats(c, best)) ?? legal[0];
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = JSON.parse(line);
  if (request.quit) process.exit(0);
  const answer = request.phase === "bid" ? { bid: bid(request) } : { card: play(request) };
  process.stdout.write(JSON.stringify(answer) + "\n");
});
