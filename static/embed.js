/*
 * backprop-animator's script-tag embed. A page adds
 *
 *   <div data-backprop-source="a = Value(3.0)&#10;b = a + a"></div>
 *   <script src="https://HOST/static/embed.js" async></script>
 *
 * and every such div becomes a player inside its own shadow root, so the page's
 * CSS cannot reach it. The server is the one this script came from: its modules,
 * styles and API are loaded from there (the app allows any origin to do so).
 * A classic script, so the snippet needs no type="module"; it loads the rest as
 * ES modules. Including it twice is harmless.
 */
(() => {
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !script.src) return;
  const server = new URL("../", script.src).href;
  import(new URL("static/js/embed-element.js", server).href)
    .then((module) => module.watchPage(document, server))
    .catch((error) =>
      console.error(`backprop-animator: the embed could not load from ${server}: ${error}`),
    );
})();
