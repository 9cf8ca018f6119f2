// A fair deal (docs/fairness.md): the commitment shown during the game, and the check of the revealed seed and salt.
//
// Pure: no page, no connection, no language; the hashing is given crypto.subtle (the browser's, or Node's).

// How much of the commitment the page shows at a glance; the whole of it is shown on demand.
export const SHORT_DIGITS = 8;

export function shortCommitment(commitment) {
  return commitment.slice(0, SHORT_DIGITS);
}

// A seed is a whole number up to 2^63, past what a JavaScript number holds exactly:
// read every "seed" as its decimal text, so "<seed>:<salt>" hashes as the server wrote it.
export function parseKeepingSeeds(text) {
  return JSON.parse(text.replace(/"seed":(\s*)(\d+)/g, '"seed":$1"$2"'));
}

async function sha256Hex(text, subtle) {
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The commitment to a seed: the lowercase hex SHA-256 of "<seed>:<salt>".
export function commitmentOf(seed, salt, subtle) {
  return sha256Hex(`${seed}:${salt}`, subtle);
}

// What the page can say of a deal: "sealed" while the game runs (nothing revealed yet),
// "verified" or "mismatch" once the seed and salt are out, "unavailable" where the browser
// has no SHA-256 (crypto.subtle exists only in a secure context), "missing" for a game without one.
export async function checkDeal(fairness, subtle = globalThis.crypto && globalThis.crypto.subtle) {
  if (!fairness || !fairness.commitment) return "missing";
  if (fairness.seed == null || fairness.salt == null) return "sealed";
  if (!subtle) return "unavailable";
  try {
    const again = await commitmentOf(fairness.seed, fairness.salt, subtle);
    return again === fairness.commitment.toLowerCase() ? "verified" : "mismatch";
  } catch {
    return "unavailable";
  }
}

// The deal of a game's record (GET /api/games/{id}/record, read with parseKeepingSeeds): the seed is the record's own.
export function recordDeal(record) {
  if (!record || !record.fairness) return null;
  return { commitment: record.fairness.commitment, seed: record.seed ?? null, salt: record.fairness.salt ?? null };
}
