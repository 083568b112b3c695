import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { readLabState } from "../../static/js/lab/lab-url.js";
import { readQuiz, readUrlState } from "../../static/js/hosts/url-state.js";
import { readEmbedOptions } from "../../static/js/hosts/embed-options.js";
import {
  embedUrl,
  escapeAttribute,
  exportUrl,
  heightListenerSnippet,
  iframeSnippet,
  permalink,
  scriptSnippet,
} from "../../static/js/hosts/share-snippets.js";

const state = {
  origin: "https://ba.example",
  source: 'x = 2.0  # "a" & <b>\ny = x * 3',
  granularity: "expanded",
  frame: 4,
};

describe("share snippets", () => {
  it("permalink reopens the same program, granularity and frame", () => {
    const url = new URL(permalink(state));
    assert.equal(url.pathname, "/");
    assert.deepEqual(readUrlState(url.search), {
      source: state.source,
      granularity: "expanded",
      frame: 4,
    });
  });
  it("the iframe points at /embed with a title, lazy loading and the embed's options", () => {
    const snippet = iframeSnippet({
      ...state,
      embed: { hide: ["editor", "code"], autoplay: true },
    });
    assert.match(snippet, /^<iframe src="https:\/\/ba\.example\/embed\?source=/);
    assert.match(snippet, /title="backprop-animator: x = 2.0 {2}# &quot;a&quot; &amp; &lt;b&gt;"/);
    assert.match(snippet, /loading="lazy"/);
    assert.match(snippet, /&amp;controls=-code&amp;autoplay=1"/);
    assert.ok(
      snippet.endsWith(`\n${heightListenerSnippet(state.origin)}`),
      "every iframe snippet carries the listener",
    );
    const src = snippet.match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&");
    assert.equal(src, embedUrl({ ...state, embed: { hide: ["editor", "code"], autoplay: true } }));
  });
  it("the iframe's height follows the parts it shows", () => {
    const height = (hide) =>
      Number(iframeSnippet({ ...state, embed: { hide } }).match(/height="(\d+)"/)[1]);
    assert.equal(height(["editor"]), 760);
    assert.equal(height([]), 1010);
    assert.equal(height(["editor", "code", "narration"]), 540);
  });
  it("the script snippet escapes the program into one attribute", () => {
    const snippet = scriptSnippet(state);
    assert.equal(snippet.split("\n").length, 2);
    assert.doesNotMatch(snippet, /data-backprop-(controls|autoplay|theme)/);
    assert.match(
      snippet,
      /data-backprop-source="x = 2.0 {2}# &quot;a&quot; &amp; &lt;b&gt;&#10;y = x \* 3"/,
    );
    assert.match(snippet, /data-backprop-granularity="expanded" data-backprop-frame="4"/);
    assert.match(
      snippet,
      /<script src="https:\/\/ba\.example\/static\/embed\.js" async><\/script>$/,
    );
  });
  it("the script snippet carries the dialog's options, which the script-tag embed reads back", () => {
    const embed = {
      hide: ["editor", "code"],
      autoplay: true,
      theme: /** @type {const} */ ("dark"),
    };
    const snippet = scriptSnippet({ ...state, embed });
    const div = snippet.split("\n")[0];
    assert.match(div, / data-backprop-controls="-code"/);
    assert.match(div, / data-backprop-autoplay="1"/);
    assert.match(div, / data-backprop-theme="dark"/);
    const params = new URLSearchParams();
    for (const [, name, value] of div.matchAll(/data-backprop-(\w+)="([^"]*)"/g))
      params.set(name, value);
    assert.deepEqual(readEmbedOptions(params), {
      hide: ["editor", "code"],
      autoplay: true,
      speed: null,
      theme: "dark",
    });
  });
  it("the script snippet leaves out the editor, which the script-tag embed does not have", () => {
    const snippet = scriptSnippet({ ...state, embed: { hide: ["narration"] } });
    assert.match(snippet, /data-backprop-controls="-narration"/);
    assert.doesNotMatch(snippet, /editor/);
  });
  it("every snippet carries the quiz and the lab when they are on (issue 23, 6)", () => {
    const lab = { mistake: /** @type {const} */ ("assign"), sortSteps: true, gradcheck: true };
    const on = { ...state, quiz: true, lab };
    for (const url of [permalink(on), embedUrl(on), exportUrl(on)]) {
      const search = new URL(url).search;
      assert.equal(readQuiz(search), true, url);
      assert.equal(readLabState(search).mistake, "assign", url);
      assert.equal(readLabState(search).sortSteps, true, url);
    }
    const div = scriptSnippet(on).split("\n")[0];
    const params = new URLSearchParams();
    for (const [, name, value] of div.matchAll(/data-backprop-(\w+)="([^"]*)"/g))
      params.set(name, value);
    assert.equal(readQuiz(params.toString()), true);
    assert.deepEqual(readLabState(params), {
      mistake: "assign",
      sortSteps: true,
      gradcheck: false, // the script-tag embed has no check panel
      scheme: "forward",
    });
    for (const url of [permalink(state), embedUrl(state), exportUrl(state)])
      assert.equal(readQuiz(new URL(url).search), false, url);
    assert.doesNotMatch(scriptSnippet(state), /quiz|mistake|sort_steps/);
  });
  it("escapeAttribute leaves nothing that ends an attribute or opens a tag", () => {
    assert.equal(escapeAttribute(`"><script>&`), "&quot;&gt;&lt;script&gt;&amp;");
  });
  it("the height listener is one script tag from the app's origin", () => {
    assert.equal(
      heightListenerSnippet("https://ba.example"),
      '<script src="https://ba.example/static/height-listener.js" async></script>',
    );
  });
});
