// The café's league board: polls /api/board every second and redraws. No libraries, no CDN.
"use strict";
// game name -> {"zh-TW": ..., "en": ...}: the kits' titles, sent with every /api/board answer
let TITLES = {};
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
function scoreTable(players, turn) {
  const rows = players.map(p => el("tr", p.name === turn ? {class: "turn"} : {},
    el("td", {}, p.name), el("td", {class: "num"}, p.score === null ? "–" : p.score)));
  return el("table", {}, el("tr", {}, el("th", {}, "玩家 Player"), el("th", {class: "num"}, "分數 Score")), ...rows);
}
function tableCard(t) {
  const state = t.over ? el("span", {class: "over"}, "已結束 Game over")
    : (t.to_act ? "輪到 Turn: " + t.to_act : "進行中 Playing");
  return el("div", {class: "card table-card", "data-table": t.table, "data-game": t.game_id},
    el("h3", {}, "桌 Table " + t.table + " · " + title(t.game)),
    el("p", {}, state, " · #" + t.seq),
    scoreTable(t.players, t.to_act));
}
function leagueBlock(league) {
  const games = Object.keys(league);
  if (!games.length) return [el("p", {class: "empty"}, "還沒有結束的遊戲 No finished games yet")];
  return games.map(game => el("div", {class: "card league-game", "data-game": game},
    el("h3", {}, title(game)),
    el("table", {},
      el("tr", {}, el("th", {}, "名次 #"), el("th", {}, "玩家 Player"), el("th", {class: "num"}, "局 Games"),
         el("th", {class: "num"}, "勝 Wins"), el("th", {class: "num"}, "分 Points")),
      ...league[game].map((row, i) => el("tr", {class: "league-row"}, el("td", {}, i + 1), el("td", {}, row.player),
        el("td", {class: "num"}, row.played), el("td", {class: "num"}, row.wins),
        el("td", {class: "num"}, row.points))))));
}
function gameCard(g) {
  const winners = g.winners.length ? g.winners.join("、") : "—";
  return el("div", {class: "card game-card", "data-game": g.game_id},
    el("h3", {}, title(g.game) + " · 桌 Table " + g.table),
    el("p", {}, "贏家 Winner: " + winners),
    el("img", {src: "/games/" + encodeURIComponent(g.table) + "/" + encodeURIComponent(g.game_id) + "/chart.svg",
               alt: "分數圖 Score chart " + g.game_id, loading: "lazy"}),
    el("p", {}, el("a", {href: "/games/" + encodeURIComponent(g.table) + "/" + encodeURIComponent(g.game_id) + "/bgstats.json", download: ""},
      "BG Stats")));
}
function replace(id, nodes) { document.getElementById(id).replaceChildren(...nodes); }
let drawnGames = "";
async function refresh() {
  try {
    const response = await fetch("/api/board", {cache: "no-store"});
    if (!response.ok) throw new Error(response.status);
    const data = await response.json();
    TITLES = data.titles || {};
    replace("tables", data.tables.length ? data.tables.map(tableCard)
      : [el("p", {class: "empty"}, "還沒有桌子連上 No table has reported yet")]);
    replace("league-tonight", leagueBlock(data.league_tonight));
    replace("league-season", leagueBlock(data.league_season));
    const ids = data.games.map(g => g.game_id).join(",");
    if (ids !== drawnGames) {  // charts only redrawn when a game finishes
      replace("games", data.games.map(gameCard));
      drawnGames = ids;
    }
    const status = document.getElementById("status");
    status.textContent = "已更新 Updated " + new Date().toLocaleTimeString() + " · "
      + data.results + " 局 games";
    status.dataset.results = data.results;
  } catch (err) {
    document.getElementById("status").textContent = "連不上看板 Board unreachable (" + err + ")";
  }
}
refresh();
setInterval(refresh, 1000);
