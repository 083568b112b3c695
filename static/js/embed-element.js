/**
 * The script-tag embed's work (static/embed.js loads it): turn each
 * `<div data-backprop-source="…">` into a player in an open shadow root, with the
 * player's stylesheets linked inside it, so the page's CSS and the player's cannot
 * touch each other. Options are `data-backprop-*` attributes with the names and
 * values of `/embed`'s query string: source, granularity, frame, controls (or
 * hide), autoplay, speed, theme, quiz, mistake, sort_steps. Keys act on the player that has focus only, so
 * several players can share a page. Divs added later (pages rendered by script)
 * are found too. A quiz's scores go to the element as a bubbling
 * `backprop-animator:quiz` event (`detail` = the message the iframe posts) and, when
 * the page is itself framed, to its parent.
 */
import { fetchOptional, fetchTrace } from "./hosts/api.js";
import { readEmbedOptions } from "./hosts/embed-options.js";
import { applyTheme, showPlayer } from "./hosts/host.js";
import { readLabState, withLabParams } from "./lab/lab-url.js";
import { MESSAGE_TYPE, reportToParent } from "./quiz/quiz.js";
import { html } from "./player/svg.js";
import { readQuiz, readUrlState, writeUrlState } from "./hosts/url-state.js";

export const SELECTOR = "[data-backprop-source]";
const STYLESHEETS = [
  "static/css/player.css",
  "static/css/quiz.css",
  "static/css/lab.css",
  "static/css/passes.css",
  "static/css/embed-shadow.css",
];
const OPTIONS = [
  "source",
  "granularity",
  "frame",
  "controls",
  "hide",
  "autoplay",
  "speed",
  "theme",
  "quiz",
  "mistake",
  "sort_steps",
];

/** @type {WeakSet<Element>} */
const claimed = new WeakSet();
/** @type {Map<string, Promise<Record<string, string>>>} */
const rulesByServer = new Map();
/** @type {WeakSet<Document>} */
const watched = new WeakSet();

/**
 * Mount every embed on the page now and whenever one is added.
 * @param {Document} page
 * @param {string} server  the app's base URL, ending in "/"
 */
export function watchPage(page, server) {
  if (watched.has(page)) return;
  watched.add(page);
  mountAll(page, server);
  new MutationObserver((records) => {
    if (records.some((record) => record.addedNodes.length > 0)) mountAll(page, server);
  }).observe(page.documentElement, { childList: true, subtree: true });
}

/**
 * @param {ParentNode} scope
 * @param {string} server
 */
export function mountAll(scope, server) {
  for (const element of scope.querySelectorAll(SELECTOR)) {
    if (element instanceof HTMLElement && !claimed.has(element) && !element.shadowRoot)
      mountElement(element, server);
  }
}

/**
 * The element's options as `/embed` would read them from its query string.
 * @param {HTMLElement} element
 */
export function elementParams(element) {
  const params = new URLSearchParams();
  for (const name of OPTIONS) {
    const value = element.getAttribute(`data-backprop-${name}`);
    if (value !== null) params.set(name, value);
  }
  return params;
}

/**
 * @param {HTMLElement} host
 * @param {string} server
 */
export async function mountElement(host, server) {
  claimed.add(host);
  const params = elementParams(host);
  const state = readUrlState(params.toString());
  const options = readEmbedOptions(params);
  const quiz = readQuiz(params);
  // The bug lab's engine and the sort step by step (SPEC §8, §9); no gradient check here.
  const lab = readLabState(params);
  const source = state.source ?? "";
  applyTheme(options.theme, host);

  const shadow = host.attachShadow({ mode: "open" });
  const links = STYLESHEETS.map((path) =>
    html("link", { rel: "stylesheet", href: new URL(path, server).href }),
  );
  const errorBox = html("div", {
    class: "bpa-error",
    "data-testid": "error",
    role: "alert",
    hidden: true,
  });
  const playerRoot = html("div", {
    class: "bpa-player",
    role: "region",
    "aria-label": "backprop-animator player",
    tabindex: -1,
  });
  const full = new URL(
    withLabParams(
      writeUrlState({ source, granularity: state.granularity, frame: state.frame ?? 0, quiz }),
      { ...lab, gradcheck: false },
    ),
    server,
  );
  const credit = html("p", { class: "bpa-credit" }, [
    html("a", {
      href: full.href,
      target: "_blank",
      rel: "noopener",
      text: "Open in backprop-animator ↗",
    }),
  ]);
  const root = html("div", { class: "bpa-root", hidden: true }, [errorBox, playerRoot, credit]);
  shadow.append(...links, root);

  await showPlayer(playerRoot, {
    load: async () => {
      const [trace, rules] = await Promise.all([
        fetchTrace(source, state.granularity, {
          base: server,
          mistake: lab.mistake,
          sortSteps: lab.sortSteps,
        }),
        rulesFrom(server),
        ...links.map(loaded),
      ]);
      // Shown before the player mounts (it measures itself), never before it is styled.
      root.hidden = false;
      return { trace, rules };
    },
    errorBox,
    errorPrefix: "backprop-animator: ",
    frame: state.frame ?? 0,
    keyboard: "root",
    hide: options.hide,
    speed: options.speed,
    autoplay: options.autoplay,
    quiz: quiz
      ? {
          frameLink: (k) =>
            new URL(
              writeUrlState({ source, granularity: state.granularity, frame: k, quiz }),
              server,
            ).href,
          report: (message) => {
            host.dispatchEvent(
              new CustomEvent(MESSAGE_TYPE, { detail: message, bubbles: true, composed: true }),
            );
            reportToParent(message);
          },
        }
      : null,
  });
  root.hidden = false; // or with its error
}

/** @param {string} server */
function rulesFrom(server) {
  let rules = rulesByServer.get(server);
  if (!rules) {
    rules = fetchOptional("api/rules", {}, server);
    rulesByServer.set(server, rules);
  }
  return rules;
}

/**
 * Resolves once a stylesheet has loaded or failed, so the player is never shown unstyled
 * @param {HTMLLinkElement} link
 */
function loaded(link) {
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}
