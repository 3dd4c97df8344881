// Entry point: the lobby at "/", a table at "/play/{match}" (invite links carry
// "#token=..." in the fragment, which never reaches the server), a replay at
// "/replay/{match}", a finished match's review at "/review/{match}"; accounts: "/signin", "/u/{name}" (a profile), "/leaderboard".

import { onLangChange, loadCatalog } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";
import { ReviewPage } from "./review.js";
import { TutorialPage } from "./tutorial.js";
import { SignInPage, ProfilePage, LeaderboardPage } from "./account.js";
import { topbar } from "./lobby.js";

const root = document.getElementById("app");
let page = null;

function route() {
  const path = location.pathname.replace(/\/$/, "");
  const m = path.match(/^\/(play|replay|review|u)\/([^/]+)$/);
  if (page && page.stop) page.stop();
  const learn = path.match(/^\/tutorial(?:\/([^/]+))?$/);
  if (learn) page = new TutorialPage(root, learn[1] ? decodeURIComponent(learn[1]) : null);
  else if (path === "/signin") page = new SignInPage(root, topbar);
  else if (path === "/leaderboard") page = new LeaderboardPage(root, topbar);
  else if (m && m[1] === "u") page = new ProfilePage(root, topbar, decodeURIComponent(m[2]));
  else if (!m) page = new LobbyPage(root);
  else if (m[1] === "replay") page = new ReplayPage(root, decodeURIComponent(m[2]));
  else if (m[1] === "review") page = new ReviewPage(root, decodeURIComponent(m[2]));
  else page = new TablePage(root, decodeURIComponent(m[2]));
  page.start();
}

onLangChange(() => page && page.render());
window.addEventListener("popstate", route);
// The pages speak from the shared catalog (move log, results, game titles): fetch it
// first; without it (server unreachable) the page still starts and shows its error.
loadCatalog().catch((err) => console.warn("cardtable: no message catalog", err)).finally(route);
