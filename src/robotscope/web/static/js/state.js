/* What the page knows, shared by its modules, and the share link that carries its input.
 *
 * A share link keeps the whole input in the URL's fragment, which browsers
 * never send to a server: `#z=` deflate-raw compressed, or `#j=` plain where
 * CompressionStream is missing; both base64url of the JSON
 * {t: robots.txt, a: agent, u: URLs, p: paths, l: language, e: engine,
 * r: the pasted response}. Links made before `l`, `e` or `r` existed still
 * open, in the current language and the default reading, with no response.
 */

export const state = {
  info: null, // GET /api/info: version, languages, engines, limits (max_body, max_urls, ...), fetch
  result: null, // the last /api/analyse answer; its texts are in result.lang
  origin: null, // the robots.txt URL the editor's text was fetched from, if it was: other origins' URLs are noted
};

function base64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/* A link that unpacks to more than the page would ever open (a deflate bomb among them). */
export class LinkTooLarge extends Error {
  constructor(limit) {
    super("the share link unpacks to more than " + limit + " bytes");
    this.limit = limit;
  }
}

const PIECE = 1024; // bytes of link fed to the inflater at a time: deflate makes at most ~1 MB of them

/* `bytes` inflated, stopped as soon as they pass `limit` bytes: a few hundred KB of link must not
 * become hundreds of MB in the page. The inflater turns each piece written into it into output at
 * once, so the link goes in small pieces, and no more once the output is over the limit. */
async function inflate(bytes, limit) {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reading = drain(stream.readable.getReader(), limit);
  let failed = false;
  reading.catch((error) => { failed = true; writer.abort(error).catch(() => {}); });
  try {
    for (let at = 0; at < bytes.length && !failed; at += PIECE) await writer.write(bytes.subarray(at, at + PIECE));
    if (!failed) await writer.close();
  } catch (e) { /* the reading side says why: too large, or not deflate at all */ }
  return reading;
}

/* The inflater's output as one array; LinkTooLarge (and the stream cancelled) past `limit` bytes. */
async function drain(reader, limit) {
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new LinkTooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) { out.set(chunk, at); at += chunk.length; }
  return out;
}

/* The fragment (without #) that holds `query` ({t, a, u, p, l}). */
async function encode(query) {
  const json = new TextEncoder().encode(JSON.stringify(query));
  if (typeof CompressionStream === "function") {
    try { return "z=" + base64url(await pipe(json, new CompressionStream("deflate-raw"))); } catch (e) { /* plain below */ }
  }
  return "j=" + base64url(json);
}

/* The query a fragment holds, every field a string (l and e null when the link has none);
 * null when the fragment holds no share link; throws LinkTooLarge when its JSON is over
 * `limit` bytes, another error when it is broken. */
export async function readShareLink(hash, limit) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  let bytes = null;
  if (params.has("z") && typeof DecompressionStream === "function") {
    bytes = await inflate(unbase64url(params.get("z")), limit);
  } else if (params.has("j")) {
    bytes = unbase64url(params.get("j"));
    if (bytes.length > limit) throw new LinkTooLarge(limit);
  }
  if (bytes === null) return null;
  const data = JSON.parse(new TextDecoder().decode(bytes));
  if (!data || typeof data !== "object") throw new Error("not a share link");
  const text = (key) => (typeof data[key] === "string" ? data[key] : "");
  const optional = (key) => (typeof data[key] === "string" ? data[key] : null);
  return { t: text("t"), a: text("a"), u: text("u"), p: text("p"), l: optional("l"), e: optional("e"), r: text("r") };
}

let writes = 0;

/* Puts `query` in the address bar (no history entry); a later call wins over a slower earlier one. */
export async function writeShareLink(query) {
  const mine = ++writes;
  const fragment = await encode(query);
  if (mine !== writes) return;
  const url = new URL(window.location.href);
  url.hash = fragment;
  history.replaceState(null, "", url.toString());
}
