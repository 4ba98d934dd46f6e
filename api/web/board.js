// The board as SVG: squares, walls, coordinates, target corners, pieces, the
// paths of the last turn and of the turn being made, and the destinations of
// the selected piece with their costs.
//
// The squares form an ARIA grid with one tab stop: arrow keys move between
// squares, Enter or Space chooses one. Everything else is drawn in layers
// hidden from assistive technology, because each square's label says it all
// (piece, walls, target, what choosing it does).

const NS = 'http://www.w3.org/2000/svg';
const CELL = 100; // one square, in viewBox units
const MARGIN = 44; // room for the coordinates on the left and at the top
const PAD = 8; // room for the outer frame on the right and at the bottom
const ROWS = 'abcdefgh';

/** The square's name (B2): row letter from the top, column number from the left. */
export function squareName(row, col) {
  return ROWS[row] + (col + 1);
}

function parseSquare(name) {
  return { row: name.charCodeAt(0) - 97, col: Number(name.slice(1)) - 1 };
}

/**
 * Reads a wall string (B4): for each row, the n-1 edges to the right of its
 * squares, then (except after the last row) the n edges below them.
 */
export function parseWalls(size, text) {
  const right = [];
  const below = [];
  let i = 0;
  for (let r = 0; r < size; r++) {
    right.push([]);
    for (let c = 0; c < size - 1; c++) right[r].push(Number(text[i++]) || 0);
    if (r < size - 1) {
      below.push([]);
      for (let c = 0; c < size; c++) below[r].push(Number(text[i++]) || 0);
    }
  }
  return { right, below };
}

/** Walls on the edge between two orthogonally adjacent squares. */
function edgeWalls(walls, a, b) {
  if (a.row === b.row) return walls.right[a.row][Math.min(a.col, b.col)];
  return walls.below[Math.min(a.row, b.row)][a.col];
}

/** What a move costs (M2, M3): a step 1 plus its walls, a jump 1. */
export function moveCost(walls, from, to) {
  const a = parseSquare(from);
  const b = parseSquare(to);
  const dist = Math.abs(a.row - b.row) + Math.abs(a.col - b.col);
  return dist === 1 ? 1 + edgeWalls(walls, a, b) : 1;
}

/** The corner each colour must reach (S1, S2), as the four squares' names. */
export function targetCorners(size, colors) {
  const corner = (r0, c0) => [0, 1].flatMap((dr) => [0, 1].map((dc) => squareName(r0 + dr, c0 + dc)));
  const far = size - 2;
  const where =
    colors.length > 2
      ? { yellow: [0, far], black: [far, far], white: [0, 0], red: [far, 0] }
      : { white: [0, 0], black: [far, far] };
  const out = new Map();
  for (const color of colors) {
    if (where[color]) for (const sq of corner(...where[color])) out.set(sq, color);
  }
  return out;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function centre(name) {
  const { row, col } = parseSquare(name);
  return { x: MARGIN + col * CELL + CELL / 2, y: MARGIN + row * CELL + CELL / 2 };
}

/**
 * Draws a board of the given size and walls in place of the svg element old.
 * onChoose(square) is called when a square is clicked, tapped or chosen with
 * the keyboard, and onChoose(null) on Escape. Returns {update(view)}.
 */
export function createBoard(old, { size, walls: wallText, colors, t, onChoose }) {
  const walls = parseWalls(size, wallText);
  const targets = targetCorners(size, colors);
  const extent = MARGIN + size * CELL + PAD;
  // A fresh element, so listeners of an earlier board do not stay behind.
  const svg = old.cloneNode(false);
  old.replaceWith(svg);
  svg.setAttribute('viewBox', `0 0 ${extent} ${extent}`);
  svg.setAttribute('role', 'grid');
  svg.setAttribute('aria-label', t('board.label', { n: size }));
  svg.setAttribute('aria-describedby', 'board-help');

  drawDefs(svg);
  const cells = drawSquares(svg, size, targets, t);
  const layers = {
    path: el('g', { class: 'paths', 'aria-hidden': 'true' }, svg),
    walls: el('g', { class: 'walls', 'aria-hidden': 'true' }, svg),
    pieces: el('g', { class: 'pieces', 'aria-hidden': 'true' }, svg),
    marks: el('g', { class: 'marks', 'aria-hidden': 'true' }, svg),
  };
  drawWalls(layers.walls, size, walls);
  drawCoordinates(svg, size);
  const ring = el('rect', { class: 'focus-ring', width: CELL - 6, height: CELL - 6, rx: 10, 'aria-hidden': 'true' }, svg);

  let current = cells.get(squareName(0, 0));
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
    const cell = cells.get(hit.dataset.sq);
    moveFocus(cell, true);
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
    const { row, col } = parseSquare(current.dataset.sq);
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (step) {
      const r = Math.min(size - 1, Math.max(0, row + step[0]));
      const c = Math.min(size - 1, Math.max(0, col + step[1]));
      moveFocus(cells.get(squareName(r, c)));
    } else if (e.key === 'Home' || e.key === 'End') {
      moveFocus(cells.get(squareName(row, e.key === 'Home' ? 0 : size - 1)));
    } else if (e.key === 'Enter' || e.key === ' ') {
      onChoose(current.dataset.sq);
    } else if (e.key === 'Escape') {
      onChoose(null);
    } else {
      return;
    }
    e.preventDefault();
  }

  return {
    /**
     * view: {pieces: Map square→colour, movable: Set, selected, dests:
     * Map square→{cost, jump}, lastPath, turnPath: [{from, to}]}.
     */
    update(view) {
      drawPaths(layers.path, view.lastPath, 'path-last');
      drawPaths(layers.path, view.turnPath, 'path-turn', true);
      drawPieces(layers.pieces, view.pieces);
      drawMarks(layers.marks, view, t);
      for (const [sq, cell] of cells) {
        cell.setAttribute('aria-label', cellLabel(sq, view, targets, walls, size, t));
        cell.setAttribute('aria-selected', String(sq === view.selected));
        cell.classList.toggle('actionable', view.movable.has(sq) || view.dests.has(sq));
      }
    },
  };
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

function drawSquares(svg, size, targets, t) {
  const cells = new Map();
  const grid = el('g', { class: 'squares' }, svg);
  for (let r = 0; r < size; r++) {
    const row = el('g', { role: 'row' }, grid);
    for (let c = 0; c < size; c++) {
      const sq = squareName(r, c);
      const x = MARGIN + c * CELL;
      const y = MARGIN + r * CELL;
      const cell = el('g', { class: 'sq', role: 'gridcell', tabindex: '-1', 'data-sq': sq }, row);
      el('rect', { class: 'bg', x, y, width: CELL, height: CELL }, cell);
      const target = targets.get(sq);
      if (target) {
        el('rect', { class: 'target target-' + target, x, y, width: CELL, height: CELL }, cell);
        el('circle', { class: 'ghost ghost-' + target, cx: x + CELL / 2, cy: y + CELL / 2, r: 30 }, cell);
      }
      cells.set(sq, cell);
    }
  }
  return cells;
}

// Single walls are one bar; double walls two bars with a gap, so the two
// differ in shape and not only in colour.
function drawWalls(layer, size, walls) {
  const bar = (x, y, w, h, kind) => el('rect', { class: 'wall ' + kind, x, y, width: w, height: h, rx: 3 }, layer);
  const edge = (count, vertical, x, y) => {
    if (count === 1) {
      if (vertical) bar(x - 6, y - 2, 12, CELL + 4, 'wall-1');
      else bar(x - 2, y - 6, CELL + 4, 12, 'wall-1');
    } else if (count === 2) {
      for (const off of [-12, 4]) {
        if (vertical) bar(x + off, y - 2, 8, CELL + 4, 'wall-2');
        else bar(x - 2, y + off, CELL + 4, 8, 'wall-2');
      }
    }
  };
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size - 1; c++) edge(walls.right[r][c], true, MARGIN + (c + 1) * CELL, MARGIN + r * CELL);
    if (r < size - 1) {
      for (let c = 0; c < size; c++) edge(walls.below[r][c], false, MARGIN + c * CELL, MARGIN + (r + 1) * CELL);
    }
  }
  el('rect', { class: 'frame', x: MARGIN, y: MARGIN, width: size * CELL, height: size * CELL }, layer);
}

