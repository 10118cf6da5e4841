// What the lobby and the game page know about each kind of game, without loading its board.
// Adding a game: one entry here and one module web/js/games/<name>.js exporting a board module
// (see docs/ui.md). Kinds the server offers but this table lacks still get a generic description.

export const GAMES = {
  tigadi: {
    title: 'Tigadi',
    players: ['Bone', 'Seed'],
    rules: '/rules/tigadi.html',
    load: () => import('./tigadi.js'),
    // The server's danger marks include the lines a player could close next turn: drawn only when asked
    // ("Show open lines", off by default: finding them is half the game).
    openLines: true,
  },
  stratego: {
    title: 'Stratego',
    players: ['Red', 'Blue'],
    rules: '/rules/stratego.html',
    load: () => import('./stratego.js'),
    // Labels for the lobby's option fields (any option without one shows its name).
    options: {
      memory_aid: 'Memory aid: revealed pieces stay face up',
      two_square_limit: 'Two-square limit (turns)',
      repetition_rule: 'Repetition rule',
      max_plies: 'Draw after (plies)',
    },
    // What the lobby ticks for a new game where it differs from the server's default (the rule option
    // `memory_aid` stays false on the server; a person playing in a browser is offered the aid).
    optionDefaults: { memory_aid: true },
  },
  facet: {
    title: 'FACET',
    players: ['White', 'Black'],
    rules: '/rules/facet.html',
    load: () => import('./facet.js'),
    options: {
      layout: 'Layout',
      seed: 'Layout seed (random layout)',
      modes: 'Modes',
    },
    // How the lobby draws options the server describes only by their default value: `choices` is a
    // select, `multi` a set of checkboxes sent as a list (with their labels and the ones each excludes).
    optionKinds: {
      layout: { choices: ['classic', 'random'], labels: { classic: 'Classic', random: 'Random (from the seed)' } },
      seed: { randomWhen: { layout: 'random' }, showWhen: { layout: 'random' } },
      modes: {
        multi: ['decay', 'fog', 'momentum'],
        labels: { decay: 'Terrain decay', fog: 'Fog of war', momentum: 'Momentum' },
        excludes: { momentum: ['decay', 'fog'], decay: ['momentum'], fog: ['momentum'] },
      },
    },
  },
  truth: {
    title: 'The Game of Truth',
    players: ['Ivory', 'Jade', 'Ember', 'Indigo'],
    rules: '/rules/truth.html',
    load: () => import('./truth.js'),
    options: {
      players: 'Players',
      max_plies: 'Decided on points after (turns)',
    },
  },
};

export function gameInfo(name, kind) {
  const g = GAMES[name];
  if (g) return { name, ...g };
  return { name, title: (kind && kind.title) || name, players: [], rules: null, load: null };
}

export function playerName(name, seat) {
  const g = GAMES[name];
  return (g && g.players[seat]) || `Player ${seat + 1}`;
}

// An AI level in words from the kinds answer's `levels` ({level, name, description}): "Casual (level 2)";
// a server without names: "AI level 2".
export function levelInfo(kind, level) {
  const l = kind && Array.isArray(kind.levels) ? kind.levels.find(x => x.level === level) : null;
  return { label: l && l.name ? `AI: ${l.name} (level ${level})` : `AI level ${level}`, name: l ? l.name : '', description: l ? l.description || '' : '' };
}

// Describes one seat of a game list item or game: "Ana", "AI level 3", "open seat".
export function seatLabel(s) {
  if (!s) return '';
  if (s.type === 'ai') return `AI level ${s.level ?? '?'}`;
  if (s.type === 'open') return 'open seat';
  return s.name || 'Anonymous';
}
