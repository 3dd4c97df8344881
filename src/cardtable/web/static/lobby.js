// The lobby: start a match (against the AI, with invited friends, or with open
// seats anyone may take), resume your matches (their seat tokens are kept in this
// browser, per match and seat), replay finished ones, join or watch open matches.

import {
  h, api, myMatches, mySeats, saveMatch, saveSeat, forgetMatch, getName, setName, copyText, keepingFocus, morphInto,
} from "./util.js";
import { t, langSwitch, gameTitle, agentLabel, agentHelp, local, rulesHref, dateText } from "./i18n.js";
import { accountArea, currentUser } from "./account.js";
import { loadGames } from "./games/index.js";
import { clockFields, clockOption, clockSummary, listenTurns, formatClock } from "./clock.js";
import { reviewLink } from "./review_link.js";
import { tutorialLink } from "./tutorial.js";

export function topbar(extra = []) {
  return h("header.topbar", null,
    h("a.brand", { href: "/", title: t("lobby") }, h("span.logo", { "aria-hidden": "true" }, "♠♥"), " cardtable"),
    h("div.topbar-mid", null, extra),
    accountArea(),
    langSwitch(),
  );
}

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.games = null;
    this.open = [];
    this.openAsked = 0; // fetches of the open list asked for, and the newest one shown
    this.openShown = 0;
    this.infos = {};
    this.infosAsked = 0; // refreshes of "Your matches" asked for, and per match the newest shown
    this.infosShown = {};
    this.refreshed = 0; // refreshes of the lists done
    this.error = null;
    this.created = null; // the last created match with invites
    this.form = { game: null, config: {}, seats: null, listed: false, rated: false, clock: "", onTimeout: "ai" };
    this.user = null; // the signed-in account: seat 1 is theirs, and the match may be rated
  }

  async start() {
    document.title = "cardtable";
    this.render();
    this.user = await currentUser();
    try {
      this.games = await loadGames(); // each with its description (options, players, teams)
    } catch (err) {
      this.error = t("server_unreachable", { why: err.message });
    }
    this.selectGame(this.form.game || (this.games && this.games.length ? this.games[0].name : null));
    this.render();
    this.refresh();
    this.listen();
    // the open list is pushed (listen); the timer still updates "Your matches" (and the
    // open list while the push is down or its last fetch failed)
    this.timer = setInterval(() => this.refresh({ open: !this.feedOpen || this.openFailed }), 15000);
    // another tab took a seat or forgot one: show it here too
    this.onStorage = (ev) => { if (ev.key === "cardtable.matches") this.refresh(); };
    window.addEventListener("storage", this.onStorage);
  }

  /** Hear of listed matches created, seated or ended (GET /api/lobby/events) and
   * refetch the open list then.  EventSource reconnects by itself, but news sent while
   * it was down is lost: each time it (re)opens, the list is fetched again, after the
   * subscription, so nothing falls between the fetch and the news. */
  listen() {
    if (!window.EventSource) return;
    this.feed = new EventSource("/api/lobby/events");
    this.feed.onopen = () => {
      this.feedOpen = true;
      document.body.dataset.feed = "open";
      this.refreshOpen();
    };
    this.feed.onerror = () => { this.feedOpen = false; document.body.dataset.feed = "closed"; };
    this.feed.addEventListener("match", () => this.refreshOpen());
  }

  /** Refetch the open matches; news arriving meanwhile makes one more fetch, not many. */
  async refreshOpen() {
    if (this.fetchingOpen) {
      this.openAgain = true;
      return;
    }
    this.fetchingOpen = true;
    try {
      do {
        this.openAgain = false;
        await this.fetchOpen();
      } while (this.openAgain);
    } finally {
      this.fetchingOpen = false;
    }
    this.render();
  }

  /** Fetch the open matches; an answer older than one already shown is dropped (the
   * timer's fetch and the news' fetch may cross), and a failed fetch keeps the list shown
   * (the timer tries again). */
  async fetchOpen() {
    const ticket = ++this.openAsked;
    let list;
    try {
      list = await api("GET", "/api/matches?status=active&limit=30");
    } catch {
      this.openFailed = true;
      document.body.dataset.openList = "failed";
      return;
    }
    if (ticket < this.openShown) return;
    this.openShown = ticket;
    this.openFailed = false;
    document.body.dataset.openList = "fetched";
    this.open = list;
  }

  stop() {
    clearInterval(this.timer);
    if (this.feed) this.feed.close();
    if (this.turns) this.turns.close();
    window.removeEventListener("storage", this.onStorage);
  }

  /** Hear of new turns and seats in "Your matches" (GET /api/turns/events), subscribing
   * again when that list changes (a match created or joined here or in another tab). */
  watchTurns() {
    const seats = mySeats();
    const seated = new Set(seats.map((s) => s.id));
    for (const id of Object.keys(myMatches())) if (!seated.has(id)) seats.push({ id, seat: null });
    const key = [...new Set(seats.map((s) => s.id))].join(",");
    if (key === this.turnsKey) return;
    this.turnsKey = key;
    if (this.turns) this.turns.close();
    this.turns = listenTurns(seats, () => this.refresh({ open: false }));
  }

  async refresh({ open = true } = {}) {
    this.watchTurns();
    if (open) await this.fetchOpen();
    const mine = Object.entries(myMatches()).sort((a, b) => (b[1].created || 0) - (a[1].created || 0)).slice(0, 30);
    const ticket = ++this.infosAsked; // refreshes cross (the timer, news, another tab)
    await Promise.all(mine.map(async ([id]) => {
      let info;
      try {
        info = await api("GET", `/api/matches/${encodeURIComponent(id)}`);
      } catch (err) {
        if (err.status !== 404) return;
        info = { missing: true };
      }
      if (ticket < (this.infosShown[id] || 0)) return; // a newer answer is shown
      this.infosShown[id] = ticket;
      this.infos[id] = info;
    }));
    this.render();
    document.body.dataset.refreshed = String(++this.refreshed); // (tests wait on it)
  }

  game() {
    return (this.games || []).find((g) => g.name === this.form.game) || null;
  }

  selectGame(name) {
    const game = (this.games || []).find((g) => g.name === name);
    this.form.game = name;
    if (!game) return;
    this.form.config = Object.fromEntries(game.description.options.map((o) => [o.name, o.form_default]));
    this.resizeSeats();
  }

  players() {
    const game = this.game();
    if (!game) return 2;
    const key = game.description.players_option;
    return key ? this.form.config[key] : game.num_players;
  }

  resizeSeats() {
    const game = this.game();
    const n = this.players();
    const old = this.form.seats || [];
    const seats = [{ kind: "human", me: true }];
    for (let i = 1; i < n; i++) seats.push(old[i] && !old[i].me ? old[i] : { kind: "ai", agent: game ? game.default_agent : "heuristic" });
    this.form.seats = seats;
  }

  async create() {
    const game = this.game();
    if (!game) return;
    const name = getName() || t("player");
    const seats = this.form.seats.map((s, i) => {
      if (s.kind === "ai") return { kind: "ai", agent: s.agent };
      if (s.kind === "open") return { kind: "human", open: true };
      if (i === 0 && this.user) return { kind: "human", me: true };
      return { kind: "human", name: i === 0 ? name : undefined };
    });
    this.error = null;
    try {
      const r = await api("POST", "/api/matches", {
        game: game.name, config: this.form.config, seats, listed: this.form.listed,
        rated: Boolean(this.user && this.form.rated), clock: clockOption(this.form),
      });
      const invites = {};
      for (const s of r.seats) if (s.kind === "human" && s.seat !== 0) invites[s.seat] = s.invite;
      saveMatch(r.match, { host: r.host_token, game: game.name, created: Date.now(), invites });
      saveSeat(r.match, r.seats[0].token, 0);
      if (Object.keys(invites).length === 0) {
        location.assign(`/play/${encodeURIComponent(r.match)}?seat=0`);
        return;
      }
      const open = r.info.seats.filter((s) => s.open).map((s) => s.seat);
      this.created = { id: r.match, invites, open, game: game.name };
      this.render();
      this.watchTurns(); // hear at once when a friend takes a seat
      const panel = this.root.querySelector(".created");
      if (panel) panel.scrollIntoView({ block: "nearest" });
    } catch (err) {
      this.error = t("create_failed", { why: err.message });
      this.render();
    }
  }

  /** Redraw the lobby (its lists change under the person: a timer, another tab);
   * a field being typed in keeps the focus and the text. */
  render() {
    keepingFocus(() => {
      const main = h("main.lobby");
      if (this.error) main.append(h("p.error", { role: "alert" }, this.error));
      main.append(this.newMatchPanel());
      if (this.created) main.append(this.invitePanel(this.created));
      main.append(this.yoursPanel(), this.openPanel());
      // morphed: a game tile or a list's button keeps the focus when the lists refresh
      morphInto(this.root, [topbar([h("h1.page-title", null, t("lobby"))]), main], "page lobby-page");
    });
  }

  newMatchPanel() {
    const panel = h("section.panel.new-match", { "aria-labelledby": "new-title" }, h("h2#new-title", null, t("new_match")));
    const nameInput = h("input#my-name", {
      type: "text", maxlength: 40, value: getName(), placeholder: t("name_placeholder"), autocomplete: "nickname",
      oninput: (e) => setName(e.target.value),
    });
    if (this.user) panel.append(h("p.signed-in", null, t("playing_as", { name: this.user.name })));
    else panel.append(h("label.field", null, h("span", null, t("your_name")), nameInput));
    if (!this.games) {
      panel.append(h("p.muted", null, t("loading")));
      return panel;
    }
    const tiles = h("div.game-tiles", { role: "radiogroup", "aria-label": t("game") });
    for (const g of this.games) {
      const { min_players: lo, max_players: hi } = g.description;
      tiles.append(h("div.game-tile-cell", null, h("button.game-tile", {
        type: "button", role: "radio", "aria-checked": String(g.name === this.form.game), "data-game": g.name,
        class: g.name === this.form.game ? "active" : "",
        onclick: () => { this.selectGame(g.name); this.render(); },
      }, h("span.tile-title", null, gameTitle(g.name)),
      h("span.tile-sub", null, lo === hi ? t("n_players", { n: lo }) : t("players_range", { lo, hi })),
      h("span.tile-desc", null, local(g.description.summary))),
      h("a.tile-rules", { href: rulesHref(g.name), "data-game": g.name, title: t("rules_of", { game: gameTitle(g.name) }) },
        t("rules")), tutorialLink(g.name)));
    }
    panel.append(tiles);
    panel.append(this.optionsFields());
    panel.append(this.seatsFields());
    panel.append(clockFields(this.form, () => this.render()));
    panel.append(h("label.check", null,
      h("input", { type: "checkbox", checked: this.form.listed, onchange: (e) => { this.form.listed = e.target.checked; } }),
      " ", t("listed")));
    if (this.user) {
      panel.append(h("label.check", null,
        h("input#rated", { type: "checkbox", checked: this.form.rated, onchange: (e) => { this.form.rated = e.target.checked; } }),
        " ", t("rated_match")));
    }
    panel.append(h("div.actions", null,
      h("button.primary#create", { type: "button", onclick: () => this.create() }, t("create_match"))));
    return panel;
  }

  // The game's options; its designer's knobs (group "custom") in a collapsed "Custom rules" section.
  optionsFields() {
    const g = this.game();
    const box = h("div.options");
    if (!g) return box;
    const field = (option) => h("div.option", { "data-option": option.name }, this.optionControl(g, option),
      h(`p.opt-help#opt-${option.name}-help`, null, local(option.help)));
    const custom = g.description.options.filter((o) => o.group === "custom");
    for (const option of g.description.options) if (option.group !== "custom") box.append(field(option));
    if (custom.length) {
      const changed = custom.some((o) => this.form.config[o.name] !== o.default);
      box.append(h("details.custom-rules", {
        open: this.customOpen || changed ? true : null,
        ontoggle: (e) => { this.customOpen = e.target.open; },
      }, h("summary", null, t("custom_rules")), h("div.options", null, custom.map(field))));
    }
    return box;
  }

  // One option of the game's description: a checkbox, a list of its values, or a number.
  optionControl(g, option) {
    const cfg = this.form.config;
    const key = option.name;
    const described = { id: `opt-${key}`, "aria-describedby": `opt-${key}-help` };
    const changed = (value) => {
      cfg[key] = value;
      if (key === g.description.players_option) this.resizeSeats();
      this.render();
    };
    if (option.type === "bool") {
      return h("label.check", null,
        h("input", { ...described, type: "checkbox", checked: Boolean(cfg[key]), onchange: (e) => { cfg[key] = e.target.checked; } }),
        " ", local(option.label));
    }
    const control = option.values
      ? h("select", { ...described, onchange: (e) => changed(Number(e.target.value)) },
        option.values.map((v) => h("option", { value: v.value, selected: cfg[key] === v.value ? true : null }, local(v.label))))
      : h("input", { ...described, type: "number", min: option.minimum ?? undefined, max: option.maximum ?? undefined, value: cfg[key],
        // only the number of players reshapes the form: redrawing for another number would drop the field's focus
        onchange: (e) => (key === g.description.players_option ? changed(Number(e.target.value)) : (cfg[key] = Number(e.target.value))) });
    return h("label.field", null, h("span", null, local(option.label)), control);
  }

  seatsFields() {
    const g = this.game();
    const box = h("fieldset.seats", null, h("legend", null, t("players")));
    if (!g) return box;
    const mine = (g.description.teams[this.players()] || []).find((team) => team.includes(0)) || [0];
    this.form.seats.forEach((s, i) => {
      const label = i === 0 ? t("seat_you", { n: i + 1 }) : t("seat_n", { n: i + 1 }) + (mine.includes(i) ? ` (${t("partner")})` : "");
      const row = h("div.seat-row", { "data-seat": i }, h("span.seat-label", null, label));
      if (i === 0) {
        row.append(h("span.muted", null, t("human_you")));
      } else {
        const kind = h("select.seat-kind", {
          "aria-label": `${label}: ${t("who_plays")}`,
          onchange: (e) => {
            s.kind = e.target.value;
            if (s.kind === "open") this.form.listed = true; // so that people find the seat
            this.render();
          },
        }, h("option", { value: "ai", selected: s.kind === "ai" ? true : null }, t("kind_ai")),
        h("option", { value: "human", selected: s.kind === "human" ? true : null }, t("kind_human")),
        h("option", { value: "open", selected: s.kind === "open" ? true : null }, t("kind_open")));
        row.append(kind);
        if (s.kind === "ai") {
          // the levels come weakest first (GET /api/games), each with what it does
          row.append(h("select.seat-agent", {
            "aria-label": `${label}: ${t("ai_level")}`, "aria-describedby": `agent-help-${i}`,
            onchange: (e) => { s.agent = e.target.value; this.render(); },
          }, g.agents.map((a) => h("option", { value: a, title: agentHelp(a), selected: s.agent === a ? true : null },
            agentLabel(a)))));
          row.append(h(`span.agent-help.muted.small#agent-help-${i}`, null, agentHelp(s.agent)));
        } else {
          row.append(h("span.muted", null, t(s.kind === "open" ? "gets_open" : "gets_invite")));
        }
      }
      box.append(row);
    });
    return box;
  }

  invitePanel(created) {
    const panel = h("section.panel.created", { role: "status" }, h("h2", null, t("invites_title")),
      h("p", null, t("invites_help")));
    const list = h("ul.invites");
    const info = this.infos[created.id];
    for (const [seat, url] of Object.entries(created.invites)) {
      const label = h("span.seat-label", null, t("seat_n", { n: Number(seat) + 1 }));
      const s = info && info.seats && info.seats[Number(seat)];
      if (s && (s.claimed || s.kind === "ai")) { // the link is dead now (auth_failed): say who sits there
        const who = s.kind === "ai" ? seatName(info, s.seat) : t("joined_by", { name: s.name });
        list.append(h("li", { "data-seat": seat }, label, h("span.joined", null, who)));
        continue;
      }
      const input = h("input.invite-link", { type: "text", readonly: true, value: url, "data-seat": seat, onfocus: (e) => e.target.select() });
      if ((created.open || []).includes(Number(seat))) label.append(h("span.tag.open", { title: t("gets_open") }, t("open_seat")));
      list.append(h("li", { "data-seat": seat }, label, input,
        h("button", { type: "button", onclick: (e) => { copyText(url); e.target.textContent = t("copied"); } }, t("copy"))));
    }
    panel.append(list, h("div.actions", null,
      h("a.button.primary#go-table", { href: `/play/${encodeURIComponent(created.id)}?seat=0` }, t("go_to_table"))));
    return panel;
  }

  yoursPanel() {
    const panel = h("section.panel.yours", null, h("h2", null, t("your_matches")));
    const mine = mySeats().slice(0, 40);
    if (mine.length) panel.classList.add("has-items");
    if (!mine.length) {
      panel.append(h("p.muted", null, t("no_matches_yet")));
      return panel;
    }
    const list = h("ul.match-list");
    for (const m of mine) {
      const info = this.infos[m.id];
      if (info && info.missing) continue;
      const q = m.seat === null ? "" : `?seat=${m.seat}`;
      let status = t("loading");
      let mineTurn = false;
      const finished = Boolean(info && info.status === "finished");
      if (info) {
        if (finished) status = t("finished");
        else if (m.seat !== null && info.current_player === m.seat) { status = t("your_turn"); mineTurn = true; }
        else status = t("waiting_for", { name: seatName(info, info.current_player) });
      }
      const who = info ? info.seats.filter((s) => s.seat !== m.seat).map((s) => seatName(info, s.seat)).join(", ") : "";
      const created = info ? info.created * 1000 : m.created;
      list.append(h("li", { class: mineTurn ? "mine-turn" : "", "data-match": m.id, "data-seat": m.seat ?? "" },
        h("a.match-link", { href: `/play/${encodeURIComponent(m.id)}${q}` },
          h("b", null, gameTitle(m.game || (info && info.game) || "")), " ",
          m.many && m.seat !== null ? h("span.tag", null, t("seat_n", { n: m.seat + 1 })) : null, " ",
          who ? h("span.muted", null, t("vs", { who })) : null),
        created ? h("time.match-date.muted.small", { datetime: new Date(created).toISOString() }, when(created)) : null,
        info ? h("span.match-standing.small", null, this.standing(info)) : null,
        h("span.match-status", null, status),
        mineTurn && info.clock && info.clock.remaining[m.seat] !== null
          ? h("span.match-clock-left.small", null, t("clock_left", { time: formatClock(info.clock.remaining[m.seat]) }))
          : null,
        finished ? h("a.button.small.replay-link", { href: `/replay/${encodeURIComponent(m.id)}${q}` }, "▶ ", t("replay")) : null,
        finished ? reviewLink(null, m.id, m.seat, { small: true }) : null,
        h("button.link", {
          type: "button", title: t("forget_help"),
          onclick: () => { forgetMatch(m.id, m.seat); this.render(); },
        }, t("forget"))));
    }
    panel.append(list);
    return panel;
  }

  /** Where a match stands: its round (or moves) and the score, team by team. */
  standing(info) {
    const parts = [];
    if (info.round) parts.push(t("match_row_round", { n: info.round }));
    else parts.push(t("match_row_moves", { n: info.seq }));
    const scores = info.scores || [];
    const game = (this.games || []).find((g) => g.name === info.game);
    const teams = (game && game.description.teams[info.num_players]) || scores.map((_, i) => [i]);
    if (scores.length) parts.push(teams.map((team) => scores[team[0]]).join(" : "));
    return parts.join(" · ");
  }

  async joinOpen(m, seat) {
    this.error = null;
    try {
      const body = { name: getName() || t("player") };
      if (seat !== undefined) body.seat = seat;
      const r = await api("POST", `/api/matches/${encodeURIComponent(m.id)}/join`, body);
      saveMatch(r.match, { game: r.info.game, created: Date.now() });
      saveSeat(r.match, r.token, r.seat);
      location.assign(`/play/${encodeURIComponent(r.match)}?seat=${r.seat}`);
    } catch (err) {
      this.error = t("join_failed", { why: err.message });
      this.render();
      this.refresh();
    }
  }

  openPanel() {
    const panel = h("section.panel.open", null, h("h2", null, t("open_matches")));
    const mine = myMatches();
    const others = this.open.filter((m) => !(mine[m.id] && mine[m.id].seats.length));
    if (others.some((m) => (m.seats || []).some((x) => x.open))) panel.classList.add("has-items");
    if (!others.length) {
      panel.append(h("p.muted", null, t("no_open_matches")));
      return panel;
    }
    const list = h("ul.match-list");
    for (const m of others) {
      const seats = m.seats || [];
      const free = seats.filter((s) => s.open);
      const names = seats.filter((s) => !s.open).map((s) => seatName(m, s.seat));
      list.append(h("li", { "data-match": m.id },
        h("span.match-link", null, h("b", null, gameTitle(m.game)), " ",
          names.length ? h("span.muted", null, names.join(", ")) : null, " ",
          free.length ? h("span.tag.open", null, t("open_seats_n", { n: free.length })) : null,
          m.clock ? h("span.tag.clock", null, clockSummary(m.clock)) : null),
        h("time.muted.small", { datetime: new Date(m.created * 1000).toISOString() }, when(m.created * 1000)),
        free.length ? h("button.primary.small.join-open", { type: "button", onclick: () => this.joinOpen(m) }, t("join_match")) : null,
        h("a.button.small", { href: `/play/${encodeURIComponent(m.id)}` }, t("watch"))));
    }
    panel.append(list);
    return panel;
  }
}

