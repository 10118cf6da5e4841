// Light or dark before the first paint: a classic script in every page's <head> (a module would run only after
// the page is drawn, and the page would flash light first). The choice is `localStorage['tabula:theme']`:
// "light", "dark" or "system" (the default: follow prefers-color-scheme). It sets <html data-theme="light|dark">,
// which the stylesheet reads; js/theme.js offers the switch and keeps it current.
(function () {
  var media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function apply() {
    var choice = 'system';
    try { choice = localStorage.getItem('tabula:theme') || 'system'; } catch (e) { /* storage refused */ }
    var dark = choice === 'dark' || (choice !== 'light' && !!media && media.matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    document.documentElement.dataset.themeChoice = choice;
  }
  apply();
  if (media && media.addEventListener) media.addEventListener('change', apply);
  window.addEventListener('storage', function (e) { if (e.key === 'tabula:theme') apply(); });
}());
