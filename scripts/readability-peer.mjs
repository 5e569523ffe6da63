// Readability.js (Firefox Reader View's extraction) as a peer of `plainview eval`.
//
// Reads one JSON object per line on stdin, {"html": "...", "url": "..."}, and
// writes one per line on stdout, in the same order: {"title": "...", "content":
// "..."} (both "" when Readability finds no article), or {"error": "..."} when
// this page made jsdom or Readability throw. One process serves a whole run:
// starting node and loading jsdom costs more than extracting most pages.
//
// Pages are parsed as Readability's own tests parse them: jsdom with the
// page's URL, no scripts run, no resources loaded; Readability's defaults.

import { createInterface } from "node:readline";
import { once } from "node:events";
import { JSDOM, VirtualConsole } from "jsdom";
import { Readability } from "@mozilla/readability";

// A console that prints nothing: jsdom's CSS and parse warnings would
// otherwise interleave with the answers' lines.
const silent = new VirtualConsole();

function extract(html, url) {
  const dom = new JSDOM(html, { url: url || undefined, virtualConsole: silent });
  try {
    const article = new Readability(dom.window.document).parse();
    return { title: article?.title ?? "", content: article?.content ?? "" };
  } finally {
    // Frees the page's window now rather than at garbage collection.
    dom.window.close();
  }
}

function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return { error: `not a JSON request: ${error.message}` };
  }
  try {
    return extract(String(request.html ?? ""), request.url);
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!process.stdout.write(`${JSON.stringify(answer(line))}\n`)) {
    // Waits for the reader so a large answer never piles up in memory.
    await once(process.stdout, "drain");
  }
}
