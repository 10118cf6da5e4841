// What the setup editors of the games with a setup phase (Stratego, the Game of Truth) share: the random
// source of their random arrangements, and the arrangements a player saves in this browser.

// Uniform in [0, n) from the cryptographic source, without modulo bias.
export function randomInt(n) {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x100000000 / n) * n;
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0] < limit) return buf[0] % n;
  }
}

// Fisher–Yates, in place; returns `a`.
export function shuffle(a) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// Saved arrangements under one localStorage key, {name: arrangement}; whatever is there and not an object
// (another version's data, a hand edit) reads as none saved.
export function savedSetups(key) {
  return {
    load() {
      try {
        const v = JSON.parse(localStorage.getItem(key) || '{}');
        return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
      } catch { return {}; }
    },
    store(all) { localStorage.setItem(key, JSON.stringify(all)); },
  };
}

// A named arrangement's slug in words: "corner-fortress" -> "Corner fortress".
export function humanName(slug) {
  const words = String(slug).replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : String(slug);
}
