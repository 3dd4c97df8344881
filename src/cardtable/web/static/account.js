// Accounts in the browser: the topbar's sign-in link or account menu, the sign-in
// and sign-up page ("/signin"), a player's profile ("/u/{name}": ratings with their
// history plotted, results per game, recent matches with their replays) and the
// leaderboard of a game ("/leaderboard?game=…&players=…", AI levels as landmarks).
// The session is an HttpOnly cookie: this code never sees it, it only asks
// GET /api/account who is signed in.

import { h, clear, api, svg } from "./util.js";
import { t, gameTitle, dateText } from "./i18n.js";
import { loadGames } from "./games/index.js";
import { reviewLink } from "./review_link.js";

let who = null; // the promise of the signed-in user (or null)
let whoKnown = null; // {user} once that promise has settled

/** The signed-in user ({id, name}) or null, asked once per page load. */
export function currentUser() {
  if (!who) {
    who = api("GET", "/api/account").then((r) => r.user).catch(() => null);
    who.then((user) => { whoKnown = { user }; });
  }
  return who;
}

export function profileHref(name) {
  return `/u/${encodeURIComponent(name)}`;
}

/** The topbar's account area: the leaderboard, and sign-in or the account and sign-out
 * (drawn at once once the account is known; before, filled in when it is — in every
 * account area on the page, as a morphing redraw may have kept an older one). */
export function accountArea() {
  const box = h("nav.account", { "aria-label": t("account") },
    h("a.board-link", { href: "/leaderboard" }, t("leaderboard")));
  if (whoKnown) {
    box.append(...accountLinks(whoKnown.user));
    return box;
  }
  currentUser().then((user) => {
    for (const area of new Set([box, ...document.querySelectorAll("nav.account")])) {
      if (!area.querySelector(".me-link, .signin-link")) area.append(...accountLinks(user));
    }
  });
  return box;
}

function accountLinks(user) {
  if (!user) return [h("a.signin-link", { href: "/signin" }, t("sign_in"))];
  return [h("a.me-link", { href: profileHref(user.name) }, user.name),
    h("button.link.signout", {
      type: "button",
      onclick: async () => {
        await api("POST", "/api/account/signout").catch(() => null);
        location.assign("/");
      },
    }, t("sign_out"))];
}

function page(root, cls, title, topbar) {
  const r = clear(root);
  r.className = `page ${cls}`;
  r.append(topbar([h("h1.page-title", null, title)]));
  const main = h("main.lobby");
  r.append(main);
  return main;
}

export class SignInPage {
  constructor(root, topbar) {
    this.root = root;
    this.topbar = topbar;
    this.mode = "signin";
    this.error = null;
  }

  start() {
    document.title = `${t("sign_in")} · cardtable`;
    this.render();
  }

  async submit(form) {
    const name = form.querySelector("#account-name").value;
    const password = form.querySelector("#account-password").value;
    this.error = null;
    try {
      await api("POST", this.mode === "signup" ? "/api/account/signup" : "/api/account/signin", { name, password });
      location.assign("/");
    } catch (err) {
      this.error = err.message;
      this.render();
    }
  }

  render() {
    const main = page(this.root, "signin-page", t(this.mode === "signup" ? "sign_up" : "sign_in"), this.topbar);
    const form = h("form.panel.account-form", {
      onsubmit: (e) => { e.preventDefault(); this.submit(e.target); },
    },
    h("h2", null, t(this.mode === "signup" ? "sign_up" : "sign_in")),
    this.error ? h("p.error", { role: "alert" }, this.error) : null,
    h("label.field", null, h("span", null, t("account_name")),
      h("input#account-name", { type: "text", required: true, maxlength: 24, autocomplete: "username" })),
    h("label.field", null, h("span", null, t("password")),
      h("input#account-password", {
        type: "password", required: true, minlength: this.mode === "signup" ? 8 : null, maxlength: 256,
        autocomplete: this.mode === "signup" ? "new-password" : "current-password",
      })),
    this.mode === "signup" ? h("p.muted", null, t("signup_help")) : null,
    h("div.actions", null,
      h("button.primary#account-submit", { type: "submit" }, t(this.mode === "signup" ? "sign_up" : "sign_in")),
      h("button.link#account-switch", {
        type: "button",
        onclick: () => { this.mode = this.mode === "signup" ? "signin" : "signup"; this.error = null; this.render(); },
      }, t(this.mode === "signup" ? "have_account" : "no_account"))));
    main.append(form);
  }
}

