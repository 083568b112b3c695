/*
 * backprop-animator: size each embedded player's <iframe> to its content, so a
 * course page shows no second scrollbar. Load it once on the page around the frames
 * (it is /static/height-listener.js on the app's server; the share dialog gives the
 * tag), or paste this file's text in a <script>. The player posts
 * {type: "backprop-animator:height", height} whenever its height changes
 * (static/js/hosts/frame-messages.js); this finds the frame that sent it and sets its
 * height. Only numbers are read from the message. Including it twice is harmless.
 */
addEventListener("message", (event) => {
  const data = event.data;
  if (!data || data.type !== "backprop-animator:height" || !(data.height > 0)) return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow === event.source) frame.style.height = Math.ceil(data.height) + "px";
  }
});
