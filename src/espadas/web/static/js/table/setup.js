// Before the start: the creator chooses the partner, fills empty seats with
// robots, frees a robot's seat and starts the game (filling what is still
// empty with robots in the same press).
import { seatLabel, seatPlace, t } from "../i18n.js";
import { button, post } from "./commands.js";
import { $ } from "./view.js";

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
      option.textContent = v.seats[seat] ? seatLabel(v, seat) : t("setup.seat_n", { n: seatPlace(v.players, seat) });
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
      box.appendChild(button(t("setup.free", { name: seatLabel(v, seat) }), () => post("free", { seat })));
    }
  });
  // with seats still empty, the one press fills them with robots (of the level
  // chosen above) and starts
  const empty = v.seats.some((s) => s === null);
  const level = () => ($("robot-level") ? $("robot-level").value : "normal");
  const start = empty
    ? button(t("setup.fill_and_start"), async () => {
        if (await post("robots", { level: level() })) await post("start");
      }, "primary")
    : button(t("setup.start"), () => post("start"), "primary");
  box.appendChild(start);
}
