// The board as SVG, drawn from the server's board view (GET /view): cells,
// walls, coordinates, highlighted targets, pieces and the last turn's path;
// over it the path of the turn being made and the destinations of the
// selected piece with the costs GET /moves gave. It knows no rules: where
// the walls are, whose target a cell is and what a move costs all come
// from the server. What is here is drawing: pixels per cell, SVG, focus.
// A view of layout `points` (Les) is drawn by createPointsBoard, at the
// end: the points of a triangular grid, stones, holes.
//
// The cells form an ARIA grid with one tab stop: arrow keys move between
// cells, Enter or Space chooses one. Everything else is drawn in layers
// hidden from assistive technology, because each cell's label says it all
// (piece, walls, target, what choosing it does).

const NS = 'http://www.w3.org/2000/svg';
const CELL = 100; // one cell, in viewBox units
const MARGIN = 44; // room for the coordinates on the left and at the top
const PAD = 8; // room for the outer frame on the right and at the bottom
// The sides of a cell in the order its label names its walls.
const SIDES = ['above', 'below', 'left', 'right'];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** The top-left corner of the cell at row, col (-1 is the margin). */
function corner(row, col) {
  return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
}

/**
 * Draws the board view (see BoardView in openapi.yaml) in place of the svg
 * element old: squares (Less) here, points (Les) in createPointsBoard. onChoose(cell) is called when a cell is clicked, tapped or
 * chosen with the keyboard, and onChoose(null) on Escape. Returns
 * {update(state)}.
 */
export function createBoard(old, { view, t, onChoose }) {
  if (view.layout === 'points') return createPointsBoard(old, { view, t, onChoose });
  const cellsByName = new Map(view.cells.map((c) => [c.name, c]));
  const cellAt = new Map(view.cells.map((c) => [c.row + ',' + c.col, c.name]));
  const centre = (name) => {
    const { row, col } = cellsByName.get(name);
    const { x, y } = corner(row, col);
    return { x: x + CELL / 2, y: y + CELL / 2 };
  };
  const targets = new Map();
  for (const h of view.highlights) if (h.kind === 'target') for (const c of h.cells) targets.set(c, h.color);
  const walls = wallsByCell(view, cellsByName);

  // A fresh element, so listeners of an earlier board do not stay behind.
  const svg = old.cloneNode(false);
  old.replaceWith(svg);
  svg.setAttribute('viewBox', `0 0 ${MARGIN + view.cols * CELL + PAD} ${MARGIN + view.rows * CELL + PAD}`);
  svg.setAttribute('role', 'grid');
  svg.setAttribute('aria-label', t('board.label', { n: view.rows }));
  svg.setAttribute('aria-describedby', 'board-help');

  drawDefs(svg);
  const cells = drawCells(svg, view, targets);
  const layers = {
    path: el('g', { class: 'paths', 'aria-hidden': 'true' }, svg),
    walls: el('g', { class: 'walls', 'aria-hidden': 'true' }, svg),
    pieces: el('g', { class: 'pieces', 'aria-hidden': 'true' }, svg),
    marks: el('g', { class: 'marks', 'aria-hidden': 'true' }, svg),
  };
  drawWalls(layers.walls, view, cellsByName);
  drawLabels(svg, view);
  const ring = el('rect', { class: 'focus-ring', width: CELL - 6, height: CELL - 6, rx: 10, 'aria-hidden': 'true' }, svg);

  let current = cells.get(view.cells[0].name);
  current.setAttribute('tabindex', '0');

  function moveFocus(cell, preventScroll = false) {
    current.setAttribute('tabindex', '-1');
    current = cell;
    current.setAttribute('tabindex', '0');
    cell.focus({ preventScroll });
  }

  svg.addEventListener('click', (e) => {
    const hit = e.target.closest('[data-sq]');
    if (!hit) return;
    moveFocus(cells.get(hit.dataset.sq), true);
    onChoose(hit.dataset.sq);
  });
  svg.addEventListener('focusin', (e) => {
    const cell = e.target.closest('[data-sq]');
    // Only for keyboard users: a ring after every tap would be noise.
    if (!cell || !cell.matches(':focus-visible')) return;
    const { x, y } = centre(cell.dataset.sq);
    ring.setAttribute('x', x - CELL / 2 + 3);
    ring.setAttribute('y', y - CELL / 2 + 3);
    ring.classList.add('shown');
  });
  svg.addEventListener('focusout', () => ring.classList.remove('shown'));
  svg.addEventListener('keydown', onKey);

  function onKey(e) {
    const { row, col } = cellsByName.get(current.dataset.sq);
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    let to = null;
    if (step) {
      to = cellAt.get(row + step[0] + ',' + (col + step[1]));
    } else if (e.key === 'Home' || e.key === 'End') {
      to = cellAt.get(row + ',' + (e.key === 'Home' ? 0 : view.cols - 1));
    } else if (e.key === 'Enter' || e.key === ' ') {
      onChoose(current.dataset.sq);
    } else if (e.key === 'Escape') {
      onChoose(null);
    } else {
      return;
    }
    if (to) moveFocus(cells.get(to));
    e.preventDefault();
  }

  return {
    /**
     * state: {pieces: Map cell→colour, movable: Set, selected, dests:
     * Map cell→{cost}, lastPath, turnPath: [{from, to}]}.
     */
    update(state) {
      drawPaths(layers.path, state.lastPath, 'path-last', centre);
      drawPaths(layers.path, state.turnPath, 'path-turn', centre, true);
      drawPieces(layers.pieces, state.pieces, centre);
      drawMarks(layers.marks, state, centre, t);
      for (const [name, cell] of cells) {
        cell.setAttribute('aria-label', cellLabel(name, state, targets, walls, t));
        cell.setAttribute('aria-selected', String(name === state.selected));
        cell.classList.toggle('actionable', state.movable.has(name) || state.dests.has(name));
      }
    },
  };
}

