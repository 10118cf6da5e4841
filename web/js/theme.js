// The light / dark / system switch (a select in the page header). js/theme-early.js has already set
// <html data-theme> before the first paint; this module only changes the stored choice and applies it again.

const KEY = 'tabula:theme';
const CHOICES = { system: 'System theme', light: 'Light', dark: 'Dark' };
const media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

export function themeChoice() {
  try { return localStorage.getItem(KEY) || 'system'; } catch { return 'system'; }
}

export function applyTheme(choice = themeChoice()) {
  const dark = choice === 'dark' || (choice !== 'light' && !!media && media.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  document.documentElement.dataset.themeChoice = choice;
}

// Fills `select` with the three choices and wires it.
export function wireThemeSelect(select) {
  if (!select) return;
  select.replaceChildren(...Object.entries(CHOICES).map(([v, text]) => {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = text;
    return o;
  }));
  select.value = themeChoice();
  select.addEventListener('change', () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* storage refused: this page only */ }
    applyTheme(select.value);
  });
}
