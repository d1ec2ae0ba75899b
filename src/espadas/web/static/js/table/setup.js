// Before the start: the creator chooses the partner, fills empty seats with
// robots, frees a robot's seat and starts the game.
import { seatLabel, t } from "../i18n.js";
import { button, post } from "./commands.js";

export function renderSetup(v, box) {
  const heading = document.createElement("h2");
  heading.textContent = t("setup.title");
  box.appendChild(heading);
  if (v.options.partnerships) {
    const wrap = document.createElement("div");
    const label = document.createElement("label");
    label.htmlFor = "partner";
    label.textContent = t("setup.partner");
    const select = document.createElement("select");
    select.id = "partner";
    for (const seat of [1, 2, 3]) {
      const option = document.createElement("option");
      option.value = String(seat);
      option.textContent = v.seats[seat] ? seatLabel(v, seat) : t("setup.seat_n", { n: seat });
      select.appendChild(option);
    }
    select.value = "2";
    wrap.append(label, select, button(t("setup.choose_partner"), () => post("partner", { seat: Number(select.value) })));
    box.appendChild(wrap);
  }
  if (v.seats.some((s) => s === null)) {
    const wrap = document.createElement("div");
    const label = document.createElement("label");
    label.htmlFor = "robot-level";
    label.textContent = t("setup.robots");
    const select = document.createElement("select");
    select.id = "robot-level";
    for (const level of window.espadasRobots || ["aleatorio", "normal", "experto"]) {
      const option = document.createElement("option");
      option.value = level;
      option.textContent = t(`robot.${level}`);
      select.appendChild(option);
    }
    select.value = "normal";
    wrap.append(label, select, button(t("setup.add_robots"), () => post("robots", { level: select.value })));
    box.appendChild(wrap);
  }
  v.seats.forEach((s, seat) => {
    if (s && s.robot) {
      box.appendChild(button(t("setup.free", { name: seatLabel(v, seat), n: seat }), () => post("free", { seat })));
    }
  });
  const start = button(t("setup.start"), () => post("start"), "primary");
  box.appendChild(start);
}
