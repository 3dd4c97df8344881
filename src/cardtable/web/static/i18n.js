// English and Russian. Russian is the default when the browser prefers it
// (navigator.languages); the switch is remembered in localStorage.
//
// Two tables: a key with a dot ("event.rank.play", "match.round_over") is a message of
// the catalog the terminal shares (src/cardtable/i18n/{en,ru}.json, GET /api/i18n: ICU
// plurals and selects, formatted by messages.js); a key without one is the web page's
// own chrome (buttons, panels, tooltips), in EN/RU below.  Everything a match *says*
// (move log lines, notes, results, counts of cards) is in the shared catalog.

import { h, api } from "./util.js";
import { formatParts, formatText } from "./messages.js";

const LANG_KEY = "cardtable.lang";
export const LANGS = ["en", "ru"];

const EN = {
  // chrome
  lobby: "Lobby", rules: "Rules", rules_of: "Rules of {game}", loading: "Loading…", connecting: "Connecting to the table…",
  server_unreachable: "The server cannot be reached ({why}).",
  conn_connecting: "connecting…", conn_open: "online", conn_closed: "reconnecting…", conn_fatal: "disconnected",
  you: "You", you_lc: "you", player: "Player", ai: "AI", online: "online", offline: "offline",
  seat_n: "Seat {n}", seat_you: "Seat {n} — you", seat_free: "Seat {n} (invited)",
  partner: "partner", dealer: "dealer", dealer_short: "D", to_move: "to move",
  cards_n: ["{n} card", "{n} cards"],
  round: "Round", round_n: "Round {n}", round_of: "Round {n} of {of}", total: "Total",
  no_rounds_yet: "No round finished yet.",
  // lobby
  new_match: "New match", your_name: "Your name", name_placeholder: "e.g. Anna", game: "Game",
  n_players: "{n} players", players_range: "{lo}–{hi} players", players: "Players",
  human_you: "you (human)", who_plays: "who plays", ai_level: "AI level",
  kind_ai: "AI", kind_human: "Friend (invite link)", gets_invite: "gets an invite link",
  listed: "Show in “Open matches” (anyone can watch)", create_match: "Create match",
  create_failed: "The match could not be created: {why}",
  invites_title: "Invite your friends", copied: "Copied ✓", copy: "Copy", joined_by: "joined by {name}",
  invites_help: "Send each friend their own link: it is their seat. Then go to the table.",
  go_to_table: "Go to the table", your_matches: "Your matches", no_matches_yet: "No matches yet on this browser.",
  finished: "finished", your_turn: "your turn", waiting_for: "waiting for {name}", vs: "vs {who}",
  forget: "Forget", forget_help: "Remove from this list (the seat link is forgotten in this browser)",
  open_matches: "Open matches", no_open_matches: "No open matches right now.", watch: "Watch",
  // table chrome
  watching: "Watching", spectator_no_hand: "You are watching: hands are hidden.",
  ai_plays_for_you: "The AI is playing your seat.", reclaim: "Take my seat back",
  hint: "Hint", hint_help: "Ask the AI what it would play (H)", thinking: "Thinking…", hint_says: "Hint:",
  scores: "Scores", leave: "Let the AI play for me", leave_help: "Hand your seat to the AI (you can take it back)",
  leave_confirm: "Hand your seat to the AI? You can take it back later.",
  copy_invite: "Copy invite", takeover: "AI takes over", takeover_help: "This player left: let the AI play their seat",
  turn_sound_off: "♪ Sound: off", turn_sound_on: "♪ Sound: on", turn_sound_help: "A short tone when it becomes your turn",
  turn_notify_off: "Notify: off", turn_notify_on: "Notify: on",
  turn_notify_help: "A browser notification when it becomes your turn while this tab is in the background",
  turn_notify_denied: "The browser does not allow notifications for this site",
  keys_help: "Keys: 1–9, 0 pick the numbered card or move · H hint · Esc closes",
  continue: "Continue", close: "Close",
  back_to_lobby: "Back to the lobby", join_title: "Join the match", join: "Join",
  fatal_auth_failed: "This invite link is not valid for this match (or someone else has taken its seat).", fatal_no_such_match: "There is no such match.",
  fatal_spectators_disallowed: "This match does not admit spectators.",
  fatal_unsupported_version: "This page is too old for the server: reload it.", fatal_corrupt: "This match cannot be restored.",
  waiting_for_move: "Waiting for {name}…", match_totals: "Match totals",
  your_hand: "Your hand", hidden_card: "hidden card",
  // cards
  card_of: "{rank} of {suit}", joker: "Joker", spy: "Spy", spy_short: "Spy",
  rank_2: "2", rank_3: "3", rank_4: "4", rank_5: "5", rank_6: "6", rank_7: "7", rank_8: "8", rank_9: "9", rank_10: "10",
  rank_jack: "Jack", rank_queen: "Queen", rank_king: "King", rank_ace: "Ace",
  suit_clubs: "clubs", suit_diamonds: "diamonds", suit_hearts: "hearts", suit_spades: "spades",
  colour_yellow: "yellow", colour_blue: "blue", colour_white: "white", colour_green: "green", colour_red: "red",
  colour_purple: "purple", colour: "Colour", wager_of: "{colour} wager",
  // Lost Cities
  lc_known: "{card}: taken from a discard pile", lc_known_note: "(face up: taken from discard piles)",
  lc_expeditions_of: "Expeditions of {who}", lc_col_score: "{colour} expedition: score if the round ended now",
  lc_round_so_far: "This round so far", lc_this_round: "round", lc_pile_title: "{colour} discard pile (bottom to top): {cards}",
  lc_pile_empty: "{colour} discard pile: empty", lc_take_from: "Take {card} from the {colour} discard pile",
  lc_banned: "You discarded onto the {colour} pile this turn: you cannot take from it (LC-4)",
  lc_draw_deck_n: "Draw from the draw pile ({n} left)", lc_deck_label: "draw pile",
  lc_phases: "The two phases of a turn", lc_phase_play: "place or discard", lc_phase_draw: "draw",
  lc_place: "Place {card} on your expedition",
  lc_discard_title: "Discard {card}", lc_discard: "discard",
  lc_hand_help: "click a card to place it, ↓ to discard it", lc_hand_keys: "(keys 1–8; Shift+1–8 discards)",
  lc_your_play: "Your turn: place a card on an expedition, or discard one.",
  lc_your_draw: "Now draw a card: from the draw pile or the top of a discard pile.",
  lc_waiting_play: "{name} is placing or discarding a card…", lc_waiting_draw: "{name} is drawing a card…",
  lc_hint_play: "place {card} on its expedition", lc_hint_discard: "discard {card}", lc_hint_deck: "draw from the draw pile",
  lc_hint_take: "take {card} from the {colour} pile", lc_round_total: "Round score",
  lc_scoring_rule: "Each expedition: (sum of cards − 20) × (1 + wagers), +20 with 8 or more cards; untouched colours score 0.",
  // Rank
  rk_out_place: "out, {place}", rk_loser: "stays in Rank", rk_stock_label: "stock: {n}", rk_pile_label: "pile: {n}", rk_show_pile: "show all", lr_top_first: "(top first)",
  rk_anti_title: "Anti-Rank!", rk_anti_text: "Nobody could play ({name} declared it): each player plays any one card until someone can play normally (RG-8).",
  rk_pull_back: "{who} played their last card, but {by} could play: {who} drew {n} and is back in the game (RG-6).",
  rk_pull_back_you: "You played your last card, but {by} could play: you drew {n} and are back in the game (RG-6).",
  rk_out_by: "{who} is out ({place}): {by} could not play (RG-6).", rk_out_you: "You are out ({place})! (RG-6)",
  rk_chain: "{who} this turn:", rk_draw: "Draw a card", rk_pass: "Pass", rk_play_card: "Play {card}",
  rk_you_out: "you are out ({place})",
  rk_your_anti: "Anti-Rank: play any one card of your choice.",
  rk_your_draw: "You cannot play: draw a card from the stock.", rk_your_pass: "You cannot play and the stock is empty: pass.",
  rk_your_more: "Keep playing: a card one rank away, else the same rank, else an Ace or King, else a joker.",
  rk_your_play: "Your turn: play a card one rank from {card} (else the same rank, else A or K, else a joker).",
  rk_you_lose: "You stay in Rank: you lose.", rk_you_safe: "You got out! {name} stays in Rank.",
  rk_loses: "{name} stays in Rank and loses.", rk_players_packs: "{n} players · {packs} pack(s)",
  rk_hint_play: "play {card}", rk_hint_draw: "draw a card", rk_hint_pass: "pass",
  rk_order: "Out, in order", rk_nobody_out: "Nobody is out yet.", rk_still_in: "Still in the game:",
  rk_rule_summary: "The last player holding cards stays in Rank and loses; everyone else scores 0.",
  // Lost Ranks
  army_red: "Red army", army_black: "Black army", army_red_short: "Red", army_black_short: "Black",
  lr_active_soldier: "Active Lost Soldier: +2 when rescued (LR-15)", lr_inactive_soldier: "Inactive Lost Soldier: scores nothing this round",
  lr_trump_card: "The Trump Card (out of play this round)", lr_trump: "Trump:", lr_active: "Active soldiers:",
  lr_spy_note: "The Spy is always active: +2 to whoever captures it. Soldiers never win tricks.",
  lr_round_pts: "(this round {n})", lr_target: "first to {n} wins", lr_rounds_fixed: "{n} rounds", lr_tiebreak: "tiebreaker",
  lr_trick_of: "Trick {n} of {of}", lr_tricks_won: "tricks: Red {red} · Black {black}", lr_void: "void in",
  lr_trick: "The trick", lr_from_phantom: "from the phantom deck", lr_won_by: "Won by {name}", lr_won_by_you: "You won it", lr_no_winner: "No winner: discarded",
  lr_led: "Led:", lr_first_lead: "{card} leads first", lr_other_choosing: "{name} drew two:",
  lr_captured_n: "captured {n}", lr_no_soldiers: "no soldiers yet", lr_discarded: "Discarded:",
  lr_phantom_deck_n: "phantom deck ({n})", lr_top: "top card", lr_face_up: "face up (public)",
  lr_choose_title: "You drew two:", lr_choose_help: "play one; the other goes face up under your phantom deck (LR-14)",
  lr_play_card: "Play {card}", lr_partner_is: "· partner: {name} (across)", lr_draw_two: "Draw two from the phantom deck",
  lr_your_choose: "Choose which of the two drawn cards to play.",
  lr_your_first_lead: "You lead the first trick with {card} (LR-6).",
  lr_your_lead: "Your lead: play any card (not the Spy unless it is your last).",
  lr_your_lead_2p: "Your lead: play from your hand, or draw two from your phantom deck.",
  lr_your_follow: "Your turn: follow {suit} if you can.",
  lr_your_follow_phantom: "The leader played from their hand: you play from your phantom deck — draw two.",
  lr_hint_play: "play {card}", lr_hint_phantom: "play {card} (from the drawn pair)", lr_hint_draw_two: "draw two from your phantom deck",
  lr_round_points: "This round: Red {red}, Black {black}.", lr_next_round: "{name} deals the next round.", lr_next_round_you: "You deal the next round.",
  lr_scoring_rule: "Each active Jack rescued by its own army: +2; the Spy: +2 to whoever captures it.",
  // open seats, several seats per browser
  kind_open: "Anyone (open seat)", gets_open: "anyone may take this seat from the lobby (or send them the link)",
  open_seat: "open seat", seat_open: "Seat {n} (open)", sit_here: "Take this seat", join_match: "Join",
  join_failed: "Could not join: {why}", open_seats_n: ["{n} open seat", "{n} open seats"],
  // replays and records
  replay: "Replay", open_replay: "Watch the replay", replay_failed: "The replay could not be loaded ({why}).",
  replay_first: "To the start (Home)", replay_prev: "One move back (←)", replay_next: "One move forward (→)",
  replay_last: "To the end (End)", replay_play: "Play (Space)", replay_pause: "Pause (Space)",
  replay_slider: "Position in the match", replay_step: "move {n} of {of}",
  replay_deal: "The deal: the table before the first move.", replay_deal_short: "The deal", summary: "Summary",
  back_to_table: "Back to the table", export_record: "Export record (JSON)",
  export_help: "Download the match record (seed and every move), which “cardtable replay” reads",
  export_failed: "The record could not be exported: {why}", replay_viewpoint: "Point of view:",
  replay_public: "public (what spectators saw)", replay_as: "as {name} saw it",
  replay_viewpoint_help: "Each step shows only what this seat could see at that moment.",
  replay_public_help: "Each step shows only what was public at that moment.",
  replay_play_short: "Play", replay_pause_short: "Pause",
  replay_keys: "Keys: ← → one move (with Shift: ten) · Home/End start/end · Space play/pause",
  // agents
  agent_easy: "Easy", agent_medium: "Medium", agent_hard: "Hard", agent_heuristic: "Rules of thumb", agent_random: "Random",
  agent_ismcts: "Search AI (adjustable)",
  agent_help_random: "plays any allowed move at random: for learning the rules",
  agent_help_easy: "plays by rules of thumb, but one move in four at random: beatable",
  agent_help_heuristic: "plays by fixed rules of thumb, at once",
  agent_help_medium: "search AI: looks ahead for 0.1 s a move",
  agent_help_hard: "search AI: looks ahead for 0.7 s a move",
  agent_help_ismcts: "search AI with a budget of its own (by default 0.7 s a move, like Hard)",
  // lobby rows, invites, handing the seat over
  match_row_round: "round {n}", match_row_moves: ["{n} move", "{n} moves"],
  join_game_title: "Join a game of {game}", join_invited_by: "{name} invites you to play.",
  join_your_seat: "Your seat: {seat}.", join_seat_of: "Seat {n}", join_options: "Options:", custom_rules: "Custom rules", join_players: "At the table:",
  waiting_to_join: "Waiting for Seat {n} to join…",
  yes: "yes", no: "no",
  leave_title: "Let the AI play for you?", leave_level: "AI level", leave_go: "Hand over my seat", cancel: "Cancel",
  // ending a match early, rematch
  life_resign: "Resign", life_resign_title: "Resign the match?", life_resign_go: "Resign",
  life_resign_confirm: "You lose the match at once. This cannot be undone.",
  life_resign_partner: "Your army resigns when your partner resigns too; until then play goes on.",
  life_partner_resigns: "{name} wants to resign: resign too to give up the match.",
  life_abort: "Abort", life_abort_help: "Call the match off with no result (only in its first moves).",
  life_draw_offer: "Offer a draw", life_draw_accept: "Accept the draw", life_draw_decline: "Decline the draw",
  life_draw_withdraw: "Withdraw the draw offer", life_draw_offered: "{name} offers a draw.",
  life_draw_declined: "{name} declined the draw.",
  life_rematch: "Rematch", life_rematch_waiting: "Rematch: waiting for the others…",
  life_you_resigned: "You resigned.", life_they_resigned: "{name} resigned: you win.", life_resigned: "{name} resigned.",
  life_drawn: "Drawn by agreement.", life_aborted: "The match was aborted by {name}: no result.",
  // games
  // accounts, profiles, leaderboards
  account: "Account", leaderboard: "Leaderboard", sign_in: "Sign in", sign_out: "Sign out", sign_up: "Sign up",
  account_name: "Name", password: "Password",
  signup_help: "2–24 letters, digits, _ - . for the name; at least 8 characters for the password. Guests can keep playing without an account.",
  have_account: "I have an account: sign in", no_account: "No account yet? Sign up",
  playing_as: "Playing as {name}", rated_match: "Rated match (ratings change at the end)",
  rating_plot: "Rating from {from} to {to} over {n} rated matches",
  no_such_player: "No player is called {name}.", ratings: "Ratings", no_ratings_yet: "No rated matches yet.",
  provisional: "provisional", provisional_help: "Few rated matches so far: the rating is still uncertain",
  rated_games: ["{n} rated match", "{n} rated matches"], rated_games_short: "Matches",
  results_per_game: "Results per game", played: "Played", first_places: "First places", last_places: "Last places",
  recent_matches: "Recent matches", place_of: "place {place} of {of}", in_progress: "in progress", rated: "rated",
  rating: "Rating", no_matches_played: "No matches played yet.",
  board_help: "Ratings ±2σ; “?” marks a provisional rating. The AI levels are rated players too: landmarks to climb past.",
  // chat (static/chat.js)
  chat: "Chat", chat_placeholder: "Message…", chat_send: "Send", chat_spectator: "Spectator",
  chat_spectators: "spectators", chat_mute: "Mute {who}", chat_unmute: "Unmute {who}",
  phrase_hi: "Hi!", phrase_gl: "Good luck!", phrase_gg: "Good game!", phrase_wp: "Well played!",
  phrase_thanks: "Thanks!", phrase_oops: "Oops!", phrase_wait: "One moment, please", phrase_bye: "Bye!",
  // match clocks (static/clock.js)
  clock: "Clock", clock_none: "No clock", clock_per_move: "{time} a move", clock_per_match: "{time} a match",
  clock_correspondence: "Correspondence: {time} a move", clock_days_hours: "{d} d {h} h",
  clock_on_timeout: "When time runs out", clock_then_ai: "the AI moves for the player",
  clock_then_lose: "the player loses", clock_ai_moves: "AI moves",
  clock_your_time_ran_out: "Your time ran out: the AI makes this move for you.",
  clock_their_time_ran_out: "{name}'s time ran out: the AI moves for them.",
  clock_you_lost_on_time: "Your time ran out: the match is lost.",
  clock_they_lost_on_time: "{name} ran out of time: you win.", clock_lost_on_time: "{name} ran out of time.",
  clock_left: "{time} left",
  clock_dur_s: "{n} s", clock_dur_min: "{n} min", clock_dur_h: "{n} h", clock_dur_d: "{n} d",
};

