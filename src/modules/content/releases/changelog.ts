// The service's own CHANGELOG.md (Keep a Changelog): one release per `## [version] - YYYY-MM-DD` heading.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Release {
  id: string;
  title: string;
  /** ISO 8601 date-time, UTC. */
  published_at: string;
  source: string;
  source_id: string | null;
}

/** The project root's CHANGELOG.md. */
const CHANGELOG_PATH = fileURLToPath(new URL('../../../../CHANGELOG.md', import.meta.url));

const HEADING = /^##\s+\[?v?([^\]\s]+)\]?(?:\([^)]*\))?\s*(?:[-–—]\s*(\d{4}-\d{2}-\d{2}))?\s*(.*)$/;

/**
 * Releases of a Keep a Changelog document, in document order. `[Unreleased]` and headings without a valid
 * date are skipped (nothing to place them by). The title is `<version>` plus the first change line when any.
 */
export function parseChangelog(markdown: string, source = 'api'): Release[] {
  const releases: Release[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const match = HEADING.exec(line);
    if (!match) continue;
    const [, version, date] = match;
    if (!version || /^unreleased$/i.test(version) || !date) continue;
    const ms = Date.parse(`${date}T00:00:00Z`);
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== date) continue;
    releases.push({
      id: `${source}:${version}`,
      title: `Crestwatch ${version}`,
      published_at: new Date(ms).toISOString(),
      source,
      source_id: version,
    });
  }
  return releases;
}

/** Reads and parses the changelog; a missing file is no releases (logged by the caller). */
export function loadChangelog(path = CHANGELOG_PATH): { releases: Release[]; error: string | null } {
  try {
    return { releases: parseChangelog(fs.readFileSync(path, 'utf8')), error: null };
  } catch (error) {
    return { releases: [], error: (error as Error).message };
  }
}
