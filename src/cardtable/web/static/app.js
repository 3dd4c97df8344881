// Entry point: the lobby at "/", a table at "/play/{match}" (invite links carry
// "#token=..." in the fragment, which never reaches the server).

import { onLangChange } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { TablePage } from "./table.js";

const root = document.getElementById("app");
let page = null;

function route() {
  const m = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  if (page && page.stop) page.stop();
  page = m ? new TablePage(root, decodeURIComponent(m[1])) : new LobbyPage(root);
  page.start();
}

onLangChange(() => page && page.render());
window.addEventListener("popstate", route);
route();
