import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { readUrlState } from "../../static/js/url-state.js";
import {
  HEIGHT_LISTENER, describeProgram, embedUrl, escapeAttribute, iframeSnippet, permalink, scriptSnippet,
} from "../../static/js/share-snippets.js";

const state = { origin: "https://ba.example", source: 'x = 2.0  # "a" & <b>\ny = x * 3', granularity: "expanded", frame: 4 };

describe("share snippets", () => {
  it("permalink reopens the same program, granularity and frame", () => {
    const url = new URL(permalink(state));
    assert.equal(url.pathname, "/");
    assert.deepEqual(readUrlState(url.search), { source: state.source, granularity: "expanded", frame: 4 });
  });
  it("the iframe points at /embed with a title, lazy loading and the embed's options", () => {
    const snippet = iframeSnippet({ ...state, embed: { hide: ["editor", "code"], autoplay: true } });
    assert.match(snippet, /^<iframe src="https:\/\/ba\.example\/embed\?source=/);
    assert.match(snippet, /title="backprop-animator: backpropagation through x = 2.0 {2}# &quot;a&quot; &amp; &lt;b&gt;"/);
    assert.match(snippet, /loading="lazy"/);
    assert.match(snippet, /&amp;controls=-code&amp;autoplay=1"/);
    const src = snippet.match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&");
    assert.equal(src, embedUrl({ ...state, embed: { hide: ["editor", "code"], autoplay: true } }));
  });
  it("the iframe's height follows the parts it shows", () => {
    const height = (hide) => Number(iframeSnippet({ ...state, embed: { hide } }).match(/height="(\d+)"/)[1]);
    assert.equal(height(["editor"]), 760);
    assert.equal(height([]), 1010);
    assert.equal(height(["editor", "code", "narration"]), 540);
  });
  it("the script snippet escapes the program into one attribute", () => {
    const snippet = scriptSnippet(state);
    assert.equal(snippet.split("\n").length, 2);
    assert.match(snippet, /data-backprop-source="x = 2.0 {2}# &quot;a&quot; &amp; &lt;b&gt;&#10;y = x \* 3"/);
    assert.match(snippet, /data-backprop-granularity="expanded" data-backprop-frame="4"/);
    assert.match(snippet, /<script src="https:\/\/ba\.example\/static\/embed\.js" async><\/script>$/);
  });
  it("escapeAttribute leaves nothing that ends an attribute or opens a tag", () => {
    assert.equal(escapeAttribute(`"><script>&`), "&quot;&gt;&lt;script&gt;&amp;");
  });
  it("describeProgram skips comments and shortens long lines", () => {
    assert.equal(describeProgram("# hi\n\n"), "backprop-animator player");
    assert.ok(describeProgram(`y = ${"x + ".repeat(40)}x`).endsWith("…"));
  });
  it("the height listener is the five lines the README shows", () => {
    assert.equal(HEIGHT_LISTENER.split("\n").length, 7);
    assert.match(HEIGHT_LISTENER, /backprop-animator:height/);
  });
});
