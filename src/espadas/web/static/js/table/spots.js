// Where the trick's cards lie on the felt: each in front of the seat that
// played it, the whole pattern drawn in toward the free middle of the felt (and
// the cards made smaller, if need be) until no card, nor the winner's mark
// under it, covers a seat, and no card covers more than a corner of another
// (so each card of the trick is seen, its index and most of its face). Measured
// in the page, so it holds at every size and for three to six players; set
// through the CSSOM, which the page's Content-Security-Policy allows (style
// attributes in markup it refuses).

const MARGIN = 4; // px kept between a card (its winner's outline) and a seat
const SMALLEST = 0.55; // the smallest card, as a share of the stylesheet's width
const CORNER = 0.5; // two cards may share at most this much of a card's width and height

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

// The boxes the cards would take at spreads sx, sy around (cx, cy), each card
// w x h plus what the winner's mark and outline need around it (below[i] under
// card i).
function boxes(spots, cx, cy, sx, sy, w, h, below) {
  return spots.map((p, i) => {
    const x = cx + sx * p.x;
    const y = cy + sy * p.y;
    return { x, y, left: x - w / 2 - MARGIN, right: x + w / 2 + MARGIN, top: y - h / 2 - MARGIN, bottom: y + h / 2 + below[i] };
  });
}

function clear(list, seats, width, height) {
  return list.every((b) => b.left >= 0 && b.top >= 0 && b.right <= width && b.bottom <= height && seats.every((r) => !overlaps(b, r)));
}

// Whether no two cards (w x h, centred on the boxes' x and y) share more than a
// corner: apart, or overlapping by at most half a card each way.
function cornersOnly(list, w, h) {
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const ox = w - Math.abs(list[i].x - list[j].x);
      const oy = h - Math.abs(list[i].y - list[j].y);
      if (ox > 0.5 && oy > 0.5 && (ox > w * CORNER + 0.5 || oy > h * CORNER + 0.5)) return false;
    }
  }
  return true;
}

const ACROSS = [2, 1.6, 1.3, 1, 0.8, 0.6, 0.4, 0.2, 0];

// The best placing: the largest cards first, then the widest spread up and
// down, the centre moved up or down (and sideways) as the seats leave room,
// then the widest spread across (wider than the seats' directions if there is
// room: cards side by side hide less of each other). `apart`: cards share at
// most a corner (the first search); without it, only the seats are kept clear.
function search(spots, seats, width, height, w0, ratio, below, apart) {
  const smallest = apart ? SMALLEST : 0.7;
  for (let w = w0; w >= w0 * smallest - 0.01; w -= w0 * 0.05) {
    const h = w * ratio;
    const last = w < w0 * smallest + w0 * 0.05 - 0.01;
    for (let sy = 1.4; sy >= -0.001; sy -= 0.05) {
      if (sy < 0.25 && !last) break; // rather a smaller card than a heap
      for (let dy = 0; dy <= height / 4; dy += 4) {
        for (const cy of dy ? [height / 2 - dy, height / 2 + dy] : [height / 2]) {
          for (const cx of [width / 2, width / 2 - width / 12, width / 2 + width / 12]) {
            for (const sx of ACROSS) {
              const list = boxes(spots, cx, cy, sx, Math.max(sy, 0), w, h, below);
              if (clear(list, seats, width, height) && (!apart || cornersOnly(list, w, h))) return { w, list };
            }
          }
        }
      }
    }
  }
  return null;
}

// Lays the cards out in box (the trick's region, which covers the felt): card i
// was played by seat played[i]; every[seat] is the unit direction of each seat
// from the felt's centre (all of them, so the pattern stays as the trick fills).
export function layOut(box, cards, played, every) {
  if (!cards.length) return;
  const area = box.getBoundingClientRect();
  if (!area.width || !area.height) return;
  box.style.removeProperty("--trick-w");
  const w0 = cards[0].offsetWidth;
  const ratio = cards[0].offsetHeight / w0 || 1.4;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const below = rem + MARGIN; // the winner's mark hangs under the card
  const seats = [...document.querySelectorAll("#seats .seat")].map((s) => {
    const r = s.getBoundingClientRect();
    return { left: r.left - area.left, right: r.right - area.left, top: r.top - area.top, bottom: r.bottom - area.top };
  });
  const spots = every.map((d) => ({ x: 0.14 * area.width * d.x, y: 0.19 * area.height * d.y }));
  // room for the mark under every card, so that the pattern stays as the trick
  // fills; on a crowded felt (six seats on a phone), under the winner's card
  // only; failing that, the mark lies on the winner's card itself, over its foot
  const everyMark = every.map(() => below);
  const won = cards.findIndex((card) => card.classList.contains("won"));
  const winnerMark = every.map((_, seat) => (won >= 0 && played[won] === seat ? below : MARGIN));
  const noMark = every.map(() => MARGIN);
  // the side seats' cards drawn further apart up and down than the seats
  // themselves are, where the felt is crowded (six seats, two on each side)
  const taller = [1.5, 2].map((k) => spots.map((p) => (Math.abs(p.x) > 1 ? { x: p.x, y: p.y * k } : p)));
  const apart = (marks) => {
    for (const shape of [spots, ...taller]) {
      const placing = search(shape, seats, area.width, area.height, w0, ratio, marks, true);
      if (placing) return placing;
    }
    return null;
  };
  let inside = false;
  // cards that share at most a corner; failing that (a felt too small), clear of the seats
  let found = apart(everyMark) || (won >= 0 && apart(winnerMark));
  if (!found && won >= 0) {
    found = apart(noMark);
    inside = Boolean(found);
  }
  found = found || search(spots, seats, area.width, area.height, w0, ratio, everyMark, false);
  box.classList.toggle("mark-inside", inside);
  if (!found) return;
  if (found.w < w0 - 0.5) box.style.setProperty("--trick-w", `${found.w.toFixed(1)}px`);
  cards.forEach((card, i) => {
    const at = found.list[played[i]];
    card.style.transition = "none"; // a card lands where it lies, it does not slide there
    card.style.setProperty("--x", `${at.x.toFixed(1)}px`);
    card.style.setProperty("--y", `${at.y.toFixed(1)}px`);
    // a lower card lies over a higher one, so that every card's index shows; the
    // winner's card (and its mark) over them all
    card.style.zIndex = card.classList.contains("won") ? "500" : String(2 + Math.round(at.y / 8));
  });
  void box.offsetWidth; // the places are taken before transitions come back (for the gathering)
  for (const card of cards) card.style.removeProperty("transition");
}
