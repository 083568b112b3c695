import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { readEmbedOptions } from "../../static/js/hosts/embed-options.js";
import { readLabState } from "../../static/js/lab/lab-url.js";
import {
  exampleChoice,
  exampleKey,
  findExample,
  hiddenParts,
  previewSearch,
} from "../../static/js/hosts/picker-fields.js";
import { readQuiz, readUrlState } from "../../static/js/hosts/url-state.js";

const FIELDS = {
  source: "a = Value(3.0)\nb = a + a\nb.backward()",
  granularity: "packed",
  quiz: true,
  mistake: "",
  sortSteps: false,
  gradcheck: false,
  show: ["code", "narration"],
};
const EXAMPLES = [
  { id: "neuron", title: "A tanh neuron", source: "n = 1", granularity: "packed" },
  {
    key: "mistake-assign",
    title: "Bug lab: = instead of +=",
    source: "a + a",
    mistake: "assign",
  },
  {
    key: "sort-steps",
    title: "The sort",
    source: "x*x",
    sort_steps: true,
    granularity: "expanded",
  },
];

describe("previewSearch", () => {
  it("is an /embed address that the embed reads back as the form has it", () => {
    const search = previewSearch({
      ...FIELDS,
      granularity: "expanded",
      mistake: "assign",
      sortSteps: true,
      gradcheck: true,
      show: ["editor", "narration"],
    });
    assert.deepEqual(readUrlState(search), {
      source: FIELDS.source,
      granularity: "expanded",
      frame: 0,
    });
    assert.equal(readQuiz(search), true);
    assert.deepEqual(readLabState(search), {
      mistake: "assign",
      sortSteps: true,
      gradcheck: true,
      scheme: "forward",
    });
    assert.deepEqual(readEmbedOptions(search).hide, ["code"]);
  });
  it("leaves out what is off and the embed's defaults", () => {
    const search = previewSearch({ ...FIELDS, source: "a + a", quiz: false });
    assert.equal(search, "?source=a+%2B+a&granularity=packed&frame=0");
  });
  it("hides the parts left unticked", () => {
    const search = previewSearch({ ...FIELDS, source: "a", show: [] });
    assert.deepEqual(readEmbedOptions(search).hide, ["editor", "code", "narration"]);
  });
  it("matches the module's example", () => {
    assert.equal(
      previewSearch({ ...FIELDS, source: "a + a", mistake: "assign", show: ["narration"] }),
      "?source=a+%2B+a&granularity=packed&frame=0&quiz=1&mistake=assign&controls=-code",
    );
  });
});

describe("hiddenParts", () => {
  it("is every part not shown", () => {
    assert.deepEqual(hiddenParts(["code"]), ["editor", "narration"]);
    assert.deepEqual(hiddenParts(["editor", "code", "narration"]), []);
  });
});

describe("examples", () => {
  it("are named by key, or the API's id", () => {
    assert.deepEqual(EXAMPLES.map(exampleKey), ["neuron", "mistake-assign", "sort-steps"]);
    assert.equal(findExample(EXAMPLES, "sort-steps"), EXAMPLES[2]);
    assert.equal(findExample(EXAMPLES, ""), null);
    assert.equal(findExample(EXAMPLES, "nope"), null);
  });
  it("fill the program, their options and an empty title", () => {
    assert.deepEqual(exampleChoice(EXAMPLES[1], ""), {
      source: "a + a",
      title: "Bug lab: = instead of +=",
      granularity: null,
      mistake: "assign",
      sortSteps: false,
      gradcheck: false,
    });
    assert.deepEqual(exampleChoice(EXAMPLES[2], "  "), {
      source: "x*x",
      title: "The sort",
      granularity: "expanded",
      mistake: "",
      sortSteps: true,
      gradcheck: false,
    });
  });
  it("keep a title the teacher wrote, not one an earlier example put there", () => {
    assert.equal(exampleChoice(EXAMPLES[0], "Week 3: backprop").title, "Week 3: backprop");
    assert.equal(
      exampleChoice(EXAMPLES[0], "Bug lab: = instead of +=", "Bug lab: = instead of +=").title,
      "A tanh neuron",
    );
  });
});
