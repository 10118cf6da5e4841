// Little sounds for a move, a capture and the end of a game, made on the spot with the Web Audio API (no
// audio files, nothing fetched). Browsers refuse sound before the page's first user gesture, so the audio
// context is created on the first pointer press or key press and nothing plays before it. Muted or not is
// `localStorage['tabula:sound']` ("off" mutes). The last sound played is written on <html data-sound> and
// their number on data-sound-count, for the tests (the page plays; whether a speaker hears it is not ours).

const KEY = 'tabula:sound';
let ctx = null;
let unlocked = false;

function unlock() {
  if (unlocked) return;
  unlocked = true;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try { ctx = new AC(); } catch { ctx = null; }
}
document.addEventListener('pointerdown', unlock, { capture: true, once: true });
document.addEventListener('keydown', unlock, { capture: true, once: true });

export function muted() {
  try { return localStorage.getItem(KEY) === 'off'; } catch { return false; }
}
export function setMuted(off) {
  try { localStorage.setItem(KEY, off ? 'off' : 'on'); } catch { /* this page only */ }
}

// One tone: frequency `f` Hz from `t0` seconds for `len` seconds, a soft attack and decay.
function tone(f, t0, len, { type = 'sine', gain = 0.12, glide = null } = {}) {
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f, t0);
  if (glide) o.frequency.exponentialRampToValueAtTime(glide, t0 + len);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  o.connect(g).connect(ctx.destination);
  o.start(t0);
  o.stop(t0 + len + 0.02);
}

const SOUNDS = {
  move: (t) => tone(520, t, 0.07, { type: 'triangle' }),
  capture: (t) => { tone(300, t, 0.12, { type: 'square', gain: 0.06, glide: 180 }); tone(200, t + 0.09, 0.14, { type: 'triangle' }); },
  end: (t) => [523, 659, 784].forEach((f, i) => tone(f, t + i * 0.13, 0.22, { gain: 0.1 })),
};

// Plays `kind` ("move", "capture", "end") unless muted or before the first gesture; says whether it played.
export function play(kind) {
  if (!SOUNDS[kind] || muted() || !ctx) return false;
  try {
    if (ctx.state === 'suspended') ctx.resume();
    SOUNDS[kind](ctx.currentTime + 0.01);
  } catch { return false; }
  const root = document.documentElement;
  root.dataset.sound = kind;
  root.dataset.soundCount = String(Number(root.dataset.soundCount || 0) + 1);
  return true;
}