function drawCoordinates(svg, size) {
  const g = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
  for (let i = 0; i < size; i++) {
    const mid = MARGIN + i * CELL + CELL / 2;
    el('text', { x: MARGIN / 2, y: mid, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent =
      ROWS[i];
    el('text', { x: mid, y: MARGIN / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent =
      String(i + 1);
  }
}

function drawPaths(layer, path, kind, append = false) {
  if (!append) layer.replaceChildren();
  for (const { from, to } of path) {
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

function drawPieces(layer, pieces) {
  layer.replaceChildren();
  for (const [sq, color] of pieces) {
    const { x, y } = centre(sq);
    const g = el('g', { class: 'piece piece-' + color, 'data-sq': sq }, layer);
    el('circle', { cx: x, cy: y, r: 33, class: 'body' }, g);
    el('circle', { cx: x, cy: y, r: 22, class: 'rim' }, g);
  }
}

function drawMarks(layer, view, t) {
  layer.replaceChildren();
  for (const sq of view.movable) {
    if (sq === view.selected) continue;
    const { x, y } = centre(sq);
    el('circle', { class: 'movable', cx: x, cy: y, r: 41 }, layer);
  }
  if (view.selected) {
    const { x, y } = centre(view.selected);
    el('circle', { class: 'selected', cx: x, cy: y, r: 42 }, layer);
  }
  for (const [sq, d] of view.dests) {
    const { x, y } = centre(sq);
    const g = el('g', { class: `dest cost-${d.cost}`, 'data-sq': sq }, layer);
    el('circle', { cx: x, cy: y, r: 27 }, g);
    el('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g).textContent = String(d.cost);
    el('title', {}, g).textContent = t('sq.dest', { points: t('points', { n: d.cost }) });
  }
}

function cellLabel(sq, view, targets, walls, size, t) {
  const parts = [sq];
  const color = view.pieces.get(sq);
  parts.push(color ? t('sq.piece', { color: t('color.' + color) }) : t('sq.empty'));
  if (targets.has(sq)) parts.push(t('sq.target', { color: t('color.' + targets.get(sq)) }));
  parts.push(...wallWords(sq, walls, size, t));
  if (sq === view.selected) parts.push(t('sq.selected'));
  else if (view.movable.has(sq)) parts.push(t('sq.movable'));
  const d = view.dests.get(sq);
  if (d) parts.push(t('sq.dest', { points: t('points', { n: d.cost }) }));
  return parts.join(', ');
}

function wallWords(sq, walls, size, t) {
  const { row, col } = parseSquare(sq);
  const sides = [
    ['above', row > 0 ? walls.below[row - 1][col] : 0],
    ['below', row < size - 1 ? walls.below[row][col] : 0],
    ['left', col > 0 ? walls.right[row][col - 1] : 0],
    ['right', col < size - 1 ? walls.right[row][col] : 0],
  ];
  return sides
    .filter(([, n]) => n > 0)
    .map(([side, n]) => t('sq.wall', { kind: t(n === 2 ? 'word.doubleWall' : 'word.wall'), side: t('side.' + side) }));
}
