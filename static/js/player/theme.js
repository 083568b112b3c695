/**
 * Light and dark themes: follow the system unless the learner picks one, and
 * remember the pick. The choice is a data-theme attribute the CSS keys on.
 */

const KEY = "backprop-animator.theme";

/** @param {Element | null} button  a toggle button, if the page has one */
export function initTheme(button) {
  const stored = readStored();
  if (stored) document.documentElement.dataset.theme = stored;
  if (!button) return;
  const current = () =>
    document.documentElement.dataset.theme ??
    (globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  const label = () => {
    const next = current() === "dark" ? "light" : "dark";
    button.setAttribute("aria-label", `Switch to ${next} theme`);
    button.setAttribute("title", `Switch to ${next} theme`);
  };
  label();
  button.addEventListener("click", () => {
    const next = current() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Storage can be off (private windows, sandboxed iframes); the theme still switches.
    }
    label();
  });
}

function readStored() {
  try {
    const value = localStorage.getItem(KEY);
    return value === "dark" || value === "light" ? value : null;
  } catch {
    return null;
  }
}
