// What sticks out of a page on a screen `width` CSS pixels wide (tests/test_phone_layout.py runs it
// in Chromium): each element and each run of text (a long word sticks out of its element) that
// reaches past the screen's edge outside a box that scrolls sideways; each picture wider than the
// screen, even in such a box; each such box that holds more than it shows; and how wide the page is
// (a phone's browser zooms out to show a wider page: then the window is wider than the screen).
((width) => {
  const fits = (box) => box.left >= -0.5 && box.right <= width + 0.5;
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const held = (el) => {
    for (let up = el; up && up !== document.documentElement; up = up.parentElement)
      if (scrolls(up) && fits(up.getBoundingClientRect())) return true;
    return false;
  };
  const named = (el) => {
    const path = [];
    for (let up = el; up && up !== document.body; up = up.parentElement) {
      const classes = typeof up.className === "string" ? up.className.trim().split(/\s+/).filter(Boolean) : [];
      path.unshift([up.localName, ...classes].join("."));
    }
    return path.join(" > ");
  };
  const out = [], pictures = [];
  const insideSvg = (n) => n.parentElement && n.parentElement.closest("svg");  // the picture as a whole counts
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (insideSvg(n) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = n.nodeType === Node.TEXT_NODE;
    if (text && !n.data.trim()) continue;
    let box;
    if (text) {
      const range = document.createRange();
      range.selectNodeContents(n);
      box = range.getBoundingClientRect();
    } else box = n.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const el = text ? n.parentElement : n;
    if ((n.localName === "svg" || n.localName === "img") && box.width > width + 0.5)
      pictures.push(named(el) + " is " + Math.round(box.width) + " px wide");
    if (fits(box) || held(text ? el : el.parentElement)) continue;
    out.push(named(el) + (text ? " (text " + JSON.stringify(n.data.trim().slice(0, 30)) + ")" : "")
             + " spans " + Math.round(box.left) + " to " + Math.round(box.right) + " px");
  }
  const cut = [...document.body.querySelectorAll("*")]
    .filter((el) => scrolls(el) && el.scrollWidth > el.clientWidth + 1)
    .map((el) => named(el) + " shows " + el.clientWidth + " px of " + el.scrollWidth);
  return {page: document.documentElement.scrollWidth, window: innerWidth, out, pictures, cut};
})