const RU = {
  lobby: "Лобби", rules: "Правила", rules_of: "Правила: {game}", loading: "Загрузка…", connecting: "Подключаемся к столу…",
  server_unreachable: "Сервер недоступен ({why}).",
  conn_connecting: "подключение…", conn_open: "в сети", conn_closed: "переподключение…", conn_fatal: "отключено",
  you: "Вы", you_lc: "вы", player: "Игрок", ai: "ИИ", online: "в сети", offline: "не в сети",
  seat_n: "Место {n}", seat_you: "Место {n} — вы", seat_free: "Место {n} (приглашён)",
  partner: "партнёр", dealer: "сдающий", dealer_short: "С", to_move: "ходит",
  cards_n: ["{n} карта", "{n} карты", "{n} карт"],
  round: "Раунд", round_n: "Раунд {n}", round_of: "Раунд {n} из {of}", total: "Итого",
  no_rounds_yet: "Ни один раунд ещё не закончен.",
  new_match: "Новая партия", your_name: "Ваше имя", name_placeholder: "например, Анна", game: "Игра",
  n_players: ["{n} игрок", "{n} игрока", "{n} игроков"], players_range: "{lo}–{hi} игроков", players: "Игроки",
  human_you: "вы (человек)", who_plays: "кто играет", ai_level: "уровень ИИ",
  kind_ai: "ИИ", kind_human: "Друг (по ссылке)", gets_invite: "получит ссылку-приглашение",
  listed: "Показать в «Открытых партиях» (смотреть может любой)", create_match: "Создать партию",
  create_failed: "Не удалось создать партию: {why}",
  invites_title: "Пригласите друзей", copied: "Скопировано ✓", copy: "Копировать", joined_by: "занято: {name}",
  invites_help: "Отправьте каждому другу его ссылку — это его место за столом. Затем переходите к столу.",
  go_to_table: "К столу", your_matches: "Ваши партии", no_matches_yet: "В этом браузере партий пока нет.",
  finished: "закончена", your_turn: "ваш ход", waiting_for: "ждём: {name}", vs: "против: {who}",
  forget: "Забыть", forget_help: "Убрать из списка (ссылка на место забудется в этом браузере)",
  open_matches: "Открытые партии", no_open_matches: "Открытых партий сейчас нет.", watch: "Смотреть",
  watching: "Вы зритель", spectator_no_hand: "Вы зритель: карты игроков скрыты.",
  ai_plays_for_you: "За вас играет ИИ.", reclaim: "Вернуться за стол",
  hint: "Подсказка", hint_help: "Спросить ИИ, как бы он сходил (H)", thinking: "Думаю…", hint_says: "Подсказка:",
  scores: "Счёт", leave: "Пусть за меня играет ИИ", leave_help: "Передать место ИИ (его можно вернуть)",
  leave_confirm: "Передать ваше место ИИ? Потом его можно вернуть.",
  copy_invite: "Копировать ссылку", takeover: "Заменить ИИ", takeover_help: "Игрок ушёл: пусть за него играет ИИ",
  turn_sound_off: "♪ Звук: выкл.", turn_sound_on: "♪ Звук: вкл.", turn_sound_help: "Короткий сигнал, когда наступает ваш ход",
  turn_notify_off: "Уведомления: выкл.", turn_notify_on: "Уведомления: вкл.",
  turn_notify_help: "Уведомление браузера, когда наступает ваш ход, а эта вкладка в фоне",
  turn_notify_denied: "Браузер не разрешает уведомления для этого сайта",
  keys_help: "Клавиши: 1–9, 0 — карта или ход с этим номером · H — подсказка · Esc — закрыть",
  continue: "Дальше", close: "Закрыть",
  back_to_lobby: "В лобби", join_title: "Присоединиться к партии", join: "Войти",
  fatal_auth_failed: "Эта ссылка-приглашение не подходит к партии (или её место уже занял другой).", fatal_no_such_match: "Такой партии нет.",
  fatal_spectators_disallowed: "В этой партии нельзя быть зрителем.",
  fatal_unsupported_version: "Страница устарела: перезагрузите её.", fatal_corrupt: "Эту партию нельзя восстановить.",
  waiting_for_move: "Ходит {name}…", match_totals: "Счёт партии",
  your_hand: "Ваши карты", hidden_card: "закрытая карта",
  card_of: "{rank} {suit}", joker: "Джокер", spy: "Шпион", spy_short: "Шп",
  rank_2: "двойка", rank_3: "тройка", rank_4: "четвёрка", rank_5: "пятёрка", rank_6: "шестёрка", rank_7: "семёрка",
  rank_8: "восьмёрка", rank_9: "девятка", rank_10: "десятка", rank_jack: "валет", rank_queen: "дама", rank_king: "король",
  rank_ace: "туз",
  suit_clubs: "треф", suit_diamonds: "бубен", suit_hearts: "червей", suit_spades: "пик",
  colour_yellow: "жёлтая", colour_blue: "синяя", colour_white: "белая", colour_green: "зелёная", colour_red: "красная",
  colour_purple: "фиолетовая", colour: "Цвет", wager_of: "{colour} — пари",
  lc_known: "{card}: взята из сброса", lc_known_note: "(открыты: взяты из сброса)",
  lc_expeditions_of: "Экспедиции: {who}", lc_col_score: "Экспедиция ({colour}): очки, если бы раунд кончился сейчас",
  lc_round_so_far: "Очки этого раунда", lc_this_round: "раунд", lc_pile_title: "Сброс ({colour}), снизу вверх: {cards}",
  lc_pile_empty: "Сброс ({colour}): пусто", lc_take_from: "Взять {card} из сброса ({colour})",
  lc_banned: "В этот ход вы сбросили сюда ({colour}): брать отсюда нельзя (LC-4)",
  lc_draw_deck_n: "Взять из колоды (осталось {n})", lc_deck_label: "колода",
  lc_phases: "Две фазы хода", lc_phase_play: "выложить или сбросить", lc_phase_draw: "взять",
  lc_place: "Выложить {card} в экспедицию",
  lc_discard_title: "Сбросить {card}", lc_discard: "сброс",
  lc_hand_help: "щелчок по карте — выложить, ↓ — сбросить", lc_hand_keys: "(клавиши 1–8; Shift+1–8 — сброс)",
  lc_your_play: "Ваш ход: выложите карту в экспедицию или сбросьте одну.",
  lc_your_draw: "Теперь возьмите карту: из колоды или верхнюю из сброса.",
  lc_waiting_play: "{name} выкладывает или сбрасывает карту…", lc_waiting_draw: "{name} берёт карту…",
  lc_hint_play: "выложить {card} в экспедицию", lc_hint_discard: "сбросить {card}", lc_hint_deck: "взять из колоды",
  lc_hint_take: "взять {card} из сброса ({colour})", lc_round_total: "Очки за раунд",
  lc_scoring_rule: "Экспедиция: (сумма карт − 20) × (1 + пари), +20 за 8 и более карт; нетронутый цвет — 0.",
  rk_out_place: "вне игры, {place}", rk_loser: "остаётся в Ранге", rk_stock_label: "в колоде: {n}", rk_pile_label: "в куче: {n}", rk_show_pile: "показать всю", lr_top_first: "(верхняя — первая)",
  rk_anti_title: "Антиранг!", rk_anti_text: "Никто не мог сходить (объявляет: {name}): каждый кладёт любую одну карту, пока кто-то не сможет ходить по правилам (RG-8).",
  rk_pull_back: "{who} сбрасывает последнюю карту, но {by} может сходить: {who} берёт {n} и возвращается в игру (RG-6).",
  rk_pull_back_you: "Вы сбросили последнюю карту, но {by} может сходить: вы берёте {n} и возвращаетесь в игру (RG-6).",
  rk_out_by: "{who} выходит из игры ({place}): {by} не может сходить (RG-6).", rk_out_you: "Вы вышли ({place})! (RG-6)",
  rk_chain: "{who} за этот ход:", rk_draw: "Взять карту", rk_pass: "Пас", rk_play_card: "Сходить {card}",
  rk_you_out: "вы вышли ({place})",
  rk_your_anti: "Антиранг: положите любую одну карту.",
  rk_your_draw: "Сходить нечем: возьмите карту из колоды.", rk_your_pass: "Сходить нечем, колода пуста: пас.",
  rk_your_more: "Продолжайте: карта на ранг выше или ниже, иначе того же ранга, иначе туз или король, иначе джокер.",
  rk_your_play: "Ваш ход: карта на ранг выше или ниже {card} (иначе того же ранга, иначе Т или К, иначе джокер).",
  rk_you_lose: "Вы остались в Ранге: поражение.", rk_you_safe: "Вы вышли! В Ранге остаётся: {name}.",
  rk_loses: "{name} остаётся в Ранге и проигрывает.", rk_players_packs: "игроков: {n} · колод: {packs}",
  rk_hint_play: "сходить {card}", rk_hint_draw: "взять карту", rk_hint_pass: "пас",
  rk_order: "Вышли по порядку", rk_nobody_out: "Пока никто не вышел.", rk_still_in: "Ещё в игре:",
  rk_rule_summary: "Последний, у кого остались карты, остаётся в Ранге и проигрывает; остальные получают 0.",
  army_red: "Красная армия", army_black: "Чёрная армия", army_red_short: "Красные", army_black_short: "Чёрные",
  lr_active_soldier: "Активный пропавший солдат: +2, если его спасут свои (LR-15)", lr_inactive_soldier: "Неактивный солдат: в этом раунде очков не даёт",
  lr_trump_card: "Козырная карта (в этом раунде не играет)", lr_trump: "Козырь:", lr_active: "Активные солдаты:",
  lr_spy_note: "Шпион всегда активен: +2 тому, кто его возьмёт. Солдаты не берут взяток.",
  lr_round_pts: "(в раунде {n})", lr_target: "до {n} очков", lr_rounds_fixed: "раундов: {n}", lr_tiebreak: "дополнительный раунд",
  lr_trick_of: "Взятка {n} из {of}", lr_tricks_won: "взяток: красные {red} · чёрные {black}", lr_void: "нет масти:",
  lr_trick: "Взятка", lr_from_phantom: "из фантомной колоды", lr_won_by: "Взятка: {name}", lr_won_by_you: "Взятка ваша", lr_no_winner: "Никто не взял: в сброс",
  lr_led: "Ход в масть:", lr_first_lead: "первым ходит {card}", lr_other_choosing: "{name} тянет две:",
  lr_captured_n: "взято {n}", lr_no_soldiers: "солдат пока нет", lr_discarded: "В сбросе:",
  lr_phantom_deck_n: "фантомная колода ({n})", lr_top: "верхняя карта", lr_face_up: "открыта (видна всем)",
  lr_choose_title: "Вы вытянули две:", lr_choose_help: "сыграйте одну; другая ляжет открытой под фантомную колоду (LR-14)",
  lr_play_card: "Сходить {card}", lr_partner_is: "· партнёр: {name} (напротив)", lr_draw_two: "Вытянуть две из фантомной колоды",
  lr_your_choose: "Выберите, какую из двух вытянутых карт сыграть.",
  lr_your_first_lead: "Вы начинаете первую взятку картой {card} (LR-6).",
  lr_your_lead: "Ваш заход: любая карта (Шпион — только последней).",
  lr_your_lead_2p: "Ваш заход: карта с руки или две из фантомной колоды.",
  lr_your_follow: "Ваш ход: ходите в масть ({suit}), если можете.",
  lr_your_follow_phantom: "Заходящий сыграл с руки: вы играете из фантомной колоды — вытяните две.",
  lr_hint_play: "сходить {card}", lr_hint_phantom: "сыграть {card} (из вытянутых)", lr_hint_draw_two: "вытянуть две из фантомной колоды",
  lr_round_points: "В этом раунде: красные {red}, чёрные {black}.", lr_next_round: "Следующий раунд сдаёт: {name}.", lr_next_round_you: "Следующий раунд сдаёте вы.",
  lr_scoring_rule: "Каждый активный валет, спасённый своей армией: +2; Шпион: +2 тому, кто его взял.",
  kind_open: "Любой (открытое место)", gets_open: "это место может занять любой из лобби (или пошлите ссылку)",
  open_seat: "открытое место", seat_open: "Место {n} (открыто)", sit_here: "Занять это место", join_match: "Сесть",
  join_failed: "Не удалось занять место: {why}", open_seats_n: ["{n} открытое место", "{n} открытых места", "{n} открытых мест"],
  replay: "Повтор", open_replay: "Смотреть повтор", replay_failed: "Повтор не загрузился ({why}).",
  replay_first: "В начало (Home)", replay_prev: "Ход назад (←)", replay_next: "Ход вперёд (→)",
  replay_last: "В конец (End)", replay_play: "Воспроизвести (пробел)", replay_pause: "Пауза (пробел)",
  replay_slider: "Место в партии", replay_step: "ход {n} из {of}",
  replay_deal: "Раздача: стол перед первым ходом.", replay_deal_short: "Раздача", summary: "Итоги",
  back_to_table: "Вернуться к столу", export_record: "Сохранить запись (JSON)",
  export_help: "Скачать запись партии (зерно и все ходы), её читает «cardtable replay»",
  export_failed: "Не удалось сохранить запись: {why}", replay_viewpoint: "Точка зрения:",
  replay_public: "общая (что видели зрители)", replay_as: "глазами игрока: {name}",
  replay_viewpoint_help: "Каждый шаг показывает только то, что это место видело в тот момент.",
  replay_public_help: "Каждый шаг показывает только то, что в тот момент было открыто всем.",
  replay_play_short: "Пуск", replay_pause_short: "Пауза",
  replay_keys: "Клавиши: ← → ход (с Shift — десять) · Home/End — начало/конец · пробел — пуск/пауза",
  agent_easy: "Лёгкий", agent_medium: "Средний", agent_hard: "Сильный", agent_heuristic: "По правилам", agent_random: "Случайный",
  agent_ismcts: "Поисковый ИИ (настраиваемый)",
  agent_help_random: "ходит наугад любым разрешённым ходом: чтобы освоить правила",
  agent_help_easy: "играет по простым правилам, но каждый четвёртый ход — наугад: его можно обыграть",
  agent_help_heuristic: "играет по твёрдым простым правилам, без раздумий",
  agent_help_medium: "поисковый ИИ: просчитывает 0,1 с на ход",
  agent_help_hard: "поисковый ИИ: просчитывает 0,7 с на ход",
  agent_help_ismcts: "поисковый ИИ со своим бюджетом (по умолчанию 0,7 с на ход, как «Сильный»)",
  match_row_round: "раунд {n}", match_row_moves: ["{n} ход", "{n} хода", "{n} ходов"],
  join_game_title: "Партия в «{game}»", join_invited_by: "{name} приглашает вас сыграть.",
  join_your_seat: "Ваше место: {seat}.", join_seat_of: "Место {n}", join_options: "Настройки:", custom_rules: "Свои правила", join_players: "За столом:",
  waiting_to_join: "Ждём, пока кто-нибудь займёт место {n}…",
  yes: "да", no: "нет",
  leave_title: "Пусть за вас играет ИИ?", leave_level: "Уровень ИИ", leave_go: "Отдать место ИИ", cancel: "Отмена",
  life_resign: "Сдаться", life_resign_title: "Сдать партию?", life_resign_go: "Сдаться",
  life_resign_confirm: "Вы сразу проигрываете партию. Отменить это нельзя.",
  life_resign_partner: "Ваша армия сдаётся, когда сдастся и партнёр; до тех пор игра продолжается.",
  life_partner_resigns: "{name} хочет сдаться: сдайтесь тоже, чтобы прекратить партию.",
  life_abort: "Отменить", life_abort_help: "Отменить партию без результата (только в первые ходы).",
  life_draw_offer: "Предложить ничью", life_draw_accept: "Принять ничью", life_draw_decline: "Отклонить ничью",
  life_draw_withdraw: "Отозвать предложение ничьей", life_draw_offered: "{name} предлагает ничью.",
  life_draw_declined: "{name} отклоняет ничью.",
  life_rematch: "Реванш", life_rematch_waiting: "Реванш: ждём остальных…",
  life_you_resigned: "Вы сдались.", life_they_resigned: "{name} сдаётся: вы победили.", life_resigned: "{name} сдаётся.",
  life_drawn: "Ничья по соглашению.", life_aborted: "{name} отменяет партию: без результата.",
  // accounts, profiles, leaderboards
  account: "Учётная запись", leaderboard: "Рейтинг", sign_in: "Войти", sign_out: "Выйти", sign_up: "Зарегистрироваться",
  account_name: "Имя", password: "Пароль",
  signup_help: "Имя: 2–24 буквы, цифры, _ - .; пароль — не короче 8 символов. Гости могут играть и без учётной записи.",
  have_account: "Уже есть учётная запись: войти", no_account: "Ещё нет учётной записи? Зарегистрироваться",
  playing_as: "Вы играете как {name}", rated_match: "Рейтинговая партия (рейтинги изменятся в конце)",
  rating_plot: "Рейтинг от {from} до {to} за {n} рейтинговых партий",
  no_such_player: "Игрока с именем {name} нет.", ratings: "Рейтинги", no_ratings_yet: "Рейтинговых партий пока нет.",
  provisional: "предварительный", provisional_help: "Пока мало рейтинговых партий: рейтинг ещё неточен",
  rated_games: ["{n} рейтинговая партия", "{n} рейтинговые партии", "{n} рейтинговых партий"], rated_games_short: "Партии",
  results_per_game: "Результаты по играм", played: "Сыграно", first_places: "Первые места", last_places: "Последние места",
  recent_matches: "Последние партии", place_of: "место {place} из {of}", in_progress: "идёт", rated: "рейтинговая",
  rating: "Рейтинг", no_matches_played: "Сыгранных партий пока нет.",
  board_help: "Рейтинги ±2σ; «?» — предварительный рейтинг. Уровни ИИ — тоже игроки с рейтингом: ориентиры, которые можно обойти.",
  // chat (static/chat.js)
  chat: "Чат", chat_placeholder: "Сообщение…", chat_send: "Отправить", chat_spectator: "Зритель",
  chat_spectators: "зрителей", chat_mute: "Заглушить: {who}", chat_unmute: "Включить: {who}",
  phrase_hi: "Привет!", phrase_gl: "Удачи!", phrase_gg: "Хорошая игра!", phrase_wp: "Отлично сыграно!",
  phrase_thanks: "Спасибо!", phrase_oops: "Ой!", phrase_wait: "Минутку, пожалуйста", phrase_bye: "Пока!",
  // match clocks (static/clock.js)
  clock: "Часы", clock_none: "Без часов", clock_per_move: "{time} на ход", clock_per_match: "{time} на партию",
  clock_correspondence: "По переписке: {time} на ход", clock_days_hours: "{d} д {h} ч",
  clock_on_timeout: "Когда время вышло", clock_then_ai: "за игрока ходит ИИ",
  clock_then_lose: "игрок проигрывает", clock_ai_moves: "ходит ИИ",
  clock_your_time_ran_out: "Ваше время вышло: этот ход за вас сделает ИИ.",
  clock_their_time_ran_out: "У игрока {name} вышло время: за него ходит ИИ.",
  clock_you_lost_on_time: "Ваше время вышло: партия проиграна.",
  clock_they_lost_on_time: "У игрока {name} вышло время: вы победили.", clock_lost_on_time: "У игрока {name} вышло время.",
  clock_left: "осталось {time}",
  clock_dur_s: "{n} с", clock_dur_min: "{n} мин", clock_dur_h: "{n} ч", clock_dur_d: "{n} д"
};