function ratingText(r) {
  return `${r.rating} ±${r.interval}${r.provisional ? "?" : ""}`;
}

function groupLabel(game, players) {
  return `${gameTitle(game)} · ${t("n_players", { n: players })}`;
}

/** A small line plot of ratings after each rated match (one group: a game and player count). */
export function ratingPlot(points) {
  const w = 320;
  const ht = 120;
  const pad = 28;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values, 1500) - 20;
  const hi = Math.max(...values, 1500) + 20;
  const x = (i) => pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => ht - pad / 2 - ((v - lo) * (ht - pad)) / (hi - lo);
  const plot = svg("svg", { viewBox: `0 0 ${w} ${ht}`, class: "rating-plot", role: "img",
    "aria-label": t("rating_plot", { from: values[0], to: values[values.length - 1], n: points.length }) });
  plot.append(svg("line", { x1: pad, x2: w - pad / 2, y1: y(1500), y2: y(1500), class: "base" }));
  const label = svg("text", { x: 2, y: y(1500) + 4, class: "axis" });
  label.textContent = "1500";
  plot.append(label);
  plot.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "line" }));
  points.forEach((p, i) => plot.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, "data-rating": p.rating })));
  return plot;
}

export class ProfilePage {
  constructor(root, topbar, name) {
    this.root = root;
    this.topbar = topbar;
    this.name = name;
    this.data = null;
    this.error = null;
  }

  async start() {
    document.title = `${this.name} · cardtable`;
    this.render();
    try {
      this.data = await api("GET", `/api/users/${encodeURIComponent(this.name)}`);
    } catch (err) {
      this.error = err.status === 404 ? t("no_such_player", { name: this.name }) : err.message;
    }
    this.render();
  }

  render() {
    const main = page(this.root, "profile-page", this.data ? this.data.user.name : this.name, this.topbar);
    if (this.error) {
      main.append(h("p.error", { role: "alert" }, this.error));
      return;
    }
    if (!this.data) {
      main.append(h("p.muted", null, t("loading")));
      return;
    }
    main.append(this.ratingsPanel(), this.gamesPanel(), this.recentPanel());
  }

