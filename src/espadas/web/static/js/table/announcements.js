// What the live region says when a new view arrives (bids, cards, tricks, hand
// and game results, your turn), and the sound and notification of your turn.
import { bidName, cardName, seatLabel, sideName, t } from "../i18n.js";
import { played, reasonText, sideOrder, tableId } from "./view.js";

export function changes(before, after) {
  const said = [];
  const a = after.game;
  const b = before ? before.game : null;
  if (!a) return said;
  if (!b || a.hand_number !== b.hand_number) {
    if (a.hand_number) said.push(t("say.new_hand", { n: a.hand_number, name: seatLabel(after, a.dealer) }));
  } else {
    a.bids.forEach((bid, seat) => {
      if (bid !== null && b.bids[seat] === null) said.push(t("say.bid", { name: seatLabel(after, seat), bid: bidName(bid) }));
    });
    const old = played(b);
    const now = played(a);
    for (const { card, seat } of now.slice(old.length)) {
      said.push(t("say.play", { name: seatLabel(after, seat), card: cardName(card) }));
    }
    if (a.tricks.length > b.tricks.length) {
      const last = a.tricks[a.tricks.length - 1];
      said.push(t("say.trick", { name: seatLabel(after, last.winner) }));
    }
  }
  if (a.hand_scores && (!b || !b.hand_scores || a.hand_number !== b.hand_number)) {
    const parts = sideOrder(after).map((i) => `${sideName(after, a.sides[i])} ${a.hand_scores[i] > 0 ? "+" : ""}${a.hand_scores[i]}`);
    said.push(t("say.hand_over", { scores: parts.join(", ") }));
  }
  for (const seat of after.replaced || []) {
    // a robot put in an absent person's seat (the person's name is the view's before)
    if (before && !(before.replaced || []).includes(seat)) said.push(t("say.replaced", { name: seatLabel(before, seat) }));
  }
  if (a.result && (!b || !b.result)) {
    said.push(t("ui.game_over", { side: sideName(after, a.result.winner), reason: reasonText(a.result.reason) }));
  }
  const mine = after.you !== null && a.to_act === after.you && !a.result;
  const wasMine = before && before.game && before.you !== null && before.game.to_act === before.you;
  if (mine && (!wasMine || a.phase !== b.phase)) said.push(t("say.your_turn"));
  return said;
}

export function notifyTurn() {
  if (localStorage.getItem("espadas.sound") === "on") {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 660;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch (error) {
      // no sound available
    }
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("mail.push.turn"), { body: document.title, tag: `espadas-${tableId}` });
  }
}
