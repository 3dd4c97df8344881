// Ending a match early and starting the next one, on the table page: resign (with an
// in-page confirmation), abort, draw offers and rematch (docs/server-protocol.md,
// "Ending a match").  The table calls these hooks; the state they keep is `page.life`.

import { h, saveSeat } from "./util.js";
import { t } from "./i18n.js";
import { hasPartners } from "./games/index.js";

/** Follow the lifecycle messages (every server message passes here first). */
export function onLifecycleMessage(page, msg) {
  const life = page.life || (page.life = {});
  switch (msg.type) {
    case "update":
      life.draw = null; // a move ends any draw offer
      break;
    case "state":
      if (msg.status === "finished") { life.draw = null; life.resign = null; }
      break;
    case "resign_offer":
      life.resign = msg;
      if (msg.seat !== page.you) page.showToast(t("life_partner_resigns", { name: page.seatName(msg.seat) }));
      break;
    case "draw_offer":
      life.draw = msg;
      if (msg.seat !== page.you) page.showToast(t("life_draw_offered", { name: page.seatName(msg.seat) }));
      break;
    case "draw_declined":
      life.draw = null;
      if (msg.seat !== page.you) page.showToast(t("life_draw_declined", { name: page.seatName(msg.seat) }));
      break;
    case "rematch_wanted":
      life.rematch = msg;
      break;
    case "rematch":
      if (msg.seat !== null && msg.token) saveSeat(msg.match, msg.token, msg.seat);
      location.assign(`/play/${encodeURIComponent(msg.match)}${msg.seat === null ? "" : `?seat=${msg.seat}`}`);
      break;
    default:
      break;
  }
}

function button(id, label, onclick, title) {
  return h(`button.quiet#${id}`, { type: "button", title: title || null, onclick }, label);
}

/** The side panel's buttons for ending the match, or for the next one. */
export function lifecycleTools(page) {
  const seat = page.mySeat();
  if (!seat || seat.kind !== "human") return [];
  const life = page.life || {};
  const send = (type) => () => page.conn.send({ type });
  if (page.status === "finished") {
    const asked = life.rematch && life.rematch.agreed.includes(page.you);
    return [h("button#rematch", { type: "button", disabled: asked ? true : null, onclick: send("rematch") },
      asked ? t("life_rematch_waiting") : t("life_rematch"))];
  }
  const out = [];
  if (page.seq < page.match.abort_moves) out.push(button("abort", t("life_abort"), send("abort"), t("life_abort_help")));
  const offer = life.draw;
  if (page.match.draws && !offer) out.push(button("draw-offer", t("life_draw_offer"), send("draw_offer")));
  if (offer && !offer.agreed.includes(page.you)) {
    out.push(button("draw-accept", t("life_draw_accept"), send("draw_accept")));
    out.push(button("draw-decline", t("life_draw_decline"), send("draw_decline")));
  } else if (offer) {
    out.push(button("draw-decline", t("life_draw_withdraw"), send("draw_decline")));
  }
  out.push(button("resign", t("life_resign"), () => page.openModal({ kind: "resign" })));
  return out;
}

/** The resignation's confirmation: `[title, body, buttons]` for the table's dialog. */
export function resignDialog(page, close) {
  const partnered = hasPartners(page.match.game, page.match.num_players);
  const body = h("p", null, t(partnered ? "life_resign_partner" : "life_resign_confirm"));
  const go = () => {
    page.conn.send({ type: "resign", confirm: true });
    close();
  };
  return [t("life_resign_title"), body, [
    h("button#resign-cancel", { type: "button", onclick: close }, t("cancel")),
    h("button.primary#resign-go", { type: "button", onclick: go }, t("life_resign_go"))]];
}

/** How an early-ended match ended, in words for this seat (null if it was played out). */
export function endingVerdict(page) {
  const ending = page.match && page.match.ending;
  if (!ending) return null;
  const seats = (page.result && page.result.seats) || [];
  const names = seats.map((s) => page.seatName(s)).join(", ");
  if (ending === "drawn") return t("life_drawn");
  if (ending === "aborted") return t("life_aborted", { name: names });
  if (ending === "timeout") {
    if (seats.includes(page.you)) return t("clock_you_lost_on_time");
    return page.you === null ? t("clock_lost_on_time", { name: names }) : t("clock_they_lost_on_time", { name: names });
  }
  if (seats.includes(page.you)) return t("life_you_resigned");
  return page.you === null ? t("life_resigned", { name: names }) : t("life_they_resigned", { name: names });
}