/** For each cell, the walls on its sides: [{side, count}] in SIDES order. */
function wallsByCell(view, cellsByName) {
  const out = new Map();
  const add = (name, side, count) => {
    if (!out.has(name)) out.set(name, []);
    out.get(name).push({ side, count });
  };
  for (const w of view.walls) {
    const [a, b] = w.between.map((n) => cellsByName.get(n));
    const [sideA, sideB] =
      a.row === b.row ? (a.col < b.col ? ['right', 'left'] : ['left', 'right']) : a.row < b.row ? ['below', 'above'] : ['above', 'below'];
    add(a.name, sideA, w.count);
    add(b.name, sideB, w.count);
  }
  for (const list of out.values()) list.sort((x, y) => SIDES.indexOf(x.side) - SIDES.indexOf(y.side));
  return out;
}

function drawDefs(svg) {
  const defs = el('defs', {}, svg);
  for (const kind of ['last', 'turn']) {
    const m = el(
      'marker',
      { id: 'arrow-' + kind, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto-start-reverse' },
      defs,
    );
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-' + kind }, m);
  }
}

function drawCells(svg, view, targets) {
  const cells = new Map();
  const grid = el('g', { class: 'squares' }, svg);
  const rows = new Map();
  for (const c of view.cells) {
    if (!rows.has(c.row)) rows.set(c.row, el('g', { role: 'row' }, grid));
    const { x, y } = corner(c.row, c.col);
    const cell = el('g', { class: 'sq', role: 'gridcell', tabindex: '-1', 'data-sq': c.name }, rows.get(c.row));
    el('rect', { class: 'bg', x, y, width: CELL, height: CELL }, cell);
    const target = targets.get(c.name);
    if (target) {
      el('rect', { class: 'target target-' + target, x, y, width: CELL, height: CELL }, cell);
      el('circle', { class: 'ghost ghost-' + target, cx: x + CELL / 2, cy: y + CELL / 2, r: 30 }, cell);
    }
    cells.set(c.name, cell);
  }
  return cells;
}

// Single walls are one bar; double walls two bars with a gap, so the two
// differ in shape and not only in colour.
function drawWalls(layer, view, cellsByName) {
  const bar = (x, y, w, h, kind) => el('rect', { class: 'wall ' + kind, x, y, width: w, height: h, rx: 3 }, layer);
  for (const w of view.walls) {
    const [a, b] = w.between.map((n) => cellsByName.get(n));
    const vertical = a.row === b.row;
    // The edge's top-left end: the later cell's top-left corner.
    const { x, y } = corner(Math.max(a.row, b.row), Math.max(a.col, b.col));
    if (w.count === 1) {
      if (vertical) bar(x - 6, y - 2, 12, CELL + 4, 'wall-1');
      else bar(x - 2, y - 6, CELL + 4, 12, 'wall-1');
    } else {
      for (const off of [-12, 4]) {
        if (vertical) bar(x + off, y - 2, 8, CELL + 4, 'wall-2');
        else bar(x - 2, y + off, CELL + 4, 8, 'wall-2');
      }
    }
  }
  el('rect', { class: 'frame', x: MARGIN, y: MARGIN, width: view.cols * CELL, height: view.rows * CELL }, layer);
}

function drawLabels(svg, view) {
  const g = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
  for (const l of view.labels) {
    // In the middle of the margin beside the row or column.
    const x = l.col < 0 ? MARGIN / 2 : MARGIN + l.col * CELL + CELL / 2;
    const y = l.row < 0 ? MARGIN / 2 : MARGIN + l.row * CELL + CELL / 2;
    el('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = l.text;
  }
}

function drawPaths(layer, path, kind, centre, append = false) {
  if (!append) layer.replaceChildren();
  for (const { from, to } of path) {
    if (!from) continue; // a placement: the piece placed shows it
    const a = centre(from);
    const b = centre(to);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    // Stop short of the destination's centre so the arrowhead shows beside the piece.
    const k = (len - 34) / len;
    el(
      'line',
      { class: kind, x1: a.x, y1: a.y, x2: a.x + (b.x - a.x) * k, y2: a.y + (b.y - a.y) * k, 'marker-end': `url(#arrow-${kind.slice(5)})` },
      layer,
    );
  }
}

function drawPieces(layer, pieces, centre) {
  layer.replaceChildren();
  for (const [name, color] of pieces) {
    const { x, y } = centre(name);
    const g = el('g', { class: 'piece piece-' + color, 'data-sq': name }, layer);
    el('circle', { cx: x, cy: y, r: 33, class: 'body' }, g);
    el('circle', { cx: x, cy: y, r: 22, class: 'rim' }, g);
  }
}

function drawMarks(layer, state, centre, t) {
  layer.replaceChildren();
  for (const name of state.movable) {
    if (name === state.selected) continue;
    const { x, y } = centre(name);
    el('circle', { class: 'movable', cx: x, cy: y, r: 41 }, layer);
  }
  if (state.selected) {
    const { x, y } = centre(state.selected);
    el('circle', { class: 'selected', cx: x, cy: y, r: 42 }, layer);
  }
  for (const [name, d] of state.dests) {
    const { x, y } = centre(name);
    const g = el('g', { class: `dest cost-${d.cost}`, 'data-sq': name }, layer);
    el('circle', { cx: x, cy: y, r: 27 }, g);
    if (!d.cost) continue; // a choice that costs nothing (a placement) has no number to show
    el('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = String(d.cost);
    el('title', {}, g).textContent = t('sq.dest', { points: t('points', { n: d.cost }) });
  }
}

function cellLabel(name, state, targets, walls, t) {
  const parts = [name];
  const color = state.pieces.get(name);
  parts.push(color ? t('sq.piece', { color: t('color.' + color) }) : t('sq.empty'));
  if (targets.has(name)) parts.push(t('sq.target', { color: t('color.' + targets.get(name)) }));
  for (const { side, count } of walls.get(name) || []) {
    parts.push(t('sq.wall', { kind: t(count === 2 ? 'word.doubleWall' : 'word.wall'), side: t('side.' + side) }));
  }
  if (name === state.selected) parts.push(t('sq.selected'));
  else if (state.movable.has(name)) parts.push(t('sq.movable'));
  const d = state.dests.get(name);
  if (d && d.cost) parts.push(t('sq.dest', { points: t('points', { n: d.cost }) }));
  return parts.join(', ');
}

// ---- points (Les) ------------------------------------------------------------
//
// A points board is the triangular grid of Les: each cell is a point at
// x = col/2, y = row·√3/2 neighbour distances (BoardView's `points`
// layout). Points one neighbour distance apart are joined by the grid's
// lines: in the same row two half-steps apart, in the next row one
// half-step to either side. That is geometry, not a rule: which point a
// stone may go on comes from GET /moves, the stones, the last ply and the
// holes from GET /view.

const STEP = 100; // the distance between neighbouring points, in viewBox units
const ROW = (STEP * Math.sqrt(3)) / 2; // the distance between rows
const STONE = 40; // a stone's radius: stones on neighbouring points do not touch
const HIT = STEP / 2; // a point's tap target reaches halfway to its neighbours
const RIM = STEP * 0.62; // the board's margin beyond its outer points
const LABEL = 24; // half a row letter's width

/** Where the point at row, col (col in half-steps) lies, in viewBox units. */
function spot(row, col) {
  return { x: (col * STEP) / 2, y: row * ROW };
}

/**
 * Draws a `points` board view. onChoose(name) is called when a point is
 * clicked, tapped or chosen with the keyboard. Returns {update(state)}.
 */
function createPointsBoard(old, { view, t, onChoose }) {
  const byName = new Map(view.cells.map((c) => [c.name, c]));
  const at = new Map(view.cells.map((c) => [c.row + ',' + c.col, c.name]));
  const rows = new Map(); // row → its cells, left to right
  for (const c of view.cells) {
    if (!rows.has(c.row)) rows.set(c.row, []);
    rows.get(c.row).push(c);
  }
  for (const list of rows.values()) list.sort((a, b) => a.col - b.col);
  const centre = (name) => {
    const c = byName.get(name);
    return spot(c.row, c.col);
  };

  const svg = old.cloneNode(false);
  old.replaceWith(svg);
  // Room for the outline (and its stroke) and for the row letters.
  const edge = outline(view);
  const xs = edge.map((p) => p.x).concat(view.labels.map((l) => spot(l.row, l.col).x - LABEL));
  const ys = edge.map((p) => p.y);
  const x0 = Math.min(...xs) - 4;
  const y0 = Math.min(...ys) - 4;
  svg.setAttribute('viewBox', `${x0} ${y0} ${Math.max(...xs) + 4 - x0} ${Math.max(...ys) + 4 - y0}`);
  svg.setAttribute('role', 'grid');
  svg.setAttribute('aria-label', t('les.board.label', { n: view.cells.length }));
  svg.setAttribute('aria-describedby', 'board-help');
  svg.classList.add('points');

  const hull = edge.map((p) => p.x + ',' + p.y).join(' ');
  el('polygon', { class: 'hex-bg', points: hull, 'aria-hidden': 'true' }, svg);
  // Holes under the grid's lines, so the points stay in sight, and inside
  // the board's outline, which a rim point's hexagon would cross.
  el('polygon', { points: hull }, el('clipPath', { id: 'board-outline' }, el('defs', {}, svg)));
  const holes = el('g', { class: 'holes', 'clip-path': 'url(#board-outline)', 'aria-hidden': 'true' }, svg);
  el('path', { class: 'hex-lines', d: gridLines(view, at), 'aria-hidden': 'true' }, svg);
  const layers = {
    holes,
    dots: el('g', { class: 'dots', 'aria-hidden': 'true' }, svg),
    legal: el('g', { class: 'legal-marks', 'aria-hidden': 'true' }, svg),
    stones: el('g', { class: 'stones', 'aria-hidden': 'true' }, svg),
    marks: el('g', { class: 'marks', 'aria-hidden': 'true' }, svg),
  };
  for (const c of view.cells) {
    const { x, y } = spot(c.row, c.col);
    el('circle', { cx: x, cy: y, r: 6 }, layers.dots);
  }
  const coords = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
  for (const l of view.labels) {
    const { x, y } = spot(l.row, l.col);
    el('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, coords).textContent = l.text;
  }

  // The tap targets, on top of everything: one ARIA grid row per board row.
  const cells = new Map();
  const grid = el('g', { class: 'hits' }, svg);
  for (const [, list] of [...rows].sort((a, b) => a[0] - b[0])) {
    const row = el('g', { role: 'row' }, grid);
    for (const c of list) {
      const { x, y } = spot(c.row, c.col);
      const cell = el('g', { class: 'pt', role: 'gridcell', tabindex: '-1', 'data-sq': c.name }, row);
      el('circle', { class: 'hit', cx: x, cy: y, r: HIT }, cell);
      el('title', {}, cell).textContent = c.name;
      cells.set(c.name, cell);
    }
  }
  const ring = el('circle', { class: 'focus-ring', r: STONE + 9, 'aria-hidden': 'true' }, svg);

  let current = cells.get(view.cells[0].name);
  current.setAttribute('tabindex', '0');
  // The column a run of Up and Down keys started from, so that it goes
  // straight down the board instead of drifting to one side.
  let anchor = null;

  function moveFocus(cell, preventScroll = false) {
    current.setAttribute('tabindex', '-1');
    current = cell;
    current.setAttribute('tabindex', '0');
    cell.focus({ preventScroll });
  }

  svg.addEventListener('click', (e) => {
    const hit = e.target.closest('[data-sq]');
    if (!hit) return;
    anchor = null;
    moveFocus(cells.get(hit.dataset.sq), true);
    onChoose(hit.dataset.sq);
  });
  svg.addEventListener('focusin', (e) => {
    const cell = e.target.closest('[data-sq]');
    if (!cell || !cell.matches(':focus-visible')) return;
    const { x, y } = centre(cell.dataset.sq);
    ring.setAttribute('cx', x);
    ring.setAttribute('cy', y);
    ring.classList.add('shown');
  });
  svg.addEventListener('focusout', () => ring.classList.remove('shown'));
  svg.addEventListener('keydown', (e) => {
    const here = byName.get(current.dataset.sq);
    const line = rows.get(here.row);
    let to = null;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      to = at.get(here.row + ',' + (here.col + (e.key === 'ArrowLeft' ? -2 : 2)));
      anchor = null;
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      if (anchor === null) anchor = here.col;
      const row = here.row + (e.key === 'ArrowUp' ? -1 : 1);
      // Of the two points half a step to either side, the one nearer the
      // column the run started from; the left one when both are as near.
      const options = [here.col - 1, here.col + 1]
        .filter((col) => at.has(row + ',' + col))
        .sort((a, b) => Math.abs(a - anchor) - Math.abs(b - anchor) || a - b);
      if (options.length) to = at.get(row + ',' + options[0]);
    } else if (e.key === 'Home' || e.key === 'End') {
      to = (e.key === 'Home' ? line[0] : line[line.length - 1]).name;
      anchor = null;
    } else if (e.key === 'Enter' || e.key === ' ') {
      onChoose(current.dataset.sq);
    } else if (e.key === 'Escape') {
      onChoose(null);
    } else {
      return;
    }
    if (to) moveFocus(cells.get(to));
    e.preventDefault();
  });

  return {
    /**
     * state: {stones: Map point→colour (this ply's included), placed: Set
     * of the points of the ply being made, last: Set of the last ply's
     * points, legal: Set of the points the next stone may go on, holes:
     * Map point→the colour owning its hole}.
     */
    update(state) {
      drawHoles(layers.holes, state.holes, centre);
      layers.legal.replaceChildren();
      for (const name of state.legal) {
        const { x, y } = centre(name);
        el('circle', { class: 'legal', cx: x, cy: y, r: 22 }, layers.legal);
      }
      layers.stones.replaceChildren();
      layers.marks.replaceChildren();
      for (const [name, color] of state.stones) {
        const { x, y } = centre(name);
        el('circle', { class: 'stone stone-' + color, cx: x, cy: y, r: STONE, 'data-sq': name }, layers.stones);
        if (state.placed.has(name)) el('circle', { class: 'placed', cx: x, cy: y, r: STONE + 7 }, layers.marks);
        else if (state.last.has(name)) el('circle', { class: 'last last-on-' + color, cx: x, cy: y, r: 11 }, layers.marks);
      }
      for (const [name, cell] of cells) {
        cell.setAttribute('aria-label', pointLabel(name, state, t));
        cell.classList.toggle('actionable', state.legal.has(name));
      }
    },
  };
}

// The board's outline: the hexagon through its six outermost points (one
// in each of the grid's six directions), pushed out by RIM. A board of
// another shape gets the hexagon around it.
function outline(view) {
  const pts = view.cells.map((c) => spot(c.row, c.col));
  const corners = [0, 1, 2, 3, 4, 5].map((k) => {
    const a = (k * Math.PI) / 3;
    const dx = Math.cos(a);
    const dy = -Math.sin(a);
    return pts.reduce((best, p) => (p.x * dx + p.y * dy > best.x * dx + best.y * dy ? p : best));
  });
  const cx = corners.reduce((s, p) => s + p.x, 0) / 6;
  const cy = corners.reduce((s, p) => s + p.y, 0) / 6;
  // Each side moves out by RIM, so each corner by RIM / cos 30°.
  const out = RIM / Math.cos(Math.PI / 6);
  return corners.map((p) => {
    const d = Math.hypot(p.x - cx, p.y - cy) || 1;
    return { x: p.x + ((p.x - cx) / d) * out, y: p.y + ((p.y - cy) / d) * out };
  });
}

// The grid's lines: from each point to its neighbours to the right and in
// the row below, so each line is drawn once.
function gridLines(view, at) {
  const parts = [];
  for (const c of view.cells) {
    const a = spot(c.row, c.col);
    for (const [dr, dc] of [
      [0, 2],
      [1, -1],
      [1, 1],
    ]) {
      if (!at.has(c.row + dr + ',' + (c.col + dc))) continue;
      const b = spot(c.row + dr, c.col + dc);
      parts.push(`M${a.x} ${a.y}L${b.x} ${b.y}`);
    }
  }
  return parts.join('');
}

// Each point of an owned hole is shaded with the hexagon of the plane
// nearer to it than to any other point, so a hole is one shaded region.
function drawHoles(layer, holes, centre) {
  layer.replaceChildren();
  const r = STEP / Math.sqrt(3);
  for (const [name, color] of holes) {
    const { x, y } = centre(name);
    const corners = [0, 1, 2, 3, 4, 5].map((k) => {
      const a = Math.PI / 6 + (k * Math.PI) / 3;
      return `${x + r * Math.cos(a)},${y + r * Math.sin(a)}`;
    });
    el('polygon', { class: 'hole hole-' + color, points: corners.join(' ') }, layer);
  }
}

function pointLabel(name, state, t) {
  const parts = [name];
  const color = state.stones.get(name);
  parts.push(color ? t('pt.stone', { color: t('color.' + color) }) : t('pt.empty'));
  if (state.placed.has(name)) parts.push(t('pt.placed'));
  else if (state.last.has(name)) parts.push(t('pt.last'));
  if (state.holes.has(name)) parts.push(t('pt.hole', { color: t('color.' + state.holes.get(name)) }));
  if (state.legal.has(name)) parts.push(t('pt.legal'));
  return parts.join(', ');
}