export function seatName(info, seat) {
  const s = info.seats && info.seats[seat];
  if (!s) return t("seat_n", { n: seat + 1 });
  if (s.kind === "ai") return `${t("ai")} (${agentLabel(s.agent)})`;
  if (s.open) return t("seat_open", { n: seat + 1 });
  if (!s.claimed) return givenName(s) || t("seat_free", { n: seat + 1 });
  return s.name;
}

/** The name a human seat was given when the match was created (the host's own
 * seat), or "" for a seat the server named by default ("seat 1"). */
export function givenName(s) {
  return s.kind === "human" && s.name && s.name !== `seat ${s.seat}` ? s.name : "";
}

/** The options of a match in words, from its game's description: "Rounds: 3 · …", then
 * the designer's knobs that differ from the published rules: "Custom rules: Target: 50". */
export function optionsSummary(description, config) {
  const words = (o) => {
    const value = config[o.name];
    const named = o.values && o.values.find((v) => v.value === value);
    const shown = named ? local(named.label) : typeof value === "boolean" ? t(value ? "yes" : "no") : String(value);
    return `${local(o.label)}: ${shown}`;
  };
  const given = description.options.filter((o) => config[o.name] !== undefined);
  const plain = given.filter((o) => o.group !== "custom").map(words);
  const custom = given.filter((o) => o.group === "custom" && config[o.name] !== o.default).map(words);
  return [...plain, ...(custom.length ? [`${t("custom_rules")}: ${custom.join(", ")}`] : [])].join(" · ");
}

/** A date and time in the page's language: "1 Dec 2026, 10:45". */
export function when(ms) {
  return dateText(ms);
}
