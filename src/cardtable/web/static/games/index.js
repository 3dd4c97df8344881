// The games the server offers and their front-end modules.  The generic pages know
// no game: its options, players and teams come from the server's descriptions
// (GET /api/games), its title from the shared catalog ("game.<name>", i18n.js's
// gameTitle), and how it is drawn from its own module,
// games/<name>.js (the game's name with "_" for "-"), loaded here by name.

import { api } from "../util.js";

const NAME = /^[a-z][a-z0-9-]*$/;

let catalog = null;
let catalogLoad = null;
const modules = new Map();
const loading = new Map();

/** The server's games (each `{name, title, num_players, description, agents, ...}`),
 * fetched once; a failed fetch is tried again on the next call. */
export function loadGames() {
  if (!catalogLoad) {
    catalogLoad = api("GET", "/api/games").then((games) => {
      catalog = games;
      return games;
    }, (err) => {
      catalogLoad = null;
      throw err;
    });
  }
  return catalogLoad;
}

/** The games as fetched so far ([] before the catalog arrived). */
export function games() {
  return catalog || [];
}

/** One game of the catalog, or null. */
export function gameInfo(name) {
  return games().find((g) => g.name === name) || null;
}

/** Whether some seat of `name` with `players` players plays with a partner (its teams). */
export function hasPartners(name, players) {
  const g = gameInfo(name);
  const teams = (g && g.description.teams[String(players)]) || [];
  return teams.some((team) => team.length > 1);
}

/** The module file of a game: "lost-cities" -> "./lost_cities.js". */
function moduleFile(name) {
  if (!NAME.test(name || "")) throw new Error(`bad_game_name: ${JSON.stringify(name)}`);
  return `./${name.replaceAll("-", "_")}.js`;
}

/** Load the front-end module of a game once; resolves to its renderer (the default export). */
export function loadGame(name) {
  if (modules.has(name)) return Promise.resolve(modules.get(name));
  if (!loading.has(name)) {
    const load = import(moduleFile(name)).then((m) => {
      modules.set(name, m.default);
      return m.default;
    }).finally(() => loading.delete(name));
    loading.set(name, load);
  }
  return loading.get(name);
}

/** A game's renderer if it is loaded already, else null (then call loadGame). */
export function gameModule(name) {
  return modules.get(name) || null;
}
