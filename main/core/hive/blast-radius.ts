import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { BlastRadius } from '../../../shared/contract/commands';
import { parseFrontmatter } from '../stores/frontmatter';
import type { WorkspacePaths } from '../platform/paths/workspace-paths';
import { readStoreSnapshot, type StoreLine } from '../human/write/store-snapshot';

type Radius = z.infer<typeof BlastRadius>;

const SCAN_LIMIT_BYTES = 64 * 1024 * 1024;

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function skillFiles(projectDir: string): string[] {
  const generated = path.join(projectDir, '.opencode', 'skills', 'generated');
  const proposals = path.join(projectDir, '.swarm', 'skills', 'proposals');
  return [
    ...listDir(generated).map((slug) => path.join(generated, slug, 'SKILL.md')),
    ...listDir(proposals)
      .filter((name) => name.endsWith('.md') && !name.includes('.tmp'))
      .map((name) => path.join(proposals, name)),
  ].filter((file) => fs.existsSync(file));
}

function citedIds(file: string): string[] {
  try {
    const ids = parseFrontmatter(fs.readFileSync(file, 'utf8')).frontmatter?.source_knowledge_ids;
    return Array.isArray(ids) ? ids.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * Everything that depends on the selected hive entries, so the person sees what quarantining them
 * touches: generated skills and proposals citing them, projects that confirmed them, link stores
 * holding the same ids, and lines of the open project's directive, receipt and event logs that
 * mention them. Read-only; a file too large to scan is named in `notes`.
 */
export function blastRadius(paths: WorkspacePaths, dataDir: string, selected: readonly StoreLine[]): Radius {
  const ids = selected.map((line) => line.id as string);
  const radius: Radius = { skills: [], confirmedBy: [], linkStores: [], references: [], notes: [] };

  for (const file of skillFiles(paths.projectDir)) {
    const cited = new Set(citedIds(file));
    for (const id of ids) {
      if (cited.has(id)) radius.skills.push({ entryId: id, skill: path.basename(path.dirname(file)) === 'proposals' ? path.basename(file, '.md') : path.basename(path.dirname(file)), path: file });
    }
  }

  for (const line of selected) {
    const confirmed = line.value?.confirmed_by;
    if (!Array.isArray(confirmed)) continue;
    for (const item of confirmed) {
      const project = typeof item === 'string' ? item : typeof item === 'object' && item && typeof (item as { project_name?: unknown }).project_name === 'string' ? (item as { project_name: string }).project_name : null;
      if (project) radius.confirmedBy.push({ entryId: line.id as string, project });
    }
  }

  const linksDir = path.join(dataDir, 'links');
  for (const linkId of listDir(linksDir)) {
    const store = path.join(linksDir, linkId, 'knowledge.jsonl');
    if (!fs.existsSync(store)) continue;
    if (fs.statSync(store).size > SCAN_LIMIT_BYTES) {
      radius.notes.push(`${store} is over 64 MiB and was not scanned`);
      continue;
    }
    const snapshot = readStoreSnapshot(store);
    for (const id of ids) if (snapshot.byId.has(id)) radius.linkStores.push({ entryId: id, linkId });
  }

  const logs = [
    path.join(paths.knowledgeDir, 'knowledge.jsonl'),
    path.join(paths.knowledgeDir, 'knowledge-application.jsonl'),
    path.join(paths.swarmDir, 'events.jsonl'),
    path.join(paths.swarmDir, 'unacknowledged-criticals.jsonl'),
    path.join(paths.swarmDir, 'knowledge-receipts-v2.jsonl'),
  ];
  for (const file of logs) {
    let text: string;
    try {
      if (fs.statSync(file).size > SCAN_LIMIT_BYTES) {
        radius.notes.push(`${file} is over 64 MiB and was not scanned`);
        continue;
      }
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n');
    for (const id of ids) {
      const quoted = JSON.stringify(id);
      const count = lines.filter((l) => l.includes(quoted)).length;
      if (count > 0) radius.references.push({ entryId: id, file, lines: count });
    }
  }
  return radius;
}
