// The estimated win chances beside a hint in the table's hint box, as the terminal
// hint shows them: the suggested move's, then the next best moves' (the server's
// hint answer carries every legal move's estimate: docs/server-protocol.md, "hint").

import { h } from "./util.js";
import { t, percent, valueLabel } from "./i18n.js";

const ALTERNATIVES = 2;

/** DOM children to put after the hint's move: " — est. win 62 %; next best: … 54 %, … 50 %"
 * ("other moves:" when the search rates one of them above the hint's own move).
 * `describe(move)` names a move as the table does. Nothing when there is no estimate. */
export function hintChances(hint, describe) {
  const estimates = hint.estimates || [];
  if (!estimates.length) return [];
  const out = [];
  const mine = estimates.find((e) => e.action === hint.action);
  if (mine) {
    out.push(" — ", h("span.hint-chance", null,
      t("web.hint.estimate", { label: valueLabel(hint.value_label), chance: percent(mine.win) })));
  }
  const others = estimates.filter((e) => e.action !== hint.action).sort((a, b) => b.win - a.win).slice(0, ALTERNATIVES);
  if (others.length) {
    // the hint's agent chose the move; the search may rate another higher: then they are "other moves"
    const better = mine && others[0].win > mine.win;
    out.push("; ", t(better ? "web.hint.others" : "web.hint.next_best"), " ");
    others.forEach((e, i) => {
      if (i) out.push(", ");
      out.push(h("span.hint-alt", null, describe(e.move), " ", percent(e.win)));
    });
  }
  return out;
}
