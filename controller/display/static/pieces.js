// Cards and tiles as pictures: small SVG drawings made here, no image files, no network.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_FACES = { s: ["♠", "#111", "spades"], h: ["♥", "#c4161c", "hearts"],
                     d: ["♦", "#c4161c", "diamonds"], c: ["♣", "#111", "clubs"] };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" };
// Pip places on a 3 x 3 grid (0 top left .. 8 bottom right) for 1 to 6 pips.
const TILE_PIPS = { 0: [], 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8],
                    5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardPicture(code) {
  const pic = svg("svg", { viewBox: "0 0 50 70", class: "card", role: "img",
                           "data-code": code });
  pic.append(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fff",
                           stroke: "#888" }));
  if (code === "Jk") {
    pic.setAttribute("aria-label", "joker");
    pic.append(svg("text", { x: 6, y: 14, "font-size": 10, "font-weight": "bold",
                             fill: "#c4161c" }, "JK"));
    pic.append(svg("path", { d: "M25 22 L29 32 L40 32 L31 39 L34 50 L25 43 L16 50 L19 39 L10 32 "
                             + "L21 32 Z", fill: "#e8c547", stroke: "#c4161c" }));
    pic.append(svg("text", { x: 25, y: 63, "font-size": 7, "text-anchor": "middle",
                             fill: "#c4161c" }, "JOKER"));
    return pic;
  }
  const rank = code.slice(0, -1);
  const [symbol, colour, suitName] = SUIT_FACES[code.slice(-1)] || ["?", "#111", "?"];
  const shown = rank === "T" ? "10" : rank;
  pic.setAttribute("aria-label", `${RANK_NAMES[rank] || rank} of ${suitName}`);
  const corner = (x, y, turn) => {
    const g = svg("g", { transform: `translate(${x} ${y}) rotate(${turn})`, fill: colour });
    g.append(svg("text", { x: 0, y: 0, "font-size": 12, "font-weight": "bold",
                           "text-anchor": "middle" }, shown));
    g.append(svg("text", { x: 0, y: 11, "font-size": 10, "text-anchor": "middle" }, symbol));
    return g;
  };
  pic.append(corner(9, 13, 0), corner(41, 57, 180));
  pic.append(svg("text", { x: 25, y: 43, "font-size": 22, "text-anchor": "middle",
                           fill: colour }, symbol));
  return pic;
}

function tileHalf(pic, pips, top) {
  const red = pips === 1 || pips === 4;
  for (const place of TILE_PIPS[pips] || []) {
    const cx = 9 + (place % 3) * 11;
    const cy = (top ? 9 : 49) + Math.floor(place / 3) * 11;
    pic.append(svg("circle", { cx, cy, r: pips === 1 ? 5 : 3.6,
                               fill: red ? "#e0242b" : "#fff" }));
  }
}

function tilePicture(code) {
  const [a, b] = code.split("-").map(Number);
  const pic = svg("svg", { viewBox: "0 0 40 80", class: "tile", role: "img",
                           "aria-label": `tile ${a}-${b}`, "data-code": code });
  pic.append(svg("rect", { x: 1, y: 1, width: 38, height: 78, rx: 5, fill: "#151515",
                           stroke: "#ddd" }));
  pic.append(svg("line", { x1: 4, y1: 40, x2: 36, y2: 40, stroke: "#ddd", "stroke-width": 1 }));
  tileHalf(pic, a, true);
  tileHalf(pic, b, false);
  return pic;
}

function piecePicture(code) { return /^\d-\d$/.test(code) ? tilePicture(code) : cardPicture(code); }
