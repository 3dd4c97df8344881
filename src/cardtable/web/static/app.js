// Entry point: the lobby at "/", a table at "/play/{match}" (invite links carry
// "#token=..." in the fragment, which never reaches the server), a replay at
// "/replay/{match}".

import { onLangChange } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";

const root = document.getElementById("app");
let page = null;

function route() {
  const m = location.pathname.match(/^\/(play|replay)\/([^/]+)\/?$/);
  if (page && page.stop) page.stop();
  if (!m) page = new LobbyPage(root);
  else if (m[1] === "replay") page = new ReplayPage(root, decodeURIComponent(m[2]));
  else page = new TablePage(root, decodeURIComponent(m[2]));
  page.start();
}

onLangChange(() => page && page.render());
window.addEventListener("popstate", route);
route();