const DICT = { en: EN, ru: RU };
export const DICTIONARIES = DICT;
const missing = new Set();
window.__cardtableMissing = missing;

function detect() {
  const saved = localStorage.getItem(LANG_KEY);
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export let lang = detect();
document.documentElement.lang = lang;
const listeners = [];

export function onLangChange(fn) {
  listeners.push(fn);
}

export function setLang(l) {
  if (!LANGS.includes(l) || l === lang) return;
  lang = l;
  localStorage.setItem(LANG_KEY, l);
  document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
}

const PLURAL_FORMS = { en: { one: 0, other: 1 }, ru: { one: 0, few: 1, many: 2, other: 1 } };

/** Which form of a plural array fits `n`, by the language's Intl.PluralRules. */
function pluralIndex(n) {
  return PLURAL_FORMS[lang][new Intl.PluralRules(lang).select(n)] ?? 0;
}

function template(key, params) {
  let s = DICT[lang][key];
  if (s === undefined) {
    if (!missing.has(`${lang}:${key}`)) console.warn(`cardtable: missing translation ${lang}:${key}`);
    missing.add(`${lang}:${key}`);
    s = EN[key];
  }
  if (s === undefined) return key;
  if (Array.isArray(s)) s = s[Math.min(pluralIndex(Number(params && params.n) || 0), s.length - 1)];
  return s;
}

/** The shared catalog's message `key` in the page's language (English if it has none). */
function shared(key) {
  const own = refusalCatalog ? (refusalCatalog[lang] || refusalCatalog.en).messages[key] : undefined;
  if (own !== undefined) return own;
  if (!missing.has(`${lang}:${key}`)) {
    console.warn(`cardtable: missing translation ${lang}:${key} (shared catalog${refusalCatalog ? "" : " not loaded"})`);
  }
  missing.add(`${lang}:${key}`);
  return refusalCatalog ? refusalCatalog.en.messages[key] : undefined;
}

/** The translation of `key` with {placeholders} filled from `params`. */
export function t(key, params) {
  if (key.includes(".")) {
    const message = shared(key);
    return message === undefined ? key : formatText(message, lang, params || {});
  }
  const s = template(key, params);
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
}

/** Like t(), but params may be DOM nodes: returns a list of strings and nodes. */
export function tn(key, params = {}) {
  if (key.includes(".")) {
    const message = shared(key);
    return message === undefined ? [key] : formatParts(message, lang, params);
  }
  const s = template(key, params);
  const out = [];
  let last = 0;
  s.replace(/\{(\w+)\}/g, (m, k, at) => {
    if (at > last) out.push(s.slice(last, at));
    const v = params[k];
    out.push(v === undefined || v === null ? m : v instanceof Node ? v : String(v));
    last = at + m.length;
    return m;
  });
  if (last < s.length) out.push(s.slice(last));
  return out;
}

export function ordinal(n) {
  if (lang === "ru") return `${n}-й`;
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

/** A moment (ms since the epoch) in the page's language and local time zone, by
 * Intl.DateTimeFormat: "1 Dec 2026, 10:45" / "1 дек. 2026 г., 10:45"; the date only
 * without `time`. */
export function dateText(ms, { time = true } = {}) {
  const style = time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(lang, style).format(new Date(ms));
}

/** A text given in both languages (``{en, ru}``, from the server) in the page's language. */
export function local(text) {
  return text ? (text[lang] ?? text.en) : "";
}

export function gameTitle(name) {
  return name ? t(`game.${name}`) : "";
}

/** One line on what an AI level does, or "" for an agent without one. */
export function agentHelp(agent) {
  const key = `agent_help_${agent}`;
  return agent && EN[key] !== undefined ? t(key) : "";
}

export function agentLabel(agent) {
  if (!agent) return "";
  const key = `agent_${agent}`;
  return EN[key] === undefined ? agent : t(key);
}

export function langSwitch() {
  return h("div.lang-switch", { role: "group", "aria-label": "Language / Язык" },
    LANGS.map((l) => h("button", {
      type: "button", "data-lang": l, "aria-pressed": String(l === lang), class: l === lang ? "active" : "",
      onclick: () => setLang(l),
    }, l === "en" ? "EN" : "RU")));
}

// --- refusals ------------------------------------------------------------------------
// A refused move arrives as a record {key, params} with its ruling id; the catalog of
// every language comes from the server (GET /api/i18n, built by cardtable.i18n, the
// same catalog the terminal uses).  Template format: {name} is the parameter as it is
// (a list joined with ", "), {name:form} is the word terms[value][form].

let refusalCatalog = null;

let catalogLoad = null;

/** Fetch the shared catalog (refusals and messages) once; resolves when it is there. */
export function loadRefusals() {
  if (!catalogLoad) {
    catalogLoad = api("GET", "/api/i18n").then((found) => { refusalCatalog = found; return found; },
      (err) => { catalogLoad = null; throw err; });
  }
  return catalogLoad;
}

export const loadCatalog = loadRefusals;

/** Whether the shared catalog has arrived (before that, t() of a dotted key gives the key). */
export function catalogLoaded() {
  return refusalCatalog !== null;
}

/** What a win chance means in a game, in words: the analysis and hints send the
 * English label of cardtable.agents.knowledge ("win", "chance not to lose"). */
export function valueLabel(label) {
  return t(label === "chance not to lose" ? "web.value.not_lose" : "web.value.win");
}

/** A chance in [0, 1] as a whole percentage in the page's language ("62 %"). */
export function percent(x) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
}

/** The text of a refusal record in the page's language, without its ruling id. */
export function refusalText(reason) {
  if (!reason || !refusalCatalog) return null;
  let table = refusalCatalog[lang] || refusalCatalog.en;
  if (table.refusals[reason.key] === undefined) table = refusalCatalog.en;
  const template = table.refusals[reason.key];
  if (template === undefined) return null;
  const params = reason.params || {};
  return template.replace(/\{(\w+)(?::(\w+))?\}/g, (m, name, form) => {
    const v = params[name];
    if (v === undefined || v === null) return m;
    if (form) return ((table.terms || {})[String(v)] || {})[form] || String(v);
    return Array.isArray(v) ? v.join(", ") : String(v);
  });
}

/** The rules page of a game in the page's language: /rules/lost-ranks?lang=en. */
export function rulesHref(game) {
  return `/rules/${game}?lang=${lang}`;
}

/** The address of a ruling on the rules page: /rules/lost-ranks?lang=en#lr-7. */
export function ruleHref(game, rule) {
  return `${rulesHref(game)}#${rule.toLowerCase()}`;
}

/** A refusal as one line of text with its ruling id (for tooltips), or `fallback`. */
export function refusalTitle(reason, rule, fallback) {
  const text = refusalText(reason);
  if (text === null) return fallback;
  return rule ? `${text} (${rule})` : text;
}

/** A refusal as DOM children: the text, then the ruling id linked to the rules page. */
export function refusalNodes(reason, rule, game, fallback) {
  const text = refusalText(reason);
  if (text === null) return [fallback];
  if (!rule) return [text];
  return [text, " (", h("a.rule-link", { href: ruleHref(game, rule), target: "_blank", rel: "noopener" }, rule), ")"];
}
