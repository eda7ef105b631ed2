// The café's league board: asks /api/board, redraws, asks again a second after the answer
// (never two requests at once); when the board does not answer it waits longer each time
// (2, 4, 8 ... 30 s), and it does not ask while the page is hidden. No libraries, no CDN.
"use strict";
// game name -> {"zh-TW": ..., "en": ...}: the kits' titles, sent with every /api/board answer
let TITLES = {};
const POLL_MS = 1000;
const MAX_WAIT_MS = 30000;
function title(game) {
  const t = TITLES[game];
  return t ? t["zh-TW"] + " " + t["en"] : game;
}
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
// a column head: Chinese, then English under it, on one line each
function head(zh, en, cls) {
  return el("th", cls ? {class: cls} : {}, el("span", {class: "zh"}, zh), el("span", {class: "en"}, en));
}
function nameCell(name) { return el("td", {class: "name", title: name}, name); }
function scoreTable(players, turn, coop) {
  const rows = players.map(p => el("tr", p.name === turn ? {class: "turn"} : {},
    nameCell(p.name), el("td", {class: "num"}, p.score === null ? "–" : p.score)));
  return el("table", {}, el("tr", {}, head("玩家", "Player", "name"),
    coop ? head("剩牌", "Cards left", "num") : head("分數", "Score", "num")), ...rows);
}
function tableCard(t) {
  const coop = COOP.has(t.game);
  const state = t.over ? el("span", {class: "over"}, "已結束 Game over")
    : (t.to_act ? el("span", {}, "輪到 Turn: ", el("b", {}, t.to_act)) : "進行中 Playing");
  return el("div", {class: "card table-card", "data-table": t.table, "data-game": t.game_id},
    el("h3", {}, el("span", {class: "table-name"}, "桌 Table " + t.table), " · " + title(t.game)),
    el("p", {class: "meta"}, state, " · ",
      el("span", {class: "moves", title: "這局記下的步數（含撤銷）Journal entries of this game, undos included"},
        "第 " + t.seq + " 步 move " + t.seq)),
    scoreTable(t.players, t.to_act, coop));
}
function leagueBlock(league) {
  const games = Object.keys(league);
  if (!games.length) return [el("p", {class: "empty"}, "還沒有結束的遊戲 No finished games yet")];
  return games.map(game => el("div", {class: "card league-game", "data-game": game},
    el("h3", {}, title(game)),
    el("table", {class: "league-table"},
      el("tr", {}, head("名次", "Rank", "num rank"), head("玩家", "Player", "name"),
         head("局", "Games", "num"), head("勝", "Wins", "num"), head("分", "Points", "num")),
      ...league[game].map((row, i) => el("tr", {class: "league-row"},
        el("td", {class: "num rank"}, i + 1), nameCell(row.player),
        el("td", {class: "num"}, row.played), el("td", {class: "num"}, row.wins),
        el("td", {class: "num"}, row.points))))));
}
function verdictText(v) {
  if (v === "super_win") return "全部出完！Won, every card played";
  if (v === "win") return "贏了 Won";
  if (v === "loss") return "輸了 Lost";
  return "未判定 Not judged";
}
function teamBlock(teams) {
  const games = Object.keys(teams);
  if (!games.length) return [el("p", {class: "empty"}, "還沒有結束的合作遊戲 No cooperative game finished yet")];
  return games.map(game => {
    const t = teams[game];
    return el("div", {class: "card team-game", "data-game": game},
      el("h3", {}, title(game)),
      el("p", {class: "meta"}, "全桌一起贏或輸 The table wins or loses together · ",
        el("b", {}, t.won + " / " + t.played), " 局贏了 games won"),
      el("table", {},
        el("tr", {}, head("桌", "Table"), head("玩家", "Players", "name"), head("結果", "Result"),
           head("剩牌", "Cards left", "num")),
        ...t.games.map(g => el("tr", {class: "team-row " + (g.won ? "won" : "lost")},
          el("td", {}, g.table), nameCell(g.players.join("、")),
          el("td", {class: "verdict"}, verdictText(g.verdict)),
          el("td", {class: "num"}, g.cards_left === null ? "–" : g.cards_left)))));
  });
}
function gameCard(g) {
  const base = "/games/" + encodeURIComponent(g.table) + "/" + encodeURIComponent(g.game_id);
  const result = g.cooperative
    ? el("p", {class: "meta"}, "團隊 Team: ", el("b", {}, verdictText(g.verdict)))
    : el("p", {class: "meta"}, "贏家 Winner: ", el("b", {}, g.winners.length ? g.winners.join("、") : "—"));
  return el("div", {class: "card game-card", "data-game": g.game_id},
    el("h3", {}, title(g.game) + " · 桌 Table " + g.table),
    result,
    chart(base + "/chart.svg", g.game_id),
    el("p", {}, el("a", {href: base + "/bgstats.json", download: ""}, "BG Stats")));
}
// The chart is put into the page itself (not an <img>): its text then has the page's font,
// the board's own Chinese font on a screen that has none. The board escapes every name in it.
function chart(src, gameId) {
  const box = el("div", {class: "chart", "data-src": src, role: "img",
                         "aria-label": "分數圖 Score chart " + gameId});
  fetch(src).then(r => r.ok ? r.text() : Promise.reject(r.status))
    .then(svg => { box.innerHTML = svg; })
    .catch(err => { box.textContent = "圖表載入失敗 Chart not loaded (" + err + ")"; });
  return box;
}
function replace(id, nodes) { document.getElementById(id).replaceChildren(...nodes); }
function countersText(data) {
  const s = data.stats || {};
  return "收到 " + (s.messages || 0) + " 則訊息 messages received · 重複 " + (s.duplicates || 0)
    + " 則只算一次 duplicates, counted once · 拒收 " + (s.bad_messages || 0)
    + " 則壞訊息 bad messages refused";
}
let COOP = new Set();
let drawnGames = "";
let wait = POLL_MS;
let inflight = false;
async function refresh() {
  inflight = true;
  try {
    const response = await fetch("/api/board", {cache: "no-store"});
    if (!response.ok) throw new Error(response.status);
    const data = await response.json();
    TITLES = data.titles || {};
    COOP = new Set(Object.keys(data.teams_season || {}).concat(
      (data.games || []).filter(g => g.cooperative).map(g => g.game)));
    replace("tables", data.tables.length ? data.tables.map(tableCard)
      : [el("p", {class: "empty"}, "還沒有桌子連上 No table has reported yet")]);
    replace("league-tonight", leagueBlock(data.league_tonight));
    replace("league-season", leagueBlock(data.league_season));
    replace("teams", teamBlock(data.teams_season || {}));
    const ids = data.games.map(g => g.table + "/" + g.game_id).join(",");
    if (ids !== drawnGames) {  // charts only redrawn when a game finishes
      replace("games", data.games.map(gameCard));
      drawnGames = ids;
    }
    const status = document.getElementById("status");
    status.textContent = "已更新 Updated " + new Date().toLocaleTimeString() + " · "
      + data.results + " 局已結束 games finished";
    status.dataset.results = data.results;
    document.getElementById("counters").textContent = countersText(data);
    wait = POLL_MS;
  } catch (err) {
    wait = Math.min(Math.max(wait * 2, 2000), MAX_WAIT_MS);
    document.getElementById("status").textContent = "連不上看板 Board unreachable (" + err
      + ") · " + Math.round(wait / 1000) + " 秒後再試 trying again in " + Math.round(wait / 1000) + " s";
  }
  inflight = false;
  schedule();
}
let timer = null;
function schedule() {
  clearTimeout(timer);
  timer = null;
  if (!document.hidden) timer = setTimeout(refresh, wait);
}
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && timer === null && !inflight) refresh();
});
refresh();
