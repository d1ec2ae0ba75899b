// The one line that says what a day's challenge is: its boards, its rules by
// their name, and the robots at the table.
import { plural, t } from "../i18n.js";

export function factsText(data) {
  return t("challenge.facts", {
    boards: plural("challenge.boards_n", data.boards.length),
    rules: t(`preset.${data.rules.preset}.rules`),
    partner: t(`robot.${data.robots.partner}`),
    opponents: t(`robot.${data.robots.opponents}`),
  });
}
