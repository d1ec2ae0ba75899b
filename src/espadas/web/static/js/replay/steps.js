// The step controls of a replay: the buttons #first, #prev, #next and #last, and the
// left and right arrow keys (not while typing in a field). ``go(i)`` shows step i;
// ``current()`` is the step shown; ``last()`` the index the last button goes to.
export function bindSteps(go, current, last) {
  const click = (id, step) => document.getElementById(id).addEventListener("click", step);
  click("first", () => go(0));
  click("prev", () => go(current() - 1));
  click("next", () => go(current() + 1));
  click("last", () => go(last()));
  document.addEventListener("keydown", (event) => {
    if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
    if (event.key === "ArrowRight") go(current() + 1);
    else if (event.key === "ArrowLeft") go(current() - 1);
    else return;
    event.preventDefault();
  });
}
