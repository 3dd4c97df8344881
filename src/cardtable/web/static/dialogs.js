// Dialogs that keep the keyboard in: a dialog that opens takes the focus (its first
// control), Tab and Shift+Tab stay inside it, and when it closes the focus goes back
// to where it was.  Used by the table, the replay and the review pages.

import { h } from "./util.js";

/** A modal dialog titled `title` in which Tab and Shift+Tab stay. */
export function dialogBox(title, ...children) {
  const trap = (ev) => {
    if (ev.key !== "Tab") return;
    const stops = [...ev.currentTarget.querySelectorAll("a[href], button:not([disabled]), select, input, [tabindex]")];
    if (!stops.length) return;
    const at = stops.indexOf(document.activeElement);
    const next = ev.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : (at === stops.length - 1 ? 0 : at + 1);
    ev.preventDefault();
    stops[next].focus();
  };
  return h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": title, onkeydown: trap },
    h("h2", null, title), ...children);
}

/** Where the focus goes as a page's dialog opens and closes: call `update()` after
 * every redraw with the page's root, its open dialog (or null) and the element that
 * had the focus before the redraw. */
export class DialogFocus {
  constructor() {
    this.shown = null;
    this.back = null;
  }

  update(root, modal, before) {
    const was = this.shown;
    this.shown = modal || null;
    if (this.shown === was) return;
    if (this.shown) {
      if (!was) this.back = before && before !== document.body ? { el: before, id: before.id } : null;
      const dialog = root.querySelector(".modal");
      const first = dialog && dialog.querySelector("select, button, a[href], input");
      if (first) first.focus({ preventScroll: true });
      return;
    }
    const back = this.back;
    this.back = null;
    const again = back && (back.el.isConnected ? back.el : back.id && document.getElementById(back.id));
    const target = again || root.querySelector(".tools button, .tools a[href]");
    if (target) target.focus({ preventScroll: true });
  }
}