  ratingsPanel() {
    const d = this.data;
    const panel = h("section.panel.ratings", null, h("h2", null, t("ratings")));
    if (!d.ratings.length) {
      panel.append(h("p.muted", null, t("no_ratings_yet")));
      return panel;
    }
    for (const r of d.ratings) {
      const points = d.history.filter((p) => p.game === r.game && p.players === r.players);
      panel.append(h("div.rating-group", { "data-game": r.game, "data-players": r.players },
        h("h3", null, groupLabel(r.game, r.players), " ",
          h("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}&players=${r.players}` }, t("leaderboard"))),
        h("p.rating-now", null, h("b.rating-value", null, ratingText(r)), " ",
          r.provisional ? h("span.tag", { title: t("provisional_help") }, t("provisional")) : null,
          h("span.muted", null, " ", t("rated_games", { n: r.games }))),
        points.length ? ratingPlot(points) : null));
    }
    return panel;
  }

  gamesPanel() {
    const panel = h("section.panel.per-game", null, h("h2", null, t("results_per_game")));
    const rows = Object.entries(this.data.games);
    if (!rows.length) {
      panel.append(h("p.muted", null, t("no_matches_played")));
      return panel;
    }
    panel.append(h("table.results", null,
      h("thead", null, h("tr", null, h("th", null, t("game")), h("th", null, t("played")), h("th", null, t("first_places")),
        h("th", null, t("last_places")))),
      h("tbody", null, rows.map(([game, c]) => h("tr", { "data-game": game },
        h("td", null, gameTitle(game)), h("td.played", null, c.played), h("td.first", null, c.first), h("td", null, c.last))))));
    return panel;
  }

  recentPanel() {
    const panel = h("section.panel.recent-matches", null, h("h2", null, t("recent_matches")));
    const list = h("ul.match-list");
    for (const m of this.data.recent) {
      const done = m.status === "finished";
      const place = done && m.place ? t("place_of", { place: m.place, of: m.teams }) : t(done ? "finished" : "in_progress");
      list.append(h("li", { "data-match": m.match },
        h("span.match-link", null, h("b", null, gameTitle(m.game)), " ", m.rated ? h("span.tag", null, t("rated")) : null),
        h("span.match-status", null, place),
        h("time.muted.small", { datetime: new Date(m.created * 1000).toISOString() }, dateText(m.created * 1000, { time: false })),
        done
          ? h("a.button.small.replay-link", { href: `/replay/${encodeURIComponent(m.match)}?seat=${m.seat}` }, "▶ ", t("replay"))
          : h("a.button.small", { href: `/play/${encodeURIComponent(m.match)}` }, t("go_to_table")),
        done ? reviewLink(null, m.match, m.seat, { small: true }) : null));
    }
    panel.append(this.data.recent.length ? list : h("p.muted", null, t("no_matches_played")));
    return panel;
  }
}

export class LeaderboardPage {
  constructor(root, topbar) {
    this.root = root;
    this.topbar = topbar;
    const q = new URLSearchParams(location.search);
    this.game = q.get("game"); // else the first game the server offers
    this.players = Number(q.get("players")) || 0;
    this.games = [];
    this.data = null;
    this.error = null;
  }

  async start() {
    document.title = `${t("leaderboard")} · cardtable`;
    this.render();
    try {
      this.games = await loadGames();
    } catch {
      this.games = [];
    }
    if (!this.game && this.games.length) this.game = this.games[0].name;
    await this.load();
  }

  async load() {
    this.error = null;
    try {
      const q = `game=${encodeURIComponent(this.game)}${this.players ? `&players=${this.players}` : ""}`;
      this.data = await api("GET", `/api/leaderboard?${q}`);
      this.players = this.data.players;
    } catch (err) {
      this.data = null;
      this.error = err.message;
    }
    this.render();
  }

  choose(game, players) {
    this.game = game;
    this.players = players;
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}${players ? `&players=${players}` : ""}`);
    this.load();
  }

  counts() {
    const g = this.games.find((x) => x.name === this.game);
    if (!g) return [];
    const key = g.description.players_option;
    const option = key && g.description.options.find((o) => o.name === key);
    if (!option) return [g.num_players];
    if (option.values) return option.values.map((v) => v.value).sort((a, b) => a - b);
    const out = [];
    for (let n = option.minimum; n <= option.maximum; n++) out.push(n);
    return out;
  }

  render() {
    const main = page(this.root, "leaderboard-page", t("leaderboard"), this.topbar);
    const picks = h("div.board-picks", null,
      h("div.game-tiles", { role: "radiogroup", "aria-label": t("game") }, this.games.map((g) => h("button.game-tile", {
        type: "button", role: "radio", "data-game": g.name, "aria-checked": String(g.name === this.game),
        class: g.name === this.game ? "active" : "", onclick: () => this.choose(g.name, 0),
      }, h("span.tile-title", null, gameTitle(g.name))))));
    const counts = this.counts();
    if (counts.length > 1) {
      picks.append(h("label.field", null, h("span", null, t("players")),
        h("select#board-players", { onchange: (e) => this.choose(this.game, Number(e.target.value)) },
          counts.map((n) => h("option", { value: n, selected: n === this.players ? true : null }, String(n))))));
    }
    main.append(picks);
    const panel = h("section.panel.board", null,
      h("h2", null, this.data ? groupLabel(this.data.game, this.data.players) : gameTitle(this.game)));
    if (this.error) panel.append(h("p.error", { role: "alert" }, this.error));
    else if (!this.data) panel.append(h("p.muted", null, t("loading")));
    else if (!this.data.entries.length) panel.append(h("p.muted", null, t("no_ratings_yet")));
    else panel.append(this.table(this.data.entries), h("p.muted.small", null, t("board_help")));
    main.append(panel);
  }

  table(entries) {
    return h("table.results.leaderboard", null,
      h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("player")), h("th", null, t("rating")),
        h("th", null, t("rated_games_short")))),
      h("tbody", null, entries.map((e, i) => h("tr", { class: e.ai ? "landmark" : "", "data-player": e.player },
        h("td", null, String(i + 1)),
        h("td.who", null, e.ai ? h("span.ai-name", null, e.name) : h("a", { href: profileHref(e.name) }, e.name),
          e.provisional ? h("span.tag", { title: t("provisional_help") }, t("provisional")) : null),
        h("td.rating", null, ratingText(e)),
        h("td", null, String(e.games))))));
  }
}
